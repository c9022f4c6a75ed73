package runtime_test

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
	"github.com/lsfc/lsfc/runtime"
)

// benchCluster builds a cluster of n hosts of a few kinds, with one queue
// whose JOB_ACCEPT_INTERVAL is 0 and which detects job exceptions (the
// hosts have GLOBAL_EXIT_RATE), so that the exception checks run.
func benchCluster(b *testing.B, n int) *runtime.Cluster {
	return benchClusterOf(b, n, "Begin Queue\nQUEUE_NAME = normal\nPRIORITY = 30\nJOB_OVERRUN = 60\nJOB_IDLE = 0.1\nJOB_UNDERRUN = 1\nEnd Queue\n")
}

// benchClusterOf builds a cluster of n hosts with the given lsb.queues.
func benchClusterOf(b *testing.B, n int, lsbQueues string) *runtime.Cluster {
	return benchClusterWith(b, n, lsbQueues, "")
}

// benchServiceClasses are the service classes of the benchmark clusters:
// one of each kind of goal, active all day.
const benchServiceClasses = `Begin ServiceClass
NAME = fast
PRIORITY = 30
GOALS = [VELOCITY 2000]
End ServiceClass

Begin ServiceClass
NAME = steady
PRIORITY = 20
GOALS = [THROUGHPUT 20000]
End ServiceClass

Begin ServiceClass
NAME = nightly
PRIORITY = 10
GOALS = [DEADLINE timeWindow(0:00-23:59)]
End ServiceClass
`

// benchClusterWith builds a cluster of n hosts with the given lsb.queues
// and lsb.users ("" for none), and benchServiceClasses.
func benchClusterWith(b *testing.B, n int, lsbQueues, lsbUsers string) *runtime.Cluster {
	return benchClusterFiles(b, n, map[string]string{"lsb.queues": lsbQueues, "lsb.users": lsbUsers})
}

// benchClusterFiles builds a cluster of n hosts from lsb.params (with
// GLOBAL_EXIT_RATE), lsf.shared, benchServiceClasses and the files given
// by name (lsb.queues, and optionally lsb.users and lsb.hosts; "" for
// none).
func benchClusterFiles(b testing.TB, n int, conf map[string]string) *runtime.Cluster {
	b.Helper()
	params, _ := lang.ParseConfig(lang.NewSource("lsb.params", "Begin Parameters\nJOB_ACCEPT_INTERVAL = 0\nDEFAULT_QUEUE = normal\nGLOBAL_EXIT_RATE = 10\nEnd Parameters\n"), lang.KindLSBParams)
	shared, _ := lang.ParseConfig(lang.NewSource("lsf.shared", "Begin Resource\nRESOURCENAME TYPE INTERVAL INCREASING DESCRIPTION\ngpu Boolean () () (gpu)\nscratch Numeric () N (scratch)\nEnd Resource\n"), lang.KindLSFShared)
	classes, _ := lang.ParseConfig(lang.NewSource("lsb.serviceclasses", benchServiceClasses), lang.KindLSBServiceClasses)
	files := []*lang.File{params, shared, classes}
	for _, name := range []string{"lsb.queues", "lsb.users", "lsb.hosts"} {
		if text := conf[name]; text != "" {
			f, _ := lang.ParseConfig(lang.NewSource(name, text), lang.KindOf(name))
			files = append(files, f)
		}
	}
	p, ds := compile.Compile(&compile.Tree{Files: files}, compile.Options{})
	if ds.HasErrors() {
		b.Fatal(ds.Err())
	}
	types := []string{"X86_64", "AARCH64", "PPC64"}
	var hosts []*compile.Host
	for i := range n {
		h := &compile.Host{Name: fmt.Sprintf("h%05d", i), Type: types[i%3], Model: "M", Server: true, Status: "ok",
			Ncpus: 32, Maxmem: float64(int(64)<<(i%3)) * 1024, Slots: -1, MaxSlots: 32,
			Booleans: []string{}, Exclusive: []string{}, Numbers: map[string]float64{"scratch": float64(100 * (i % 5))},
			Strings: map[string]string{}, Load: map[string]float64{"mem": float64(32 * 1024), "r15s": 0.1 * float64(i%4), "ut": 0.2},
			Reserved: map[string]float64{}}
		if i%7 == 0 {
			h.Booleans = []string{"gpu"}
		}
		hosts = append(hosts, h)
	}
	c, err := runtime.NewCluster(p, runtime.ClusterOptions{Hosts: hosts})
	if err != nil {
		b.Fatal(err)
	}
	return c
}

