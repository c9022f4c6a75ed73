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
	b.Helper()
	params, _ := lang.ParseConfig(lang.NewSource("lsb.params", "Begin Parameters\nJOB_ACCEPT_INTERVAL = 0\nDEFAULT_QUEUE = normal\nGLOBAL_EXIT_RATE = 10\nEnd Parameters\n"), lang.KindLSBParams)
	queues, _ := lang.ParseConfig(lang.NewSource("lsb.queues", lsbQueues), lang.KindLSBQueues)
	shared, _ := lang.ParseConfig(lang.NewSource("lsf.shared", "Begin Resource\nRESOURCENAME TYPE INTERVAL INCREASING DESCRIPTION\ngpu Boolean () () (gpu)\nscratch Numeric () N (scratch)\nEnd Resource\n"), lang.KindLSFShared)
	classes, _ := lang.ParseConfig(lang.NewSource("lsb.serviceclasses", benchServiceClasses), lang.KindLSBServiceClasses)
	files := []*lang.File{params, queues, shared, classes}
	if lsbUsers != "" {
		users, _ := lang.ParseConfig(lang.NewSource("lsb.users", lsbUsers), lang.KindLSBUsers)
		files = append(files, users)
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

// BenchmarkCycleShareTreeAPS is BenchmarkCycle in a queue with a
// two-level share tree (four groups of 50 users, each user 1 share in its
// group) and absolute priority scheduling weighing the fairshare priority,
// the slots and the user priority.
func BenchmarkCycleShareTreeAPS(b *testing.B) {
	users := "Begin UserGroup\nGROUP_NAME GROUP_MEMBER USER_SHARES\n"
	for g := range 4 {
		var members []string
		for u := g; u < 200; u += 4 {
			members = append(members, fmt.Sprintf("u%d", u))
		}
		users += fmt.Sprintf("g%d (%s) ([default, 1])\n", g, strings.Join(members, " "))
	}
	users += "End UserGroup\n"
	c := benchClusterWith(b, 10000, `Begin Queue
QUEUE_NAME = normal
PRIORITY = 30
FAIRSHARE = USER_SHARES[[g0, 4] [g1, 3] [g2, 2] [g3, 1]]
APS_PRIORITY = WEIGHT[[FS, 100] [PROC, 1] [JPRIORITY, 1]]
End Queue
`, users)
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
