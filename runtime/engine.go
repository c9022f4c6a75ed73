package runtime

import (
	"cmp"
	"slices"
	"time"
)

// A Clock tells the engine the time: the real one for a daemon, a virtual
// one for a simulation.
type Clock interface {
	Now() Time
}

// RealClock is the wall clock.
type RealClock struct{}

// Now returns the current time.
func (RealClock) Now() Time { return Time(float64(time.Now().UnixNano()) / 1e9) }

// VirtualClock is a clock the simulation moves by hand.
type VirtualClock struct{ T Time }

// Now returns the clock's time.
func (c *VirtualClock) Now() Time { return c.T }

// An Executor runs the jobs the engine dispatches. Start is called once
// per dispatched job, after the engine recorded it as running; the
// executor reports the job's end through Engine.Finish.
type Executor interface {
	Start(e *Engine, j *Job) error
}

// A Controller is an executor that also controls started jobs: it stops
// a job the engine suspends (preemption, load), continues one it resumes
// and kills one it ends. An executor that is not one leaves started jobs
// alone (the sim executor, whose jobs are only accounts).
type Controller interface {
	Control(e *Engine, j *Job, a Action) error
}

// An Action is a job control action.
type Action uint8

// The actions.
const (
	ActSuspend Action = iota + 1
	ActResume
	ActKill
)

// An Engine applies scheduling plans to a cluster: it runs cycles on its
// clock, starts the dispatched jobs through its executor, and records
// their ends. It is not safe for concurrent use; a daemon serialises
// calls.
type Engine struct {
	Cluster   *Cluster
	Scheduler *Scheduler
	Clock     Clock
	Exec      Executor
	// Explain makes every cycle record per-host reasons (costly; for
	// bjobs -l style queries).
	Explain bool
	// Forward, when set, is the MultiCluster forwarding of the next
	// cycle (see Snapshot.Forward); the forwarded jobs leave their local
	// queues.
	Forward Forwarder

	last *Plan
}

// NewEngine returns an engine over a cluster with LSF's default plugins.
func NewEngine(c *Cluster, clock Clock, exec Executor) *Engine {
	return &Engine{Cluster: c, Scheduler: NewScheduler(DefaultPlugins()), Clock: clock, Exec: exec}
}

// Submit submits a job now.
func (e *Engine) Submit(s Submission) (*Job, error) {
	return e.Cluster.Submit(s, e.Clock.Now())
}

// Schedule runs one scheduling cycle now and applies its plan: the
// dispatched jobs start, the others keep their reasons. It returns the
// plan. Before the cycle, the cluster forgets the job classes no pending
// job is in and the requirements no unfinished job uses, so that neither
// the cycle's time nor the memory grows with the distinct requirements
// seen over time.
func (e *Engine) Schedule() *Plan {
	now := e.Clock.Now()
	cl := e.Cluster
	cl.dropIdleClasses()
	cl.dropUnusedRequirements()
	cl.accrue(now)
	resChange := cl.ageReservations(now)
	p := e.Scheduler.Cycle(Snapshot{Cluster: cl, Now: now, Explain: e.Explain, Forward: e.Forward})
	for j, r := range p.reasons {
		if j.State == PSusp && j.Reason.SystemHold() {
			// Suspended for its failed remote starts: it says so.
			continue
		}
		j.Reason = r
	}
	cl.applyExceptions(p.Exceptions, now)
	for _, pr := range p.Preemptions {
		hold := cl.preemptResizing(pr.Victim, now)
		if pr.Kill {
			e.control(pr.Victim, ActKill)
			pr.Victim.ExitCode, pr.Victim.Term = 130, "TERM_PREEMPT"
			pr.Victim.PreemptCount++
			cl.finish(pr.Victim, Exit, now)
			continue
		}
		cl.suspendPreempted(pr.Victim, now)
		if hold {
			p.markUnsignalled(pr.Victim)
		} else {
			e.control(pr.Victim, ActSuspend)
		}
	}
	for _, j := range p.RsvKills {
		e.control(j, ActKill)
		j.ExitCode, j.Term = 130, TermRsvEnd
		cl.finish(j, Exit, now)
	}
	for _, j := range p.Resumes {
		cl.resumePreempted(j, now)
		if cl.resumeResizing(j) {
			p.markUnsignalled(j)
		} else {
			e.control(j, ActResume)
		}
	}
	for _, s := range p.Suspends {
		cl.suspendForLoad(s.Job, s.Reason, now)
		e.control(s.Job, ActSuspend)
	}
	for _, j := range p.LoadResumes {
		cl.resumeFromLoad(j, now)
		e.control(j, ActResume)
	}
	for _, d := range p.Dispatches {
		e.Cluster.start(d.Job, d.Allocs, now)
		if e.Exec != nil {
			if err := e.Exec.Start(e, d.Job); err != nil {
				// A job that cannot be started leaves its hosts and ends
				// in EXIT, as LSF does when the execution fails.
				e.Finish(d.Job, Exit, 127)
			}
		}
	}
	for _, g := range p.Grows {
		cl.grow(g.Job, g.Allocs, now)
	}
	cl.applyReservations(p, now)
	for _, f := range p.Forwards {
		// The plan forwards only pending jobs of this cluster.
		_ = cl.Forward(f.Job, f.Cluster, f.Queue, now)
	}
	var due Time
	p.SLAActions, due = cl.updateSLAs(now)
	if due > now && due < p.Wake {
		p.Wake = due
	}
	if resChange < p.Wake && e.Cluster.pending() > 0 {
		// A job waits, and reservations shrink then: it may fit.
		p.Wake = resChange
	}
	e.last = p
	return p
}

