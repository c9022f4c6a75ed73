package runtime

import (
	"fmt"
	"math"
	"slices"

	"github.com/lsfc/lsfc/compile"
)

// An SLA is a time-based service class of lsb.serviceclasses as the
// scheduler runs it, or a guarantee class (whose jobs are scheduled by
// their queues alone).
//
// While some goal of a time-based class is active (in its time windows),
// the class has an optimum number of running jobs, the largest its
// active goals ask for, and the scheduler starts its jobs ahead of other
// work, service classes in PRIORITY order (then file order), up to that
// number; the jobs still obey their queues' limits, hosts and
// requirements. With no goal active, the class is inactive and its jobs
// are scheduled as if it did not exist. The optimum of
//
//   - a velocity goal is its number of jobs;
//   - a throughput goal is the jobs that must run at once to finish its
//     number per hour at the class's job run time, raised by the jobs it
//     fell behind over the last hour so that it catches up;
//   - a deadline goal is the class's remaining work divided by the time
//     left to the end of the goal's window, so that the work is spread
//     over the window rather than run at once.
//
// A job's run time is estimated, as LSF does, from its run limit (bsub
// -W, else its application profile's or queue's RUNLIMIT), else from the
// mean run time of the class's finished jobs; a throughput goal without
// either counts one-hour jobs, and a deadline goal runs every job of the
// class until one has finished. A goal is delayed when the class has
// pending jobs and fewer running than its optimum, when a throughput goal
// open for an hour finished fewer jobs over the last hour than asked, and
// when a deadline cannot be met even with every job running.
type SLA struct {
	Name string
	Def  *compile.ServiceClass
	// Priority is PRIORITY; Order the class's place in the file.
	Priority, Order int
	Goals           []*SLAGoal
	// NJobs counts the jobs submitted to the class; Finished those that
	// ended.
	NJobs, Finished int

	index   int
	users   func(string) bool
	pending int
	// pendingWork is the estimated run time of the pending jobs with a
	// run limit, pendingUnknown the pending jobs without one.
	pendingWork    float64
	pendingUnknown int
	running        []*Job
	// finishes are the end times of the jobs that finished within the
	// last hour, oldest first.
	finishes []Time
	runSum   float64
	runCount int
	// Optimum is the optimum number of running jobs as of the last
	// cycle, 0 when inactive.
	Optimum int
}

// An SLAGoal is one goal of a service class and its state.
type SLAGoal struct {
	compile.Goal
	// Status is the goal's status as of the last cycle.
	Status GoalStatus
	// Optimum is the goal's optimum number of running jobs; Finish, for
	// a deadline, the estimated end of the class's work.
	Optimum int
	Finish  Time
	// openedAt is when the goal's window last opened; delayedSince when
	// it became delayed (0 when on time), reset at each control action.
	openedAt     Time
	delayedSince Time
	// ActiveTime and DelayedTime add up the seconds the goal was active,
	// and active but delayed; Violations counts the control actions.
	ActiveTime, DelayedTime float64
	Violations              int
	lastEval                Time
}

// GoalStatus is a goal's status as bsla shows it.
type GoalStatus uint8

// The goal statuses.
const (
	GoalInactive GoalStatus = iota
	GoalOnTime
	GoalDelayed
)

func (s GoalStatus) String() string {
	switch s {
	case GoalOnTime:
		return "Active:On time"
	case GoalDelayed:
		return "Active:Delayed"
	}
	return "Inactive"
}

// An SLAAction is a CONTROL_ACTION due: a goal of a class stayed delayed
// for its VIOLATION_PERIOD.
type SLAAction struct {
	SLA     *SLA
	Goal    int
	Command string
}

func (a SLAAction) String() string {
	return fmt.Sprintf("service class %s: goal %d (%s) delayed for %s: %s", a.SLA.Name, a.Goal+1, a.SLA.Goals[a.Goal].Kind,
		minutes(float64(a.SLA.Def.ControlAction.Period)), a.Command)
}

