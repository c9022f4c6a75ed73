package runtime_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/runtime"
	"golang.org/x/tools/txtar"
)

// hostPrefixFilter is a site's host filter: the hosts whose name starts
// with prefix take no job of one queue.
type hostPrefixFilter struct{ prefix, queue string }

func (f hostPrefixFilter) Name() string { return "site-host-prefix" }
func (f hostPrefixFilter) Filter(_ runtime.CycleState, k runtime.ClassInfo, h runtime.HostInfo) runtime.Reason {
	if k.Queue().Name() == f.queue && strings.HasPrefix(h.Name(), f.prefix) {
		return runtime.ReasonHostNotInQueue
	}
	return runtime.ReasonNone
}

// userSlotCap is a site's job filter: a user's jobs of one queue hold at
// most max slots, counting those the cycle in progress dispatched.
type userSlotCap struct {
	queue string
	max   int
}

func (f userSlotCap) Name() string { return "site-user-slot-cap" }
func (f userSlotCap) Check(s runtime.CycleState, j runtime.JobInfo) runtime.Reason {
	q := j.Queue()
	if q.Name() != f.queue {
		return runtime.ReasonNone
	}
	if q.UserSlots(j.User())+s.QueueUserPlanned(q, j.User())+j.Slots() > f.max {
		return runtime.ReasonUserLimit
	}
	return runtime.ReasonNone
}

// longRunCheck is a site's exception check: a job of one queue that has
// run longer than limit seconds is overrun, whatever the queue's
// JOB_OVERRUN says.
type longRunCheck struct {
	queue string
	limit float64
}

func (x longRunCheck) Name() string { return "site-long-run" }
func (x longRunCheck) Detect(s runtime.CycleState) {
	for i := range s.NumHosts() {
		h := s.Host(i)
		for k := range h.NumJobs() {
			j := h.Job(k)
			if j.Queue().Name() != x.queue || j.State() != runtime.Run || j.Exceptions()&runtime.ExcOverrun != 0 {
				continue
			}
			if run := float64(s.Now() - j.Start()); run >= x.limit {
				s.ReportJobException(j, runtime.ExcOverrun, run/60, x.limit/60)
			} else {
				s.WakeAt(j.Start().Add(x.limit))
			}
		}
	}
}

// maintenance is a site's load controller: the running jobs of one queue
// are suspended from one time until another, and resume then.
type maintenance struct {
	queue    string
	from, to runtime.Time
}

func (m maintenance) Name() string { return "site-maintenance" }
func (m maintenance) Control(s runtime.CycleState) {
	now := s.Now()
	for i := range s.NumHosts() {
		h := s.Host(i)
		for k := range h.NumJobs() {
			switch j := h.Job(k); {
			case j.Queue().Name() != m.queue:
			case j.State() == runtime.Run && now >= m.from && now < m.to:
				s.ReportSuspend(j, runtime.ReasonLoadStop)
			case j.State() == runtime.SSusp && now >= m.to:
				s.ReportLoadResume(j)
			}
		}
	}
	s.WakeAt(m.from)
	s.WakeAt(m.to)
}

const pluginConf = `
-- lsf.shared --
Begin Cluster
ClusterName
test
End Cluster
-- lsf.cluster.test --
Begin Host
HOSTNAME  model  type  server  RESOURCES
gpu1      !      !     1       ()
gpu2      !      !     1       ()
cpu1      !      !     1       ()
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
QUEUE_NAME = short
PRIORITY   = 40
End Queue

Begin Queue
QUEUE_NAME = normal
PRIORITY   = 30
End Queue
`

