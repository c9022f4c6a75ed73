package runtime

import (
	"cmp"
	"math"
	"slices"

	"github.com/lsfc/lsfc/compile"
)

// Slot and resource reservation, and backfill.
//
// A job of a queue with SLOT_RESERVE (a parallel job) or RESOURCE_RESERVE
// (any job with rusage) that a cycle cannot start reserves, on the hosts
// it is predicted to run on, the slots (and rusage amounts) free there
// now; those slots are then not free for the jobs after it in the
// cycle's order. As running jobs end, the slots they leave are free on
// the next cycle and the job reserves them too: its reservation grows
// until it can start. After MAX_RESERVE_TIME × MBD_SLEEP_TIME the job
// gives up what it holds for one scheduling session, so that other jobs
// may use it, then reserves afresh.
//
// Reservations are derived: each cycle makes them anew from the
// snapshot, in the cycle's order, so that a restarted daemon, an agent
// cluster and a simulation all get the same reservations from the same
// jobs. Only the time a job's reservation began is kept from one cycle
// to the next (Job.rsvSince, which the engine sets from the plan); it is
// not logged, as LSF does not log it either: a daemon that restarts
// starts the clock of every reservation again.
//
// A reservation's predicted start is when enough of the running jobs on
// the candidate hosts will have ended, by their run limits or estimated
// run times (-We, the profile's RUNTIME), and enough of the rusage
// amounts they hold with a duration, decay or phases have come back as
// their reservations age (with decay, between two such times, to the
// second). The amounts the job reserves are those free now. A job of a
// BACKFILL queue may
// use reserved slots on a host when its own run limit (or estimate) ends
// before the earliest predicted start of the reservations there, so
// that it never delays them. A job of an INTERRUPTIBLE_BACKFILL queue
// may use them whatever its run limit, when the time left before the
// predicted start is at least the queue's value; the reserving queues
// preempt such jobs (suspend them, or kill them with
// TERMINATE_WHEN=PREEMPT) when they need the slots.

// queueReserve is a queue's reservation and backfill settings.
type queueReserve struct {
	// cycles is MAX_RESERVE_TIME of SLOT_RESERVE or RESOURCE_RESERVE: how
	// many MBD_SLEEP_TIME periods a job may hold a reservation; 0 when
	// the queue's jobs do not reserve. resources is RESOURCE_RESERVE:
	// rusage amounts are reserved too, and jobs of one slot reserve.
	cycles    int
	resources bool
	// backfill is BACKFILL=Y; interruptible INTERRUPTIBLE_BACKFILL in
	// seconds, 0 for none.
	backfill      bool
	interruptible float64
}

// readReserve reads a queue's SLOT_RESERVE, RESOURCE_RESERVE, BACKFILL
// and INTERRUPTIBLE_BACKFILL.
func readReserve(cq *compile.Queue) queueReserve {
	var r queueReserve
	set := cq.Settings
	if st := set["RESOURCE_RESERVE"]; st != nil {
		if x, ok := st.Value.(float64); ok {
			r.cycles, r.resources = int(x), true
		}
	} else if st := set["SLOT_RESERVE"]; st != nil {
		if x, ok := st.Value.(float64); ok {
			r.cycles = int(x)
		}
	}
	if st := set["BACKFILL"]; st != nil {
		r.backfill, _ = st.Value.(bool)
	}
	if st := set["INTERRUPTIBLE_BACKFILL"]; st != nil {
		if d, ok := st.Value.(compile.Duration); ok && !r.backfill {
			r.interruptible = float64(d)
		}
	}
	return r
}

// Reserves returns the queue's MAX_RESERVE_TIME (0 when its jobs do not
// reserve) and whether it reserves rusage amounts too (RESOURCE_RESERVE).
func (q *Queue) Reserves() (cycles int, resources bool) {
	return q.reserve.cycles, q.reserve.resources
}

// Backfills returns whether the queue is a backfill queue (BACKFILL=Y),
// and its INTERRUPTIBLE_BACKFILL in seconds (0 for none).
func (q *Queue) Backfills() (backfill bool, interruptible float64) {
	return q.reserve.backfill, q.reserve.interruptible
}

