package runtime

import (
	"cmp"
	"math"
	"slices"
	"strconv"

	"github.com/lsfc/lsfc/compile"
)

// hostValues is a host's value table for one cycle, kept for its
// available amounts (rusage checks).
type hostValues struct {
	v *compile.HostValues
}

// allocate places a job on the class's hosts: each alternative of its
// requirement in turn, each term of a compound requirement with its own
// select, order, span and same. It returns the allocation, or nil and the
// reason none fits.
func (c *cycle) allocate(r *classRun, j *Job) ([]Alloc, Reason) {
	alts := j.Req.alts()
	if len(alts) == 0 {
		return c.place(r, j, nil, j.Slots, nil)
	}
	why := ReasonSlots
	for _, alt := range alts {
		var allocs []Alloc
		taken := map[*Host]int{}
		ok := true
		for _, t := range alt {
			n := j.Slots
			if len(alt) > 1 && t.Count > 0 {
				n = t.Count
			}
			got, reason := c.place(r, j, t.Simple, n, taken)
			if got == nil {
				ok, why = false, reason
				break
			}
			for _, a := range got {
				taken[a.Host] += a.Slots
			}
			allocs = append(allocs, got...)
		}
		if ok {
			return merge(allocs), ReasonNone
		}
	}
	return nil, why
}

// merge joins the allocations of one host made by several terms.
func merge(allocs []Alloc) []Alloc {
	var out []Alloc
	at := map[*Host]int{}
	for _, a := range allocs {
		if i, ok := at[a.Host]; ok {
			out[i].Slots += a.Slots
			continue
		}
		at[a.Host] = len(out)
		out = append(out, a)
	}
	return out
}

// place finds n slots for one simple requirement (nil: any host) on the
// class's hosts, not counting the slots taken holds (earlier terms).
func (c *cycle) place(r *classRun, j *Job, sr *compile.SimpleReq, n int, taken map[*Host]int) ([]Alloc, Reason) {
	hosts := c.termHosts(r.cand, sr)
	if sr != nil && (c.readsSlots(sr.Select) || c.ordersBySlots(sr)) {
		hosts = c.currentSlots(r.cand.queue, sr, hosts)
	}
	if j.PreExecHost != "" {
		hosts = lastHost(hosts, j.PreExecHost)
	}
	var span compile.SpanReq
	if sr != nil {
		span = sr.Span
	}
	if len(sameSlots(sr)) > 0 {
		return c.placeSame(r, j, sr, hosts, n, taken, span)
	}
	return c.placeOn(r, j, hosts, n, taken, span)
}

// lastHost returns hosts with the one named name moved to the end, the
// others in their order; hosts itself is left as it is.
func lastHost(hosts []*Host, name string) []*Host {
	i := slices.IndexFunc(hosts, func(h *Host) bool { return h.Name == name })
	if i < 0 || i == len(hosts)-1 {
		return hosts
	}
	out := make([]*Host, 0, len(hosts))
	out = append(append(append(out, hosts[:i]...), hosts[i+1:]...), hosts[i])
	return out
}

// placeOn places n slots on hosts, best first, as span says: all on one
// host (hosts=1), ptile slots per host, or as many as each host gives.
func (c *cycle) placeOn(r *classRun, j *Job, hosts []*Host, n int, taken map[*Host]int, span compile.SpanReq) ([]Alloc, Reason) {
	why := ReasonSlots
	ptile := span.Ptile
	switch {
	case span.PtileMXJ:
		ptile = -1 // as many as each host's MXJ
	case span.Hosts == 1:
		ptile = n
	}
	var allocs []Alloc
	left := n
	for _, h := range hosts {
		if left == 0 {
			break
		}
		if i := r.cand.pos[h.Index]; i >= 0 && r.free != nil && (c.probe && r.room[i] <= 0 || !c.probe && r.free[i] <= 0) {
			// No job of the class fits there: skip the limiters.
			continue
		}
		room, reason := c.jobRoom(r, j, h)
		room -= taken[h]
		if room <= 0 {
			if reason != ReasonNone {
				why = reason
			}
			continue
		}
		want := min(room, left)
		switch {
		case ptile > 0:
			// ptile: exactly ptile slots per host, fewer only on the last.
			want = min(ptile, left)
			if room < want {
				why = ReasonSpanHosts
				continue
			}
		case ptile < 0 && h.MaxSlots > 0:
			want = min(h.MaxSlots, left)
			if room < want {
				why = ReasonSpanHosts
				continue
			}
		}
		if !c.rusageFits(j, h, want) {
			why = ReasonHostRusage
			continue
		}
		allocs = append(allocs, Alloc{Host: h, Slots: want})
		left -= want
	}
	if left > 0 {
		if span.Hosts == 1 || ptile != 0 {
			return nil, ReasonSpanHosts
		}
		return nil, why
	}
	if span.Hosts > 1 && len(allocs) > span.Hosts {
		return nil, ReasonSpanHosts
	}
	return allocs, ReasonNone
}

// placeSame places a job whose same[] section asks for hosts that share
// the values of some resources: it tries each group of such hosts, the
// group of the best host first.
func (c *cycle) placeSame(r *classRun, j *Job, sr *compile.SimpleReq, hosts []*Host, n int, taken map[*Host]int, span compile.SpanReq) ([]Alloc, Reason) {
	hc := &c.s.classes
	var order []string
	groups := map[string][]*Host{}
	for _, h := range hosts {
		v := hc.values[hc.of[h.Index]]
		key := ""
		for _, slot := range sameSlots(sr) {
			key += v.Str[slot] + "\x00" + formatValue(v.Num[slot]) + "\x01"
		}
		if _, ok := groups[key]; !ok {
			order = append(order, key)
		}
		groups[key] = append(groups[key], h)
	}
	why := ReasonSlots
	for _, key := range order {
		allocs, reason := c.placeOn(r, j, groups[key], n, taken, span)
		if allocs != nil {
			return allocs, ReasonNone
		}
		why = reason
	}
	return nil, why
}

