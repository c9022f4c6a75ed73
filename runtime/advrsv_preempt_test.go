package runtime_test

import (
	"testing"

	"github.com/lsfc/lsfc/runtime"
)

// TestRsvEndNotPreempted: a job of a closed reservation that ends is
// killed with it; the same cycle does not also take it as a preemption
// victim, which would finish it twice.
func TestRsvEndNotPreempted(t *testing.T) {
	p := policyOf(t, `-- lsf.cluster.test --
Begin Host
HOSTNAME model type server RESOURCES
hostA ! ! 1 ()
End Host
-- lsb.hosts --
Begin Host
HOST_NAME MXJ EXIT_RATE
default 1 5
End Host
-- lsb.params --
Begin Parameters
JOB_ACCEPT_INTERVAL = 0
End Parameters
-- lsb.queues --
Begin Queue
QUEUE_NAME = high
PRIORITY = 40
PREEMPTION = PREEMPTIVE
End Queue

Begin Queue
QUEUE_NAME = low
PRIORITY = 20
TERMINATE_WHEN = PREEMPT
End Queue
`)
	c, err := runtime.NewCluster(p, runtime.ClusterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c.PutAdvRsv(runtime.AdvRsv{ID: "u#0", Creator: "admin", Users: []string{"u"}, Begin: 100, End: 200,
		Hosts: []runtime.RsvSlots{{Host: "hostA", Slots: 1}}})
	clock := &runtime.VirtualClock{T: 150}
	e := runtime.NewEngine(c, clock, nil)
	in, err := e.Submit(runtime.Submission{User: "u", Queue: "low", Reservation: "u#0"})
	if err != nil {
		t.Fatal(err)
	}
	e.Schedule()
	if in.State != runtime.Run {
		t.Fatalf("reservation job %s, want RUN", in.State)
	}
	clock.T = 250
	if _, err := e.Submit(runtime.Submission{User: "v", Queue: "high"}); err != nil {
		t.Fatal(err)
	}
	p2 := e.Schedule()
	for _, pr := range p2.Preemptions {
		if pr.Victim == in {
			t.Errorf("job %d, killed as its reservation ended, is also a preemption victim", in.ID)
		}
	}
	if in.State != runtime.Exit || in.Term != runtime.TermRsvEnd {
		t.Errorf("reservation job %s %s, want EXIT by %s", in.State, in.Term, runtime.TermRsvEnd)
	}
}
