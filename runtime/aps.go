package runtime

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"

	"github.com/lsfc/lsfc/compile"
)

// Absolute priority scheduling (APS_PRIORITY): the pending jobs of an APS
// queue are taken by their APS value, highest first, instead of user
// priority and submission order. The value is the sum over the factors of
// weight × factor, where FS is the dynamic priority of the job's share
// account (0 outside fairshare), RSRC the sum of weight × value of PROC
// (slots asked for), MEM and SWAP (rusage asked for, in the units of
// LSF_UNIT_FOR_LIMITS), and WORK that of JPRIORITY (bsub -sp) and
// QPRIORITY (the queue's PRIORITY); a factor or subfactor is capped by its
// LIMIT and counts only once the job has pended its GRACE_PERIOD. A
// subfactor without a weight weighs 0, unless none of its factor's
// subfactors has one: then each weighs 1 (LSF documents no default; this
// is lsfc's). An administrator's ADMIN value (bmod -aps "admin=v") is
// added; a SYSTEM value (bmod -aps "system=v") replaces the calculation and
// puts the job before every job with a calculated value.
//
// An APS queue and the queues its QUEUE_GROUP names form a queue group:
// they all use its formula, and the pending jobs of all of them are taken
// together, by APS value alone, at the highest PRIORITY of the group's
// queues. A queue's own PRIORITY then counts only through the QPRIORITY
// factor, so that a job of the group's lowest queue goes before one of its
// highest when its APS value is higher. Jobs of different APS queue groups
// of the same priority are also ordered together by APS value.
type apsQueue struct {
	def *compile.APSPriority
	// priority is the highest PRIORITY of the group's queues.
	priority int
}

// APSValue is a job's absolute priority and what it is made of.
type APSValue struct {
	// Value is the APS value; System is set when it is an
	// administrator's system value.
	Value  float64
	System bool
	// The factors' values before weights (after limits and grace
	// periods): FS, PROC, MEM, SWAP, JPRIORITY, QPRIORITY, and the ADMIN
	// adjustment.
	FS, Proc, Mem, Swap, JPriority, QPriority, Admin float64
	// rest is the value without the FS term, and fsGrace whether the job
	// pended past FS's grace period: the cycle recomputes only FS.
	rest    float64
	fsGrace bool
}

// readAPS reads APS_PRIORITY and QUEUE_GROUP.
func (c *Cluster) readAPS() {
	for _, q := range c.Queues {
		if q.Def == nil {
			continue
		}
		if st := q.Def.Settings["APS_PRIORITY"]; st != nil {
			if a, ok := st.Value.(*compile.APSPriority); ok && a != nil {
				q.aps = &apsQueue{def: a, priority: q.Priority}
			}
		}
	}
	for _, q := range c.Queues {
		if q.aps == nil || q.Def == nil {
			continue
		}
		st := q.Def.Settings["QUEUE_GROUP"]
		if st == nil {
			continue
		}
		names, _ := st.Value.([]string)
		for _, name := range names {
			if o := c.queueByName[name]; o != nil && o != q && o.aps == nil {
				o.aps = q.aps
			}
		}
	}
	for _, q := range c.Queues {
		if q.aps != nil {
			q.aps.priority = max(q.aps.priority, q.Priority)
		}
	}
}

// orderPriority returns the priority a queue's pending jobs are taken at:
// for a queue of an APS queue group, the group's; otherwise the queue's
// own (for a slot pool's queue, the pool's).
func (q *Queue) orderPriority() int {
	if q.aps != nil {
		return q.aps.priority
	}
	return q.schedPriority()
}

// weightOf returns a (sub)factor's weight: its own, else, for a
// subfactor, 1 when none of its factor's subfactors has a weight.
func (a *apsQueue) weightOf(name string, siblings ...string) float64 {
	if w, ok := a.def.Weight[name]; ok {
		return w
	}
	for _, s := range siblings {
		if _, ok := a.def.Weight[s]; ok {
			return 0
		}
	}
	if len(siblings) == 0 {
		return 0
	}
	return 1
}

// term returns a (sub)factor's value once capped by its limit and its
// grace period taken into account: 0 before the job pended that long.
func (a *apsQueue) term(name string, x, pended float64) float64 {
	if g, ok := a.def.Grace[name]; ok && pended < g {
		return 0
	}
	if l, ok := a.def.Limit[name]; ok && x > l {
		return l
	}
	return x
}

// value computes a job's APS value at now; fs is its share account's
// priority (0 when none).
func (c *Cluster) apsValue(j *Job, now Time, fs float64) APSValue {
	a := j.Queue.aps
	if j.apsSystem != nil {
		return APSValue{Value: *j.apsSystem, System: true}
	}
	pended := float64(now - j.Submit)
	v := APSValue{Admin: j.apsAdmin}
	var mem, swap float64
	for _, am := range j.Req.amounts() {
		switch am.Name {
		case "mem":
			mem += am.Value * c.perHost(am.Per, j.Slots, j.Slots)
		case "swp", "swap":
			swap += am.Value * c.perHost(am.Per, j.Slots, j.Slots)
		}
	}
	v.FS = a.term("FS", fs, pended)
	v.Proc = a.term("PROC", float64(j.Slots), pended)
	v.Mem = a.term("MEM", mem, pended)
	v.Swap = a.term("SWAP", swap, pended)
	v.JPriority = a.term("JPRIORITY", float64(j.Priority), pended)
	v.QPriority = a.term("QPRIORITY", float64(j.Queue.Priority), pended)
	rsrc := a.weightOf("PROC", "MEM", "SWAP")*v.Proc + a.weightOf("MEM", "PROC", "SWAP")*v.Mem +
		a.weightOf("SWAP", "PROC", "MEM")*v.Swap
	work := a.weightOf("JPRIORITY", "QPRIORITY")*v.JPriority + a.weightOf("QPRIORITY", "JPRIORITY")*v.QPriority
	v.rest = a.weightOf("RSRC")*a.term("RSRC", rsrc, pended) + a.weightOf("WORK")*a.term("WORK", work, pended) + v.Admin
	v.fsGrace = a.term("FS", 1, pended) != 0
	v.Value = a.weightOf("FS")*v.FS + v.rest
	return v
}

