package runtime

import (
	"cmp"
	"fmt"
	"math"
	"slices"
)

// A slotPool is a queue-based fairshare pool (SLOT_POOL): queues that
// share a set of hosts, each entitled to SLOT_SHARE percent of their job
// slots while the queues compete.
type slotPool struct {
	Name string
	// queues are the pool's queues in scheduling order.
	queues []*Queue
	// max is MAX_SLOTS_IN_POOL, 0 for none; hosts are the hosts any of
	// the queues may use.
	max   int
	hosts []*Host
	// use holds each queue's slot use in slot-seconds, decayed over
	// HIST_HOURS: it orders queues of equal priority (the one that used
	// least of its share first).
	use map[*Queue]float64
	// priority is the highest priority of the pool's queues.
	priority int
}

// poolTargets are a pool's slots for one cycle and each queue's part of
// them.
type poolTargets struct {
	size   int
	target map[*Queue]int
}

// readPools gathers the queues of each SLOT_POOL. The pool's hosts must
// all have a job slot limit, as LSF requires, since shares are parts of
// a number of slots.
func (c *Cluster) readPools() error {
	byName := map[string]*slotPool{}
	for _, q := range c.Queues {
		if q.Def == nil || q.Def.SlotPool == "" || q.Def.SlotShare == nil {
			continue
		}
		p := byName[q.Def.SlotPool]
		if p == nil {
			p = &slotPool{Name: q.Def.SlotPool, use: map[*Queue]float64{}}
			byName[p.Name] = p
			c.pools = append(c.pools, p)
		}
		q.pool, q.share = p, *q.Def.SlotShare
		if len(p.queues) == 0 || q.Priority > p.priority {
			p.priority = q.Priority
		}
		p.queues = append(p.queues, q)
	}
	// MAX_SLOTS_IN_POOL belongs to the pool's first queue in lsb.queues.
	for _, p := range c.pools {
		first := slices.MinFunc(p.queues, func(a, b *Queue) int { return cmp.Compare(a.Order, b.Order) })
		if m := first.Def.MaxSlotsInPool; m != nil && *m > 0 {
			p.max = *m
		}
		for _, h := range c.Hosts {
			if !slices.ContainsFunc(p.queues, func(q *Queue) bool { return q.UsesHost(h) }) {
				continue
			}
			if h.MaxSlots < 0 {
				return fmt.Errorf("slot pool %s: host %s has no job slot limit (MXJ in lsb.hosts); the hosts of a pool need one", p.Name, h.Name)
			}
			p.hosts = append(p.hosts, h)
		}
	}
	return nil
}

// accruePools adds the slots each pool queue held over the last dt
// seconds, decaying the past over HIST_HOURS.
func (c *Cluster) accruePools(dt float64) {
	f := c.Fairshare.decay(dt)
	for _, p := range c.pools {
		for _, q := range p.queues {
			p.use[q] = p.use[q]*f + float64(q.Used)*dt
		}
	}
}

// PoolShare returns a pool queue's SLOT_SHARE in percent, 0 for a queue
// in no pool.
func (q *Queue) PoolShare() int { return q.share }

// PoolName returns the name of a queue's slot pool, or "".
func (q *Queue) PoolName() string {
	if q.pool == nil {
		return ""
	}
	return q.pool.Name
}

// poolHeld returns how much of its share a pool queue holds, with what
// the cycle dispatched: the queue furthest below its share gets free
// slots first.
func (c *cycle) poolHeld(q *Queue) float64 {
	return float64(q.Used+c.queueUsed[q]) / float64(max(1, q.share))
}

// schedPriority returns the priority a queue's jobs are taken at: its
// own, or for a pool queue the highest of its pool's, so that a pool's
// queues are scheduled together.
func (q *Queue) schedPriority() int {
	if q.pool != nil {
		return q.pool.priority
	}
	return q.Priority
}

// poolUse returns how much of its share a pool queue used, decayed: the
// order of queues of equal priority in a pool.
func (c *cycle) poolUse(q *Queue) float64 {
	return q.pool.use[q] / float64(max(1, q.share))
}

// planPools computes each pool's targets for the cycle.
func (c *cycle) planPools() {
	for _, p := range c.cluster.pools {
		if c.pools == nil {
			c.pools = map[*slotPool]*poolTargets{}
		}
		t := c.poolTargets(p)
		c.pools[p] = t
		for q, n := range t.target {
			if c.plan.poolTargets == nil {
				c.plan.poolTargets = map[*Queue]int{}
			}
			c.plan.poolTargets[q] = n
		}
	}
}

