package daemon_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
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
	d, err := daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: state, WrapperPath: []string{os.Args[0], localexec.WrapperArg},
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
	if st, ok := daemon.LogStats(d); ok && st.Syncs > 0 {
		b.ReportMetric(float64(st.Durable)/float64(st.Syncs), "txn/sync")
	}
}

// BenchmarkSubmitToRun measures, on an idle cluster (nothing happened for
// longer than the scheduling interval), the time from a submission's
// acknowledgement to the job's command running (a file it creates
// appears): a cycle, the start's commit, the launch of its wrapper and of
// /bin/sh.
func BenchmarkSubmitToRun(b *testing.B) {
	d, state := benchDaemon(b)
	defer d.Close()
	c := unixClient(state)
	work := b.TempDir()
	var lat []time.Duration
	b.ResetTimer()
	for range b.N {
		var out api.SubmitResponse
		if code, err := c.call("POST", "/v1/jobs", api.SubmitRequest{Command: "touch started.$LSB_JOBID; sleep 5",
			Cwd: work, Stdout: "/dev/null", Env: []string{"PATH=" + os.Getenv("PATH")}}, &out); err != nil || code != http.StatusOK {
			b.Fatalf("submit: %d %v", code, err)
		}
		t0 := time.Now()
		marker := filepath.Join(work, fmt.Sprintf("started.%d", out.ID))
		for {
			if _, err := os.Stat(marker); err == nil {
				break
			}
			if time.Since(t0) > 10*time.Second {
				b.Fatalf("job %d did not start", out.ID)
			}
			// A real wait, short: the latency measured is real time,
			// and this poll's step bounds its resolution.
			time.Sleep(100 * time.Microsecond)
		}
		lat = append(lat, time.Since(t0))
		b.StopTimer()
		// Kill the job and let the cluster go idle again: nothing has
		// happened for longer than the scheduling interval when the next
		// job comes.
		c.call("POST", fmt.Sprintf("/v1/jobs/%d/kill", out.ID), nil, nil)
		waitFor(b, "the killed job to end", func() bool {
			var j api.Job
			c.call("GET", fmt.Sprintf("/v1/jobs/%d", out.ID), nil, &j)
			return j.State == "EXIT" || j.State == "DONE"
		})
		// A real wait: the benchmark measures the daemon on the real
		// clock, whose idle time before the next job is real too.
		time.Sleep(300 * time.Millisecond)
		b.StartTimer()
	}
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "ms-median")
}

// BenchmarkSubmitToDone runs jobs ("true") from 8 concurrent clients
// through the daemon, from their submission to their end, durable; with
// and without lsb.acct, whose records are written once each finish is on
// disk, so that the two report what writing the accounting costs.
func BenchmarkSubmitToDone(b *testing.B) {
	for _, acct := range []bool{true, false} {
		name := "acct"
		if !acct {
			name = "noacct"
		}
		b.Run(name, func(b *testing.B) {
			p, err := compileTree(writeConf(b))
			if err != nil {
				b.Fatal(err)
			}
			state := b.TempDir()
			cfg := daemon.Config{Policy: p, StateDir: state, WrapperPath: []string{os.Args[0], localexec.WrapperArg},
				Logf: func(string, ...any) {}}
			if !acct {
				cfg = daemon.WithoutAcct(cfg)
			}
			d, err := daemon.Start(context.Background(), cfg)
			if err != nil {
				b.Fatal(err)
			}
			defer d.Close()
			work := b.TempDir()
			const clients = 8
			var next atomic.Int64
			ids := make(chan int64, b.N)
			b.ResetTimer()
			start := time.Now()
			var wg sync.WaitGroup
			for range clients {
				wg.Add(1)
				go func(c *client) {
					defer wg.Done()
					for next.Add(1) <= int64(b.N) {
						var out api.SubmitResponse
						code, err := c.call("POST", "/v1/jobs", api.SubmitRequest{Command: "true", Cwd: work, Stdout: "/dev/null",
							Env: []string{"PATH=/usr/bin:/bin"}}, &out)
						if err != nil || code != http.StatusOK {
							b.Errorf("submit: %d %v", code, err)
							return
						}
						ids <- out.ID
					}
				}(unixClient(state))
			}
			wg.Wait()
			close(ids)
			c := unixClient(state)
			for id := range ids {
				for {
					var j api.Job
					c.call("GET", fmt.Sprintf("/v1/jobs/%d", id), nil, &j)
					if j.State == "DONE" || j.State == "EXIT" {
						break
					}
					time.Sleep(time.Millisecond)
				}
			}
			el := time.Since(start)
			b.ReportMetric(float64(b.N)/el.Seconds(), "jobs/s")
			if st, ok := daemon.LogStats(d); ok {
				b.ReportMetric(float64(st.Syncs)/float64(b.N), "syncs/job")
			}
		})
	}
}
