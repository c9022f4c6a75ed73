package runtime

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"time"

	"github.com/lsfc/lsfc/lang"
)

// Time is a point in time in seconds since the Unix epoch. The engine runs
// on a real clock or on a virtual one (simulation); both speak Time.
type Time float64

// Add returns t plus d seconds.
func (t Time) Add(d float64) Time { return t + Time(d) }

// Std returns t as a time.Time.
func (t Time) Std() time.Time {
	sec, frac := math.Modf(float64(t))
	return time.Unix(int64(sec), int64(frac*1e9)).UTC()
}

// Never is a Time later than any other.
const Never = Time(math.MaxFloat64)

// JobState is the state of a job, as LSF names them.
type JobState uint8

// The job states. A job is pending (PEND), held while pending (PSUSP),
// running (RUN), suspended while running by its owner or an administrator
// (USUSP) or by the system (SSUSP: load, preemption, run window), finished
// well (DONE) or not (EXIT), or lost track of (UNKWN: its host stopped
// answering; ZOMBI: killed while its host was unreachable).
const (
	Pend JobState = iota + 1
	PSusp
	Run
	USusp
	SSusp
	Done
	Exit
	Unknown
	Zombie
)

var stateNames = [...]string{Pend: "PEND", PSusp: "PSUSP", Run: "RUN", USusp: "USUSP", SSusp: "SSUSP",
	Done: "DONE", Exit: "EXIT", Unknown: "UNKWN", Zombie: "ZOMBI"}

func (s JobState) String() string {
	if int(s) < len(stateNames) && stateNames[s] != "" {
		return stateNames[s]
	}
	return "JobState(" + strconv.Itoa(int(s)) + ")"
}

// MarshalText writes a state as LSF names it.
func (s JobState) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a state written by MarshalText.
func (s *JobState) UnmarshalText(b []byte) error {
	st, ok := ParseJobState(string(b))
	if !ok {
		return fmt.Errorf("unknown job state %q", b)
	}
	*s = st
	return nil
}

// ParseJobState reads a state as LSF names it (PEND, RUN ...).
func ParseJobState(name string) (JobState, bool) {
	for i, n := range stateNames {
		if n != "" && n == name {
			return JobState(i), true
		}
	}
	return 0, false
}

// Pending reports whether the job waits to be dispatched (PEND or PSUSP).
func (s JobState) Pending() bool { return s == Pend || s == PSusp }

// Started reports whether the job holds hosts (RUN, USUSP, SSUSP, UNKWN).
func (s JobState) Started() bool { return s == Run || s == USusp || s == SSusp || s == Unknown }

// Finished reports whether the job is over (DONE, EXIT, ZOMBI).
func (s JobState) Finished() bool { return s == Done || s == Exit || s == Zombie }

// transitions lists the states each state may move to, as LSF moves jobs.
var transitions = map[JobState][]JobState{
	Pend:    {PSusp, Run, Exit},
	PSusp:   {Pend, Exit},
	Run:     {USusp, SSusp, Done, Exit, Unknown, Pend},
	USusp:   {Run, SSusp, Exit, Unknown},
	SSusp:   {Run, USusp, Exit, Unknown, Pend},
	Unknown: {Run, USusp, SSusp, Done, Exit, Zombie},
	Zombie:  {Exit},
}

// CanMove reports whether a job may go from state s to state to. A
// running job may return to PEND when it is requeued or its host is lost.
func (s JobState) CanMove(to JobState) bool {
	for _, t := range transitions[s] {
		if t == to {
			return true
		}
	}
	return false
}

// An Alloc is the slots a job holds on one host.
type Alloc struct {
	Host  *Host
	Slots int
	// GPUs are the indices of the host's GPUs the job holds there.
	GPUs []int
}

