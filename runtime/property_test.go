package runtime_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/runtime"
	"github.com/lsfc/lsfc/runtime/sim"
	"golang.org/x/tools/txtar"
)

// TestPropertyPreemptionAndPools simulates random clusters and workloads
// with preemption and with slot pools and checks after every cycle that
// no host runs more slots than it has, that what hosts hold adds up, and
// that no pool queue holds more than its share while another queue of
// its pool has pending work that fits in the pool's free slots.
func TestPropertyPreemptionAndPools(t *testing.T) {
	cases := 150
	if testkit.Short() {
		cases = 30
	}
	for seed := range cases {
		pools := seed%2 == 1
		t.Run(fmt.Sprintf("seed%d", seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(uint64(seed), 7))
			ar := randomConfig(rng, pools)
			tree, opts := testkit.ArchiveTree(t, ar, true)
			p, diags := compile.Compile(tree, opts)
			if diags.HasErrors() {
				t.Fatalf("configuration:\n%s\n%v", txtar.Format(ar), diags.Err())
			}
			c, err := runtime.NewCluster(p, runtime.ClusterOptions{})
			if err != nil {
				t.Fatal(err)
			}
			jobs := randomJobs(rng, c, pools)
			cycles := 0
			var failure string
			check := func(c *runtime.Cluster, plan *runtime.Plan) {
				cycles++
				if failure == "" {
					failure = checkInvariants(c, plan, pools)
				}
			}
			res, err := sim.Simulate(c, jobs, sim.Options{AfterCycle: check})
			if err != nil {
				t.Fatal(err)
			}
			if failure != "" {
				t.Fatalf("after cycle %d: %s\nconfiguration:\n%s", cycles, failure, txtar.Format(ar))
			}
			for _, o := range res.Jobs {
				if o.Job != nil && o.Job.State.Started() {
					t.Errorf("job %d still %s after the simulation", o.Job.ID, o.Job.State)
				}
			}
		})
	}
}

// randomConfig writes a cluster of 2 to 5 hosts and 3 to 5 queues: with
// pools, the queues share one pool (at two priorities, some with their own
// job slot limit); without, queues of distinct priorities preempt one
// another in random ways.
func randomConfig(rng *rand.Rand, pools bool) *txtar.Archive {
	var cluster, hosts, queues strings.Builder
	cluster.WriteString("Begin Host\nHOSTNAME model type server RESOURCES\n")
	hosts.WriteString("Begin Host\nHOST_NAME MXJ\n")
	for i := range 2 + rng.IntN(4) {
		fmt.Fprintf(&cluster, "host%d ! ! 1 ()\n", i)
		fmt.Fprintf(&hosts, "host%d %d\n", i, 1+rng.IntN(6))
	}
	cluster.WriteString("End Host\n")
	hosts.WriteString("End Host\n")
	n := 3 + rng.IntN(3)
	for i := range n {
		fmt.Fprintf(&queues, "Begin Queue\nQUEUE_NAME = q%d\n", i)
		switch {
		case pools:
			fmt.Fprintf(&queues, "PRIORITY = %d\nSLOT_POOL = pool\nSLOT_SHARE = %d\n", 30+10*rng.IntN(2), 10+rng.IntN(70))
			if rng.IntN(4) == 0 {
				fmt.Fprintf(&queues, "QJOB_LIMIT = %d\n", 1+rng.IntN(4))
			}
		default:
			fmt.Fprintf(&queues, "PRIORITY = %d\n", 10*(i+1))
			switch rng.IntN(4) {
			case 0:
				queues.WriteString("PREEMPTION = PREEMPTIVE\n")
			case 1:
				if i > 0 {
					fmt.Fprintf(&queues, "PREEMPTION = PREEMPTIVE[q%d+%d]\n", rng.IntN(i), rng.IntN(3))
				}
			case 2:
				queues.WriteString("PREEMPTION = PREEMPTABLE\n")
			}
			if rng.IntN(5) == 0 {
				queues.WriteString("TERMINATE_WHEN = PREEMPT\n")
			}
			if rng.IntN(4) == 0 {
				fmt.Fprintf(&queues, "MAX_JOB_PREEMPT = %d\n", 1+rng.IntN(3))
			}
		}
		queues.WriteString("End Queue\n\n")
	}
	params := "Begin Parameters\nJOB_ACCEPT_INTERVAL = 0\n"
	if !pools {
		params += []string{"", "PREEMPT_FOR = LEAST_RUN_TIME\n", "PREEMPT_FOR = MINI_JOB\n", "PREEMPT_FOR = OPTIMAL_MINI_JOB HOST_JLU\n"}[rng.IntN(4)]
	}
	params += "End Parameters\n"
	return &txtar.Archive{Files: []txtar.File{
		{Name: "lsf.cluster.test", Data: []byte(cluster.String())},
		{Name: "lsb.hosts", Data: []byte(hosts.String())},
		{Name: "lsb.params", Data: []byte(params)},
		{Name: "lsb.queues", Data: []byte(queues.String())},
	}}
}

