package runtime_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/runtime"
	"golang.org/x/tools/txtar"
)

const explainConf = `
-- lsf.shared --
Begin Cluster
ClusterName
test
End Cluster

Begin Resource
RESOURCENAME  TYPE     INTERVAL  INCREASING  DESCRIPTION
ssd           Boolean  ()        ()          (solid state disk)
End Resource
-- lsf.cluster.test --
Begin Host
HOSTNAME  model  type  server  RESOURCES
hostA     !      !     1       (ssd)
hostB     !      !     1       (ssd)
hostC     !      !     1       ()
hostD     !      !     1       (ssd)
hostE     !      !     1       (ssd)
End Host
-- lsb.hosts --
Begin Host
HOST_NAME  MXJ  JL/U
default    2    ()
hostD      2    1
End Host
-- lsb.params --
Begin Parameters
JOB_ACCEPT_INTERVAL = 0
End Parameters
-- lsb.queues --
Begin Queue
QUEUE_NAME = normal
PRIORITY   = 30
HOSTS      = hostA hostB hostC hostD
End Queue
`

// TestWhyPending checks the per-host reasons of a pending job (bjobs -p
// -l): a host outside the queue, a closed one, one whose select fails, a
// full one, one where the user's JL/U is reached; and the job-level
// reason of a held job.
func TestWhyPending(t *testing.T) {
	tree, opts := testkit.ArchiveTree(t, txtar.Parse([]byte(explainConf)), true)
	p, ds := compile.Compile(tree, opts)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	c, err := runtime.NewCluster(p, runtime.ClusterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	e := runtime.NewEngine(c, &runtime.VirtualClock{T: 1000}, nil)
	submit := func(s runtime.Submission) *runtime.Job {
		t.Helper()
		j, err := e.Submit(s)
		if err != nil {
			t.Fatal(err)
		}
		return j
	}
	// Fill hostA (2 slots) and take hostD's one slot for user1.
	submit(runtime.Submission{User: "user1", Slots: 2, ResReq: "select[ssd] order[-slots]", Queue: "normal"})
	e.Schedule()
	c.SetHostStatus(c.Host("hostB"), runtime.HostClosedAdm)
	submit(runtime.Submission{User: "user1", Slots: 1, ResReq: "select[ssd]", Queue: "normal"})
	e.Schedule()
	j := submit(runtime.Submission{User: "user1", Slots: 1, ResReq: "select[ssd]", Queue: "normal"})
	e.Schedule()
	if j.State != runtime.Pend {
		t.Fatalf("job %d is %s, want PEND", j.ID, j.State)
	}
	why, hosts := e.WhyPending(j)
	if why != runtime.ReasonNone {
		t.Errorf("job-level reason %q, want none", why)
	}
	var got []string
	for _, h := range hosts {
		got = append(got, fmt.Sprintf("%s: %s", h.Host, h.Reason))
	}
	want := []string{
		"hostA: Job slot limit reached",
		"hostB: Closed or not ready to run jobs",
		"hostC: Job's resource requirements not satisfied",
		"hostD: User's job slot limit on the host reached",
		"hostE: Not specified in the queue's HOSTS",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("host reasons:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// The reasons do not change the cluster: the job still pends, and a
	// cycle gives it the slots reason.
	if p := e.Schedule(); len(p.Dispatches) != 0 || p.Reason(j) == runtime.ReasonNone {
		t.Errorf("after WhyPending: %d dispatched, reason %q", len(p.Dispatches), p.Reason(j))
	}
	// A held job: the job-level reason.
	if err := c.Hold(j); err != nil {
		t.Fatal(err)
	}
	if why, _ := e.WhyPending(j); why != runtime.ReasonHeld {
		t.Errorf("held job: reason %q, want %q", why, runtime.ReasonHeld)
	}
}

// TestLoadUnavailable: a host that reports no load (a host of the
// configuration no agent stands for) fails a select on a load index with
// LSF's "Load information unavailable", and one that reports it fails
// with "Job's resource requirements not satisfied".
func TestLoadUnavailable(t *testing.T) {
	p := policyOf(t, `-- lsf.cluster.test --
Begin Host
HOSTNAME model type server RESOURCES
hostA ! ! 1 ()
hostB ! ! 1 ()
End Host
-- lsb.queues --
Begin Queue
QUEUE_NAME = normal
PRIORITY = 30
End Queue
`)
	c, err := runtime.NewCluster(p, runtime.ClusterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c.SetLoad(c.Host("hostA"), map[string]float64{"mem": 4000, "r15s": 0.1})
	e := runtime.NewEngine(c, &runtime.VirtualClock{T: 1}, nil)
	j, err := e.Submit(runtime.Submission{User: "u", Queue: "normal", ResReq: "select[mem>100000]"})
	if err != nil {
		t.Fatal(err)
	}
	e.Schedule()
	why, hosts := e.WhyPending(j)
	var got []string
	for _, h := range hosts {
		got = append(got, h.Host+": "+h.Reason.String())
	}
	want := []string{"hostA: Job's resource requirements not satisfied", "hostB: Load information unavailable"}
	if why != runtime.ReasonNone || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("job reason %q, hosts:\n%s\nwant none and:\n%s", why, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
