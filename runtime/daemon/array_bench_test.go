package daemon_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/daemon"
	"github.com/lsfc/lsfc/runtime/localexec"
)

// BenchmarkBjobsArray measures what bjobs ID waits for with an array of
// 100,000 elements: the daemon's answer to the list of the array's
// elements, over the Unix socket, decoded by the client. The array is
// held, so the scheduler has nothing to start. An answer slower than 100
// ms fails the benchmark (a benchmark, not a test: it runs with -bench).
func BenchmarkBjobsArray(b *testing.B) {
	const size = 100_000
	conf := strings.Replace(testConf, "DEFAULT_QUEUE = normal\n", "DEFAULT_QUEUE = normal\nMAX_JOB_ARRAY_SIZE = 100000\n", 1)
	p, err := compileTree(testkit.WriteArchive(b, conf))
	if err != nil {
		b.Fatal(err)
	}
	state := b.TempDir()
	d, err := daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: state,
		WrapperPath: []string{os.Args[0], localexec.WrapperArg}, Logf: func(string, ...any) {}})
	if err != nil {
		b.Fatal(err)
	}
	defer d.Close()
	c := api.Dial(state)
	ctx := context.Background()
	resp, err := c.Submit(ctx, &api.SubmitRequest{Name: "big[1-100000]", Command: "true", Hold: true})
	if err != nil {
		b.Fatal(err)
	}
	t0 := time.Now()
	if _, err := c.Jobs(ctx, api.JobQuery{IDs: []int64{resp.ID}}); err != nil {
		b.Fatal(err)
	}
	b.Logf("first list %v", time.Since(t0))
	b.ReportAllocs()
	b.ResetTimer()
	var slowest time.Duration
	for range b.N {
		start := time.Now()
		jobs, err := c.Jobs(ctx, api.JobQuery{IDs: []int64{resp.ID}})
		if err != nil {
			b.Fatal(err)
		}
		slowest = max(slowest, time.Since(start))
		b.Logf("%v", time.Since(start))
		if len(jobs) != size {
			b.Fatalf("%d elements listed, want %d", len(jobs), size)
		}
	}
	b.ReportMetric(float64(slowest.Milliseconds()), "max-ms")
	if slowest > 100*time.Millisecond {
		b.Errorf("bjobs of a %d-element array took %v, want under 100ms", size, slowest)
	}
}
