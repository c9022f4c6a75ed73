package localexec

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// A Spec is what the Executor needs to run one job.
type Spec struct {
	// JobID is the job's id, greater than 0; it names the job's files.
	// An element of a job array has an id of its own: its index times
	// 2^32 plus the array's job id, which LSB_JOBID and %J give it.
	JobID int64
	// Index is the job's index in its job array (%I, LSB_JOBINDEX), 0
	// for none; IndexEnd and IndexStep are the array's largest index and
	// its step (LSB_JOBINDEX_END, LSB_JOBINDEX_STEP), set for an element
	// only.
	Index     int
	IndexEnd  int `json:",omitempty"`
	IndexStep int `json:",omitempty"`
	// Name, Queue and User describe the job to itself (LSB_JOBNAME,
	// LSB_QUEUE) and in the job file's header.
	Name, Queue, User string
	// Command is the job's command line, or script, run by /bin/sh from
	// the job file. It must not be empty.
	Command string
	// Env is the submission environment (KEY=VALUE), passed to the job
	// whole, with the LSB_ variables of the job added. Nil gives the job
	// the LSB_ variables only.
	Env []string
	// Cwd is the working directory. "" means the user's home (or / when it
	// has none); a relative Cwd is taken from the user's home. When Cwd
	// cannot be entered, the job runs in /tmp.
	Cwd string
	// Umask is the job's umask, -1 to leave the wrapper's as it is.
	Umask int
	// Stdout and Stderr are the -o and -e files, in which %J stands for
	// the job id (OutputID) and %I for the index; relative ones are taken
	// from the working directory; one ending in a slash is a directory,
	// which gets the file JOBID.out (or JOBID.err). Output is appended. An empty
	// Stdout sends the output to the Executor's OutputPath; an empty
	// Stderr sends errors where the output goes. A missing directory is
	// made; a file that still cannot be opened ends the job before it
	// runs, with exit code 1 and the reason in Result.Err.
	Stdout, Stderr string
	// OutputID is the job id of the output files (%J, JOBID.out): the id
	// the job's owner knows it by, which for a job received from another
	// cluster is its id at its submission cluster. 0 means JobID, which
	// LSB_JOBID gives the job whatever OutputID is.
	OutputID int64 `json:",omitempty"`
	// Hosts holds one host name per slot, in order (LSB_HOSTS).
	Hosts []string
	// UID and GID are the job user's ids. The job runs as that user when
	// the daemon runs as root and UID is not 0, and as the daemon's user
	// otherwise. Negative ids (a job submitted over TCP, whose user the
	// master only knows by name) are those of the user named User on the
	// host where the job runs.
	UID, GID int
	// MemLimit is the job's memory limit in kilobytes (bsub -M, or the
	// MEMLIMIT of its queue), 0 for none. The wrapper reads the resident
	// memory of the job's processes, summed over its process group, every
	// second; past the limit it terminates them (SIGINT, SIGTERM, then
	// SIGKILL, a second apart) and Result.MemLimitExceeded says so.
	MemLimit int64 `json:",omitempty"`
	// PreExec are the pre-execution commands, run in order before the job
	// (see ExecStep): the first that exits non-zero ends the run, and the
	// job does not run (Result.PreExecFailed). PostExec are the
	// post-execution commands, run in order after the job, whatever its
	// end, and after a failed pre-execution only the host-based ones.
	PreExec  []ExecStep `json:",omitempty"`
	PostExec []ExecStep `json:",omitempty"`
	// PostLater reports the job's end as soon as its command ends, before
	// its post-execution commands run (LSF's JOB_INCLUDE_POSTPROC=N): the
	// wrapper records the job's Result, with PostPending, and the
	// Executor reports it; how the commands ended comes next, in a Result
	// of its own (PostReport). Unset, the job ends once they have.
	PostLater bool `json:",omitempty"`
	// PostTimeout is JOB_POSTPROC_TIMEOUT in seconds, 0 for none: the
	// post-execution commands still running that long after the first
	// started are killed (their process group) and count as failed.
	PostTimeout int64 `json:",omitempty"`
	// StepHosts are the hosts the host-based steps run for: each such
	// step runs once per host, in order, with HOSTNAME set to it. Nil
	// runs them once, for this host.
	StepHosts []string `json:",omitempty"`
	// CPULimit is the job's CPU time limit in seconds (bsub -c), 0 for
	// none: the wrapper sums the CPU time of the job's process group every
	// second and, past the limit, sends SIGXCPU and then SIGINT, SIGTERM
	// and SIGKILL as past its memory limit (Result.CPULimitExceeded).
	CPULimit int64 `json:",omitempty"`
	// ProcLimits are the job's per-process soft limits in KB (bsub -C,
	// -D, -F and -S), by the name of their lsb.queues limit: CORELIMIT
	// (RLIMIT_CORE), DATALIMIT (RLIMIT_DATA), FILELIMIT (RLIMIT_FSIZE)
	// and STACKLIMIT (RLIMIT_STACK). The job's shell starts with them
	// (never above the hard limit the wrapper has); the wrapper itself
	// and the pre- and post-execution commands do not.
	ProcLimits map[string]int64 `json:",omitempty"`
	// ProcHardLimits are the hard limits of the same resources (the
	// maxima of the job's queue), in KB; a soft limit is never set above
	// its hard one.
	ProcHardLimits map[string]int64 `json:",omitempty"`
	// JobLimits are the limits of the whole job (bsub -v, -p and -T):
	// SWAPLIMIT, the virtual memory of its processes in KB, PROCESSLIMIT,
	// their number, and THREADLIMIT, the number of their threads, summed
	// over the job's process group. The wrapper reads them every second
	// (as MemLimit) and past one terminates the job; Result.LimitTerm
	// says which (TERM_SWAP, TERM_PROCESSLIMIT, TERM_THREADLIMIT).
	JobLimits map[string]int64 `json:",omitempty"`
	// Input is the job's standard input file (bsub -i: %J and %I
	// expanded, taken from the working directory), opened as the job's
	// user; InputData, when not nil, is the content spooled at
	// submission (bsub -is), read in its place. Without either the job
	// reads /dev/null.
	Input     string `json:",omitempty"`
	InputData []byte `json:",omitempty"`
	// LoginShell (bsub -L) is an absolute path: the job file runs under
	// /bin/sh started from that shell as a login shell, so that the job's
	// environment is the one the user's login sets up.
	LoginShell string `json:",omitempty"`
	// OutDir is bsub -outdir: a directory made (as the job's user, mode
	// 0700) when the job starts, with %J, %I, %U, %P, %G and %H expanded;
	// relative -o, -e and -i paths are taken from it. LSB_OUTDIR names it.
	OutDir string `json:",omitempty"`
	// OutOverwrite and ErrOverwrite (bsub -oo and -eo) empty the -o and
	// -e files when the job starts, rather than append to them.
	OutOverwrite bool `json:",omitempty"`
	ErrOverwrite bool `json:",omitempty"`
	// Report, when set, has the wrapper write LSF's job report in the
	// job's -o file (see Report); nil writes none.
	Report *Report `json:",omitempty"`
	// GPUs are the indices of the GPUs the job holds on the host where it
	// runs, given to it as CUDA_VISIBLE_DEVICES; nil for none.
	GPUs []int `json:",omitempty"`
	// Interactive, when set, makes the job interactive: its wrapper
	// connects to the submitting bsub before the job starts and carries
	// the job's terminal over that connection (see Interactive).
	Interactive *Interactive `json:",omitempty"`
	// ProcessTracking (lsf.conf LSF_PROCESS_TRACKING=Y) runs the job in
	// a cgroup of its own when the host has a cgroup v2 hierarchy the
	// Executor can write: its signals, its kill and the limits' reach
	// every process it starts, even one that leaves its process group,
	// and what is left of it when its shell ends is killed (see
	// cgroup.go). Without such a hierarchy the job runs tracked by its
	// process group, and the Executor's Logf says why, once.
	ProcessTracking bool `json:",omitempty"`
	// CgroupAcct (lsf.conf LSF_LINUX_CGROUP_ACCT=Y) reads the CPU time
	// of a job tracked by cgroup (ProcessTracking, on a host that has
	// one) from its cgroup's cpu.stat: the time of every process the
	// job ran, those that left its process tree and were reaped by
	// another process too, for its CPU limit, the usage bjobs shows and
	// its end. Without it, and for a job tracked by process group, the
	// time is that of its live processes and of those its shell waited
	// for.
	CgroupAcct bool `json:",omitempty"`
	// Cgroup is set by Start, whatever the caller gave: the Executor's
	// base cgroup, under which the wrapper makes the job's, for a job
	// of ProcessTracking on a host that has one; "" otherwise.
	Cgroup string `json:",omitempty"`
}

