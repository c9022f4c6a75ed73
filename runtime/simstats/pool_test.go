package simstats_test

import (
	"bytes"
	"encoding/json"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/runtime/simstats"
)

// handPool is a pool of 8 slots whose SLOT_SHAREs (60, 20, 40) sum to
// 120, sampled until a run's end at 60 s; worked out by hand in
// TestSummarizePools. Queue c never has work, so its share goes to a and
// b while they compete.
func handPool() simstats.PoolSeries {
	sample := func(t float64, slots, pending []int) simstats.PoolSample {
		return simstats.PoolSample{T: t, Slots: slots, Pending: pending}
	}
	return simstats.PoolSeries{
		Name: "p", Size: 8, Queues: []string{"a", "b", "c"}, Shares: []int{60, 20, 40},
		Samples: []simstats.PoolSample{
			sample(0, []int{8, 0, 0}, []int{0, 0, 0}),
			sample(10, []int{8, 0, 0}, []int{4, 2, 0}),  // both compete
			sample(30, []int{6, 2, 0}, []int{4, 0, 0}),  // a alone pends
			sample(40, []int{6, 2, 0}, []int{2, 2, 0}),  // both compete
			sample(50, []int{4, 2, 0}, []int{0, 0, 0}),  // until the end at 60
			sample(70, []int{0, 0, 0}, []int{0, 0, 0}),  // after the end
			sample(80, []int{8, 8, 8}, []int{9, 9, 9}),  // after the end
			sample(100, []int{8, 8, 8}, []int{9, 9, 9}), // after the end
		},
	}
}

func TestSummarizePools(t *testing.T) {
	pools := simstats.SummarizePools([]simstats.PoolSeries{handPool()}, 60)
	if len(pools) != 1 {
		t.Fatalf("%d pools, want 1", len(pools))
	}
	p := pools[0]
	if p.Name != "p" || p.Slots != 8 || p.Start != 0 || p.Span != 60 || len(p.Queues) != 3 {
		t.Fatalf("pool %q of %d slots from %v for %v s, %d queues", p.Name, p.Slots, p.Start, p.Span, len(p.Queues))
	}
	a, b, c := p.Queues[0], p.Queues[1], p.Queues[2]
	if a.Name != "a" || b.Name != "b" || c.Name != "c" {
		t.Errorf("queues %q, %q, %q", a.Name, b.Name, c.Name)
	}
	// Shares: 60, 20 and 40 of 120.
	for _, x := range []struct {
		q                      simstats.PoolQueue
		slotShare              int
		share, normalisedShare float64
	}{{a, 60, 0.6, 0.5}, {b, 20, 0.2, 1.0 / 6}, {c, 40, 0.4, 1.0 / 3}} {
		if x.q.SlotShare != x.slotShare || !near(x.q.Share, x.share) || !near(x.q.NormalisedShare, x.normalisedShare) {
			t.Errorf("queue %s: SLOT_SHARE %d, share %v, normalised %v; want %d, %v, %v",
				x.q.Name, x.q.SlotShare, x.q.Share, x.q.NormalisedShare, x.slotShare, x.share, x.normalisedShare)
		}
	}
	// Held over 8 slots × 60 s = 480 slot-seconds: a 8×30 + 6×20 + 4×10
	// = 400, b 2×30 = 60, c nothing.
	//
	// a and b compete over [10, 30) and [40, 50): 30 s. c is idle, so
	// they are entitled to 60/80 = 0.75 and 20/80 = 0.25. Over [10, 30) a
	// holds 8/8 and b 0/8, 0.25 off each; over [40, 50) a holds 6/8 and b
	// 2/8, their shares exactly.
	for _, x := range []struct {
		q                                  simstats.PoolQueue
		held, heldComp, competing, deviate float64
	}{
		{a, 400.0 / 480, (1*20 + 0.75*10) / 30.0, 30, 0.25 * 20 / 30},
		{b, 60.0 / 480, (0*20 + 0.25*10) / 30.0, 30, 0.25 * 20 / 30},
		{c, 0, 0, 0, 0},
	} {
		q := x.q
		if !near(q.Held, x.held) || !near(q.HeldCompeting, x.heldComp) || q.CompetingSeconds != x.competing || !near(q.Deviation, x.deviate) {
			t.Errorf("queue %s: held %v, held competing %v over %v s, deviation %v; want %v, %v over %v s, %v",
				q.Name, q.Held, q.HeldCompeting, q.CompetingSeconds, q.Deviation, x.held, x.heldComp, x.competing, x.deviate)
		}
	}
	// One bucket a second over the 60 s.
	for _, q := range p.Queues {
		tl := q.Timeline
		if len(tl.Busy) != 60 || tl.Step != 1 || tl.Start != 0 {
			t.Fatalf("queue %s: timeline of %d points, step %v, start %v", q.Name, len(tl.Busy), tl.Step, tl.Start)
		}
	}
	for i, want := range map[int]float64{0: 1, 29: 1, 30: 0.75, 49: 0.75, 50: 0.5, 59: 0.5} {
		if got := a.Timeline.Busy[i]; !near(got, want) {
			t.Errorf("a: busy[%d] = %v, want %v", i, got, want)
		}
	}
	for i, want := range map[int]float64{0: 0, 29: 0, 30: 0.25, 59: 0.25} {
		if got := b.Timeline.Busy[i]; !near(got, want) {
			t.Errorf("b: busy[%d] = %v, want %v", i, got, want)
		}
	}
}

