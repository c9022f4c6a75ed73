// Package api defines what lsfc serve and its clients exchange: HTTP with
// JSON bodies, on a Unix socket beside the state directory (the caller is
// known by the socket's peer credentials) or on a TCP listener that
// requires the cluster's shared secret or, over TLS (package apitls),
// a client certificate, whose name is the caller.
//
// Routes (all under /v1):
//
//	POST /v1/jobs                  submit (SubmitRequest → SubmitResponse)
//	GET  /v1/jobs?...              list (JobQuery as query parameters → []Job; with compact=1 → JobList;
//	                               with fields=a,b... only those fields of each job filled)
//	GET  /v1/jobs/{id}             one job, with per-host reasons when pending (→ Job)
//	POST /v1/jobs/{id}/{action}    kill, signal, stop, resume, top, bottom, switch, modify (ActionRequest → ActionResponse)
//	GET  /v1/queues                the queues (→ []Queue)
//	POST /v1/queues/{name}/{op}    open, close, activate, inactivate (→ ActionResponse)
//	GET  /v1/hosts                 the batch hosts (→ []Host)
//	POST /v1/hosts/{name}/{op}     open, close (→ ActionResponse)
//	GET  /v1/resources             the ResourceMap's static instances (→ []SharedResource)
//	GET  /v1/status                the daemon (→ Status)
//	GET  /v1/history?...           job histories from the event log (HistoryQuery → []JobHistory)
//	POST /v1/reconfig              badmin reconfig (→ Reload; 409 when refused)
//	GET  /v1/params                lsb.params as bparams -a shows it (→ map[string]string)
//	GET  /v1/params/long           every lsb.params parameter, described (→ []Param)
//	GET  /v1/users?user=...        users' job counts and limits, as busers shows them (→ []User)
//	GET  /v1/groups/{kind}         user or host groups (kind user or host), as bugroup and bmgroup show them (→ []Group)
//	GET  /v1/apps                  the application profiles and their jobs, as bapp shows them (→ []App)
//	GET  /v1/cluster               the cluster, its peers, resources, host types and models, for lsclusters and lsinfo (→ ClusterInfo)
//	GET  /v1/limits?name=...&user=...&queue=...&host=...&project=...&app=...
//	                               the Limit sections of lsb.resources and their usage, as blimits shows them (LimitQuery → []Limit)
//	POST /v1/mc/...                between clusters, on the TCP listener only (see MCForward)
//
// Errors are answered with a 4xx or 5xx status and an Error body. Times
// are Unix seconds; zero means unset.
package api

import "path/filepath"

// The HTTP headers of the TCP listener: the shared secret, as a bearer
// token, and the user the request acts for (not read from a client known
// by its certificate).
const (
	HeaderAuthorization = "Authorization"
	HeaderUser          = "X-Lsfc-User"
	// HeaderLeader is sent by a master candidate that does not lead
	// (lsfc serve --etcd), with its 503 answer: the TCP address of the
	// master that leads, when one does.
	HeaderLeader = "X-Lsfc-Leader"
)

// MaxRequestBytes bounds every request body.
const MaxRequestBytes = 1 << 20

// SocketName is the name of the daemon's Unix socket in its run
// directory (see RunDir).
const SocketName = "lsfc.sock"

// RunDir returns the run directory of the daemon whose state directory
// is stateDir: its sibling named like it with ".run" added
// (/var/lib/lsfc/demo.run for /var/lib/lsfc/demo). The state directory
// is private to the daemon's user; the run directory, which anyone may
// enter, holds only the socket.
func RunDir(stateDir string) string {
	return filepath.Clean(stateDir) + ".run"
}

// SocketPath returns the path of the Unix socket of the daemon whose
// state directory is stateDir: SocketName in RunDir(stateDir).
func SocketPath(stateDir string) string {
	return filepath.Join(RunDir(stateDir), SocketName)
}

// Error is the body of an error response.
type Error struct {
	Error string `json:"error"`
	// Retry is set on the refusal of a submission that may succeed
	// later (a pending job threshold is reached): the seconds bsub waits
	// before it tries again (SUB_TRY_INTERVAL).
	Retry int64 `json:"retry,omitempty"`
}

