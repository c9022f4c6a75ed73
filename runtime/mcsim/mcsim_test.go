package mcsim_test

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/runtime"
	"github.com/lsfc/lsfc/runtime/mcsim"
	"github.com/lsfc/lsfc/runtime/sim"
	"golang.org/x/tools/txtar"
)

func policy(t testing.TB, archive string) *compile.Policy {
	t.Helper()
	tree, opts := testkit.ArchiveTree(t.(*testing.T), txtar.Parse([]byte(archive)), true)
	p, diags := compile.Compile(tree, opts)
	if diags.HasErrors() {
		t.Fatalf("configuration: %v", diags.Err())
	}
	return p
}

const shared = `-- lsf.shared --
Begin Cluster
ClusterName  Servers
east         (emaster)
west         (wmaster)
End Cluster
`

// eastTree has one host of one slot; its queue normal sends to recv@west.
// extra goes into lsf.conf.
func eastTree(extra, queue string) string {
	return shared + `-- lsf.conf --
` + extra + `
-- lsf.cluster.east --
Begin Host
HOSTNAME  model  type  server  RESOURCES
e1        !      !     1       ()
End Host
-- lsb.hosts --
Begin Host
HOST_NAME  MXJ
default    1
End Host
-- lsb.params --
Begin Parameters
JOB_ACCEPT_INTERVAL = 0
MBD_SLEEP_TIME = 10
End Parameters
-- lsb.queues --
Begin Queue
QUEUE_NAME = normal
PRIORITY   = 30
SNDJOBS_TO = recv@west
` + queue + `
End Queue
`
}

// westTree has two hosts of one slot; recv takes east's jobs.
func westTree(queue string) string {
	return shared + `-- lsf.cluster.west --
Begin Host
HOSTNAME  model  type  server  RESOURCES
w1        !      !     1       ()
w2        !      !     1       ()
End Host
-- lsb.hosts --
Begin Host
HOST_NAME  MXJ
default    1
End Host
-- lsb.params --
Begin Parameters
JOB_ACCEPT_INTERVAL = 0
End Parameters
-- lsb.queues --
Begin Queue
QUEUE_NAME   = recv
PRIORITY     = 30
RCVJOBS_FROM = east
` + queue + `
End Queue
`
}

func sites(t *testing.T, trees ...string) []*mcsim.Site {
	t.Helper()
	var out []*mcsim.Site
	for _, tr := range trees {
		p := policy(t, tr)
		c, err := runtime.NewCluster(p, runtime.ClusterOptions{})
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, &mcsim.Site{Policy: p, Cluster: c})
	}
	return out
}

// jobs makes n jobs of east of runtime seconds each, at times at.
func jobs(n int, runtime_ float64, at func(i int) float64, sub runtime.Submission) []mcsim.Job {
	var out []mcsim.Job
	for i := range n {
		s := sub
		s.User, s.Queue, s.Runtime, s.Slots = "u", "normal", runtime_, 1
		out = append(out, mcsim.Job{Job: sim.Job{Submission: s, At: runtime.Time(at(i))}, Site: 0})
	}
	return out
}