// benchReqs are 50 distinct resource requirements.
func benchReqs() []string {
	var out []string
	types := []string{"X86_64", "AARCH64", "PPC64", "any"}
	for i := range 50 {
		r := fmt.Sprintf("select[type==%s && mem>%d] order[r15s]", types[i%4], 1000*(i%9))
		switch i % 5 {
		case 1:
			r = fmt.Sprintf("select[gpu && scratch>=%d]", 100*(i%4))
		case 2:
			r += " span[hosts=1]"
		case 3:
			r += fmt.Sprintf(" span[ptile=%d]", 1+i%4)
		}
		out = append(out, r)
	}
	return out
}

// BenchmarkCycle runs one scheduling cycle over 100,000 pending jobs of 50
// distinct requirements on 10,000 hosts (the cycle reads the cluster and
// changes nothing, so every iteration sees the same state). One job in
// four goes to a service class (velocity, throughput or deadline goal,
// with a one-hour run limit), so that the SLA plugin limits and orders
// them.
func BenchmarkCycle(b *testing.B) {
	c := benchCluster(b, 10000)
	rng := rand.New(rand.NewPCG(1, 2))
	reqs := benchReqs()
	slas := []string{"fast", "steady", "nightly"}
	for i := range 100000 {
		sub := runtime.Submission{User: fmt.Sprintf("u%d", i%200), Slots: 1 + rng.IntN(8),
			ResReq: reqs[i%len(reqs)], FromType: "X86_64"}
		if i%4 == 0 {
			sub.Sla, sub.RunLimit = slas[(i/4)%3], 3600
		}
		if _, err := c.Submit(sub, 0); err != nil {
			b.Fatal(err)
		}
	}
	s := runtime.NewScheduler(runtime.DefaultPlugins())
	var p *runtime.Plan
	b.ReportAllocs()
	for b.Loop() {
		p = s.Cycle(runtime.Snapshot{Cluster: c, Now: 1})
	}
	b.ReportMetric(float64(p.Stats.Dispatched), "dispatched")
	b.ReportMetric(float64(p.Stats.Considered), "considered")
	b.ReportMetric(float64(p.Stats.HostClasses), "hostclasses")
	b.ReportMetric(float64(p.Stats.JobClasses), "jobclasses")
}

// benchShareGroups is an lsb.users of four groups of 50 users (u0 to
// u199), each group a share tree of its own giving each member 1 share.
func benchShareGroups() string {
	users := "Begin UserGroup\nGROUP_NAME GROUP_MEMBER USER_SHARES\n"
	for g := range 4 {
		var members []string
		for u := g; u < 200; u += 4 {
			members = append(members, fmt.Sprintf("u%d", u))
		}
		users += fmt.Sprintf("g%d (%s) ([default, 1])\n", g, strings.Join(members, " "))
	}
	return users + "End UserGroup\n"
}

// BenchmarkCycleShareTreeAPS is BenchmarkCycle in a queue with a
// two-level share tree (four groups of 50 users, each user 1 share in its
// group) and absolute priority scheduling weighing the fairshare priority,
// the slots and the user priority.
func BenchmarkCycleShareTreeAPS(b *testing.B) {
	c := benchClusterWith(b, 10000, `Begin Queue
QUEUE_NAME = normal
PRIORITY = 30
FAIRSHARE = USER_SHARES[[g0, 4] [g1, 3] [g2, 2] [g3, 1]]
APS_PRIORITY = WEIGHT[[FS, 100] [PROC, 1] [JPRIORITY, 1]]
End Queue
`, benchShareGroups())
	rng := rand.New(rand.NewPCG(1, 2))
	reqs := benchReqs()
	for i := range 100000 {
		_, err := c.Submit(runtime.Submission{User: fmt.Sprintf("u%d", i%200), Slots: 1 + rng.IntN(8),
			ResReq: reqs[i%len(reqs)], FromType: "X86_64"}, 0)
		if err != nil {
			b.Fatal(err)
		}
	}
	s := runtime.NewScheduler(runtime.DefaultPlugins())
	var p *runtime.Plan
	b.ReportAllocs()
	for b.Loop() {
		p = s.Cycle(runtime.Snapshot{Cluster: c, Now: 1})
	}
	b.ReportMetric(float64(p.Stats.Dispatched), "dispatched")
	b.ReportMetric(float64(p.Stats.JobClasses), "jobclasses")
}

