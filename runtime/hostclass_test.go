package runtime_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lsfc/lsfc/runtime"
)

// loadsCluster is a cluster of n hosts with 20 jobs a host pending, of
// requirements that select and order by load indices, and one job in
// seven of none (ordered by LSF's default, r15s then pg).
func loadsCluster(tb testing.TB, n int) *runtime.Cluster {
	c := benchClusterFiles(tb, n, map[string]string{"lsb.queues": "Begin Queue\nQUEUE_NAME = normal\nPRIORITY = 30\nEnd Queue\n"})
	reqs := benchReqs()
	for i := range 20 * n {
		sub := runtime.Submission{User: fmt.Sprintf("u%d", i%50), Slots: 1 + i%8, ResReq: reqs[i%len(reqs)], FromType: "X86_64"}
		if i%7 == 3 {
			sub.ResReq = ""
		}
		if _, err := c.Submit(sub, 0); err != nil {
			tb.Fatal(err)
		}
	}
	return c
}

// drawLoad returns load indices around a busy host's, of a few values
// each when coarse (so that hosts share classes), else as an agent's
// report gives them.
func drawLoad(rng *rand.Rand, coarse bool) map[string]float64 {
	x := func(lo, hi float64) float64 {
		if coarse {
			return lo + float64(rng.IntN(3))*(hi-lo)/2
		}
		return lo + rng.Float64()*(hi-lo)
	}
	return map[string]float64{"r15s": x(0, 4), "r1m": x(0, 4), "ut": x(0, 1), "mem": x(1000, 9000), "pg": x(0, 2), "it": x(0, 60)}
}

// TestHostClassesFollowLoads changes the loads of a few hosts between
// cycles: a scheduler that keeps its host classes across cycles, moving
// only the hosts updated, plans exactly what a new scheduler plans on the
// same snapshot, with as many classes.
func TestHostClassesFollowLoads(t *testing.T) {
	c := loadsCluster(t, 300)
	rng := rand.New(rand.NewPCG(7, 11))
	kept := runtime.NewScheduler(runtime.DefaultPlugins())
	for round := range 60 {
		for range 1 + rng.IntN(40) {
			c.SetLoad(c.Hosts[rng.IntN(len(c.Hosts))], drawLoad(rng, round%3 != 0))
		}
		snap := runtime.Snapshot{Cluster: c, Now: runtime.Time(round + 1)}
		got := kept.Cycle(snap)
		want := runtime.NewScheduler(runtime.DefaultPlugins()).Cycle(snap)
		if got.Stats.HostClasses != want.Stats.HostClasses {
			t.Fatalf("round %d: %d host classes, a new scheduler finds %d", round, got.Stats.HostClasses, want.Stats.HostClasses)
		}
		if g, w := dispatches(got), dispatches(want); !slices.Equal(g, w) {
			t.Fatalf("round %d: %d dispatches differ from a new scheduler's %d:\n%v\n%v", round, len(g), len(w), g, w)
		}
		if round == 0 && len(got.Dispatches) == 0 {
			t.Fatal("nothing dispatched")
		}
	}
}

// dispatches renders a plan's dispatches, job and hosts.
func dispatches(p *runtime.Plan) []string {
	var out []string
	for _, d := range p.Dispatches {
		s := fmt.Sprint(d.Job.ID)
		for _, a := range d.Allocs {
			s += fmt.Sprintf(" %s*%d", a.Host.Name, a.Slots)
		}
		out = append(out, s)
	}
	return out
}

// BenchmarkCycleLoadReports runs a cycle on 5,000 hosts with 100,000
// pending jobs after 100 hosts' load reports changed their loads (drawn
// as an agent's are, so that every host is a class of its own): the
// host classes follow the hosts updated.
func BenchmarkCycleLoadReports(b *testing.B) {
	b.Run("jobs", func(b *testing.B) { benchLoadReports(b, loadsCluster(b, 5000)) })
	// With no job pending the cycle is little more than keeping the host
	// classes.
	b.Run("nojobs", func(b *testing.B) {
		benchLoadReports(b, benchClusterFiles(b, 5000, map[string]string{"lsb.queues": "Begin Queue\nQUEUE_NAME = normal\nEnd Queue\n"}))
	})
}

func benchLoadReports(b *testing.B, c *runtime.Cluster) {
	rng := rand.New(rand.NewPCG(3, 5))
	for _, h := range c.Hosts {
		c.SetLoad(h, drawLoad(rng, false))
	}
	s := runtime.NewScheduler(runtime.DefaultPlugins())
	s.Cycle(runtime.Snapshot{Cluster: c, Now: 1})
	var p *runtime.Plan
	b.ReportAllocs()
	for b.Loop() {
		for range 100 {
			c.SetLoad(c.Hosts[rng.IntN(len(c.Hosts))], drawLoad(rng, false))
		}
		p = s.Cycle(runtime.Snapshot{Cluster: c, Now: 1})
	}
	b.ReportMetric(float64(p.Stats.HostClasses), "hostclasses")
}