func run(t *testing.T, ss []*mcsim.Site, js []mcsim.Job) *mcsim.Result {
	t.Helper()
	res, err := mcsim.Simulate(ss, js, mcsim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Every job ran once, in one cluster, and ended.
	for i, o := range res.Jobs {
		if o.Rejected != nil {
			continue
		}
		if o.Ran == nil || !o.Ran.State.Finished() {
			t.Errorf("job %d never ended (home %s)", i+1, o.Home.State)
		}
		if o.Home.State != o.Ran.State {
			t.Errorf("job %d is %s at home and %s where it ran", i+1, o.Home.State, o.Ran.State)
		}
	}
	return res
}

func TestForwardsWhenFull(t *testing.T) {
	res := run(t, sites(t, eastTree("", ""), westTree("")), jobs(3, 100, func(int) float64 { return 0 }, runtime.Submission{}))
	east, west := res.Sites[0], res.Sites[1]
	if east.Forwarded != 2 || west.Received != 2 || east.RanRemotely != 2 {
		t.Errorf("east forwarded %d (ran remotely %d), west received %d: want 2, 2, 2", east.Forwarded, east.RanRemotely, west.Received)
	}
	at := map[int]int{}
	for _, o := range res.Jobs {
		at[o.RanAt]++
	}
	if at[0] != 1 || at[1] != 2 {
		t.Errorf("jobs ran %v by cluster index, want 1 at east and 2 at west", at)
	}
	for _, o := range res.Jobs {
		if o.RanAt == 1 && (len(o.Home.Remote.Hosts) == 0 || !strings.HasSuffix(o.Home.Remote.Hosts[0], "@west")) {
			t.Errorf("a job run at west shows hosts %v at home", o.Home.Remote.Hosts)
		}
	}
	if west.Utilization <= 0 || east.Utilization <= 0 {
		t.Errorf("utilisation east %g, west %g", east.Utilization, west.Utilization)
	}
}

func TestNoForwardWithRoom(t *testing.T) {
	res := run(t, sites(t, eastTree("", ""), westTree("")), jobs(3, 10, func(i int) float64 { return float64(100 * i) }, runtime.Submission{}))
	if res.Sites[0].Forwarded != 0 || res.Sites[1].Received != 0 {
		t.Errorf("jobs that fit at home were forwarded: %+v", res.Sites)
	}
}

// TestRejected: west's queue refuses a job asking more memory than its
// MEMLIMIT; the job comes back and runs at home once its host is free.
func TestRejected(t *testing.T) {
	res := run(t, sites(t, eastTree("", ""), westTree("MEMLIMIT = 100")), jobs(2, 100, func(int) float64 { return 0 }, runtime.Submission{MemLimit: 500}))
	east := res.Sites[0]
	if east.Returned["rejected"] == 0 || res.Sites[1].Received != 0 || east.RanRemotely != 0 {
		t.Errorf("east: %+v; west received %d", east, res.Sites[1].Received)
	}
	for _, o := range res.Jobs {
		if o.RanAt != 0 {
			t.Errorf("a rejected job ran at cluster %d", o.RanAt)
		}
	}
}

// TestRecalledAndSuspended: west takes jobs but never has room for them
// (a long job holds each host); past MAX_RSCHED_TIME they are recalled,
// and past LSB_MC_INITFAIL_RETRY returns they are suspended at home.
func TestRecalledAndSuspended(t *testing.T) {
	ss := sites(t, eastTree("LSB_MC_INITFAIL_RETRY=1", "MAX_RSCHED_TIME = 2"), westTree(""))
	js := jobs(2, 10, func(int) float64 { return 0 }, runtime.Submission{})
	// Two jobs local to west hold its hosts for a long time.
	for range 2 {
		js = append(js, mcsim.Job{Job: sim.Job{Submission: runtime.Submission{User: "w", Queue: "recv", Slots: 1, Runtime: 10000}}, Site: 1})
	}
	// And one holds east's host.
	js = append(js, mcsim.Job{Job: sim.Job{Submission: runtime.Submission{User: "e", Queue: "normal", Slots: 1, Runtime: 10000}, At: -1}, Site: 0})
	res, err := mcsim.Simulate(ss, js, mcsim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	east := res.Sites[0]
	if east.Returned["recalled"] == 0 || east.Suspended != 2 {
		t.Errorf("east: returned %v, suspended %d: want recalls and both jobs suspended", east.Returned, east.Suspended)
	}
	for _, o := range res.Jobs[:2] {
		if o.Home.State != runtime.PSusp || o.Home.Reason != runtime.ReasonMCInitFail {
			t.Errorf("job %d is %s (%s), want PSUSP for its failed remote starts", o.Home.ID, o.Home.State, o.Home.Reason)
		}
	}
}

func TestDeterministic(t *testing.T) {
	out := func() string {
		res := run(t, sites(t, eastTree("", ""), westTree("")), jobs(40, 37, func(i int) float64 { return float64(7 * i) }, runtime.Submission{}))
		b, _ := json.Marshal(res.Sites)
		return string(b)
	}
	if a, b := out(), out(); a != b {
		t.Errorf("two runs differ:\n%s\n%s", a, b)
	}
}

// TestRequeueOnExit: a job of east that exits with a requeue exit value
// of its queue runs again at home, up to MAX_JOB_REQUEUE times, and is
// then held (PSUSP) as in a simulation of one cluster; its requeues and
// its hold are counted, and the slots of both its runs are in east's
// figures.
func TestRequeueOnExit(t *testing.T) {
	res, err := mcsim.Simulate(sites(t, eastTree("", "REQUEUE_EXIT_VALUES = 3\nMAX_JOB_REQUEUE = 1"), westTree("")),
		jobs(1, 10, func(int) float64 { return 0 }, runtime.Submission{ExitCode: 3}), mcsim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	o := res.Jobs[0]
	j := o.Home
	if j.State != runtime.PSusp || j.Reason != runtime.ReasonRequeueLimit || j.ExitRequeues != 1 {
		t.Errorf("job %s (%s), requeued %d times: want PSUSP at its requeue limit, 1", j.State, j.Reason, j.ExitRequeues)
	}
	want := []sim.RunSpan{{Start: 0, End: 10}, {Start: 10, End: 20}}
	if !slices.Equal(o.EarlierRuns, want) {
		t.Errorf("runs %v, want %v", o.EarlierRuns, want)
	}
	east := res.Sites[0]
	if east.Requeues != 1 || east.Held != 1 || east.SlotSeconds != 20 || east.Unbounded != 0 {
		t.Errorf("east: %d requeues, %d held, %d unbounded, %v slot-seconds: want 1, 1, 0, 20",
			east.Requeues, east.Held, east.Unbounded, east.SlotSeconds)
	}
}

// TestRequeueUnbounded: a job that exits with a requeue exit value on
// every run, with no MAX_JOB_REQUEUE, is ended after
// sim.DefaultMaxRequeues requeues and named in Unbounded; every run's
// slots count.
func TestRequeueUnbounded(t *testing.T) {
	res := run(t, sites(t, eastTree("", "REQUEUE_EXIT_VALUES = 3"), westTree("")),
		jobs(1, 10, func(int) float64 { return 0 }, runtime.Submission{ExitCode: 3}))
	o := res.Jobs[0]
	n := sim.DefaultMaxRequeues
	if o.Home.State != runtime.Exit || o.Home.ExitRequeues != n || len(o.EarlierRuns) != n {
		t.Errorf("job %s, requeued %d times, %d earlier runs: want EXIT, %d, %d", o.Home.State, o.Home.ExitRequeues, len(o.EarlierRuns), n, n)
	}
	if len(res.Unbounded) != 1 || res.Unbounded[0] != o.Home {
		t.Errorf("unbounded %v, want the job", res.Unbounded)
	}
	east := res.Sites[0]
	if east.Requeues != n || east.Unbounded != 1 || east.SlotSeconds != float64(10*(n+1)) {
		t.Errorf("east: %d requeues, %d unbounded, %v slot-seconds: want %d, 1, %d", east.Requeues, east.Unbounded, east.SlotSeconds, n, 10*(n+1))
	}
}
