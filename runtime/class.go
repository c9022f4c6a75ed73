package runtime

import (
	"cmp"
	"math"
	"slices"
	"sort"

	"github.com/lsfc/lsfc/lang"
)

// A jobClass is the pending jobs of one queue that share one effective
// requirement: jobs the scheduler can treat alike, whatever their number.
// It keeps them in dispatch order (user priority, then Seq) with a tree of
// their slot demands, so that "the next job that asks for at most N slots"
// is found in O(log n) however many jobs wait.
type jobClass struct {
	// key names the class in its cluster's classes (see classOf).
	key   string
	queue *Queue
	req   *Requirement
	jobs  []*Job // in order; nil where a job left
	tree  demandTree
	live  int
	// acct is the share account of the class's jobs in a fairshare
	// queue, whose classes are split by account.
	acct *account
	// asked holds the hosts the class's jobs asked for (-m), nil for any;
	// exclusive is set for exclusive jobs (-x).
	asked     map[string]bool
	exclusive bool
	// sla is the service class of the class's jobs, or nil.
	sla *SLA
	// gpu is the GPU requirement of the class's jobs, or nil.
	gpu *lang.GPUReq
	// rsv is the advance reservation of the class's jobs (bsub -U), or "".
	rsv string
	// dropped is set once the cluster forgot the class (no pending job
	// was left in it); a job with its key joins a new one.
	dropped bool
}

// dropIdleClasses forgets the classes no pending job is in, so that a
// cycle walks the classes of the jobs that wait rather than those of
// every queue, requirement, account and -m ever seen. The classes left
// keep their order; one made again later for the same key comes after
// them, which changes no schedule: a cycle orders classes by their next
// jobs. Nothing else is lost: a class holds nothing but its pending jobs
// (share accounts, service classes and queues keep their own state). The
// engine calls it just before a cycle, whose plan replaces the last one,
// so that no reason the last plan gave a dropped class is asked for
// again: a job that comes later waits in a new class, as it would have
// in the old one, of which the new plan says nothing either.
func (c *Cluster) dropIdleClasses() {
	live := c.classList[:0]
	for _, k := range c.classList {
		if k.live > 0 {
			live = append(live, k)
			continue
		}
		delete(c.classes, k.key)
		k.dropped = true
	}
	clear(c.classList[len(live):])
	c.classList = live
}

// before orders two pending jobs of one queue: higher user priority first,
// then Seq (submission order, moved by btop and bbot), then ID.
func before(a, b *Job) int {
	return cmp.Or(cmp.Compare(b.Priority, a.Priority), cmp.Compare(a.Seq, b.Seq), cmp.Compare(a.ID, b.ID))
}

// order is the order of the class's jobs: before, or in an APS queue
// apsBefore (by the values of the last cycle).
func (k *jobClass) order(a, b *Job) int {
	if k.queue.aps != nil {
		return apsBefore(a, b)
	}
	return before(a, b)
}

// add puts a job in the class, in order. A job that sorts last (the usual
// case: a new submission) costs O(log n), and so does one that goes back
// where a job left (a forwarded job that came back, a job requeued); one
// that sorts between two jobs side by side moves the jobs between it and
// the nearest place a job left by one.
func (k *jobClass) add(j *Job) {
	j.class = k
	k.live++
	if last := k.lastLive(); last == nil || k.order(last, j) < 0 {
		j.classPos = len(k.jobs)
		k.jobs = append(k.jobs, j)
		k.tree.push(demand(j))
		return
	}
	// The first place whose next job in the class sorts after j.
	i := sort.Search(len(k.jobs), func(i int) bool {
		for ; i < len(k.jobs); i++ {
			if x := k.jobs[i]; x != nil {
				return k.order(j, x) < 0
			}
		}
		return true
	})
	if k.jobs[i] == nil {
		k.place(j, i)
		return
	}
	// The nearest hole, a few places away: the jobs up to it move.
	for d := 1; d <= shiftLimit; d++ {
		if h := i - d; h >= 0 && k.jobs[h] == nil {
			copy(k.jobs[h:i-1], k.jobs[h+1:i])
			for p := h; p < i-1; p++ {
				k.place(k.jobs[p], p)
			}
			k.place(j, i-1)
			return
		}
		if h := i - 1 + d; h < len(k.jobs) && k.jobs[h] == nil {
			copy(k.jobs[i+1:h+1], k.jobs[i:h])
			for p := h; p > i; p-- {
				k.place(k.jobs[p], p)
			}
			k.place(j, i)
			return
		}
	}
	k.jobs = slices.Insert(k.jobs, i, j)
	demands := make([]float64, len(k.jobs))
	for p, x := range k.jobs {
		demands[p] = math.Inf(1)
		if x != nil {
			x.classPos, demands[p] = p, demand(x)
		}
	}
	k.tree.build(demands)
}