// readInterruptible lets every reserving queue preempt the
// interruptible backfill queues of lower priority, which is how their
// jobs leave the reserved slots they borrowed.
func (c *Cluster) readInterruptible() {
	for _, lo := range c.Queues {
		if lo.reserve.interruptible <= 0 {
			continue
		}
		for _, hi := range c.Queues {
			if hi == lo || hi.reserve.cycles == 0 || hi.Priority <= lo.Priority {
				continue
			}
			if hi.preempts == nil {
				hi.preempts = map[*Queue]int{}
			}
			if _, ok := hi.preempts[lo]; !ok {
				hi.preempts[lo] = 0
			}
			c.preemption = true
		}
	}
}

// A Reservation is what a pending job holds for itself: slots on hosts
// (and, with RESOURCE_RESERVE, rusage amounts), since when, and when it
// is predicted to start (Never when that cannot be told: a job it waits
// for has no run limit).
type Reservation struct {
	Job     *Job
	Allocs  []Alloc
	Amounts []ReservedAmount
	Start   Time
	Since   Time
}

// A ReservedAmount is an amount of a resource a pending job reserves on
// a host.
type ReservedAmount struct {
	Host  *Host
	Name  string
	Value float64
}

// Slots returns the slots a reservation holds.
func (r *Reservation) Slots() int {
	n := 0
	for _, a := range r.Allocs {
		n += a.Slots
	}
	return n
}

// runEstimate returns how long a job is expected to run: the shorter of
// its run limit and its estimated run time, 0 when it has neither.
func (j *Job) runEstimate() float64 {
	switch {
	case j.RunLimit > 0 && j.Estimate > 0:
		return min(j.RunLimit, j.Estimate)
	case j.RunLimit > 0:
		return j.RunLimit
	}
	return j.Estimate
}

// estimateOf returns a job's estimated run time: -We, else its
// application profile's RUNTIME.
func estimateOf(s Submission, app *App) float64 {
	if s.Estimate > 0 {
		return s.Estimate
	}
	if app != nil {
		return app.Estimate
	}
	return 0
}

// expectedEnd returns when a started job is expected to end: by its run
// limit or estimated run time, from when it last ran; Never when it has
// neither or is suspended. An end already past counts as now.
func (j *Job) expectedEnd(now Time) Time {
	l := j.runEstimate()
	if l <= 0 || j.State != Run {
		return Never
	}
	return max(now, j.RunSince.Add(l-j.Ran))
}

// reserveState is a cycle's reservations.
type reserveState struct {
	// slots holds, by host index, the slots reserved; start the earliest
	// predicted start of the reservations on the host.
	slots []int
	start []Time
	// amounts holds the rusage amounts reserved, by host and value slot;
	// gpus the GPUs reserved, by host index.
	amounts map[hostSlot]float64
	gpus    map[int][]gpuPlan
	// ends are the started jobs' expected ends, soonest first, made on
	// first use.
	ends []jobEnd
	// full marks the classes whose jobs found nothing left to reserve;
	// failed holds, per backfill class, the fewest slots and shortest
	// run limit a job of it asked for and could not get.
	full   map[*classRun]bool
	failed map[*classRun]backfillFail
}

type jobEnd struct {
	at Time
	j  *Job
}

type backfillFail struct {
	slots int
	limit float64
}

// reserves reports whether a job's queue lets it reserve.
func reserves(j *Job) bool {
	r := j.Queue.reserve
	return r.cycles > 0 && (r.resources || j.Slots > 1)
}

// reserveNext returns the position of the class's next job when it is
// one that reserves and is wider than the class's hosts can give now,
// so that the cycle looks at it (and it reserves) rather than passing
// it over; -1 otherwise.
func (c *cycle) reserveNext(r *classRun) int {
	// A class that asks for GPUs has no capacity while the GPUs are busy,
	// but may still reserve the slots and GPUs as they free.
	if r.k.queue.reserve.cycles == 0 || r.capacity <= 0 && r.k.gpu == nil || (c.rsv != nil && c.rsv.full[r]) {
		return -1
	}
	p := r.k.tree.first(r.pos, math.MaxFloat64)
	if p < 0 || !reserves(r.k.jobs[p]) {
		return -1
	}
	return p
}