// A Job is one batch job. Fields set at submission do not change while the
// job waits, except through the commands that change them (bmod, btop,
// bbot, bswitch); the scheduler only reads jobs.
type Job struct {
	// ID is the job's number; Seq orders jobs of equal priority (it is the
	// submission order, moved by btop and bbot).
	ID  int64
	Seq float64
	// array is the array the job is an element of, or nil.
	array *Array
	// Name, User and Group are the job name and its owner.
	Name, User, Group string
	// Queue is the queue the job is in; App its application profile, or
	// nil.
	Queue *Queue
	App   *App
	// Slots is the number of job slots asked for (bsub -n, its minimum
	// for -n min,max); at least 1. A started job of -n min,max, or a
	// resizable one, has the slots it holds.
	Slots int
	// known is the state an UNKWN job had before its host stopped
	// answering, which it gets back when the host answers again.
	known JobState
	// listedStarted is set while the job is in the cluster's list of
	// started jobs.
	listedStarted bool
	// ordered is set while the job is in the cluster's list of jobs in
	// the order they came (Cluster.order).
	ordered bool
	// ResReq is the job's -R string, as given; Req the effective
	// requirement (queue, profile and job merged), set at submission.
	ResReq string
	Req    *Requirement
	// GPU is the job's GPU requirement, merged from bsub -gpu, its
	// profile's and queue's GPU_REQ and LSB_GPU_REQ; nil for a job that
	// asks for no GPU.
	GPU *lang.GPUReq
	// Priority is the user priority (bsub -sp); higher first.
	Priority int
	// Submit is when the job was submitted.
	Submit Time
	// RunLimit is the run limit in seconds (bsub -W, else the queue's or
	// profile's RUNLIMIT); 0 for none.
	RunLimit float64
	// Estimate is the estimated run time in seconds (bsub -We, else the
	// profile's RUNTIME); 0 for none. It is not a limit: the scheduler
	// plans with it (backfill, predicted starts).
	Estimate float64
	// Reservation is what the job, pending, reserved in the last cycle;
	// nil when it reserves nothing. rsvSince is when its reservation
	// began (0: it has none).
	Reservation *Reservation
	rsvSince    Time
	// FromType is the type of the submission host, for type==local; ""
	// when unknown (any type then).
	FromType string
	// Depend is the dependency condition (bsub -w) as given; the job
	// waits until it holds.
	Depend string
	dep    *dependency
	// ExternalStatus is the status text bstatus set, which external()
	// conditions of other jobs test.
	ExternalStatus string
	// Sub is the submission as accepted (its Queue the queue that took
	// it): what a real job runs, and what the event log keeps.
	Sub Submission

	// State and Reason: the job's state and, while it pends, the reason
	// of the last scheduling cycle.
	State  JobState
	Reason Reason
	// Start and End are when the job started and finished; 0 before.
	Start, End Time
	// Allocs are the hosts and slots the job holds while it runs.
	Allocs []Alloc
	// ExitCode is the job's exit status once it finished.
	ExitCode int

	// Runtime is, in simulation, how long the job runs once started.
	Runtime float64
	// TraceID is, in simulation, the job's number in the trace; SimExit
	// its exit status when it runs to its end.
	TraceID int
	SimExit int

	// Ran is, for a job that was suspended, how long it ran before; it
	// ran again from RunSince.
	Ran      float64
	RunSince Time
	// Epoch counts the job's suspensions and resumptions, so that an end
	// foreseen before one of them is recognised as stale.
	Epoch int

	// PreemptCount counts the times the job was preempted; once it
	// reaches MAX_JOB_PREEMPT the job runs to completion.
	PreemptCount int
	// ExitRequeues counts the times the job went back to pending because
	// it exited with one of its requeue exit values (REQUEUE_EXIT_VALUES,
	// bsub -Q); once it reaches MAX_JOB_REQUEUE such an exit holds the
	// job (PSUSP) instead, and the count stays.
	ExitRequeues int
	// AvoidHosts are the hosts the job exited on with an exclusive
	// requeue exit value (EXCLUDE(...)): it is not dispatched to them
	// again.
	AvoidHosts []string
	// Term is how a job that did not run to its end was ended, in LSF's
	// words: TERM_OWNER (bkill), TERM_RUNLIMIT, TERM_PREEMPT. A started
	// job brequeue kills has TERM_REQUEUE_OWNER or TERM_REQUEUE_ADMIN:
	// once its processes end it pends again, held (PSUSP) when
	// RequeueHold is set (brequeue -H).
	Term        string
	RequeueHold bool
	// KilledDone is set on a started job bkill -d kills: it is recorded
	// as DONE, exit code 0, when its processes end.
	KilledDone bool
	// Exceptions are the job exceptions the job raised (overrun, idle,
	// underrun).
	Exceptions Exception
	// CPUTime is the CPU seconds the job's processes used, as its
	// execution last reported them; cpuKnown is set once it did.
	CPUTime  float64
	cpuKnown bool
	// MaxMem is the most memory, in MB, the job's processes held, as
	// its execution reported at its end; 0 when unknown.
	MaxMem float64

	// Remote is, for a job forwarded to another cluster, where it is;
	// nil for a job of this cluster. A forwarded job holds no local slot
	// and is not scheduled here. MCFailures counts its failed remote
	// start attempts (LSB_MC_INITFAIL_RETRY); bresume of a job suspended
	// for them starts the count again.
	Remote     *Remote
	MCFailures int
	// PreExecFailures counts the job's pre-execution commands that failed
	// (LOCAL_MAX_PREEXEC_RETRY); bresume of a job suspended for them
	// starts the count again. PostExec is how its post-execution commands
	// ended: POST_DONE, POST_ERR, or "" (none, or not yet); PostRunning
	// while they run on after the job's end (JOB_INCLUDE_POSTPROC=N).
	PreExecFailures int
	PostExec        string
	// PreExecHost is the host where the job's pre-execution command last
	// failed: it is placed there again only when no other host can take
	// it.
	PreExecHost string
	// Withdrawn is set on a job received from another cluster that its
	// home recalled (Cluster.Withdraw).
	Withdrawn bool

	// held are the rusage amounts the job holds on its hosts now.
	held []heldAmount
	// SLA is the service class of the job (bsub -sla), or nil; slaWork
	// the run time it counts for in the class's pending work (-1 for
	// none known).
	SLA     *SLA
	slaWork float64
	// jgroup is the job's job group (bsub -g), or nil.
	jgroup *JobGroup
	// preempted is set while the job is suspended for a preemptive job.
	preempted bool
	// acct is the share account the job is charged to in a fairshare
	// queue.
	acct *account
	// apsSystem and apsAdmin are an administrator's APS values (bmod
	// -aps); aps the value the last cycle computed, in an APS queue.
	apsSystem *float64
	apsAdmin  float64
	aps       APSValue

	// class and classPos place a pending job in its class.
	class    *jobClass
	classPos int
	// reqUsed is the requirement the job counts as a user of (its Req
	// until it finishes; see useRequirement).
	reqUsed *Requirement
	// resize is, for a started resizable job, its resizing; nil for
	// any other.
	resize *resizeState
}

// A heldAmount is an amount of a resource a started job reserves on a
// host (memory in MB).
type heldAmount struct {
	host *Host
	name string
	v    float64
}

func (j *Job) String() string { return fmt.Sprintf("job %d", j.ID) }

// HostNames returns the names of the hosts the job holds, one per slot, as
// LSB_HOSTS lists them.
func (j *Job) HostNames() []string {
	if j.Remote != nil {
		return slices.Clone(j.Remote.Hosts)
	}
	var out []string
	for _, a := range j.Allocs {
		for range a.Slots {
			out = append(out, a.Host.Name)
		}
	}
	return out
}