// TestSummarizePoolsCompeting checks when a queue competes: only while it
// and another queue of the pool both have pending slots, whoever holds
// the pool.
func TestSummarizePoolsCompeting(t *testing.T) {
	ps := simstats.PoolSeries{Name: "p", Size: 4, Queues: []string{"a", "b"}, Shares: []int{50, 50}, Samples: []simstats.PoolSample{
		{T: 0, Slots: []int{4, 0}, Pending: []int{0, 4}},   // b waits on a's running jobs: no contest
		{T: 100, Slots: []int{2, 2}, Pending: []int{1, 1}}, // both pend
		{T: 150, Slots: []int{0, 0}, Pending: []int{0, 0}},
	}}
	q := simstats.SummarizePools([]simstats.PoolSeries{ps}, 200)[0].Queues
	if q[0].CompetingSeconds != 50 || q[1].CompetingSeconds != 50 || q[0].Deviation != 0 || q[1].Deviation != 0 {
		t.Errorf("competing %v and %v s, deviations %v and %v; want 50 s each, no deviation",
			q[0].CompetingSeconds, q[1].CompetingSeconds, q[0].Deviation, q[1].Deviation)
	}
	// a held 4 slots for 100 s and 2 for 50 s of 4 × 200 slot-seconds.
	if !near(q[0].Held, 500.0/800) || !near(q[1].Held, 100.0/800) {
		t.Errorf("held %v and %v, want %v and %v", q[0].Held, q[1].Held, 500.0/800, 100.0/800)
	}
}

// TestSummarizePoolsDegenerate checks series with nothing to average:
// no NaN, no infinity, and lists that encode as arrays.
func TestSummarizePoolsDegenerate(t *testing.T) {
	if got := simstats.SummarizePools(nil, 10); got == nil || len(got) != 0 {
		t.Errorf("no series: %#v, want an empty list", got)
	}
	cases := map[string]struct {
		ps  simstats.PoolSeries
		end float64
	}{
		"no samples":   {simstats.PoolSeries{Name: "p", Size: 8, Queues: []string{"a"}, Shares: []int{50}}, 10},
		"no slots":     {simstats.PoolSeries{Name: "p", Queues: []string{"a", "b"}, Shares: []int{50, 50}, Samples: []simstats.PoolSample{{T: 0, Slots: []int{0, 0}, Pending: []int{1, 1}}}}, 10},
		"no time":      {handPool(), 0},
		"end is NaN":   {handPool(), math.NaN()},
		"no shares":    {simstats.PoolSeries{Name: "p", Size: 2, Queues: []string{"a", "b"}, Samples: []simstats.PoolSample{{T: 0, Slots: []int{1, 1}, Pending: []int{1, 1}}}}, 10},
		"short slices": {simstats.PoolSeries{Name: "p", Size: 2, Queues: []string{"a", "b"}, Shares: []int{1}, Samples: []simstats.PoolSample{{T: 0, Slots: []int{1}}}}, 10},
		"bad times": {simstats.PoolSeries{Name: "p", Size: 2, Queues: []string{"a"}, Shares: []int{100}, Samples: []simstats.PoolSample{
			{T: math.NaN(), Slots: []int{2}}, {T: 5, Slots: []int{1}}, {T: 3, Slots: []int{2}}, {T: math.Inf(1), Slots: []int{2}},
		}}, 10},
	}
	for name, c := range cases {
		pools := simstats.SummarizePools([]simstats.PoolSeries{c.ps}, c.end)
		b, err := json.Marshal(pools)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if strings.Contains(string(b), "null") {
			t.Errorf("%s: null in %s", name, b)
		}
		for _, q := range pools[0].Queues {
			for _, v := range append([]float64{q.Share, q.NormalisedShare, q.Held, q.HeldCompeting, q.CompetingSeconds, q.Deviation}, q.Timeline.Busy...) {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					t.Errorf("%s: queue %s has %v", name, q.Name, v)
				}
			}
		}
	}
	// Samples out of order count for nothing: the one at 3 s after the
	// one at 5 s is left out, so the queue held 1 slot of 2 from 5 to 10 s.
	p := simstats.SummarizePools([]simstats.PoolSeries{cases["bad times"].ps}, 10)[0]
	if p.Start != 5 || p.Span != 5 || p.Queues[0].Held != 0.5 {
		t.Errorf("bad times: from %v for %v s, held %v; want from 5 for 5 s, held 0.5", p.Start, p.Span, p.Queues[0].Held)
	}
}