// SubmitRequest is what bsub sends.
type SubmitRequest struct {
	// Command is the job's command line, run by /bin/sh.
	Command  string `json:"command"`
	Name     string `json:"name,omitempty"`  // -J
	Queue    string `json:"queue,omitempty"` // -q; "" for the default queue
	App      string `json:"app,omitempty"`   // -app
	ResReq   string `json:"resReq,omitempty"`
	Slots    int    `json:"slots,omitempty"`    // -n
	Priority int    `json:"priority,omitempty"` // -sp
	// MaxSlots is the maximum of -n min,max (0 for -n N); AutoResize is
	// -ar.
	MaxSlots   int  `json:"maxSlots,omitempty"`
	AutoResize bool `json:"autoResize,omitempty"`
	// ResizeNotify is -rnc: the command run on the first execution host
	// when the job's allocation changes.
	ResizeNotify string `json:"resizeNotify,omitempty"`
	// RunLimit is -W in seconds; MemLimit -M in MB, and MemHard set
	// for a hard limit (-M N!).
	RunLimit float64 `json:"runLimit,omitempty"`
	MemLimit float64 `json:"memLimit,omitempty"`
	MemHard  bool    `json:"memHard,omitempty"`
	// Estimate is -We, the estimated run time in seconds.
	Estimate float64 `json:"estimate,omitempty"`
	Hold     bool    `json:"hold,omitempty"`   // -H
	Depend   string  `json:"depend,omitempty"` // -w
	// Hosts is -m: the hosts (or host groups) the job may run on.
	Hosts      []string `json:"hosts,omitempty"`
	Rerunnable bool     `json:"rerunnable,omitempty"` // -r
	Exclusive  bool     `json:"exclusive,omitempty"`  // -x
	// GPU is -gpu: a GPU requirement, or "-" for the one the application
	// profile, queue and cluster give.
	GPU string `json:"gpu,omitempty"`
	Sla string `json:"sla,omitempty"` // -sla
	// Project is -P ("" for DEFAULT_PROJECT); UserGroup is -G, the user
	// group whose fairshare account the job is charged to.
	Project   string `json:"project,omitempty"`
	UserGroup string `json:"userGroup,omitempty"`
	// Description is -Jd, the job's free-text description (at most
	// MaxJobDescription characters); NoDescription, for bmod -Jdn,
	// removes it.
	Description   string `json:"description,omitempty"`
	NoDescription bool   `json:"noDescription,omitempty"`
	// RequeueExitValues is -Q, the exit values that requeue the job
	// (ParseExitValues), over its application profile's and queue's.
	RequeueExitValues string `json:"requeueExitValues,omitempty"`
	// JobGroup is -g, the full path of the job's job group ("" for
	// DEFAULT_JOBGROUP, if set); NoJobGroup, for bmod -gn, takes the job
	// out of its group.
	JobGroup   string `json:"jobGroup,omitempty"`
	NoJobGroup bool   `json:"noJobGroup,omitempty"`
	// Reservation is -U, the advance reservation the job runs in;
	// NoReservation, for bmod -Un, takes the job out of it.
	Reservation   string `json:"reservation,omitempty"`
	NoReservation bool   `json:"noReservation,omitempty"`
	// NoProject and NoUserGroup, for bmod -Pn and -Gn, give the job the
	// default project and take it out of its -G user group.
	NoProject   bool `json:"noProject,omitempty"`
	NoUserGroup bool `json:"noUserGroup,omitempty"`
	// NoGPU, for bmod -gpun, takes the job's own GPU requirement (-gpu)
	// back: the queue's, profile's or cluster's stands, if any.
	NoGPU bool `json:"noGPU,omitempty"`
	// Cwd is the working directory (-cwd, else the submitter's); Env the
	// submission environment, KEY=VALUE; Umask the submitter's umask.
	// CwdDefault says that Cwd is the submitter's directory, given by
	// neither -cwd nor LSB_JOB_CWD: the daemon then applies the profile's
	// JOB_CWD, else lsb.params' DEFAULT_JOB_CWD, relative to it.
	Cwd        string   `json:"cwd,omitempty"`
	CwdDefault bool     `json:"cwdDefault,omitempty"`
	Env        []string `json:"env,omitempty"`
	Umask      int      `json:"umask"`
	// Stdout and Stderr are -o and -e, with %J and %I.
	Stdout string `json:"stdout,omitempty"`
	Stderr string `json:"stderr,omitempty"`
	// OutOverwrite and ErrOverwrite are -oo and -eo: the file is emptied
	// when the job starts rather than appended to.
	OutOverwrite bool `json:"outOverwrite,omitempty"`
	ErrOverwrite bool `json:"errOverwrite,omitempty"`
	// FromHost is the submission host.
	FromHost string `json:"fromHost,omitempty"`
	// NotifyBegin is -B, NotifyEnd -N, NotifyExit -Ne and MailUser -u
	// (see runtime.JobMail).
	NotifyBegin bool   `json:"notifyBegin,omitempty"`
	NotifyEnd   bool   `json:"notifyEnd,omitempty"`
	NotifyExit  bool   `json:"notifyExit,omitempty"`
	MailUser    string `json:"mailUser,omitempty"`
	// NoNotifyBegin, NoNotify and NoMailUser, for bmod -Bn, -Nn and -un,
	// cancel -B, both -N and -Ne, and -u.
	NoNotifyBegin bool `json:"noNotifyBegin,omitempty"`
	NoNotify      bool `json:"noNotify,omitempty"`
	NoMailUser    bool `json:"noMailUser,omitempty"`
	// PreExec and PostExec are -E and -Ep, the job's pre- and
	// post-execution commands.
	PreExec  string `json:"preExec,omitempty"`
	PostExec string `json:"postExec,omitempty"`
	// BeginTime is -b and TermTime -t, Unix seconds; 0 for none.
	BeginTime int64 `json:"beginTime,omitempty"`
	TermTime  int64 `json:"termTime,omitempty"`
	// CPULimit is -c in seconds of CPU time, normalised to the CPU factor
	// of CPUSpec (a host name or host model; "" for none).
	CPULimit float64 `json:"cpuLimit,omitempty"`
	CPUSpec  string  `json:"cpuSpec,omitempty"`
	// ProcLimits are the per-process (soft) limits of -C, -D, -F and -S,
	// in KB, by the name of their lsb.queues limit (CORELIMIT,
	// DATALIMIT, FILELIMIT, STACKLIMIT), and the limits of the whole job
	// -v (SWAPLIMIT, KB), -p (PROCESSLIMIT) and -T (THREADLIMIT); nil
	// for none.
	ProcLimits map[string]int64 `json:"procLimits,omitempty"`
	// Input is -i or -is, the job's standard input file (%J and %I);
	// for -is, InputSpooled is set and InputData holds the file as it
	// was at submission, which the job reads in its place.
	Input        string `json:"input,omitempty"`
	InputSpooled bool   `json:"inputSpooled,omitempty"`
	InputData    []byte `json:"inputData,omitempty"`
	// LoginShell is -L, the login shell that sets up the job's
	// environment; OutDir -outdir, the job's output directory.
	LoginShell string `json:"loginShell,omitempty"`
	OutDir     string `json:"outDir,omitempty"`
	// Token, when set, names this submission: the same submission sent
	// again (a retry after a lost answer, or to a new master after a
	// failover) gets the job the first one made, not a second job.
	Token string `json:"token,omitempty"`
	// Interactive, set for bsub -I, -Ip and -Is, is where the job's
	// wrapper reaches bsub when it starts.
	Interactive *Interactive `json:"interactive,omitempty"`
}

