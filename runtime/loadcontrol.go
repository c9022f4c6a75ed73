package runtime

import (
	"cmp"
	"slices"

	"github.com/lsfc/lsfc/compile"
)

// Load control: the execution side of LSF looks at each host's load every
// SBD_SLEEP_TIME and suspends a running job (SSUSP) when a loadStop
// threshold of the host or of the job's queue is passed or the queue's
// STOP_COND holds; it resumes a job suspended so when the host is back
// within the loadSched thresholds (or, when the queue has one, when its
// RESUME_COND holds). One job is suspended or resumed per host and look:
// the lowest priority job first for suspending, the highest first for
// resuming. The only job running on a host is not suspended unless
// someone uses the host (its idle time it is under a minute) or
// LSB_STOP_IGNORE_IT is set, so that a job cannot stop itself by its own
// load.

// readLoadControl reads SBD_SLEEP_TIME and LSB_STOP_IGNORE_IT, and notes
// whether any threshold or condition can suspend a job.
func (c *Cluster) readLoadControl() {
	c.SbdSleep = c.Policy.Parameters.SBDSleepTime.Seconds()
	c.StopIgnoreIt = c.Policy.LSFConf.StopIgnoreIt
	hasStop := func(ths map[string]compile.Threshold) bool {
		for _, th := range ths {
			if th.Stop != nil {
				return true
			}
		}
		return false
	}
	for _, h := range c.Hosts {
		c.loadControl = c.loadControl || hasStop(h.Thresholds)
	}
	for _, q := range c.Queues {
		c.loadControl = c.loadControl || hasStop(q.Thresholds)
		if q.Def != nil {
			c.loadControl = c.loadControl || q.Def.StopCond != nil || q.Def.ResumeCond != nil
		}
	}
}

// A LoadController looks, once a cycle before any dispatch, at the
// started jobs and decides which to suspend or resume for the state of
// their hosts, with CycleState's ReportSuspend and ReportLoadResume:
// LSF's load control (loadStop, STOP_COND, RESUME_COND) is one.
type LoadController interface {
	Name() string
	Control(s CycleState)
}

// loadControl runs the load controllers.
func (c *cycle) loadControl() {
	for _, l := range c.s.Plugins.LoadControllers {
		l.Control(CycleState{c})
	}
}

// loadStopController decides, for each host due for a look, which job to
// suspend or resume.
type loadStopController struct{}

func (loadStopController) Name() string { return "loadStop" }
func (loadStopController) Control(s CycleState) {
	c := s.c
	cl := c.cluster
	if !cl.loadControl {
		return
	}
	for _, h := range cl.Hosts {
		if len(h.jobs) == 0 {
			continue
		}
		if h.loadCheck > 0 && c.now < h.loadCheck.Add(cl.SbdSleep) {
			c.wakeAt(h.loadCheck.Add(cl.SbdSleep))
			continue
		}
		if j, why := c.toSuspend(h); j != nil {
			s.ReportSuspend(JobInfo{j}, why)
			c.wakeAt(c.now.Add(cl.SbdSleep))
			continue
		}
		if j := c.toResume(h); j != nil {
			s.ReportLoadResume(JobInfo{j})
			c.wakeAt(c.now.Add(cl.SbdSleep))
		}
	}
}

// toSuspend returns the running job of lowest priority on a host whose
// stop condition holds there, and why.
func (c *cycle) toSuspend(h *Host) (*Job, Reason) {
	running := 0
	for _, j := range h.jobs {
		if j.State == Run {
			running++
		}
	}
	if running == 0 || running == 1 && !c.cluster.StopIgnoreIt && !c.interactive(h) {
		return nil, ReasonNone
	}
	var best *Job
	var why Reason
	for _, j := range h.jobs {
		if j.State != Run {
			continue
		}
		r := c.stopHolds(j, h)
		if r == ReasonNone {
			continue
		}
		// The lowest queue priority, then the job started last.
		if best == nil || j.Queue.Priority < best.Queue.Priority ||
			j.Queue.Priority == best.Queue.Priority && cmp.Or(cmp.Compare(j.Start, best.Start), cmp.Compare(j.ID, best.ID)) > 0 {
			best, why = j, r
		}
	}
	return best, why
}