// TestPoolTimeline checks random series: the timeline of each queue has
// at most MaxTimelinePoints points and averages to what it held, and no
// deviation is negative or beyond the largest possible.
func TestPoolTimeline(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for range 50 {
		n := 1 + rng.IntN(4)
		ps := simstats.PoolSeries{Name: "p", Size: 1 + rng.IntN(64)}
		for k := range n {
			ps.Queues = append(ps.Queues, string(rune('a'+k)))
			ps.Shares = append(ps.Shares, 1+rng.IntN(100))
		}
		tm := 0.0
		for range rng.IntN(2000) {
			s := simstats.PoolSample{T: tm}
			left := ps.Size
			for range n {
				u := rng.IntN(left + 1)
				left -= u
				s.Slots = append(s.Slots, u)
				s.Pending = append(s.Pending, rng.IntN(3))
			}
			ps.Samples = append(ps.Samples, s)
			tm += rng.ExpFloat64() * 600
		}
		p := simstats.SummarizePools([]simstats.PoolSeries{ps}, tm+rng.Float64()*100)[0]
		for _, q := range p.Queues {
			tl := q.Timeline
			if len(tl.Busy) > simstats.MaxTimelinePoints || (p.Span > 0) != (len(tl.Busy) > 0) {
				t.Fatalf("%d points over %v s", len(tl.Busy), p.Span)
			}
			if len(tl.Busy) == 0 {
				continue
			}
			var sum float64
			for _, v := range tl.Busy {
				sum += v
			}
			if mean := sum / float64(len(tl.Busy)); math.Abs(mean-q.Held) > 1e-9 {
				t.Errorf("queue %s: timeline mean %v, held %v", q.Name, mean, q.Held)
			}
			if q.Deviation < 0 || q.Deviation > 1 || q.HeldCompeting < 0 || q.HeldCompeting > 1 || q.CompetingSeconds > p.Span {
				t.Errorf("queue %s: deviation %v, held competing %v over %v of %v s", q.Name, q.Deviation, q.HeldCompeting, q.CompetingSeconds, p.Span)
			}
		}
	}
}

// pooled returns the hand-made run with the hand-made pool.
func pooled() *simstats.Summary {
	s := simstats.Summarize(handMade(), 4)
	s.Pools = simstats.SummarizePools([]simstats.PoolSeries{handPool()}, 60)
	return s
}

