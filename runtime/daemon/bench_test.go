package daemon_test

import (
	"fmt"
	"net/http"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/daemon"
	"github.com/lsfc/lsfc/runtime/localexec"
)

// benchDaemon starts a daemon with the scheduler's default interval.
func benchDaemon(b *testing.B) (*daemon.Daemon, string) {
	b.Helper()
	p, err := compileTree(writeConf(b))
	if err != nil {
		b.Fatal(err)
	}
	state := b.TempDir()
	d, err := daemon.Start(daemon.Config{Policy: p, StateDir: state, WrapperPath: []string{os.Args[0], localexec.WrapperArg},
		Logf: func(string, ...any) {}})
	if err != nil {
		b.Fatal(err)
	}
	return d, state
}

// BenchmarkSubmitDurable submits jobs from 8 concurrent clients through
// the API on the Unix socket; each submission is acknowledged only once
// its transaction is on disk (fdatasync, shared by the clients' group
// commit). The jobs are held, so that only submission is measured.
func BenchmarkSubmitDurable(b *testing.B) {
	d, state := benchDaemon(b)
	defer d.Close()
	const clients = 8
	cs := make([]*client, clients)
	for i := range cs {
		cs[i] = unixClient(state)
	}
	var next atomic.Int64
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for i := range clients {
		wg.Add(1)
		go func(c *client) {
			defer wg.Done()
			for next.Add(1) <= int64(b.N) {
				var out api.SubmitResponse
				code, err := c.call("POST", "/v1/jobs", api.SubmitRequest{Command: "true", Hold: true,
					Env: []string{"PATH=/usr/bin:/bin", "HOME=/tmp"}}, &out)
				if err != nil || code != http.StatusOK {
					b.Errorf("submit: %d %v", code, err)
					return
				}
			}
		}(cs[i])
	}
	wg.Wait()
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "submissions/s")
}

// BenchmarkSubmitToRun measures, on an idle cluster, the time from a
// submission's acknowledgement to the job running (its process started):
// the scheduling interval, a cycle, the start's commit and the launch.
func BenchmarkSubmitToRun(b *testing.B) {
	d, state := benchDaemon(b)
	defer d.Close()
	c := unixClient(state)
	var lat []time.Duration
	b.ResetTimer()
	for range b.N {
		var out api.SubmitResponse
		if code, err := c.call("POST", "/v1/jobs", api.SubmitRequest{Command: "sleep 5", Cwd: state, Stdout: "/dev/null"}, &out); err != nil || code != http.StatusOK {
			b.Fatalf("submit: %d %v", code, err)
		}
		t0 := time.Now()
		for {
			var j api.Job
			c.call("GET", fmt.Sprintf("/v1/jobs/%d", out.ID), nil, &j)
			if j.State != "PEND" {
				break
			}
			time.Sleep(500 * time.Microsecond)
		}
		lat = append(lat, time.Since(t0))
		b.StopTimer()
		c.call("POST", fmt.Sprintf("/v1/jobs/%d/kill", out.ID), nil, nil)
		b.StartTimer()
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "ms-median")
}
