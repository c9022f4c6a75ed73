package runtime

import (
	"cmp"
	"math"
	"slices"
	"strings"

	"github.com/lsfc/lsfc/compile"
)

// PreemptFor holds the PREEMPT_FOR options of lsb.params. Once preemption
// is configured, a preempted job never counts against its host's MXJ for
// the queues that may preempt it, nor against its user's own MAX_JOBS;
// the options take it out of more limits.
type PreemptFor struct {
	// HostJLU: out of JL/U (lsb.hosts).
	HostJLU bool
	// GroupMax: out of the MAX_JOBS of user groups (lsb.users).
	GroupMax bool
	// UserJLP and GroupJLP: out of JL/P (lsb.users) of a user, of a group.
	UserJLP, GroupJLP bool
	// LeastRunTime: among candidate victims, the job that has run the
	// shortest time is preempted first.
	LeastRunTime bool
	// MiniJob: for a parallel job, as few jobs as possible are preempted
	// (larger victims first); OptimalMiniJob also prefers, on each host, a
	// single victim that frees just enough slots.
	MiniJob, OptimalMiniJob bool
}

// readPreemption reads PREEMPTION, TERMINATE_WHEN, MAX_JOB_PREEMPT and
// PREEMPT_FOR. Queue hi may preempt queue lo when hi has the higher
// priority and either hi is PREEMPTIVE (for every lower queue, or for
// those it lists) or lo is PREEMPTABLE (by every higher queue, or by
// those it lists).
func (c *Cluster) readPreemption() {
	p := &c.Policy.Parameters
	c.MaxJobPreempt = p.MaxJobPreempt
	for _, o := range p.PreemptFor {
		switch strings.ToUpper(o) {
		case "HOST_JLU":
			c.PreemptFor.HostJLU = true
		case "GROUP_MAX":
			c.PreemptFor.GroupMax = true
		case "USER_JLP":
			c.PreemptFor.UserJLP = true
		case "GROUP_JLP":
			c.PreemptFor.GroupJLP = true
		case "LEAST_RUN_TIME":
			c.PreemptFor.LeastRunTime = true
		case "MINI_JOB":
			c.PreemptFor.MiniJob = true
		case "OPTIMAL_MINI_JOB":
			c.PreemptFor.MiniJob, c.PreemptFor.OptimalMiniJob = true, true
		}
	}
	c.PreemptExclusive = slices.ContainsFunc(p.PreemptJobType, func(s string) bool { return strings.EqualFold(s, "EXCLUSIVE") })
	for _, q := range c.Queues {
		if q.Def == nil {
			continue
		}
		q.killOnPreempt = slices.ContainsFunc(q.Def.TerminateWhen, func(s string) bool { return strings.EqualFold(s, "PREEMPT") })
		if st := q.Def.Settings["MAX_JOB_PREEMPT"]; st != nil {
			if x, ok := st.Value.(float64); ok && x > 0 {
				q.maxPreempt = int(x)
			}
		}
	}
	for _, hi := range c.Queues {
		for _, lo := range c.Queues {
			if hi.Priority <= lo.Priority {
				continue
			}
			if pref, ok := preemptsBy(hi, lo); ok {
				if hi.preempts == nil {
					hi.preempts = map[*Queue]int{}
				}
				hi.preempts[lo] = pref
				c.preemption = true
			}
		}
	}
}

// preemptsBy reports whether queue hi's PREEMPTIVE or queue lo's
// PREEMPTABLE lets hi's jobs preempt lo's, and the preference hi gives lo.
func preemptsBy(hi, lo *Queue) (int, bool) {
	if hi.Def != nil && hi.Def.Preemption != nil && hi.Def.Preemption.Preemptive {
		refs := hi.Def.Preemption.PreemptiveQueues
		if len(refs) == 0 {
			return 0, true
		}
		for _, r := range refs {
			if r.Name == lo.Name {
				return r.Pref, true
			}
		}
	}
	if lo.Def != nil && lo.Def.Preemption != nil && lo.Def.Preemption.Preemptable {
		refs := lo.Def.Preemption.PreemptableQueues
		if len(refs) == 0 || slices.ContainsFunc(refs, func(r compile.QueueRef) bool { return r.Name == hi.Name }) {
			return 0, true
		}
	}
	return 0, false
}

