package runtime

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/lsfc/lsfc/compile"
)

// TestDemandTree checks first() against a scan, over random pushes and
// removals.
func TestDemandTree(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var tree demandTree
	var vals []float64
	for step := range 5000 {
		switch {
		case len(vals) == 0 || rng.IntN(3) > 0:
			v := float64(1 + rng.IntN(64))
			tree.push(v)
			vals = append(vals, v)
		default:
			i := rng.IntN(len(vals))
			tree.set(i, math.Inf(1))
			vals[i] = math.Inf(1)
		}
		p, c := rng.IntN(len(vals)+1), float64(rng.IntN(70))
		want := -1
		for i := p; i < len(vals); i++ {
			if vals[i] <= c {
				want = i
				break
			}
		}
		if got := tree.first(p, c); got != want {
			t.Fatalf("step %d: first(%d, %g) = %d, want %d", step, p, c, got, want)
		}
	}
}

// TestWindows checks windows that repeat daily, wrap past midnight, and
// run over days of the week, and the next change of a list.
func TestWindows(t *testing.T) {
	at := func(day, hour, minute int) Time {
		// 2024-01-07 is a Sunday (day 0).
		return Time(time.Date(2024, 1, 7+day, hour, minute, 0, 0, time.UTC).Unix())
	}
	w := func(fd, fh, fm, td, th, tm int) compile.Window {
		return compile.Window{From: compile.Clock{Day: fd, Hour: fh, Minute: fm}, To: compile.Clock{Day: td, Hour: th, Minute: tm}}
	}
	night := []compile.Window{w(-1, 19, 0, -1, 7, 0)}
	weekend := []compile.Window{w(5, 18, 0, 1, 8, 0)}
	for _, c := range []struct {
		ws   []compile.Window
		t    Time
		open bool
		next Time
	}{
		{night, at(1, 20, 0), true, at(2, 7, 0)},
		{night, at(1, 12, 0), false, at(1, 19, 0)},
		{night, at(2, 6, 59), true, at(2, 7, 0)},
		{weekend, at(6, 12, 0), true, at(8, 8, 0)},
		{weekend, at(3, 12, 0), false, at(5, 18, 0)},
		{nil, at(3, 12, 0), true, Never},
	} {
		if got := windowOpen(c.ws, c.t); got != c.open {
			t.Errorf("windowOpen(%v, %v) = %v", c.ws, c.t.Std(), got)
		}
		if got := nextWindowChange(c.ws, c.t); got != c.next {
			t.Errorf("nextWindowChange(%v, %v) = %v, want %v", c.ws, c.t.Std(), got.Std(), c.next.Std())
		}
	}
}

// TestClassOrder adds, removes, holds and releases jobs of one class at
// random, in the ways the runtime does (new submissions last, jobs that
// come back to their place, jobs whose priority puts them between
// others), and checks after each step that the live jobs are in order,
// that each knows its place, and that the tree passes over held jobs and
// the places of those that left.
func TestClassOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	k := &jobClass{queue: &Queue{Name: "q"}}
	var out []*Job // jobs not in the class
	nextID := int64(1)
	for step := range 4000 {
		switch r := rng.IntN(10); {
		case r < 4 || k.live == 0:
			j := &Job{ID: nextID, Seq: float64(nextID), Slots: 1 + rng.IntN(4), State: Pend}
			if rng.IntN(4) == 0 {
				j.Priority = rng.IntN(3)
			}
			nextID++
			k.add(j)
		case r < 6 && len(out) > 0:
			i := rng.IntN(len(out))
			j := out[i]
			out = slices.Delete(out, i, i+1)
			k.add(j)
		case r < 8:
			j := k.randomLive(rng)
			k.remove(j)
			j.State = Pend
			out = append(out, j)
		default:
			j := k.randomLive(rng)
			if j.State == PSusp {
				j.State = Pend
			} else {
				j.State = PSusp
			}
			k.held(j)
		}
		var live []*Job
		for p, j := range k.jobs {
			if j == nil {
				continue
			}
			if j.classPos != p || j.class != k {
				t.Fatalf("step %d: job %d at %d thinks it is at %d", step, j.ID, p, j.classPos)
			}
			if n := len(live); n > 0 && before(live[n-1], j) >= 0 {
				t.Fatalf("step %d: job %d is after job %d", step, j.ID, live[n-1].ID)
			}
			live = append(live, j)
		}
		if len(live) != k.live {
			t.Fatalf("step %d: %d live jobs, class counts %d", step, len(live), k.live)
		}
		for p := range k.jobs {
			want := -1
			for q := p; q < len(k.jobs); q++ {
				if j := k.jobs[q]; j != nil && j.State != PSusp && float64(j.Slots) <= 2 {
					want = q
					break
				}
			}
			if got := k.tree.first(p, 2); got != want {
				t.Fatalf("step %d: first(%d, 2) = %d, want %d", step, p, got, want)
			}
		}
	}
}

// randomLive picks a job of the class.
func (k *jobClass) randomLive(rng *rand.Rand) *Job {
	for {
		if j := k.jobs[rng.IntN(len(k.jobs))]; j != nil {
			return j
		}
	}
}