// sitePlugins returns LSF's plugins with the site's two added, built the
// way any caller builds them: the built-in registry, the site's plugins
// added to it, and the default profile extended by their names.
func sitePlugins(t *testing.T) runtime.Plugins {
	t.Helper()
	reg := runtime.Builtins()
	reg.AddHostFilter(hostPrefixFilter{prefix: "gpu", queue: "short"})
	reg.AddJobFilter(userSlotCap{queue: "normal", max: 1})
	reg.AddExceptionCheck(longRunCheck{queue: "short", limit: 600})
	reg.AddLoadController(maintenance{queue: "short", from: 2000, to: 3000})
	prof := runtime.DefaultProfile()
	prof.HostFilters = append(prof.HostFilters, "site-host-prefix")
	prof.JobFilters = append(prof.JobFilters, "site-user-slot-cap")
	prof.ExceptionChecks = append(prof.ExceptionChecks, "site-long-run")
	prof.LoadControllers = append(prof.LoadControllers, "site-maintenance")
	p, err := reg.Plugins(prof)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestExternalPlugins runs plugins of each kind defined outside the
// runtime package through real cycles: short jobs never land on the gpu
// hosts, a user's second normal job waits for the site's slot cap, with
// the reasons bjobs -p shows, a short job is found overrun after ten
// minutes and suspended during maintenance. Without them, the same
// workload runs everywhere and raises nothing.
func TestExternalPlugins(t *testing.T) {
	for _, site := range []bool{true, false} {
		t.Run(fmt.Sprintf("site=%v", site), func(t *testing.T) {
			tree, opts := testkit.ArchiveTree(t, txtar.Parse([]byte(pluginConf)), true)
			p, ds := compile.Compile(tree, opts)
			if ds.HasErrors() {
				t.Fatal(ds.Err())
			}
			c, err := runtime.NewCluster(p, runtime.ClusterOptions{})
			if err != nil {
				t.Fatal(err)
			}
			clock := &runtime.VirtualClock{T: 1000}
			e := runtime.NewEngine(c, clock, nil)
			if site {
				e.Scheduler = runtime.NewScheduler(sitePlugins(t))
			}
			submit := func(queue, user string) *runtime.Job {
				t.Helper()
				j, err := e.Submit(runtime.Submission{User: user, Slots: 1, Queue: queue})
				if err != nil {
					t.Fatal(err)
				}
				return j
			}
			// Two short jobs first (their queue's priority is higher):
			// with the site's filter only cpu1 takes them.
			s1, s2 := submit("short", "user1"), submit("short", "user1")
			e.Schedule()
			overrun := func() []string {
				clock.T = 1600
				var got []string
				for _, ev := range e.Schedule().Exceptions {
					got = append(got, ev.String())
				}
				return got
			}
			if !site {
				if got := overrun(); len(got) != 0 {
					t.Errorf("without the site's plugins, exceptions %q, want none", got)
				}
				for _, j := range []*runtime.Job{s1, s2} {
					if j.State != runtime.Run {
						t.Errorf("without the site's plugins, short job %d is %s, want RUN", j.ID, j.State)
					}
				}
				n1, n2 := submit("normal", "user2"), submit("normal", "user2")
				e.Schedule()
				if n1.State != runtime.Run || n2.State == runtime.Run {
					t.Errorf("without the site's plugins, normal jobs are %s and %s, want RUN and PEND (one free host)", n1.State, n2.State)
				}
				return
			}
			if got := hostsOf(s1); s1.State != runtime.Run || got != "cpu1" {
				t.Fatalf("short job %d is %s on %q, want RUN on cpu1", s1.ID, s1.State, got)
			}
			if s2.State != runtime.Pend {
				t.Fatalf("short job %d is %s, want PEND", s2.ID, s2.State)
			}

			if got := e.Reason(s2); got != runtime.ReasonSlots {
				t.Errorf("short job %d pends for %q, want %q", s2.ID, got, runtime.ReasonSlots)
			}
			why, hosts := e.WhyPending(s2)
			if why != runtime.ReasonNone {
				t.Errorf("short job %d: job-level reason %q, want none", s2.ID, why)
			}
			var got []string
			for _, h := range hosts {
				got = append(got, fmt.Sprintf("%s: %s", h.Host, h.Reason))
			}
			want := []string{
				"cpu1: Job slot limit reached",
				"gpu1: Not specified in the queue's HOSTS",
				"gpu2: Not specified in the queue's HOSTS",
			}
			if !slices.Equal(got, want) {
				t.Errorf("host reasons of short job %d:\n%s\nwant:\n%s", s2.ID, strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			// Two normal jobs of one user: the gpu hosts are free for
			// them, but the site's cap lets one run; the other pends
			// with the cap's reason, counted within the one cycle.
			n1, n2 := submit("normal", "user2"), submit("normal", "user2")
			plan := e.Schedule()
			if n1.State != runtime.Run || !strings.HasPrefix(hostsOf(n1), "gpu") {
				t.Errorf("normal job %d is %s on %q, want RUN on a gpu host", n1.ID, n1.State, hostsOf(n1))
			}
			if n2.State != runtime.Pend {
				t.Fatalf("normal job %d is %s, want PEND", n2.ID, n2.State)
			}
			if plan.Wake != 1600 {
				// The short job started in the cycle before, which the
				// checks ran ahead of: this one sees it.
				t.Errorf("cycle wakes at %v, want 1600 (the site's long-run check)", plan.Wake)
			}
			if got := plan.Reason(n2); got != runtime.ReasonUserLimit {
				t.Errorf("normal job %d pends for %q, want %q", n2.ID, got, runtime.ReasonUserLimit)
			}
			if why, hosts := e.WhyPending(n2); why != runtime.ReasonUserLimit || hosts != nil {
				t.Errorf("normal job %d: job-level reason %q and %d host reasons, want %q alone", n2.ID, why, len(hosts), runtime.ReasonUserLimit)
			}
			// Another user is not capped, and takes the last gpu host.
			n3 := submit("normal", "user3")
			e.Schedule()
			if n3.State != runtime.Run || !strings.HasPrefix(hostsOf(n3), "gpu") {
				t.Errorf("normal job %d of user3 is %s on %q, want RUN on a gpu host", n3.ID, n3.State, hostsOf(n3))
			}
			// Ten minutes on, the site's check finds the short job
			// overrun, once.
			if got := overrun(); len(got) != 1 || !strings.Contains(got[0], fmt.Sprintf("job %d", s1.ID)) || !strings.Contains(got[0], "overrun") {
				t.Errorf("exceptions at 1600: %q, want job %d overrun", got, s1.ID)
			}
			if s1.Exceptions&runtime.ExcOverrun == 0 {
				t.Errorf("short job %d exceptions %q, want overrun", s1.ID, s1.Exceptions)
			}
			if got := overrun(); len(got) != 0 {
				t.Errorf("exceptions on the next cycle: %q, want none", got)
			}
			// The site's maintenance suspends the short job from 2000
			// and resumes it at 3000; the normal jobs run on.
			clock.T = 2000
			e.Schedule()
			if s1.State != runtime.SSusp || s1.Reason != runtime.ReasonLoadStop || n1.State != runtime.Run {
				t.Errorf("at 2000: short job %d is %s (%q), normal job %d %s; want SSUSP for loadStop, RUN",
					s1.ID, s1.State, s1.Reason, n1.ID, n1.State)
			}
			clock.T = 3000
			e.Schedule()
			if s1.State != runtime.Run {
				t.Errorf("at 3000: short job %d is %s, want RUN", s1.ID, s1.State)
			}
		})
	}
}

// hostsOf returns the hosts a job runs on, joined by spaces.
func hostsOf(j *runtime.Job) string {
	var names []string
	for _, a := range j.Allocs {
		names = append(names, a.Host.Name)
	}
	return strings.Join(names, " ")
}

// TestRegistryProfile checks that a profile naming a plugin the registry
// lacks is an error that names it, and that the default profile picks
// every built-in in LSF's order.
func TestRegistryProfile(t *testing.T) {
	prof := runtime.DefaultProfile()
	prof.HostLimiters = append(prof.HostLimiters, "no-such-limiter")
	if _, err := runtime.Builtins().Plugins(prof); err == nil || !strings.Contains(err.Error(), `"no-such-limiter"`) {
		t.Errorf("Plugins with an unknown limiter: error %v, want one naming it", err)
	}
	// A plugin added under a built-in's name takes its place.
	reg := runtime.Builtins()
	repl := renamed{userSlotCap{queue: "normal", max: 1}, "hold"}
	reg.AddJobFilter(repl)
	if p, err := reg.Plugins(runtime.DefaultProfile()); err != nil || p.JobFilters[0] != runtime.JobFilter(repl) {
		t.Errorf("Plugins after replacing %q: job filters %v, error %v; want the replacement first", "hold", p.JobFilters, err)
	}
	p := runtime.DefaultPlugins()
	var names []string
	for _, f := range p.JobFilters {
		names = append(names, f.Name())
	}
	if want := runtime.DefaultProfile().JobFilters; !slices.Equal(names, want) {
		t.Errorf("default job filters %q, want %q", names, want)
	}
	names = names[:0]
	for _, o := range p.Orderers {
		names = append(names, o.Name())
	}
	for _, x := range p.Preemptors {
		names = append(names, x.Name())
	}
	if want := []string{"SLA", "LSF", "preemption"}; !slices.Equal(names, want) {
		t.Errorf("default orderers and preemptors %q, want %q", names, want)
	}
	prof = runtime.DefaultProfile()
	prof.Orderers = append(prof.Orderers, "no-such-orderer")
	if _, err := runtime.Builtins().Plugins(prof); err == nil || !strings.Contains(err.Error(), `orderer "no-such-orderer"`) {
		t.Errorf("Plugins with an unknown orderer: error %v, want one naming it", err)
	}
}

// renamed is a job filter under another name.
type renamed struct {
	runtime.JobFilter
	name string
}

func (r renamed) Name() string { return r.name }

// ExampleBuiltins adds a site's host filter to LSF's, after them.
func ExampleBuiltins() {
	reg := runtime.Builtins()
	reg.AddHostFilter(hostPrefixFilter{prefix: "gpu", queue: "short"})
	prof := runtime.DefaultProfile()
	prof.HostFilters = append(prof.HostFilters, "site-host-prefix")
	p, err := reg.Plugins(prof)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range p.HostFilters {
		fmt.Println(f.Name())
	}
	// Output:
	// HOSTS
	// -m
	// status
	// loadSched
	// select
	// site-host-prefix
}

// queueFirst is a site's orderer: the jobs of one queue go before every
// other's, whatever the queues' priorities.
type queueFirst struct{ queue string }

func (o queueFirst) Name() string { return "site-queue-first" }
func (o queueFirst) Compare(_ runtime.CycleState, a, b runtime.JobInfo) int {
	switch fa, fb := a.Queue().Name() == o.queue, b.Queue().Name() == o.queue; {
	case fa && !fb:
		return -1
	case fb && !fa:
		return 1
	}
	return 0
}

// TestExternalOrderer runs a site's orderer ahead of LSF's: on three
// hosts of one slot, two normal and two short jobs, the normal ones go
// first and a short one pends, where by queue priority the short ones go
// first and a normal one pends.
func TestExternalOrderer(t *testing.T) {
	for _, site := range []bool{true, false} {
		t.Run(fmt.Sprintf("site=%v", site), func(t *testing.T) {
			e := pluginEngine(t, pluginConf)
			if site {
				reg := runtime.Builtins()
				reg.AddOrderer(queueFirst{queue: "normal"})
				prof := runtime.DefaultProfile()
				prof.Orderers = append([]string{"site-queue-first"}, prof.Orderers...)
				p, err := reg.Plugins(prof)
				if err != nil {
					t.Fatal(err)
				}
				e.Scheduler = runtime.NewScheduler(p)
			}
			var jobs []*runtime.Job
			for _, q := range []string{"normal", "normal", "short", "short"} {
				j, err := e.Submit(runtime.Submission{User: "user1", Slots: 1, Queue: q})
				if err != nil {
					t.Fatal(err)
				}
				jobs = append(jobs, j)
			}
			var got []int64
			for _, d := range e.Schedule().Dispatches {
				got = append(got, d.Job.ID)
			}
			order, pending := []*runtime.Job{jobs[2], jobs[3], jobs[0]}, jobs[1]
			if site {
				order, pending = []*runtime.Job{jobs[0], jobs[1], jobs[2]}, jobs[3]
			}
			var want []int64
			for _, j := range order {
				want = append(want, j.ID)
			}
			if !slices.Equal(got, want) {
				t.Errorf("dispatch order %v, want %v", got, want)
			}
			if pending.State != runtime.Pend {
				t.Errorf("%s job %d is %s, want PEND", pending.Queue.Name, pending.ID, pending.State)
			}
		})
	}
}

const preemptConf = `
-- lsf.shared --
Begin Cluster
ClusterName
test
End Cluster
-- lsf.cluster.test --
Begin Host
HOSTNAME  model  type  server  RESOURCES
host1     !      !     1       ()
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
QUEUE_NAME = high
PRIORITY   = 40
PREEMPTION = PREEMPTIVE
End Queue

Begin Queue
QUEUE_NAME = low
PRIORITY   = 20
End Queue
`

// userPreemptor is a site's preemptor: it lets one user's jobs preempt,
// by LSF's rules, and no one else's.
type userPreemptor struct {
	user    string
	builtin runtime.Preemptor
}

func (p userPreemptor) Name() string { return "site-user-preempts" }
func (p userPreemptor) Preempt(s runtime.CycleState, k runtime.ClassInfo, j runtime.JobInfo) []runtime.Alloc {
	if j.User() != p.user {
		return nil
	}
	return p.builtin.Preempt(s, k, j)
}

// TestProfileWithoutPreemption checks that a profile leaving out the
// "preemption" preemptor turns preemption off: a job of a preemptive
// queue pends for slots where LSF's profile suspends the job in its way.
// A site's preemptor wrapping the built-in preempts for its user alone.
func TestProfileWithoutPreemption(t *testing.T) {
	for _, tc := range []struct {
		name    string
		preempt bool
		prof    func(reg *runtime.Registry, prof *runtime.Profile)
	}{
		{"default", true, nil},
		{"none", false, func(_ *runtime.Registry, prof *runtime.Profile) { prof.Preemptors = nil }},
		{"site-user2", true, func(reg *runtime.Registry, prof *runtime.Profile) {
			reg.AddPreemptor(userPreemptor{"user2", reg.Preemptors["preemption"]})
			prof.Preemptors = []string{"site-user-preempts"}
		}},
		{"site-user3", false, func(reg *runtime.Registry, prof *runtime.Profile) {
			reg.AddPreemptor(userPreemptor{"user3", reg.Preemptors["preemption"]})
			prof.Preemptors = []string{"site-user-preempts"}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			preempt := tc.preempt
			e := pluginEngine(t, preemptConf)
			if tc.prof != nil {
				reg, prof := runtime.Builtins(), runtime.DefaultProfile()
				tc.prof(&reg, &prof)
				p, err := reg.Plugins(prof)
				if err != nil {
					t.Fatal(err)
				}
				e.Scheduler = runtime.NewScheduler(p)
			}
			low, err := e.Submit(runtime.Submission{User: "user1", Slots: 1, Queue: "low"})
			if err != nil {
				t.Fatal(err)
			}
			e.Schedule()
			high, err := e.Submit(runtime.Submission{User: "user2", Slots: 1, Queue: "high"})
			if err != nil {
				t.Fatal(err)
			}
			plan := e.Schedule()
			if preempt {
				if low.State != runtime.SSusp || low.Reason != runtime.ReasonPreempted || high.State != runtime.Run {
					t.Errorf("low job %s (%q), high job %s; want SSUSP (preempted), RUN", low.State, low.Reason, high.State)
				}
				return
			}
			if low.State != runtime.Run || high.State != runtime.Pend || len(plan.Preemptions) != 0 {
				t.Errorf("low job %s, high job %s, %d preemptions; want RUN, PEND, none", low.State, high.State, len(plan.Preemptions))
			}
			if got := e.Reason(high); got != runtime.ReasonSlots {
				t.Errorf("high job pends for %q, want %q", got, runtime.ReasonSlots)
			}
		})
	}
}

// pluginEngine returns an engine with LSF's plugins over the cluster of
// a configuration archive, at time 1000.
func pluginEngine(t *testing.T, conf string) *runtime.Engine {
	t.Helper()
	tree, opts := testkit.ArchiveTree(t, txtar.Parse([]byte(conf)), true)
	p, ds := compile.Compile(tree, opts)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	c, err := runtime.NewCluster(p, runtime.ClusterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return runtime.NewEngine(c, &runtime.VirtualClock{T: 1000}, nil)
}
