package daemon_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/lint"
	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/daemon"
	"github.com/lsfc/lsfc/runtime/localexec"
)

// memoryConf is the test configuration with jobs forgotten a second after
// they end.
var memoryConf = strings.Replace(testConf, "JOB_ACCEPT_INTERVAL = 0\n", "JOB_ACCEPT_INTERVAL = 0\nCLEAN_PERIOD = 1\n", 1)

// processRSS returns this process's resident memory in kilobytes (VmRSS).
func processRSS(tb testing.TB) int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		tb.Fatal(err)
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				tb.Fatalf("VmRSS %q: %v", v, err)
			}
			return kb
		}
	}
	tb.Fatal("no VmRSS in /proc/self/status")
	return 0
}

// heapAlloc returns the bytes of live heap after two collections: what
// the pools (sync.Pool) hold, such as the buffers that encoded the last
// listing, survives the first, and is the standard library's to keep,
// not the daemon's.
func heapAlloc() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// submitHeld submits n held jobs from 8 clients and returns their ids.
// Each carries this process's environment, as bsub sends its own.
func submitHeld(t *testing.T, c *client, n int) []int64 {
	t.Helper()
	env := os.Environ()
	var next atomic.Int64
	ids := make([]int64, n)
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= int64(n) {
					return
				}
				var out api.SubmitResponse
				code, err := c.call("POST", "/v1/jobs", api.SubmitRequest{Command: "true", Hold: true,
					Env: env, Token: fmt.Sprintf("tok-%d-%d", time.Now().UnixNano(), i)}, &out)
				if err != nil || code != http.StatusOK {
					t.Errorf("submit: %d %v", code, err)
					return
				}
				ids[i] = out.ID
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	return ids
}

// killForget kills the jobs ids from 8 clients and waits until the daemon
// has forgotten them (CLEAN_PERIOD).
func killForget(t *testing.T, c *client, ids []int64) {
	t.Helper()
	var next atomic.Int64
	var wg sync.WaitGroup
	n := len(ids)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1) - 1
				if i >= int64(n) {
					return
				}
				if code, err := c.call("POST", fmt.Sprintf("/v1/jobs/%d/kill", ids[i]), nil, nil); err != nil || code != http.StatusOK {
					t.Errorf("kill %d: %d %v", ids[i], code, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	deadline := time.Now().Add(60 * time.Second)
	for {
		var list []api.Job
		if code, err := c.call("GET", "/v1/jobs?user=all&all=1", nil, &list); err != nil || code != http.StatusOK {
			t.Fatalf("list: %d %v", code, err)
		}
		if len(list) == 0 {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d jobs are still known a minute after they were killed", len(list))
		}
		// A real wait: the daemon forgets ended jobs on its real clock.
		time.Sleep(200 * time.Millisecond)
	}
}

// TestMemoryFlat measures the daemon's memory after 27,000 submissions
// (the jobs held, so that only the daemon's own state counts), then
// checks that it stays flat over rounds of 5,000 jobs submitted, killed
// and forgotten: what the daemon keeps of a job must go when it forgets
// the job. The figures are logged (go test -v) for BENCHMARKS.md.
func TestMemoryFlat(t *testing.T) {
	testkit.Long(t, "27,000 submissions and four rounds of 5,000")
	res, err := lint.Run([]string{testkit.WriteArchive(t, memoryConf)}, lint.Options{})
	if err != nil || res.Diagnostics.HasErrors() {
		t.Fatalf("configuration: %v %v", err, res.Diagnostics.Err())
	}
	state := t.TempDir()
	d, err := daemon.Start(context.Background(), daemon.Config{Policy: res.Policy, StateDir: state,
		WrapperPath: []string{os.Args[0], localexec.WrapperArg}, Logf: func(string, ...any) {}})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	c := unixClient(state)
	base := heapAlloc()
	start := time.Now()
	ids := submitHeld(t, c, 27000)
	t.Logf("27000 held submissions (%d environment variables, %d bytes) in %v: RSS %.1f MiB, live heap %.1f MiB (%.1f MiB before)", len(os.Environ()), len(strings.Join(os.Environ(), "\n")),
		time.Since(start).Round(time.Millisecond), float64(processRSS(t))/1024, float64(heapAlloc())/(1<<20), float64(base)/(1<<20))
	killForget(t, c, ids)
	var heaps []uint64
	for round := range 4 {
		killForget(t, c, submitHeld(t, c, 5000))
		h := heapAlloc()
		heaps = append(heaps, h)
		t.Logf("round %d: 5000 jobs submitted, killed and forgotten: RSS %.1f MiB, live heap %.1f MiB", round+1,
			float64(processRSS(t))/1024, float64(h)/(1<<20))
	}
	// Every round ends with no job known: the first may still grow the
	// daemon's tables to their working size, the later ones must not.
	if first, last := heaps[1], heaps[len(heaps)-1]; last > first+first/10+(1<<20) {
		t.Errorf("the live heap grew from %.1f MiB to %.1f MiB over rounds that each end with no job known", float64(first)/(1<<20), float64(last)/(1<<20))
	}
}
