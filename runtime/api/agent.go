package api

import (
	"context"
	"time"
)

// AgentLoad is what an execution agent (lsfc sbatchd) reports of its host
// every Interval seconds, as LIM does: its static facts and its load
// indices. The first one registers the host's agent with the master.
type AgentLoad struct {
	Host     string  `json:"host"`
	Interval float64 `json:"interval"`
	Type     string  `json:"type,omitempty"`
	Model    string  `json:"model,omitempty"`
	Ncpus    float64 `json:"ncpus,omitempty"`
	// Nprocs, Ncores and Nthreads are the host's physical processors,
	// cores per processor and threads per core (0 when unknown): the
	// master counts the host's ncpus from them as EGO_DEFINE_NCPUS or the
	// host's define_ncpus_* resource says, up to Ncpus, the CPUs the
	// agent may use.
	Nprocs   float64            `json:"nprocs,omitempty"`
	Ncores   float64            `json:"ncores,omitempty"`
	Nthreads float64            `json:"nthreads,omitempty"`
	Maxmem   float64            `json:"maxmem,omitempty"`
	Maxswp   float64            `json:"maxswp,omitempty"`
	Maxtmp   float64            `json:"maxtmp,omitempty"`
	Load     map[string]float64 `json:"load,omitempty"`
	// GPUs are the GPUs the agent found on its host; none when it found
	// none (the configuration's then stand).
	GPUs []GPUDevice `json:"gpus,omitempty"`
}

// AgentSync is an execution agent's exchange with the master, as
// sbatchd's: the runs it knows, the ends it has to report, the orders it
// carried out; the master answers with new orders, holding the request up
// to Wait seconds when it has none.
type AgentSync struct {
	Host     string  `json:"host"`
	Interval float64 `json:"interval"`
	// Session and Ack say which orders the agent carried out: all those of
	// the master's session Session up to sequence number Ack.
	Session string `json:"session,omitempty"`
	Ack     uint64 `json:"ack,omitempty"`
	// Known lists every run the agent holds: running, or ended and not
	// yet acknowledged. Ends are the ended ones, with how they ended.
	Known []AgentRun `json:"known,omitempty"`
	Ends  []AgentEnd `json:"ends,omitempty"`
	Wait  float64    `json:"wait,omitempty"`
	// Dirs are the directories the running jobs of Known run in, by
	// job, as far as the agent knows them.
	Dirs map[int64]string `json:"dirs,omitempty"`
	// Peeks answer the master's peek orders (bpeek).
	Peeks []AgentPeek `json:"peeks,omitempty"`
	// Notified are the resize notification commands that ended, until
	// the master acknowledges them (NotifiedDone).
	Notified []AgentNotified `json:"notified,omitempty"`
	// HostExecs say how the host-based commands of HostExec orders
	// ended, until the master acknowledges them (HostDone).
	HostExecs []HostExecEnd `json:"hostExecs,omitempty"`
}

// A HostExec asks an agent to run a job's host-based pre-execution
// commands (HOST_PRE_EXEC) or, with Post, post-execution commands
// (HOST_POST_EXEC), in order, for each of its hosts of the job, Hosts,
// when the job's first host is another's: as the agent's user, in /tmp,
// with Env and HOSTNAME set to the host.
type HostExec struct {
	Post  bool       `json:"post,omitempty"`
	Steps []ExecStep `json:"steps"`
	Hosts []string   `json:"hosts"`
	Env   []string   `json:"env,omitempty"`
}

// A HostExecEnd is how the commands of a HostExec order ended: Code is
// 0 when all exited 0, else the exit code of the first that did not.
// Its AgentRun names the run of the job, Post the post-execution ones.
type HostExecEnd struct {
	AgentRun
	Code int `json:"code,omitempty"`
}

// An AgentPeek is a piece of a running job's output an agent read for a
// peek order: Data from the order's offset, Next the offset after it, or
// Err why it could not be read.
type AgentPeek struct {
	ID   uint64 `json:"id"`
	Job  int64  `json:"job"`
	Data []byte `json:"data,omitempty"`
	Next int64  `json:"next"`
	Err  string `json:"err,omitempty"`
	// Apart is set when the job's errors go apart from its output.
	Apart bool `json:"apart,omitempty"`
}

// A PeekOrder asks an agent for a piece of a running job's output, from
// Offset, answered by an AgentPeek of the same ID.
type PeekOrder struct {
	ID     uint64 `json:"id"`
	Offset int64  `json:"offset"`
	// Stderr asks for the job's errors, when they go apart from its
	// output, rather than its output.
	Stderr bool `json:"stderr,omitempty"`
}

