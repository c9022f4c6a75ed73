package mc_test

import (
	"reflect"
	"testing"

	"github.com/lsfc/lsfc/runtime"
	"github.com/lsfc/lsfc/runtime/mc"
)

// TestCycleForwards runs cycles of the home cluster with the planner as
// their forwarder: a job of a send-jobs queue that no local host takes
// goes to the receive queue with most room, takes no local slot, shows
// PEND with a MultiCluster reason, runs there as host@cluster, and comes
// back pending or suspended.
func TestCycleForwards(t *testing.T) {
	p := policy(t, homeTree)
	c, err := runtime.NewCluster(p, runtime.ClusterOptions{SlotsPerHost: 1})
	if err != nil {
		t.Fatal(err)
	}
	clock := &runtime.VirtualClock{T: 1000}
	e := runtime.NewEngine(c, clock, nil)
	states := []mc.QueueState{
		{Cluster: "away", Queue: "recv", Receives: true, Backlog: 3, Pending: 2},
		{Cluster: "far", Queue: "recv", Receives: true, Backlog: 5, Pending: 3},
	}
	e.Forward = mc.NewPlanner(p, states, map[string]bool{"away": true, "far": true}, mc.Options{})
	var jobs []*runtime.Job
	for range 5 {
		j, err := e.Submit(runtime.Submission{User: "alice", Queue: "send", Slots: 1})
		if err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, j)
	}
	plan := e.Schedule()
	if len(plan.Dispatches) != 1 || plan.Dispatches[0].Job != jobs[0] {
		t.Fatalf("dispatches = %v, want job 1 on hostA", plan.Dispatches)
	}
	var got []string
	for _, f := range plan.Forwards {
		got = append(got, f.Job.String()+" "+f.Queue+"@"+f.Cluster)
	}
	// far has room 2, away room 1: job 2 goes to far; then both have
	// room 1 and far's preference (+2) wins; then only away has room.
	want := []string{"job 2 recv@far", "job 3 recv@far", "job 4 recv@away"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("forwards = %q, want %q", got, want)
	}
	if r := e.Reason(jobs[4]); r != runtime.ReasonMCNoRoom {
		t.Errorf("job 5 reason = %q, want %q", r, runtime.ReasonMCNoRoom)
	}
	j2 := jobs[1]
	if j2.State != runtime.Pend || j2.Remote == nil || j2.Remote.Cluster != "far" || e.Reason(j2) != runtime.ReasonMCSent {
		t.Fatalf("job 2 = %s %+v %q, want PEND forwarded to far", j2.State, j2.Remote, e.Reason(j2))
	}
	if q := c.Queue("send"); q.Pending != 1 || q.Used != 1 {
		t.Errorf("queue send: pending %d used %d, want 1 and 1 (forwarded jobs are neither)", q.Pending, q.Used)
	}
	// A second cycle forwards nothing again and leaves the forwarded jobs.
	e.Forward = mc.NewPlanner(p, states, map[string]bool{"away": false, "far": false}, mc.Options{})
	plan = e.Schedule()
	if len(plan.Forwards) != 0 || len(plan.Dispatches) != 0 {
		t.Errorf("second cycle: forwards %v dispatches %v, want none", plan.Forwards, plan.Dispatches)
	}
	if r := e.Reason(jobs[4]); r != runtime.ReasonMCUnreachable {
		t.Errorf("job 5 reason = %q, want %q", r, runtime.ReasonMCUnreachable)
	}
	// Accepted, then started remotely: RUN on far's host, no local slot.
	if err := c.ForwardAccepted(j2, 77, 1010); err != nil {
		t.Fatal(err)
	}
	if e.Reason(j2) != runtime.ReasonMCRemotePend {
		t.Errorf("accepted job 2 reason = %q", e.Reason(j2))
	}
	if err := c.Hold(j2); err == nil {
		t.Error("bstop of a forwarded job: no error")
	}
	if err := c.RemoteStarted(j2, []string{"farA@far"}, 1020); err != nil {
		t.Fatal(err)
	}
	if j2.State != runtime.Run || !reflect.DeepEqual(j2.HostNames(), []string{"farA@far"}) || c.Queue("send").Used != 1 {
		t.Errorf("started job 2: %s on %v, queue used %d", j2.State, j2.HostNames(), c.Queue("send").Used)
	}
	// Its image comes back as it is, on a cluster rebuilt from the log.
	im := j2.Image()
	c2, _ := runtime.NewCluster(p, runtime.ClusterOptions{SlotsPerHost: 1})
	r2, w, err := c2.Restore(im)
	if err != nil || w != "" {
		t.Fatalf("Restore: %v %q", err, w)
	}
	if r2.State != runtime.Run || r2.Remote == nil || r2.Remote.ID != 77 || c2.Queue("send").Used != 0 {
		t.Errorf("restored job 2: %s %+v used %d", r2.State, r2.Remote, c2.Queue("send").Used)
	}
	if err := c.Finish(j2, runtime.Done, 0, "", 1030); err != nil {
		t.Fatal(err)
	}
	if c.Queue("send").Used != 1 || c.Queue("send").Pending != 1 {
		t.Errorf("after job 2 finished: queue used %d pending %d", c.Queue("send").Used, c.Queue("send").Pending)
	}
	// Job 3 is rejected: it pends again, and the next cycle may forward it.
	j3 := jobs[2]
	if err := c.ForwardReturned(j3, runtime.ReasonMCRejected, false, false); err != nil {
		t.Fatal(err)
	}
	if j3.State != runtime.Pend || j3.Remote != nil || c.Queue("send").Pending != 2 || j3.MCFailures != 0 {
		t.Errorf("returned job 3: %s %+v pending %d failures %d", j3.State, j3.Remote, c.Queue("send").Pending, j3.MCFailures)
	}
	// Job 4 fails to start too often: PSUSP, until bresume.
	j4 := jobs[3]
	if err := c.ForwardReturned(j4, runtime.ReasonMCInitFail, true, true); err != nil {
		t.Fatal(err)
	}
	if j4.State != runtime.PSusp || e.Reason(j4) != runtime.ReasonMCInitFail || j4.MCFailures != 1 {
		t.Errorf("suspended job 4: %s %q failures %d", j4.State, e.Reason(j4), j4.MCFailures)
	}
	if err := c.Release(j4); err != nil || j4.MCFailures != 0 {
		t.Errorf("bresume job 4: %v, failures %d", err, j4.MCFailures)
	}
	// The next cycle forwards jobs 3, 4 (resumed) and 5 to away, which
	// has room for three; killing job 5 there ends it here.
	j5 := jobs[4]
	e.Forward = mc.NewPlanner(p, []mc.QueueState{{Cluster: "away", Queue: "recv", Receives: true, Backlog: 3}},
		map[string]bool{"away": true}, mc.Options{})
	plan = e.Schedule()
	if j5.Remote == nil {
		t.Fatalf("job 5 not forwarded: forwards %v", plan.Forwards)
	}
	if err := c.Kill(j5, 1040); err != nil || j5.State != runtime.Exit {
		t.Errorf("kill of forwarded job 5: %v, %s", err, j5.State)
	}
	if got := c.Forwarded(); !reflect.DeepEqual(got, []*runtime.Job{j3, j4}) {
		t.Errorf("Forwarded() = %v, want jobs 3 and 4", got)
	}
}

func TestLedgerRestore(t *testing.T) {
	l := mc.NewLedger(policy(t, homeTree), 10)
	l.Restore(4, "send", &runtime.Remote{Cluster: "away", Queue: "recv", ID: 9, SentAt: 100, AcceptedAt: 110}, false, 2)
	f, ok := l.Get(4)
	if !ok || f.Stage != mc.Accepted || f.Deadline != 140 || l.Failures(4) != 2 {
		t.Errorf("restored: %+v %v failures %d, want accepted with deadline 140 and 2 failures", f, ok, l.Failures(4))
	}
	if got := l.Overdue(140); !reflect.DeepEqual(got, []int64{4}) {
		t.Errorf("Overdue = %v", got)
	}
	if out, _ := l.Return(4, mc.Recalled); out != mc.Suspend {
		t.Errorf("third failure with LSB_MC_INITFAIL_RETRY=2: %v, want Suspend", out)
	}
}