// A SlotPool describes a slot pool (SLOT_POOL) as it stands.
type SlotPool struct {
	Name string
	// Size is the pool's slots: those of its hosts that take jobs, at
	// most MAX_SLOTS_IN_POOL.
	Size int
	// Queues are the pool's queues in lsb.queues order, with their
	// SLOT_SHARE in percent in Shares.
	Queues []*Queue
	Shares []int
}

// SlotPools returns the cluster's slot pools, in the order their first
// queue is defined; nil when it has none. The slices are new on every
// call.
func (c *Cluster) SlotPools() []SlotPool {
	var out []SlotPool
	for _, p := range c.pools {
		qs := slices.Clone(p.queues)
		slices.SortFunc(qs, func(a, b *Queue) int { return a.Order - b.Order })
		sp := SlotPool{Name: p.Name, Size: p.size(c), Queues: qs, Shares: make([]int, len(qs))}
		for i, q := range qs {
			sp.Shares[i] = q.share
		}
		out = append(out, sp)
	}
	return out
}

// size returns the pool's slots: those of its hosts that take jobs, at
// most MAX_SLOTS_IN_POOL.
func (p *slotPool) size(c *Cluster) int {
	n := 0
	for _, h := range p.hosts {
		if h.State() == HostOK {
			n += h.MaxSlots
		}
	}
	if p.max > 0 {
		n = min(n, p.max)
	}
	return n
}

// poolTargets divides a pool's slots among its queues as LSF does: each
// queue that has work gets its share of the slots left — SLOT_SHAREs taken
// relative to the sum of those of the queues with work, so that what idle
// queues leave goes to the others by their shares — rounded to the
// nearest slot; when rounding gives out more than is left, the last
// queues in order get less. A queue's demand (its started and pending
// slots, at most QJOB_LIMIT) bounds its part, and what it cannot use is
// shared again in another round; a queue alone may use the whole pool.
func (c *cycle) poolTargets(p *slotPool) *poolTargets {
	size := p.size(c.cluster)
	t := &poolTargets{size: size, target: make(map[*Queue]int, len(p.queues))}
	demand := map[*Queue]int{}
	var active []*Queue
	for _, q := range c.poolOrder(p) {
		d := q.Used + q.pendingSlots
		if q.QJobLimit > 0 {
			d = min(d, q.QJobLimit)
		}
		if d > 0 {
			demand[q] = d
			active = append(active, q)
		}
	}
	left := size
	for left > 0 {
		var want []*Queue
		shares := 0
		for _, q := range active {
			if t.target[q] < demand[q] {
				want = append(want, q)
				shares += max(1, q.share)
			}
		}
		if len(want) == 0 {
			break
		}
		give := make([]int, len(want))
		sum := 0
		for i, q := range want {
			g := int(math.Floor(float64(left)*float64(max(1, q.share))/float64(shares) + 0.5))
			give[i] = min(g, demand[q]-t.target[q])
			sum += give[i]
		}
		if sum == 0 {
			// Shares too small to round to a slot: the first queue in
			// order takes one.
			give[0], sum = 1, 1
		}
		for i := len(give) - 1; i >= 0 && sum > left; i-- {
			cut := min(give[i], sum-left)
			give[i] -= cut
			sum -= cut
		}
		for i, q := range want {
			t.target[q] += give[i]
		}
		left -= sum
	}
	return t
}

// poolOrder returns a pool's queues in the order they get slots: queue
// priority, then the one that used least of its share, then lsb.queues
// order.
func (c *cycle) poolOrder(p *slotPool) []*Queue {
	qs := slices.Clone(p.queues)
	slices.SortStableFunc(qs, func(a, b *Queue) int {
		return cmp.Or(cmp.Compare(b.Priority, a.Priority), cmp.Compare(c.poolUse(a), c.poolUse(b)),
			cmp.Compare(a.Order, b.Order))
	})
	return qs
}

// PoolTarget returns the slots the cycle let a pool queue hold (0 for a
// queue with no work), and whether the queue is in a pool.
func (p *Plan) PoolTarget(q *Queue) (int, bool) {
	if q.pool == nil {
		return 0, false
	}
	return p.poolTargets[q], true
}

// slotPoolFilter keeps a pool queue's jobs within the queue's part of the
// pool while other queues of the pool have work.
type slotPoolFilter struct{}

func (slotPoolFilter) Name() string { return "SLOT_SHARE" }
func (slotPoolFilter) Check(st CycleState, jv JobInfo) Reason {
	c, j := st.c, jv.j
	q := j.Queue
	if q.pool == nil {
		return ReasonNone
	}
	t := c.pools[q.pool]
	if t == nil {
		return ReasonNone
	}
	if q.Used+c.queueUsed[q]+j.Slots > t.target[q] {
		return ReasonPoolShare
	}
	return ReasonNone
}