// An Interactive is how the wrapper of an interactive job reaches the
// bsub that submitted it: Mode is bsub's option without its dash ("I",
// "Ip", "Is"), Addrs the host:port addresses bsub listens on, tried in
// order, and Token the secret with which each side proves itself to the
// other (see package localexec/attach). The daemon never shows Token.
// Tty (bsub -tty) sends the job's output and errors to bsub's terminal
// as well as to its -o and -e files.
type Interactive struct {
	Mode  string   `json:"mode"`
	Addrs []string `json:"addrs"`
	Token string   `json:"token"`
	Tty   bool     `json:"tty,omitempty"`
}

// A Group is a user group of lsb.users or a host group of lsb.hosts:
// Members as written (a member group's name followed by "/", an
// excluded member after "~"), Expanded the users or hosts it holds once
// member groups are expanded, sorted ("all" stays as it is), and Shares
// a user group's USER_SHARES, "[name, shares] ...", "" for none.
type Group struct {
	Name     string   `json:"name"`
	Members  []string `json:"members"`
	Expanded []string `json:"expanded"`
	Shares   string   `json:"shares,omitempty"`
	// Type is a compute unit's TYPE (enclosure, rack ...); "" for a
	// group.
	Type string `json:"type,omitempty"`
}

// A User is a user's jobs and limits as busers shows them: JL/P and
// MAX_JOBS of lsb.users (0: none), and the slots of the user's unfinished
// jobs: NJobs in all, Pend (PEND and PSUSP), Run, SSusp, USusp, and Rsv
// the slots the user's pending jobs reserve (SLOT_RESERVE).
type User struct {
	Name  string  `json:"name"`
	JLP   float64 `json:"jlp,omitempty"`
	Max   int     `json:"max,omitempty"`
	NJobs int     `json:"njobs"`
	Pend  int     `json:"pend"`
	Run   int     `json:"run"`
	SSusp int     `json:"ssusp"`
	USusp int     `json:"ususp"`
	Rsv   int     `json:"rsv"`
	// PJobs counts the user's pending jobs (PEND and PSUSP), not slots.
	PJobs int `json:"pjobs"`
	// MPend and MPJobs are the pending job slot threshold
	// (MAX_PEND_SLOTS) and the pending job threshold (MAX_PEND_JOBS) of
	// the user or group; nil for none.
	MPend  *int `json:"mpend,omitempty"`
	MPJobs *int `json:"mpjobs,omitempty"`
}

// A Limit is a Limit section of lsb.resources as blimits shows it: its
// keys as written (NAME left out, in the order of the file), the slot,
// job and memory limits the scheduler enforces (nil for none; Mem in MB),
// and what running jobs use of it, one entry a consumer. Enforced is
// false for a section that limits none of slots, jobs and memory: lsfc
// reads it but counts nothing against it.
type Limit struct {
	Name     string         `json:"name"`
	Enforced bool           `json:"enforced"`
	Settings []LimitSetting `json:"settings"`
	Slots    *float64       `json:"slots,omitempty"`
	Jobs     *float64       `json:"jobs,omitempty"`
	Mem      *float64       `json:"mem,omitempty"`
	Use      []LimitUse     `json:"use,omitempty"`
}

// A LimitSetting is one key of a Limit section and its value as written.
type LimitSetting struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// A LimitUse is what the running jobs of one consumer of a Limit take.
// User, Queue, Host, Project and App name the consumer along the
// section's PER_ keys ("" along the others); Mem is in MB.
type LimitUse struct {
	User    string  `json:"user,omitempty"`
	Queue   string  `json:"queue,omitempty"`
	Host    string  `json:"host,omitempty"`
	Project string  `json:"project,omitempty"`
	App     string  `json:"app,omitempty"`
	Slots   int     `json:"slots"`
	Jobs    int     `json:"jobs"`
	Mem     float64 `json:"mem"`
}

// A LimitQuery picks the Limit sections blimits shows (see
// Client.Limits): by name, and by the users, queues, hosts, projects and
// applications they apply to. An empty list picks all.
type LimitQuery struct {
	Names, Users, Queues, Hosts, Projects, Apps []string
}

// A Param is one parameter of lsb.params as bparams -l shows it: its
// value (the configuration's, else the one the daemon uses, else the
// default; "" when it has none), the unit of a number ("seconds",
// "MBD_SLEEP_TIME" ...), and what it is for. Set tells that the
// configuration sets it.
type Param struct {
	Name  string `json:"name"`
	Value string `json:"value,omitempty"`
	Set   bool   `json:"set,omitempty"`
	Unit  string `json:"unit,omitempty"`
	Doc   string `json:"doc,omitempty"`
}

// A ServiceClass is a service class of lsb.serviceclasses and its state,
// as bsla shows it.
type ServiceClass struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	Priority    int    `json:"priority"`
	// UserGroup is USER_GROUP, empty for all users.
	UserGroup []string `json:"userGroup,omitempty"`
	// Guarantee is set for a guarantee class (GOALS = [GUARANTEE]).
	Guarantee bool `json:"guarantee,omitempty"`
	// ControlAction is CONTROL_ACTION as written.
	ControlAction string      `json:"controlAction,omitempty"`
	Goals         []ClassGoal `json:"goals,omitempty"`
	// Optimum is the class's optimum number of running jobs now.
	Optimum int `json:"optimum"`
	// Job counts: every job submitted to the class, and by state.
	NJobs  int `json:"njobs"`
	Pend   int `json:"pend"`
	Run    int `json:"run"`
	SSusp  int `json:"ssusp"`
	USusp  int `json:"ususp"`
	Finish int `json:"finish"`
	// FinishedLastHour counts the jobs that ended in the last hour.
	FinishedLastHour int `json:"finishedLastHour"`
}