// readSLAs builds the service classes of the policy.
func (c *Cluster) readSLAs() {
	for i, d := range c.Policy.ServiceClasses {
		s := &SLA{Name: d.Name, Def: d, Priority: d.Priority, Order: i, index: i, users: userFilter(d.UserGroup, c.Policy)}
		for _, g := range d.Goals {
			s.Goals = append(s.Goals, &SLAGoal{Goal: g})
		}
		c.SLAs = append(c.SLAs, s)
		if c.slaByName == nil {
			c.slaByName = map[string]*SLA{}
		}
		c.slaByName[s.Name] = s
	}
}

// SLA returns the service class named name, or nil.
func (c *Cluster) SLA(name string) *SLA { return c.slaByName[name] }

// timeBased reports whether the class has goals the scheduler enforces.
func (s *SLA) timeBased() bool { return len(s.Goals) > 0 }

// Counts returns the class's jobs by state: pending (PEND, PSUSP),
// running, and suspended by the system and by users.
func (s *SLA) Counts() (pend, run, ssusp, ususp int) {
	for _, j := range s.running {
		switch j.State {
		case Run:
			run++
		case SSusp:
			ssusp++
		case USusp:
			ususp++
		}
	}
	return s.pending, run, ssusp, ususp
}

// FinishedLastHour counts the jobs of the class that ended in the hour
// before now.
func (s *SLA) FinishedLastHour(now Time) int {
	n := 0
	for _, t := range s.finishes {
		if t > now-3600 {
			n++
		}
	}
	return n
}

// estimate returns a job's estimated run time, and whether there is one:
// its run limit, else the class's mean run time.
func (s *SLA) estimate(j *Job) (float64, bool) {
	if j.RunLimit > 0 {
		return j.RunLimit, true
	}
	if s.runCount > 0 {
		return s.runSum / float64(s.runCount), true
	}
	return 0, false
}

// attach counts a new or restored job in its class.
func (c *Cluster) attachSLA(j *Job) {
	s := j.SLA
	if s == nil {
		return
	}
	s.NJobs++
	if j.State.Finished() {
		s.Finished++
		if j.Start > 0 && j.End >= j.Start {
			s.runSum += float64(j.End - j.Start)
			s.runCount++
		}
		s.finishes = append(s.finishes, j.End)
	}
}

// slaPend counts a job that pends (again) in its class.
func (j *Job) slaPend() {
	s := j.SLA
	if s == nil {
		return
	}
	s.pending++
	if j.RunLimit > 0 {
		s.pendingWork += j.RunLimit
		j.slaWork = j.RunLimit
	} else {
		s.pendingUnknown++
		j.slaWork = -1
	}
}

// slaUnpend takes a job out of its class's pending count.
func (j *Job) slaUnpend() {
	s := j.SLA
	if s == nil {
		return
	}
	s.pending--
	if j.slaWork >= 0 {
		s.pendingWork -= j.slaWork
	} else {
		s.pendingUnknown--
	}
}

// slaStart counts a job that starts in its class.
func (j *Job) slaStart() {
	if s := j.SLA; s != nil {
		j.slaUnpend()
		s.running = append(s.running, j)
	}
}

// slaLeave takes a started job out of its class's running jobs.
func (j *Job) slaLeave() {
	if s := j.SLA; s != nil {
		if i := slices.Index(s.running, j); i >= 0 {
			s.running = slices.Delete(s.running, i, i+1)
		}
	}
}

// slaFinish counts a job that ended in its class.
func (j *Job) slaFinish(now Time) {
	s := j.SLA
	if s == nil {
		return
	}
	s.Finished++
	s.finishes = append(s.finishes, now)
	if j.Start > 0 {
		s.runSum += float64(now - j.Start)
		s.runCount++
	}
}

// ranFor returns how long a started job has run by now.
func ranFor(j *Job, now Time) float64 {
	if j.State == Run {
		return j.Ran + float64(now-j.RunSince)
	}
	return j.Ran
}

// goalEval is what one goal asks for at one time.
type goalEval struct {
	active  bool
	optimum int
	delayed bool
	finish  Time
	// wake is when the goal's answer changes with time alone.
	wake Time
}