// withFS returns the value with the FS factor at fs.
func (v APSValue) withFS(a *apsQueue, fs float64) APSValue {
	if v.System {
		return v
	}
	v.FS = 0
	if v.fsGrace {
		v.FS = fs
		if l, ok := a.def.Limit["FS"]; ok && fs > l {
			v.FS = l
		}
	}
	v.Value = a.weightOf("FS")*v.FS + v.rest
	return v
}

// APS returns a pending job's APS value at now; false for a job that is
// not pending in an APS queue.
func (c *Cluster) APS(j *Job, now Time) (APSValue, bool) {
	if j.Queue == nil || j.Queue.aps == nil || !j.State.Pending() {
		return APSValue{}, false
	}
	fs := 0.0
	if j.acct != nil {
		fs = j.acct.fair.priority(j.acct, now, 0)
	}
	return c.apsValue(j, now, fs), true
}

// SetAPS sets an administrator's APS value of a pending job in an APS
// queue (bmod -aps): kind "system" (the job's value, before every
// calculated one) or "admin" (added to the calculated value), each
// replacing the last; kind "" clears both (bmod -apsn). The value may not
// be 0.
func (c *Cluster) SetAPS(j *Job, kind string, value float64) error {
	if !j.State.Pending() {
		return fmt.Errorf("job %d is not pending: only a pending job's APS value can be changed", j.ID)
	}
	if err := notForwarded(j, "given an APS value"); err != nil {
		return err
	}
	if j.Queue.aps == nil {
		return fmt.Errorf("queue %s has no APS_PRIORITY", j.Queue.Name)
	}
	switch kind {
	case "":
		j.apsSystem, j.apsAdmin = nil, 0
		return nil
	case "system", "admin":
	default:
		return fmt.Errorf("unknown APS value %q: give system=value or admin=value", kind)
	}
	if value == 0 {
		return fmt.Errorf("the %s APS value may not be 0", kind)
	}
	if kind == "system" {
		j.apsSystem, j.apsAdmin = &value, 0
	} else {
		j.apsSystem, j.apsAdmin = nil, value
	}
	return nil
}

// ParseAPS reads bmod -aps's argument, "system=value" or "admin=value"
// (case-insensitive); "" stands for -apsn and gives kind "".
func ParseAPS(s string) (kind string, value float64, err error) {
	if strings.TrimSpace(s) == "" {
		return "", 0, nil
	}
	k, v, ok := strings.Cut(s, "=")
	kind = strings.ToLower(strings.TrimSpace(k))
	if !ok || (kind != "system" && kind != "admin") {
		return "", 0, fmt.Errorf("%q is not system=value or admin=value", s)
	}
	value, err = strconv.ParseFloat(strings.TrimSpace(v), 64)
	if err != nil || value == 0 {
		return "", 0, fmt.Errorf("the %s APS value %q is not a number other than 0", kind, strings.TrimSpace(v))
	}
	return kind, value, nil
}

// compareAPS orders two APS values: system values first, then the higher
// value.
func compareAPS(a, b APSValue) int {
	if a.System != b.System {
		if a.System {
			return -1
		}
		return 1
	}
	return cmp.Compare(b.Value, a.Value)
}

// The cycle's side.

// apsOf returns a job's APS value as the cycle leaves its share account:
// the value orderAPS computed, its FS factor brought up to date.
func (c *cycle) apsOf(j *Job) APSValue {
	if j.acct == nil {
		return j.aps
	}
	return j.aps.withFS(j.Queue.aps, c.fairPriority(j.acct))
}

// orderAPS puts the jobs of each class of an APS queue in APS order as
// the cycle starts (the values move with time and use); a class already in
// order is left alone.
func (c *cycle) orderAPS() {
	for _, k := range c.cluster.classList {
		if k.live == 0 || k.queue.aps == nil {
			continue
		}
		sorted := true
		var prev *Job
		for _, j := range k.jobs {
			if j == nil {
				continue
			}
			fs := 0.0
			if j.acct != nil {
				fs = c.fairPriority(j.acct)
			}
			j.aps = c.cluster.apsValue(j, c.now, fs)
			if prev != nil && apsBefore(prev, j) > 0 {
				sorted = false
			}
			prev = j
		}
		if !sorted {
			k.rebuild()
		}
	}
}

// apsBefore orders two pending jobs of an APS queue by the values the
// cycle computed last, then as before does.
func apsBefore(a, b *Job) int {
	return cmp.Or(compareAPS(a.aps, b.aps), before(a, b))
}
