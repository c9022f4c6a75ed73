package runtime_test

import (
	"fmt"
	"testing"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
	"github.com/lsfc/lsfc/runtime"
)

// BenchmarkCycleGPU runs one scheduling cycle over 20,000 pending GPU jobs
// (num 1 to 4, shared, exclusive_process or j_exclusive) on 2,000 hosts,
// half of them with eight GPUs: the GPU limiter's cost per host and class.
func BenchmarkCycleGPU(b *testing.B) {
	params, _ := lang.ParseConfig(lang.NewSource("lsb.params", "Begin Parameters\nJOB_ACCEPT_INTERVAL = 0\nDEFAULT_QUEUE = normal\nEnd Parameters\n"), lang.KindLSBParams)
	shared, _ := lang.ParseConfig(lang.NewSource("lsf.shared", "Begin Resource\nRESOURCENAME TYPE INTERVAL INCREASING DESCRIPTION\nngpus Numeric () N (GPUs)\nEnd Resource\n"), lang.KindLSFShared)
	queues, _ := lang.ParseConfig(lang.NewSource("lsb.queues", "Begin Queue\nQUEUE_NAME = normal\nPRIORITY = 30\nEnd Queue\n"), lang.KindLSBQueues)
	p, ds := compile.Compile(&compile.Tree{Files: []*lang.File{params, shared, queues}}, compile.Options{})
	if ds.HasErrors() {
		b.Fatal(ds.Err())
	}
	var hosts []*compile.Host
	for i := range 2000 {
		h := &compile.Host{Name: fmt.Sprintf("h%05d", i), Type: "X86_64", Model: "M", Server: true, Status: "ok",
			Ncpus: 32, Maxmem: 64 * 1024, Slots: -1, MaxSlots: 32, Booleans: []string{}, Exclusive: []string{},
			Numbers: map[string]float64{}, Strings: map[string]string{}, Load: map[string]float64{}, Reserved: map[string]float64{}}
		if i%2 == 0 {
			h.Numbers["ngpus"] = 8
		}
		hosts = append(hosts, h)
	}
	c, err := runtime.NewCluster(p, runtime.ClusterOptions{Hosts: hosts})
	if err != nil {
		b.Fatal(err)
	}
	modes := []string{"mode=shared", "mode=exclusive_process", "j_exclusive=yes"}
	for i := range 20000 {
		sub := runtime.Submission{User: fmt.Sprintf("u%d", i%50), Slots: 1 + i%4, FromType: "X86_64",
			GPU: fmt.Sprintf("num=%d:%s", 1+i%4, modes[i%3])}
		if _, err := c.Submit(sub, 0); err != nil {
			b.Fatal(err)
		}
	}
	s := runtime.NewScheduler(runtime.DefaultPlugins())
	var plan *runtime.Plan
	b.ReportAllocs()
	for b.Loop() {
		plan = s.Cycle(runtime.Snapshot{Cluster: c, Now: 1})
	}
	b.ReportMetric(float64(plan.Stats.Dispatched), "dispatched")
	b.ReportMetric(float64(plan.Stats.Considered), "considered")
}
