package runtime_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/lsfc/lsfc/runtime"
)

// BenchmarkCycleAdvRsv is BenchmarkCycle with 200 advance reservations of
// 8 slots on 20 hosts each (4,000 of the 10,000 hosts): half active now,
// half beginning in an hour; a job in ten is submitted to one of them, a
// job in four has a run limit.
func BenchmarkCycleAdvRsv(b *testing.B) {
	c := benchCluster(b, 10000)
	for r := range 200 {
		rsv := runtime.AdvRsv{ID: fmt.Sprintf("r#%d", r), Creator: "admin", Users: []string{"all"}, Begin: 0, End: 7200}
		if r%2 == 1 {
			rsv.Begin, rsv.End = 3600, 7200
		}
		for h := range 20 {
			rsv.Hosts = append(rsv.Hosts, runtime.RsvSlots{Host: c.Hosts[r*20+h].Name, Slots: 8})
		}
		if w := c.PutAdvRsv(rsv); w != "" {
			b.Fatal(w)
		}
	}
	rng := rand.New(rand.NewPCG(1, 2))
	reqs := benchReqs()
	for i := range 100000 {
		sub := runtime.Submission{User: fmt.Sprintf("u%d", i%200), Slots: 1 + rng.IntN(8),
			ResReq: reqs[i%len(reqs)], FromType: "X86_64"}
		if i%4 == 0 {
			sub.RunLimit = 1800
		}
		if i%10 == 0 {
			sub.Reservation = fmt.Sprintf("r#%d", (i/10)%200)
		}
		if _, err := c.Submit(sub, 1); err != nil {
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
