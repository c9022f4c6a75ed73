package runtime

import (
	"container/heap"
	"math"
	"slices"
)

// A Scheduler runs scheduling cycles. It keeps, between cycles, what only
// changes when hosts change: host classes, the outcome of the host
// filters and select per job class, and host rankings. Its Cycle is a
// function of the snapshot alone: the caches are derived from it and
// never change an answer.
type Scheduler struct {
	Plugins Plugins

	// cluster, gen and loadGen name the hosts the caches were built for.
	cluster      *Cluster
	gen, loadGen uint64
	classes      hostClasses
	cands        map[*jobClass]*candidates
	// candsByKey holds the same candidates by class key, for a class
	// made again (see candidatesFor).
	candsByKey map[string]*candidates
	// candsKept is the size of cands after it was last pruned.
	candsKept int
	scratch   *cycle
	// rsvScratch is the buffers of the cycles' reservations.
	rsvScratch *reserveState
	// growing holds the job class each resizable job grows in.
	growing map[*Job]*jobClass
}

// NewScheduler returns a scheduler with the given plugins.
func NewScheduler(p Plugins) *Scheduler {
	return &Scheduler{Plugins: p, cands: map[*jobClass]*candidates{}, candsByKey: map[string]*candidates{}}
}

// cycle is the scratch state of one scheduling cycle: what the plan has
// taken so far, on top of what the cluster holds.
type cycle struct {
	s       *Scheduler
	snap    Snapshot
	cluster *Cluster
	now     Time
	plan    *Plan

	hostUsed     []int
	dispatchedTo []bool
	// arrayRunning counts, by job array with a running limit, the
	// elements that run, those the cycle dispatched included.
	arrayRunning map[*Array]int
	hostQueue    map[hostQueue]int
	hostUser     map[hostUser]int
	queueUsed    map[*Queue]int
	queueUser    map[queueUser]int
	userUsed     map[string]int
	groupUsed    map[string]int
	jgroupUsed   map[*JobGroup]int
	limitUse     map[limitKey]*limitUse
	reserved     map[hostSlot]float64
	values       map[int]*hostValues

	runs []*classRun
	// spareRuns are runs of earlier cycles for newRun to reuse; heap is
	// the cycle's heap of runs.
	spareRuns []*classRun
	heap      runHeap
	runsHost  [][]*classRun // by host index: the runs whose candidates hold the host

	// Preemption: probe is set while a job is placed as if the jobs it
	// may preempt were gone; bonus holds, per preemptive queue and host,
	// the slots of the jobs it may preempt; victims the jobs preempted
	// this cycle; preemptDelta the change in preempted slots by host and
	// queue; freed the slots of killed victims; resumable the preempted
	// jobs in resume order, resumeNext the next to look at.
	probe        bool
	bonus        map[*Queue][]int
	victims      map[*Job]bool
	preemptDelta map[hostQueue]int
	freed        []int
	resumable    []*Job
	resumeNext   int
	// current is the class run whose job the preemptors are asked to
	// place.
	current *classRun
	// pools holds each slot pool's targets for this cycle.
	pools map[*slotPool]*poolTargets
	// fairExtra holds the slots the cycle dispatched per share account.
	fairExtra map[*account]int
	// exclusiveOn marks, by host index, the hosts the cycle gave an
	// exclusive job.
	exclusiveOn []bool
	// slaRoom holds, by service class, the jobs it may still start this
	// cycle (-1: no limit); slaEval is scratch for its goals.
	slaRoom []int
	slaEval []goalEval
	// rsv holds the reservations the cycle made; nil until one is.
	rsv *reserveState
	// gpuPlanned holds, by host index, the GPUs the cycle gave jobs.
	gpuPlanned map[int][]gpuPlan
	// adv is the cycle's view of the advance reservations; nil when
	// there are none.
	adv *advCycle
	// growers are the started jobs whose resize requests the cycle
	// serves, in order; growNext the next to serve.
	growers  []*Job
	growNext int
}

type hostQueue struct {
	h *Host
	q *Queue
}

type hostUser struct {
	h    *Host
	user string
}

type queueUser struct {
	q    *Queue
	user string
}