// An AgentRun is one run of a job, known by the job's id and the time the
// master dispatched it (a requeued job runs again under a new Start).
type AgentRun struct {
	Job   int64   `json:"job"`
	Start float64 `json:"start"`
	// Post, in an AgentEnd and its Done, marks the end of the run's
	// post-execution commands that ran on after the job's end (see
	// AgentEnd.PostPending).
	Post bool `json:"post,omitempty"`
}

// An AgentEnd is how a run ended, as the job's wrapper recorded it.
type AgentEnd struct {
	AgentRun
	ExitCode   int     `json:"exitCode,omitempty"`
	Signal     int     `json:"signal,omitempty"`
	Lost       bool    `json:"lost,omitempty"`
	NotStarted bool    `json:"notStarted,omitempty"`
	Err        string  `json:"err,omitempty"`
	CPU        float64 `json:"cpu,omitempty"`
	MaxRSS     int64   `json:"maxRSS,omitempty"`
	// MemLimitExceeded is set on a job killed past its memory limit.
	MemLimitExceeded bool `json:"memLimitExceeded,omitempty"`
	// LimitTerm is the LSF reason of a job killed past a limit of the
	// whole job (TERM_SWAP, TERM_PROCESSLIMIT, TERM_THREADLIMIT).
	LimitTerm string `json:"limitTerm,omitempty"`
	// Cwd is the directory the job ran in ("" when it did not run).
	Cwd string `json:"cwd,omitempty"`
	// CwdNotExist is set on a job that did not run for want of its
	// working directory (LSB_EXIT_IF_CWD_NOTEXIST).
	CwdNotExist bool `json:"cwdNotExist,omitempty"`
	// PreExecFailed is set when a pre-execution command exited with
	// PreExecCode and the job did not run; PostExec is how the
	// post-execution commands ended (POST_DONE, POST_ERR, "" for none);
	// CPULimitExceeded is set on a job killed past its CPU limit.
	PreExecFailed    bool   `json:"preExecFailed,omitempty"`
	PreExecCode      int    `json:"preExecCode,omitempty"`
	PostExec         string `json:"postExec,omitempty"`
	CPULimitExceeded bool   `json:"cpuLimitExceeded,omitempty"`
	// PostPending is set on the end of a job whose post-execution
	// commands run on after it (JobSpec.PostLater); their end comes in an
	// AgentEnd of its own, of the same run with Post set, in which only
	// PostExec and Err count.
	PostPending bool `json:"postPending,omitempty"`
	// End is when the run ended, in Unix seconds by the agent's host's
	// clock: the time the job's wrapper recorded, or the agent's own
	// when it learned of the end where that time is not the job's end
	// (a run it could not start, a lost one, one whose post-execution
	// commands ran as part of it).
	// The master takes it as the job's end, within the run's start and
	// its own now; 0 (agents before it) is the time the master learns
	// of the end. An agent sends it only to a master that reads it
	// (AgentOrders.EndTimes), and none on a Post end, which the master
	// times as it learns of it.
	End float64 `json:"end,omitempty"`
}

// AgentOrders is the master's answer to an AgentSync.
type AgentOrders struct {
	// Session names the master's session, which Seq numbers count in.
	Session string       `json:"session"`
	Orders  []AgentOrder `json:"orders,omitempty"`
	// Done are the ends the master has recorded durably: the agent
	// forgets those runs. Kill are runs the master does not count on
	// this host (the host was lost meanwhile, or the job runs again
	// elsewhere): the agent kills and forgets them.
	Done []AgentRun `json:"done,omitempty"`
	Kill []AgentRun `json:"kill,omitempty"`
	// HostDone are the HostExecEnds the master has taken.
	HostDone []AgentRun `json:"hostDone,omitempty"`
	// NotifiedDone are the AgentNotified the master has taken: recorded
	// durably, or found to answer a notification that is over.
	NotifiedDone []NoticeRef `json:"notifiedDone,omitempty"`
	// Hold is set by a master that takes an exchange it holds as word
	// from its agent for as long as it holds it (the host is not
	// unreach meanwhile): the agent may then wait for orders up to
	// AgentHoldWait in each exchange, rather than its interval. Masters
	// before it count only the exchanges' arrivals, and their agents
	// wait one interval.
	Hold bool `json:"hold,omitempty"`
	// EndTimes is set by a master that reads the end times of agents'
	// ends (AgentEnd.End). Masters before it refuse a request with a
	// field they do not know: an agent sends end times until a master
	// answers without EndTimes, or refuses an exchange that carries
	// them, and then leaves them out until a master sets it again.
	EndTimes bool `json:"endTimes,omitempty"`
}

// AgentHoldWait is how long an agent waits for orders in an exchange
// when its master holds exchanges (AgentOrders.Hold), and the longest a
// master holds one.
const AgentHoldWait = 30 * time.Second