// CanPreempt reports whether jobs of queue q may preempt jobs of queue
// victim.
func (q *Queue) CanPreempt(victim *Queue) bool {
	_, ok := q.preempts[victim]
	return ok
}

// MaxPreempt returns how many times the job may be preempted
// (MAX_JOB_PREEMPT of its application profile, else of its queue, else of
// lsb.params), 0 for no limit.
func (c *Cluster) MaxPreempt(j *Job) int {
	if j.App != nil && j.App.maxPreempt > 0 {
		return j.App.maxPreempt
	}
	if j.Queue.maxPreempt > 0 {
		return j.Queue.maxPreempt
	}
	return c.MaxJobPreempt
}

// preemptable reports whether a started job may be preempted now by a job
// of queue by: it runs (a suspended job has nothing left to give), its
// queue may be preempted by by, it is not exclusive (unless
// PREEMPT_JOBTYPE=EXCLUSIVE), and it has not reached MAX_JOB_PREEMPT
// (after which it runs to completion). A job of a time-based service class
// is never preempted, as LSF documents.
func (c *Cluster) preemptable(j *Job, by *Queue) bool {
	if j.State != Run || !by.CanPreempt(j.Queue) || j.Sub.Exclusive && !c.PreemptExclusive || j.SLA != nil && j.SLA.timeBased() {
		return false
	}
	max := c.MaxPreempt(j)
	return max <= 0 || j.PreemptCount < max
}

// suspendPreempted suspends a job for a preemptive one (SSUSP). It keeps
// its slots, but jobs of the queues that may preempt it can use them, and
// the limits PreemptFor names stop counting them.
func (c *Cluster) suspendPreempted(j *Job, now Time) {
	j.Ran += float64(now - j.RunSince)
	j.State, j.Reason = SSusp, ReasonPreempted
	j.Epoch++
	j.PreemptCount++
	c.markPreempted(j)
}

// markPreempted records a started job as suspended for preemption: its
// slots go to the counts of preempted slots.
func (c *Cluster) markPreempted(j *Job) {
	j.preempted = true
	c.preemptedJobs++
	c.countPreempted(j, 1)
}

// unmarkPreempted undoes markPreempted, for a job that resumes or leaves
// its hosts; it does nothing to a job that is not preempted.
func (c *Cluster) unmarkPreempted(j *Job) {
	if !j.preempted {
		return
	}
	c.countPreempted(j, -1)
	c.preemptedJobs--
	j.preempted = false
}

// countPreempted adds (sign 1) or takes back (sign -1) a preempted job's
// slots in the counts of preempted slots: by host and queue, by host and
// user, by user and by group.
func (c *Cluster) countPreempted(j *Job, sign int) {
	n := 0
	for _, a := range j.Allocs {
		h := a.Host
		if h.preempted == nil {
			h.preempted, h.preemptedUser = map[*Queue]int{}, map[string]int{}
		}
		addCount(h.preempted, j.Queue, sign*a.Slots)
		addCount(h.preemptedUser, j.User, sign*a.Slots)
		n += a.Slots
	}
	addCount(c.userPreempted, j.User, sign*n)
	for _, g := range c.groupsOf(j.User) {
		addCount(c.groupPreempted, g.name, sign*n)
	}
}

// addCount adds n to m[k], deleting the key when it comes to 0.
func addCount[K comparable](m map[K]int, k K, n int) {
	m[k] += n
	if m[k] == 0 {
		delete(m, k)
	}
}

// resumePreempted resumes a preempted job whose slots are free again.
func (c *Cluster) resumePreempted(j *Job, now Time) {
	c.unmarkPreempted(j)
	j.State, j.Reason, j.RunSince = Run, ReasonNone, now
	j.Epoch++
}

// preemptedSlots returns the slots of a host's jobs suspended by
// preemption.
func (h *Host) preemptedSlots() int {
	n := 0
	for _, s := range h.preempted {
		n += s
	}
	return n
}

// The cycle's side of preemption.

// usable returns the slots on a host held by preempted jobs that jobs of
// queue q may take: those of the queues q can preempt, as the cycle
// leaves them; none when the cycle does not let q preempt.
func (c *cycle) usable(q *Queue, h *Host) int {
	if !c.preemptive(q) {
		return 0
	}
	n := 0
	for vq, s := range h.preempted {
		if q.CanPreempt(vq) {
			n += s
		}
	}
	for vq := range q.preempts {
		n += c.preemptDelta[hostQueue{h, vq}]
	}
	return n
}

