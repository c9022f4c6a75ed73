package runtime_test

import (
	"testing"

	"github.com/lsfc/lsfc/runtime"
	"golang.org/x/tools/txtar"
)

// resizeConf is one host of 4 slots, one queue.
var resizeConf = txtar.Parse([]byte(`
-- lsf.cluster.test --
Begin Host
HOSTNAME  model  type  server  RESOURCES
hostA     !      !     1       ()
End Host
-- lsb.hosts --
Begin Host
HOST_NAME  MXJ
default    4
End Host
-- lsb.params --
Begin Parameters
JOB_ACCEPT_INTERVAL = 0
MBD_SLEEP_TIME      = 30
End Parameters
-- lsb.queues --
Begin Queue
QUEUE_NAME = normal
PRIORITY   = 30
End Queue
`))

// growing starts job 1 (3 slots) and job 2 (-n 1,4 -ar with a
// notification command), ends job 1 and runs the cycle that grants job 2
// its 3 more slots.
func growing(t *testing.T) (*runtime.Engine, *runtime.VirtualClock, *runtime.Job) {
	t.Helper()
	c := compileCluster(t, resizeConf)
	clock := &runtime.VirtualClock{T: 100}
	e := runtime.NewEngine(c, clock, nil)
	j1, err := e.Submit(runtime.Submission{User: "u", Slots: 3})
	if err != nil {
		t.Fatal(err)
	}
	e.Schedule()
	j2, err := e.Submit(runtime.Submission{User: "u", Slots: 1, MaxSlots: 4, AutoResize: true, ResizeNotify: "notify"})
	if err != nil {
		t.Fatal(err)
	}
	e.Schedule()
	if j2.Slots != 1 {
		t.Fatalf("job 2 started with %d slots, want 1", j2.Slots)
	}
	clock.T = 110
	e.Finish(j1, runtime.Done, 0)
	p := e.Schedule()
	if len(p.Grows) != 1 || j2.Slots != 4 || j2.Grant() == nil || !j2.Notifying() {
		t.Fatalf("grows %v: job 2 has %d slots, grant %v", p.Grows, j2.Slots, j2.Grant())
	}
	return e, clock, j2
}

func TestResizeNotifyFailureRetriesLater(t *testing.T) {
	e, clock, j := growing(t)
	h := e.Cluster.Host("hostA")
	clock.T = 111
	e.NotifyDone(j, 1)
	if j.Slots != 1 || h.Used != 1 || j.Grant() != nil || j.Notifying() {
		t.Fatalf("after a refused grant: job has %d slots, host uses %d, grant %v", j.Slots, h.Used, j.Grant())
	}
	if p := e.Schedule(); len(p.Grows) != 0 || p.Wake != 141 {
		t.Errorf("at 111: grows %v, wake %v; want none, wake at 141 (MBD_SLEEP_TIME later)", p.Grows, p.Wake)
	}
	clock.T = 141
	if p := e.Schedule(); len(p.Grows) != 1 || j.Slots != 4 {
		t.Errorf("at 141: grows %v, job has %d slots; want the 3 slots again", p.Grows, j.Slots)
	}
	clock.T = 142
	e.NotifyDone(j, 2)
	if _, pending := j.PendingResize(); pending || j.AutoResizable() || j.Slots != 1 {
		t.Errorf("after exit code 2: pending request %v, autoresizable %v, %d slots; want none, no, 1", pending, j.AutoResizable(), j.Slots)
	}
}

func TestResizeImageKeepsGrant(t *testing.T) {
	e, _, j := growing(t)
	im := j.Image()
	c := compileCluster(t, resizeConf)
	r, warn, err := c.Restore(im)
	if err != nil || warn != "" {
		t.Fatalf("Restore: %v %q", err, warn)
	}
	h := c.Host("hostA")
	if r.Slots != 4 || h.Used != 4 || r.Grant() == nil || len(r.Grant().Allocs) != 1 || r.Grant().Allocs[0].Slots != 3 || !r.Notifying() {
		t.Fatalf("restored: %d slots, host uses %d, grant %+v", r.Slots, h.Used, r.Grant())
	}
	// The command ends well: the slots are the job's.
	if c.NotifyDone(r, 0, 120); r.Slots != 4 || r.Grant() != nil {
		t.Errorf("after the notification: %d slots, grant %+v", r.Slots, r.Grant())
	}
	if e.Cluster.Host("hostA").Used != 4 {
		t.Errorf("the first cluster's host uses %d slots, want 4", e.Cluster.Host("hostA").Used)
	}
}