// An AgentOrder is a job to run (Spec), a signal for a run (Signal:
// "STOP", "CONT", "KILL" or "USR2") or a request for its output (Peek),
// numbered in the master's session.
type AgentOrder struct {
	Seq uint64 `json:"seq"`
	AgentRun
	Spec   *JobSpec `json:"spec,omitempty"`
	Signal string   `json:"signal,omitempty"`
	// Term is, with the signal KILL, how LSF ends the job (TERM_OWNER
	// ...), for its report.
	Term string `json:"term,omitempty"`
	// Peek asks for a piece of the run's output (bpeek).
	Peek *PeekOrder `json:"peek,omitempty"`
	// HostExec asks for the host-based commands of a job whose first
	// host is another agent's, on this agent's hosts of the job.
	HostExec *HostExec `json:"hostExec,omitempty"`
	// Notify asks the agent to run the job's resize notification command
	// and report its end (AgentSync.Notified).
	Notify *NotifyOrder `json:"notify,omitempty"`
}

// A NotifyOrder is a resize notification command to run on a job's first
// execution host: as the job's user, in its directory, with Env (the
// job's environment and the LSB_RESIZE_* variables) and its hosts.
type NotifyOrder struct {
	// Notice numbers the notification in the job's run (see NoticeRef).
	Notice  int      `json:"notice,omitempty"`
	Command string   `json:"command"`
	Env     []string `json:"env,omitempty"`
	Cwd     string   `json:"cwd,omitempty"`
	User    string   `json:"user,omitempty"`
	UID     int      `json:"uid"`
	GID     int      `json:"gid"`
	Hosts   []string `json:"hosts,omitempty"`
}

// A NoticeRef names a resize notification: the run of the job and the
// notification's number in that run, as its NotifyOrder gave it (0 from
// an agent of an earlier release: the job's current notification).
type NoticeRef struct {
	AgentRun
	Notice int `json:"notice,omitempty"`
}

// An AgentNotified is the end of a notification command an agent ran:
// the notification and the command's exit code.
type AgentNotified struct {
	NoticeRef
	Code int `json:"code"`
}

// A JobSpec is what an agent needs to run a job, as the local executor
// runs it.
type JobSpec struct {
	Name    string   `json:"name,omitempty"`
	Queue   string   `json:"queue,omitempty"`
	User    string   `json:"user,omitempty"`
	Command string   `json:"command"`
	Env     []string `json:"env,omitempty"`
	Cwd     string   `json:"cwd,omitempty"`
	Umask   int      `json:"umask"`
	Stdout  string   `json:"stdout,omitempty"`
	Stderr  string   `json:"stderr,omitempty"`
	// OutputID is the job id of the output files (see
	// localexec.Spec.OutputID); 0 for the job's.
	OutputID int64 `json:"outputID,omitempty"`
	// Index, IndexEnd and IndexStep are, for an element of a job array,
	// its index, the array's largest index and its step (see
	// localexec.Spec.Index).
	Index     int      `json:"index,omitempty"`
	IndexEnd  int      `json:"indexEnd,omitempty"`
	IndexStep int      `json:"indexStep,omitempty"`
	Hosts     []string `json:"hosts,omitempty"`
	UID       int      `json:"uid"`
	GID       int      `json:"gid"`
	// MemLimit is the memory limit, in KB, the agent holds the job to
	// (see localexec.Spec.MemLimit); 0 for none.
	MemLimit int64 `json:"memLimit,omitempty"`
	// PreExec and PostExec are the pre- and post-execution commands,
	// in order; CPULimit the CPU limit in seconds; Input, InputData,
	// LoginShell and OutDir as localexec.Spec has them.
	PreExec  []ExecStep `json:"preExec,omitempty"`
	PostExec []ExecStep `json:"postExec,omitempty"`
	CPULimit int64      `json:"cpuLimit,omitempty"`
	// ProcLimits are the per-process soft limits in KB, as
	// localexec.Spec has them.
	ProcLimits     map[string]int64 `json:"procLimits,omitempty"`
	ProcHardLimits map[string]int64 `json:"procHardLimits,omitempty"`
	// JobLimits are the limits of the whole job (SWAPLIMIT in KB,
	// PROCESSLIMIT, THREADLIMIT), as localexec.Spec has them.
	JobLimits map[string]int64 `json:"jobLimits,omitempty"`
	// PostLater, PostTimeout and StepHosts are as localexec.Spec has
	// them: the job's end reported before its post-execution commands
	// end (JOB_INCLUDE_POSTPROC=N), JOB_POSTPROC_TIMEOUT in seconds, and
	// the hosts the host-based commands run for.
	PostLater   bool     `json:"postLater,omitempty"`
	PostTimeout int64    `json:"postTimeout,omitempty"`
	StepHosts   []string `json:"stepHosts,omitempty"`
	Input       string   `json:"input,omitempty"`
	InputData   []byte   `json:"inputData,omitempty"`
	LoginShell  string   `json:"loginShell,omitempty"`
	OutDir      string   `json:"outDir,omitempty"`
	// OutOverwrite and ErrOverwrite are -oo and -eo.
	OutOverwrite bool `json:"outOverwrite,omitempty"`
	ErrOverwrite bool `json:"errOverwrite,omitempty"`
	// Report asks for LSF's job report in the -o file (see
	// localexec.Report); nil for none.
	Report *JobReport `json:"report,omitempty"`
	// Interactive is set for an interactive job (see
	// localexec.Spec.Interactive).
	Interactive *Interactive `json:"interactive,omitempty"`
	// GPUs are the indices of the host's GPUs the job holds
	// (CUDA_VISIBLE_DEVICES); nil for none.
	GPUs []int `json:"gpus,omitempty"`
	// ProcessTracking runs the job in a cgroup of its own on the agent's
	// host (lsf.conf LSF_PROCESS_TRACKING=Y; see
	// localexec.Spec.ProcessTracking); agents before it track the job by
	// its process group.
	ProcessTracking bool `json:"processTracking,omitempty"`
	// CgroupAcct reads the CPU time of a job tracked by cgroup from its
	// cgroup (lsf.conf LSF_LINUX_CGROUP_ACCT=Y; see
	// localexec.Spec.CgroupAcct); agents before it read it from the
	// job's processes.
	CgroupAcct bool `json:"cgroupAcct,omitempty"`
}