// preemptBonus returns the slots of running jobs on a host that a job of
// queue q could preempt, less those already taken this cycle.
func (c *cycle) preemptBonus(q *Queue, h *Host) int {
	if q.preempts == nil {
		return 0
	}
	b := c.bonus[q]
	if b == nil {
		b = make([]int, len(c.cluster.Hosts))
		for _, host := range c.cluster.Hosts {
			b[host.Index] = c.victimSlots(q, host)
		}
		if c.bonus == nil {
			c.bonus = map[*Queue][]int{}
		}
		c.bonus[q] = b
	}
	return b[h.Index]
}

// victimSlots counts the slots on a host of the jobs a job of queue q may
// preempt.
func (c *cycle) victimSlots(q *Queue, h *Host) int {
	n := 0
	for _, j := range h.jobs {
		if !c.victims[j] && c.cluster.preemptable(j, q) && (j.GPU == nil || gpuReleases(j)) {
			n += j.SlotsOn(h)
		}
	}
	return n
}

// SlotsOn returns the slots a job holds on a host.
func (j *Job) SlotsOn(h *Host) int {
	for _, a := range j.Allocs {
		if a.Host == h {
			return a.Slots
		}
	}
	return 0
}

// preemptor is the built-in Preemptor: the job of the class the cycle is
// placing takes the slots of jobs its queue may preempt.
type preemptor struct{}

func (preemptor) Name() string { return "preemption" }
func (preemptor) Preempt(st CycleState, k ClassInfo, j JobInfo) []Alloc {
	c := st.c
	if r := c.current; r != nil && r.k == k.k {
		return c.preempt(r, j.j)
	}
	return nil
}

// preemptive reports whether the cycle lets jobs of queue q preempt: the
// queue may preempt some queue, and the scheduler has a preemptor.
func (c *cycle) preemptive(q *Queue) bool {
	return q.preempts != nil && len(c.s.Plugins.Preemptors) > 0
}

// preempt tries to place a job of a preemptive queue by taking the slots
// of jobs it may preempt: it places the job as if their slots were free,
// then picks, on each host it uses, as few victims as cover what the host
// lacks. It returns the allocation, or nil when even preemption cannot
// make room.
func (c *cycle) preempt(r *classRun, j *Job) []Alloc {
	if j.Queue.preempts == nil || (r.preemptFail > 0 && j.Slots >= r.preemptFail) {
		return nil
	}
	c.probe = true
	allocs, _ := c.allocate(r, j)
	c.probe = false
	if allocs == nil {
		// Victims only become fewer as the cycle goes on: no job of the
		// class asking for as many slots can preempt now.
		if r.preemptFail == 0 || j.Slots < r.preemptFail {
			r.preemptFail = j.Slots
		}
		return nil
	}
	// Choose every victim before taking any: a victim on several hosts
	// frees slots on each, so later hosts may need fewer.
	chosen := map[*Job]bool{}
	var order []*Job
	extra := map[*Host]int{}
	for _, a := range allocs {
		var victims []*Job
		if j.GPU != nil {
			// The GPUs first: the jobs preempted for them free their
			// slots too.
			var ok bool
			if victims, ok = c.pickGPUVictims(j, a.Host, a.Slots, chosen); !ok {
				return nil
			}
			for _, v := range victims {
				chosen[v] = true
				for _, va := range v.Allocs {
					extra[va.Host] += va.Slots
				}
			}
		}
		if lack := a.Slots - max(0, c.mxjRoom(j.Queue, a.Host)) - extra[a.Host]; lack > 0 {
			more := c.pickVictims(j, a.Host, lack, chosen)
			if more == nil {
				return nil
			}
			victims = append(victims, more...)
		}
		for _, v := range victims {
			order = append(order, v)
			if chosen[v] {
				continue
			}
			chosen[v] = true
			for _, va := range v.Allocs {
				extra[va.Host] += va.Slots
			}
		}
	}
	if len(order) == 0 {
		return nil
	}
	for _, v := range order {
		c.takeVictim(v, j)
	}
	return allocs
}

