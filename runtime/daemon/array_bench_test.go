package daemon_test

import (
	"context"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/localexec"
)

// BenchmarkBjobsArray measures what bjobs ID costs with an array of
// 100,000 elements: the daemon's answer with the list of the array's
// elements, in a process of its own, and the client's reading of it into
// the jobs bjobs prints, over the Unix socket. The array is held, so the
// scheduler has nothing to start. The machine may be shared with other
// work: the CPU time of the two processes is what the answer costs on an
// idle machine, and the benchmark fails when it is 100 ms or more.
func BenchmarkBjobsArray(b *testing.B) {
	const size = 100_000
	conf := strings.Replace(testConf, "DEFAULT_QUEUE = normal\n", "DEFAULT_QUEUE = normal\nMAX_JOB_ARRAY_SIZE = 100000\n", 1)
	p := startServeProcessWith(b, testkit.WriteArchive(b, conf), os.Args[0]+" "+localexec.WrapperArg)
	c := api.Dial(p.state)
	ctx := context.Background()
	resp, err := c.Submit(ctx, &api.SubmitRequest{Name: "big[1-100000]", Command: "true", Hold: true})
	if err != nil {
		b.Fatal(err)
	}
	// The first list waits for the cycle that sees the new elements.
	if _, err := c.Jobs(ctx, api.JobQuery{IDs: []int64{resp.ID}}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	var daemonCPU, clientCPU time.Duration
	for range b.N {
		d0, _ := p.cpu(b)
		c0 := processCPU(b)
		jobs, err := c.Jobs(ctx, api.JobQuery{IDs: []int64{resp.ID}})
		if err != nil {
			b.Fatal(err)
		}
		clientCPU += processCPU(b) - c0
		d1, _ := p.cpu(b)
		daemonCPU += d1 - d0
		if len(jobs) != size || jobs[size-1].Name != "big[100000]" {
			b.Fatalf("%d elements listed, want %d", len(jobs), size)
		}
	}
	perOp := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(b.N) }
	b.ReportMetric(perOp(daemonCPU), "daemon-cpu-ms/op")
	b.ReportMetric(perOp(clientCPU), "client-cpu-ms/op")
	if total := perOp(daemonCPU + clientCPU); total >= 100 {
		b.Errorf("bjobs of a %d-element array took %.0f ms of CPU (daemon %.0f, client %.0f), want under 100 ms", size, total, perOp(daemonCPU), perOp(clientCPU))
	}
}

// processCPU returns the CPU time (user and system) this process used.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
