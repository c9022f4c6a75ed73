package runtime_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/runtime"
	"golang.org/x/tools/txtar"
)

func policyOf(t *testing.T, text string) *compile.Policy {
	t.Helper()
	tree, opts := testkit.ArchiveTree(t, txtar.Parse([]byte(text)), true)
	p, diags := compile.Compile(tree, opts)
	if diags.HasErrors() {
		t.Fatal(diags.Err())
	}
	return p
}

// TestReconfigure swaps a configuration under running and pending jobs:
// a running job on a host that is gone keeps running there (the host
// closed), a pending job whose queue is gone moves to lost_and_found, a
// pending job of a changed queue is taken by its new settings, and the
// operators' states and job numbers carry over.
func TestReconfigure(t *testing.T) {
	old := policyOf(t, `-- lsf.cluster.test --
Begin Host
HOSTNAME model type server RESOURCES
hostA ! ! 1 ()
hostB ! ! 1 ()
End Host
-- lsb.hosts --
Begin Host
HOST_NAME MXJ
default 1
End Host
-- lsb.queues --
Begin Queue
QUEUE_NAME = normal
PRIORITY = 30
End Queue

Begin Queue
QUEUE_NAME = old
PRIORITY = 20
End Queue
`)
	c, err := runtime.NewCluster(old, runtime.ClusterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	clock := &runtime.VirtualClock{T: 100}
	e := runtime.NewEngine(c, clock, nil)
	onB, _ := e.Submit(runtime.Submission{User: "u", Queue: "normal", Hosts: []string{"hostB"}, RunLimit: 600})
	e.Schedule()
	if onB.State != runtime.Run {
		t.Fatalf("job on hostB is %s", onB.State)
	}
	lost, _ := e.Submit(runtime.Submission{User: "u", Queue: "old", Hold: true})
	waiting, _ := e.Submit(runtime.Submission{User: "u", Queue: "normal", Hold: true})
	c.SetQueueActive(c.Queue("normal"), false)

	newer := policyOf(t, `-- lsf.cluster.test --
Begin Host
HOSTNAME model type server RESOURCES
hostA ! ! 1 ()
hostC ! ! 1 ()
End Host
-- lsb.hosts --
Begin Host
HOST_NAME MXJ
default 2
End Host
-- lsb.queues --
Begin Queue
QUEUE_NAME = normal
PRIORITY = 30
RUNLIMIT = 5
End Queue
`)
	n, warnings, err := c.Reconfigure(newer, runtime.ClusterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 1 {
		t.Errorf("warnings %q, want the one of the job moved to lost_and_found", warnings)
	}
	run := n.Job(onB.ID)
	if run.State != runtime.Run || run.Allocs[0].Host.Name != "hostB" || run.RunLimit != 600 {
		t.Errorf("running job: %s on %v with run limit %v", run.State, run.HostNames(), run.RunLimit)
	}
	if h := n.Host("hostB"); h == nil || !h.Retired || h.Status != runtime.HostClosedAdm {
		t.Errorf("hostB after reconfig: %+v", h)
	}
	n.SetHostStatus(n.Host("hostB"), runtime.HostOK)
	if n.Host("hostB").Status != runtime.HostClosedAdm {
		t.Error("a retired host was opened")
	}
	if j := n.Job(lost.ID); j.Queue.Name != runtime.LostAndFound || j.State != runtime.PSusp {
		t.Errorf("job of the removed queue: %s in %s", j.State, j.Queue.Name)
	}
	if j := n.Job(waiting.ID); j.RunLimit != 300 {
		t.Errorf("pending job's run limit %v, want the new queue's 300", j.RunLimit)
	}
	if q := n.Queue("normal"); q.Active {
		t.Error("queue normal was inactive and is active after reconfig")
	}
	if next, _ := runtime.NewEngine(n, clock, nil).Submit(runtime.Submission{User: "u", Queue: "normal"}); next.ID != waiting.ID+1 {
		t.Errorf("next job number %d, want %d", next.ID, waiting.ID+1)
	}
	// The old cluster is untouched.
	if c.Job(lost.ID).Queue.Name != "old" {
		t.Error("the old cluster changed")
	}
}

// TestSwitchPreempted moves a preempted job to another queue: it stays
// preempted, its slots now counted as the new queue's (so that a queue
// that may preempt the old queue but not the new one finds no slot), and
// it resumes and ends as before.
func TestSwitchPreempted(t *testing.T) {
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
QUEUE_NAME = mid
PRIORITY = 30
PREEMPTION = PREEMPTIVE[low]
End Queue

Begin Queue
QUEUE_NAME = low
PRIORITY = 20
End Queue

Begin Queue
QUEUE_NAME = other
PRIORITY = 10
End Queue
`)
	c, err := runtime.NewCluster(p, runtime.ClusterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	clock := &runtime.VirtualClock{T: 100}
	e := runtime.NewEngine(c, clock, nil)
	low, _ := e.Submit(runtime.Submission{User: "u", Queue: "low"})
	e.Schedule()
	clock.T++
	high, _ := e.Submit(runtime.Submission{User: "u", Queue: "high"})
	e.Schedule()
	if low.State != runtime.SSusp || low.Reason != runtime.ReasonPreempted || high.State != runtime.Run {
		t.Fatalf("low %s (%s), high %s", low.State, low.Reason, high.State)
	}
	if err := c.Switch(low, "other", clock.T); err != nil {
		t.Fatal(err)
	}
	if low.State != runtime.SSusp || low.Queue.Name != "other" {
		t.Fatalf("after the switch: %s in %s", low.State, low.Queue.Name)
	}
	clock.T++
	e.Finish(high, runtime.Done, 0)
	e.Schedule()
	if low.State != runtime.Run {
		t.Fatalf("the preempted job did not resume after the switch: %s (%s)", low.State, low.Reason)
	}
	// mid may preempt low but not other: with low's job now in other,
	// there is no slot for it.
	mid, _ := e.Submit(runtime.Submission{User: "u", Queue: "mid"})
	e.Schedule()
	if mid.State != runtime.Pend {
		t.Fatalf("a job of mid started on hostA's only slot, held by the job switched to other: %s", mid.State)
	}
	e.Finish(low, runtime.Done, 0)
	e.Finish(mid, runtime.Exit, 1)
	if h := c.Host("hostA"); h.Used != 0 || len(h.Jobs()) != 0 {
		t.Errorf("hostA holds %d slots, %d jobs after both ended", h.Used, len(h.Jobs()))
	}
}

// TestAskedHostRemoved: a pending job that asked for a host (-m) which a
// reconfiguration removed waits; it does not run on another host.
func TestAskedHostRemoved(t *testing.T) {
	conf := func(hosts string) *compile.Policy {
		return policyOf(t, `-- lsf.cluster.test --
Begin Host
HOSTNAME model type server RESOURCES
`+hosts+`End Host
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
	}
	c, err := runtime.NewCluster(conf("hostA ! ! 1 ()\nhostB ! ! 1 ()\n"), runtime.ClusterOptions{SlotsPerHost: 1})
	if err != nil {
		t.Fatal(err)
	}
	c.SetHostStatus(c.Host("hostB"), runtime.HostClosedAdm)
	e := runtime.NewEngine(c, &runtime.VirtualClock{T: 1}, nil)
	j, err := e.Submit(runtime.Submission{User: "u", Queue: "normal", Hosts: []string{"hostB"}})
	if err != nil {
		t.Fatal(err)
	}
	e.Schedule()
	if j.State != runtime.Pend {
		t.Fatalf("job on a closed host is %s", j.State)
	}
	n, _, err := c.Reconfigure(conf("hostA ! ! 1 ()\n"), runtime.ClusterOptions{SlotsPerHost: 1})
	if err != nil {
		t.Fatal(err)
	}
	runtime.NewEngine(n, &runtime.VirtualClock{T: 2}, nil).Schedule()
	if j := n.Job(j.ID); j.State != runtime.Pend {
		t.Errorf("the job whose -m host was removed is %s on %v, want PEND", j.State, j.HostNames())
	}
}

// reconfigPolicy has four hosts of one slot and queues that preempt.
const reconfigPolicy = `-- lsf.cluster.test --
Begin Host
HOSTNAME model type server RESOURCES
hostA ! ! 1 ()
hostB ! ! 1 ()
hostC ! ! 1 ()
hostD ! ! 1 ()
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
QUEUE_NAME = normal
PRIORITY = 30
End Queue

Begin Queue
QUEUE_NAME = old
PRIORITY = 20
End Queue
`

// jobsInEveryState fills a cluster of reconfigPolicy with a job in each
// state: DONE and EXIT (with their usage), RUN, USUSP, SSUSP (preempted),
// UNKWN, PEND and PSUSP; "old" jobs are those of queue old.
func jobsInEveryState(t *testing.T, c *runtime.Cluster) (e *runtime.Engine, old map[string]*runtime.Job) {
	t.Helper()
	clock := &runtime.VirtualClock{T: 100}
	e = runtime.NewEngine(c, clock, nil)
	sub := func(queue string, s runtime.Submission) *runtime.Job {
		s.User, s.Queue = "u", queue
		j, err := e.Submit(s)
		if err != nil {
			t.Fatal(err)
		}
		return j
	}
	done := sub("normal", runtime.Submission{Hosts: []string{"hostA"}})
	exited := sub("old", runtime.Submission{Hosts: []string{"hostB"}})
	e.Schedule()
	clock.T += 10
	c.RecordUsage(done, 3, 40)
	e.Finish(done, runtime.Done, 0)
	e.Finish(exited, runtime.Exit, 3)
	clock.T++
	run := sub("old", runtime.Submission{Hosts: []string{"hostA"}, RunLimit: 600})
	ususp := sub("normal", runtime.Submission{Hosts: []string{"hostC"}})
	unknown := sub("normal", runtime.Submission{Hosts: []string{"hostD"}})
	ssusp := sub("old", runtime.Submission{Hosts: []string{"hostB"}})
	e.Schedule()
	clock.T++
	if err := c.Suspend(ususp, runtime.ReasonNone, clock.T); err != nil {
		t.Fatal(err)
	}
	c.SetExternalStatus(run, "halfway")
	preemptor := sub("high", runtime.Submission{Hosts: []string{"hostB"}})
	e.Schedule()
	clock.T++
	pend := sub("old", runtime.Submission{Hosts: []string{"hostB"}})
	held := sub("normal", runtime.Submission{Hold: true})
	e.Schedule()
	c.SetHostDown(c.Host("hostD"), runtime.HostUnavail)
	for j, want := range map[*runtime.Job]runtime.JobState{done: runtime.Done, exited: runtime.Exit, run: runtime.Run,
		ususp: runtime.USusp, ssusp: runtime.SSusp, unknown: runtime.Unknown, preemptor: runtime.Run,
		pend: runtime.Pend, held: runtime.PSusp} {
		if j.State != want {
			t.Fatalf("job %d is %s, want %s", j.ID, j.State, want)
		}
	}
	return e, map[string]*runtime.Job{"EXIT": exited, "RUN": run, "SSUSP": ssusp, "PEND": pend}
}

// TestReconfigureKeepsJobs: a reconfiguration that changes nothing keeps
// every job as it was, field by field, finished ones included (their
// execution hosts above all), the UNKWN state of jobs on a host whose
// agent is silent, and the exits that count towards exit rates.
func TestReconfigureKeepsJobs(t *testing.T) {
	p := policyOf(t, reconfigPolicy)
	c, err := runtime.NewCluster(p, runtime.ClusterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	jobsInEveryState(t, c)
	n, warnings, err := c.Reconfigure(policyOf(t, reconfigPolicy), runtime.ClusterOptions{})
	if err != nil || len(warnings) > 0 {
		t.Fatalf("reconfig: %v %q", err, warnings)
	}
	for _, j := range c.Jobs() {
		nj := n.Job(j.ID)
		if nj == nil {
			t.Errorf("job %d is gone", j.ID)
			continue
		}
		if want, got := j.Image(), nj.Image(); !reflect.DeepEqual(want, got) {
			t.Errorf("job %d (%s) after reconfig:\nwant %+v\n got %+v", j.ID, j.State, want, got)
		}
		if want, got := strings.Join(j.HostNames(), " "), strings.Join(nj.HostNames(), " "); want != got || want == "" && !j.State.Pending() {
			t.Errorf("job %d (%s) ran on %q, after reconfig on %q", j.ID, j.State, want, got)
		}
		if nj.State != j.State || nj.Queue.Name != j.Queue.Name {
			t.Errorf("job %d: %s in %s, after reconfig %s in %s", j.ID, j.State, j.Queue.Name, nj.State, nj.Queue.Name)
		}
	}
	for _, name := range []string{"hostA", "hostB", "hostC", "hostD"} {
		h, nh := c.Host(name), n.Host(name)
		if h.Used != nh.Used || h.Down != nh.Down || len(h.Jobs()) != len(nh.Jobs()) {
			t.Errorf("%s: %d slots, %d jobs, %s; after reconfig %d, %d, %s", name, h.Used, len(h.Jobs()), h.Down,
				nh.Used, len(nh.Jobs()), nh.Down)
		}
		if rate, nrate := c.ExitRateLoad(h, 120), n.ExitRateLoad(nh, 120); rate != nrate {
			t.Errorf("%s: exit rate %g, after reconfig %g", name, rate, nrate)
		}
	}
	if c.ExitRateLoad(c.Host("hostB"), 120) == 0 {
		t.Error("the job that exited on hostB does not count towards its exit rate")
	}
}

// TestReconfigureQueueGone: removing a queue moves its pending jobs to
// lost_and_found; its started jobs keep running under its name, and its
// finished ones keep it too. A later reconfiguration moves nothing and
// says nothing, and a job of the removed queue that is requeued waits in
// lost_and_found.
func TestReconfigureQueueGone(t *testing.T) {
	c, err := runtime.NewCluster(policyOf(t, reconfigPolicy), runtime.ClusterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, old := jobsInEveryState(t, c)
	without := strings.Replace(reconfigPolicy, "Begin Queue\nQUEUE_NAME = old\nPRIORITY = 20\nEnd Queue\n", "", 1)
	n, warnings, err := c.Reconfigure(policyOf(t, without), runtime.ClusterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{fmt.Sprintf("job %d: queue old is gone: job moved to lost_and_found", old["PEND"].ID)}; !reflect.DeepEqual(warnings, want) {
		t.Errorf("warnings %q, want %q", warnings, want)
	}
	for state, j := range old {
		want := "old"
		if state == "PEND" {
			want = runtime.LostAndFound
		}
		if nj := n.Job(j.ID); nj.Queue.Name != want || nj.State != j.State {
			t.Errorf("%s job %d: %s in %s, want %s in %s", state, j.ID, nj.State, nj.Queue.Name, j.State, want)
		}
	}
	if n.Queue("old") != nil {
		t.Error("the removed queue is still found by name")
	}
	if q := n.Queue(runtime.LostAndFound); q == nil || q.Open || q.Active || q.Pending != 1 {
		t.Errorf("lost_and_found: %+v", q)
	}
	again, warnings, err := n.Reconfigure(policyOf(t, without), runtime.ClusterOptions{})
	if err != nil || len(warnings) > 0 {
		t.Errorf("second reconfig: %v %q", err, warnings)
	}
	for state, j := range old {
		if a, b := n.Job(j.ID), again.Job(j.ID); a.Queue.Name != b.Queue.Name || a.State != b.State {
			t.Errorf("%s job %d: %s in %s, after a second reconfig %s in %s", state, j.ID, a.State, a.Queue.Name, b.State, b.Queue.Name)
		}
	}
	run := again.Job(old["RUN"].ID)
	if err := again.Requeue(run, 200); err != nil {
		t.Fatal(err)
	}
	if run.State != runtime.Pend || run.Queue.Name != runtime.LostAndFound {
		t.Errorf("requeued job of the removed queue: %s in %s", run.State, run.Queue.Name)
	}
}

// TestReconfigureKeepsAgentFacts: what a host's agent reported where the
// configuration is silent (its type, its CPUs, which give MXJ "!" its
// slots) holds across a reconfiguration; what the new configuration says
// wins.
func TestReconfigureKeepsAgentFacts(t *testing.T) {
	conf := func(typ string) string {
		return `-- lsf.cluster.test --
Begin Host
HOSTNAME model type server RESOURCES
hostA ! ` + typ + ` 1 ()
End Host
-- lsb.hosts --
Begin Host
HOST_NAME MXJ
default !
End Host
`
	}
	c, err := runtime.NewCluster(policyOf(t, conf("!")), runtime.ClusterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c.SetFacts(c.Host("hostA"), "LINUX64", "XEON", 6, 4096, 1024, 100)
	if h := c.Host("hostA"); h.MaxSlots != 6 {
		t.Fatalf("hostA has %d slots after its agent reported 6 CPUs", h.MaxSlots)
	}
	n, _, err := c.Reconfigure(policyOf(t, conf("!")), runtime.ClusterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if h := n.Host("hostA"); h.MaxSlots != 6 || h.Facts.Type != "LINUX64" || h.Facts.Model != "XEON" || h.Facts.Ncpus != 6 || h.Facts.Maxmem != 4096 {
		t.Errorf("hostA after reconfig: %d slots, facts %+v", h.MaxSlots, h.Facts)
	}
	n, _, err = n.Reconfigure(policyOf(t, conf("SOL")), runtime.ClusterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if h := n.Host("hostA"); h.Facts.Type != "SOL" || h.MaxSlots != 6 {
		t.Errorf("hostA after a reconfig that gives its type: type %q, %d slots", h.Facts.Type, h.MaxSlots)
	}
}

// TestReconfigureKeepsArrays: a job array keeps its elements, each in its
// state, its running limit as bmod left it, and its index list.
func TestReconfigureKeepsArrays(t *testing.T) {
	p := policyOf(t, reconfigPolicy)
	c, err := runtime.NewCluster(p, runtime.ClusterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	spec, err := c.CheckArraySpec("arr[1-9:2]%2")
	if err != nil {
		t.Fatal(err)
	}
	a, err := c.SubmitArray(runtime.Submission{User: "u1", Command: "true"}, spec, 10)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Hold(a.Elements[2]); err != nil {
		t.Fatal(err)
	}
	if err := c.SetArrayLimit(a, 3); err != nil {
		t.Fatal(err)
	}
	n, warnings, err := c.Reconfigure(policyOf(t, reconfigPolicy), runtime.ClusterOptions{})
	if err != nil || len(warnings) > 0 {
		t.Fatalf("reconfig: %v %q", err, warnings)
	}
	na := n.Array(a.ID)
	if na == nil {
		t.Fatalf("array %d is gone after reconfig", a.ID)
	}
	if na.SpecString() != "arr[1-9:2]%3" || len(na.Elements) != 5 || na.End != 9 || na.Step != 2 {
		t.Errorf("after reconfig the array is %s with %d elements, end %d step %d; want arr[1-9:2]%%3, 5, 9, 2",
			na.SpecString(), len(na.Elements), na.End, na.Step)
	}
	for i, e := range na.Elements {
		if old := a.Elements[i]; e.ID != old.ID || e.State != old.State || e.Index() != 2*i+1 {
			t.Errorf("element %d: %s %s, was %s %s", i, e.Label(), e.State, old.Label(), old.State)
		}
	}
}

// TestReconfigureKeepsGroupIdleTime: a job group's idle time (bgdel -d)
// goes on over a reconfiguration; a group with an unfinished job stays
// busy.
func TestReconfigureKeepsGroupIdleTime(t *testing.T) {
	c, err := runtime.NewCluster(policyOf(t, reconfigPolicy), runtime.ClusterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	g, err := c.AddJobGroup("/idle", "ann", -1, "", false)
	if err != nil {
		t.Fatal(err)
	}
	g.IdleSince = 1000
	n, _, err := c.Reconfigure(policyOf(t, reconfigPolicy), runtime.ClusterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if ng := n.JobGroup("/idle"); ng == nil || ng.IdleSince != 1000 {
		t.Fatalf("after reconfig: %+v, want /idle idle since 1000", ng)
	}
}