// A ClassGoal is one goal of a service class and its state.
type ClassGoal struct {
	// Kind is VELOCITY, THROUGHPUT or DEADLINE; Target the number of
	// running jobs or of jobs per hour.
	Kind   string  `json:"kind"`
	Target float64 `json:"target,omitempty"`
	// Windows are the goal's time windows, empty when always active.
	Windows []string `json:"windows,omitempty"`
	// Status is "Active:On time", "Active:Delayed" or "Inactive".
	Status  string `json:"status"`
	Optimum int    `json:"optimum"`
	// Finish is a deadline's estimated end of the class's work, in
	// seconds since the epoch; 0 when unknown.
	Finish float64 `json:"finish,omitempty"`
	// Violations counts the control actions run for the goal.
	Violations int `json:"violations,omitempty"`
}

// SubmitResponse acknowledges a durable submission.
type SubmitResponse struct {
	ID    int64  `json:"id"`
	Queue string `json:"queue"`
	// Default is set when the queue was chosen from DEFAULT_QUEUE.
	Default bool `json:"default,omitempty"`
}

// ActionRequest carries an action's arguments: the queue of switch, the
// changes of modify.
type ActionRequest struct {
	Queue  string         `json:"queue,omitempty"`
	Modify *SubmitRequest `json:"modify,omitempty"`
	// APS is the argument of the aps action (bmod -aps): "system=value"
	// or "admin=value"; "" clears the job's APS values (bmod -apsn).
	APS string `json:"aps,omitempty"`
	// Remove, for kill (bkill -r), ends a started job at once as EXIT
	// with TERM_FORCE_OWNER, without waiting for its processes to end.
	Remove bool `json:"remove,omitempty"`
	// Signal is the signal number the signal action (bkill -s) sends.
	Signal int `json:"signal,omitempty"`
	// Indices, for an action on a job array, are the elements it applies
	// to ("ID[1-10]"); none for every element.
	Indices []int `json:"indices,omitempty"`
	// States are the states the requeue action (brequeue) takes a job
	// in: "DONE" (-d), "EXIT" (-e), "RUN" (-r: running or suspended);
	// none means RUN. Hold, for requeue, holds the job (PSUSP, -H).
	States []string `json:"states,omitempty"`
	Hold   bool     `json:"hold,omitempty"`
	// Done, for kill (bkill -d), records a started job as DONE (exit
	// code 0) once killed; a pending job is killed as without it.
	Done bool `json:"done,omitempty"`
	// Reason is the reason given with -C (bkill, bstop, bresume), kept
	// with the action in the event log and shown by bhist -l; at most
	// MaxActionReason bytes.
	Reason string `json:"reason,omitempty"`
	// Resize is the bresize subcommand of the resize action.
	Resize *ResizeAction `json:"resize,omitempty"`
}

// A ResizeAction is a bresize subcommand: Op is release (All for "all",
// else Hosts), request (Min to Max more slots) or cancel. Cancel is -c,
// Notify -rnc and NoNotify -rncn.
type ResizeAction struct {
	Op       string      `json:"op"`
	All      bool        `json:"all,omitempty"`
	Hosts    []HostSlots `json:"hosts,omitempty"`
	Min      int         `json:"min,omitempty"`
	Max      int         `json:"max,omitempty"`
	Cancel   bool        `json:"cancel,omitempty"`
	Notify   string      `json:"notify,omitempty"`
	NoNotify bool        `json:"noNotify,omitempty"`
}

// MaxActionReason is the longest reason bkill, bstop and bresume -C
// take, as LSF's.
const MaxActionReason = 4095

// MaxJobDescription is the longest job description (bsub -Jd) LSF takes.
const MaxJobDescription = 4094

// A QueueParam is one parameter of a queue as bqueues -l shows it.
type QueueParam struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// A JobGroup is a job group as bjgroup shows it: its path, owner, job
// limit (-1 for none) and service class, and its jobs (those of its
// subgroups included) by state, counted in jobs and in slots.
type JobGroup struct {
	Path     string `json:"path"`
	Owner    string `json:"owner"`
	Limit    int    `json:"limit"`
	SLA      string `json:"sla,omitempty"`
	Implicit bool   `json:"implicit,omitempty"`
	// Started counts the started jobs the limit is held against.
	Started int        `json:"started"`
	Jobs    GroupCount `json:"jobs"`
	Slots   GroupCount `json:"slots"`
}

// A GroupCount is a job group's jobs, or slots, by state.
type GroupCount struct {
	Total  int `json:"total"`
	Pend   int `json:"pend"`
	Run    int `json:"run"`
	SSusp  int `json:"ssusp"`
	USusp  int `json:"ususp"`
	Finish int `json:"finish"`
}

// A JobGroupRequest asks for a change of job groups: Op "add" (bgadd:
// Path, Limit, SLA), "mod" (bgmod: Path, Limit), "del" (bgdel: Path; with
// Empty and no Path every empty group of User, "all" for every user's;
// with Empty and Path, bgdel -c, the empty groups of that subtree).
// Limit is nil for none.
type JobGroupRequest struct {
	Op    string `json:"op"`
	Path  string `json:"path,omitempty"`
	Limit *int   `json:"limit,omitempty"`
	SLA   string `json:"sla,omitempty"`
	Empty bool   `json:"empty,omitempty"`
	User  string `json:"user,omitempty"`
	// Owner, for mod (bgmod -u), is the group's new owner; KeepLimit
	// leaves its limit as it is (bgmod -u without -L or -Ln).
	Owner     string `json:"owner,omitempty"`
	KeepLimit bool   `json:"keepLimit,omitempty"`
	// Idle, for del (bgdel -d), deletes the groups idle for more than
	// that many seconds: holding no unfinished job, theirs or their
	// subgroups'.
	Idle *int64 `json:"idle,omitempty"`
}

// ActionResponse tells what an action did, in the words LSF's commands
// print.
type ActionResponse struct {
	Message string `json:"message"`
	// Errors are, for an action on elements of an array, the elements it
	// could not apply to, each with why, in LSF's words; the command
	// prints them on standard error and fails.
	Errors []string `json:"errors,omitempty"`
}