// evaluate works out each goal of the class at now, from the class's
// jobs as they stand; started is the jobs started or planned to start.
// It changes nothing.
func (s *SLA) evaluate(now Time, started int, out []goalEval) []goalEval {
	out = out[:0]
	pending := s.pending - (started - len(s.running))
	unfinished := pending + started
	for _, g := range s.Goals {
		e := goalEval{active: windowOpen(g.Windows, now), wake: nextWindowChange(g.Windows, now)}
		if !e.active || unfinished == 0 {
			out = append(out, e)
			continue
		}
		switch g.Kind {
		case compile.Velocity:
			e.optimum = min(int(g.Target), unfinished)
		case compile.Throughput:
			e.optimum, e.delayed = s.throughput(g, now, unfinished)
		case compile.Deadline:
			e.optimum, e.delayed, e.finish = s.deadline(now, e.wake, started, unfinished)
		}
		e.optimum = max(e.optimum, 0)
		if pending > 0 && started < e.optimum {
			e.delayed = true
		}
		out = append(out, e)
	}
	return out
}

// throughput returns a throughput goal's optimum, and whether it fell
// behind over the last hour.
func (s *SLA) throughput(g *SLAGoal, now Time, unfinished int) (int, bool) {
	// The jobs' run time: observed, else the mean run limit of the
	// pending jobs, else an hour.
	run := 3600.0
	if s.runCount > 0 {
		run = s.runSum / float64(s.runCount)
	} else if known := s.pending - s.pendingUnknown; known > 0 {
		run = s.pendingWork / float64(known)
	}
	target := g.Target
	behind := false
	opened := g.openedAt
	if opened == 0 {
		opened = now
	}
	if now-opened >= 3600 {
		if done := float64(s.FinishedLastHour(now)); done < g.Target {
			behind = true
			target += g.Target - done
		}
	}
	return min(unfinished, max(1, int(math.Ceil(target*run/3600-1e-9)))), behind
}

// deadline returns a deadline goal's optimum, whether the deadline
// (closes) is missed even with every job running, and the estimated end
// of the work at the optimum.
func (s *SLA) deadline(now, closes Time, started, unfinished int) (int, bool, Time) {
	if s.pendingUnknown > 0 && s.runCount == 0 {
		// Nothing tells how long the jobs run: run them all until one
		// ends.
		return unfinished, false, 0
	}
	mean := 0.0
	if s.runCount > 0 {
		mean = s.runSum / float64(s.runCount)
	}
	work := s.pendingWork + float64(s.pendingUnknown)*mean
	longest := 0.0
	for _, j := range s.running {
		est, _ := s.estimate(j)
		left := max(0, est-ranFor(j, now))
		work += left
		longest = max(longest, left)
	}
	left := float64(closes - now)
	if left <= 0 {
		return unfinished, true, now.Add(work)
	}
	need := int(math.Ceil(work/left - 1e-9))
	opt := min(unfinished, max(1, need))
	return opt, need > unfinished || longest > left, now.Add(work / float64(max(1, opt)))
}

// planSLAs works out, at the start of a cycle, how many more jobs each
// active class may start; -1 for a class without a limit this cycle.
func (c *cycle) planSLAs() {
	cl := c.cluster
	if len(cl.SLAs) == 0 {
		return
	}
	if cap(c.slaRoom) < len(cl.SLAs) {
		c.slaRoom = make([]int, len(cl.SLAs))
	}
	c.slaRoom = c.slaRoom[:len(cl.SLAs)]
	for i, s := range cl.SLAs {
		c.slaRoom[i] = -1
		if !s.timeBased() {
			continue
		}
		c.slaEval = s.evaluate(c.now, len(s.running), c.slaEval)
		active, opt := false, 0
		busy := s.pending+len(s.running) > 0
		for _, e := range c.slaEval {
			if busy {
				// A window that opens or closes changes what the class's
				// jobs may do; without jobs it changes nothing.
				c.wakeAt(e.wake)
			}
			if e.active {
				active = true
				opt = max(opt, e.optimum)
			}
		}
		if active {
			c.slaRoom[i] = max(0, opt-len(s.running))
		}
	}
}

// slaActive reports whether a job class belongs to a class whose goals
// order and limit it this cycle.
func (c *cycle) slaActive(k *jobClass) bool {
	return k.sla != nil && len(c.slaRoom) > k.sla.index && c.slaRoom[k.sla.index] >= 0
}