// validate reports the first thing in s that the Executor cannot run.
func (s *Spec) validate() error {
	switch {
	case s.JobID <= 0:
		return fmt.Errorf("job id %d is not positive", s.JobID)
	case s.OutputID < 0:
		return fmt.Errorf("job %d has a negative output id %d", s.JobID, s.OutputID)
	case s.Index < 0:
		return fmt.Errorf("job %d has a negative array index %d", s.JobID, s.Index)
	case strings.TrimSpace(s.Command) == "":
		return fmt.Errorf("job %d has no command", s.JobID)
	case s.Umask < -1 || s.Umask > 0o777:
		return fmt.Errorf("job %d has umask %#o outside 0 to 0777", s.JobID, s.Umask)
	case s.UID < 0 || s.GID < 0:
		return fmt.Errorf("job %d has a negative user or group id", s.JobID)
	case s.MemLimit < 0:
		return fmt.Errorf("job %d has a negative memory limit", s.JobID)
	case s.CPULimit < 0:
		return fmt.Errorf("job %d has a negative CPU limit", s.JobID)
	case badJobLimits(s.JobLimits) != "":
		return fmt.Errorf("job %d has a bad job limit %s", s.JobID, badJobLimits(s.JobLimits))
	case badProcLimits(s.ProcLimits) != "" || badProcLimits(s.ProcHardLimits) != "":
		return fmt.Errorf("job %d has a bad per-process limit %s%s", s.JobID, badProcLimits(s.ProcLimits), badProcLimits(s.ProcHardLimits))
	case s.PostTimeout < 0:
		return fmt.Errorf("job %d has a negative post-execution timeout", s.JobID)
	case s.LoginShell != "" && !strings.HasPrefix(s.LoginShell, "/"):
		return fmt.Errorf("job %d has login shell %q, which is not an absolute path", s.JobID, s.LoginShell)
	case strings.ContainsRune(s.Stdout+s.Stderr+s.Cwd+s.Input+s.OutDir+s.LoginShell, 0):
		return fmt.Errorf("job %d has a path with a NUL byte", s.JobID)
	}
	if err := s.Interactive.Validate(); err != nil {
		return fmt.Errorf("job %d: %v", s.JobID, err)
	}
	for _, h := range append(slices.Clone(s.Hosts), s.StepHosts...) {
		if h == "" || strings.ContainsAny(h, " \t\n\x00") {
			return fmt.Errorf("job %d has host name %q, which is empty or holds blanks", s.JobID, h)
		}
	}
	for _, kv := range s.Env {
		if strings.ContainsRune(kv, 0) {
			return fmt.Errorf("job %d has an environment variable with a NUL byte", s.JobID)
		}
	}
	for _, st := range append(slices.Clone(s.PreExec), s.PostExec...) {
		if strings.TrimSpace(st.Command) == "" || strings.ContainsRune(st.Command+st.User, 0) {
			return fmt.Errorf("job %d has an empty pre- or post-execution command", s.JobID)
		}
	}
	return nil
}

