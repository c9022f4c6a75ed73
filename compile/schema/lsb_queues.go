package schema

import "github.com/lsfc/lsfc/lang"

// lsbQueues describes lsb.queues: one Queue section per batch queue, holding
// its scheduling policy, limits, host and user lists, pre- and post-execution
// commands and multicluster settings. Load-index thresholds (r15s, r1m, ut,
// mem ...) are accepted through LoadIndices rather than listed as keys. It
// follows the LSF 10.1 configuration reference; notes record openlava.
var lsbQueues = File{
	Kind: lang.KindLSBQueues,
	Doc:  "Batch queues: one section per queue with its policies, limits and host and user lists.",
	Sections: []Section{
		{
			Name:     "Queue",
			Form:     KeyValue,
			Multiple: true,
			Doc:      "Defines one batch queue; QUEUE_NAME is required and every other key is optional.",
			Keys: []Key{
				{
					Name:   "ADMINISTRATORS",
					Type:   Users,
					Syntax: "user_name | user_group ...",
					Doc:    "Users or user groups who may manage the queue and any job in it, besides cluster administrators.",
				},
				{
					Name:   "APS_PRIORITY",
					Type:   Special,
					Syntax: "WEIGHT[[factor, value] [subfactor, value] ...] LIMIT[[factor, value] ...] GRACE_PERIOD[[factor, value[s|m|h]] ...]",
					Doc:    "Turns on absolute priority scheduling for the queue: weights, caps and grace periods of the factors that order its pending jobs.",
					Since:  "7.0",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "BACKFILL",
					Type:    Bool,
					Default: "N",
					Doc:     "Lets jobs with a known end time borrow slots that are held for a reserving job, when they finish before it would start.",
				},
				{
					Name:   "CHKPNT",
					Type:   Special,
					Syntax: "chkpnt_dir [chkpnt_period]",
					Doc:    "Makes jobs of the queue checkpointable: the directory for checkpoint files and, optionally, the automatic checkpoint period in minutes.",
				},
				{
					Name:  "CHUNK_JOB_SIZE",
					Type:  Int,
					Range: ">=1",
					Doc:   "Most short jobs that may be dispatched together to one host as a single chunk; 1 turns chunking off.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:  "COMMITTED_RUN_TIME_FACTOR",
					Type:  Float,
					Range: "0..1",
					Doc:   "Weight of committed but unused run time in the fairshare dynamic priority of this queue; takes precedence over lsb.params.",
					Since: "10.1",
					Notes: []Note{
						{Version: "9.1", Note: "cluster-wide only (lsb.params); not settable per queue"},
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "CORELIMIT",
					Type:    Limit,
					Unit:    "LSF_UNIT_FOR_LIMITS",
					Default: "unlimited",
					Syntax:  "integer",
					Doc:     "Largest core file a process of the job may write.",
					Notes: []Note{
						{Version: "openlava", Note: "value in KB; LSF_UNIT_FOR_LIMITS does not exist"},
					},
				},
				{
					Name:    "CPULIMIT",
					Type:    Limit,
					Unit:    "minutes",
					Default: "unlimited",
					Syntax:  "[default_limit] maximum_limit, each [hours:]minutes[/host_name | /host_model]",
					Doc:     "CPU time a job may use, normalized to a host or model when one is named; one value is the hard limit, two are default and hard limit.",
				},
				{
					Name:   "CPU_FREQUENCY",
					Type:   Special,
					Syntax: "float_number[GHz | MHz | KHz]",
					Doc:    "Nominal CPU frequency that jobs of the queue run at, for energy-aware scheduling; GHz when no unit is given.",
					Since:  "9.1.2",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:  "CPU_TIME_FACTOR",
					Type:  Float,
					Doc:   "Weight of accumulated CPU time in the fairshare dynamic priority of this queue; takes precedence over lsb.params.",
					Since: "10.1",
					Notes: []Note{
						{Version: "9.1", Note: "cluster-wide only (lsb.params); not settable per queue"},
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "CSM_REQ",
					Type:   Special,
					Syntax: "[jsm=y | n | d][:step_cgroup=y | n][:core_isolation=0..6][:cn_mem=mem_value][:alloc_flags=\"flag ...\"]",
					Doc:    "IBM Cluster Systems Management settings applied to jobs of the queue (jsm launch, step cgroup, core isolation, compute-node memory, allocation flags).",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "DATALIMIT",
					Type:    Limit,
					Unit:    "LSF_UNIT_FOR_LIMITS",
					Default: "unlimited",
					Syntax:  "[default_limit] maximum_limit",
					Doc:     "Size of the data segment of each process of the job.",
					Notes: []Note{
						{Version: "openlava", Note: "value in KB; LSF_UNIT_FOR_LIMITS does not exist"},
					},
				},
				{
					Name:    "DATA_TRANSFER",
					Type:    Bool,
					Default: "N",
					Doc:     "Marks the queue that LSF Data Manager uses for its staging (data transfer) jobs; only one queue may have it.",
					Since:   "10.1",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "DEFAULT_EXTSCHED",
					Type:   String,
					Syntax: "external_scheduler_options",
					Doc:    "External scheduler options merged into every job of the queue that is submitted with -ext or without it.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "DEFAULT_HOST_SPEC",
					Type:   Name,
					Syntax: "host_name | host_model",
					Doc:    "Host or host model whose CPU factor normalizes the CPU and run limits of the queue; overrides lsb.params.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "DESCRIPTION",
					Type:   String,
					Syntax: "text",
					Doc:    "Free text about the queue, shown by bqueues -l; at most 512 characters.",
				},
				{
					Name:    "DISPATCH_BY_QUEUE",
					Type:    Bool,
					Default: "N",
					Doc:     "Publishes the dispatch decisions of this queue as soon as it has been scheduled instead of at the end of the whole session.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name: "DISPATCH_ORDER",
					Type: Enum,
					Enum: []string{"QUEUE"},
					Doc:  "With cross-queue fairshare, QUEUE makes queue priority decide first and user priority second.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "DISPATCH_WINDOW",
					Type:   Window,
					Syntax: "time_window ...",
					Doc:    "Time windows in which jobs of the queue may be dispatched; running jobs are not affected when it closes. Always open when unset.",
				},
				{
					Name:    "DOCKER_IMAGE_AFFINITY",
					Type:    Bool,
					Default: "N",
					Doc:     "Prefers hosts that already hold the Docker image a container job needs; an application profile setting overrides it.",
					Since:   "10.1.0.9",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "ELIGIBLE_PEND_TIME_LIMIT",
					Type:   Special,
					Syntax: "[hour:]minute",
					Doc:    "Longest time a job may stay pending while eligible to run before LSF treats it as over the limit and runs eadmin.",
					Since:  "9.1.1",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "ENABLE_GPU_HIST_RUN_TIME",
					Type:    Bool,
					Default: "N",
					Doc:     "Adds decayed historical GPU run time to the fairshare dynamic priority of this queue.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:  "ENABLE_HIST_RUN_TIME",
					Type:  Bool,
					Doc:   "Adds decayed historical run time to the fairshare dynamic priority of this queue; takes precedence over lsb.params.",
					Since: "10.1",
					Notes: []Note{
						{Version: "9.1", Note: "cluster-wide only (lsb.params); not settable per queue"},
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "EXCLUSIVE",
					Type:    Special,
					Default: "N",
					Syntax:  "Y | N | CU[cu_type]",
					Doc:     "Lets jobs submitted with bsub -x run alone on their hosts (Y) or alone in compute units of the given type (CU).",
					Notes: []Note{
						{Version: "openlava", Note: "Y or N only"},
					},
				},
				{
					Name:   "EXTENDABLE_RUNLIMIT",
					Type:   Special,
					Syntax: "BASE[minutes] INCREMENT[minutes] GRACE[minutes] REQUEUE[Y | N]",
					Doc:    "Soft run limit that the allocation planner keeps extending while no other job needs the resources; needs ALLOCATION_PLANNER.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "FAIRSHARE",
					Type:   Special,
					Syntax: "USER_SHARES[[user, number_shares] ...]",
					Doc:    "Turns on queue-level fairshare and assigns shares to users, groups, each member of a group (group@), default and others.",
				},
				{
					Name:  "FAIRSHARE_ADJUSTMENT_FACTOR",
					Type:  Float,
					Doc:   "Weight of the fairshare adjustment plugin in the dynamic priority of this queue; takes precedence over lsb.params.",
					Since: "10.1",
					Notes: []Note{
						{Version: "9.1", Note: "cluster-wide only (lsb.params); not settable per queue"},
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "FAIRSHARE_QUEUES",
					Type:   Names,
					Syntax: "queue_name ...",
					Doc:    "Other queues that share the fairshare policy of this (master) queue, making cross-queue fairshare.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "FILELIMIT",
					Type:    Limit,
					Unit:    "LSF_UNIT_FOR_LIMITS",
					Default: "unlimited",
					Syntax:  "integer",
					Doc:     "Largest file a process of the job may create.",
					Notes: []Note{
						{Version: "openlava", Note: "value in KB; LSF_UNIT_FOR_LIMITS does not exist"},
					},
				},
				{
					Name: "FWD_JOB_FACTOR",
					Type: Float,
					Doc:  "Weight of jobs forwarded to other clusters in the fairshare dynamic priority of this queue.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "FWD_USERS",
					Type:   Users,
					Syntax: "all | [~]user_name | [~]user_group ...",
					Doc:    "Users and user groups whose jobs may be forwarded from this queue to remote clusters.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "GPU_REQ",
					Type:   Special,
					Syntax: "\"[num=num_gpus[/task | host]] [:mode=shared | exclusive_process] [:mps=yes[,shared][,nocvd] | no | per_socket[...] | per_gpu[...]] [:j_exclusive=yes | no] [:aff=yes | no] [:block=yes | no] [:gpack=yes | no] [:gvendor=amd | nvidia] [:gmodel=model[-mem]] [:gtile=n | '!'] [:gmem=mem] [:glink=yes] [:mig=GI_size[/CI_size]]\"",
					Doc:    "Default GPU requirement for jobs of the queue, merged with job and application profile requirements.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name: "GPU_RUN_TIME_FACTOR",
					Type: Float,
					Doc:  "Weight of GPU run time in the fairshare dynamic priority of this queue.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:  "HIST_HOURS",
					Type:  Duration,
					Unit:  "hours",
					Range: ">=0",
					Doc:   "Decay period of historical CPU and run time for fairshare in this queue; takes precedence over lsb.params.",
					Since: "10.1",
					Notes: []Note{
						{Version: "9.1", Note: "cluster-wide only (lsb.params); not settable per queue"},
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "HJOB_LIMIT",
					Type:    Int,
					Default: "unlimited",
					Range:   ">=0",
					Doc:     "Most job slots this queue may use on any single host.",
				},
				{
					Name:  "HOSTLIMIT_PER_JOB",
					Type:  Int,
					Range: ">0",
					Doc:   "Most hosts that one job of the queue may span.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "HOSTS",
					Type:    Hosts,
					Default: "all",
					Syntax:  "[~]host_name[+pref] | [~]host_group[+pref] | compute_unit[+pref] | others[+pref] | all | allremote | all@cluster_name | none ...",
					Doc:     "Hosts, host groups and compute units that jobs of the queue may run on, with +preference levels, others, all and ~exclusions.",
					Notes: []Note{
						{Version: "openlava", Note: "no compute units or remote hosts; none drops the queue"},
					},
				},
				{
					Name:  "HOST_POST_EXEC",
					Type:  Command,
					Doc:   "Command run as root on every execution host after the job, before POST_EXEC.",
					Since: "9.1",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:  "HOST_PRE_EXEC",
					Type:  Command,
					Doc:   "Command run as root on every execution host before the job, before PRE_EXEC; a non-zero exit keeps the job pending.",
					Since: "9.1",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "IGNORE_DEADLINE",
					Type:    Bool,
					Default: "N",
					Doc:     "Starts jobs even when their run limit would carry them past their bsub -t termination time.",
				},
				{
					Name:    "IMPT_JOBBKLG",
					Type:    Special,
					Default: "50",
					Syntax:  "integer | infinit",
					Doc:     "Most jobs from remote clusters that this receive queue keeps pending; infinit removes the limit.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "IMPT_JOBLIMIT",
					Type:    Int,
					Default: "unlimited",
					Range:   ">=0",
					Doc:     "Most jobs from remote clusters that may run in this receive queue at once.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "IMPT_SLOTBKLG",
					Type:    Special,
					Default: "infinit",
					Syntax:  "integer | infinit",
					Doc:     "Most slots requested by pending jobs from remote clusters that this receive queue accepts.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
					Obsolete: "10.1: replaced by IMPT_TASKBKLG",
				},
				{
					Name:    "IMPT_TASKBKLG",
					Type:    Special,
					Default: "infinit",
					Syntax:  "integer | infinit",
					Doc:     "Most tasks of pending jobs from remote clusters that this receive queue accepts; infinit removes the limit.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "IMPT_TASKLIMIT",
					Type:    Int,
					Default: "unlimited",
					Range:   ">=0",
					Doc:     "Most tasks of jobs from remote clusters that may run in this receive queue at once.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "INTERACTIVE",
					Type:    Enum,
					Default: "YES",
					Enum:    []string{"YES", "Y", "NO", "N", "ONLY"},
					Doc:     "Whether the queue takes both batch and interactive jobs (YES), batch jobs only (NO) or interactive jobs only (ONLY).",
					Notes: []Note{
						{Version: "openlava", Note: "documented as Y | N | ONLY"},
					},
				},
				{
					Name:  "INTERRUPTIBLE_BACKFILL",
					Type:  Duration,
					Unit:  "seconds",
					Range: ">0",
					Doc:   "Makes the queue an interruptible backfill queue; the value is the shortest time slice worth starting a backfill job in.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "JOB_ACCEPT_INTERVAL",
					Type:   Special,
					Unit:   "MBD_SLEEP_TIME",
					Syntax: "integer[s | m]",
					Doc:    "Pause before a host that just received a job from this queue gets another one; a bare integer counts MBD_SLEEP_TIME periods, 0 means no pause. Overrides lsb.params.",
					Notes: []Note{
						{Version: "openlava", Note: "integer multiple of MBD_SLEEP_TIME only; no s or m suffix"},
					},
				},
				{
					Name:   "JOB_ACTION_WARNING_TIME",
					Type:   Special,
					Syntax: "[hour:]minute",
					Doc:    "How long before a job control action LSF sends the JOB_WARNING_ACTION.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "JOB_CONTROLS",
					Type:   Special,
					Syntax: "SUSPEND[signal | command | CHKPNT] RESUME[signal | command] TERMINATE[signal | command | CHKPNT]",
					Doc:    "Replaces the default suspend, resume and terminate actions with signals, commands or CHKPNT.",
				},
				{
					Name:  "JOB_IDLE",
					Type:  Float,
					Range: "0..1",
					Doc:   "CPU-time to run-time ratio under which a running job raises a job-idle exception.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:  "JOB_OVERRUN",
					Type:  Duration,
					Unit:  "minutes",
					Range: ">0",
					Doc:   "Run time past which a job raises an overrun exception.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "JOB_SIZE_LIST",
					Type:   Special,
					Syntax: "default_size [size ...]",
					Doc:    "Task counts that jobs of the queue may request; the first entry is used when a job gives none.",
					Since:  "9.1.3",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "JOB_STARTER",
					Type:   Command,
					Syntax: "starter [starter] [\"%USRCMD\"] [starter]",
					Doc:    "Command that wraps every job of the queue; %USRCMD marks where the job command goes.",
				},
				{
					Name:  "JOB_UNDERRUN",
					Type:  Duration,
					Unit:  "minutes",
					Range: ">0",
					Doc:   "A job that ends sooner than this raises an underrun exception.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "JOB_WARNING_ACTION",
					Type:   String,
					Syntax: "signal | CHKPNT | command",
					Doc:    "Signal or action sent to a job ahead of a control action, JOB_ACTION_WARNING_TIME in advance.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "LOCAL_MAX_PREEXEC_RETRY",
					Type:    Int,
					Default: "unlimited",
					Range:   ">0",
					Doc:     "Attempts of a failing pre-execution command on the local cluster before LOCAL_MAX_PREEXEC_RETRY_ACTION applies.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "LOCAL_MAX_PREEXEC_RETRY_ACTION",
					Type:    Enum,
					Default: "SUSPEND",
					Enum:    []string{"SUSPEND", "EXIT"},
					Doc:     "What happens to a job whose pre-execution command has failed LOCAL_MAX_PREEXEC_RETRY times: suspend it or make it exit.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "MANDATORY_EXTSCHED",
					Type:   String,
					Syntax: "external_scheduler_options",
					Doc:    "External scheduler options forced onto every job of the queue, overriding what the job asks for.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "MAX_JOB_PREEMPT",
					Type:    Int,
					Default: "unlimited",
					Range:   ">0",
					Doc:     "Times one job may be preempted; an application profile value wins, lsb.params is the fallback.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "MAX_JOB_REQUEUE",
					Type:    Int,
					Default: "unlimited",
					Range:   ">=0",
					Doc:     "Times one job may be requeued automatically through REQUEUE_EXIT_VALUES.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "MAX_PREEXEC_RETRY",
					Type:    Int,
					Default: "5",
					Range:   ">0",
					Doc:     "Attempts of a failing pre-execution command of a job from a remote cluster.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
					Obsolete: "replaced by REMOTE_MAX_PREEXEC_RETRY; kept for compatibility",
				},
				{
					Name:  "MAX_PROTOCOL_INSTANCES",
					Type:  Int,
					Range: ">0",
					Doc:   "Most IBM Parallel Environment protocol instances per window that a job of the queue may use.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "MAX_RSCHED_TIME",
					Type:    Special,
					Unit:    "MBD_SLEEP_TIME",
					Default: "20",
					Syntax:  "integer | infinit",
					Doc:     "How long a forwarded job may wait in a remote cluster before it is recalled, in MBD_SLEEP_TIME periods; infinit never recalls.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:  "MAX_SLOTS_IN_POOL",
					Type:  Int,
					Range: ">0",
					Doc:   "Slots available to the whole slot pool; set in one queue of the pool.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:  "MAX_TOTAL_TIME_PREEMPT",
					Type:  Duration,
					Unit:  "minutes",
					Range: ">0",
					Doc:   "Wall-clock time a job may spend preempted in total before it becomes non-preemptable.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "MC_FORWARD_DELAY",
					Type:   Special,
					Unit:   "seconds",
					Syntax: "[-]seconds",
					Doc:    "Seconds a job tries to start locally before it is also offered to remote clusters; a negative value stops local attempts once forwarded.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "MEMLIMIT",
					Type:    Limit,
					Unit:    "LSF_UNIT_FOR_LIMITS",
					Default: "unlimited",
					Syntax:  "[default_limit] maximum_limit",
					Doc:     "Resident memory a process may use (per job with LSB_JOB_MEMLIMIT); one value is the hard limit, two are default and hard limit.",
					Notes: []Note{
						{Version: "openlava", Note: "value in KB; LSF_UNIT_FOR_LIMITS does not exist"},
					},
				},
				{
					Name:  "MIG",
					Type:  Duration,
					Unit:  "minutes",
					Range: ">=0",
					Doc:   "Minutes a suspended checkpointable or rerunnable job waits before LSF migrates it; the lower of host and queue value wins.",
				},
				{
					Name:   "NETWORK_REQ",
					Type:   Special,
					Syntax: "\"[type=sn_all | sn_single] [:protocol=name[(count)][,name[(count)]]] [:mode=US | IP] [:usage=dedicated | shared] [:instance=count]\"",
					Doc:    "IBM Parallel Environment network requirements for jobs of the queue.",
					Since:  "9.1",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "NEW_JOB_SCHED_DELAY",
					Type:    Duration,
					Unit:    "seconds",
					Default: "0",
					Range:   ">=0",
					Doc:     "Seconds after a job is submitted to this queue before a scheduling session is started for it.",
				},
				{
					Name:    "NICE",
					Type:    Int,
					Default: "0",
					Doc:     "UNIX nice value jobs of the queue run with.",
				},
				{
					Name:   "NO_PREEMPT_FINISH_TIME",
					Type:   Special,
					Syntax: "minutes | percentage%",
					Doc:    "Jobs expected to end within this many minutes, or this share of their run limit or estimate, are not preempted.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "NO_PREEMPT_INTERVAL",
					Type:    Duration,
					Unit:    "minutes",
					Default: "0",
					Range:   ">=0",
					Doc:     "Uninterrupted run time a preemptable job keeps before it may be preempted again.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "NO_PREEMPT_RUN_TIME",
					Type:   Special,
					Syntax: "minutes | percentage%",
					Doc:    "Jobs that have run this many minutes, or this share of their run limit or estimate, are no longer preempted.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "OWNERSHIP",
					Type:   Special,
					Syntax: "USERS[[user_group, number_slots] ...] LOAN_DURATION[minutes]",
					Doc:    "Openlava slot ownership: slots owned per user group and how long idle owned slots may be lent out.",
					Notes: []Note{
						{Version: "openlava", Note: "openlava extension; not an LSF 10.1 key; cannot be combined with FAIRSHARE"},
					},
				},
				{
					Name:   "PEND_TIME_LIMIT",
					Type:   Special,
					Syntax: "[hour:]minute",
					Doc:    "Longest time a job may stay pending before LSF treats it as over the limit and runs eadmin.",
					Since:  "9.1.1",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "PJOB_LIMIT",
					Type:    Float,
					Default: "unlimited",
					Range:   ">=0",
					Doc:     "Job slots this queue may use per processor of a host.",
				},
				{
					Name:   "PLAN",
					Type:   Special,
					Syntax: "Y | N | \"<key>[value] ...\"",
					Doc:    "Marks jobs of the queue as candidates for plan-based reservation by the allocation planner; an application profile value wins.",
					Since:  "10.1.0.3",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "POST_EXEC",
					Type:   Command,
					Syntax: "command",
					Doc:    "Command run on the first execution host after each job of the queue ends.",
				},
				{
					Name:   "PREEMPTION",
					Type:   Special,
					Syntax: "PREEMPTIVE[[queue_name[+pref_level]] ...] PREEMPTABLE[[queue_name] ...]",
					Doc:    "Queues this one may preempt (PREEMPTIVE, with +preference levels) and queues that may preempt it (PREEMPTABLE); an empty list means all lower or higher queues.",
					Notes: []Note{
						{Version: "openlava", Note: "PREEMPTIVE only; preempted jobs are requeued, not suspended"},
					},
				},
				{
					Name:  "PREEMPT_DELAY",
					Type:  Duration,
					Unit:  "seconds",
					Range: ">=0",
					Doc:   "Seconds a pending job of a preemptive queue waits after submission before it may preempt.",
					Since: "9.1",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "PRE_EXEC",
					Type:   Command,
					Syntax: "command",
					Doc:    "Command run on the first execution host before each job of the queue; a non-zero exit puts the job back to pending.",
				},
				{
					Name:    "PRIORITY",
					Type:    Int,
					Default: "1",
					Syntax:  "integer",
					Doc:     "Queue priority; higher-priority queues are considered first when scheduling and preempting.",
					Notes: []Note{
						{Version: "openlava", Note: "integer >= 1"},
					},
				},
				{
					Name:    "PROCESSLIMIT",
					Type:    Limit,
					Default: "unlimited",
					Syntax:  "[default_limit] maximum_limit",
					Doc:     "Processes a job may have at once; one value is the hard limit, two are default and hard limit.",
				},
				{
					Name:     "PROCLIMIT",
					Type:     Special,
					Syntax:   "[minimum_limit [default_limit]] maximum_limit",
					Doc:      "Processors a job may request: minimum, default and maximum.",
					Obsolete: "replaced by TASKLIMIT",
				},
				{
					Name:    "QJOB_LIMIT",
					Type:    Int,
					Default: "unlimited",
					Range:   ">=0",
					Doc:     "Job slots the whole queue may use at once.",
				},
				{
					Name:   "QUEUE_GROUP",
					Type:   Names,
					Syntax: "queue_name ...",
					Doc:    "Queues whose pending jobs are ordered together with this queue's by absolute priority scheduling.",
					Since:  "7.0",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:     "QUEUE_NAME",
					Type:     Name,
					Doc:      "Name of the queue; unique in the file, and default is reserved.",
					Required: true,
				},
				{
					Name:   "RCVJOBS_FROM",
					Type:   Special,
					Syntax: "cluster_name ... | allclusters",
					Doc:    "Remote clusters whose forwarded jobs this queue accepts.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "RC_ACCOUNT",
					Type:   Name,
					Syntax: "account_name",
					Doc:    "Account tag attached to hosts that the resource connector provisions for jobs of the queue.",
					Since:  "10.1",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "RC_DEMAND_POLICY",
					Type:   Special,
					Syntax: "THRESHOLD[[num_jobs, duration] ...]",
					Doc:    "Pending-job thresholds (number of jobs, minutes pending) that must be met before the resource connector asks for new hosts.",
					Since:  "10.1",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "RC_HOSTS",
					Type:   Names,
					Syntax: "resource_name ... | all | none",
					Doc:    "Boolean resources of resource connector templates whose hosts jobs of the queue may borrow; all or none also allowed.",
					Since:  "10.1",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "RELAX_JOB_DISPATCH_ORDER",
					Type:   Special,
					Syntax: "Y | N | ALLOC_REUSE_DURATION[[minimum] maximum] [SHARE[[user] [group] [project] [all]]]",
					Doc:    "Lets similar pending jobs reuse the allocation of a finished job, relaxing strict dispatch order; overrides lsb.params.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "REMOTE_MAX_PREEXEC_RETRY",
					Type:    Int,
					Default: "5",
					Range:   ">0",
					Doc:     "Attempts of a failing pre-execution command of a job received from a remote cluster.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "REQUEUE_EXIT_VALUES",
					Type:   Special,
					Syntax: "[all [~exit_code ...] | exit_code ...] [EXCLUDE(exit_code ...)]",
					Doc:    "Exit codes that send a job back to pending automatically (all: every code but 0 and those written ~code); codes inside EXCLUDE() also keep it off the host it failed on.",
				},
				{
					Name:    "RERUNNABLE",
					Type:    Bool,
					Default: "N",
					Doc:     "Reruns jobs of the queue from the start on another host when their execution host fails.",
				},
				{
					Name:   "RESOURCE_RESERVE",
					Type:   Special,
					Syntax: "MAX_RESERVE_TIME[integer]",
					Doc:    "Lets pending jobs reserve resources for up to the given number of scheduling cycles (MBD_SLEEP_TIME periods).",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "RESRSV_LIMIT",
					Type:   Special,
					Syntax: "[res1={min1,} max1] [res2={min2,} max2] ...",
					Doc:    "Bounds on rusage values; a queue RES_REQ outside them is ignored and job or application requirements outside them are rejected.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "RESUME_COND",
					Type:   ResReq,
					Syntax: "select_string",
					Doc:    "Select expression that must hold before a system-suspended job is resumed; replaces the loadSched thresholds for resuming.",
				},
				{
					Name: "RES_REQ",
					Type: ResReq,
					Doc:  "Resource requirement applied to every job of the queue and merged with job and application profile requirements.",
					Notes: []Note{
						{Version: "openlava", Note: "default select[type==local] order[r15s:pg]", Default: "select[type==local] order[r15s:pg]"},
					},
				},
				{
					Name:    "RUNLIMIT",
					Type:    Limit,
					Unit:    "minutes",
					Default: "unlimited",
					Syntax:  "[default_limit] maximum_limit, each [hours:]minutes[/host_name | /host_model]",
					Doc:     "Wall-clock run time a job may use, normalized when a host or model is named; one value is the hard limit, two are default and hard limit.",
				},
				{
					Name:  "RUN_JOB_FACTOR",
					Type:  Float,
					Doc:   "Weight of job slots in use in the fairshare dynamic priority of this queue; takes precedence over lsb.params.",
					Since: "10.1",
					Notes: []Note{
						{Version: "9.1", Note: "cluster-wide only (lsb.params); not settable per queue"},
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:  "RUN_TIME_DECAY",
					Type:  Bool,
					Doc:   "Decays the run time of running jobs like historical run time in this queue's fairshare; takes precedence over lsb.params.",
					Since: "10.1",
					Notes: []Note{
						{Version: "9.1", Note: "cluster-wide only (lsb.params); not settable per queue"},
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:  "RUN_TIME_FACTOR",
					Type:  Float,
					Doc:   "Weight of job run time in the fairshare dynamic priority of this queue; takes precedence over lsb.params.",
					Since: "10.1",
					Notes: []Note{
						{Version: "9.1", Note: "cluster-wide only (lsb.params); not settable per queue"},
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "RUN_WINDOW",
					Type:   Window,
					Syntax: "time_window ...",
					Doc:    "Time windows in which jobs of the queue may run; when it closes running jobs are suspended and later resumed. Always open when unset.",
				},
				{
					Name:    "SLA_GUARANTEE_IGNORE",
					Type:    Bool,
					Default: "N",
					Doc:     "Lets jobs of the queue use resources guaranteed to service classes, ignoring the guarantees.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "SLOT_POOL",
					Type:   Name,
					Syntax: "pool_name",
					Doc:    "Slot pool the queue belongs to; queues of one pool share its slots by SLOT_SHARE.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "SLOT_RESERVE",
					Type:   Special,
					Syntax: "MAX_RESERVE_TIME[integer]",
					Doc:    "Lets pending parallel jobs reserve slots for up to the given number of scheduling cycles (MBD_SLEEP_TIME periods).",
				},
				{
					Name:  "SLOT_SHARE",
					Type:  Int,
					Range: "1..100",
					Doc:   "Percentage of the slot pool this queue is entitled to.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "SNDJOBS_TO",
					Type:   Special,
					Syntax: "[queue_name@]cluster_name[+preference] ...",
					Doc:    "Remote queues (queue@cluster) that jobs of this send queue may be forwarded to.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "STACKLIMIT",
					Type:    Limit,
					Unit:    "LSF_UNIT_FOR_LIMITS",
					Default: "unlimited",
					Syntax:  "integer",
					Doc:     "Stack size of each process of the job.",
					Notes: []Note{
						{Version: "openlava", Note: "value in KB; LSF_UNIT_FOR_LIMITS does not exist"},
					},
				},
				{
					Name:   "STOP_COND",
					Type:   ResReq,
					Syntax: "select_string",
					Doc:    "Select expression that suspends a running job of the queue when it becomes true.",
				},
				{
					Name:   "SUCCESS_EXIT_VALUES",
					Type:   Special,
					Syntax: "exit_code ...",
					Doc:    "Extra exit codes, besides 0, that mark a job of the queue as done rather than exited.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "SWAPLIMIT",
					Type:    Limit,
					Unit:    "LSF_UNIT_FOR_LIMITS",
					Default: "unlimited",
					Syntax:  "integer",
					Doc:     "Total virtual memory a job may use.",
					Notes: []Note{
						{Version: "openlava", Note: "value in KB; LSF_UNIT_FOR_LIMITS does not exist"},
					},
				},
				{
					Name:   "TASKLIMIT",
					Type:   Special,
					Syntax: "[minimum_limit [default_limit]] maximum_limit",
					Doc:    "Tasks a job of the queue may request: minimum, default and maximum.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported; use PROCLIMIT"},
					},
				},
				{
					Name: "TERMINATE_WHEN",
					Type: EnumList,
					Enum: []string{"LOAD", "PREEMPT", "WINDOW"},
					Doc:  "Conditions under which jobs are killed instead of suspended: high load, preemption or the run window closing.",
					Notes: []Note{
						{Version: "openlava", Note: "documents USER, LOAD and WINDOW"},
					},
				},
				{
					Name:    "THREADLIMIT",
					Type:    Limit,
					Default: "unlimited",
					Syntax:  "[default_limit] maximum_limit",
					Doc:     "Threads a job may have at once; one value is the hard limit, two are default and hard limit.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "UJOB_LIMIT",
					Type:    Int,
					Default: "unlimited",
					Range:   ">=0",
					Doc:     "Job slots one user may use in the queue at once.",
				},
				{
					Name:    "USERS",
					Type:    Users,
					Default: "all",
					Syntax:  "all [~user_name] [~user_group] | [user_name] [user_group] ...",
					Doc:     "Users and user groups that may submit to the queue, with ~exclusions; cluster administrators always may.",
				},
				{
					Name:    "USE_PAM_CREDS",
					Type:    Special,
					Default: "n",
					Syntax:  "y | n | [limits] [session]",
					Doc:     "Applies PAM resource limits to jobs of the queue and/or opens a PAM session for them.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "USE_PRIORITY_IN_POOL",
					Type:    Bool,
					Default: "N",
					Doc:     "Gives slots left unused in a slot pool to queues of higher priority first.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
			},
			LoadIndices: true,
		},
	},
}