// BenchmarkCyclePreemptPools is BenchmarkCycle with preemption and a slot
// pool: the 10,000 hosts are full of jobs of a low queue, and of the
// 100,000 pending jobs a fifth are in a preemptive queue (which must
// preempt to run) and the rest in two queues sharing a slot pool 60/40.
func BenchmarkCyclePreemptPools(b *testing.B) {
	c := benchClusterOf(b, 10000, `Begin Queue
QUEUE_NAME = normal
PRIORITY = 10
End Queue

Begin Queue
QUEUE_NAME = high
PRIORITY = 50
PREEMPTION = PREEMPTIVE
End Queue

Begin Queue
QUEUE_NAME = poolA
PRIORITY = 30
SLOT_POOL = pool
SLOT_SHARE = 60
End Queue

Begin Queue
QUEUE_NAME = poolB
PRIORITY = 30
SLOT_POOL = pool
SLOT_SHARE = 40
End Queue
`)
	// Fill every host with 4-slot jobs of the low queue.
	e := runtime.NewEngine(c, &runtime.VirtualClock{T: 1}, nil)
	for i := range 10000 * 32 / 4 {
		if _, err := c.Submit(runtime.Submission{User: fmt.Sprintf("u%d", i%200), Queue: "normal", Slots: 4}, 1); err != nil {
			b.Fatal(err)
		}
	}
	for e.Schedule().Stats.Dispatched > 0 {
	}
	rng := rand.New(rand.NewPCG(1, 2))
	reqs := benchReqs()
	queues := []string{"high", "poolA", "poolA", "poolB", "poolB"}
	for i := range 100000 {
		_, err := c.Submit(runtime.Submission{User: fmt.Sprintf("u%d", i%200), Queue: queues[i%len(queues)],
			Slots: 1 + rng.IntN(8), ResReq: reqs[i%len(reqs)], FromType: "X86_64"}, 2)
		if err != nil {
			b.Fatal(err)
		}
	}
	s := runtime.NewScheduler(runtime.DefaultPlugins())
	var p *runtime.Plan
	b.ReportAllocs()
	for b.Loop() {
		p = s.Cycle(runtime.Snapshot{Cluster: c, Now: 2})
	}
	b.ReportMetric(float64(p.Stats.Dispatched), "dispatched")
	b.ReportMetric(float64(len(p.Preemptions)), "preempted")
	b.ReportMetric(float64(p.Stats.JobClasses), "jobclasses")
}