// Job is a job as bjobs shows it. An element of a job array has its own
// ID, ElementID(job ID, Index), Name "name[index]", and Array the array's
// -J value ("name[1-10]%2").
type Job struct {
	ID        int64    `json:"id"`
	Index     int      `json:"index,omitempty"`
	Array     string   `json:"array,omitempty"`
	User      string   `json:"user"`
	Queue     string   `json:"queue"`
	State     string   `json:"state"`
	Name      string   `json:"name,omitempty"`
	Command   string   `json:"command"`
	Slots     int      `json:"slots"`
	FromHost  string   `json:"fromHost,omitempty"`
	ExecHosts []string `json:"execHosts,omitempty"` // one per slot
	Submit    int64    `json:"submitTime"`
	Start     int64    `json:"startTime,omitempty"`
	End       int64    `json:"endTime,omitempty"`
	ExitCode  int      `json:"exitCode"`
	// Term is how the job was ended: TERM_OWNER, TERM_RUNLIMIT ...
	Term string `json:"term,omitempty"`
	// PreExecCmd and PostExecCmd are -E and -Ep; PreExecFailures counts
	// the failed pre-execution commands; PostExec is how the
	// post-execution commands ended (POST_DONE, POST_ERR), "" before.
	PreExecCmd      string `json:"preExecCmd,omitempty"`
	PostExecCmd     string `json:"postExecCmd,omitempty"`
	PreExecFailures int    `json:"preExecFailures,omitempty"`
	PostExec        string `json:"postExec,omitempty"`
	// BeginTime and TermTime are -b and -t (Unix seconds); CPULimit -c
	// in seconds; Input, LoginShell and OutDir -i/-is, -L and -outdir.
	BeginTime float64 `json:"beginTime,omitempty"`
	TermTime  float64 `json:"termTime,omitempty"`
	CPULimit  float64 `json:"cpuLimit,omitempty"`
	// ProcLimits are the job's per-process limits in KB (bsub -C, -D,
	// -F, -S), by their lsb.queues name.
	ProcLimits map[string]int64 `json:"procLimits,omitempty"`
	Input      string           `json:"input,omitempty"`
	LoginShell string           `json:"loginShell,omitempty"`
	OutDir     string           `json:"outDir,omitempty"`
	// Exceptions are the job exceptions the job raised, blank-separated
	// (overrun, underrun, idle).
	Exceptions string `json:"exceptions,omitempty"`
	// CPUTime is the CPU seconds the job's processes used and MaxMem the
	// most memory they held, in MB, as far as known (a finished job's
	// are its totals); 0 when unknown.
	CPUTime float64 `json:"cpuTime,omitempty"`
	MaxMem  float64 `json:"maxMem,omitempty"`
	// Reason is the pending or suspending reason; HostReasons, for a
	// pending job asked for by id, each host's.
	Reason      string       `json:"reason,omitempty"`
	HostReasons []HostReason `json:"hostReasons,omitempty"`
	ResReq      string       `json:"resReq,omitempty"`
	Cwd         string       `json:"cwd,omitempty"`
	Stdout      string       `json:"stdout,omitempty"`
	Stderr      string       `json:"stderr,omitempty"`
	Depend      string       `json:"depend,omitempty"`
	RunLimit    float64      `json:"runLimit,omitempty"`
	MemLimit    float64      `json:"memLimit,omitempty"`
	Priority    int          `json:"priority,omitempty"`
	// Estimate is the estimated run time in seconds (-We, else the
	// profile's RUNTIME); Reserved, for a pending job, what it reserves.
	Estimate   float64         `json:"estimate,omitempty"`
	Reserved   *JobReservation `json:"reserved,omitempty"`
	Preempted  int             `json:"preempted,omitempty"`
	Rerunnable bool            `json:"rerunnable,omitempty"`
	// Notify is the job's mail options (bsub -B, -N, -Ne, -u); nil for
	// none.
	Notify *JobNotify `json:"notify,omitempty"`
	// Project is the job's project (-P, else DEFAULT_PROJECT); UserGroup
	// the user group it was submitted with (-G), "" for none.
	Project   string `json:"project,omitempty"`
	UserGroup string `json:"userGroup,omitempty"`
	// Description is the job description of bsub -Jd; "" for none.
	Description string `json:"description,omitempty"`
	// JobGroup is the full path of the job's job group; "" for none.
	JobGroup string `json:"jobGroup,omitempty"`
	// Reservation is the advance reservation the job runs in (-U).
	Reservation string `json:"reservation,omitempty"`
	// App is the job's application profile (-app), Sla its service class
	// (-sla); "" for none.
	App string `json:"app,omitempty"`
	Sla string `json:"sla,omitempty"`
	// ExecCwd is, for a job that started, the directory it runs or ran
	// in: Cwd, or where it went when it could not enter Cwd (/tmp).
	ExecCwd string `json:"execCwd,omitempty"`
	// APS is the job's absolute priority while it pends in an APS queue.
	APS *JobAPS `json:"aps,omitempty"`
	// Forward is, for a job forwarded to another cluster, where it is;
	// Home, for a job another cluster forwarded here, where it came from.
	Forward *JobForward `json:"forward,omitempty"`
	Home    *JobHome    `json:"home,omitempty"`
	// GPUReq is the job's effective GPU requirement (bsub -gpu merged
	// with GPU_REQ and LSB_GPU_REQ), "" for a job with none; GPUAlloc the
	// GPUs it holds, by host.
	GPUReq   string    `json:"gpuReq,omitempty"`
	GPUAlloc []JobGPUs `json:"gpuAlloc,omitempty"`
	// Resize is, for a job of bsub -n min,max or a resizable one, its
	// resizing; nil for any other.
	Resize *JobResize `json:"resize,omitempty"`
}

