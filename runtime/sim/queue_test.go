package sim_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/lsfc/lsfc/runtime"
	"github.com/lsfc/lsfc/runtime/sim"
)

// TestQueueOrder pushes events out of order: they come out by time, at
// one time ends before submissions before commands, and events of one
// time and kind in the order they were pushed.
func TestQueueOrder(t *testing.T) {
	var q sim.Queue
	if got := q.Next(); got != runtime.Never {
		t.Errorf("empty Queue: Next() = %v, want Never", got)
	}
	in := []sim.Event{
		{At: 5, Kind: sim.Apply, Index: 0},
		{At: 5, Kind: sim.Submit, Index: 1},
		{At: 1, Kind: sim.Submit, Index: 2},
		{At: 5, Kind: sim.End, Index: 3},
		{At: 5, Kind: sim.Submit, Index: 4},
		{At: 3, Kind: sim.Apply, Index: 5},
		{At: 5, Kind: sim.End, Index: 6},
	}
	for _, e := range in {
		q.Push(e)
	}
	if got := q.Next(); got != 1 {
		t.Errorf("Next() = %v, want 1", got)
	}
	var got []int
	for q.Len() > 0 {
		got = append(got, q.Pop().Index)
	}
	want := []int{2, 5, 3, 6, 1, 4, 0}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Queue order mismatch (-want +got):\n%s", diff)
	}
}

// TestQueueForesee foresees the end of a job that ran before a
// suspension, and of one cut short by its run limit.
func TestQueueForesee(t *testing.T) {
	var q sim.Queue
	ran := &runtime.Job{Runtime: 100, Ran: 30, Epoch: 2}
	limited := &runtime.Job{Runtime: 100, RunLimit: 60}
	q.Foresee(ran, 1000, 1)
	q.Foresee(limited, 1000, 0)
	want := []sim.Event{
		{At: 1060, Kind: sim.End, Job: limited, AtRunLimit: true},
		{At: 1070, Kind: sim.End, Site: 1, Job: ran, Epoch: 2},
	}
	for i, w := range want {
		if got := q.Pop(); got != w {
			t.Errorf("event %d = %+v, want %+v", i, got, w)
		}
	}
}