// lastLive returns the last job still in the class, or nil.
func (k *jobClass) lastLive() *Job {
	for i := len(k.jobs) - 1; i >= 0; i-- {
		if k.jobs[i] != nil {
			return k.jobs[i]
		}
	}
	return nil
}

// remove takes a job out of the class (dispatched, killed, moved).
func (k *jobClass) remove(j *Job) {
	if j.class != k || j.classPos >= len(k.jobs) || k.jobs[j.classPos] != j {
		return
	}
	k.jobs[j.classPos] = nil
	k.tree.set(j.classPos, math.Inf(1))
	j.class = nil
	k.live--
	// Compact when most of the slice is holes, so that it stays linear in
	// the jobs that wait.
	if len(k.jobs) > 64 && k.live < len(k.jobs)/4 {
		k.rebuild()
	}
}

// shiftLimit is how far add moves jobs toward a hole before it moves all
// the jobs after the new one instead and rebuilds the tree.
const shiftLimit = 64

// place puts job j at place p of the class.
func (k *jobClass) place(j *Job, p int) {
	k.jobs[p], j.classPos = j, p
	k.tree.set(p, demand(j))
}

// rebuild sorts the class's jobs, leaving out the places of those that
// left, and rebuilds the tree.
func (k *jobClass) rebuild() {
	live := make([]*Job, 0, k.live)
	for _, j := range k.jobs {
		if j != nil {
			live = append(live, j)
		}
	}
	slices.SortFunc(live, k.order)
	k.jobs = live
	demands := make([]float64, len(live))
	for i, j := range live {
		j.classPos = i
		demands[i] = demand(j)
	}
	k.tree.build(demands)
}

// demand is what a job asks of the class's tree: its slots, or +Inf for
// a held job (PSUSP), which no cycle dispatches and so none looks at,
// however many of them wait.
func demand(j *Job) float64 {
	if j.State == PSusp {
		return math.Inf(1)
	}
	return float64(j.Slots)
}

// held updates the class's tree and its queue's count of held jobs for
// a job of the class that was held (PSUSP) or released.
func (k *jobClass) held(j *Job) {
	if j.class != k || j.classPos >= len(k.jobs) || k.jobs[j.classPos] != j {
		return
	}
	k.tree.set(j.classPos, demand(j))
	if j.State == PSusp {
		k.queue.held++
	} else {
		k.queue.held--
	}
}

// A demandTree is a segment tree of minimums over positions: it finds the
// first position at or after p whose value is at most c.
type demandTree struct {
	n    int       // positions in use
	size int       // leaves: a power of two
	min  []float64 // 2*size nodes; min[size+i] is position i
}

func (t *demandTree) build(vals []float64) {
	t.n = len(vals)
	t.size = 1
	for t.size < max(1, t.n) {
		t.size *= 2
	}
	t.min = make([]float64, 2*t.size)
	for i := range t.min {
		t.min[i] = math.Inf(1)
	}
	copy(t.min[t.size:], vals)
	for i := t.size - 1; i >= 1; i-- {
		t.min[i] = math.Min(t.min[2*i], t.min[2*i+1])
	}
}

// push appends a value, growing the tree when full.
func (t *demandTree) push(v float64) {
	if t.n == t.size || t.min == nil {
		vals := make([]float64, t.n, 2*max(1, t.n))
		if t.min != nil {
			copy(vals, t.min[t.size:t.size+t.n])
		}
		t.build(append(vals, v))
		return
	}
	t.n++
	t.set(t.n-1, v)
}

func (t *demandTree) set(p int, v float64) {
	i := t.size + p
	t.min[i] = v
	for i /= 2; i >= 1; i /= 2 {
		t.min[i] = math.Min(t.min[2*i], t.min[2*i+1])
	}
}

// first returns the first position at or after p whose value is at most
// c, or -1.
func (t *demandTree) first(p int, c float64) int {
	if p >= t.n || t.min == nil {
		return -1
	}
	return t.search(1, 0, t.size, p, c)
}

func (t *demandTree) search(node, lo, hi, p int, c float64) int {
	if hi <= p || t.min[node] > c {
		return -1
	}
	if hi-lo == 1 {
		if lo < t.n {
			return lo
		}
		return -1
	}
	mid := (lo + hi) / 2
	if r := t.search(2*node, lo, mid, p, c); r >= 0 {
		return r
	}
	return t.search(2*node+1, mid, hi, p, c)
}