// JobResize is a job's resizing as bjobs -l shows it: the tasks it asked
// for (MinSlots to MaxSlots, MaxSlots 0 for -n N), whether it is
// resizable or autoresizable, its notification command, its pending
// request (PendingMin to PendingMax more tasks; 0 for none), the tasks
// granted while its notification command runs (Notifying).
type JobResize struct {
	MinSlots   int         `json:"minSlots"`
	MaxSlots   int         `json:"maxSlots,omitempty"`
	Resizable  bool        `json:"resizable,omitempty"`
	Auto       bool        `json:"auto,omitempty"`
	Notify     string      `json:"notify,omitempty"`
	PendingMin int         `json:"pendingMin,omitempty"`
	PendingMax int         `json:"pendingMax,omitempty"`
	Granted    []HostSlots `json:"granted,omitempty"`
	Notifying  bool        `json:"notifying,omitempty"`
}

// JobGPUs are the GPUs a job holds on one host: their indices, and the
// GPU memory it reserves on each (gmem, MB).
type JobGPUs struct {
	Host     string    `json:"host"`
	IDs      []int     `json:"ids"`
	Models   []string  `json:"models,omitempty"`
	Mem      []float64 `json:"mem,omitempty"`
	Reserved float64   `json:"reserved,omitempty"`
}

// JobForward is where a forwarded job went: the cluster, its receive
// queue, and the job's ID there (0 until the queue accepted it).
type JobForward struct {
	Cluster  string `json:"cluster"`
	Queue    string `json:"queue"`
	RemoteID int64  `json:"remoteID,omitempty"`
	// Time is when the job was forwarded.
	Time int64 `json:"time"`
}

// JobHome is where a received job was submitted: its cluster and its
// job ID there.
type JobHome struct {
	Cluster string `json:"cluster"`
	ID      int64  `json:"id"`
}

// JobAPS is a pending job's absolute priority in an APS queue: its value
// (System: an administrator's system value, which goes before every
// calculated one) and the factors it is made of, before weights: FS, PROC,
// MEM, SWAP, JPRIORITY, QPRIORITY and the ADMIN adjustment.
type JobAPS struct {
	Value     float64 `json:"value"`
	System    bool    `json:"system,omitempty"`
	FS        float64 `json:"fs"`
	Proc      float64 `json:"proc"`
	Mem       float64 `json:"mem"`
	Swap      float64 `json:"swap"`
	JPriority float64 `json:"jpriority"`
	QPriority float64 `json:"qpriority"`
	Admin     float64 `json:"admin"`
}

// HostReason is one host's reason for not taking a pending job.
type HostReason struct {
	Host   string `json:"host"`
	Reason string `json:"reason"`
}

// Queue is a queue as bqueues shows it.
type Queue struct {
	Name     string `json:"name"`
	Priority int    `json:"priority"`
	// Status is Open:Active, Closed:Inact ... as bqueues prints it.
	Status string `json:"status"`
	Open   bool   `json:"open"`
	Active bool   `json:"active"`
	// Max, JLU, JLP, JLH are QJOB_LIMIT, UJOB_LIMIT, PJOB_LIMIT and
	// HJOB_LIMIT (0: none).
	Max         int     `json:"max"`
	JLU         int     `json:"jlu"`
	JLP         float64 `json:"jlp"`
	JLH         int     `json:"jlh"`
	NJobs       int     `json:"njobs"`
	Pend        int     `json:"pend"`
	Run         int     `json:"run"`
	Susp        int     `json:"susp"`
	Description string  `json:"description,omitempty"`
	// UserShares is the queue's FAIRSHARE entries, "[name, shares] ...",
	// "" for none; Shares its share tree, level by level (see
	// ShareLevel), which the queues of a FAIRSHARE_QUEUES set share.
	UserShares string       `json:"userShares,omitempty"`
	Shares     []ShareLevel `json:"shares,omitempty"`

	// What follows is the queue's definition in the policy the daemon
	// runs now (it changes with a reload), as bqueues -l shows it.

	// Nice is NICE; SSusp and USusp split Susp into the slots of jobs
	// the system and their users suspended.
	Nice  int `json:"nice,omitempty"`
	SSusp int `json:"ssusp"`
	USusp int `json:"ususp"`
	// Rsv is the slots the queue's pending jobs reserve.
	Rsv int `json:"rsv,omitempty"`
	// AcceptInterval is the queue's JOB_ACCEPT_INTERVAL in seconds.
	AcceptInterval float64 `json:"acceptInterval"`
	// Limits are the resource usage limits the queue sets (RUNLIMIT,
	// CPULIMIT, TASKLIMIT, FILELIMIT ... THREADLIMIT), in the order
	// bqueues -l shows them; none when it sets none.
	Limits []QueueLimit `json:"limits,omitempty"`
	// Thresholds are the load thresholds (loadSched/loadStop) by load
	// index name.
	Thresholds map[string]Threshold `json:"thresholds,omitempty"`
	// Policies are the scheduling policies the queue has (FAIRSHARE,
	// PREEMPTIVE, EXCLUSIVE ...), in LSF's order.
	Policies []string `json:"policies,omitempty"`
	// ReserveTime is how long a pending job of the queue may hold a
	// reservation, MAX_RESERVE_TIME × MBD_SLEEP_TIME in seconds (0: its
	// jobs do not reserve); ReserveResources is set for RESOURCE_RESERVE
	// (rusage amounts too), clear for SLOT_RESERVE.
	ReserveTime      float64 `json:"reserveTime,omitempty"`
	ReserveResources bool    `json:"reserveResources,omitempty"`
	// Users, Hosts and Administrators are USERS, HOSTS and
	// ADMINISTRATORS as bqueues -l shows them: a group's name ends in
	// "/"; a host's preference follows it ("+2"), an excluded name
	// follows "~". Users and Hosts are nil when the queue does not
	// restrict them (bqueues -l shows "all").
	Users          []string `json:"users,omitempty"`
	Hosts          []string `json:"hosts,omitempty"`
	Administrators []string `json:"administrators,omitempty"`
	// ResReq is the queue's RES_REQ as written, "" for none.
	ResReq string `json:"resReq,omitempty"`
	// RunWindow and DispatchWindow are RUN_WINDOW and DISPATCH_WINDOW as
	// written, "" for always open.
	RunWindow      string `json:"runWindow,omitempty"`
	DispatchWindow string `json:"dispatchWindow,omitempty"`
	// Params are the queue's other parameters bqueues -l shows, as
	// written, in LSF's order: RERUNNABLE, PRE_EXEC, JOB_STARTER ...
	Params []QueueParam `json:"params,omitempty"`
}

