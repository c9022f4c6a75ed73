package runtime

import (
	"cmp"
	"math"
	"slices"
)

// A jobClass is the pending jobs of one queue that share one effective
// requirement: jobs the scheduler can treat alike, whatever their number.
// It keeps them in dispatch order (user priority, then Seq) with a tree of
// their slot demands, so that "the next job that asks for at most N slots"
// is found in O(log n) however many jobs wait.
type jobClass struct {
	id    int
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
// case: a new submission) costs O(log n); one that sorts earlier rebuilds
// the class.
func (k *jobClass) add(j *Job) {
	j.class = k
	n := len(k.jobs)
	if n == 0 || k.lastLive() == nil || k.order(k.lastLive(), j) < 0 {
		j.classPos = n
		k.jobs = append(k.jobs, j)
		k.tree.push(float64(j.Slots))
		k.live++
		return
	}
	k.live++
	k.rebuild(j)
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
		k.rebuild(nil)
	}
}

// rebuild sorts the class's jobs (adding extra when not nil) and rebuilds
// the tree.
func (k *jobClass) rebuild(extra *Job) {
	live := make([]*Job, 0, k.live)
	for _, j := range k.jobs {
		if j != nil {
			live = append(live, j)
		}
	}
	if extra != nil {
		live = append(live, extra)
	}
	slices.SortFunc(live, k.order)
	k.jobs = live
	demands := make([]float64, len(live))
	for i, j := range live {
		j.classPos = i
		demands[i] = float64(j.Slots)
	}
	k.tree.build(demands)
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