// BenchmarkCycleAllPolicies is BenchmarkCycle with every policy of the
// scheduler at work at once. Two queues form an APS queue group (normal,
// PRIORITY 30, and short, PRIORITY 20): both are fairshare queues over the
// two-level share tree of BenchmarkCycleShareTreeAPS, and their jobs are
// ordered together by an APS value weighing FS, PROC, JPRIORITY and
// QPRIORITY. normal is EXCLUSIVE = Y and one of its jobs in twenty is
// exclusive (-x); one job in four is in a service class (velocity,
// throughput or deadline goal); the queues set JOB_OVERRUN, JOB_IDLE and
// JOB_UNDERRUN, and the hosts EXIT_RATE = 1. Before the cycle, half the
// slots run 40,000 jobs started in four batches 15 minutes apart (a third
// of them idle) and 200 exclusive jobs; one in seven of the 4-slot jobs,
// and every one on one host in fifty, has just exited (6,400 exits). So
// the exception checks look at 33,800 running jobs, of which about 11,500
// are found overrun or idle this cycle, and at the recent exits of every
// host that had one; 100 hosts are over their exit rate.
func BenchmarkCycleAllPolicies(b *testing.B) {
	const shares = "USER_SHARES[[g0, 4] [g1, 3] [g2, 2] [g3, 1]]"
	c := benchClusterFiles(b, 10000, map[string]string{
		"lsb.users": benchShareGroups(),
		"lsb.hosts": "Begin Host\nHOST_NAME MXJ EXIT_RATE\ndefault () 1\nEnd Host\n",
		"lsb.queues": `Begin Queue
QUEUE_NAME   = normal
PRIORITY     = 30
EXCLUSIVE    = Y
FAIRSHARE    = ` + shares + `
APS_PRIORITY = WEIGHT[[FS, 100] [PROC, 1] [JPRIORITY, 1] [QPRIORITY, 1]]
QUEUE_GROUP  = short
JOB_OVERRUN  = 60
JOB_IDLE     = 0.1
JOB_UNDERRUN = 1
End Queue

Begin Queue
QUEUE_NAME   = short
PRIORITY     = 20
FAIRSHARE    = ` + shares + `
JOB_OVERRUN  = 30
JOB_UNDERRUN = 1
End Queue
`})
	// Half the slots run 4-slot jobs, started in four batches 15 minutes
	// apart; the first batch also starts 200 exclusive jobs. A batch's
	// cycles find the earlier batches' exceptions due by then.
	clock := &runtime.VirtualClock{}
	e := runtime.NewEngine(c, clock, nil)
	var running []*runtime.Job
	for batch := range 4 {
		clock.T = runtime.Time(900 * batch)
		for i := range 10000 {
			sub := runtime.Submission{User: fmt.Sprintf("u%d", i%200), Queue: "normal", Slots: 4, Runtime: 36000, CPUTime: 36000}
			if i%3 == 0 {
				sub.CPUTime = 360 // an idle factor of 0.01
			}
			if i%2 == 1 {
				sub.Queue = "short"
			}
			j, err := e.Submit(sub)
			if err != nil {
				b.Fatal(err)
			}
			running = append(running, j)
		}
		if batch == 0 {
			for i := range 200 {
				if _, err := e.Submit(runtime.Submission{User: fmt.Sprintf("u%d", i), Queue: "normal", Slots: 1, Exclusive: true, Runtime: 36000}); err != nil {
					b.Fatal(err)
				}
			}
		}
		for e.Schedule().Stats.Dispatched > 0 {
		}
	}
	for _, j := range running {
		if j.State != runtime.Run {
			b.Fatalf("job %d is %s, not running", j.ID, j.State)
		}
	}
	clock.T = 3900
	exited := 0
	for i, j := range running {
		if i%7 == 0 || j.Allocs[0].Host.Index%50 == 0 {
			e.Finish(j, runtime.Exit, 1)
			exited++
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	reqs := benchReqs()
	slas := []string{"fast", "steady", "nightly"}
	for i := range 100000 {
		sub := runtime.Submission{User: fmt.Sprintf("u%d", i%200), Queue: "normal", Slots: 1 + rng.IntN(8),
			ResReq: reqs[i%len(reqs)], FromType: "X86_64"}
		switch {
		case i%4 == 0:
			sub.Sla, sub.RunLimit = slas[(i/4)%3], 3600
		case i%20 == 1:
			sub.Exclusive = true
		case i%5 == 2:
			sub.Queue = "short"
		}
		if _, err := c.Submit(sub, 3800); err != nil {
			b.Fatal(err)
		}
	}
	s := runtime.NewScheduler(runtime.DefaultPlugins())
	var p *runtime.Plan
	b.ReportAllocs()
	for b.Loop() {
		p = s.Cycle(runtime.Snapshot{Cluster: c, Now: 4000})
	}
	closed := 0
	for _, ev := range p.Exceptions {
		if ev.Host != nil {
			closed++
		}
	}
	b.ReportMetric(float64(len(running)+200-exited), "running")
	b.ReportMetric(float64(p.Stats.Dispatched), "dispatched")
	b.ReportMetric(float64(len(p.Exceptions)-closed), "jobexceptions")
	b.ReportMetric(float64(closed), "hostsclosed")
	b.ReportMetric(float64(p.Stats.JobClasses), "jobclasses")
}