// reserveState returns the cycle's reservations, made on first use.
func (c *cycle) reserveState() *reserveState {
	if c.rsv == nil {
		n := len(c.cluster.Hosts)
		rs := c.s.rsvScratch
		if rs == nil || len(rs.slots) != n {
			rs = &reserveState{slots: make([]int, n), start: make([]Time, n)}
			c.s.rsvScratch = rs
		} else {
			clear(rs.slots)
			rs.ends = rs.ends[:0]
		}
		for i := range rs.start {
			rs.start[i] = Never
		}
		clear(rs.amounts)
		clear(rs.gpus)
		rs.full, rs.failed = nil, nil
		c.rsv = rs
	}
	return c.rsv
}

// expectedEnds returns the started jobs' expected ends, soonest first.
func (c *cycle) expectedEnds() []jobEnd {
	rs := c.rsv
	if len(rs.ends) > 0 {
		return rs.ends
	}
	seen := map[*Job]bool{}
	for _, h := range c.cluster.Hosts {
		for _, j := range h.jobs {
			if !seen[j] {
				seen[j] = true
				at := j.expectedEnd(c.now)
				if j.Queue.reserve.interruptible > 0 {
					// An interruptible backfill job gives its slots up
					// as soon as a reserving job can start with them.
					at = c.now
				}
				rs.ends = append(rs.ends, jobEnd{at, j})
			}
		}
	}
	slices.SortFunc(rs.ends, func(a, b jobEnd) int {
		if d := cmp.Compare(a.at, b.at); d != 0 {
			return d
		}
		return cmp.Compare(a.j.ID, b.j.ID)
	})
	if len(rs.ends) == 0 {
		// Mark the list as made.
		rs.ends = append(rs.ends, jobEnd{Never, nil})
	}
	return rs.ends
}

// hostTrack is one candidate host as a reservation looks ahead: the
// slots the job may have there, the rusage amounts available, and, for
// a job that asks for GPUs, the host's GPUs.
type hostTrack struct {
	h     *Host
	now   int
	slots int
	avail []float64
	// availNow is what of the amounts is free now, which the job
	// reserves.
	availNow []float64
	gpu      *gpuTrack
	at       Time
}

