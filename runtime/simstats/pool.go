package simstats

import "math"

// A PoolSeries follows one slot pool (queue-based fairshare: SLOT_POOL and
// SLOT_SHARE of lsb.queues) through a run: at each sample time, the slots
// each of its queues held and asked for.
type PoolSeries struct {
	Name string
	// Size is the pool's slots; Queues its queues in lsb.queues order,
	// with their SLOT_SHARE, in percent, in Shares.
	Size    int
	Queues  []string
	Shares  []int
	Samples []PoolSample // in time order
}

// A PoolSample is a pool's state from time T until the next sample (or
// the end of the run, for the last one).
type PoolSample struct {
	T float64
	// Slots and Pending are, per queue of the series, the slots its
	// started jobs hold and the slots its pending jobs ask for.
	Slots, Pending []int
}

// A Pool holds the metrics of one slot pool of a run, worked out by
// SummarizePools.
type Pool struct {
	Name  string `json:"name"`
	Slots int    `json:"slots"`
	// Start is the time of the pool's first sample and Span the seconds
	// from it to the end of the run: the time the means are taken over.
	Start  float64     `json:"start"`
	Span   float64     `json:"span"`
	Queues []PoolQueue `json:"queues"` // in lsb.queues order
}

// A PoolQueue holds the metrics of one queue of a slot pool. Fractions are
// of the pool's slots.
//
// A queue competes while it has pending slots and at least one other
// queue of the pool has pending slots too: then the pool is short of
// slots for both, and SLOT_SHARE decides who gets them. While it
// competes, the queue is entitled to its SLOT_SHARE divided by the sum of
// the SLOT_SHAREs of the pool's queues that have work (slots held or
// pending) — its NormalisedShare when every queue of the pool has work,
// more when some are idle, as their shares go to the others.
type PoolQueue struct {
	Name string `json:"name"`
	// SlotShare is the queue's SLOT_SHARE in percent; Share the same as a
	// fraction; NormalisedShare its fraction of the sum of the pool's
	// SLOT_SHAREs (SLOT_SHAREs need not sum to 100), 0 when that sum is.
	SlotShare       int     `json:"slot_share"`
	Share           float64 `json:"share"`
	NormalisedShare float64 `json:"normalised_share"`
	// Held is the time-weighted mean fraction the queue held over the
	// pool's span; HeldCompeting the same over the CompetingSeconds while
	// the queue competed.
	Held             float64 `json:"held"`
	HeldCompeting    float64 `json:"held_competing"`
	CompetingSeconds float64 `json:"competing_seconds"`
	// Deviation is the time-weighted mean, while the queue competed, of
	// |held fraction − entitled share|: 0 when the pool gave the queue
	// exactly its share, or when the queue never competed.
	Deviation float64 `json:"deviation"`
	// Timeline is the fraction the queue held over the pool's span.
	Timeline Timeline `json:"timeline"`
}

// SummarizePools works out the metrics of the slot pools of a run that
// ended at end (the end of its last job: Summary.LastEnd). Each sample
// holds until the next, the last one until end; samples at or after end,
// and samples out of time order, count for nothing. A pool of no slots or
// of no time has all its fractions and its timelines zero or empty. The
// result has a Pool per series, in the order given, and is never nil.
func SummarizePools(series []PoolSeries, end float64) []Pool {
	pools := make([]Pool, 0, len(series))
	for i := range series {
		pools = append(pools, summarizePool(&series[i], end))
	}
	return pools
}

func summarizePool(ps *PoolSeries, end float64) Pool {
	p := Pool{Name: ps.Name, Slots: ps.Size, Queues: make([]PoolQueue, len(ps.Queues))}
	n := len(ps.Queues)
	at := func(v []int, k int) int {
		if k < len(v) {
			return v[k]
		}
		return 0
	}
	shareSum := 0
	for k := range n {
		shareSum += max(at(ps.Shares, k), 0)
	}
	for k, name := range ps.Queues {
		q := &p.Queues[k]
		q.Name, q.SlotShare = name, at(ps.Shares, k)
		q.Share = float64(q.SlotShare) / 100
		if shareSum > 0 {
			q.NormalisedShare = float64(max(q.SlotShare, 0)) / float64(shareSum)
		}
		q.Timeline = Timeline{Busy: []float64{}}
	}
	segs := poolSegments(ps, end)
	if len(segs) > 0 {
		p.Start = segs[0].t0
		p.Span = segs[len(segs)-1].t1 - p.Start
	}
	if ps.Size <= 0 || !(p.Span > 0) {
		return p
	}
	size := float64(ps.Size)
	points := int(min(MaxTimelinePoints, math.Ceil(p.Span)))
	step := p.Span / float64(points)
	for k := range p.Queues {
		p.Queues[k].Timeline = Timeline{Start: p.Start, Step: step, Busy: make([]float64, points)}
	}
	held := make([]float64, n)      // slot-seconds
	competing := make([]float64, n) // seconds
	heldComp := make([]float64, n)  // fraction-seconds
	dev := make([]float64, n)       // fraction-seconds
	for _, sg := range segs {
		s := sg.s
		dt := sg.t1 - sg.t0
		pendingQueues, activeShares := 0, 0
		for k := range n {
			if at(s.Pending, k) > 0 {
				pendingQueues++
			}
			if at(s.Slots, k) > 0 || at(s.Pending, k) > 0 {
				activeShares += max(at(ps.Shares, k), 0)
			}
		}
		for k := range n {
			slots := at(s.Slots, k)
			if slots != 0 {
				held[k] += float64(slots) * dt
				p.Queues[k].Timeline.addSegment(sg.t0, sg.t1, float64(slots))
			}
			if at(s.Pending, k) <= 0 || pendingQueues < 2 {
				continue
			}
			frac := float64(slots) / size
			entitled := 0.0
			if activeShares > 0 {
				entitled = float64(max(at(ps.Shares, k), 0)) / float64(activeShares)
			}
			competing[k] += dt
			heldComp[k] += frac * dt
			dev[k] += math.Abs(frac-entitled) * dt
		}
	}
	for k := range p.Queues {
		q := &p.Queues[k]
		q.Held = held[k] / (size * p.Span)
		q.CompetingSeconds = competing[k]
		if competing[k] > 0 {
			q.HeldCompeting = heldComp[k] / competing[k]
			q.Deviation = dev[k] / competing[k]
		}
		for i := range q.Timeline.Busy {
			q.Timeline.Busy[i] /= step * size
		}
	}
	return p
}

// poolSegment is a sample of a pool and the time it holds for.
type poolSegment struct {
	t0, t1 float64
	s      *PoolSample
}

// poolSegments returns the samples of a series that hold for some time
// before end, each with its interval: a sample holds until the next one
// in time order, the last until end. Samples at times that cannot be
// right (not finite, beyond 10^12 s, before the previous one) are left
// out, as are samples at or after end.
func poolSegments(ps *PoolSeries, end float64) []poolSegment {
	if !(math.Abs(end) <= maxTime) {
		return nil
	}
	var segs []poolSegment
	prev := math.Inf(-1)
	for i := range ps.Samples {
		s := &ps.Samples[i]
		if !(math.Abs(s.T) <= maxTime) || s.T < prev || s.T >= end {
			continue
		}
		prev = s.T
		if n := len(segs); n > 0 {
			segs[n-1].t1 = s.T
			if segs[n-1].t1 == segs[n-1].t0 {
				segs = segs[:n-1] // replaced by a sample at the same time
			}
		}
		segs = append(segs, poolSegment{t0: s.T, t1: end, s: s})
	}
	return segs
}