type limitKey struct {
	r   *limitRule
	key string
}

type hostSlot struct {
	host, slot int
}

// newCycle returns the scratch state for a cycle, reusing the
// scheduler's buffers: one cycle runs at a time, and most cycles of a
// simulation touch little, so they should allocate little.
func (s *Scheduler) newCycle(snap Snapshot) *cycle {
	n := len(snap.Cluster.Hosts)
	c := s.scratch
	if c == nil || len(c.hostUsed) != n {
		c = &cycle{hostUsed: make([]int, n), dispatchedTo: make([]bool, n), runsHost: make([][]*classRun, n),
			freed: make([]int, n), exclusiveOn: make([]bool, n)}
		s.scratch = c
	} else {
		clear(c.hostUsed)
		clear(c.dispatchedTo)
		clear(c.freed)
		clear(c.exclusiveOn)
		for i := range c.runsHost {
			c.runsHost[i] = c.runsHost[i][:0]
		}
	}
	c.s, c.snap, c.cluster, c.now = s, snap, snap.Cluster, snap.Now
	c.plan = &Plan{Now: snap.Now, Wake: Never}
	if snap.Explain {
		c.plan.hostReasons = map[*Job][]HostReason{}
	}
	// The counts of what the cycle dispatches start empty; their maps are
	// the last cycle's, cleared, not made anew: a simulation runs a cycle
	// for every few jobs.
	clear(c.hostQueue)
	clear(c.hostUser)
	clear(c.queueUsed)
	clear(c.queueUser)
	clear(c.userUsed)
	clear(c.groupUsed)
	clear(c.jgroupUsed)
	clear(c.reserved)
	c.limitUse, c.values, c.gpuPlanned = nil, nil, nil
	// The runs of the last cycle are taken again.
	c.spareRuns = append(c.spareRuns, c.runs...)
	clear(c.runs)
	c.runs = c.runs[:0]
	c.probe, c.bonus, c.victims, c.preemptDelta = false, nil, nil, nil
	c.resumable, c.resumeNext = nil, 0
	c.pools, c.fairExtra = nil, nil
	c.slaRoom = c.slaRoom[:0]
	clear(c.arrayRunning)
	c.rsv = nil
	return c
}

// arrayRun returns the elements of an array that run, counting those the
// cycle dispatched: counted on the first look of the cycle, then kept.
func (c *cycle) arrayRun(a *Array) int {
	n, ok := c.arrayRunning[a]
	if !ok {
		if c.arrayRunning == nil {
			c.arrayRunning = map[*Array]int{}
		}
		n = a.started()
		c.arrayRunning[a] = n
	}
	return n
}

// addTo adds n to m[k], making the map on first use.
func addTo[K comparable, V int | float64](m *map[K]V, k K, n V) {
	if *m == nil {
		*m = map[K]V{}
	}
	(*m)[k] += n
}

// setReason records why a job the cycle looked at was not dispatched.
func (c *cycle) setReason(j *Job, r Reason) {
	if c.plan.reasons == nil {
		c.plan.reasons = map[*Job]Reason{}
	}
	c.plan.reasons[j] = r
}

// setClassReason records why the jobs of a class the cycle did not look
// at wait.
func (c *cycle) setClassReason(k *jobClass, r Reason) {
	if c.plan.classReason == nil {
		c.plan.classReason = map[*jobClass]Reason{}
	}
	c.plan.classReason[k] = r
}

// wakeAt lowers the plan's wake time to t.
func (c *cycle) wakeAt(t Time) {
	if t > c.now && t < c.plan.Wake {
		c.plan.Wake = t
	}
}

// limitPlanned returns what the plan takes of a limit's consumer.
func (c *cycle) limitPlanned(r *limitRule, key string) *limitUse {
	return c.limitUse[limitKey{r, key}]
}

