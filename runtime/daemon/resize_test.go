package daemon

import (
	"testing"

	"github.com/lsfc/lsfc/runtime"
)

// resizeCluster is one host of 4 slots, a preemptive queue above a
// preemptable one.
func resizeCluster(t *testing.T) *runtime.Cluster {
	t.Helper()
	return clusterOf(t, map[string]string{
		"lsf.cluster.test": "Begin Host\nHOSTNAME model type server RESOURCES\nhostA ! ! 1 ()\nEnd Host\n",
		"lsb.hosts":        "Begin Host\nHOST_NAME MXJ\ndefault 4\nEnd Host\n",
		"lsb.params":       "Begin Parameters\nJOB_ACCEPT_INTERVAL = 0\nEnd Parameters\n",
		"lsb.queues": "Begin Queue\nQUEUE_NAME = high\nPRIORITY = 40\nPREEMPTION = PREEMPTIVE\nEnd Queue\n\n" +
			"Begin Queue\nQUEUE_NAME = low\nPRIORITY = 20\nEnd Queue\n",
	})
}

// TestResizeRecords checks that the records of a grow whose notification
// runs when a preemption takes it back, replayed on a fresh cluster (or
// its snapshot restored), give the allocation the live cluster has, and
// that the notification's end then sends the suspend signal it held
// back.
func TestResizeRecords(t *testing.T) {
	c := resizeCluster(t)
	clock := &runtime.VirtualClock{T: 10}
	e := runtime.NewEngine(c, clock, nil)
	var recs []Record
	submit := func(s runtime.Submission) *runtime.Job {
		j, err := c.Submit(s, clock.T)
		if err != nil {
			t.Fatal(err)
		}
		recs = append(recs, Record{Type: KindNew, At: clock.T, Job: j.ID, Image: ptr(j.Image())})
		return j
	}
	schedule := func() *runtime.Plan {
		p := e.Schedule()
		for _, pr := range p.Preemptions {
			if pr.Revoke || pr.HoldSignal {
				recs = append(recs, Record{Type: KindResizePreempt, At: clock.T, Job: pr.Victim.ID})
			}
			recs = append(recs, Record{Type: KindSuspend, At: clock.T, Job: pr.Victim.ID, Reason: runtime.ReasonPreempted})
		}
		for _, d := range p.Dispatches {
			recs = append(recs, Record{Type: KindStart, At: clock.T, Job: d.Job.ID, Allocs: allocImages(d.Allocs)})
		}
		recs = append(recs, growRecords(p, clock.T)...)
		return p
	}
	filler := submit(runtime.Submission{User: "u", Queue: "low", Slots: 3})
	schedule()
	j := submit(runtime.Submission{User: "u", Queue: "low", Slots: 1, MaxSlots: 4, AutoResize: true, ResizeNotify: "notify"})
	schedule()
	clock.T = 20
	e.Finish(filler, runtime.Done, 0)
	recs = append(recs, Record{Type: KindFinish, At: 20, Job: filler.ID, State: "DONE"})
	if p := schedule(); len(p.Grows) != 1 || j.Slots != 4 || !j.Notifying() {
		t.Fatalf("grows %v: job has %d slots, notifying %v", p.Grows, j.Slots, j.Notifying())
	}
	clock.T = 30
	submit(runtime.Submission{User: "u", Queue: "high", Slots: 4})
	p := schedule()
	if len(p.Preemptions) != 1 || !p.Preemptions[0].Revoke || !p.Preemptions[0].HoldSignal || !p.Unsignalled[j] {
		t.Fatalf("preemptions %+v, unsignalled %v: want job %d's grant revoked and its signal held", p.Preemptions, p.Unsignalled, j.ID)
	}
	if j.Slots != 1 || j.State != runtime.SSusp || c.Host("hostA").Used != 5 {
		t.Fatalf("job %d: %d slots, %s; host uses %d; want 1, SSUSP, 5", j.ID, j.Slots, j.State, c.Host("hostA").Used)
	}

	check := func(what string, r *runtime.Cluster) {
		t.Helper()
		rj := r.Job(j.ID)
		if rj.Slots != j.Slots || rj.State != j.State || len(rj.Allocs) != 1 || rj.Allocs[0].Slots != 1 ||
			rj.Grant() != nil || !rj.Notifying() || r.Host("hostA").Used != c.Host("hostA").Used {
			t.Errorf("%s: job %d has %d slots (%v), %s, grant %v, notifying %v; host uses %d; want as live: %d slots, %s, no grant, notifying, %d",
				what, j.ID, rj.Slots, rj.Allocs, rj.State, rj.Grant(), rj.Notifying(), r.Host("hostA").Used, j.Slots, j.State, c.Host("hostA").Used)
		}
		// The command ends: the suspend signal it held back is due.
		if !r.NotifyDone(rj, 0, 40) {
			t.Errorf("%s: the notification's end does not send the held suspend signal", what)
		}
	}
	payloads, err := encode(recs)
	if err != nil {
		t.Fatal(err)
	}
	r := resizeCluster(t)
	for _, b := range payloads {
		rec, err := decode(b)
		if err != nil {
			t.Fatal(err)
		}
		if w, err := apply(r, rec); err != nil || w != "" {
			t.Fatalf("apply %s: warning %q, error %v", b, w, err)
		}
	}
	snap := []Record{}
	for _, rj := range r.Jobs() {
		snap = append(snap, Record{Type: KindJob, Image: ptr(rj.Image())})
	}
	check("replayed", r)
	s := resizeCluster(t)
	for _, rec := range snap {
		if _, err := apply(s, rec); err != nil {
			t.Fatalf("apply %+v: %v", rec, err)
		}
	}
	check("from a snapshot", s)
}