// A QueueLimit is one resource usage limit of a queue: its maximum (the
// hard limit) and, when the queue sets one, its default (0: none). Unit
// is "min" for time limits (minutes), "M" for memory limits (MB) and ""
// for counts; Spec is the host or host model a time limit is normalised
// to ("" for none).
type QueueLimit struct {
	Name    string  `json:"name"`
	Default float64 `json:"default,omitempty"`
	Max     float64 `json:"max"`
	Unit    string  `json:"unit,omitempty"`
	Spec    string  `json:"spec,omitempty"`
}

// A Threshold is a load index's scheduling threshold (loadSched) and
// suspending threshold (loadStop); nil for one not set.
type Threshold struct {
	Sched *float64 `json:"sched,omitempty"`
	Stop  *float64 `json:"stop,omitempty"`
}

// A ShareLevel is one level of a queue's share tree: the accounts under
// the group at Path ("" for the queue's own USER_SHARES entries), highest
// priority first. The top level comes first, then, depth first, the level
// under each group that has USER_SHARES of its own.
type ShareLevel struct {
	Path     string         `json:"path"`
	Accounts []ShareAccount `json:"accounts"`
}

// A ShareAccount is one account of a share tree as bqueues -l shows it:
// Group is set for a group with a share tree of its own (shown with a
// trailing "/"); Started is the slots its running and suspended jobs
// hold; CPUTime the decayed CPU time and RunTime the run time of its
// started jobs, in seconds. A group's use is its subtree's.
type ShareAccount struct {
	Name     string  `json:"name"`
	Group    bool    `json:"group,omitempty"`
	Shares   float64 `json:"shares"`
	Priority float64 `json:"priority"`
	Started  int     `json:"started"`
	Reserved int     `json:"reserved"`
	CPUTime  float64 `json:"cpuTime"`
	RunTime  float64 `json:"runTime"`
}

// Host is a batch host as bhosts shows it, with its load (lsload) and
// static facts (lshosts).
type Host struct {
	Name   string `json:"name"`
	Status string `json:"status"`
	// JLU and Max are JL/U and MXJ (-1: none).
	JLU   int `json:"jlu"`
	Max   int `json:"max"`
	NJobs int `json:"njobs"`
	Run   int `json:"run"`
	SSusp int `json:"ssusp"`
	USusp int `json:"ususp"`
	// Rsv is the slots pending jobs reserve on the host; RsvStart the
	// earliest predicted start of those jobs (0 when it cannot be told),
	// until which backfill jobs may use the reserved slots.
	Rsv       int                `json:"rsv"`
	RsvStart  int64              `json:"rsvStart,omitempty"`
	Type      string             `json:"type,omitempty"`
	Model     string             `json:"model,omitempty"`
	Ncpus     float64            `json:"ncpus,omitempty"`
	Maxmem    float64            `json:"maxmem,omitempty"`
	Load      map[string]float64 `json:"load,omitempty"`
	Resources []string           `json:"resources,omitempty"`
	Cpuf      float64            `json:"cpuf,omitempty"`
	// Reserved are the amounts of resources (mem, swp, tmp, site
	// resources) that jobs' rusage[] holds on the host, by name: none
	// for a resource nothing holds.
	Reserved map[string]float64 `json:"reserved,omitempty"`
	// Thresholds are the host's loadSched/loadStop thresholds of
	// lsb.hosts, by load index name.
	Thresholds map[string]Threshold `json:"thresholds,omitempty"`
	// ExitRate is the host's job exit rate threshold in jobs per minute
	// (EXIT_RATE, GLOBAL_EXIT_RATE; 0 for none) and ExitRateLoad its
	// exit rate now; Comment why it was closed, when an action of the
	// system closed it.
	ExitRate     float64 `json:"exitRate,omitempty"`
	ExitRateLoad float64 `json:"exitRateLoad,omitempty"`
	Comment      string  `json:"comment,omitempty"`
	// GPUs are the host's GPUs (bhosts -gpu, lshosts -gpu); GPUsFound
	// tells whether the host's agent found them (else the configuration
	// declares them).
	GPUs      []HostGPU `json:"gpus,omitempty"`
	GPUsFound bool      `json:"gpusFound,omitempty"`
}

// A HostGPU is one GPU of a host: its index, model and memory (MB, 0 when
// unknown); the jobs on it, running and suspended; whether a job holds
// it alone (exclusive_process or j_exclusive=yes); and the GPU memory
// jobs reserve on it (gmem), in MB.
type HostGPU struct {
	ID        int     `json:"id"`
	Model     string  `json:"model,omitempty"`
	Mem       float64 `json:"mem,omitempty"`
	NJobs     int     `json:"njobs"`
	Run       int     `json:"run"`
	Susp      int     `json:"susp"`
	Exclusive bool    `json:"exclusive,omitempty"`
	Reserved  float64 `json:"reserved,omitempty"`
	// MemUsed is the memory in use on the GPU, in MB, as the host's agent
	// last measured it; nil when it measures none.
	MemUsed *float64 `json:"memUsed,omitempty"`
	// Rsv counts the pending jobs that reserve the GPU.
	Rsv int `json:"rsv,omitempty"`
	// RunJobs and SuspJobs are the IDs of the running and the suspended
	// jobs on the GPU.
	RunJobs  []int64 `json:"runJobs,omitempty"`
	SuspJobs []int64 `json:"suspJobs,omitempty"`
}