func TestWriteTextPools(t *testing.T) {
	var b bytes.Buffer
	if err := pooled().WriteText(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"\nSlot pool p (8 slots, over 1m00s)\n",
		"  queue  SLOT_SHARE   share    held  competing  held competing  deviation\n",
		"  a              60  50.0 %  83.3 %        30s          91.7 %    16.7 pt\n",
		"  b              20  16.7 %  12.5 %        30s           8.3 %    16.7 pt\n",
		"  c              40  33.3 %   0.0 %         0s               -          -\n",
		"deviation: mean |held − share| while competing",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if i, j := strings.Index(out, "Queues ("), strings.Index(out, "Slot pool"); i > j {
		t.Error("slot pools before the queues")
	}

	// A run with no pool and no preemption has neither section nor column.
	recs := handMade()
	recs[1].Preempted = 0
	b.Reset()
	if err := simstats.Summarize(recs, 4).WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if out := b.String(); strings.Contains(out, "Slot pool") || strings.Contains(out, "p95  preemptions") {
		t.Errorf("a pool section or a preemption column in\n%s", out)
	}
}

func TestWriteComparisonPools(t *testing.T) {
	a := pooled()
	ps := handPool()
	ps.Queues[1] = "b2" // renamed in the second run
	b := simstats.Summarize(handMade(), 4)
	b.Pools = simstats.SummarizePools([]simstats.PoolSeries{ps, {Name: "q", Size: 2}}, 60)
	var out bytes.Buffer
	if err := simstats.WriteComparison(&out, [2]string{"before", "after"}, a, b); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, want := range []string{
		"\nSlot pool p (a: 8 slots, b: 8 slots)\n",
		"         SLOT_SHARE      held competing                  deviation\n",
		"  queue           a   b               a       b  change          a        b  change\n",
		"  a              60  60          91.7 %  91.7 %       0    16.7 pt  16.7 pt       0\n",
		"  b              20   -           8.3 %       -       -    16.7 pt        -       -\n",
		"  c              40  40               -       -       -          -        -       -\n",
		"  b2              -  20               -   8.3 %       -          -  16.7 pt       -\n",
		"\nSlot pool q (a: -, b: 2 slots)\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("no %q in\n%s", want, s)
		}
	}
	// Neither run had a pool: no pool section.
	out.Reset()
	if err := simstats.WriteComparison(&out, [2]string{"a", "b"}, simstats.Summarize(handMade(), 4), nil); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "Slot pool") {
		t.Errorf("a pool section in\n%s", out.String())
	}
}

func TestWriteHTMLPools(t *testing.T) {
	evil := handPool()
	evil.Name = `<p&"q">`
	b := simstats.Summarize(handMade(), 4)
	b.Pools = simstats.SummarizePools([]simstats.PoolSeries{evil, {Name: "empty", Size: 0, Queues: []string{"x"}}}, 60)
	var out bytes.Buffer
	if err := simstats.WriteHTML(&out, []simstats.Run{{Name: "base", Summary: pooled()}, {Name: "other", Summary: b}}); err != nil {
		t.Fatal(err)
	}
	checkHTML(t, out.Bytes())
	page := out.String()
	for _, want := range []string{
		"<h2>Slot pools</h2>",
		"pool p (8 slots)</h3>",
		"pool &lt;p&amp;&#34;q&#34;&gt; (8 slots)</h3>",
		"pool slots held (%)",
		"<title>a: held 83.3 % of the pool on average, share 50.0 %</title>",
		"<td>a</td><td>60</td><td>50.0 %</td><td>83.3 %</td><td>30s</td><td>91.7 %</td><td>16.7 pt</td>",
		"No share data",
		"<th>preemptions</th>",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page has no %q", want)
		}
	}
	// Two charts of three queues each: a band and a share line per queue.
	if n := strings.Count(page, "<polygon"); n != 6 {
		t.Errorf("%d bands, want 6", n)
	}
	if n := strings.Count(page, "stroke-dasharray"); n != 6 {
		t.Errorf("%d share lines, want 6", n)
	}

	// No pools: no section.
	out.Reset()
	if err := simstats.WriteHTML(&out, []simstats.Run{{Name: "base", Summary: simstats.Summarize(handMade(), 4)}}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(out.String(), "Slot pools") {
		t.Error("a pool section in a run without pools")
	}
}

func TestJSONPools(t *testing.T) {
	var b bytes.Buffer
	if err := pooled().WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var top struct {
		Pools []map[string]any `json:"pools"`
	}
	if err := json.Unmarshal(b.Bytes(), &top); err != nil {
		t.Fatal(err)
	}
	if len(top.Pools) != 1 {
		t.Fatalf("%d pools in JSON", len(top.Pools))
	}
	p := top.Pools[0]
	for _, k := range []string{"name", "slots", "start", "span", "queues"} {
		if _, ok := p[k]; !ok {
			t.Errorf("pool has no key %q", k)
		}
	}
	q := p["queues"].([]any)[0].(map[string]any)
	for _, k := range []string{"name", "slot_share", "share", "normalised_share", "held", "held_competing", "competing_seconds", "deviation", "timeline"} {
		if _, ok := q[k]; !ok {
			t.Errorf("pool queue has no key %q", k)
		}
	}
	if q["slot_share"] != 60.0 || q["competing_seconds"] != 30.0 {
		t.Errorf("slot_share %v, competing_seconds %v", q["slot_share"], q["competing_seconds"])
	}
	b.Reset()
	if err := simstats.Summarize(nil, 0).WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), `"pools": []`) {
		t.Errorf("empty summary has no empty pools:\n%s", b.String())
	}
}
