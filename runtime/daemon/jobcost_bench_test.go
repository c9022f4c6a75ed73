package daemon_test

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/lsfc/lsfc/runtime/api"
)

// A serveProcess is a daemon in a process of its own (this test binary
// as serveForTest), whose jobs run under the job starter built from
// cmd/lsfc-job, as lsfc serve runs them: its CPU time, and that of the
// processes it started and waited for, are its alone.
type serveProcess struct {
	cmd   *exec.Cmd
	c     *client
	state string
}

// starterEnv names another job starter for the daemon of these
// benchmarks, as a command line ("/path/lsfc __lsfc_jobwrap" measures an
// lsfc that was its own wrapper); by default lsfc-job is built.
const starterEnv = "LSFC_BENCH_STARTER"

func startServeProcess(b *testing.B) *serveProcess {
	b.Helper()
	dir := b.TempDir()
	starter := os.Getenv(starterEnv)
	if starter == "" {
		starter = filepath.Join(dir, "lsfc-job")
		if out, err := exec.Command("go", "build", "-o", starter, "../../cmd/lsfc-job").CombinedOutput(); err != nil {
			b.Fatalf("go build: %v\n%s", err, out)
		}
	}
	return startServeProcessWith(b, writeConf(b), starter)
}

// startServeProcessWith starts a daemon in a process of its own on the
// configuration conf (a directory), its jobs run by starter.
func startServeProcessWith(b *testing.B, conf, starter string) *serveProcess {
	b.Helper()
	p := &serveProcess{state: filepath.Join(b.TempDir(), "state")}
	p.cmd = exec.Command(os.Args[0], "-test.run=^$")
	p.cmd.Env = append(os.Environ(), "LSFC_TEST_SERVE_CONF="+conf, "LSFC_TEST_SERVE_STATE="+p.state,
		"LSFC_TEST_SERVE_STARTER="+starter)
	var stderr strings.Builder
	p.cmd.Stderr = &stderr
	if err := p.cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		// SIGTERM first: a daemon that profiles itself then writes
		// its profile (LSFC_TEST_SERVE_CPUPROFILE); one that does not
		// dies of it.
		p.cmd.Process.Signal(syscall.SIGTERM)
		t := time.AfterFunc(10*time.Second, func() { p.cmd.Process.Kill() })
		p.cmd.Wait()
		t.Stop()
	})
	p.c = unixClient(p.state)
	waitFor(b, "the daemon to answer", func() bool {
		code, err := p.c.call("GET", "/v1/status", nil, nil)
		return err == nil && code == http.StatusOK
	})
	return p
}

// cpu returns the daemon's CPU time (user and system) and that of the
// processes it waited for, from /proc/PID/stat.
func (p *serveProcess) cpu(b *testing.B) (self, children time.Duration) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", p.cmd.Process.Pid))
	if err != nil {
		b.Fatal(err)
	}
	f := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+1:]))
	// utime is field 14 of proc(5), stime 15, cutime 16, cstime 17;
	// f[0] is field 3.
	ticks := make([]int64, 4)
	for i := range ticks {
		if ticks[i], err = strconv.ParseInt(f[11+i], 10, 64); err != nil {
			b.Fatal(err)
		}
	}
	const hz = 100 // USER_HZ
	return time.Duration(ticks[0]+ticks[1]) * time.Second / hz, time.Duration(ticks[2]+ticks[3]) * time.Second / hz
}

// supervisorCPU returns the CPU time of the job supervisor of the
// daemon, itself only (not the jobs it waited for), and whether one runs.
func (p *serveProcess) supervisorCPU(b *testing.B) (time.Duration, bool) {
	data, err := os.ReadFile(filepath.Join(p.state, "jobs", "supervisor.pid"))
	if err != nil {
		return 0, false
	}
	stat, err := os.ReadFile("/proc/" + strings.TrimSpace(string(data)) + "/stat")
	if err != nil {
		return 0, false
	}
	f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:]))
	var ticks int64
	for _, k := range []int{11, 12} { // utime, stime
		v, err := strconv.ParseInt(f[k], 10, 64)
		if err != nil {
			b.Fatal(err)
		}
		ticks += v
	}
	const hz = 100 // USER_HZ
	return time.Duration(ticks) * time.Second / hz, true
}

