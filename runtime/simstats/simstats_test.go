package simstats_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/runtime/simstats"
)

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9*max(1, math.Abs(a), math.Abs(b)) }

func TestPercentile(t *testing.T) {
	v := []float64{1, 2, 3, 4}
	for _, c := range []struct{ p, want float64 }{
		{0, 1}, {0.25, 1.75}, {0.5, 2.5}, {0.95, 3.85}, {1, 4}, {-1, 1}, {2, 4},
	} {
		if got := simstats.Percentile(v, c.p); !near(got, c.want) {
			t.Errorf("Percentile(%v, %v) = %v, want %v", v, c.p, got, c.want)
		}
	}
	if got := simstats.Percentile([]float64{7}, 0.95); got != 7 {
		t.Errorf("one value: %v", got)
	}
	if got := simstats.Percentile(nil, 0.5); got != 0 {
		t.Errorf("no values: %v", got)
	}
	// 1..100: the p95 of the R-7 method is 95.05.
	var h []float64
	for i := 1; i <= 100; i++ {
		h = append(h, float64(i))
	}
	if got := simstats.Percentile(h, 0.95); !near(got, 95.05) {
		t.Errorf("p95 of 1..100 = %v, want 95.05", got)
	}
}

func TestSlowdown(t *testing.T) {
	for _, c := range []struct{ wait, run, want float64 }{
		{0, 100, 1},
		{100, 100, 2},
		{90, 10, 10},
		{20, 5, 2.5}, // run below Tau: divided by 10, not 5
		{0, 5, 1},    // bounded below by 1
		{0, 0, 1},
		{3600, 0, 360},
	} {
		if got := simstats.Slowdown(c.wait, c.run); !near(got, c.want) {
			t.Errorf("Slowdown(%v, %v) = %v, want %v", c.wait, c.run, got, c.want)
		}
	}
}

// handMade is a small run on a cluster of 4 slots, worked out by hand in
// TestSummarize.
func handMade() []simstats.Record {
	return []simstats.Record{
		{ID: 1, Queue: "normal", User: "alice", Submit: 0, Start: 0, End: 100, Slots: 2, State: "DONE", Hosts: []string{"h1"}},
		{ID: 2, Queue: "normal", User: "bob", Submit: 10, Start: 50, End: 150, Slots: 1, State: "EXIT", Preempted: 2},
		{ID: 3, Queue: "short", User: "alice", Submit: 20, Start: 20, End: 25, Slots: 4, State: "DONE", Forwarded: true},
		{ID: 4, Queue: "short", User: "carol", Submit: 30, State: "PEND"},
		{ID: 5, Queue: "", User: "bob", Submit: 40, State: "SKIPPED"},
	}
}

