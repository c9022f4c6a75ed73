package runtime

import (
	"fmt"
	"strconv"
)

// A Reason says why a job pends, or why a host cannot take a job, in the
// words of LSF's pending reasons (bjobs -p). The zero Reason means none.
type Reason uint16

// The reasons. Job-level reasons stop a job before any host is looked at;
// host-level reasons reject one host for one job.
const (
	ReasonNone Reason = iota
	// Job-level.
	ReasonNew           // New job is waiting for scheduling
	ReasonHeld          // The job was suspended by the user while pending
	ReasonDependency    // Job dependency condition not satisfied
	ReasonDepNever      // Dependency condition invalid or never satisfied
	ReasonQueueInact    // The queue is inactivated by its dispatch window
	ReasonRunWindow     // The queue's run window is closed
	ReasonQueueClosed   // The queue is inactive (closed or inactivated by the administrator)
	ReasonQueueLimit    // The queue has reached its job slot limit (QJOB_LIMIT)
	ReasonUserLimit     // The user has reached the per-user job slot limit of the queue (UJOB_LIMIT)
	ReasonUserMaxJobs   // The user has reached his or her job slot limit (lsb.users MAX_JOBS)
	ReasonGroupMaxJobs  // The user's group has reached its job slot limit (lsb.users MAX_JOBS)
	ReasonResLimit      // A resource limit of lsb.resources is reached
	ReasonDispatchCap   // The number of jobs dispatched per scheduling session is reached
	ReasonNoHosts       // No host of the queue can take the job (see the host reasons)
	ReasonSlots         // Not enough job slots
	ReasonSpanHosts     // Not enough hosts to meet the job's spanning requirement
	ReasonPoolShare     // The queue's share of its slot pool is used up
	ReasonMultiCluster  // The job is being forwarded to a remote cluster
	ReasonSLAOptimum    // The job's service class runs its optimum number of jobs
	ReasonArrayLimit    // The job's array runs as many elements as its %N limit allows
	ReasonJobGroupLimit // The job's job group, or one above it, runs as many jobs as its limit allows
	// MultiCluster job forwarding (a job of a send-jobs queue).
	ReasonMCSent           // Forwarded; the remote queue has not answered yet
	ReasonMCRemotePend     // Pending in the remote cluster
	ReasonMCNoRoom         // No remote queue has room (IMPT_JOBBKLG)
	ReasonMCUnreachable    // The remote cluster is unreachable
	ReasonMCRejected       // The remote queue rejected the job
	ReasonMCRecalled       // Recalled after MAX_RSCHED_TIME; waiting for rescheduling
	ReasonMCRemoteResource // No remote cluster exports the host type or resources the job asks for
	ReasonMCInitFail       // Suspended after LSB_MC_INITFAIL_RETRY failed remote starts
	// Begin time and pre-execution.
	ReasonBeginTime    // The job's begin time (bsub -b) is not reached
	ReasonPreExec      // The job's pre-execution command failed; it is retried
	ReasonPreExecLimit // Suspended after LOCAL_MAX_PREEXEC_RETRY failed pre-execution commands
	// Automatic requeue.
	ReasonRequeueLimit // Suspended on a requeue exit value after MAX_JOB_REQUEUE requeues
	// Advance reservations.
	ReasonRsvInactive // The job's advance reservation (bsub -U) is not active
	// Suspend reasons (SSUSP).
	ReasonPreempted // The job was preempted by a job of a higher priority queue
	ReasonLoadStop  // A load index of the host is beyond its loadStop threshold
	ReasonStopCond  // The queue's STOP_COND holds on the host
	// Host-level.
	ReasonHostNotInQueue    // Not a host of the queue's HOSTS
	ReasonHostClosed        // The host is closed or not ready to run jobs
	ReasonHostMXJ           // The host has reached its job slot limit (MXJ)
	ReasonHostQueueLimit    // The queue's per-host job slot limit is reached (HJOB_LIMIT)
	ReasonHostProcLimit     // The queue's per-processor job slot limit is reached (PJOB_LIMIT)
	ReasonHostUserLimit     // The user's job slot limit on the host is reached (JL/U)
	ReasonHostUserProcLimit // The per-processor job slot limit of the user or a group is reached (JL/P)
	ReasonHostLoad          // A load index is beyond the host's or queue's loadSched threshold
	ReasonHostSelect        // Job's resource requirements not satisfied
	ReasonHostRusage        // Job's requirements for reserving resources (rusage) not satisfied
	ReasonHostAccept        // Just started a job recently (JOB_ACCEPT_INTERVAL)
	ReasonHostSlots         // Not enough job slots on the host for the job's span
	ReasonHostWindow        // The host's dispatch window is closed
	ReasonHostNotAsked      // Not specified in the job's submission (-m)
	ReasonHostExclusive     // The host runs an exclusive job
	ReasonHostNotIdle       // The job is exclusive and the host runs other jobs
	ReasonHostReserved      // The host's free job slots are reserved for a pending job (SLOT_RESERVE)
	ReasonHostGPU           // Not enough free GPUs on the host that meet the job's GPU requirement
	ReasonHostAdvRsv        // The host's slots are held by an advance reservation the job is not in
	ReasonHostNotInRsv      // Not a host of the job's advance reservation
	ReasonHostRsvInactive   // The job's advance reservation is not active
	ReasonHostRsvFull       // The job's advance reservation has no more slots on the host
	ReasonHostLoadUnavail   // The select reads a load index the host does not report
	reasonCount
)