// slaTook counts a job the cycle dispatched against its class's room,
// and closes the class's job classes when the room is used up.
func (c *cycle) slaTook(j *Job) {
	s := j.SLA
	if s == nil || len(c.slaRoom) <= s.index || c.slaRoom[s.index] < 0 {
		return
	}
	c.slaRoom[s.index]--
	if c.slaRoom[s.index] > 0 {
		return
	}
	for _, r := range c.runs {
		if r.k.sla == s && !r.done {
			r.done = true
			c.setClassReason(r.k, ReasonSLAOptimum)
		}
	}
}

// slaFilter keeps a job of an active service class that reached its
// optimum number of running jobs.
type slaFilter struct{}

func (slaFilter) Name() string { return "SLA" }
func (slaFilter) Check(st CycleState, jv JobInfo) Reason {
	c, j := st.c, jv.j
	if s := j.SLA; s != nil && len(c.slaRoom) > s.index && c.slaRoom[s.index] == 0 {
		return ReasonSLAOptimum
	}
	return ReasonNone
}

// slaBefore orders two job classes by their service classes: those of
// active classes first, by PRIORITY, then file order. It returns 0 when
// the service classes do not decide.
func (c *cycle) slaBefore(a, b *jobClass) int {
	aa, ab := c.slaActive(a), c.slaActive(b)
	switch {
	case aa && !ab:
		return -1
	case ab && !aa:
		return 1
	case !aa || a.sla == b.sla:
		return 0
	case a.sla.Priority != b.sla.Priority:
		if a.sla.Priority > b.sla.Priority {
			return -1
		}
		return 1
	case a.sla.Order < b.sla.Order:
		return -1
	}
	return 1
}

// hasControlAction reports whether a class has a CONTROL_ACTION.
func (c *Cluster) hasControlAction(s *SLA) bool {
	return s.Def != nil && s.Def.ControlAction != nil && s.Def.ControlAction.Period > 0
}

// updateSLAs brings every class's goals up to now, after a cycle's plan
// was applied: their status and optimum, the time they were active and
// delayed, and the control actions due. It also returns when the next
// control action comes due, if its goal stays delayed (Never for none).
func (c *Cluster) updateSLAs(now Time) ([]SLAAction, Time) {
	var acts []SLAAction
	next := Never
	var evals []goalEval
	for _, s := range c.SLAs {
		if !s.timeBased() {
			continue
		}
		// Finishes older than an hour no longer count.
		drop := 0
		for drop < len(s.finishes) && s.finishes[drop] <= now-3600 {
			drop++
		}
		s.finishes = s.finishes[drop:]
		evals = s.evaluate(now, len(s.running), evals)
		s.Optimum = 0
		for k, e := range evals {
			g := s.Goals[k]
			if g.lastEval > 0 && g.Status != GoalInactive {
				dt := float64(now - g.lastEval)
				g.ActiveTime += dt
				if g.Status == GoalDelayed {
					g.DelayedTime += dt
				}
			}
			g.lastEval = now
			if !e.active {
				g.Status, g.Optimum, g.Finish, g.openedAt, g.delayedSince = GoalInactive, 0, 0, 0, 0
				continue
			}
			if g.Status == GoalInactive {
				g.openedAt = now
			}
			g.Optimum, g.Finish = e.optimum, e.finish
			s.Optimum = max(s.Optimum, e.optimum)
			if !e.delayed {
				g.Status, g.delayedSince = GoalOnTime, 0
				continue
			}
			g.Status = GoalDelayed
			if g.delayedSince == 0 {
				g.delayedSince = now
			}
			if c.hasControlAction(s) && now >= g.delayedSince.Add(float64(s.Def.ControlAction.Period)) {
				g.Violations++
				g.delayedSince = now
				acts = append(acts, SLAAction{SLA: s, Goal: k, Command: s.Def.ControlAction.Command})
			}
			if c.hasControlAction(s) {
				next = min(next, g.delayedSince.Add(float64(s.Def.ControlAction.Period)))
			}
		}
	}
	return acts, next
}

// Status returns the status of the class: that of its first delayed
// active goal, else on time when some goal is active, else inactive.
func (s *SLA) Status() GoalStatus {
	st := GoalInactive
	for _, g := range s.Goals {
		if g.Status == GoalDelayed {
			return GoalDelayed
		}
		st = max(st, g.Status)
	}
	return st
}