// BenchmarkJobCost submits trivial jobs ("true") from 8 clients to a
// daemon in its own process and waits until all have ended, and reports
// per job: the daemon's CPU time, that of the job starters (the host's
// job supervisor's own CPU time, read from its /proc/PID/stat, and that
// of the processes the daemon waited for, less the jobs' own, which
// their records give, when they were per-job starters), the jobs' own
// (/bin/sh), and the jobs done per second. The clients' CPU time is not
// counted. Run it with -benchtime 500x or more: the CPU times are read
// in ticks of 10 ms.
func BenchmarkJobCost(b *testing.B) {
	p := startServeProcess(b)
	work := b.TempDir()
	self0, children0 := p.cpu(b)
	sup0, _ := p.supervisorCPU(b) // none yet: the first job starts it
	start := time.Now()
	var next atomic.Int64
	var wg sync.WaitGroup
	b.ResetTimer()
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(b.N) {
				var out api.SubmitResponse
				code, err := p.c.call("POST", "/v1/jobs", api.SubmitRequest{Command: "true", Cwd: work, Stdout: "/dev/null",
					Env: []string{"PATH=/usr/bin:/bin", "HOME=/tmp"}}, &out)
				if err != nil || code != http.StatusOK {
					b.Errorf("submit: %d %v", code, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	// The daemon's counts tell when every job has ended: a listing of
	// the unfinished jobs, each poll, would cost the daemon more than
	// the jobs themselves while thousands wait.
	for deadline := time.Now().Add(10 * time.Minute); ; {
		var st api.Status
		if code, err := p.c.call("GET", "/v1/status", nil, &st); err != nil || code != http.StatusOK {
			b.Fatalf("status: %d %v", code, err)
		}
		if st.Pending+st.Running == 0 {
			break
		}
		if time.Now().After(deadline) {
			b.Fatalf("%d jobs have not ended", st.Pending+st.Running)
		}
		// A real wait: the jobs run as real processes.
		time.Sleep(50 * time.Millisecond)
	}
	elapsed := time.Since(start)
	b.StopTimer()
	self, children := p.cpu(b)
	sup, supervised := p.supervisorCPU(b)
	var jobs []api.Job
	if code, err := p.c.call("GET", "/v1/jobs?user=all&all=1", nil, &jobs); err != nil || code != http.StatusOK {
		b.Fatalf("list: %d %v", code, err)
	}
	var shell time.Duration
	for _, j := range jobs {
		if j.State != "DONE" {
			b.Fatalf("job %d ended %s (%s), want DONE", j.ID, j.State, j.Reason)
		}
		shell += time.Duration(j.CPUTime * float64(time.Second))
	}
	n := float64(len(jobs))
	b.ReportMetric(float64(self-self0)/n/1e6, "daemon-cpu-ms/job")
	starter := children - children0 - shell
	if supervised {
		// The shells were the supervisor's children, not the daemon's.
		starter = children - children0 + sup - sup0
	}
	b.ReportMetric(float64(starter)/n/1e6, "starter-cpu-ms/job")
	b.ReportMetric(float64(shell)/n/1e6, "shell-cpu-ms/job")
	b.ReportMetric(n/elapsed.Seconds(), "jobs/s")
}

// BenchmarkSubmitToRunProcess is BenchmarkSubmitToRun against a daemon
// in its own process whose jobs run under the job starter: the time
// from a submission's acknowledgement, on an idle cluster, to the job's
// command running (from-submit-ms-median: from the submission's request,
// its durable commit included). Its yardstick, direct-ms-median,
// measured in the same
// run, is the same command's job file run by /bin/sh started directly
// (BenchmarkShellStart, in runtime/localexec, times /bin/sh -c true).
func BenchmarkSubmitToRunProcess(b *testing.B) {
	p := startServeProcess(b)
	work := b.TempDir()
	var lat, whole []time.Duration
	b.ResetTimer()
	for range b.N {
		var out api.SubmitResponse
		sent := time.Now()
		if code, err := p.c.call("POST", "/v1/jobs", api.SubmitRequest{Command: "touch started.$LSB_JOBID; sleep 5",
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
			// A real wait, short: it bounds the resolution.
			time.Sleep(100 * time.Microsecond)
		}
		lat, whole = append(lat, time.Since(t0)), append(whole, time.Since(sent))
		b.StopTimer()
		p.c.call("POST", fmt.Sprintf("/v1/jobs/%d/kill", out.ID), nil, nil)
		waitFor(b, "the killed job to end", func() bool {
			var j api.Job
			p.c.call("GET", fmt.Sprintf("/v1/jobs/%d", out.ID), nil, &j)
			return j.State == "EXIT" || j.State == "DONE"
		})
		// A real wait: the cluster is idle when the next job comes.
		time.Sleep(300 * time.Millisecond)
		b.StartTimer()
	}
	slices.Sort(lat)
	slices.Sort(whole)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "ms-median")
	b.ReportMetric(float64(whole[len(whole)/2].Microseconds())/1000, "from-submit-ms-median")
	b.StopTimer()
	b.ReportMetric(float64(directStart(b, work, min(len(lat), 40)).Microseconds())/1000, "direct-ms-median")
}

// directStart is the yardstick of BenchmarkSubmitToRunProcess in the same
// run: the median, over n runs, of the time from starting the same
// command's job file with /bin/sh directly to the command running.
func directStart(b *testing.B, work string, n int) time.Duration {
	script := filepath.Join(work, "direct.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\ntouch started.$LSB_JOBID; sleep 5\n"), 0o700); err != nil {
		b.Fatal(err)
	}
	var lat []time.Duration
	for i := range n {
		cmd := exec.Command("/bin/sh", script)
		cmd.Dir = work
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), fmt.Sprintf("LSB_JOBID=direct%d", i)}
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		marker := filepath.Join(work, fmt.Sprintf("started.direct%d", i))
		t0 := time.Now()
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		for {
			if _, err := os.Stat(marker); err == nil {
				break
			}
			if time.Since(t0) > 10*time.Second {
				b.Fatalf("%s did not start", script)
			}
			time.Sleep(100 * time.Microsecond)
		}
		lat = append(lat, time.Since(t0))
		syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		cmd.Wait()
		// As between the jobs above.
		time.Sleep(300 * time.Millisecond)
	}
	slices.Sort(lat)
	return lat[len(lat)/2]
}