var reasonText = [...]string{
	ReasonNone:              "",
	ReasonNew:               "New job is waiting for scheduling",
	ReasonHeld:              "The job was suspended by the user while pending",
	ReasonDependency:        "Job dependency condition not satisfied",
	ReasonDepNever:          "Dependency condition invalid or never satisfied",
	ReasonQueueInact:        "The queue is inactivated by its dispatch window",
	ReasonRunWindow:         "The queue's run window is closed",
	ReasonQueueClosed:       "The queue is inactive",
	ReasonQueueLimit:        "The queue has reached its job slot limit",
	ReasonUserLimit:         "The user has reached the per-user job slot limit of the queue",
	ReasonUserMaxJobs:       "The user has reached his/her job slot limit",
	ReasonGroupMaxJobs:      "One of the user's groups has reached its job slot limit",
	ReasonResLimit:          "Resource limit defined in lsb.resources reached",
	ReasonDispatchCap:       "The number of jobs dispatched per scheduling session has been reached",
	ReasonNoHosts:           "No host of the queue can take the job",
	ReasonSlots:             "Not enough job slot(s)",
	ReasonSpanHosts:         "Not enough hosts to meet the job's spanning requirement",
	ReasonPoolShare:         "The queue's share of its slot pool is used up",
	ReasonMultiCluster:      "The job is being forwarded to a remote cluster",
	ReasonSLAOptimum:        "The service class has reached its optimum number of running jobs",
	ReasonJobGroupLimit:     "The job group has reached its job limit",
	ReasonArrayLimit:        "The job array has reached its running element limit",
	ReasonMCSent:            "The job is being forwarded to a remote cluster",
	ReasonMCRemotePend:      "The job is pending in a remote cluster",
	ReasonMCNoRoom:          "No remote queue has room for more MultiCluster jobs (IMPT_JOBBKLG)",
	ReasonMCUnreachable:     "Remote cluster unreachable",
	ReasonMCRejected:        "The job was rejected by the remote queue",
	ReasonMCRecalled:        "The job was recalled from a remote cluster after MAX_RSCHED_TIME",
	ReasonMCRemoteResource:  "No remote cluster has hosts that meet the job's resource requirements",
	ReasonMCInitFail:        "The job failed to start remotely more than LSB_MC_INITFAIL_RETRY times",
	ReasonBeginTime:         "The job has a specified start time",
	ReasonPreExec:           "The job's pre-exec command exited with non-zero status",
	ReasonPreExecLimit:      "The job's pre-execution command failed the maximum number of times (LOCAL_MAX_PREEXEC_RETRY)",
	ReasonRequeueLimit:      "The job has been requeued the maximum number of times (MAX_JOB_REQUEUE)",
	ReasonPreempted:         "The job was preempted by a job of a higher priority queue",
	ReasonLoadStop:          "The load of the host is beyond a loadStop threshold",
	ReasonStopCond:          "The queue's suspending condition (STOP_COND) holds on the host",
	ReasonHostNotInQueue:    "Not specified in the queue's HOSTS",
	ReasonHostClosed:        "Closed or not ready to run jobs",
	ReasonHostMXJ:           "Job slot limit reached",
	ReasonHostQueueLimit:    "Queue's per-host job slot limit reached",
	ReasonHostProcLimit:     "Queue's per-processor job slot limit reached",
	ReasonHostUserLimit:     "User's job slot limit on the host reached",
	ReasonHostUserProcLimit: "User's or user group's per-processor job slot limit reached",
	ReasonHostLoad:          "Load threshold reached",
	ReasonHostSelect:        "Job's resource requirements not satisfied",
	ReasonHostRusage:        "Job's requirements for reserving resource (rusage) not satisfied",
	ReasonHostAccept:        "Just started a job recently",
	ReasonHostSlots:         "Not enough job slots on the host",
	ReasonHostWindow:        "The host's dispatch window is closed",
	ReasonHostNotAsked:      "Not specified in job submission",
	ReasonHostExclusive:     "The host is running an exclusive job",
	ReasonHostNotIdle:       "Job's exclusive requirement not satisfied: the host runs other jobs",
	ReasonHostReserved:      "Job slots on the host are reserved for a pending job",
	ReasonHostGPU:           "Job's requirements for reserving resource (ngpus_physical) not satisfied",
	ReasonHostAdvRsv:        "The host's job slots are reserved by an advance reservation",
	ReasonHostNotInRsv:      "Not a host of the job's advance reservation",
	ReasonHostRsvInactive:   "The job's advance reservation is not active",
	ReasonHostRsvFull:       "The job's advance reservation has no free job slots on the host",
	ReasonHostLoadUnavail:   "Load information unavailable",
	ReasonRsvInactive:       "The job's advance reservation is not active yet",
}

