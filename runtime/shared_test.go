package runtime_test

import (
	"strings"
	"testing"

	"github.com/lsfc/lsfc/runtime"
)

const sharedPolicy = `-- lsf.shared --
Begin Resource
RESOURCENAME  TYPE     INTERVAL  INCREASING  DESCRIPTION
lic           Numeric  ()        N           (license tokens)
ngpus         Numeric  ()        N           (GPUs)
rack          String   ()        ()          (rack)
End Resource
-- lsf.cluster.test --
Begin Host
HOSTNAME model type server RESOURCES
hostA ! ! 1 ()
hostB ! ! 1 ()
hostC ! ! 1 (ngpus=8)
End Host
Begin ResourceMap
RESOURCENAME  LOCATION
lic           (3@[all ~hostC])
ngpus         (4@[hostA] 2@[hostC])
rack          (r1@[hostA hostB])
End ResourceMap
-- lsb.hosts --
Begin Host
HOST_NAME MXJ
default 4
End Host
-- lsb.queues --
Begin Queue
QUEUE_NAME = normal
PRIORITY = 30
End Queue
`

// TestSharedInstances checks what Shared lists of the ResourceMap (a
// host's RESOURCES value winning over the map's, as in LSF) and that
// what running jobs reserve of a shared instance is the same on all its
// hosts, before and after a reconfiguration.
func TestSharedInstances(t *testing.T) {
	c, err := runtime.NewCluster(policyOf(t, sharedPolicy), runtime.ClusterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range c.Shared() {
		var hosts []string
		for _, h := range s.Hosts {
			hosts = append(hosts, h.Name)
		}
		got = append(got, s.Resource+"="+s.Value+"@"+strings.Join(hosts, ","))
	}
	want := "lic=3@hostA,hostB ngpus=4@hostA ngpus=2@hostC rack=r1@hostA,hostB"
	if strings.Join(got, " ") != want {
		t.Errorf("Shared() = %s, want %s", strings.Join(got, " "), want)
	}
	if x := c.Host("hostC").Facts.Numbers["ngpus"]; x != 8 {
		t.Errorf("hostC's ngpus = %v, want 8, its RESOURCES value", x)
	}
	if s := c.Host("hostB").Facts.Strings["rack"]; s != "r1" {
		t.Errorf("hostB's rack = %q, want r1", s)
	}

	e := runtime.NewEngine(c, &runtime.VirtualClock{T: 100}, nil)
	a, _ := e.Submit(runtime.Submission{User: "u", Queue: "normal", ResReq: "rusage[lic=2]", Hosts: []string{"hostA"}})
	e.Schedule()
	if a.State != runtime.Run {
		t.Fatalf("job is %s", a.State)
	}
	check := func(c *runtime.Cluster, when string) {
		t.Helper()
		for _, name := range []string{"hostA", "hostB"} {
			if r := c.Host(name).Facts.Reserved["lic"]; r != 2 {
				t.Errorf("%s: %s holds %v lic reserved, want 2", when, name, r)
			}
		}
		if r := c.Host("hostC").Facts.Reserved["lic"]; r != 0 {
			t.Errorf("%s: hostC, outside the pool, holds %v lic reserved", when, r)
		}
		if r := c.Shared()[0].Reserved(); r != 2 {
			t.Errorf("%s: the pool holds %v reserved, want 2", when, r)
		}
	}
	check(c, "before reconfig")
	b, _ := e.Submit(runtime.Submission{User: "u", Queue: "normal", ResReq: "rusage[lic=2]", Hosts: []string{"hostB"}})
	e.Schedule()
	if b.State != runtime.Pend || !strings.Contains(b.Reason.String(), "rusage") {
		t.Errorf("a job asking hostB for 2 of the pool's last license is %s: %s", b.State, b.Reason)
	}
	n, _, err := c.Reconfigure(policyOf(t, sharedPolicy), runtime.ClusterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	check(n, "after reconfig")
}
