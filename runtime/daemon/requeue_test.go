package daemon

import (
	"testing"

	"github.com/lsfc/lsfc/runtime"
)

// TestBrequeueRecords replays brequeue records: a finished job pends
// again at once (held with PSUSP), a started one keeps running, marked,
// until the requeue and hold records of its end; a snapshot of the marked
// job keeps the mark.
func TestBrequeueRecords(t *testing.T) {
	hosts := "Begin Host\nHOSTNAME model type server RESOURCES\nhostA ! ! 1 ()\nEnd Host\n"
	queues := "Begin Queue\nQUEUE_NAME = normal\nPRIORITY = 30\nEnd Queue\n"
	image := func(id int64) *runtime.JobImage {
		return &runtime.JobImage{ID: id, Sub: runtime.Submission{User: "u", Queue: "normal", Slots: 1, Command: "true"}, Submit: 1, State: runtime.Pend}
	}
	on := []runtime.AllocImage{{Host: "hostA", Slots: 1}}
	c := clusterOf(t, map[string]string{"lsf.cluster.test": hosts, "lsb.queues": queues})
	for _, r := range []Record{
		{Type: KindNew, At: 1, Job: 1, Image: image(1)},
		{Type: KindNew, At: 1, Job: 2, Image: image(2)},
		{Type: KindNew, At: 1, Job: 3, Image: image(3)},
		{Type: KindStart, At: 2, Job: 1, Allocs: on},
		{Type: KindFinish, At: 3, Job: 1, State: "EXIT", Code: 4},
		{Type: KindStart, At: 4, Job: 2, Allocs: on},
		{Type: KindFinish, At: 5, Job: 2, State: "DONE"},
		{Type: KindStart, At: 6, Job: 3, Allocs: on},
		{Type: KindBrequeue, At: 7, Job: 1, State: "PSUSP"},
		{Type: KindBrequeue, At: 7, Job: 2, State: "PEND"},
		{Type: KindBrequeue, At: 8, Job: 3, Term: termRequeueOwner, State: "PSUSP"},
	} {
		if w, err := apply(c, r); err != nil || w != "" {
			t.Fatalf("apply %s of job %d: %v %q", r.Type, r.Job, err, w)
		}
	}
	if j := c.Job(1); j.State != runtime.PSusp || j.ExitCode != 0 || j.End != 0 {
		t.Errorf("job 1, EXIT requeued held: %s, exit code %d, end %v; want PSUSP, 0, 0", j.State, j.ExitCode, j.End)
	}
	if j := c.Job(2); j.State != runtime.Pend {
		t.Errorf("job 2, DONE requeued: %s, want PEND", j.State)
	}
	j := c.Job(3)
	if j.State != runtime.Run || j.Term != termRequeueOwner || !j.RequeueHold {
		t.Fatalf("job 3, requeued running: %s, term %q, hold %v; want RUN, %s, true", j.State, j.Term, j.RequeueHold, termRequeueOwner)
	}
	snap := clusterOf(t, map[string]string{"lsf.cluster.test": hosts, "lsb.queues": queues})
	im := j.Image()
	if w, err := apply(snap, Record{Type: KindJob, Image: &im}); err != nil || w != "" {
		t.Fatalf("snapshot of job 3: %v %q", err, w)
	}
	if k := snap.Job(3); k.Term != termRequeueOwner || !k.RequeueHold {
		t.Errorf("job 3 from a snapshot: term %q, hold %v; want %s, true", k.Term, k.RequeueHold, termRequeueOwner)
	}
	for _, r := range []Record{{Type: KindRequeue, At: 9, Job: 3}, {Type: KindHold, Job: 3}} {
		if w, err := apply(c, r); err != nil || w != "" {
			t.Fatalf("apply %s of job 3: %v %q", r.Type, err, w)
		}
	}
	if j.State != runtime.PSusp || j.Term != "" || j.RequeueHold {
		t.Errorf("job 3 once ended: %s, term %q, hold %v; want PSUSP, no term, no mark", j.State, j.Term, j.RequeueHold)
	}
	// A brequeue of a pending job is no record the daemon writes.
	if _, err := apply(c, Record{Type: KindBrequeue, At: 10, Job: 2, State: "PEND"}); err == nil {
		t.Error("brequeue record of a pending job: no error")
	}
}