// String returns the reason as bjobs -p words it.
func (r Reason) String() string {
	if int(r) < len(reasonText) {
		return reasonText[r]
	}
	return "Reason(" + strconv.Itoa(int(r)) + ")"
}

// SystemHold reports whether r is the reason of a job LSF itself held
// (PSUSP) until it is released: its failed remote starts or pre-execution
// commands, or its requeue limit. Such a job keeps its reason, whatever a
// cycle finds.
func (r Reason) SystemHold() bool {
	return r == ReasonMCInitFail || r == ReasonPreExecLimit || r == ReasonRequeueLimit
}

// HostLevel reports whether r rejects one host rather than the job.
func (r Reason) HostLevel() bool { return r >= ReasonHostNotInQueue && r < reasonCount }

// A HostReason is one host's reason for not taking a job.
type HostReason struct {
	Host   string
	Reason Reason
}

// MarshalText writes a reason as its words; the zero Reason as "".
func (r Reason) MarshalText() ([]byte, error) { return []byte(r.String()), nil }

// UnmarshalText reads a reason written by MarshalText.
func (r *Reason) UnmarshalText(b []byte) error {
	for i, t := range reasonText {
		if t == string(b) {
			*r = Reason(i)
			return nil
		}
	}
	return fmt.Errorf("unknown reason %q", b)
}