// mxjRoom returns the slots a host can still give a job of queue q under
// its MXJ, without preempting more: -1 means unlimited.
func (c *cycle) mxjRoom(q *Queue, h *Host) int {
	if h.MaxSlots < 0 {
		return math.MaxInt32
	}
	return h.MaxSlots - h.Used - c.hostUsed[h.Index] + c.freed[h.Index] + c.usable(q, h)
}

// pickVictims chooses the jobs on a host whose slots, lack of them, a
// preemptive job takes: the queue it prefers (+N) first, then the lowest
// priority queue; with MINI_JOB the largest jobs first, so that as few
// as possible are preempted; with LEAST_RUN_TIME the job that ran the
// shortest time; then the job last in its queue's order (lowest user
// priority, latest submitted). With OPTIMAL_MINI_JOB a single job that
// frees enough is preferred. It returns nil when the host's candidates do
// not cover lack.
func (c *cycle) pickVictims(j *Job, h *Host, lack int, chosen map[*Job]bool) []*Job {
	var cands []*Job
	for _, v := range h.jobs {
		if !c.victims[v] && !chosen[v] && c.mayPreempt(j, v) {
			cands = append(cands, v)
		}
	}
	c.sortVictims(j, h, cands)
	if c.cluster.PreemptFor.OptimalMiniJob {
		// One victim that frees just enough, when there is one.
		best := -1
		for i, v := range cands {
			if s := v.SlotsOn(h); s >= lack && (best < 0 || s < cands[best].SlotsOn(h)) {
				best = i
			}
		}
		if best >= 0 {
			return []*Job{cands[best]}
		}
	}
	var out []*Job
	for _, v := range cands {
		if lack <= 0 {
			break
		}
		out = append(out, v)
		lack -= v.SlotsOn(h)
	}
	if lack > 0 {
		return nil
	}
	return out
}

// sortVictims orders the candidates for preemption on a host as
// pickVictims takes them: the queue the preemptive job prefers (+N)
// first, then the lowest priority queue; with MINI_JOB the largest jobs
// first; with LEAST_RUN_TIME the job that ran the shortest time; then
// the job last in its queue's order.
func (c *cycle) sortVictims(j *Job, h *Host, cands []*Job) {
	pf := c.cluster.PreemptFor
	slices.SortFunc(cands, func(a, b *Job) int {
		if d := cmp.Compare(j.Queue.preempts[b.Queue], j.Queue.preempts[a.Queue]); d != 0 {
			return d
		}
		if d := cmp.Compare(a.Queue.Priority, b.Queue.Priority); d != 0 {
			return d
		}
		if pf.MiniJob {
			if d := cmp.Compare(b.SlotsOn(h), a.SlotsOn(h)); d != 0 {
				return d
			}
		}
		if pf.LeastRunTime {
			if d := cmp.Compare(a.ranBy(c.now), b.ranBy(c.now)); d != 0 {
				return d
			}
		}
		// The job last in its queue's order goes first.
		return before(b, a)
	})
}

// mayPreempt reports whether job j may preempt the started job v: v's
// queue lets it, and, for a GPU job, j asks for GPUs and v gives its
// GPUs up (gpuReleases). As LSF documents, a job that asks for no GPU
// never preempts a GPU job.
func (c *cycle) mayPreempt(j, v *Job) bool {
	return c.cluster.preemptable(v, j.Queue) && (v.GPU == nil || j.GPU != nil && gpuReleases(v))
}

// pickGPUVictims chooses, on a host where a GPU job takes slots slots,
// the GPU jobs to preempt for the GPUs it lacks there, in the order
// pickVictims takes them; none when the host's GPUs, less those of the
// victims already chosen, are enough. ok is false when even preempting
// every candidate leaves too few.
func (c *cycle) pickGPUVictims(j *Job, h *Host, slots int, chosen map[*Job]bool) (out []*Job, ok bool) {
	taken := c.gpuTaken(h, j.Queue, j)
	gone := func(v *Job) bool { return c.victims[v] || chosen[v] || slices.Contains(out, v) }
	if gpuRoom(h, taken, j.GPU, gone) >= slots {
		return nil, true
	}
	var cands []*Job
	for _, v := range h.jobs {
		if len(v.GPUsOn(h.Name)) > 0 && !gone(v) && c.mayPreempt(j, v) {
			cands = append(cands, v)
		}
	}
	c.sortVictims(j, h, cands)
	for _, v := range cands {
		out = append(out, v)
		if gpuRoom(h, taken, j.GPU, gone) >= slots {
			return out, true
		}
	}
	return nil, false
}