// reserveFor makes a job that could not start reserve what it can, or,
// when its reservation ran out, gives it up for this session.
func (c *cycle) reserveFor(r *classRun, j *Job) {
	pol := j.Queue.reserve
	hold := float64(pol.cycles) * c.cluster.SleepTime
	if j.rsvSince > 0 && c.now >= j.rsvSince.Add(hold) {
		c.plan.Released = append(c.plan.Released, j)
		return
	}
	if !c.everFits(r, j) {
		// No reservation can ever make it start: it holds nothing back.
		return
	}
	since := j.rsvSince
	if since == 0 {
		since = c.now
	}
	c.wakeAt(since.Add(hold))
	rs := c.reserveState()
	var span compile.SpanReq
	if alts := j.Req.alts(); len(alts) == 1 && len(alts[0]) == 1 && alts[0][0].Simple != nil {
		span = alts[0][0].Simple.Span
	}
	amounts := j.Req.amounts()
	if !pol.resources {
		amounts = nil
	}
	// The hosts and what the job may have on each: those with room now,
	// best first, then those where running jobs end, as they do. total
	// is what they give together (the most one gives, for a job that
	// must run on one host).
	track := map[*Host]*hostTrack{}
	var order []*hostTrack
	total := 0
	open := func(h *Host, free int) *hostTrack {
		t := &hostTrack{h: h, now: free, slots: free, at: c.now}
		if len(amounts) > 0 {
			t.avail = make([]float64, len(amounts))
			v := c.valuesOf(h)
			for k, am := range amounts {
				if am.Slot < len(v.v.Avail) && !math.IsNaN(v.v.Avail[am.Slot]) {
					key := hostSlot{c.cluster.reserveIndex(h, am.Name), am.Slot}
					t.avail[k] = v.v.Avail[am.Slot] - c.reserved[key] - rs.amounts[key]
				} else {
					t.avail[k] = math.Inf(1)
				}
			}
			t.availNow = slices.Clone(t.avail)
		}
		if j.GPU != nil {
			t.gpu = c.newGPUTrack(h, j.Queue, j)
		}
		track[h] = t
		order = append(order, t)
		return t
	}
	gives := func(t *hostTrack) int {
		n := t.slots
		if t.gpu != nil {
			n = gpuSlots(j.GPU, t.gpu.free(t.h, j.GPU), n)
		}
		if span.Ptile > 0 {
			n -= n % span.Ptile
		}
		for n > 0 && !amountsFit(c.cluster, amounts, t.avail, n, j.Slots) {
			n--
		}
		return n
	}
	count := func(old, g int) {
		if span.Hosts == 1 {
			total = max(total, g)
		} else {
			total += g - old
		}
	}
	for i, h := range r.cand.hosts {
		if r.free[i] <= 0 && len(amounts) == 0 && j.GPU == nil || !gpuCapable(h, j.GPU) {
			continue
		}
		var free int
		if j.GPU != nil {
			// Slots free on a host whose GPUs are busy are reserved
			// too: the job waits there for the GPUs as for slots.
			free = c.jobRoomWithout(r, j, h, gpuLimiter{}.Name())
		} else {
			free, _ = c.jobRoom(r, j, h)
		}
		free = max(0, min(free, j.Slots))
		if free == 0 && len(amounts) == 0 && j.GPU == nil {
			continue
		}
		count(0, gives(open(h, free)))
	}
	// The rusage amounts running jobs hold with a duration or decay come
	// back as their reservations age, before those jobs end.
	holds, changes := c.timedHolds(r, amounts, track)
	setHolds := func(at Time) {
		changed := false
		for _, th := range holds {
			if th.ended {
				continue
			}
			v := th.at(at)
			if d := th.cur - v; d != 0 {
				t := track[th.h]
				t.avail[th.k] += d
				th.cur = v
				if d > 0 {
					t.at = max(t.at, at)
				}
				changed = true
			}
		}
		if changed {
			total = 0
			for _, t := range order {
				count(0, gives(t))
			}
		}
	}
	start := Never
	if total >= j.Slots {
		start = c.now
	} else {
		ends := c.expectedEnds()
		ei, ci, prev := 0, 0, c.now
		for {
			at := Never
			if ei < len(ends) && ends[ei].j != nil {
				at = ends[ei].at
			}
			if ci < len(changes) {
				at = min(at, changes[ci])
			}
			if at == Never {
				break
			}
			if len(holds) > 0 && at > prev {
				setHolds(at)
				if total >= j.Slots {
					// What came back by at is enough: with decay, it was
					// enough somewhat earlier.
					lo, hi := prev, at
					for hi-lo > 1 {
						mid := lo + (hi-lo)/2
						if setHolds(mid); total >= j.Slots {
							hi = mid
						} else {
							lo = mid
						}
					}
					setHolds(hi)
					start = hi
					break
				}
			}
			for ci < len(changes) && changes[ci] <= at {
				ci++
			}
			prev = at
			if ei >= len(ends) || ends[ei].j == nil || ends[ei].at != at {
				continue
			}
			// One job ends at a time, so that the hosts the job waits
			// for are those of the fewest ends.
			e := ends[ei]
			ei++
			for _, a := range e.j.Allocs {
				if r.cand.pos[a.Host.Index] < 0 || !gpuCapable(a.Host, j.GPU) {
					continue
				}
				t := track[a.Host]
				if t == nil {
					t = open(a.Host, 0)
				}
				old := gives(t)
				t.slots = min(j.Slots, t.slots+a.Slots)
				if t.gpu != nil {
					t.gpu.end(a.Host, e.j)
				}
				t.at = e.at
				for k, am := range amounts {
					for _, ha := range e.j.held {
						if ha.host == a.Host && ha.name == am.Name {
							t.avail[k] += heldBack(holds, e.j, a.Host, k, ha.v)
						}
					}
				}
				count(old, gives(t))
			}
			if total >= j.Slots {
				start = at
				break
			}
		}
	}
	// The hosts the job will run on: those free now first, then those
	// that free soonest; what is free on them now is reserved.
	slices.SortStableFunc(order, func(a, b *hostTrack) int { return cmp.Compare(a.at, b.at) })
	res := &Reservation{Job: j, Start: start}
	left := j.Slots
	for _, t := range order {
		if left <= 0 {
			break
		}
		g := gives(t)
		if g <= 0 && start == Never && t.gpu != nil {
			// The GPUs it waits for are held by jobs of no known end:
			// once they end, the host gives the job its slots.
			g = t.slots
			if span.Ptile > 0 {
				g -= g % span.Ptile
			}
		}
		if g <= 0 || span.Hosts == 1 && g < j.Slots {
			continue
		}
		n := min(t.now, left)
		var gpus []int
		if j.GPU != nil {
			// The GPUs free now that the job will use on the host.
			gpus = gpuPick(t.h, c.gpuTaken(t.h, j.Queue, j), j.GPU, gpusNeeded(j.GPU, min(g, left)), c.gpuGone(j.Queue, j.GPU))
		}
		left -= g
		if n <= 0 && len(amounts) == 0 && len(gpus) == 0 {
			continue
		}
		if n > 0 || len(gpus) > 0 {
			res.Allocs = append(res.Allocs, Alloc{Host: t.h, Slots: n, GPUs: gpus})
		}
		for k, am := range amounts {
			need := am.Value * c.cluster.perHost(am.Per, max(n, 1), j.Slots)
			take := min(need, t.availNow[k])
			if take > 0 && !math.IsInf(take, 0) {
				res.Amounts = append(res.Amounts, ReservedAmount{Host: t.h, Name: am.Name, Value: take})
			}
		}
		if span.Hosts == 1 {
			break
		}
	}
	if len(res.Allocs) == 0 && len(res.Amounts) == 0 {
		if rs.full == nil {
			rs.full = map[*classRun]bool{}
		}
		rs.full[r] = true
		if j.rsvSince > 0 {
			// It holds nothing, but its reservation goes on.
			c.plan.Reservations = append(c.plan.Reservations, res)
		}
		return
	}
	for _, am := range res.Amounts {
		if s, ok := c.slotOf(am.Name); ok {
			addTo(&rs.amounts, hostSlot{c.cluster.reserveIndex(am.Host, am.Name), s}, am.Value)
		}
	}
	for _, a := range res.Allocs {
		rs.slots[a.Host.Index] += a.Slots
		rs.start[a.Host.Index] = min(rs.start[a.Host.Index], start)
		rs.addGPUs(a.Host, a.GPUs, j)
	}
	for _, am := range res.Amounts {
		rs.start[am.Host.Index] = min(rs.start[am.Host.Index], start)
	}
	c.plan.Reservations = append(c.plan.Reservations, res)
	for _, a := range res.Allocs {
		if a.Slots > 0 || len(a.GPUs) > 0 {
			c.refreshRoom(a.Host)
		}
	}
	if start < Never {
		c.wakeAt(start)
	}
}