// control passes a job control action to the executor, when it takes
// them. A job it cannot signal keeps the state the engine gave it, as
// LSF's mbatchd does until the execution host reports otherwise.
func (e *Engine) control(j *Job, a Action) {
	if ctl, ok := e.Exec.(Controller); ok {
		_ = ctl.Control(e, j, a)
	}
}

// NotifyDone records that a job's resize notification command ended
// with an exit code (see Cluster.NotifyDone); a suspend signal a preemption held
// back for it is sent now.
func (e *Engine) NotifyDone(j *Job, code int) {
	if e.Cluster.NotifyDone(j, code, e.Clock.Now()) {
		e.control(j, ActSuspend)
	}
}

// Reason returns why a pending job waits, as of the last cycle.
func (e *Engine) Reason(j *Job) Reason {
	if !j.State.Pending() {
		return ReasonNone
	}
	if j.Remote != nil {
		return j.Reason
	}
	if j.State == PSusp && j.Reason.SystemHold() {
		return j.Reason
	}
	if e.last == nil {
		// No cycle yet (the daemon just started, or read its
		// configuration again): a held job is held all the same.
		if j.State == PSusp {
			return ReasonHeld
		}
		return ReasonNew
	}
	return e.last.Reason(j)
}

// WhyPending tells why a pending job cannot start now: the job-level
// reason and each host's (see Scheduler.Explain).
func (e *Engine) WhyPending(j *Job) (Reason, []HostReason) {
	if j.Remote != nil || j.State == PSusp && j.Reason.SystemHold() {
		// At another cluster, or held for its failed starts there or
		// its failed pre-execution commands: no host is weighed.
		return j.Reason, nil
	}
	if j.State == Pend && j.BeginTime() > e.Clock.Now() {
		// Not before its begin time (bsub -b), whatever the hosts say.
		return ReasonBeginTime, nil
	}
	return e.Scheduler.Explain(Snapshot{Cluster: e.Cluster, Now: e.Clock.Now()}, j)
}

// Finish records that a job ended, in DONE or EXIT, with its exit code.
func (e *Engine) Finish(j *Job, state JobState, exitCode int) {
	if j.State.Finished() {
		return
	}
	j.ExitCode = exitCode
	e.Cluster.finish(j, state, e.Clock.Now())
}

// ApplyRunWindows suspends (SSUSP) the running jobs of queues whose
// RUN_WINDOW is closed and resumes those suspended by a window that is
// open again, as LSF does; suspended jobs keep their slots. It returns
// the jobs it suspended and resumed, and the next time a run window opens
// or closes for a queue with started jobs (Never if none).
func (e *Engine) ApplyRunWindows() (suspended, resumed []*Job, next Time) {
	now := e.Clock.Now()
	next = Never
	for _, q := range e.Cluster.Queues {
		if len(q.started) == 0 {
			continue
		}
		open := windowOpen(q.RunWindow, now)
		for _, j := range sortedJobs(q.started) {
			switch {
			case !open && j.State == Run:
				j.Ran += float64(now - j.RunSince)
				j.State, j.Reason = SSusp, ReasonRunWindow
				j.Epoch++
				suspended = append(suspended, j)
			case open && j.State == SSusp && j.Reason == ReasonRunWindow:
				j.State, j.Reason, j.RunSince = Run, ReasonNone, now
				j.Epoch++
				resumed = append(resumed, j)
			}
		}
		next = min(next, nextWindowChange(q.RunWindow, now))
	}
	return suspended, resumed, next
}

// sortedJobs returns the jobs of a set in ID order.
func sortedJobs(set map[*Job]bool) []*Job {
	out := make([]*Job, 0, len(set))
	for j := range set {
		out = append(out, j)
	}
	slices.SortFunc(out, func(a, b *Job) int { return cmp.Compare(a.ID, b.ID) })
	return out
}