// A classRun is one job class as a cycle works through it.
type classRun struct {
	k    *jobClass
	cand *candidates
	// pos is the first position of the class not yet looked at; next the
	// position of the job to try next (-1 when none fits).
	pos, next int
	// capacity bounds the slots the class's hosts can still give; room
	// holds each candidate host's share of it. For a preemptive queue
	// they count the slots of jobs it may preempt, and freeCapacity and
	// free the slots free as things stand; otherwise free is room.
	capacity     int
	room         []int
	freeCapacity int
	free         []int
	done         bool
	reason       Reason
	index        int // in the heap
	// preemptFail is the fewest slots a job of the class asked for and
	// could not get even by preemption this cycle; 0 when none failed.
	preemptFail int
	// fair is the share account the class's jobs are charged to, in a
	// fairshare queue.
	fair *account
	// freeBuf keeps free's array, when it is not room's, for the next
	// cycle's run of a class.
	freeBuf []int
}

// newRun returns the run of a class in this cycle, reusing a run of an
// earlier cycle and its arrays: the values every field starts with are
// set here.
func (c *cycle) newRun(k *jobClass, cd *candidates) *classRun {
	var r *classRun
	if len(c.spareRuns) > 0 {
		r = c.spareRuns[len(c.spareRuns)-1]
		c.spareRuns = c.spareRuns[:len(c.spareRuns)-1]
		*r = classRun{room: r.room[:0], freeBuf: r.freeBuf[:0]}
	} else {
		r = &classRun{}
	}
	r.k, r.cand, r.next, r.fair = k, cd, -1, c.accountOf(k)
	return r
}

// Cycle runs one scheduling cycle over a snapshot and returns its plan.
// Jobs are taken in the order of the scheduler's orderers (LSF's: queue
// priority, queues of equal priority together, user priority, submission
// order, as service classes, APS, slot pools and fairshare move them),
// and each is dispatched if some hosts can take it, by preemption when
// its free slots cannot; a job no host can take is passed over, and
// later jobs may use hosts it could not.
func (s *Scheduler) Cycle(snap Snapshot) *Plan {
	cl := snap.Cluster
	c := s.newCycle(snap)
	s.refresh(c)
	s.prune(cl)
	c.plan.Stats.HostClasses = s.classes.live
	if cl.preemptedJobs > 0 {
		c.resumable = cl.resumableJobs()
	}
	c.loadControl()
	c.detectExceptions()
	c.planPools()
	c.planSLAs()
	c.orderAPS()
	c.planAdvRsv()
	c.planResizes()
	h := &c.heap
	*h = runHeap{c: c, runs: h.runs[:0], moved: h.moved[:0]}
	for _, k := range cl.classList {
		if k.live == 0 {
			continue
		}
		if reason := c.rsvInactive(k); reason != ReasonNone {
			c.setClassReason(k, reason)
			continue
		}
		c.plan.Stats.JobClasses++
		r := c.newRun(k, s.candidatesFor(c, k))
		c.runs = append(c.runs, r)
		if len(r.cand.hosts) == 0 {
			r.done, r.reason = true, r.cand.summary
			c.setClassReason(k, r.cand.summary)
			continue
		}
		n := len(r.cand.hosts)
		r.room = slices.Grow(r.room[:0], n)[:n]
		r.free = r.room
		if c.preemptive(k.queue) {
			r.free = slices.Grow(r.freeBuf[:0], n)[:n]
			r.freeBuf = r.free
		}
		for i, host := range r.cand.hosts {
			r.free[i], r.room[i] = c.classRoom(r, host)
			r.capacity += r.room[i]
			r.freeCapacity += r.free[i]
			c.runsHost[host.Index] = append(c.runsHost[host.Index], r)
		}
		if c.advance(r) {
			heap.Push(h, r)
		}
	}
	for h.Len() > 0 {
		r := h.runs[0]
		// Jobs preempted from queues of this priority or higher resume
		// before this class dispatches, when their slots are free.
		c.resumeUpTo(r.k.queue.schedPriority())
		c.growUpTo(r.k.queue.schedPriority())
		// The class's capacity may have dropped since it was queued, so
		// that its next job is a later one: its place in the heap only
		// moves down, and another class may come first now.
		old := r.next
		if !c.advance(r) {
			heap.Pop(h)
			continue
		}
		if r.next != old {
			heap.Fix(h, 0)
			continue
		}
		if cap := cl.MaxDispatch; cap > 0 && len(c.plan.Dispatches) >= cap {
			for _, r := range h.runs {
				c.setClassReason(r.k, ReasonDispatchCap)
			}
			// The next session takes the rest.
			c.wakeAt(c.now.Add(cl.SessionInterval))
			break
		}
		j := r.k.jobs[r.next]
		r.pos = r.next + 1
		c.plan.Stats.Considered++
		if reason := c.tryJob(r, j); reason != ReasonNone {
			c.setReason(j, reason)
			if q := j.Queue; reason == ReasonQueueLimit && q.Used+c.queueUsed[q] >= q.QJobLimit {
				// The queue has no slot left: none of its jobs can go.
				c.closeQueue(q)
				continue
			}
		}
		if c.advance(r) {
			heap.Fix(h, r.index)
		} else {
			heap.Pop(h)
		}
		if n := len(c.plan.Dispatches); n > 0 && c.plan.Dispatches[n-1].Job == j {
			if a := r.fair; a != nil && a.fair.deep && r.k.queue.aps == nil {
				// The priorities of the account and of the groups above
				// it dropped, which moves classes under any of them:
				// the heap is ordered anew.
				heap.Init(h)
			} else if a != nil {
				// The user's priority dropped (in an APS queue, the FS
				// factor is the account's own): their classes move down.
				h.fixWhere(func(o *classRun) bool { return o.fair == a })
			}
			if p := r.k.queue.pool; p != nil {
				// The queue holds more of its share: its pool's classes
				// are ordered anew.
				h.fixWhere(func(o *classRun) bool { return o.k.queue.pool == p })
			}
		}
	}
	c.resumeUpTo(math.MinInt)
	c.growUpTo(math.MinInt)
	c.planForwards()
	return c.plan
}