// toResume returns the load-suspended job of highest priority whose
// resume condition holds on every one of its hosts.
func (c *cycle) toResume(h *Host) *Job {
	var cands []*Job
	for _, j := range h.jobs {
		if j.State == SSusp && (j.Reason == ReasonLoadStop || j.Reason == ReasonStopCond) {
			cands = append(cands, j)
		}
	}
	slices.SortFunc(cands, func(a, b *Job) int {
		return cmp.Or(cmp.Compare(b.Queue.Priority, a.Queue.Priority), cmp.Compare(a.Start, b.Start), cmp.Compare(a.ID, b.ID))
	})
	for _, j := range cands {
		ok := true
		for _, a := range j.Allocs {
			if c.stopHolds(j, a.Host) != ReasonNone || !c.resumeHolds(j, a.Host) {
				ok = false
				break
			}
		}
		if ok {
			return j
		}
	}
	return nil
}

// interactive reports whether someone uses the host: its idle time (it,
// in minutes) is known and under one.
func (c *cycle) interactive(h *Host) bool {
	it, ok := h.Facts.Load["it"]
	return ok && it < 1
}

// stopHolds returns why a job must be suspended on a host: a loadStop
// threshold of the host or of its queue passed, or its queue's STOP_COND
// holding; ReasonNone when neither.
func (c *cycle) stopHolds(j *Job, h *Host) Reason {
	for _, ths := range [2]map[string]compile.Threshold{h.Thresholds, j.Queue.Thresholds} {
		for name, th := range ths {
			if th.Stop != nil && c.beyond(h, name, *th.Stop, true) {
				return ReasonLoadStop
			}
		}
	}
	if q := j.Queue.Def; q != nil && q.StopCond != nil && c.condHolds(q.StopCond, h) {
		return ReasonStopCond
	}
	return ReasonNone
}

// resumeHolds reports whether a load-suspended job may resume on a host:
// its queue's RESUME_COND holds, or, without one, the host is within the
// loadSched thresholds of the host and the queue.
func (c *cycle) resumeHolds(j *Job, h *Host) bool {
	if q := j.Queue.Def; q != nil && q.ResumeCond != nil {
		return c.condHolds(q.ResumeCond, h)
	}
	for _, ths := range [2]map[string]compile.Threshold{h.Thresholds, j.Queue.Thresholds} {
		for name, th := range ths {
			if th.Sched != nil && c.beyond(h, name, *th.Sched, false) {
				return false
			}
		}
	}
	return true
}

// beyond reports whether a host's load index is past a threshold: above
// it for an index where more is busier, below it for the others. For a
// loadSched threshold (stop false) reaching it counts, as the dispatch
// check has it; an index the host does not report is never past.
func (c *cycle) beyond(h *Host, name string, th float64, stop bool) bool {
	r, _, known := c.cluster.Env.Lookup(name)
	if !known {
		return false
	}
	load, ok := h.Facts.Load[r.Name]
	if !ok {
		return false
	}
	if r.Increasing {
		if stop {
			return load > th
		}
		return load >= th
	}
	return load < th
}

// condHolds evaluates a STOP_COND or RESUME_COND (a select) on a host.
func (c *cycle) condHolds(r *compile.Requirement, h *Host) bool {
	for _, alt := range r.Alts {
		for _, t := range alt {
			if t.Simple != nil && t.Simple.Select != nil {
				return c.matches(t.Simple.Select, h)
			}
		}
	}
	return false
}

// suspendForLoad suspends a running job for load control.
func (c *Cluster) suspendForLoad(j *Job, why Reason, now Time) {
	j.Ran += float64(now - j.RunSince)
	j.State, j.Reason = SSusp, why
	j.Epoch++
	for _, a := range j.Allocs {
		a.Host.loadCheck = now
	}
}

// resumeFromLoad resumes a job load control suspended.
func (c *Cluster) resumeFromLoad(j *Job, now Time) {
	j.State, j.Reason, j.RunSince = Run, ReasonNone, now
	j.Epoch++
	for _, a := range j.Allocs {
		a.Host.loadCheck = now
	}
}