// outputID returns the job id of the job's output files.
func (s *Spec) outputID() int64 {
	if s.OutputID > 0 {
		return s.OutputID
	}
	return s.lsfID()
}

// lsfID returns the job id LSF gives the job (LSB_JOBID): an element's
// is its array's.
func (s *Spec) lsfID() int64 { return s.JobID & (1<<32 - 1) }

// A Result is how a job ended.
type Result struct {
	JobID int64
	// ExitCode is the job's exit status as LSF reports it: the shell's
	// exit status, or 128+Signal when a signal killed it. It is 1 when the
	// job could not run (Err says why) and 0 when Lost.
	ExitCode int
	// Signal is the number of the signal that killed the job, 0 if none.
	Signal int
	// Lost is true when the job's end could not be known: its wrapper is
	// gone and left no status. NotStarted is also set when the job never
	// ran at all: it may safely run again.
	Lost       bool
	NotStarted bool
	// Err says why the job did not run, or why it is lost; "" otherwise.
	Err string
	// CPUTime is the user and system time of the job's processes that
	// were waited for.
	CPUTime time.Duration
	// MaxRSS is the most memory, in kilobytes, the job was seen to hold:
	// the largest resident set of its processes that were waited for (the
	// kernel's ru_maxrss) or, for a job with a memory limit, the largest
	// sum over its processes the wrapper read, whichever is more; 0 when
	// unknown.
	MaxRSS int64 `json:",omitempty"`
	// MemLimitExceeded is set when the job was terminated for holding
	// more memory than Spec.MemLimit (LSF's TERM_MEMLIMIT).
	MemLimitExceeded bool `json:",omitempty"`
	// LimitTerm is the LSF reason of a job terminated past one of
	// Spec.JobLimits, "" for none.
	LimitTerm string `json:",omitempty"`
	// End is when the job ended; zero when Lost.
	End time.Time
	// Cwd is the directory the job ran in: Spec.Cwd, or where the job
	// went when it could not enter that (see Spec.Cwd); "" when it did
	// not run or is Lost.
	Cwd string `json:",omitempty"`
	// CwdNotExist is set on a job that did not run because its working
	// directory could not be entered and its environment has
	// LSB_EXIT_IF_CWD_NOTEXIST=Y (LSF's TERM_CWD_NOTEXIST).
	CwdNotExist bool `json:",omitempty"`
	// PreExecFailed is set when a pre-execution command exited non-zero
	// (PreExecCode, 128+signal for a signal) and the job did not run;
	// ExitCode is then PreExecCode.
	PreExecFailed bool `json:",omitempty"`
	PreExecCode   int  `json:",omitempty"`
	// PostExec is how the post-execution commands ended: PostDone,
	// PostErr, or "" when the job had none (or they did not run, or
	// PostPending).
	PostExec string `json:",omitempty"`
	// PostPending is set on the Result of a job of Spec.PostLater whose
	// post-execution commands run on after it: a second Result, with
	// PostReport set, gives their end. PostReport marks that second
	// Result, in which only JobID, PostExec, Err and End count.
	PostPending bool `json:",omitempty"`
	PostReport  bool `json:",omitempty"`
	// CPULimitExceeded is set when the job was terminated for using more
	// CPU time than Spec.CPULimit (LSF's TERM_CPULIMIT).
	CPULimitExceeded bool `json:",omitempty"`
	// MailErr says what went wrong with the job's mail (see Mail), for
	// the daemon's log; "" when nothing did. The job's end is the same
	// either way.
	MailErr string `json:",omitempty"`
}

// Done reports whether the job ran and exited with status 0: LSF's DONE,
// against EXIT for every other Result.
func (r Result) Done() bool {
	return !r.Lost && r.Err == "" && r.ExitCode == 0 && r.Signal == 0
}

// signalExitCode is the exit code LSF reports for a job killed by sig.
func signalExitCode(sig int) int { return 128 + sig }

// hasProcLimits reports whether the job has per-process limits.
func (s *Spec) hasProcLimits() bool { return len(s.ProcLimits)+len(s.ProcHardLimits) > 0 }