// An ExecStep is a pre- or post-execution command (see
// localexec.ExecStep): the job's own (Job), host-based (Host), or of the
// queue or profile, run as User when set.
type ExecStep struct {
	Command string `json:"command"`
	Job     bool   `json:"job,omitempty"`
	Host    bool   `json:"host,omitempty"`
	User    string `json:"user,omitempty"`
}

// A GPUDevice is one GPU an agent found on its host: its index, model
// and memory in MB (0 when unknown).
type GPUDevice struct {
	Index int     `json:"index"`
	Model string  `json:"model,omitempty"`
	Mem   float64 `json:"mem,omitempty"`
	// MemUsed is the memory in use on the GPU, in MB, when the agent
	// measures it (through nvidia-smi); nil otherwise.
	MemUsed *float64 `json:"memUsed,omitempty"`
}

// A JobReport is what an agent's job wrapper needs to write the job's
// report: the cluster, where and when the job was submitted, who the
// report is from, the memory the job asked for (MB) and whether its
// output goes to its -o file directly (LSB_STDOUT_DIRECT).
type JobReport struct {
	Cluster    string  `json:"cluster"`
	SubmitHost string  `json:"submitHost"`
	Submitted  float64 `json:"submitted"`
	Sender     string  `json:"sender,omitempty"`
	ReqMemMB   float64 `json:"reqMemMB,omitempty"`
	Direct     bool    `json:"direct,omitempty"`
	SpoolDir   string  `json:"spoolDir,omitempty"`
	// NoFile leaves the -o file without a report (an interactive job);
	// Mail asks for the job's mail (see localexec.Mail).
	NoFile bool     `json:"noFile,omitempty"`
	Mail   *JobMail `json:"mail,omitempty"`
}

// A JobMail is the mail a job's wrapper sends (see localexec.Mail): the
// mail program, the recipients, and when.
type JobMail struct {
	Prog     string   `json:"prog"`
	To       []string `json:"to"`
	Begin    bool     `json:"begin,omitempty"`
	End      bool     `json:"end,omitempty"`
	ExitOnly bool     `json:"exitOnly,omitempty"`
	// SizeLimitKB is LSB_MAILSIZE_LIMIT, 0 for none.
	SizeLimitKB int64 `json:"sizeLimitKB,omitempty"`
}

// AgentLoad reports an agent's host facts and load (lsfc sbatchd).
func (c *Client) AgentLoad(ctx context.Context, req *AgentLoad) error {
	return c.do(ctx, "POST", "/v1/agent/load", nil, req, nil)
}

// AgentSync sends an agent's runs and ends and returns the master's
// orders (lsfc sbatchd).
func (c *Client) AgentSync(ctx context.Context, req *AgentSync) (*AgentOrders, error) {
	var out AgentOrders
	if err := c.do(ctx, "POST", "/v1/agent/sync", nil, req, &out); err != nil {
		return nil, err
	}
	return &out, nil
}