// advance finds the class's next job that asks for no more slots than the
// class's hosts can give; it reports false, and sets the class's reason,
// when there is none.
func (c *cycle) advance(r *classRun) bool {
	if r.done {
		return false
	}
	r.next = r.k.tree.first(r.pos, float64(r.capacity))
	if p := c.reserveNext(r); p >= 0 && (r.next < 0 || p < r.next) {
		// A job that reserves is looked at even when it cannot start.
		r.next = p
	}
	if r.next < 0 {
		r.done = true
		if _, set := c.plan.classReason[r.k]; !set {
			c.setClassReason(r.k, c.gpuReason(r))
		}
		return false
	}
	return true
}

// closeQueue ends every class of a queue that reached its slot limit.
func (c *cycle) closeQueue(q *Queue) {
	for _, r := range c.runs {
		if r.k.queue == q && !r.done {
			r.done = true
			c.setClassReason(r.k, ReasonQueueLimit)
		}
	}
}

// tryJob dispatches one job if it can, and returns why not otherwise.
func (c *cycle) tryJob(r *classRun, j *Job) Reason {
	for _, f := range c.s.Plugins.JobFilters {
		if reason := f.Check(CycleState{c}, JobInfo{j}); reason != ReasonNone {
			return reason
		}
	}
	var allocs []Alloc
	reason := ReasonSlots
	if j.Slots <= r.freeCapacity && !c.backfillHopeless(r, j) {
		allocs, reason = c.allocate(r, j)
	}
	if allocs == nil && c.preemptive(j.Queue) {
		c.current = r
		for _, p := range c.s.Plugins.Preemptors {
			if allocs = p.Preempt(CycleState{c}, ClassInfo{r.k}, JobInfo{j}); allocs != nil {
				break
			}
		}
		c.current = nil
	}
	if allocs == nil {
		if c.snap.Explain {
			c.explain(r, j)
		}
		c.backfillFailed(r, j)
		if reserves(j) && (c.rsv == nil || !c.rsv.full[r]) {
			c.reserveFor(r, j)
		}
		return reason
	}
	if j.Sub.MaxSlots > j.Slots && !c.probe {
		allocs = c.extendDispatch(r, j, allocs)
	} else {
		c.take(j, allocs)
	}
	if j.array != nil && j.array.Limit > 0 {
		c.arrayRun(j.array)
		c.arrayRunning[j.array]++
	}
	c.slaTook(j)
	c.wakeForExceptions(j)
	c.plan.Dispatches = append(c.plan.Dispatches, Dispatch{Job: j, Allocs: allocs})
	c.plan.Stats.Dispatched++
	return ReasonNone
}

