package runtime_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/lsfc/lsfc/runtime"
)

// BenchmarkCycleReserveBackfill is BenchmarkCycle with slot reservation
// and backfill on: the queue has SLOT_RESERVE and BACKFILL, the 10,000
// hosts are three quarters full of running jobs with run limits (so that
// reservations have predicted starts), and of the 100,000 pending jobs a
// tenth ask for 32 to 256 slots, the rest for 1 to 8; every pending job
// has a run limit of 10 minutes to 10 hours. The wide jobs that cannot
// start reserve the free slots of the hosts they will run on, and the
// narrow ones backfill what they can.
func BenchmarkCycleReserveBackfill(b *testing.B) {
	c := benchClusterOf(b, 10000, "Begin Queue\nQUEUE_NAME = normal\nPRIORITY = 30\nSLOT_RESERVE = MAX_RESERVE_TIME[10]\nBACKFILL = Y\nEnd Queue\n")
	rng := rand.New(rand.NewPCG(1, 2))
	e := runtime.NewEngine(c, &runtime.VirtualClock{T: 1}, nil)
	for i := range 10000 * 3 {
		sub := runtime.Submission{User: fmt.Sprintf("u%d", i%200), Slots: 8, RunLimit: float64(600 * (1 + rng.IntN(60)))}
		if _, err := c.Submit(sub, 1); err != nil {
			b.Fatal(err)
		}
	}
	for e.Schedule().Stats.Dispatched > 0 {
	}
	reqs := benchReqs()
	for i := range 100000 {
		sub := runtime.Submission{User: fmt.Sprintf("u%d", i%200), Slots: 1 + rng.IntN(8),
			ResReq: reqs[i%len(reqs)], FromType: "X86_64", RunLimit: float64(600 * (1 + rng.IntN(60)))}
		if i%10 == 0 {
			sub.Slots, sub.ResReq = 32+rng.IntN(225), ""
		}
		if _, err := c.Submit(sub, 2); err != nil {
			b.Fatal(err)
		}
	}
	s := runtime.NewScheduler(runtime.DefaultPlugins())
	var p *runtime.Plan
	b.ReportAllocs()
	for b.Loop() {
		p = s.Cycle(runtime.Snapshot{Cluster: c, Now: 2})
	}
	reserved := 0
	for _, r := range p.Reservations {
		reserved += r.Slots()
	}
	b.ReportMetric(float64(p.Stats.Dispatched), "dispatched")
	b.ReportMetric(float64(len(p.Reservations)), "reserving")
	b.ReportMetric(float64(reserved), "reserved")
	b.ReportMetric(float64(p.Stats.JobClasses), "jobclasses")
}