func TestSummarize(t *testing.T) {
	s := simstats.Summarize(handMade(), 4)
	counts := []int{s.Jobs, s.Finished, s.Exited, s.Pending, s.Skipped, s.Other, s.Invalid, s.Preemptions, s.Forwards, s.PeakBusySlots}
	if want := []int{5, 2, 1, 1, 1, 0, 0, 2, 1, 6}; !reflect.DeepEqual(counts, want) {
		t.Errorf("jobs, finished, exited, pending, skipped, other, invalid, preemptions, forwards, peak = %v, want %v", counts, want)
	}
	// Slot-seconds: 2×100 + 1×100 + 4×5 = 320 over 4 slots × 150 s.
	if s.Makespan != 150 || s.FirstSubmit != 0 || s.LastEnd != 150 || s.SlotSeconds != 320 || !near(s.Utilisation, 320.0/600) {
		t.Errorf("makespan %v (%v to %v), slot-seconds %v, utilisation %v", s.Makespan, s.FirstSubmit, s.LastEnd, s.SlotSeconds, s.Utilisation)
	}
	// Waits 0, 40, 0; slowdowns 1, 1.4, 1 (job 3 ran 5 s < Tau, so 5/10 → 1).
	if w := s.Wait; w.N != 3 || !near(w.Mean, 40.0/3) || w.P50 != 0 || w.Max != 40 || !near(w.P95, 36) || w.Min != 0 {
		t.Errorf("wait = %+v", w)
	}
	if sd := s.Slowdown; sd.N != 3 || !near(sd.Mean, 3.4/3) || sd.P50 != 1 || !near(sd.Max, 1.4) {
		t.Errorf("slowdown = %+v", sd)
	}

	var qnames []string
	for _, q := range s.Queues {
		qnames = append(qnames, q.Name)
	}
	if !reflect.DeepEqual(qnames, []string{"", "normal", "short"}) {
		t.Fatalf("queues %q", qnames)
	}
	none, normal, short := s.Queues[0], s.Queues[1], s.Queues[2]
	if none.Jobs != 1 || none.Skipped != 1 || none.Wait.N != 0 {
		t.Errorf("queue \"\" = %+v", none)
	}
	if normal.Jobs != 2 || normal.Finished != 1 || normal.Exited != 1 || normal.Wait.Mean != 20 || normal.Preemptions != 2 || normal.SlotSeconds != 300 {
		t.Errorf("queue normal = %+v", normal)
	}
	if short.Jobs != 2 || short.Finished != 1 || short.Pending != 1 || short.Forwards != 1 || short.Wait.N != 1 {
		t.Errorf("queue short = %+v", short)
	}
	if h := normal.WaitHist; h == nil || h.Counts[0] != 2 || len(h.Counts) != len(h.Edges)+1 {
		t.Errorf("normal wait histogram = %+v", h)
	}

	users := map[string][2]int{}
	for _, u := range s.Users {
		users[u.Name] = [2]int{u.Jobs, u.Wait.N}
		if u.WaitHist != nil {
			t.Errorf("user %s has a wait histogram", u.Name)
		}
	}
	if want := map[string][2]int{"alice": {2, 2}, "bob": {2, 1}, "carol": {1, 0}}; !reflect.DeepEqual(users, want) {
		t.Errorf("users (jobs, ran) = %v, want %v", users, want)
	}

	// One bucket a second: 2 slots busy at first, 6 during job 3, 1
	// after job 1 ends.
	tl := s.Timeline
	if len(tl.Busy) != 150 || tl.Step != 1 || tl.Start != 0 {
		t.Fatalf("timeline of %d points, step %v, start %v", len(tl.Busy), tl.Step, tl.Start)
	}
	for i, want := range map[int]float64{0: 0.5, 22: 1.5, 49: 0.5, 60: 0.75, 120: 0.25, 149: 0.25} {
		if !near(tl.Busy[i], want) {
			t.Errorf("busy[%d] = %v, want %v", i, tl.Busy[i], want)
		}
	}
}

func TestWaitHistogram(t *testing.T) {
	var recs []simstats.Record
	for _, w := range []float64{0, 59.9, 60, 299, 300, 3600, 86400, 7 * 86400, 1e7} {
		recs = append(recs, simstats.Record{Queue: "q", Submit: 0, Start: w, End: w + 1, Slots: 1, State: "DONE"})
	}
	h := simstats.Summarize(recs, 1).Queues[0].WaitHist
	want := []int{2, 2, 1, 0, 1, 0, 0, 1, 0, 2}
	if !reflect.DeepEqual(h.Counts, want) {
		t.Errorf("counts %v, want %v (edges %v)", h.Counts, want, h.Edges)
	}
}

// randomRecords returns a run of n jobs on a cluster of slots slots.
func randomRecords(rng *rand.Rand, n, slots int) []simstats.Record {
	states := []string{"DONE", "DONE", "DONE", "EXIT", "PEND", "SKIPPED"}
	recs := make([]simstats.Record, n)
	for i := range recs {
		sub := rng.Float64() * 1e6
		start := sub + rng.ExpFloat64()*3600
		recs[i] = simstats.Record{
			ID: i + 1, Queue: fmt.Sprintf("q%d", rng.IntN(5)), User: fmt.Sprintf("u%02d", rng.IntN(30)),
			Submit: sub, Start: start, End: start + rng.ExpFloat64()*7200, Slots: 1 + rng.IntN(slots),
			State: states[rng.IntN(len(states))], Preempted: rng.IntN(2), Forwarded: rng.IntN(10) == 0,
		}
	}
	return recs
}

