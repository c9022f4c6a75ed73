package runtime

// The cycle's side of resizable jobs: it serves running jobs' pending
// resize requests, and gives a job of bsub -n min,max its slots up to max
// at its dispatch.

import (
	"cmp"
	"slices"
)

// planResizes lists the started jobs whose pending resize requests the
// cycle serves, in the order it serves them: queue priority, then the
// queue's order. It costs nothing when no job is resizable.
func (c *cycle) planResizes() {
	c.growers, c.growNext = c.growers[:0], 0
	if len(c.cluster.resizing) == 0 {
		return
	}
	for j := range c.cluster.resizing {
		if _, ok := j.PendingResize(); ok {
			c.growers = append(c.growers, j)
		}
	}
	slices.SortFunc(c.growers, func(a, b *Job) int {
		return cmp.Or(cmp.Compare(b.Queue.Priority, a.Queue.Priority), before(a, b))
	})
}

// growUpTo serves the pending resize requests of jobs of queues of
// priority at least prio: before the pending jobs of their queue or a
// lower one, as LSF schedules a request like a pending job of the job's
// queue.
func (c *cycle) growUpTo(prio int) {
	for c.growNext < len(c.growers) {
		j := c.growers[c.growNext]
		if j.Queue.Priority < prio {
			return
		}
		c.growNext++
		c.growJob(j)
	}
}

// growJob serves one job's request from the slots free now. A suspended
// job gets nothing for its request (it is served once it runs again),
// nor does a job this cycle preempted, nor one whose notification
// command runs (a release's: it is served once the command ended).
func (c *cycle) growJob(j *Job) {
	req, ok := j.PendingResize()
	if !ok || j.State != Run || c.victims[j] || j.resize.notifying {
		return
	}
	if j.resize.retryAt > c.now {
		c.wakeAt(j.resize.retryAt)
		return
	}
	r := c.growRun(j)
	if r == nil {
		return
	}
	more := c.moreSlots(r, j, j.Allocs, req.Max)
	if countAllocs(more) < req.Min {
		return
	}
	c.takeSlots(j, more)
	c.plan.Grows = append(c.plan.Grows, Grow{Job: j, Allocs: more})
}

// growRun returns a class run over the hosts a started job may grow on:
// those its queue, requirement and -m allow, as for its dispatch.
func (c *cycle) growRun(j *Job) *classRun {
	k := c.s.growClass(c, j)
	cand := c.s.candidatesFor(c, k)
	if len(cand.hosts) == 0 {
		return nil
	}
	return &classRun{k: k, cand: cand}
}

// growClass returns the job class a started job grows in, made once per
// queue and requirement: it is the scheduler's, not the cluster's, and
// holds no job.
func (s *Scheduler) growClass(c *cycle, j *Job) *jobClass {
	if k := s.growing[j]; k != nil && k.queue == j.Queue && k.req == j.Req {
		return k
	}
	var asked map[string]bool
	if len(j.Sub.Hosts) > 0 {
		asked, _ = c.cluster.askedHosts(j.Queue, j.Sub.Hosts, false)
	}
	k := &jobClass{key: "resize", queue: j.Queue, req: j.Req, acct: j.acct, asked: asked,
		exclusive: j.Sub.Exclusive, sla: j.SLA, dropped: true}
	if s.growing == nil || len(s.growing) > 2*len(c.cluster.resizing)+64 {
		s.growing = map[*Job]*jobClass{}
	}
	s.growing[j] = k
	return k
}