// addGPUs records the GPUs a job reserves on a host.
func (rs *reserveState) addGPUs(h *Host, gpus []int, j *Job) {
	if len(gpus) == 0 || j.GPU == nil {
		return
	}
	if rs.gpus == nil {
		rs.gpus = map[int][]gpuPlan{}
	}
	for _, x := range gpus {
		rs.gpus[h.Index] = append(rs.gpus[h.Index], gpuPlan{x, j.GPU})
	}
}

// A timedHold is an rusage amount a started job holds on a host with a
// duration, decay or phases, as a reservation's look-ahead ages it: k is
// the position of the resource among the pending job's amounts, base
// what the job holds now, cur what it holds as the look-ahead stands.
type timedHold struct {
	j        *Job
	h        *Host
	k        int
	rsv      reservation
	base     float64
	cur      float64
	ended    bool
	baseRate float64
}

// at returns what the job holds at a time, if it still runs then: what
// it holds now, scaled as its reservation ages.
func (th *timedHold) at(t Time) float64 {
	if th.baseRate <= 0 {
		return 0
	}
	return th.base * th.rsv.at(float64(t-th.j.Start)) / th.baseRate
}

// timedHolds returns the rusage amounts of the pending job's resources
// that the started jobs on the tracked hosts hold with a duration, decay
// or phases, and the times, in order, at which they next change (the
// ends of their durations and phases) before those jobs end.
func (c *cycle) timedHolds(r *classRun, amounts []reservation, track map[*Host]*hostTrack) ([]*timedHold, []Time) {
	if len(amounts) == 0 || len(c.cluster.timed) == 0 {
		return nil, nil
	}
	var holds []*timedHold
	var changes []Time
	for _, tj := range c.cluster.timed {
		if !tj.State.Started() {
			continue
		}
		end := tj.expectedEnd(c.now)
		elapsed := float64(c.now - tj.Start)
		for _, ha := range tj.held {
			if track[ha.host] == nil || r.cand.pos[ha.host.Index] < 0 {
				continue
			}
			for k, am := range amounts {
				if am.Name != ha.name {
					continue
				}
				for _, ra := range tj.Req.amounts() {
					if ra.Name != ha.name || !ra.timed() {
						continue
					}
					holds = append(holds, &timedHold{j: tj, h: ha.host, k: k, rsv: ra, base: ha.v, cur: ha.v, baseRate: ra.at(elapsed)})
					for e, n := elapsed, 0; n < 64; n++ {
						at, _ := ra.nextChange(e)
						if at < 0 || tj.Start.Add(at) >= end {
							break
						}
						changes = append(changes, tj.Start.Add(at))
						e = at
					}
					break
				}
			}
		}
	}
	slices.Sort(changes)
	return holds, slices.Compact(changes)
}

