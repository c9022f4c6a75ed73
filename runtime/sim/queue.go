package sim

import (
	"container/heap"

	"github.com/lsfc/lsfc/runtime"
)

// An EventKind says what an Event does.
type EventKind uint8

// The kinds of events, in the order they are taken at one time: ends come
// before submissions, so that a job submitted when another ends can use
// its slots in the same cycle, and operators' commands come last.
const (
	End EventKind = iota
	Submit
	Apply
	// Notified is the end of a resize notification command.
	Notified
)

// An Event is something that happens at a time of a simulation.
type Event struct {
	At   runtime.Time
	Kind EventKind
	// AtRunLimit is whether the job that ends (End) is killed at its run
	// limit rather than at its natural end.
	AtRunLimit bool
	// Index is the workload's job (Submit) or the command (Apply).
	Index int
	// Site is the cluster a job ends on (End), in a simulation of
	// several clusters; 0 otherwise.
	Site int
	// Job is the job that ends (End), and Epoch the job's Epoch when its
	// end was foreseen: an end foreseen before the job was suspended is
	// stale.
	Job   *runtime.Job
	Epoch int
	// Retry marks a submission sent again after a pending job threshold
	// refused it: it is not progress of the simulation.
	Retry bool
}

// A Queue holds the events of a simulation to come, taken earliest first;
// at one time, by kind (End, Submit, Apply), then in the order they were
// pushed. The zero Queue is empty and ready to use.
type Queue struct {
	h   eventHeap
	seq int
}

// Len returns the number of events in q.
func (q *Queue) Len() int { return len(q.h) }

// Next returns the time of the earliest event, or runtime.Never when q is
// empty.
func (q *Queue) Next() runtime.Time {
	if len(q.h) == 0 {
		return runtime.Never
	}
	return q.h[0].At
}

// Push adds an event.
func (q *Queue) Push(e Event) {
	heap.Push(&q.h, queued{e, q.seq})
	q.seq++
}

// Pop removes and returns the earliest event; q must not be empty.
func (q *Queue) Pop() Event { return heap.Pop(&q.h).(queued).Event }

// Foresee pushes the end of a job that runs from t on site, when Remaining
// says it ends.
func (q *Queue) Foresee(j *runtime.Job, t runtime.Time, site int) {
	left, atRunLimit := Remaining(j)
	q.Push(Event{At: t.Add(left), Kind: End, Site: site, Job: j, AtRunLimit: atRunLimit, Epoch: j.Epoch})
}

// queued is an event and its place in the order of pushes.
type queued struct {
	Event
	seq int
}

type eventHeap []queued

func (h eventHeap) Len() int { return len(h) }
func (h eventHeap) Less(a, b int) bool {
	if h[a].At != h[b].At {
		return h[a].At < h[b].At
	}
	if h[a].Kind != h[b].Kind {
		return h[a].Kind < h[b].Kind
	}
	return h[a].seq < h[b].seq
}
func (h eventHeap) Swap(a, b int) { h[a], h[b] = h[b], h[a] }
func (h *eventHeap) Push(x any)   { *h = append(*h, x.(queued)) }
func (h *eventHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