func formatValue(x float64) string {
	if math.IsNaN(x) {
		return "-"
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

// sameSlots returns the resources of a requirement's same[] section.
func sameSlots(sr *compile.SimpleReq) []int {
	if sr == nil {
		return nil
	}
	return sr.Same
}

// rusageFits reports whether the job's rusage amounts are available on
// the host for slots of its slots, counting what the cycle reserved.
func (c *cycle) rusageFits(j *Job, h *Host, slots int) bool {
	amounts := j.Req.amounts()
	if len(amounts) == 0 {
		return true
	}
	v := c.valuesOf(h)
	for _, am := range amounts {
		if am.Slot >= len(v.v.Avail) {
			continue
		}
		key := hostSlot{c.cluster.reserveIndex(h, am.Name), am.Slot}
		avail := v.v.Avail[am.Slot] - c.reserved[key] - c.reservedAmount(j, h, key)
		need := am.Value * c.cluster.perHost(am.Per, slots, j.Slots)
		if !(avail >= need) && !math.IsNaN(v.v.Avail[am.Slot]) {
			return false
		}
	}
	return true
}

// valuesOf returns a host's value table for this cycle.
func (c *cycle) valuesOf(h *Host) *hostValues {
	if v := c.values[h.Index]; v != nil {
		return v
	}
	v := &hostValues{v: c.cluster.Env.Values(h.Facts)}
	if c.values == nil {
		c.values = map[int]*hostValues{}
	}
	c.values[h.Index] = v
	return v
}

// slotOf returns the value-table slot of a resource.
func (c *cycle) slotOf(name string) (int, bool) {
	_, slot, ok := c.cluster.Env.Lookup(name)
	return slot, ok
}

// slotsSlot returns the value-table slot of the "slots" resource (a
// host's free job slots), or -1.
func (c *cycle) slotsSlot() int {
	if _, slot, ok := c.cluster.Env.Lookup("slots"); ok {
		return slot
	}
	return -1
}

// readsSlots reports whether a select reads what the cycle changes as it
// places jobs: the free job slots, or the amount left of a resource of
// lsf.cluster's ResourceMap.
func (c *cycle) readsSlots(p *compile.SelectProgram) bool {
	if p == nil {
		return false
	}
	s := c.slotsSlot()
	for _, r := range p.Refs {
		if r == s {
			return true
		}
		if _, ok := c.cluster.counted[r]; ok {
			return true
		}
	}
	return false
}

// ordersBySlots reports whether a requirement's order[] reads the free job
// slots.
func (c *cycle) ordersBySlots(sr *compile.SimpleReq) bool {
	s := c.slotsSlot()
	for _, k := range sr.Order {
		if k.Slot == s {
			return true
		}
	}
	return false
}

// dynamicSelect reports whether some select of a class's requirement
// reads the free job slots, which host classes cannot capture.
func (c *cycle) dynamicSelect(k *jobClass) bool {
	for _, alt := range k.req.alts() {
		for _, t := range alt {
			if t.Simple != nil && c.readsSlots(t.Simple.Select) {
				return true
			}
		}
	}
	return false
}

// currentSlots filters and orders hosts by a requirement that reads the
// free job slots, with each host's slots as the cycle leaves them, and
// the amounts left of the counted resources (see Cluster.counted). The
// queue's HOSTS preferences still come first.
func (c *cycle) currentSlots(q *Queue, sr *compile.SimpleReq, hosts []*Host) []*Host {
	slot := c.slotsSlot()
	hc := &c.s.classes
	vals := make(map[*Host]*compile.HostValues, len(hosts))
	var kept []*Host
	for _, h := range hosts {
		base := hc.named(h)
		v := &compile.HostValues{Name: h.Name, Num: slices.Clone(base.Num), Str: base.Str, Has: slices.Clone(base.Has),
			Avail: base.Avail, FreeSlots: base.FreeSlots, Usable: base.Usable}
		free := h.Free() - c.hostUsed[h.Index]
		v.Num[slot], v.Has[slot] = float64(free), true
		for cs, name := range c.cluster.counted {
			// A select reads what is left of a counted resource.
			if avail := c.valuesOf(h).v.Avail[cs]; v.Has[cs] && !math.IsNaN(avail) {
				v.Num[cs] = avail - c.reserved[hostSlot{c.cluster.reserveIndex(h, name), cs}]
			}
		}
		if sr.Select != nil && c.readsSlots(sr.Select) && !sr.Select.Match(v) {
			continue
		}
		vals[h] = v
		kept = append(kept, h)
	}
	if !c.ordersBySlots(sr) {
		return kept
	}
	slices.SortStableFunc(kept, func(a, b *Host) int {
		if d := cmp.Compare(q.HostPref(b), q.HostPref(a)); d != 0 {
			return d
		}
		va, vb := vals[a], vals[b]
		for _, k := range sr.Order {
			x, y := va.Num[k.Slot], vb.Num[k.Slot]
			if x == y || math.IsNaN(x) || math.IsNaN(y) {
				continue
			}
			if k.Ascending {
				return cmp.Compare(x, y)
			}
			return cmp.Compare(y, x)
		}
		return 0
	})
	return kept
}
