package runtime_test

import (
	"math"
	"testing"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/runtime"
	"golang.org/x/tools/txtar"
)

// TestFairshareAccounts checks how users map to share accounts (their own
// entry, group@ for each member, a group's shares held together, others)
// and the dynamic priority, by hand: with HIST_HOURS = 0 nothing decays,
// so after userA ran one slot for an hour its priority is 2 / (1 h × 0.7
// + (1 + 0) × 3).
func TestFairshareAccounts(t *testing.T) {
	ar := txtar.Parse([]byte(`-- lsf.cluster.test --
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
HIST_HOURS = 0
End Parameters
-- lsb.users --
Begin UserGroup
GROUP_NAME  GROUP_MEMBER
each        (u1 u2)
team        (u3 u4)
End UserGroup
-- lsb.queues --
Begin Queue
QUEUE_NAME = fair
PRIORITY   = 30
FAIRSHARE  = USER_SHARES[[userA, 2] [each@, 1] [team, 3] [others, 1]]
End Queue
`))
	tree, opts := testkit.ArchiveTree(t, ar, true)
	p, diags := compile.Compile(tree, opts)
	if diags.HasErrors() {
		t.Fatal(diags.Err())
	}
	c, err := runtime.NewCluster(p, runtime.ClusterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	clock := &runtime.VirtualClock{T: 1000}
	e := runtime.NewEngine(c, clock, nil)
	var first *runtime.Job
	for _, u := range []string{"userA", "u1", "u2", "u3", "u4", "zed", "yves"} {
		j, err := e.Submit(runtime.Submission{User: u, Queue: "fair", Runtime: 3600})
		if err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		if first == nil {
			first = j
		}
	}
	e.Schedule()
	// Everyone but userA finishes at once; userA's job, at 3600.
	for _, j := range c.Jobs() {
		if j != first && j.State == runtime.Run {
			e.Finish(j, runtime.Done, 0)
		}
	}
	clock.T += 3600
	e.Finish(first, runtime.Done, 0)
	e.Schedule()
	got := map[string]runtime.ShareAccount{}
	for _, a := range c.ShareAccounts(c.Queue("fair"), clock.T) {
		got[a.Name] = a
	}
	want := map[string]float64{"userA": 2, "u1": 1, "u2": 1, "team": 3, "others": 1}
	if len(got) != len(want) {
		t.Fatalf("accounts %v, want %v", got, want)
	}
	for name, shares := range want {
		if got[name].Shares != shares {
			t.Errorf("account %s: %v shares, want %v", name, got[name].Shares, shares)
		}
	}
	if a := got["userA"]; math.Abs(a.CPUHours-1) > 1e-9 || math.Abs(a.Priority-2/(0.7+3)) > 1e-9 {
		t.Errorf("userA: cpu %v h, priority %v; want 1 h, %v", a.CPUHours, a.Priority, 2/(0.7+3))
	}
	if a := got["team"]; a.CPUHours != 0 || a.Priority != 1 {
		t.Errorf("team: cpu %v h, priority %v; want 0, 3/3", a.CPUHours, a.Priority)
	}
}