// heldBack returns what a job that ends gives back of an amount it held
// on a host: what the look-ahead left it of a timed hold, else all of v.
func heldBack(holds []*timedHold, j *Job, h *Host, k int, v float64) float64 {
	for _, th := range holds {
		if th.j == j && th.h == h && th.k == k && !th.ended {
			th.ended = true
			return th.cur
		}
	}
	return v
}

// amountsFit reports whether the rusage amounts of a job of total slots
// fit in avail for n of its slots on one host.
func amountsFit(cl *Cluster, amounts []reservation, avail []float64, n, total int) bool {
	for k, am := range amounts {
		if avail[k] < am.Value*cl.perHost(am.Per, n, total) {
			return false
		}
	}
	return true
}

// mayBorrow reports whether a job may use the slots and amounts reserved
// on a host: a backfill job that ends before the reservations there are
// predicted to start, or an interruptible backfill job with at least the
// queue's time slice before they do.
func (c *cycle) mayBorrow(j *Job, h *Host) bool {
	pol := j.Queue.reserve
	start := c.rsv.start[h.Index]
	switch {
	case pol.interruptible > 0:
		return float64(start-c.now) >= pol.interruptible
	case pol.backfill:
		l := j.runEstimate()
		return l > 0 && start < Never && c.now.Add(l) <= start
	}
	return false
}

// reservedAmount returns what reservations hold of a resource on a host,
// that a job may not use.
func (c *cycle) reservedAmount(j *Job, h *Host, key hostSlot) float64 {
	if c.rsv == nil || len(c.rsv.amounts) == 0 {
		return 0
	}
	v := c.rsv.amounts[key]
	if v == 0 || c.mayBorrow(j, h) {
		return 0
	}
	return v
}

// backfillHopeless reports whether a job of a backfill class cannot fit,
// because one asking for no more slots and running no longer did not.
func (c *cycle) backfillHopeless(r *classRun, j *Job) bool {
	if c.rsv == nil {
		return false
	}
	f, ok := c.rsv.failed[r]
	if !ok {
		return false
	}
	l := j.runEstimate()
	if l <= 0 {
		l = math.Inf(1)
	}
	return j.Slots >= f.slots && l >= f.limit
}

// backfillFailed records that a job of a backfill class could not fit.
func (c *cycle) backfillFailed(r *classRun, j *Job) {
	if c.rsv == nil || !borrows(r.k.queue) {
		return
	}
	l := j.runEstimate()
	if l <= 0 {
		l = math.Inf(1)
	}
	f, ok := c.rsv.failed[r]
	if ok && f.slots <= j.Slots && f.limit <= l {
		return
	}
	if !ok {
		f = backfillFail{j.Slots, l}
	} else {
		f = backfillFail{min(f.slots, j.Slots), min(f.limit, l)}
	}
	if c.rsv.failed == nil {
		c.rsv.failed = map[*classRun]backfillFail{}
	}
	c.rsv.failed[r] = f
}

// borrows reports whether a queue's jobs may use reserved slots.
func borrows(q *Queue) bool { return q.reserve.backfill || q.reserve.interruptible > 0 }

// reserveLimiter keeps the slots reserved on a host for the jobs that
// reserved them; backfill jobs may use them when they fit before the
// reservation starts.
type reserveLimiter struct{}