// take records in the cycle what a dispatched job holds, and updates the
// capacity of every class that can use its hosts.
func (c *cycle) take(j *Job, allocs []Alloc) {
	c.takeGPUs(j, allocs)
	c.advTook(j, allocs)
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
		for _, am := range j.Req.amounts() {
			if slot, ok := c.slotOf(am.Name); ok {
				addTo(&c.reserved, hostSlot{c.cluster.reserveIndex(h, am.Name), slot}, am.Value*c.cluster.perHost(am.Per, a.Slots, j.Slots))
			}
		}
	}
	addTo(&c.queueUsed, j.Queue, n)
	addTo(&c.queueUser, queueUser{j.Queue, j.User}, n)
	addTo(&c.userUsed, j.User, n)
	for _, g := range c.cluster.groupsOf(j.User) {
		addTo(&c.groupUsed, g.name, n)
	}
	for g := j.jgroup; g != nil; g = g.parent {
		addTo(&c.jgroupUsed, g, 1)
	}
	for _, l := range c.cluster.limits {
		c.planLimit(l, j, allocs)
	}
	c.chargeFair(j, n)
	for _, a := range allocs {
		c.refreshRoom(a.Host)
	}
}

// refreshRoom updates the room a host gives every class that can use it,
// after the cycle changed what the host holds.
func (c *cycle) refreshRoom(h *Host) {
	for _, r := range c.runsHost[h.Index] {
		if r.done {
			continue
		}
		i := r.cand.pos[h.Index]
		free, room := c.classRoom(r, h)
		r.capacity += room - r.room[i]
		r.freeCapacity += free - r.free[i]
		r.free[i], r.room[i] = free, room
	}
}

// planLimit adds a dispatched job's use to the cycle's view of a limit.
func (c *cycle) planLimit(l *limitRule, j *Job, allocs []Alloc) {
	add := func(key string, slots, jobs, mem float64) {
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
		u.jobs += jobs
		u.mem += mem
	}
	if !l.hostBound() {
		if l.applies(j, nil) {
			add(l.key(j, nil), float64(j.Slots), 1, l.jobMem(j))
		}
		return
	}
	for i, a := range allocs {
		if l.applies(j, a.Host) {
			jobs := 0.0
			if i == 0 {
				jobs = 1
			}
			add(l.key(j, a.Host), float64(a.Slots), jobs, 0)
		}
	}
}

// classRoom returns the slots a host can still give the class's jobs, by
// the limiters that do not depend on the job: free, as it stands, and
// room, counting for a preemptive queue the slots of the jobs it may
// preempt.
func (c *cycle) classRoom(r *classRun, h *Host) (free, room int) {
	free = c.limitersRoom(r, h)
	if !c.preemptive(r.k.queue) {
		return free, free
	}
	c.probe = true
	room = c.limitersRoom(r, h)
	c.probe = false
	return free, room
}

// limitersRoom returns the least room of the host limiters for any job of
// a class.
func (c *cycle) limitersRoom(r *classRun, h *Host) int {
	room := math.MaxInt32
	for _, l := range c.s.Plugins.HostLimiters {
		n, _ := l.Room(CycleState{c}, ClassInfo{r.k}, JobInfo{}, HostInfo{h})
		if room = min(room, n); room <= 0 {
			return 0 // the other limiters cannot give more
		}
	}
	return room
}

// jobRoom returns the slots a host can still give one job, and the
// limiter that bounds it.
func (c *cycle) jobRoom(r *classRun, j *Job, h *Host) (int, Reason) {
	room, why := math.MaxInt32, ReasonNone
	for _, l := range c.s.Plugins.HostLimiters {
		if n, reason := l.Room(CycleState{c}, ClassInfo{r.k}, JobInfo{j}, HostInfo{h}); n < room {
			room, why = n, reason
		}
	}
	return max(0, room), why
}

