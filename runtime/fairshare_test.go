package runtime_test

import (
	"math"
	"slices"
	"testing"

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
	c := compileCluster(t, ar)
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

// TestFairshareDefaultEachUser: USER_SHARES' "default@" is LSF's default
// written as a group@: every user not named gets an account of their own
// with its shares, as with "default".
func TestFairshareDefaultEachUser(t *testing.T) {
	for _, entry := range []string{"default", "default@"} {
		t.Run(entry, func(t *testing.T) {
			ar := txtar.Parse([]byte(`-- lsf.cluster.test --
Begin Host
HOSTNAME  model  type  server  RESOURCES
hostA     !      !     1       ()
End Host
-- lsb.params --
Begin Parameters
JOB_ACCEPT_INTERVAL = 0
End Parameters
-- lsb.queues --
Begin Queue
QUEUE_NAME = fair
PRIORITY   = 30
FAIRSHARE  = USER_SHARES[[userA, 2] [` + entry + `, 1]]
End Queue
`))
			c := compileCluster(t, ar)
			clock := &runtime.VirtualClock{T: 1000}
			e := runtime.NewEngine(c, clock, nil)
			for _, u := range []string{"userA", "zed", "yves"} {
				if _, err := e.Submit(runtime.Submission{User: u, Queue: "fair", Runtime: 3600}); err != nil {
					t.Fatalf("%s: %v", u, err)
				}
			}
			e.Schedule()
			got := map[string]float64{}
			for _, a := range c.ShareAccounts(c.Queue("fair"), clock.T) {
				got[a.Name] = a.Shares
			}
			want := map[string]float64{"userA": 2, "zed": 1, "yves": 1}
			if len(got) != len(want) || got["userA"] != 2 || got["zed"] != 1 || got["yves"] != 1 {
				t.Errorf("accounts %v, want %v", got, want)
			}
		})
	}
}

// TestFairshareTree checks a two-level share tree by hand. The queue gives
// design 2 shares and test 1; design's USER_SHARES give d1 3 and d2 1,
// test's give each member 1. With HIST_HOURS = 0 nothing decays. d1, d2
// and t1 start at 1000; d1 and t1 end at 4600, d2 still runs. Then, in
// hours: design used 2 h of CPU and runs one slot for 1 h, so its priority
// is 2 / (2×0.7 + 1×0.7 + (1+1)×3) = 2/8.1; test used 1 h: 1 / (0.7 + 3).
// Under design, d1: 3 / (0.7 + 3); d2: 1 / (0.7 + 0.7 + 2×3). test is
// ahead of design, so a job of t2 (1/3 under test) goes before one of d1
// (3/3.7), whose own priority is the highest.
func TestFairshareTree(t *testing.T) {
	ar := txtar.Parse([]byte(`-- lsf.cluster.test --
Begin Host
HOSTNAME  model  type  server  RESOURCES
hostA     !      !     1       ()
End Host
-- lsb.hosts --
Begin Host
HOST_NAME  MXJ
default    3
End Host
-- lsb.params --
Begin Parameters
JOB_ACCEPT_INTERVAL = 0
HIST_HOURS = 0
End Parameters
-- lsb.users --
Begin UserGroup
GROUP_NAME  GROUP_MEMBER  USER_SHARES
design      (d1 d2)       ([d1, 3] [d2, 1])
test        (t1 t2)       ([default, 1])
End UserGroup
-- lsb.queues --
Begin Queue
QUEUE_NAME = fair
PRIORITY   = 30
FAIRSHARE  = USER_SHARES[[design, 2] [test, 1]]
End Queue
`))
	c := compileCluster(t, ar)
	clock := &runtime.VirtualClock{T: 1000}
	e := runtime.NewEngine(c, clock, nil)
	jobs := map[string]*runtime.Job{}
	for _, u := range []string{"d1", "d2", "t1"} {
		j, err := e.Submit(runtime.Submission{User: u, Queue: "fair", Runtime: 7200})
		if err != nil {
			t.Fatalf("%s: %v", u, err)
		}
		jobs[u] = j
	}
	e.Schedule()
	clock.T += 3600
	e.Finish(jobs["d1"], runtime.Done, 0)
	e.Finish(jobs["t1"], runtime.Done, 0)

	type row struct {
		path     string
		priority float64
		cpu      float64
		slots    int
	}
	var got []row
	var paths []string
	for _, l := range c.ShareTree(c.Queue("fair"), clock.T) {
		paths = append(paths, l.Path)
		for _, a := range l.Accounts {
			got = append(got, row{a.Path, a.Priority, a.CPUHours, a.Slots})
		}
	}
	want := []row{
		{"test", 1 / 3.7, 1, 0},
		{"design", 2 / 8.1, 2, 1},
		{"test/t1", 1 / 3.7, 1, 0},
		{"design/d1", 3 / 3.7, 1, 0},
		{"design/d2", 1 / 7.4, 1, 1},
	}
	if !slices.Equal(paths, []string{"", "test", "design"}) {
		t.Errorf("levels %q, want the top, test, design", paths)
	}
	if len(got) != len(want) {
		t.Fatalf("accounts %+v, want %+v", got, want)
	}
	for i, w := range want {
		g := got[i]
		if g.path != w.path || math.Abs(g.priority-w.priority) > 1e-9 || math.Abs(g.cpu-w.cpu) > 1e-9 || g.slots != w.slots {
			t.Errorf("account %d: got %+v, want %+v", i, g, w)
		}
	}

	// Two slots are free, room for one of two 2-slot jobs: t2's goes
	// first, though submitted after d1's.
	d1, err := e.Submit(runtime.Submission{User: "d1", Queue: "fair", Runtime: 60, Slots: 2})
	if err != nil {
		t.Fatal(err)
	}
	t2, err := e.Submit(runtime.Submission{User: "t2", Queue: "fair", Runtime: 60, Slots: 2})
	if err != nil {
		t.Fatal(err)
	}
	e.Schedule()
	if t2.State != runtime.Run || d1.State != runtime.Pend {
		t.Errorf("t2 %v, d1 %v; want t2 running, d1 pending", t2.State, d1.State)
	}
}

// TestFairshareLateEnd checks that a job's end dated before the last
// accrual (an execution agent's report of an end the master learns of
// late) counts no stretch of time twice: userB's job, running throughout,
// is counted for the three hours that pass, and userA's for the hour until
// the accrual after which its end was learned of.
func TestFairshareLateEnd(t *testing.T) {
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
-- lsb.queues --
Begin Queue
QUEUE_NAME = fair
PRIORITY   = 30
FAIRSHARE  = USER_SHARES[[default, 1]]
End Queue
`))
	c := compileCluster(t, ar)
	clock := &runtime.VirtualClock{T: 1000}
	e := runtime.NewEngine(c, clock, nil)
	var jobs []*runtime.Job
	for _, u := range []string{"userA", "userB"} {
		j, err := e.Submit(runtime.Submission{User: u, Queue: "fair", Runtime: 36000})
		if err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, j)
	}
	e.Schedule()
	for _, j := range jobs {
		if j.State != runtime.Run {
			t.Fatalf("job %d: %v", j.ID, j.State)
		}
	}
	// An hour on, a cycle accrues; userA's end, learned of then, is
	// dated half an hour before; two more hours pass.
	clock.T += 3600
	e.Schedule()
	if err := c.Finish(jobs[0], runtime.Done, 0, "", clock.T-1800); err != nil {
		t.Fatal(err)
	}
	clock.T += 7200
	e.Schedule()
	want := map[string]float64{"userA": 1, "userB": 3}
	for _, a := range c.ShareAccounts(c.Queue("fair"), clock.T) {
		if w, ok := want[a.Name]; ok && math.Abs(a.CPUHours-w) > 1e-9 {
			t.Errorf("%s: %v h of use, want %v h", a.Name, a.CPUHours, w)
		}
		delete(want, a.Name)
	}
	if len(want) != 0 {
		t.Errorf("no account for %v", want)
	}
}
