package runtime_test

import (
	"testing"

	"github.com/lsfc/lsfc/runtime"
)

// TestSetFactsMXJ: a host whose MXJ is "!" takes as many jobs as the CPUs
// its agent reports, not the master's; a fixed MXJ stays.
func TestSetFactsMXJ(t *testing.T) {
	p := policyOf(t, `-- lsf.cluster.test --
Begin Host
HOSTNAME model type server RESOURCES
hostA ! ! 1 ()
hostB ! ! 1 ()
End Host
-- lsb.hosts --
Begin Host
HOST_NAME MXJ
hostA     !
hostB     2
End Host
-- lsb.params --
Begin Parameters
JOB_ACCEPT_INTERVAL = 0
End Parameters
-- lsb.queues --
Begin Queue
QUEUE_NAME = normal
PRIORITY = 30
End Queue
`)
	c, err := runtime.NewCluster(p, runtime.ClusterOptions{SlotsPerHost: 16})
	if err != nil {
		t.Fatal(err)
	}
	a, b := c.Host("hostA"), c.Host("hostB")
	if a.MaxSlots != 16 || b.MaxSlots != 2 {
		t.Fatalf("before the agents report: MXJ %d and %d, want 16 (this machine's CPUs) and 2", a.MaxSlots, b.MaxSlots)
	}
	c.SetFacts(a, "X86_64", "m", 3, 1024, 0, 0)
	c.SetFacts(b, "X86_64", "m", 3, 1024, 0, 0)
	if a.MaxSlots != 3 || b.MaxSlots != 2 {
		t.Fatalf("after the agents report 3 CPUs: MXJ %d and %d, want 3 and 2", a.MaxSlots, b.MaxSlots)
	}
	e := runtime.NewEngine(c, &runtime.VirtualClock{T: 1}, nil)
	for range 4 {
		if _, err := e.Submit(runtime.Submission{User: "u", Queue: "normal", Hosts: []string{"hostA"}}); err != nil {
			t.Fatal(err)
		}
	}
	e.Schedule()
	if n := len(a.Jobs()); n != 3 {
		t.Errorf("hostA runs %d jobs, want 3", n)
	}
}
