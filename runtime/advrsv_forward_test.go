package runtime_test

import (
	"testing"

	"github.com/lsfc/lsfc/runtime"
)

// offers is a Forwarder that takes every job it is offered.
type offers struct{ got []*runtime.Job }

func (o *offers) Forward(j *runtime.Job) (runtime.Forward, runtime.Reason) {
	o.got = append(o.got, j)
	return runtime.Forward{Cluster: "peer", Queue: "recv"}, runtime.ReasonNone
}

// TestRsvJobNotForwarded: a job of an advance reservation waits for its
// reservation's slots here; it is not sent to another cluster, where it
// would run outside the reservation.
func TestRsvJobNotForwarded(t *testing.T) {
	p := policyOf(t, `-- lsf.shared --
Begin Cluster
ClusterName Servers
test (hostA)
peer (peerhost)
End Cluster
-- lsf.cluster.test --
Begin Host
HOSTNAME model type server RESOURCES
hostA ! ! 1 ()
End Host
-- lsb.hosts --
Begin Host
HOST_NAME MXJ
default 1
End Host
-- lsb.params --
Begin Parameters
JOB_ACCEPT_INTERVAL = 0
End Parameters
-- lsb.queues --
Begin Queue
QUEUE_NAME = send
PRIORITY = 30
SNDJOBS_TO = recv@peer
End Queue
`)
	c, err := runtime.NewCluster(p, runtime.ClusterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c.PutAdvRsv(runtime.AdvRsv{ID: "u#0", Creator: "admin", Users: []string{"u"}, Begin: 100, End: 200,
		Hosts: []runtime.RsvSlots{{Host: "hostA", Slots: 1}}})
	clock := &runtime.VirtualClock{T: 150}
	f := &offers{}
	e := runtime.NewEngine(c, clock, nil)
	e.Forward = f
	first, err := e.Submit(runtime.Submission{User: "u", Queue: "send", Reservation: "u#0", Command: "true"})
	if err != nil {
		t.Fatal(err)
	}
	second, err := e.Submit(runtime.Submission{User: "u", Queue: "send", Reservation: "u#0", Command: "true"})
	if err != nil {
		t.Fatal(err)
	}
	e.Schedule()
	if first.State != runtime.Run {
		t.Fatalf("first job %s, want RUN", first.State)
	}
	for _, j := range f.got {
		if j == second {
			t.Errorf("job %d of reservation u#0 was offered to another cluster", j.ID)
		}
	}
}