// ranBy returns how long a job has run by now, suspensions excluded.
func (j *Job) ranBy(now Time) float64 {
	if j.State == Run {
		return j.Ran + float64(now-j.RunSince)
	}
	return j.Ran
}

// takeVictim records in the cycle that a job is preempted by by: its
// slots become usable by the queues that may preempt it (or free, when
// its queue kills preempted jobs).
func (c *cycle) takeVictim(v, by *Job) {
	if c.victims == nil {
		c.victims = map[*Job]bool{}
	}
	c.victims[v] = true
	kill := v.Queue.killOnPreempt
	c.plan.Preemptions = append(c.plan.Preemptions, Preemption{Victim: v, By: by, Kill: kill})
	c.victimResizing(v)
	for _, a := range v.Allocs {
		if kill {
			c.freed[a.Host.Index] += a.Slots
		} else {
			addTo(&c.preemptDelta, hostQueue{a.Host, v.Queue}, a.Slots)
		}
		for q, b := range c.bonus {
			b[a.Host.Index] = c.victimSlots(q, a.Host)
		}
		// Classes that may use the host see its new room.
		c.refreshRoom(a.Host)
	}
}

// resumeUpTo resumes, in order, the preempted jobs of queues of priority
// at least prio whose slots are free again: before any pending job of
// their queue or a lower one is dispatched, so that a preempted job
// resumes as soon as slots free, whether or not its preemptor ended.
func (c *cycle) resumeUpTo(prio int) {
	for c.resumeNext < len(c.resumable) {
		j := c.resumable[c.resumeNext]
		if j.Queue.Priority < prio {
			return
		}
		c.resumeNext++
		if c.canResume(j) {
			c.plan.Resumes = append(c.plan.Resumes, j)
			for _, a := range j.Allocs {
				addTo(&c.preemptDelta, hostQueue{a.Host, j.Queue}, -a.Slots)
				c.refreshRoom(a.Host)
			}
		}
	}
}

// canResume reports whether every host of a preempted job has its slots
// free: the jobs running there, with what the cycle dispatched, leave
// room under MXJ (and, when preempted jobs leave JL/U, under JL/U). Jobs
// of a queue whose run window is closed stay suspended.
func (c *cycle) canResume(j *Job) bool {
	if !windowOpen(j.Queue.RunWindow, c.now) {
		return false
	}
	for _, a := range j.Allocs {
		h := a.Host
		if h.MaxSlots < 0 {
			continue
		}
		suspended := h.preemptedSlots()
		for q := range h.preempted {
			suspended += c.preemptDelta[hostQueue{h, q}]
		}
		running := h.Used - suspended + c.hostUsed[h.Index] - c.freed[h.Index]
		if running+a.Slots > h.MaxSlots {
			return false
		}
		if c.cluster.PreemptFor.HostJLU && h.JLU > 0 {
			// The job left JL/U while suspended; it may come back only
			// within it.
			mine := h.UserSlots(j.User) - h.preemptedUser[j.User] + c.hostUser[hostUser{h, j.User}]
			if mine+a.Slots > h.JLU {
				return false
			}
		}
	}
	return true
}

// resumableJobs returns the jobs suspended by preemption, in the order
// they resume: queue priority, then the order they were dispatched in.
func (c *Cluster) resumableJobs() []*Job {
	var out []*Job
	for _, h := range c.Hosts {
		if len(h.preempted) == 0 {
			continue
		}
		for _, j := range h.jobs {
			if j.preempted && j.Allocs[0].Host == h {
				out = append(out, j)
			}
		}
	}
	slices.SortFunc(out, func(a, b *Job) int {
		return cmp.Or(cmp.Compare(b.Queue.Priority, a.Queue.Priority), before(a, b))
	})
	return out
}

// A Preemption is one job preempted for another: suspended, or killed
// when its queue has TERMINATE_WHEN=PREEMPT.
type Preemption struct {
	Victim, By *Job
	Kill       bool
	// Revoke is set when the victim's resize request had slots granted
	// whose notification runs: the preemption cancels them. HoldSignal
	// is set when its notification command runs: the suspend signal is
	// not sent until the command ends.
	Revoke, HoldSignal bool
}