// randomJobs makes 20 to 80 jobs in random queues; pool queues get
// one-slot jobs, so that "work that fits" is a free slot.
func randomJobs(rng *rand.Rand, c *runtime.Cluster, pools bool) []sim.Job {
	var out []sim.Job
	at := 0.0
	for i := range 20 + rng.IntN(60) {
		q := c.Queues[rng.IntN(len(c.Queues))]
		slots := 1 + rng.IntN(3)
		if pools && q.PoolName() != "" {
			slots = 1
		}
		at += float64(rng.IntN(120))
		out = append(out, sim.Job{At: runtime.Time(1e9 + at), Submission: runtime.Submission{
			TraceID: i + 1, Queue: q.Name, User: fmt.Sprintf("user%d", rng.IntN(3)), Slots: slots,
			Runtime: float64(10 + rng.IntN(900))}})
	}
	return out
}

// checkInvariants returns what is wrong with the cluster after a cycle,
// or "".
func checkInvariants(c *runtime.Cluster, plan *runtime.Plan, pools bool) string {
	for _, h := range c.Hosts {
		running, held := 0, 0
		for _, j := range h.Jobs() {
			for _, a := range j.Allocs {
				if a.Host != h {
					continue
				}
				held += a.Slots
				if j.State == runtime.Run {
					running += a.Slots
				}
			}
		}
		if held != h.Used {
			return fmt.Sprintf("host %s: its jobs hold %d slots, but it counts %d", h.Name, held, h.Used)
		}
		if h.MaxSlots >= 0 && running > h.MaxSlots {
			return fmt.Sprintf("host %s runs %d slots, but has %d", h.Name, running, h.MaxSlots)
		}
	}
	if !pools {
		return ""
	}
	var poolQueues []*runtime.Queue
	size, shares := 0, 0
	pending := map[*runtime.Queue]bool{}
	for _, j := range c.Jobs() {
		if j.State == runtime.Pend {
			pending[j.Queue] = true
		}
	}
	for _, q := range c.Queues {
		if q.PoolName() != "" && (q.Used > 0 || pending[q]) {
			poolQueues = append(poolQueues, q)
			shares += q.PoolShare()
		}
	}
	for _, h := range c.Hosts {
		size += h.MaxSlots
	}
	dispatched := map[*runtime.Queue]bool{}
	for _, d := range plan.Dispatches {
		dispatched[d.Job.Queue] = true
	}
	// A queue's share is its part of the pool by SLOT_SHARE, relative to
	// the shares of the queues with work (what idle queues leave is shared
	// by the others), rounded up.
	for _, a := range poolQueues {
		share := int(math.Ceil(float64(size) * float64(a.PoolShare()) / float64(shares)))
		if !dispatched[a] || a.Used <= share {
			continue
		}
		for _, b := range poolQueues {
			below := b.Used < int(math.Floor(float64(size)*float64(b.PoolShare())/float64(shares)))
			if b != a && pending[b] && below && !atLimit(b) {
				var st strings.Builder
				for _, q := range poolQueues {
					t, _ := plan.PoolTarget(q)
					fmt.Fprintf(&st, "\n  %s: SLOT_SHARE %d, holds %d, target %d, pending %v, dispatched %v", q.Name,
						q.PoolShare(), q.Used, t, pending[q], dispatched[q])
				}
				return fmt.Sprintf("queue %s was given slots beyond its share (%d of %d, share %d) while queue %s waits below its own:%s",
					a.Name, a.Used, size, share, b.Name, st.String())
			}
		}
	}
	return ""
}

// atLimit reports whether a queue's own QJOB_LIMIT stops its jobs.
func atLimit(q *runtime.Queue) bool { return q.QJobLimit > 0 && q.Used >= q.QJobLimit }