func (reserveLimiter) Name() string { return "SLOT_RESERVE" }
func (reserveLimiter) Room(st CycleState, kv ClassInfo, jv JobInfo, hv HostInfo) (int, Reason) {
	c, k, j, h := st.c, kv.k, jv.j, hv.h
	if c.rsv == nil || c.rsv.slots[h.Index] == 0 || h.MaxSlots < 0 {
		return math.MaxInt32, ReasonNone
	}
	if borrows(k.queue) && (j == nil || c.mayBorrow(j, h)) {
		// A class's room counts the slots some of its jobs may borrow.
		return math.MaxInt32, ReasonNone
	}
	room := c.mxjRoom(k.queue, h)
	if c.probe {
		room += c.preemptBonus(k.queue, h)
	}
	return room - c.rsv.slots[h.Index], ReasonHostReserved
}

// applyReservations keeps what the plan says of reservations: when each
// began, what each job holds now (for bjobs -l, bhosts and busers).
func (c *Cluster) applyReservations(p *Plan, now Time) {
	for _, j := range c.reserving {
		j.Reservation = nil
	}
	for _, h := range c.rsvHosts {
		h.reserved = 0
	}
	c.reserving, c.rsvHosts = c.reserving[:0], c.rsvHosts[:0]
	for _, j := range p.Released {
		j.rsvSince = 0
	}
	for _, d := range p.Dispatches {
		d.Job.rsvSince = 0
	}
	for _, r := range p.Reservations {
		j := r.Job
		if j.rsvSince == 0 {
			j.rsvSince = now
		}
		r.Since = j.rsvSince
		j.Reservation = r
		c.reserving = append(c.reserving, j)
		for _, a := range r.Allocs {
			if a.Slots == 0 {
				// GPUs alone, no slot: bhosts counts slots.
				continue
			}
			if a.Host.reserved == 0 {
				c.rsvHosts = append(c.rsvHosts, a.Host)
				a.Host.rsvStart = Never
			}
			a.Host.reserved += a.Slots
			a.Host.rsvStart = min(a.Host.rsvStart, r.Start)
		}
	}
}

// Reserved returns the slots pending jobs reserve on the host, as of the
// last cycle, and the earliest time they are predicted to start (Never
// when it cannot be told).
func (h *Host) Reserved() (slots int, start Time) { return h.reserved, h.rsvStart }

// Reserving returns the pending jobs that hold a reservation, as of the
// last cycle.
func (c *Cluster) Reserving() []*Job { return c.reserving }

// seedReservations takes into the cycle the reservations of the last
// cycle that come before a job, for explaining why it waits.
func (c *cycle) seedReservations(j *Job) {
	for _, rj := range c.cluster.reserving {
		r := rj.Reservation
		if rj == j || r == nil || rj.Queue.Priority < j.Queue.Priority || rj.Queue.Priority == j.Queue.Priority && before(j, rj) < 0 {
			continue
		}
		rs := c.reserveState()
		for _, a := range r.Allocs {
			rs.slots[a.Host.Index] += a.Slots
			rs.start[a.Host.Index] = min(rs.start[a.Host.Index], r.Start)
			rs.addGPUs(a.Host, a.GPUs, rj)
		}
		for _, am := range r.Amounts {
			if s, ok := c.slotOf(am.Name); ok {
				addTo(&rs.amounts, hostSlot{c.cluster.reserveIndex(am.Host, am.Name), s}, am.Value)
			}
			rs.start[am.Host.Index] = min(rs.start[am.Host.Index], r.Start)
		}
	}
}

// everFits reports whether the class's candidate hosts have slots enough
// for the job once every job on them ended: a job that asks for more
// reserves nothing, for it would hold the slots in vain.
func (c *cycle) everFits(r *classRun, j *Job) bool {
	oneHost := false
	if alts := j.Req.alts(); len(alts) == 1 && len(alts[0]) == 1 && alts[0][0].Simple != nil {
		oneHost = alts[0][0].Simple.Span.Hosts == 1
	}
	total := 0
	for _, h := range r.cand.hosts {
		if h.MaxSlots < 0 {
			return true
		}
		if oneHost {
			total = max(total, h.MaxSlots)
		} else {
			total += h.MaxSlots
		}
		if total >= j.Slots {
			return true
		}
	}
	return false
}
