package runtime

// A Snapshot is what one scheduling cycle sees: the cluster at a time.
// The cycle reads it and never changes it. Its plugins never see it: they
// get CycleState and the views it leads to.
type Snapshot struct {
	Cluster *Cluster
	Now     Time
	// Explain makes the cycle record, for every job it looks at and
	// cannot dispatch, the reason each host rejected it (bjobs -p -l).
	Explain bool
	// Forward, when set, takes the pending jobs of send-jobs queues that
	// no local host takes (MultiCluster job forwarding).
	Forward Forwarder
}

// A Plan is what one scheduling cycle decided: the jobs to dispatch and
// where, and why the others wait.
type Plan struct {
	Now        Time
	Dispatches []Dispatch
	// Preemptions are the jobs suspended (or killed) for dispatched
	// ones; Resumes the preempted jobs whose slots are free again;
	// Suspends and LoadResumes what load control decided (loadStop,
	// STOP_COND; loadSched, RESUME_COND).
	Preemptions []Preemption
	Resumes     []*Job
	Suspends    []Suspension
	LoadResumes []*Job
	// Exceptions are the job and host exceptions the cycle detected.
	Exceptions []ExceptionEvent
	// SLAActions are the service classes' control actions that came due
	// (the engine fills them in once the plan is applied).
	SLAActions []SLAAction
	// Forwards are the jobs of send-jobs queues sent to receive-jobs
	// queues of other clusters.
	Forwards []Forward
	// Reservations are what the pending jobs that could not start
	// reserve (SLOT_RESERVE, RESOURCE_RESERVE); Released the jobs whose
	// reservation ran out (MAX_RESERVE_TIME) and that give it up for this
	// session.
	Reservations []*Reservation
	Released     []*Job
	// RsvKills are the started jobs of closed advance reservations that
	// ended: they are killed.
	RsvKills []*Job
	// Grows are the slots given to running jobs' pending resize
	// requests. Unsignalled are the preempted or resumed jobs the engine
	// sent no signal, their notification command running (see
	// Preemption.HoldSignal).
	Grows       []Grow
	Unsignalled map[*Job]bool
	// Wake is the earliest time at which waiting could end without any
	// event (an accept interval running out, a window opening); Never
	// when nothing waits on time.
	Wake Time
	// Stats count the cycle's work.
	Stats CycleStats

	reasons     map[*Job]Reason
	classReason map[*jobClass]Reason
	// forwardReason is, for a send-jobs queue whose destinations filled
	// up, why its jobs that wait for hosts were not forwarded.
	forwardReason map[*Queue]Reason
	hostReasons   map[*Job][]HostReason
	poolTargets   map[*Queue]int
}

// A Suspension is a running job load control suspends, and why.
type Suspension struct {
	Job    *Job
	Reason Reason
}

// A Dispatch starts one job on some hosts.
type Dispatch struct {
	Job    *Job
	Allocs []Alloc
}

// CycleStats count what a cycle did: how many distinct job classes and host
// classes it evaluated, how many jobs it looked at and dispatched.
type CycleStats struct {
	JobClasses, HostClasses int
	Considered, Dispatched  int
	// Evaluations counts select evaluations: per job class and host
	// class, not per job and host.
	Evaluations int
}

// Reason returns why a pending job was not dispatched by the cycle.
func (p *Plan) Reason(j *Job) Reason {
	r := p.localReason(j)
	if fr, ok := p.forwardReason[j.Queue]; ok && j.State == Pend && j.Remote == nil && forwardable(r) {
		return fr
	}
	return r
}

// localReason is why a pending job was not dispatched here, as if its
// queue forwarded nothing.
func (p *Plan) localReason(j *Job) Reason {
	if r, ok := p.reasons[j]; ok {
		return r
	}
	if j.State == Pend && j.Submit > p.Now {
		// Submitted since the cycle: no cycle has looked at it yet.
		return ReasonNew
	}
	if j.State == Pend && j.Reason == ReasonPreExec {
		// Back from a failed pre-execution command, and no cycle has
		// found it another reason since.
		return ReasonPreExec
	}
	if j.State == Pend && j.BeginTime() > p.Now {
		// A job the cycle did not reach shows its begin time (bsub -b)
		// first, as the cycle's own filters would.
		return ReasonBeginTime
	}
	if j.dep != nil {
		// A job the cycle did not reach (its class had no room) shows
		// its dependency first, as LSF does.
		if r := (dependFilter{}).Check(CycleState{}, JobInfo{j}); r != ReasonNone {
			return r
		}
	}
	if j.State == PSusp {
		// Held: no cycle looks at it, whatever holds its class back.
		if j.Reason == ReasonPreExecLimit || j.Reason == ReasonRequeueLimit {
			return j.Reason
		}
		return ReasonHeld
	}
	if j.class != nil {
		if r, ok := p.classReason[j.class]; ok {
			return r
		}
	}
	return ReasonSlots
}

// HostReasons returns, in explain mode, why each host rejected the job,
// in host order; nil otherwise.
func (p *Plan) HostReasons(j *Job) []HostReason { return p.hostReasons[j] }

// markUnsignalled records that the engine sent j no signal for its
// preemption or resumption.
func (p *Plan) markUnsignalled(j *Job) {
	if p.Unsignalled == nil {
		p.Unsignalled = map[*Job]bool{}
	}
	p.Unsignalled[j] = true
}