// jobRoomWithout is jobRoom without the host limiter of the name given.
func (c *cycle) jobRoomWithout(r *classRun, j *Job, h *Host, skip string) int {
	room := math.MaxInt32
	for _, l := range c.s.Plugins.HostLimiters {
		if l.Name() == skip {
			continue
		}
		if n, _ := l.Room(CycleState{c}, ClassInfo{r.k}, JobInfo{j}, HostInfo{h}); n < room {
			room = n
		}
	}
	return max(0, room)
}

// explain records, for a job the cycle could not dispatch, why each host
// rejected it.
func (c *cycle) explain(r *classRun, j *Job) {
	c.plan.hostReasons[j] = c.hostReasons(r, j, ReasonHostSlots)
}

// hostReasons returns each host's reason for not taking a job, in host
// order; fits is the reason of a host that could give it some slots.
func (c *cycle) hostReasons(r *classRun, j *Job, fits Reason) []HostReason {
	out := make([]HostReason, 0, len(c.cluster.Hosts))
	for _, h := range c.cluster.Hosts {
		reason := r.cand.reasons[h.Index]
		if reason == ReasonNone {
			if room, why := c.jobRoom(r, j, h); room <= 0 {
				reason = why
			} else if !c.rusageFits(j, h, min(room, j.Slots)) {
				reason = ReasonHostRusage
			} else {
				reason = fits
			}
		}
		out = append(out, HostReason{Host: h.Name, Reason: reason})
	}
	return out
}

// Explain tells why a pending job cannot start as the snapshot stands,
// for bjobs -p -l: the job-level reason with no host's when one applies,
// else ReasonNone and each host's reason, in host order, ReasonNone for a
// host that could give the job slots now. It changes nothing; a job that
// is not pending gets nothing.
func (s *Scheduler) Explain(snap Snapshot, j *Job) (Reason, []HostReason) {
	if !j.State.Pending() || j.class == nil {
		return ReasonNone, nil
	}
	c := s.newCycle(snap)
	s.refresh(c)
	c.planPools()
	c.planSLAs()
	c.planAdvRsv()
	c.seedReservations(j)
	for _, f := range s.Plugins.JobFilters {
		if r := f.Check(CycleState{c}, JobInfo{j}); r != ReasonNone {
			// Held back before any host is weighed (its dependency,
			// a limit): LSF names that reason alone.
			return r, nil
		}
	}
	r := &classRun{k: j.class, cand: s.candidatesFor(c, j.class)}
	return ReasonNone, c.hostReasons(r, j, ReasonNone)
}

// runHeap orders class runs by their next job, as the scheduler's
// orderers compare them (see Orderer).
type runHeap struct {
	c    *cycle
	runs []*classRun
	// moved is fixWhere's scratch.
	moved []*classRun
}

func (h *runHeap) Len() int { return len(h.runs) }
func (h *runHeap) Less(a, b int) bool {
	ra, rb := h.runs[a], h.runs[b]
	ja, jb := ra.k.jobs[ra.next], rb.k.jobs[rb.next]
	for _, o := range h.c.s.Plugins.Orderers {
		if d := o.Compare(CycleState{h.c}, JobInfo{ja}, JobInfo{jb}); d != 0 {
			return d < 0
		}
	}
	return before(ja, jb) < 0
}

func (h *runHeap) Push(x any) {
	r := x.(*classRun)
	r.index = len(h.runs)
	h.runs = append(h.runs, r)
}

func (h *runHeap) Pop() any {
	old := h.runs
	r := old[len(old)-1]
	h.runs = old[:len(old)-1]
	return r
}

func (h *runHeap) Swap(a, b int) {
	h.runs[a], h.runs[b] = h.runs[b], h.runs[a]
	h.runs[a].index, h.runs[b].index = a, b
}

// fixWhere moves the runs that match to their new places after what
// orders them changed (a share account's priority, a pool queue's
// holding).
func (h *runHeap) fixWhere(match func(*classRun) bool) {
	// Fixing one run moves others: the runs to fix are found first.
	h.moved = h.moved[:0]
	for _, r := range h.runs {
		if match(r) {
			h.moved = append(h.moved, r)
		}
	}
	for _, r := range h.moved {
		if r.index < len(h.runs) && h.runs[r.index] == r {
			heap.Fix(h, r.index)
		}
	}
}