// TestTimeline checks the sweep on random runs: at most
// MaxTimelinePoints points, covering the makespan, averaging to the
// utilisation, none above the peak.
func TestTimeline(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 20 {
		slots := 1 + rng.IntN(64)
		s := simstats.Summarize(randomRecords(rng, 1+rng.IntN(3000), slots), slots)
		tl := s.Timeline
		if len(tl.Busy) == 0 || len(tl.Busy) > simstats.MaxTimelinePoints {
			t.Fatalf("%d points", len(tl.Busy))
		}
		if !near(tl.Step*float64(len(tl.Busy)), s.Makespan) || tl.Start != s.FirstSubmit {
			t.Errorf("timeline covers %v from %v; makespan %v from %v", tl.Step*float64(len(tl.Busy)), tl.Start, s.Makespan, s.FirstSubmit)
		}
		var sum float64
		for _, v := range tl.Busy {
			sum += v
			if v < -1e-9 || v > float64(s.PeakBusySlots)/float64(slots)+1e-9 {
				t.Fatalf("busy %v, peak %d of %d slots", v, s.PeakBusySlots, slots)
			}
		}
		if mean := sum / float64(len(tl.Busy)); math.Abs(mean-s.Utilisation) > 1e-9 {
			t.Errorf("timeline mean %v, utilisation %v", mean, s.Utilisation)
		}
	}
}

// TestOrderIndependent checks that the records' order changes no byte of
// the outputs.
func TestOrderIndependent(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	recs := randomRecords(rng, 2000, 32)
	a := simstats.Summarize(recs, 32)
	rng.Shuffle(len(recs), func(i, j int) { recs[i], recs[j] = recs[j], recs[i] })
	b := simstats.Summarize(recs, 32)
	for name, write := range writers() {
		if wa, wb := write(t, a), write(t, b); !bytes.Equal(wa, wb) {
			t.Errorf("%s differs with the records shuffled", name)
		}
	}
}

func writers() map[string]func(*testing.T, *simstats.Summary) []byte {
	return map[string]func(*testing.T, *simstats.Summary) []byte{
		"json": func(t *testing.T, s *simstats.Summary) []byte {
			var b bytes.Buffer
			if err := s.WriteJSON(&b); err != nil {
				t.Fatal(err)
			}
			return b.Bytes()
		},
		"text": func(t *testing.T, s *simstats.Summary) []byte {
			var b bytes.Buffer
			if err := s.WriteText(&b); err != nil {
				t.Fatal(err)
			}
			return b.Bytes()
		},
		"comparison": func(t *testing.T, s *simstats.Summary) []byte {
			var b bytes.Buffer
			if err := simstats.WriteComparison(&b, [2]string{"hand-made", "this"}, simstats.Summarize(handMade(), 4), s); err != nil {
				t.Fatal(err)
			}
			return b.Bytes()
		},
		"html": func(t *testing.T, s *simstats.Summary) []byte {
			var b bytes.Buffer
			if err := simstats.WriteHTML(&b, []simstats.Run{{Name: "this", Summary: s}, {Name: "hand-made", Summary: simstats.Summarize(handMade(), 4)}}); err != nil {
				t.Fatal(err)
			}
			return b.Bytes()
		},
	}
}

func TestDeterministic(t *testing.T) {
	recs := randomRecords(rand.New(rand.NewPCG(7, 8)), 500, 16)
	for name, write := range writers() {
		first := write(t, simstats.Summarize(recs, 16))
		for range 5 {
			if again := write(t, simstats.Summarize(recs, 16)); !bytes.Equal(first, again) {
				t.Fatalf("%s differs between two runs", name)
			}
		}
	}
}