// A SharedResource is one instance of a static resource of lsf.cluster's
// ResourceMap (lshosts -s, lsload -s).
type SharedResource struct {
	Resource string `json:"resource"`
	// Value is the configured value as written; Numeric tells whether
	// it is a number, and then Reserved is what running jobs hold of it.
	Value    string  `json:"value"`
	Numeric  bool    `json:"numeric,omitempty"`
	Reserved float64 `json:"reserved,omitempty"`
	// Hosts share the instance.
	Hosts []string `json:"hosts"`
}

// Status describes the daemon: its cluster, state directory, policy
// generation and log.
type Status struct {
	Cluster    string `json:"cluster"`
	Master     string `json:"master"`
	StateDir   string `json:"stateDir"`
	Started    int64  `json:"started"`
	Generation uint64 `json:"generation"`
	Jobs       int    `json:"jobs"`
	Pending    int    `json:"pending"`
	Running    int    `json:"running"`
	// EventLog says where the event log is: lsb.events in the state
	// directory, or etcd (fail-over masters).
	EventLog string `json:"eventLog,omitempty"`
	// LogRecovered tells what replay did at start (a torn tail cut ...).
	LogRecovered string `json:"logRecovered,omitempty"`
	Version      string `json:"version"`
	// LastReload is the outcome of the last reconfiguration, nil before
	// the first.
	LastReload *Reload `json:"lastReload,omitempty"`
	// Peers are the MultiCluster peers this cluster has talked to, by
	// name: whether the last exchange with each got an answer, and how
	// many of this cluster's jobs are there (sent, pending or running).
	Peers []Peer `json:"peers,omitempty"`
}

// Peer is a MultiCluster peer as the submission cluster last heard of it.
type Peer struct {
	Cluster   string `json:"cluster"`
	Up        bool   `json:"up"`
	Forwarded int    `json:"forwarded"`
}

// Reload is the outcome of a reconfiguration (badmin reconfig, or a
// change of a configuration file seen by the daemon).
type Reload struct {
	// Time is when it was tried; Trigger what asked for it ("badmin
	// reconfig", or the file that changed).
	Time    int64  `json:"time"`
	Trigger string `json:"trigger"`
	// OK is set when the new configuration was adopted; Generation is
	// then its number (the previous one's plus one), and otherwise the
	// number of the configuration that keeps serving.
	OK         bool   `json:"ok"`
	Generation uint64 `json:"generation"`
	// Diagnostics are the compiler's errors (and warnings) as lsfc check
	// prints them, "path:line:col: severity: message [CODE]".
	Diagnostics []string `json:"diagnostics,omitempty"`
	// Changes lists what changed from the configuration before, and when
	// each change applies.
	Changes []Change `json:"changes,omitempty"`
	// Warnings tell what the new configuration did to jobs (moved to
	// lost_and_found ...).
	Warnings []string `json:"warnings,omitempty"`
	// Took is how long the reload took, in seconds.
	Took float64 `json:"took"`
}

// A Change is one difference between two configurations.
type Change struct {
	// What is the file, section and key: "lsb.queues: queue normal:
	// RUNLIMIT 60 → 120", "lsf.cluster: host hostC added".
	What string `json:"what"`
	// Applies is when the change takes effect: live (from the next
	// cycle, pending jobs taken again), new-jobs (jobs started from now
	// on; running jobs keep what they started with) or restart (read
	// when lsfc serve starts only).
	Applies string `json:"applies"`
}

// When changes apply.
const (
	AppliesLive    = "live"
	AppliesNewJobs = "new-jobs"
	AppliesRestart = "restart"
)

// Perf is what the daemon has served since it started (badmin perfmon
// view): per kind of request, how many and how long they took.
type Perf struct {
	// Since is when counting began (the daemon's start), in Unix seconds.
	Since    int64          `json:"since"`
	Requests []RequestStats `json:"requests"`
}

// RequestStats describes one kind of request ("job query", "submit" ...).
// The quantiles are of the last PerfWindow requests of the kind, the
// count and the maximum of all; times are in seconds, from the request's
// arrival to the end of its answer (a submission's durable write
// included).
type RequestStats struct {
	Kind  string  `json:"kind"`
	Count int64   `json:"count"`
	P50   float64 `json:"p50"`
	P90   float64 `json:"p90"`
	P99   float64 `json:"p99"`
	Max   float64 `json:"max"`
}

// PerfWindow is the number of a kind's latest requests its quantiles are
// taken from.
const PerfWindow = 10000

// A JobReservation is what a pending job reserves (SLOT_RESERVE,
// RESOURCE_RESERVE): slots by host, rusage amounts, since when, and its
// predicted start (0 when it cannot be told).
type JobReservation struct {
	Hosts   []HostSlots      `json:"hosts,omitempty"`
	Amounts []ReservedAmount `json:"amounts,omitempty"`
	Since   int64            `json:"since"`
	Start   int64            `json:"start,omitempty"`
}

// HostSlots is a number of slots on a host.
type HostSlots struct {
	Host  string `json:"host"`
	Slots int    `json:"slots"`
}

// A ReservedAmount is an amount of a resource reserved on a host.
type ReservedAmount struct {
	Host  string  `json:"host"`
	Name  string  `json:"name"`
	Value float64 `json:"value"`
}

// A BackfillWindow is, for bslots, the slots free now for a backfill job
// and how long they stay free (Runtime in seconds, -1 for no limit),
// with each host's share.
type BackfillWindow struct {
	Slots   int         `json:"slots"`
	Runtime float64     `json:"runtime"`
	Hosts   []HostSlots `json:"hosts"`
}

// A JobNotify is a job's mail options: Begin is bsub -B, End -N, Exit
// -Ne, User -u.
type JobNotify struct {
	Begin bool   `json:"begin,omitempty"`
	End   bool   `json:"end,omitempty"`
	Exit  bool   `json:"exit,omitempty"`
	User  string `json:"user,omitempty"`
}
