package runtime

import (
	"math"
	"math/rand/v2"
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