func TestJSON(t *testing.T) {
	var b bytes.Buffer
	if err := simstats.Summarize(handMade(), 4).WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(bytes.NewReader(b.Bytes()))
	dec.UseNumber()
	var top map[string]any
	if err := dec.Decode(&top); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"jobs", "makespan", "utilisation", "wait", "slowdown", "queues", "users", "preemptions", "forwards", "timeline"} {
		if _, ok := top[k]; !ok {
			t.Errorf("no key %q", k)
		}
	}
	if n, ok := top["jobs"].(json.Number); !ok || n.String() != "5" {
		t.Errorf("jobs = %#v, want the integer 5", top["jobs"])
	}
	if p95 := top["wait"].(map[string]any)["p95"].(json.Number); p95.String() != "36" {
		t.Errorf("wait.p95 = %v", p95)
	}
	if q := top["queues"].([]any); len(q) != 3 || q[1].(map[string]any)["name"] != "normal" {
		t.Errorf("queues = %v", q)
	}
	// Keys come in a fixed order, jobs first.
	if !bytes.HasPrefix(b.Bytes(), []byte("{\n  \"jobs\": 5,\n  \"finished\": 2,")) {
		t.Errorf("JSON starts %q", b.String()[:40])
	}

	// Nothing to summarise still gives valid JSON, with lists not null.
	b.Reset()
	if err := simstats.Summarize(nil, 0).WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"jobs": 0`, `"queues": []`, `"users": []`, `"busy": []`} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("empty summary has no %s:\n%s", want, b.String())
		}
	}
}

func TestInvalidRecords(t *testing.T) {
	recs := append(handMade(),
		simstats.Record{ID: 6, Queue: "normal", Submit: 0, Start: math.NaN(), End: 10, Slots: 1, State: "DONE"},
		simstats.Record{ID: 7, Queue: "normal", Submit: 50, Start: 40, End: 60, Slots: 1, State: "EXIT"},
		simstats.Record{ID: 8, Queue: "normal", Submit: 0, Start: 10, End: 5, Slots: 1, State: "DONE"},
		simstats.Record{ID: 9, Queue: "normal", Submit: math.Inf(-1), State: "PEND"},
		simstats.Record{ID: 10, Queue: "normal", Submit: 0, Start: 10, End: 1e9, Slots: -3, State: "DONE"},
		simstats.Record{ID: 11, Queue: "normal", Submit: 0, State: "RUN"},
		simstats.Record{ID: 12, Queue: "normal", Submit: 0, Start: 0, End: math.MaxFloat64, Slots: 1 << 40, State: "DONE"},
	)
	s := simstats.Summarize(recs, 4)
	if s.Jobs != 12 || s.Invalid != 5 || s.Other != 1 || s.Wait.N != 3 || s.Makespan != 150 || s.FirstSubmit != 0 {
		t.Errorf("jobs %d, invalid %d, other %d, waits %d, makespan %v", s.Jobs, s.Invalid, s.Other, s.Wait.N, s.Makespan)
	}
	if err := s.WriteJSON(&bytes.Buffer{}); err != nil {
		t.Error(err)
	}
}

func TestNoSlots(t *testing.T) {
	s := simstats.Summarize(handMade(), 0)
	if s.Utilisation != 0 || len(s.Timeline.Busy) != 0 || s.PeakBusySlots != 6 || s.SlotSeconds != 320 {
		t.Errorf("utilisation %v, %d timeline points, peak %d", s.Utilisation, len(s.Timeline.Busy), s.PeakBusySlots)
	}
	var b bytes.Buffer
	if err := simstats.WriteHTML(&b, []simstats.Run{{Name: "no slots", Summary: s}, {Name: "nil"}}); err != nil {
		t.Fatal(err)
	}
	checkHTML(t, b.Bytes())
	if !strings.Contains(b.String(), "No utilisation data") {
		t.Error("no note on the missing timeline")
	}
}

func TestWriteText(t *testing.T) {
	recs := handMade()
	for i := range 25 {
		recs = append(recs, simstats.Record{ID: 100 + i, Queue: "bulk", User: fmt.Sprintf("user%02d", i), Submit: 0, Start: float64(i * 60), End: 2000, Slots: 1, State: "DONE"})
	}
	recs = append(recs, simstats.Record{ID: 200, Queue: "bulk", User: "user07", Submit: 0, Start: 0, End: 1, Slots: 1, State: "DONE"})
	var b bytes.Buffer
	if err := simstats.Summarize(recs, 8).WriteText(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"Totals\n",
		"  jobs                          31\n",
		"  utilisation              202.0 %\n",
		"Queues (4)\n",
		"  queue   jobs  done  exit  pend  skip  wait mean     p50     p95     max  slowdown mean   p95  preemptions\n",
		"  (none)     1     0     0     0     1          -       -       -       -              -     -            0\n",
		"  normal     2     1     1     0     0        20s     20s     38s     40s           1.20  1.38            2\n",
		"Users (top 20 of 28 by jobs)\n",
		"  bounded slowdown",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	// Most jobs first, ties by name: alice, bob, user07 (2 jobs each),
	// then carol, user00, ...
	users := out[strings.Index(out, "Users"):]
	lines := strings.Split(users, "\n")
	if len(lines) < 23 || !strings.HasPrefix(lines[2], "  alice ") || !strings.HasPrefix(lines[3], "  bob ") ||
		!strings.HasPrefix(lines[4], "  user07 ") || !strings.HasPrefix(lines[5], "  carol ") {
		t.Errorf("users table:\n%s", users)
	}
	if strings.Contains(users, "user24") {
		t.Error("more than 20 users listed")
	}
}

func TestWriteComparison(t *testing.T) {
	a := simstats.Summarize(handMade(), 4)
	recs := handMade()
	recs[1].Start, recs[1].End = 10, 110 // job 2 no longer waits
	recs = append(recs, simstats.Record{ID: 9, Queue: "extra", User: "dave", Submit: 0, Start: 0, End: 10, Slots: 1, State: "DONE"})
	b := simstats.Summarize(recs, 4)
	var out bytes.Buffer
	if err := simstats.WriteComparison(&out, [2]string{"before", "after"}, a, b); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	for _, want := range []string{
		"Comparison: before vs after\n",
		"  jobs                  5       6     +1 (+20.0 %)\n",
		"  makespan          2m30s   1m50s   -40s (-26.7 %)\n",
		"  utilisation      53.3 %  75.0 %         +21.7 pt\n",
		"  peak busy slots       6       7     +1 (+16.7 %)\n",
		"  wait mean           13s      0s  -13s (-100.0 %)\n",
		"  slowdown max       1.40    1.00  -0.40 (-28.6 %)\n",
		"  preemptions           2       2                0\n",
		"Queues (a: before, b: after)\n",
		"  (none)     1  1       0          -   -                -",
		"  extra      -  1       -          -  0s                -         -  0s                -              -  1.00                -            -  0       -\n",
		"  normal     2  2       0        20s  0s  -20s (-100.0 %)       38s  0s  -38s (-100.0 %)           1.20  1.00  -0.20 (-16.7 %)            2  2       0\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("no %q in\n%s", want, s)
		}
	}
}

// TestEarlierRuns: the runs of a job before a requeue count in its
// slot-seconds and in the busy slots; a run whose times cannot be right
// is left out; the requeues are counted and written only when there are
// any.
func TestEarlierRuns(t *testing.T) {
	recs := []simstats.Record{
		{ID: 1, Queue: "q", User: "u", Submit: 0, Start: 200, End: 300, Slots: 2, State: simstats.StateExit, Requeued: 2,
			EarlierRuns: []simstats.Span{{Start: 0, End: 100}, {Start: 100, End: 200}, {Start: 250, End: 400}}},
		{ID: 2, Queue: "q", User: "u", Submit: 0, Start: 0, End: 300, Slots: 2, State: simstats.StateDone},
	}
	s := simstats.Summarize(recs, 4)
	if s.SlotSeconds != 2*300+2*300 || s.Requeues != 2 || s.Queues[0].Requeues != 2 || s.Utilisation != 1 || s.PeakBusySlots != 4 {
		t.Errorf("slot-seconds %g, requeues %d (queue %d), utilisation %g, peak %d: want 1200, 2, 2, 1, 4",
			s.SlotSeconds, s.Requeues, s.Queues[0].Requeues, s.Utilisation, s.PeakBusySlots)
	}
	var b bytes.Buffer
	if err := s.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "requeues") {
		t.Errorf("no requeues in the report:\n%s", b.String())
	}
	b.Reset()
	if err := simstats.Summarize(recs[1:], 4).WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "requeues") {
		t.Errorf("requeues in the report of a run without any:\n%s", b.String())
	}
}

// TestEarlierRunsOfUnfinished: the runs of a job that pends again, or is
// held (PSUSP), at the end count in the slot-seconds, the busy slots and
// the makespan as those of a job that ended do; a held job is counted as
// such (and written), not as pending; a run whose times cannot be right
// is still left out.
func TestEarlierRunsOfUnfinished(t *testing.T) {
	recs := []simstats.Record{
		{ID: 1, Queue: "q", User: "u", Submit: 0, Slots: 1, State: simstats.StatePend, Requeued: 2,
			EarlierRuns: []simstats.Span{{Start: 0, End: 60}, {Start: 60, End: 120}, {Start: -5, End: 10}}},
		{ID: 2, Queue: "q", User: "u", Submit: 0, Slots: 1, State: simstats.StateHeld, Requeued: 1,
			EarlierRuns: []simstats.Span{{Start: 0, End: 100}, {Start: 100, End: 200}}},
		{ID: 3, Queue: "q", User: "u", Submit: 0, Start: 0, End: 100, Slots: 1, State: simstats.StateDone},
	}
	s := simstats.Summarize(recs, 2)
	// 120 + 200 + 100 slot-seconds over 2 slots × 200 s.
	if s.SlotSeconds != 420 || s.Makespan != 200 || s.Utilisation != 420.0/400 || s.PeakBusySlots != 3 {
		t.Errorf("slot-seconds %g, makespan %g, utilisation %g, peak %d: want 420, 200, 1.05, 3",
			s.SlotSeconds, s.Makespan, s.Utilisation, s.PeakBusySlots)
	}
	if s.Pending != 1 || s.Held != 1 || s.Queues[0].Held != 1 || s.Requeues != 3 {
		t.Errorf("pending %d, held %d (queue %d), requeues %d: want 1, 1, 1, 3", s.Pending, s.Held, s.Queues[0].Held, s.Requeues)
	}
	var b bytes.Buffer
	if err := s.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "held (PSUSP)") {
		t.Errorf("no held jobs in the report:\n%s", b.String())
	}
}

// TestWarningString words the counts of jobs that never ran and of
// requeued jobs that never ran again.
func TestWarningString(t *testing.T) {
	for _, tc := range []struct {
		w    simstats.Warning
		want string
	}{
		{simstats.Warning{Queue: "q", Jobs: 1, Job: 4, Reason: "r"}, `queue "q": 1 job never ran; job 4: r`},
		{simstats.Warning{Queue: "q", Jobs: 3, Job: 4, Reason: "r"}, `queue "q": 3 jobs never ran; job 4: r`},
		{simstats.Warning{Queue: "q", Jobs: 2, Requeued: 2, Job: 4, Reason: "r"}, `queue "q": 2 requeued jobs never ran again; job 4: r`},
		{simstats.Warning{Queue: "q", Jobs: 3, Requeued: 1, Job: 4, Reason: "r"}, `queue "q": 2 jobs never ran, 1 requeued job never ran again; job 4: r`},
	} {
		if got := tc.w.String(); got != tc.want {
			t.Errorf("%+v: got %q, want %q", tc.w, got, tc.want)
		}
	}
}