// moreSlots finds up to n more slots for a job that holds have, on the
// run's hosts, best first, as the job's span allows: on its first host
// alone with span[hosts=1], up to ptile per host, on no more hosts than
// span[hosts=N].
func (c *cycle) moreSlots(r *classRun, j *Job, have []Alloc, n int) []Alloc {
	var span SpanLimits
	hosts := r.cand.hosts
	if alts := j.Req.alts(); len(alts) == 1 && len(alts[0]) == 1 && alts[0][0].Simple != nil {
		sr := alts[0][0].Simple
		span = SpanLimits{Hosts: sr.Span.Hosts, Ptile: sr.Span.Ptile}
		hosts = c.termHosts(r.cand, sr)
	}
	held := map[*Host]int{}
	for _, a := range have {
		held[a.Host] += a.Slots
	}
	var out []Alloc
	nhosts := len(have)
	for _, h := range hosts {
		if n <= 0 {
			break
		}
		on := held[h]
		if on == 0 && (span.Hosts > 0 && nhosts >= span.Hosts) {
			continue
		}
		room, _ := c.jobRoom(r, j, h)
		if span.Ptile > 0 {
			room = min(room, span.Ptile-on)
		}
		want := min(room, n)
		if want <= 0 || !c.rusageFits(j, h, want) {
			continue
		}
		if on == 0 {
			nhosts++
		}
		out = append(out, Alloc{Host: h, Slots: want})
		n -= want
	}
	return out
}

// SpanLimits are the span[] bounds a resize keeps: most hosts, most slots
// per host (0: none).
type SpanLimits struct {
	Hosts, Ptile int
}

// takeSlots records in the cycle the slots a job takes beyond those it
// was dispatched with (a resize, or the slots up to its maximum at its
// dispatch): the slot counts only, not another job.
func (c *cycle) takeSlots(j *Job, allocs []Alloc) {
	n := 0
	for _, a := range allocs {
		h := a.Host
		c.hostUsed[h.Index] += a.Slots
		c.dispatchedTo[h.Index] = true
		if j.Sub.Exclusive {
			c.exclusiveOn[h.Index] = true
		}
		addTo(&c.hostQueue, hostQueue{h, j.Queue}, a.Slots)
		addTo(&c.hostUser, hostUser{h, j.User}, a.Slots)
		n += a.Slots
	}
	addTo(&c.queueUsed, j.Queue, n)
	addTo(&c.queueUser, queueUser{j.Queue, j.User}, n)
	addTo(&c.userUsed, j.User, n)
	for _, g := range c.cluster.groupsOf(j.User) {
		addTo(&c.groupUsed, g.name, n)
	}
	for _, l := range c.cluster.limits {
		c.planLimitSlots(l, j, allocs)
	}
	c.chargeFair(j, n)
	for _, a := range allocs {
		c.refreshRoom(a.Host)
	}
}

// planLimitSlots adds slots a job takes to the cycle's view of a limit,
// without counting the job again.
func (c *cycle) planLimitSlots(l *limitRule, j *Job, allocs []Alloc) {
	add := func(key string, slots float64) {
		k := limitKey{l, key}
		u := c.limitUse[k]
		if u == nil {
			u = &limitUse{}
			if c.limitUse == nil {
				c.limitUse = map[limitKey]*limitUse{}
			}
			c.limitUse[k] = u
		}
		u.slots += slots
	}
	if !l.hostBound() {
		if l.applies(j, nil) {
			add(l.key(j, nil), float64(countAllocs(allocs)))
		}
		return
	}
	for _, a := range allocs {
		if l.applies(j, a.Host) {
			add(l.key(j, a.Host), float64(a.Slots))
		}
	}
}

// extendDispatch gives a job of bsub -n min,max, placed with its minimum,
// the slots up to its maximum that are free: it records the placement and
// returns the whole allocation.
func (c *cycle) extendDispatch(r *classRun, j *Job, allocs []Alloc) []Alloc {
	c.take(j, allocs)
	extra := j.Sub.MaxSlots - j.Slots
	if extra <= 0 {
		return allocs
	}
	more := c.moreSlots(r, j, allocs, extra)
	if len(more) == 0 {
		return allocs
	}
	c.takeSlots(j, more)
	return addAllocs(allocs, more)
}

// victimResizing is called when the cycle preempts v: a grow the cycle
// planned for it goes (the preemption cancels it).
func (c *cycle) victimResizing(v *Job) {
	if v.resize == nil {
		return
	}
	pr := &c.plan.Preemptions[len(c.plan.Preemptions)-1]
	pr.Revoke, pr.HoldSignal = v.resize.grant != nil, v.resize.notifying
	c.plan.Grows = slices.DeleteFunc(c.plan.Grows, func(g Grow) bool { return g.Job == v })
}
