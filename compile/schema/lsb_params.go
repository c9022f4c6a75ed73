package schema

import "github.com/lsfc/lsfc/lang"

// lsbParams describes lsb.params: the single Parameters section of
// cluster-wide batch settings (scheduling intervals, fairshare weights,
// preemption, event and accounting logs, multicluster and query tuning). It
// follows the LSF 10.1 configuration reference; notes record openlava and
// other versions.
var lsbParams = File{
	Kind: lang.KindLSBParams,
	Doc:  "Cluster-wide batch system parameters read by mbatchd.",
	Sections: []Section{
		{
			Name: "Parameters",
			Form: KeyValue,
			Doc:  "Holds every cluster-wide batch parameter; all keys are optional and fall back to built-in defaults.",
			Keys: []Key{
				{
					Name:    "ABS_RUNLIMIT",
					Type:    Bool,
					Default: "N",
					Doc:     "Treats run limits and run time estimates as wall-clock time instead of normalizing them by the host CPU factor.",
				},
				{
					Name:  "ACCT_ARCHIVE_AGE",
					Type:  Duration,
					Unit:  "days",
					Range: ">0",
					Doc:   "Age of lsb.acct after which it is switched and archived.",
				},
				{
					Name:  "ACCT_ARCHIVE_SIZE",
					Type:  Memory,
					Unit:  "KB",
					Range: ">0",
					Doc:   "Size of lsb.acct after which it is switched and archived.",
				},
				{
					Name:   "ACCT_ARCHIVE_TIME",
					Type:   Special,
					Syntax: "hh:mm",
					Doc:    "Time of day at which lsb.acct is switched and archived every day.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "ADVRSV_USER_LIMIT",
					Type:    Int,
					Default: "100",
					Range:   "1..10000",
					Doc:     "Most advance reservations one user or user group may hold.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "ALLOCATION_PLANNER",
					Type:    Special,
					Default: "N",
					Syntax:  "Y | N | \"WINDOW[minutes] MAX_TIME[minutes]\"",
					Doc:     "Turns on the allocation planner for plan-based scheduling; keys set how far ahead it plans (WINDOW, minutes) and how long it may search (MAX_TIME, minutes).",
					Since:   "10.1.0.3",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "ALLOW_EVENT_TYPE",
					Type:   Names,
					Syntax: "event_type ...",
					Doc:    "Event types that are written to the event stream; others are left out.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "AR_AVAILABLE_STATUS",
					Type:   Names,
					Syntax: "host_status ...",
					Doc:    "Host states in which a host still counts as available when advance reservations are made.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name: "AR_RUNLIMIT_CHECK",
					Type: Bool,
					Doc:  "Checks job run limits against the end of the advance reservation a job uses.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "ATTR_CREATE_USERS",
					Type:    Special,
					Default: "none",
					Syntax:  "none | all | \"user_name ...\"",
					Doc:     "Users allowed to create host attributes for attribute affinity scheduling; none turns the feature off.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "ATTR_MAX_NUM",
					Type:    Int,
					Default: "100",
					Range:   ">0",
					Doc:     "Most host attributes that may exist in the cluster at once; further creation requests are refused.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "ATTR_TTL",
					Type:   Special,
					Syntax: "hours | minutes{m | M}",
					Doc:    "Time to live of a newly created host attribute that no job uses, in hours or in minutes with an m suffix.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name: "BCONF_DUPLICATE_UNIX_UG",
					Type: Bool,
					Doc:  "Controls whether bconf accepts a user group that duplicates a UNIX group of the same name.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "BJOBS_RES_REQ_DISPLAY",
					Type:    Enum,
					Default: "brief",
					Enum:    []string{"none", "brief", "full"},
					Doc:     "How much of the resource requirements bjobs -l shows: none, the job's own (brief) or the combined and effective ones (full).",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "BSWITCH_MODIFY_RUSAGE",
					Type:    Bool,
					Default: "N",
					Doc:     "Lets bswitch replace a job's rusage with the one of the destination queue.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name: "CHUNK_JOB_DURATION",
					Type: Duration,
					Unit: "minutes",
					Doc:  "Longest CPU or run limit (or estimate) a job may have and still be put in a chunk.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "CLEAN_PERIOD",
					Type:    Duration,
					Unit:    "seconds",
					Default: "3600",
					Range:   ">0",
					Doc:     "How long finished jobs stay in mbatchd memory before they are cleaned out.",
				},
				{
					Name:  "CLEAN_PERIOD_DONE",
					Type:  Duration,
					Unit:  "seconds",
					Range: ">0",
					Doc:   "How long successfully finished (DONE and PDONE) jobs stay in memory; overrides CLEAN_PERIOD for them.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "COMMITTED_RUN_TIME_FACTOR",
					Type:    Float,
					Default: "0",
					Range:   "0..1",
					Doc:     "Weight of committed but unused run time in the fairshare dynamic priority.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "COMPUTE_UNIT_TYPES",
					Type:   Special,
					Syntax: "type1 type2 ... (one may end in !)",
					Doc:    "Compute unit types from finest to coarsest; a ! marks the default type used by cu[] requirements.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "CONDENSE_PENDING_REASONS",
					Type:    Enum,
					Default: "N",
					Enum:    []string{"ALL", "PARTIAL", "N"},
					Doc:     "Condenses host-based pending reasons into a generic one, for all of them (ALL) or only some (PARTIAL), to lighten mbatchd.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:  "CPU_PEAK_SAMPLE_DURATION",
					Type:  Duration,
					Unit:  "seconds",
					Range: ">0",
					Doc:   "Length of the sampling window used to compute the peak CPU usage of jobs.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "CPU_TIME_FACTOR",
					Type:    Float,
					Default: "0.7",
					Range:   ">=0",
					Doc:     "Weight of accumulated CPU time in the fairshare dynamic priority.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "CSM_VALID_SMT",
					Type:   Names,
					Syntax: "smt_value ...",
					Doc:    "Simultaneous multithreading modes that CSM jobs may request; the first is the default.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "DEFAULT_APPLICATION",
					Type:   Name,
					Syntax: "application_profile_name",
					Doc:    "Application profile given to jobs submitted without -app.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:  "DEFAULT_BWAIT_TIMEOUT",
					Type:  Duration,
					Unit:  "minutes",
					Range: ">0",
					Doc:   "Time bwait waits for its condition when no -t timeout is given.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "DEFAULT_HOST_SPEC",
					Type:   Name,
					Syntax: "host_name | host_model",
					Doc:    "Host or host model whose CPU factor normalizes CPU and run limits cluster-wide; the fastest host when unset.",
				},
				{
					Name:   "DEFAULT_JOBGROUP",
					Type:   Name,
					Syntax: "job_group_name",
					Doc:    "Job group that jobs submitted without -g join; may contain %u, %p and similar patterns.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "DEFAULT_JOB_CWD",
					Type:   Path,
					Syntax: "directory",
					Doc:    "Working directory given to jobs submitted without -cwd; may contain %J, %U, %P and similar patterns.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "DEFAULT_JOB_OUTDIR",
					Type:   Path,
					Syntax: "directory",
					Doc:    "Output directory given to jobs submitted without -outdir; may contain dynamic patterns.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "DEFAULT_PROJECT",
					Type:    Name,
					Default: "default",
					Doc:     "Project name charged when a job gives none.",
				},
				{
					Name:   "DEFAULT_QUEUE",
					Type:   Names,
					Syntax: "queue_name ...",
					Doc:    "Queues tried in order for jobs submitted without -q; the first that accepts the job wins. A queue named default is created when unset.",
				},
				{
					Name:    "DEFAULT_RC_ACCOUNT_PER_PROJECT",
					Type:    Bool,
					Default: "N",
					Doc:     "Uses the project name of a job as its resource connector account when none is given.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "DEFAULT_RESREQ_ORDER",
					Type:   Special,
					Syntax: "order_string",
					Doc:    "Order section applied cluster-wide to jobs whose requirements have no order[].",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "DEFAULT_SLA_VELOCITY",
					Type:    Int,
					Default: "10",
					Range:   ">0",
					Doc:     "Velocity (concurrently running jobs) assumed for a velocity goal of a service class that gives none.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "DEFAULT_USER_GROUP",
					Type:   Name,
					Syntax: "user_group",
					Doc:    "User group jobs are charged to when no -G is given and fairshare or group limits need one.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "DETECT_IDLE_JOB_AFTER",
					Type:    Duration,
					Unit:    "minutes",
					Default: "20",
					Range:   ">0",
					Doc:     "Run time after which a job may be reported as idle by JOB_IDLE checks.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "DIAGNOSE_LOGDIR",
					Type:   Path,
					Syntax: "directory",
					Doc:    "Directory where mbatchd query diagnostics are written (see ENABLE_DIAGNOSE); LSF_LOGDIR when unset.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "DISABLE_UACCT_MAP",
					Type:    Bool,
					Default: "N",
					Doc:     "Stops users from running jobs under other accounts through .lsfhosts user mapping.",
				},
				{
					Name:    "DOCKER_IMAGE_AFFINITY",
					Type:    Bool,
					Default: "N",
					Doc:     "Prefers hosts that already hold the Docker image a container job needs; queue and application profile settings win.",
					Since:   "10.1.0.9",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "EADMIN_TRIGGER_DURATION",
					Type:    Duration,
					Unit:    "minutes",
					Default: "1",
					Range:   ">0",
					Doc:     "How often eadmin is invoked for job exceptions that keep occurring.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "EGO_SLOTBASED_VELOCITY_SLA",
					Type:    Bool,
					Default: "Y",
					Doc:     "Makes velocity goals of EGO-enabled service classes count slots rather than jobs.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "EGROUP_UPDATE_INTERVAL",
					Type:   Special,
					Syntax: "hours | minutesm",
					Doc:    "Interval at which mbatchd reruns egroup to refresh dynamic user and host group members; hours, or minutes with m.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "ELIGIBLE_PENDINFO_SNAPSHOT_INTERVAL",
					Type:    Duration,
					Unit:    "minutes",
					Default: "5",
					Range:   ">0",
					Doc:     "How often mbatchd records eligible and ineligible pending times of jobs for TRACK_ELIGIBLE_PENDINFO.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "ENABLE_DEFAULT_EGO_SLA",
					Type:   Name,
					Syntax: "service_class_name",
					Doc:    "EGO-enabled service class that takes jobs submitted without -sla; defining it turns the default SLA on.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name: "ENABLE_DIAGNOSE",
					Type: Enum,
					Enum: []string{"query"},
					Doc:  "Turns on mbatchd diagnosis of query requests, logged to DIAGNOSE_LOGDIR.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "ENABLE_EVENT_STREAM",
					Type:    Bool,
					Default: "N",
					Doc:     "Writes job events to the event stream file read by external tools.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "ENABLE_EXIT_RATE_PER_SLOT",
					Type:    Bool,
					Default: "N",
					Doc:     "Measures host and job exit rates per job slot rather than per job.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "ENABLE_GPU_HIST_RUN_TIME",
					Type:    Bool,
					Default: "N",
					Doc:     "Adds decayed historical GPU run time to the fairshare dynamic priority.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "ENABLE_HIST_RUN_TIME",
					Type:    Bool,
					Default: "N",
					Doc:     "Adds decayed historical run time to the fairshare dynamic priority.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "ENABLE_HOST_INTERSECTION",
					Type:    Bool,
					Default: "N",
					Doc:     "Runs a job on the intersection of the hosts named by queue, job, application and advance reservation instead of rejecting conflicts.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name: "ENABLE_JOB_INFO_BY_ADMIN_ROLE",
					Type: EnumList,
					Enum: []string{"usergroup", "queue", "cluster"},
					Doc:  "Lets user group, queue and cluster administrators see details of jobs they administer when SECURE_JOB_INFO_LEVEL hides them.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "ENABLE_RC_ACCOUNT_REQUEST_BY_USER",
					Type:    Bool,
					Default: "N",
					Doc:     "Lets users name a resource connector account for their jobs at submission.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "ENABLE_USER_RESUME",
					Type:    Bool,
					Default: "N",
					Doc:     "Lets users resume their own jobs that an administrator suspended.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "ENFORCE_ONE_UG_LIMITS",
					Type:    Bool,
					Default: "N",
					Doc:     "Applies only the limits of the user group a job was submitted under (-G), not those of every group the user is in.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "ENFORCE_UG_TREE",
					Type:    Bool,
					Default: "N",
					Doc:     "Builds user groups as one tree, keeping only the first place a group appears, for fairshare and limits.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "ESTIMATOR_CPUS",
					Type:   Special,
					Syntax: "cpu_list",
					Doc:    "CPUs the job start time estimator process is bound to.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:  "ESTIMATOR_MAX_JOBS_PREDICTION",
					Type:  Int,
					Range: ">0",
					Doc:   "Most pending jobs the start time estimator predicts in one pass.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:  "ESTIMATOR_MAX_RUNTIME_PREDICTION",
					Type:  Duration,
					Unit:  "hours",
					Range: ">0",
					Doc:   "Upper bound on the predictions of the start time estimator (how far ahead it looks).",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:  "ESTIMATOR_MAX_TIME_PREDICTION",
					Type:  Duration,
					Unit:  "minutes",
					Range: ">0",
					Doc:   "Longest time the estimator may spend on one simulation.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:  "ESTIMATOR_SIM_START_INTERVAL",
					Type:  Duration,
					Unit:  "minutes",
					Range: ">0",
					Doc:   "Interval between two runs of the start time estimator.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "EVALUATE_JOB_DEPENDENCY",
					Type:    Int,
					Default: "unlimited",
					Range:   ">0",
					Doc:     "Most job dependencies mbatchd evaluates in one scheduling session.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "EVALUATE_JOB_DEPENDENCY_TIMEOUT",
					Type:   Special,
					Syntax: "seconds | millisecondsms",
					Doc:    "Time limit for evaluating job dependencies in one session, in seconds or milliseconds with ms.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "EVALUATE_WAIT_CONDITION_TIMEOUT",
					Type:   Special,
					Syntax: "seconds | millisecondsms",
					Doc:    "Time limit for evaluating bwait conditions in one session, in seconds or milliseconds with ms.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "EVENT_STREAM_FILE",
					Type:    Path,
					Default: "LSB_SHAREDIR/cluster_name/logdir/stream/lsb.stream",
					Syntax:  "file_path",
					Doc:     "File that the event stream is written to.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:  "EVENT_UPDATE_INTERVAL",
					Type:  Duration,
					Unit:  "seconds",
					Range: ">0",
					Doc:   "How often the duplicate event log (LSB_LOCALDIR) is synchronized with the shared copy.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "EXIT_RATE_TYPE",
					Type:    EnumList,
					Default: "JOBEXIT_NONLSF",
					Enum:    []string{"JOBEXIT", "JOBEXIT_NONLSF", "JOBINIT", "HPCINIT"},
					Doc:     "Which exits count towards host exit rates: all exits, non-LSF exits, job start failures and/or parallel-job start failures.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "EXTEND_JOB_EXCEPTION_NOTIFY",
					Type:    Bool,
					Default: "N",
					Doc:     "Passes detailed job exception information to eadmin.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "FAIRSHARE_ADJUSTMENT_FACTOR",
					Type:    Float,
					Default: "0",
					Range:   ">=0",
					Doc:     "Weight of the fairshare adjustment plugin in the dynamic priority.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "FAIRSHARE_JOB_COUNT",
					Type:    Bool,
					Default: "N",
					Doc:     "Counts jobs instead of job slots when computing fairshare dynamic priority.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name: "FWD_JOB_FACTOR",
					Type: Float,
					Doc:  "Weight of jobs forwarded to other clusters in the fairshare dynamic priority.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "GLOBAL_EXIT_RATE",
					Type:    Int,
					Default: "unlimited",
					Range:   ">0",
					Doc:     "Exits per minute across the cluster above which eadmin is run for a global exit-rate exception.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "GPU_REQ_MERGE",
					Type:    Bool,
					Default: "N",
					Doc:     "Merges GPU requirements of job, application profile and queue option by option instead of taking the first one whole.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "GPU_RUN_TIME_FACTOR",
					Type:    Float,
					Default: "0",
					Doc:     "Weight of GPU run time in the fairshare dynamic priority.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "HIST_HOURS",
					Type:    Duration,
					Unit:    "hours",
					Default: "5",
					Range:   ">=0",
					Doc:     "Decay period for historical CPU and run time in fairshare: after this many hours an hour of use counts as 0.1 hour; 0 disables decay.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported; openlava uses HIST_MINUTES (default 120)"},
					},
				},
				{
					Name:    "JOB_ACCEPT_INTERVAL",
					Type:    Special,
					Unit:    "MBD_SLEEP_TIME",
					Default: "1",
					Syntax:  "integer[s | m]",
					Doc:     "Pause before a host that just received a job gets another one; a bare integer counts MBD_SLEEP_TIME periods, 0 means no pause.",
					Notes: []Note{
						{Version: "openlava", Note: "integer multiple of MBD_SLEEP_TIME only; no s or m suffix"},
					},
				},
				{
					Name:    "JOB_ARRAY_EVENTS_COMBINE",
					Type:    Bool,
					Default: "N",
					Doc:     "Logs events of job array elements in combined records with index ranges.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "JOB_ATTA_DIR",
					Type:   Path,
					Syntax: "directory",
					Doc:    "Shared directory where job message attachments (bpost -a) are stored.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name: "JOB_CONTROLS_FAIL_DEFAULT_ACTION",
					Type: String,
					Doc:  "Action LSF falls back on when a configured job control action fails.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:  "JOB_CWD_TTL",
					Type:  Duration,
					Unit:  "hours",
					Range: ">=0",
					Doc:   "How long a working directory that LSF created for a job is kept after the job ends.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "JOB_DEP_LAST_SUB",
					Type:   Int,
					Syntax: "1",
					Doc:    "With 1, a dependency on a job name refers only to the most recently submitted job of that name.",
				},
				{
					Name:    "JOB_DISPATCH_PACK_SIZE",
					Type:    Int,
					Default: "300",
					Range:   ">=0",
					Doc:     "Dispatch decisions mbschd accumulates before publishing them to mbatchd within a session; 0 publishes at session end.",
					Since:   "10.1.0.10",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "JOB_DISTRIBUTE_ON_HOST",
					Type:    Enum,
					Default: "pack",
					Enum:    []string{"pack", "balance", "any"},
					Doc:     "Policy (pack, balance or any) for placing the tasks of parallel jobs on their hosts.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "JOB_EXIT_RATE_DURATION",
					Type:    Duration,
					Unit:    "minutes",
					Default: "5",
					Range:   ">0",
					Doc:     "Window over which job exit rates are measured for host exception handling.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "JOB_GROUP_CLEAN",
					Type:    Bool,
					Default: "N",
					Doc:     "Deletes implicitly created job groups once they are empty.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "JOB_INCLUDE_POSTPROC",
					Type:    Bool,
					Default: "N",
					Doc:     "Keeps a job running (holding its slots) until post-execution processing has finished.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:  "JOB_INFO_EVENT_DUMP_INTERVAL",
					Type:  Duration,
					Unit:  "minutes",
					Range: ">0",
					Doc:   "How often mbatchd dumps cached job information to disk.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:  "JOB_INFO_MEMORY_CACHE_SIZE",
					Type:  Memory,
					Unit:  "MB",
					Range: ">=0",
					Doc:   "Memory mbatchd may use to cache job information for queries.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "JOB_POSITION_CONTROL_BY_ADMIN",
					Type:    Bool,
					Default: "N",
					Doc:     "Allows only administrators to move jobs with btop and bbot.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:  "JOB_POSTPROC_TIMEOUT",
					Type:  Duration,
					Unit:  "minutes",
					Range: ">0",
					Doc:   "Time allowed for post-execution processing before it is killed and reported as failed.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:  "JOB_PREPROC_TIMEOUT",
					Type:  Duration,
					Unit:  "minutes",
					Range: ">0",
					Doc:   "Time allowed for pre-execution processing before it is killed and the job requeued.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "JOB_PRIORITY_OVER_TIME",
					Type:   Special,
					Syntax: "increment/interval",
					Doc:    "Raises the user priority of pending jobs by increment every interval minutes; needs MAX_USER_PRIORITY.",
				},
				{
					Name:    "JOB_RUNLIMIT_RATIO",
					Type:    Int,
					Default: "0",
					Range:   ">=0",
					Doc:     "Largest allowed ratio between a job's run limit and its run time estimate; 0 disables the check.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "JOB_SCHEDULING_INTERVAL",
					Type:    Special,
					Unit:    "seconds",
					Default: "5",
					Syntax:  "min_time[ms] [max_time]",
					Doc:     "Least time between scheduling sessions (seconds, or milliseconds with ms) and, optionally, the longest session before remaining jobs are skipped.",
					Notes: []Note{
						{Version: "10.1.0.10", Note: "optional second value caps session length; default cap 45 seconds"},
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "JOB_SPOOL_DIR",
					Type:   Path,
					Syntax: "directory",
					Doc:    "Directory where job files and spooled scripts are kept; must be readable by all hosts.",
				},
				{
					Name:    "JOB_SWITCH2_EVENT",
					Type:    Bool,
					Default: "N",
					Doc:     "Logs JOB_SWITCH2 events when a job array is switched, instead of one event per element.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "JOB_TERMINATE_INTERVAL",
					Type:    Duration,
					Unit:    "seconds",
					Default: "10",
					Range:   ">=0",
					Doc:     "Pause between the signals sent when a job is killed.",
				},
				{
					Name:    "KILL_JOBS_OVER_RUNLIMIT",
					Type:    Bool,
					Default: "N",
					Doc:     "Lets mbatchd kill jobs that have run past their run limit when sbatchd did not.",
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
					Name: "LSB_SYNC_HOST_STAT_LIM",
					Type: Bool,
					Doc:  "Makes mbatchd take host status from LIM, so hosts LIM reports unavailable are shown as unavail.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:  "MAX_ACCT_ARCHIVE_FILE",
					Type:  Int,
					Range: ">0",
					Doc:   "Archived lsb.acct files kept; older ones are deleted.",
				},
				{
					Name:    "MAX_CONCURRENT_QUERY",
					Type:    Int,
					Default: "100",
					Range:   ">0",
					Doc:     "Query requests mbatchd serves at the same time.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "MAX_EVENT_STREAM_FILE_NUMBER",
					Type:    Int,
					Default: "10",
					Range:   ">0",
					Doc:     "Event stream files kept after rotation.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "MAX_EVENT_STREAM_SIZE",
					Type:    Memory,
					Unit:    "MB",
					Default: "1024",
					Range:   ">0",
					Doc:     "Size at which the event stream file is rotated.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:  "MAX_INFO_DIRS",
					Type:  Int,
					Range: "1..1024",
					Doc:   "Subdirectories that the job information directory (logdir/info) is split into.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "MAX_JOBID",
					Type:    Int,
					Default: "999999",
					Range:   "999999..2147483646",
					Doc:     "Highest job ID before numbering wraps back to 1.",
					Notes: []Note{
						{Version: "openlava", Note: "range 999999..9999999"},
					},
				},
				{
					Name:    "MAX_JOBINFO_QUERY_PERIOD",
					Type:    Duration,
					Unit:    "minutes",
					Default: "unlimited",
					Range:   ">0",
					Doc:     "Only jobs submitted or finished within this period are returned by job queries.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "MAX_JOB_ARRAY_SIZE",
					Type:    Int,
					Default: "1000",
					Range:   "1..2147483646",
					Doc:     "Most elements one job array may have.",
					Notes: []Note{
						{Version: "openlava", Note: "range 1..65534"},
					},
				},
				{
					Name:    "MAX_JOB_ATTA_SIZE",
					Type:    Memory,
					Unit:    "MB",
					Default: "unlimited",
					Range:   ">=0",
					Doc:     "Largest message attachment bpost -a accepts; 0 forbids attachments.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "MAX_JOB_MSG_NUM",
					Type:    Int,
					Default: "128",
					Range:   ">0",
					Doc:     "Messages that may be posted to one job with bpost.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "MAX_JOB_NUM",
					Type:    Int,
					Default: "1000",
					Range:   ">0",
					Doc:     "Finished jobs logged in lsb.events before it is switched.",
				},
				{
					Name:    "MAX_JOB_PREEMPT",
					Type:    Int,
					Default: "unlimited",
					Range:   ">0",
					Doc:     "Times one job may be preempted; queue and application profile values win.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "MAX_JOB_PREEMPT_RESET",
					Type:    Bool,
					Default: "Y",
					Doc:     "Resets a job's preemption count when it is requeued or migrated, or leaves it counting (N).",
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
					Name:  "MAX_NUM_JOBS_KILL_OVER_RUNLIMIT",
					Type:  Int,
					Range: ">0",
					Doc:   "Most over-run-limit jobs mbatchd kills in one pass when KILL_JOBS_OVER_RUNLIMIT is set.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "MAX_PEND_JOBS",
					Type:    Int,
					Default: "unlimited",
					Range:   ">0",
					Doc:     "Pending jobs a user may have across the cluster; further submissions are rejected.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "MAX_PEND_SLOTS",
					Type:    Int,
					Default: "unlimited",
					Range:   ">0",
					Doc:     "Pending job slots a user may have across the cluster; further submissions are rejected.",
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
					Name:    "MAX_PROTOCOL_INSTANCES",
					Type:    Int,
					Default: "2",
					Range:   ">0",
					Doc:     "Most IBM Parallel Environment protocol instances per window that a job may use.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "MAX_SBD_CONNS",
					Type:    Int,
					Default: "2 * number_of_hosts + 300",
					Range:   ">0",
					Doc:     "File descriptors mbatchd keeps open for connections to sbatchd.",
					Notes: []Note{
						{Version: "9.1.3", Note: "default was number_of_hosts + 2 * LSB_MAX_JOB_DISPATCH_PER_SESSION + 200"},
						{Version: "openlava", Note: "default 4096", Default: "4096"},
					},
				},
				{
					Name:    "MAX_SBD_FAIL",
					Type:    Int,
					Default: "3",
					Range:   ">0",
					Doc:     "Failed attempts to reach an sbatchd before its host is considered unreachable.",
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
					Name:  "MAX_USER_PRIORITY",
					Type:  Int,
					Range: ">0",
					Doc:   "Highest user-assigned job priority (bsub -sp); turns user job priority on.",
				},
				{
					Name:    "MBD_EGO_CONNECT_TIMEOUT",
					Type:    Duration,
					Unit:    "seconds",
					Default: "0",
					Range:   ">=0",
					Doc:     "Connection timeout for mbatchd talking to the EGO vemkd.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "MBD_EGO_READ_TIMEOUT",
					Type:    Duration,
					Unit:    "seconds",
					Default: "0",
					Range:   ">=0",
					Doc:     "Read timeout for mbatchd talking to the EGO vemkd.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "MBD_EGO_TIME2LIVE",
					Type:    Duration,
					Unit:    "minutes",
					Default: "1440",
					Range:   ">0",
					Doc:     "How long EGO keeps the resource allocation information that mbatchd registers.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "MBD_QUERY_CPUS",
					Type:   Special,
					Syntax: "cpu_list",
					Doc:    "CPUs the query child processes of mbatchd are bound to.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "MBD_REFRESH_TIME",
					Type:    Special,
					Unit:    "seconds",
					Default: "5",
					Range:   "0..300",
					Syntax:  "seconds [min_refresh_time]",
					Doc:     "How long a forked query mbatchd serves before it is replaced, and optionally the minimum refresh time when NEWJOB_REFRESH is set.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "MBD_SLEEP_TIME",
					Type:    Duration,
					Unit:    "seconds",
					Default: "60",
					Range:   ">0",
					Doc:     "Basic mbatchd interval; several other parameters are counted in multiples of it.",
					Notes: []Note{
						{Version: "10.1", Note: "the installer writes 10"},
						{Version: "openlava", Note: "daemon built-in default is 2 although its sample file says 60", Default: "2"},
					},
				},
				{
					Name:    "MBD_USE_EGO_MXJ",
					Type:    Bool,
					Default: "N",
					Doc:     "Takes the slot limit of hosts from EGO instead of MXJ in lsb.hosts.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "MC_PENDING_REASON_PKG_SIZE",
					Type:    Memory,
					Unit:    "KB",
					Default: "500",
					Range:   ">=0",
					Doc:     "Largest package of pending reasons exchanged between clusters; 0 stops the exchange.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "MC_PENDING_REASON_UPDATE_INTERVAL",
					Type:    Duration,
					Unit:    "seconds",
					Default: "300",
					Range:   ">=0",
					Doc:     "How often pending reasons of forwarded jobs are sent back to the submission cluster; 0 turns it off.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "MC_PLUGIN_SCHEDULE_ENHANCE",
					Type:   Special,
					Syntax: "RESOURCE_ONLY | COUNT_PREEMPTABLE [HIGH_QUEUE_PRIORITY] [PREEMPTABLE_QUEUE_PRIORITY] [PENDING_WHEN_NOSLOTS] | DYN_CLUSTER_WEIGHTING",
					Doc:    "Job forwarding picks remote clusters by remote resources and, optionally, preemptable jobs and queue priorities; needs MC_PLUGIN_UPDATE_INTERVAL.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:  "MC_PLUGIN_UPDATE_INTERVAL",
					Type:  Duration,
					Unit:  "seconds",
					Range: ">0",
					Doc:   "How often clusters exchange the resource information used by MC_PLUGIN_SCHEDULE_ENHANCE.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "MC_RECLAIM_DELAY",
					Type:    Duration,
					Unit:    "minutes",
					Default: "10",
					Range:   ">0",
					Doc:     "Wait before leased hosts are reclaimed in the resource leasing model.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "MC_RESOURCE_MATCHING_CRITERIA",
					Type:   Names,
					Syntax: "resource_name ...",
					Doc:    "Numeric and string resources the execution cluster reports for matching forwarded jobs, besides type and boolean resources.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "MC_RUSAGE_UPDATE_INTERVAL",
					Type:    Duration,
					Unit:    "seconds",
					Default: "300",
					Range:   ">0",
					Doc:     "How often resource usage of forwarded jobs is reported back to the submission cluster.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "MC_SORT_BY_SUBMIT_TIME",
					Type:    Bool,
					Default: "N",
					Doc:     "Orders forwarded jobs in the execution cluster by their original submission time.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "MIN_SWITCH_PERIOD",
					Type:    Duration,
					Unit:    "seconds",
					Default: "0",
					Range:   ">=0",
					Doc:     "Least time between two switches of lsb.events; 0 switches only by MAX_JOB_NUM.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "NEWJOB_REFRESH",
					Type:    Bool,
					Default: "N",
					Doc:     "Lets query mbatchd children pick up newly submitted jobs without waiting for MBD_REFRESH_TIME.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
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
					Name:  "ORPHAN_JOB_TERM_GRACE_PERIOD",
					Type:  Duration,
					Unit:  "seconds",
					Range: ">=0",
					Doc:   "Wait before LSF kills jobs whose dependency can never be met because a parent failed.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "PARALLEL_SCHED_BY_SLOT",
					Type:    Bool,
					Default: "N",
					Doc:     "Schedules parallel jobs by slots rather than processors (CPUs).",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:  "PEND_REASON_MAX_JOBS",
					Type:  Int,
					Range: ">0",
					Doc:   "Most jobs whose pending reasons are computed in one pass.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "PEND_REASON_UPDATE_INTERVAL",
					Type:    Duration,
					Unit:    "seconds",
					Default: "30",
					Range:   ">0",
					Doc:     "How often pending reasons of jobs are recomputed.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "PERFORMANCE_THRESHOLD_FILE",
					Type:    Path,
					Default: "LSF_ENVDIR/lsbatch/cluster_name/configdir/lsb.threshold",
					Syntax:  "file_path",
					Doc:     "File holding the thresholds that badmin perfmon compares scheduler metrics with.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "PG_SUSP_IT",
					Type:    Duration,
					Unit:    "seconds",
					Default: "180",
					Range:   ">=0",
					Doc:     "A host must stay idle this long before jobs suspended for paging (pg) may be resumed.",
				},
				{
					Name:    "PLAN",
					Type:    Special,
					Default: "N",
					Syntax:  "Y | N | \"<key>[value] ...\"",
					Doc:     "Marks jobs as candidates for plan-based reservation by the allocation planner; queue and application profile values win.",
					Since:   "10.1.0.3",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "POWER_ON_WAIT",
					Type:    Duration,
					Unit:    "seconds",
					Default: "0",
					Range:   ">=0",
					Doc:     "Wait after a host is powered on before jobs are dispatched to it.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name: "POWER_RESET_CMD",
					Type: Command,
					Doc:  "Command that resets (power-cycles) a host for power management.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name: "POWER_RESUME_CMD",
					Type: Command,
					Doc:  "Command that powers a suspended host back on.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "POWER_STATUS_LOG_MAX",
					Type:    Int,
					Default: "10000",
					Range:   ">0",
					Doc:     "Power state changes kept in the power status log.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name: "POWER_SUSPEND_CMD",
					Type: Command,
					Doc:  "Command that suspends (powers down) an idle host.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "POWER_SUSPEND_TIMEOUT",
					Type:    Duration,
					Unit:    "seconds",
					Default: "600",
					Range:   ">0",
					Doc:     "Time allowed for a power suspend, resume or reset before it is reported as failed.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "PREEMPTABLE_RESOURCES",
					Type:   Names,
					Syntax: "resource_name ...",
					Doc:    "Consumable resources, besides slots, that preemption may free for pending jobs.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "PREEMPTION_WAIT_TIME",
					Type:    Duration,
					Unit:    "seconds",
					Default: "300",
					Range:   ">0",
					Doc:     "How long preemption waits for freed resources to appear before trying again.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:  "PREEMPT_DELAY",
					Type:  Duration,
					Unit:  "seconds",
					Range: ">=0",
					Doc:   "Seconds a pending job of a preemptive queue waits after submission before it may preempt.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name: "PREEMPT_FOR",
					Type: EnumList,
					Enum: []string{"GROUP_JLP", "GROUP_MAX", "HOST_JLU", "LEAST_RUN_TIME", "MINI_JOB", "OPTIMAL_MINI_JOB", "USER_JLP"},
					Doc:  "Extra grounds for preemption and how victims are chosen (per-group, per-host and per-user slot limits, least run time, mini jobs).",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name: "PREEMPT_JOBTYPE",
					Type: EnumList,
					Enum: []string{"EXCLUSIVE", "BACKFILL", "AFFINITY"},
					Doc:  "Job types that may be preempted besides ordinary ones: exclusive, backfill and affinity jobs.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "PREEXEC_EXCLUDE_HOST_EXIT_VALUES",
					Type:   Special,
					Syntax: "all [~exit_value] ... | exit_value ...",
					Doc:    "Pre-execution exit codes after which the job is kept off that host when it is retried.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "PRIVILEGED_USER_FORCE_BKILL",
					Type:    Bool,
					Default: "N",
					Doc:     "Restricts bkill -r to root and LSF administrators.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "RC_MAX_REQUESTS",
					Type:    Int,
					Default: "300",
					Range:   ">0",
					Doc:     "Most hosts the resource connector may request from providers in one cycle.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "RELAX_JOB_DISPATCH_ORDER",
					Type:   Special,
					Syntax: "Y | N | ALLOC_REUSE_DURATION[[minimum] maximum] [SHARE[[user] [group] [project] [all]]]",
					Doc:    "Lets similar pending jobs reuse the allocation of a finished job, relaxing strict dispatch order.",
					Notes: []Note{
						{Version: "10.1", Note: "installer configuration templates set Y"},
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
					Name:   "REMOVE_HUNG_JOBS_FOR",
					Type:   Special,
					Syntax: "runlimit[,wait_time=minutes] | host_unavail[,wait_time=minutes] | runlimit[...]:host_unavail[...] | all[,wait_time=minutes]",
					Doc:    "Removes jobs stuck past their run limit or on unavailable hosts after an optional wait.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "RESOURCE_RESERVE_PER_SLOT",
					Type:    Bool,
					Default: "N",
					Doc:     "Reserves rusage resources per slot instead of per host for parallel jobs.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
					Obsolete: "10.1: replaced by RESOURCE_RESERVE_PER_TASK",
				},
				{
					Name:    "RESOURCE_RESERVE_PER_TASK",
					Type:    Bool,
					Default: "N",
					Doc:     "Reserves rusage resources per task instead of per host for parallel jobs.",
					Since:   "10.1",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "RUN_JOB_FACTOR",
					Type:    Float,
					Default: "3.0",
					Range:   ">=0",
					Doc:     "Weight of job slots in use in the fairshare dynamic priority.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "RUN_TIME_DECAY",
					Type:    Bool,
					Default: "N",
					Doc:     "Decays the run time of running jobs in fairshare the same way as historical run time.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "RUN_TIME_FACTOR",
					Type:    Float,
					Default: "0.7",
					Range:   ">=0",
					Doc:     "Weight of job run time in the fairshare dynamic priority.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "SAME_JOB_AFFINITY",
					Type:    Bool,
					Default: "N",
					Doc:     "Allows the samehost and samecu keywords of bsub -jobaff.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "SBD_SLEEP_TIME",
					Type:    Duration,
					Unit:    "seconds",
					Default: "30",
					Range:   ">0",
					Doc:     "Interval at which sbatchd checks load and job state on its host.",
					Notes: []Note{
						{Version: "10.1", Note: "the installer writes 7"},
					},
				},
				{
					Name:    "SCHEDULER_THREADS",
					Type:    Int,
					Default: "0",
					Range:   ">=0",
					Doc:     "Threads mbschd uses to match jobs against hosts; 0 keeps matching single-threaded.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "SCHED_METRIC_ENABLE",
					Type:    Bool,
					Default: "N",
					Doc:     "Collects scheduler performance metrics for badmin perfmon.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "SCHED_METRIC_SAMPLE_PERIOD",
					Type:    Duration,
					Unit:    "seconds",
					Default: "60",
					Range:   ">0",
					Doc:     "Sampling period of scheduler performance metrics.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "SCHED_PER_JOB_SORT",
					Type:    Bool,
					Default: "N",
					Doc:     "Sorts candidate hosts separately for every job instead of once per job class.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "SECURE_INFODIR_USER_ACCESS",
					Type:    Enum,
					Default: "N",
					Enum:    []string{"Y", "N", "G"},
					Doc:     "Closes the job information directory to ordinary users (Y, or G for access that follows SECURE_JOB_INFO_LEVEL); N leaves it readable.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "SECURE_JOB_INFO_LEVEL",
					Type:    Int,
					Default: "0",
					Range:   "0..5",
					Doc:     "How much users may see of other users' jobs; 0 shows everything, higher levels hide more.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name: "SIMPLIFIED_GUARANTEE",
					Type: Bool,
					Doc:  "Uses the simplified model for guaranteed resource pools of service classes.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "SLA_TIMER",
					Type:    Duration,
					Unit:    "seconds",
					Default: "0",
					Range:   ">=0",
					Doc:     "How often service class goals are evaluated.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "SSCHED_ACCT_DIR",
					Type:   Path,
					Syntax: "directory",
					Doc:    "Directory where the session scheduler writes per-task accounting files; none are written when unset.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "SSCHED_MAX_RUNLIMIT",
					Type:    Duration,
					Unit:    "seconds",
					Default: "600",
					Range:   ">=0",
					Doc:     "Longest run time of one session scheduler task; 0 means no limit.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "SSCHED_MAX_TASKS",
					Type:    Int,
					Default: "50000",
					Range:   ">0",
					Doc:     "Most tasks one session scheduler session may run.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "SSCHED_REQUEUE_LIMIT",
					Type:    Int,
					Default: "3",
					Range:   ">=0",
					Doc:     "Times a session scheduler task may be requeued.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "SSCHED_RETRY_LIMIT",
					Type:    Int,
					Default: "3",
					Range:   ">=0",
					Doc:     "Times a session scheduler task may be retried after a dispatch failure.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "SSCHED_UPDATE_SUMMARY_BY_TASK",
					Type:    Int,
					Default: "0",
					Range:   ">=0",
					Doc:     "Finished tasks after which the session scheduler summary is updated; 0 disables it.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "SSCHED_UPDATE_SUMMARY_INTERVAL",
					Type:    Duration,
					Unit:    "seconds",
					Default: "60",
					Range:   ">=0",
					Doc:     "How often the session scheduler summary is updated; 0 disables it.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "STRICT_UG_CONTROL",
					Type:    Bool,
					Default: "N",
					Doc:     "Makes user group administrators' rights and group limits apply only to jobs submitted under that group (-G).",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "STRIPING_WITH_MINIMUM_NETWORK",
					Type:    Bool,
					Default: "N",
					Doc:     "For IBM Parallel Environment striping, also accepts hosts with fewer usable networks than requested.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "SUB_TRY_INTERVAL",
					Type:    Duration,
					Unit:    "seconds",
					Default: "60",
					Range:   ">=0",
					Doc:     "Wait between retries when a submission is refused because mbatchd is busy or limits are reached.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:   "SYSTEM_MAPPING_ACCOUNT",
					Type:   Name,
					Syntax: "user_account",
					Doc:    "Account that jobs from Windows users without a UNIX mapping run under.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "TRACK_ELIGIBLE_PENDINFO",
					Type:    Bool,
					Default: "N",
					Doc:     "Tracks eligible and ineligible pending time of jobs separately.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
				{
					Name:    "USE_SUSP_SLOTS",
					Type:    Bool,
					Default: "Y",
					Doc:     "Counts slots of suspended jobs as free for resource allocation limits.",
					Notes: []Note{
						{Version: "openlava", Note: "not supported"},
					},
				},
			},
		},
	},
}
