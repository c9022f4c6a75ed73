package daemon_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/daemon"
	"github.com/lsfc/lsfc/runtime/localexec"
	"github.com/lsfc/lsfc/runtime/lsbacct"
	"github.com/lsfc/lsfc/runtime/sbatchd"
	"golang.org/x/tools/txtar"
	testclock "k8s.io/utils/clock/testing"
)

// agentInterval is the agents' interval in these tests: a host is
// unavail after three of them.
const agentInterval = 50 * time.Millisecond

// startMaster starts a daemon on state listening on listen (":0" picks a
// port) whose silent hosts are lost after lost.
func startMaster(t testing.TB, state, listen string, lost time.Duration) *daemon.Daemon {
	t.Helper()
	return startMasterClock(t, state, listen, lost, nil)
}

// startMasterClock is startMaster on a testing clock.
func startMasterClock(t testing.TB, state, listen string, lost time.Duration, clk *testclock.FakeClock) *daemon.Daemon {
	t.Helper()
	p, err := compileTree(writeConf(t))
	if err != nil {
		t.Fatal(err)
	}
	cfg := daemon.Config{Policy: p, StateDir: state, WrapperPath: []string{os.Args[0], localexec.WrapperArg},
		MinInterval: 5 * time.Millisecond, Listen: listen, Secret: "s3cret", HostLost: lost, Logf: t.Logf}
	if clk != nil {
		cfg.Clock = clk
	}
	d, err := daemon.Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// startAgent starts the agent of host on dir, reporting to the master at
// addr.
func startAgent(t testing.TB, addr, host, dir string) *sbatchd.Agent {
	t.Helper()
	a, err := sbatchd.Start(context.Background(), sbatchd.Config{Master: api.DialTCP(addr, "s3cret", "boss"), Host: host, StateDir: dir,
		Interval: agentInterval, WrapperPath: []string{os.Args[0], localexec.WrapperArg}, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// hostStatus returns a host as bhosts sees it.
func (c *client) host(t testing.TB, name string) api.Host {
	t.Helper()
	var hosts []api.Host
	if code, err := c.call("GET", "/v1/hosts", nil, &hosts); err != nil || code != http.StatusOK {
		t.Fatalf("hosts: %d %v", code, err)
	}
	for _, h := range hosts {
		if h.Name == name {
			return h
		}
	}
	t.Fatalf("no host %s", name)
	return api.Host{}
}

// waitHost polls a host until its status is status.
func (c *client) waitHost(t testing.TB, name, status string) api.Host {
	t.Helper()
	var h api.Host
	if !eventually(func() bool {
		h = c.host(t, name)
		return h.Status == status
	}) {
		t.Fatalf("host %s is %s, not %s", name, h.Status, status)
	}
	return h
}

// waitAgent waits until the agent of a host has registered and its load
// is applied: until then the host is the local executor's, and a job
// dispatched there would run on this machine rather than through the
// agent.
func (c *client) waitAgent(t testing.TB, name string) api.Host {
	t.Helper()
	var h api.Host
	if !eventually(func() bool {
		h = c.host(t, name)
		return h.Status == "ok" && len(h.Load) > 0
	}) {
		t.Fatalf("host %s is %s with load %v: its agent has not reported", name, h.Status, h.Load)
	}
	return h
}

func TestAgentRunsJobs(t *testing.T) {
	state := t.TempDir()
	d := startMaster(t, state, "127.0.0.1:0", time.Hour)
	defer d.Close()
	a := startAgent(t, d.Addr(), "hostA", t.TempDir())
	defer a.Close()
	b := startAgent(t, d.Addr(), "hostB", t.TempDir())
	defer b.Close()
	c := unixClient(state)
	for _, h := range []string{"hostA", "hostB"} {
		got := c.waitHost(t, h, "ok")
		eventually(func() bool {
			got = c.host(t, h)
			return len(got.Load) > 0
		})
		if _, ok := got.Load["r1m"]; !ok || got.Ncpus <= 0 {
			t.Errorf("host %s reports load %v and %g CPUs: want its agent's r1m and CPUs", h, got.Load, got.Ncpus)
		}
	}
	var ids []int64
	for i := range 20 {
		ids = append(ids, c.submit(t, api.SubmitRequest{Command: fmt.Sprintf("test $LSB_JOBID -gt 0 && exit %d", i%3), Umask: -1}).ID)
	}
	hosts := map[string]int{}
	for i, id := range ids {
		j := c.waitState(t, id, "DONE", "EXIT")
		if j.ExitCode != i%3 {
			t.Errorf("job %d: exit code %d, want %d", id, j.ExitCode, i%3)
		}
		hosts[j.ExecHosts[0]]++
	}
	if hosts["hostA"] == 0 || hosts["hostB"] == 0 {
		t.Errorf("jobs ran on %v: want both agents' hosts", hosts)
	}
}

// TestAgentMemLimit runs a job with a hard memory limit (-M 16MB!) on an
// agent's host: the agent holds it to the limit, and the master records
// EXIT with TERM_MEMLIMIT.
func TestAgentMemLimit(t *testing.T) {
	state := t.TempDir()
	d := startMaster(t, state, "127.0.0.1:0", time.Hour)
	defer d.Close()
	a := startAgent(t, d.Addr(), "hostA", t.TempDir())
	defer a.Close()
	b := startAgent(t, d.Addr(), "hostB", t.TempDir())
	defer b.Close()
	c := unixClient(state)
	id := c.submit(t, api.SubmitRequest{Command: holdMemory("64", "30"), MemLimit: 16, MemHard: true, Umask: -1,
		Env: []string{"PATH=" + os.Getenv("PATH")}}).ID
	j := c.waitState(t, id, "DONE", "EXIT")
	if j.State != "EXIT" || j.Term != "TERM_MEMLIMIT" || j.MaxMem <= 16 {
		t.Errorf("job %d on %v ended %s %q having held %g MB, want EXIT TERM_MEMLIMIT past 16 MB", id, j.ExecHosts, j.State, j.Term, j.MaxMem)
	}
}

// TestAgentLost kills an agent: its host goes unavail and its jobs UNKWN;
// once the host is lost, the rerunnable job reruns on the other host and
// the other one exits; the agent, back, is told to kill what it still
// runs. The master runs on a testing clock: a step of a millisecond
// while the agent runs (it reports on the real clock, and must not seem
// silent), of a tenth of a second once it is gone.
func TestAgentLost(t *testing.T) {
	const lostAfter = 1500 * time.Millisecond
	state := t.TempDir()
	clk := testclock.NewFakeClock(time.Unix(1_700_000_000, 0))
	d := startMasterClock(t, state, "127.0.0.1:0", lostAfter, clk)
	defer d.Close()
	c := unixClient(state)
	boss := tcpClient(d.Addr(), "s3cret", "boss")
	if code, err := boss.call("POST", "/v1/hosts/hostB/close", nil, nil); err != nil || code != http.StatusOK {
		t.Fatalf("hclose: %d %v", code, err)
	}
	adir := agentDir(t)
	a := startAgent(t, d.Addr(), "hostA", adir)
	c.waitAgent(t, "hostA")
	rerun := c.submit(t, api.SubmitRequest{Command: "sleep 30", Rerunnable: true, Umask: -1}).ID
	plain := c.submit(t, api.SubmitRequest{Command: "sleep 30", Umask: -1}).ID
	stepUntil(t, clk, time.Millisecond, "both jobs to run", func() bool {
		return c.job(t, rerun).State == "RUN" && c.job(t, plain).State == "RUN"
	})
	a.Close() // as if killed: the jobs run on, nobody reports them
	gone := clk.Now()
	stepUntil(t, clk, 100*time.Millisecond, "hostA to be unavail", func() bool { return c.host(t, "hostA").Status == "unavail" })
	for _, id := range []int64{rerun, plain} {
		if j := c.job(t, id); j.State != "UNKWN" {
			t.Errorf("job %d is %s on an unavail host: want UNKWN", id, j.State)
		}
	}
	if code, err := boss.call("POST", "/v1/hosts/hostB/open", nil, nil); err != nil || code != http.StatusOK {
		t.Fatalf("hopen: %d %v", code, err)
	}
	var j api.Job
	stepUntil(t, clk, 100*time.Millisecond, fmt.Sprintf("job %d of the lost host to exit", plain), func() bool {
		j = c.job(t, plain)
		return j.State == "EXIT"
	})
	if j.ExitCode != 255 {
		t.Errorf("job %d on the lost host: exit code %d, want 255", plain, j.ExitCode)
	}
	if silent := clk.Since(gone); silent < lostAfter {
		t.Errorf("hostA lost %v after its agent stopped, before HostLost (%v)", silent, lostAfter)
	}
	stepUntil(t, clk, 10*time.Millisecond, fmt.Sprintf("job %d to rerun", rerun), func() bool {
		j = c.job(t, rerun)
		return j.State == "RUN"
	})
	if j.ExecHosts[0] != "hostB" {
		t.Errorf("rerunnable job %d reran on %v: want hostB", rerun, j.ExecHosts)
	}
	// The agent comes back: it holds two runs the master no longer counts
	// on there, and kills them.
	a = startAgent(t, d.Addr(), "hostA", adir)
	defer a.Close()
	c.waitHost(t, "hostA", "ok")
	waitRunsForgotten(t, adir)
	if code, err := c.call("POST", fmt.Sprintf("/v1/jobs/%d/kill", rerun), nil, nil); err != nil || code != http.StatusOK {
		t.Fatalf("bkill: %d %v", code, err)
	}
	stepUntil(t, clk, 10*time.Millisecond, fmt.Sprintf("job %d to exit", rerun), func() bool { return c.job(t, rerun).State == "EXIT" })
}

// TestAgentZombie kills jobs whose host does not answer: they are ZOMBI.
// When the agent answers again the kill reaches the job, which exits
// (TERM_OWNER); when the host is lost instead, a killed rerunnable job
// exits rather than rerun. The master runs on a testing clock, stepped
// as in TestAgentLost.
func TestAgentZombie(t *testing.T) {
	state := t.TempDir()
	clk := testclock.NewFakeClock(time.Unix(1_700_000_000, 0))
	d := startMasterClock(t, state, "127.0.0.1:0", 2*time.Second, clk)
	defer d.Close()
	c := unixClient(state)
	adir, bdir := t.TempDir(), t.TempDir()
	a := startAgent(t, d.Addr(), "hostA", adir)
	b := startAgent(t, d.Addr(), "hostB", bdir)
	c.waitAgent(t, "hostA")
	c.waitAgent(t, "hostB")
	c.waitHost(t, "hostB", "ok")
	onA := c.submit(t, api.SubmitRequest{Command: "sleep 30", Hosts: []string{"hostA"}, Umask: -1}).ID
	onB := c.submit(t, api.SubmitRequest{Command: "sleep 30", Hosts: []string{"hostB"}, Rerunnable: true, Umask: -1}).ID
	stepUntil(t, clk, time.Millisecond, "both jobs to run", func() bool {
		return c.job(t, onA).State == "RUN" && c.job(t, onB).State == "RUN"
	})
	a.Close()
	b.Close()
	stepUntil(t, clk, 100*time.Millisecond, "both jobs to be UNKWN", func() bool {
		return c.job(t, onA).State == "UNKWN" && c.job(t, onB).State == "UNKWN"
	})
	for _, id := range []int64{onA, onB} {
		if code, err := c.call("POST", fmt.Sprintf("/v1/jobs/%d/kill", id), nil, nil); err != nil || code != http.StatusOK {
			t.Fatalf("bkill %d: %d %v", id, code, err)
		}
		if j := c.job(t, id); j.State != "ZOMBI" {
			t.Errorf("job %d killed while UNKWN is %s, want ZOMBI", id, j.State)
		}
	}
	// hostA answers again at once: the kill reaches its job.
	a = startAgent(t, d.Addr(), "hostA", adir)
	defer a.Close()
	if j := c.waitState(t, onA, "EXIT"); j.Term != "TERM_OWNER" {
		t.Errorf("the ZOMBI job of hostA ended %s, want TERM_OWNER", j.Term)
	}
	// hostB stays silent until it is lost: its killed job exits, though
	// rerunnable. (hostA's agent, back, reports on the real clock: short
	// steps keep it from seeming silent.)
	var j api.Job
	stepUntil(t, clk, 20*time.Millisecond, fmt.Sprintf("job %d of the lost hostB to end", onB), func() bool {
		j = c.job(t, onB)
		return j.State == "EXIT" || j.State == "PEND" || j.State == "RUN"
	})
	if j.State != "EXIT" {
		t.Errorf("the ZOMBI rerunnable job of the lost hostB is %s, want EXIT", j.State)
	}
}

// TestAgentReconciles stops an agent while its job runs; the job ends
// meanwhile, and the restarted agent reports its real exit status. A job
// still running when the agent restarts goes on and ends DONE.
func TestAgentReconciles(t *testing.T) {
	state := t.TempDir()
	d := startMaster(t, state, "127.0.0.1:0", time.Hour)
	defer d.Close()
	c := unixClient(state)
	adir := agentDir(t)
	a := startAgent(t, d.Addr(), "hostA", adir)
	b := startAgent(t, d.Addr(), "hostB", t.TempDir())
	defer b.Close()
	c.waitAgent(t, "hostA")
	c.waitAgent(t, "hostB")
	// The quick job ends only once the test lets it, after its agent has
	// gone: on a loaded machine a timed sleep may end before that.
	release := filepath.Join(t.TempDir(), "release")
	quick := c.submit(t, api.SubmitRequest{Command: fmt.Sprintf("until [ -e %s ]; do sleep 0.05; done; exit 7", release), Hosts: []string{"hostA"}, Umask: -1}).ID
	long := c.submit(t, api.SubmitRequest{Command: fmt.Sprintf("until [ -e %s ]; do sleep 0.05; done", release), Hosts: []string{"hostA"}, Umask: -1}).ID
	c.waitState(t, quick, "RUN")
	c.waitState(t, long, "RUN")
	// RUN is the master's word: wait until the agent runs both jobs.
	waitFor(t, "the agent to start both jobs", func() bool {
		_, qerr := os.Stat(fmt.Sprintf("%s/jobs/%d.pid", adir, quick))
		_, lerr := os.Stat(fmt.Sprintf("%s/jobs/%d.pid", adir, long))
		return qerr == nil && lerr == nil
	})
	a.Close()
	c.waitHost(t, "hostA", "unavail")
	if j := c.job(t, quick); j.State != "UNKWN" {
		t.Errorf("job %d is %s: want UNKWN", quick, j.State)
	}
	// The quick job ends while nobody reports: its wrapper writes its
	// status for the next agent.
	if err := os.WriteFile(release, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the quick job to end while no agent runs", func() bool {
		_, err := os.Stat(fmt.Sprintf("%s/jobs/%d.status", adir, quick))
		return err == nil
	})
	a = startAgent(t, d.Addr(), "hostA", adir)
	defer a.Close()
	j := c.waitState(t, quick, "DONE", "EXIT")
	if j.State != "EXIT" || j.ExitCode != 7 {
		t.Errorf("job %d: %s with exit code %d, want EXIT with 7", quick, j.State, j.ExitCode)
	}
	if j := c.waitState(t, long, "RUN", "DONE"); j.State != "RUN" && j.State != "DONE" {
		t.Errorf("job %d is %s", long, j.State)
	}
	c.waitState(t, long, "DONE")
}

// TestAgentMasterRestart stops the master while an agent's job runs; the
// job ends while no master runs, and is reported to the new master, with
// its exit status.
func TestAgentMasterRestart(t *testing.T) {
	state := t.TempDir()
	d := startMaster(t, state, "127.0.0.1:0", time.Hour)
	addr := d.Addr()
	c := unixClient(state)
	adir := agentDir(t)
	a := startAgent(t, addr, "hostA", adir)
	defer a.Close()
	b := startAgent(t, addr, "hostB", t.TempDir())
	defer b.Close()
	c.waitAgent(t, "hostA")
	c.waitAgent(t, "hostB")
	// The job ends once the test lets it, after the master has stopped.
	release := filepath.Join(t.TempDir(), "release")
	id := c.submit(t, api.SubmitRequest{Command: fmt.Sprintf("until [ -e %s ]; do sleep 0.05; done; exit 4", release), Hosts: []string{"hostA"}, Umask: -1}).ID
	c.waitState(t, id, "RUN")
	// RUN is the master's word; the agent starts the job once it has its
	// order: wait until its wrapper runs it.
	waitFor(t, "the agent to start the job", func() bool {
		_, err := os.Stat(fmt.Sprintf("%s/jobs/%d.pid", adir, id))
		return err == nil
	})
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(release, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	// The job ends while no master runs: the agent holds its end.
	waitFor(t, "the job to end while no master runs", func() bool {
		_, err := os.Stat(fmt.Sprintf("%s/jobs/%d.status", adir, id))
		return err == nil
	})
	d = startMaster(t, state, addr, time.Hour)
	defer d.Close()
	j := c.waitState(t, id, "EXIT")
	if j.ExitCode != 4 {
		t.Errorf("job %d: exit code %d, want 4", id, j.ExitCode)
	}
	if h := c.waitHost(t, "hostA", "ok"); h.NJobs != 0 {
		t.Errorf("hostA holds %d slots after its job ended", h.NJobs)
	}
}

// TestAgentRefused: an agent must show the secret and name a host of the
// cluster.
func TestAgentRefused(t *testing.T) {
	state := t.TempDir()
	d := startMaster(t, state, "127.0.0.1:0", time.Hour)
	defer d.Close()
	for _, tc := range []struct {
		c    *client
		host string
		want int
	}{
		{tcpClient(d.Addr(), "wrong", "boss"), "hostA", http.StatusUnauthorized},
		{tcpClient(d.Addr(), "s3cret", "boss"), "hostZ", http.StatusNotFound},
		{tcpClient(d.Addr(), "s3cret", "boss"), "bad/name", http.StatusBadRequest},
	} {
		code, err := tc.c.call("POST", "/v1/agent/load", api.AgentLoad{Host: tc.host, Interval: 1}, nil)
		if err != nil || code != tc.want {
			t.Errorf("load report for %q: %d %v, want %d", tc.host, code, err, tc.want)
		}
	}
	if _, err := os.Stat(state + "/agents/hostZ"); err == nil {
		t.Error("a refused agent was registered")
	}
}

// BenchmarkAgentBurst submits a burst of b.N short jobs (true) to a
// master with two execution agents on loopback (hostA and hostB, eight
// slots each), and waits until every one is DONE: no job may be lost. It
// reports dispatches per second: the jobs dispatched to the agents, each
// once, run and ended, per second from the first submission to the last
// end. Run it with -benchtime 10000x for the 10,000-job burst.
func BenchmarkAgentBurst(b *testing.B) {
	state := b.TempDir()
	d := startMaster(b, state, "127.0.0.1:0", time.Hour)
	defer d.Close()
	for _, h := range []string{"hostA", "hostB"} {
		a, err := sbatchd.Start(context.Background(), sbatchd.Config{Master: api.DialTCP(d.Addr(), "s3cret", "boss"), Host: h, StateDir: b.TempDir(),
			Interval: time.Second, WrapperPath: []string{os.Args[0], localexec.WrapperArg}, Logf: func(string, ...any) {}})
		if err != nil {
			b.Fatal(err)
		}
		defer a.Close()
	}
	c := unixClient(state)
	c.waitHost(b, "hostA", "ok")
	c.waitHost(b, "hostB", "ok")
	b.ResetTimer()
	start := time.Now()
	const clients = 4
	var wg sync.WaitGroup
	var next atomic.Int64
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for next.Add(1) <= int64(b.N) {
				var out api.SubmitResponse
				code, err := c.call("POST", "/v1/jobs", api.SubmitRequest{Command: "true", Umask: -1,
					Env: []string{"PATH=/usr/bin:/bin", "HOME=/tmp"}}, &out)
				if err != nil || code != http.StatusOK {
					b.Errorf("submit: %d %v", code, err)
					return
				}
			}
		}()
	}
	wg.Wait()
	waitFor(b, "every job to end", func() bool {
		var st api.Status
		if code, err := c.call("GET", "/v1/status", nil, &st); err != nil || code != http.StatusOK {
			b.Fatalf("status: %d %v", code, err)
		}
		return st.Pending == 0 && st.Running == 0
	})
	elapsed := time.Since(start)
	b.StopTimer()
	var jobs []api.Job
	if code, err := c.call("GET", "/v1/jobs?user=all&all=1", nil, &jobs); err != nil || code != http.StatusOK {
		b.Fatalf("jobs: %d %v", code, err)
	}
	on := map[string]int{}
	for _, j := range jobs {
		if j.State != "DONE" {
			b.Errorf("job %d is %s (exit code %d)", j.ID, j.State, j.ExitCode)
		}
		if len(j.ExecHosts) > 0 {
			on[j.ExecHosts[0]]++
		}
	}
	if len(jobs) != b.N || b.N > 16 && (on["hostA"] == 0 || on["hostB"] == 0) {
		b.Errorf("%d jobs of %d finished, on %v: want all, on both agents", len(jobs), b.N, on)
	}
	b.ReportMetric(float64(on["hostA"]+on["hostB"])/elapsed.Seconds(), "dispatches/s")
}

// TestAgentUnreach: a host whose load reports come but whose exchange
// does not is unreach after three of its intervals; with neither,
// unavail. The master runs on a testing clock.
func TestAgentUnreach(t *testing.T) {
	state := t.TempDir()
	clk := testclock.NewFakeClock(time.Unix(1_700_000_000, 0))
	d := startMasterClock(t, state, "127.0.0.1:0", time.Hour, clk)
	defer d.Close()
	c := unixClient(state)
	agent := tcpClient(d.Addr(), "s3cret", "boss")
	report := func() {
		code, err := agent.call("POST", "/v1/agent/load", api.AgentLoad{Host: "hostA", Interval: agentInterval.Seconds(),
			Load: map[string]float64{"r1m": 0.5}}, nil)
		if err != nil || code != http.StatusOK {
			t.Fatalf("load report: %d %v", code, err)
		}
	}
	report()
	// Load reports every half interval, no exchange: ok for three
	// intervals, then unreach.
	for step := agentInterval / 2; clk.Since(time.Unix(1_700_000_000, 0)) <= 3*agentInterval; {
		if h := c.host(t, "hostA"); h.Status != "ok" {
			t.Fatalf("hostA is %s %v after the master started, with load reports: want ok for three intervals", h.Status,
				clk.Since(time.Unix(1_700_000_000, 0)))
		}
		clk.Step(step)
		report()
	}
	if h := c.host(t, "hostA"); h.Status != "unreach" {
		t.Fatalf("hostA is %s with load reports and no exchange for three intervals: want unreach", h.Status)
	}
	if h := c.host(t, "hostA"); h.Load["r1m"] != 0.5 {
		t.Errorf("hostA's load: %v, want r1m 0.5 as reported", h.Load)
	}
	// The load reports stop: housekeeping (every second) finds it unavail.
	stepUntil(t, clk, time.Second, "hostA to be unavail", func() bool { return c.host(t, "hostA").Status == "unavail" })
	if h := c.host(t, "hostB"); h.Status != "ok" {
		t.Errorf("hostB, with no agent, is %s: want ok", h.Status)
	}
}

// TestAgentHeldExchange: an exchange the master holds is word from its
// agent: the host stays ok while one is held, however long past three
// intervals, and is unreach three intervals after the last one ended.
// The answers say that the master holds exchanges. The master runs on a
// testing clock.
func TestAgentHeldExchange(t *testing.T) {
	state := t.TempDir()
	t0 := time.Unix(1_700_000_000, 0)
	clk := testclock.NewFakeClock(t0)
	d := startMasterClock(t, state, "127.0.0.1:0", time.Hour, clk)
	defer d.Close()
	c := unixClient(state)
	agent := tcpClient(d.Addr(), "s3cret", "boss")
	report := func() {
		code, err := agent.call("POST", "/v1/agent/load", api.AgentLoad{Host: "hostA", Interval: agentInterval.Seconds()}, nil)
		if err != nil || code != http.StatusOK {
			t.Fatalf("load report: %d %v", code, err)
		}
	}
	report()
	var first api.AgentOrders
	if code, err := agent.call("POST", "/v1/agent/sync", api.AgentSync{Host: "hostA", Interval: agentInterval.Seconds()}, &first); err != nil ||
		code != http.StatusOK || !first.Hold {
		t.Fatalf("first exchange: %d %v %+v, want an answer that says the master holds exchanges", code, err, first)
	}
	// The owner has taken the exchange once perfmon counts one more
	// wait for it; the handler holds it once its timer waits.
	calls := func() int64 {
		var p api.Perf
		if code, err := c.call("GET", "/v1/perf", nil, &p); err != nil || code != http.StatusOK {
			t.Fatalf("perf: %d %v", code, err)
		}
		for _, k := range p.Requests {
			if k.Kind == "owner wait" {
				return k.Count
			}
		}
		return 0
	}
	waiters, taken := clk.Waiters(), calls()
	held := make(chan api.AgentOrders, 1)
	go func() {
		var out api.AgentOrders
		agent.call("POST", "/v1/agent/sync", api.AgentSync{Host: "hostA", Interval: agentInterval.Seconds(), Session: first.Session,
			Wait: api.AgentHoldWait.Seconds()}, &out)
		held <- out
	}()
	waitFor(t, "the exchange to be held", func() bool { return calls() > taken && clk.Waiters() > waiters })
	// Twenty intervals with load reports, the exchange held: ok.
	for range 40 {
		clk.Step(agentInterval / 2)
		report()
		if h := c.host(t, "hostA"); h.Status != "ok" {
			t.Fatalf("hostA is %s %v after its exchange began, held: want ok", h.Status, clk.Since(t0))
		}
	}
	// The hold ends at AgentHoldWait, with no order.
	clk.Step(api.AgentHoldWait)
	report()
	select {
	case out := <-held:
		if len(out.Orders) != 0 || !out.Hold {
			t.Errorf("held exchange's answer: %+v, want no order, and Hold", out)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the held exchange was not answered once its wait ended")
	}
	if h := c.host(t, "hostA"); h.Status != "ok" {
		t.Fatalf("hostA is %s as its held exchange ends: want ok", h.Status)
	}
	// No exchange since: unreach after three intervals.
	for range 8 {
		clk.Step(agentInterval / 2)
		report()
	}
	stepUntil(t, clk, agentInterval/2, "hostA to be unreach", func() bool {
		report()
		return c.host(t, "hostA").Status == "unreach"
	})
}

// TestAgentEndBringsNextOrder: the answer to an exchange that reports
// an end carries the order of the job the next cycle starts in the
// freed slots: the agent need not come back for it.
func TestAgentEndBringsNextOrder(t *testing.T) {
	state := t.TempDir()
	d := startMaster(t, state, "127.0.0.1:0", time.Hour)
	defer d.Close()
	c := unixClient(state)
	agent := tcpClient(d.Addr(), "s3cret", "boss")
	exchange := agentExchange(t, agent, "hostA", 5)
	session := exchange(api.AgentSync{}).Session
	// Two jobs that each take the whole host (MXJ 8): the second waits
	// for the first to end.
	first := c.submit(t, api.SubmitRequest{Command: "true", Slots: 8, Hosts: []string{"hostA"}}).ID
	var order api.AgentOrder
	for order.Job != first {
		out := exchange(api.AgentSync{Session: session, Wait: 5})
		for _, o := range out.Orders {
			if o.Spec != nil {
				order = o
			}
		}
	}
	second := c.submit(t, api.SubmitRequest{Command: "true", Slots: 8, Hosts: []string{"hostA"}}).ID
	if j := c.job(t, second); j.State != "PEND" {
		t.Fatalf("job %d is %s while job %d takes its host: want PEND", second, j.State, first)
	}
	out := exchange(api.AgentSync{Session: session, Ack: order.Seq, Known: []api.AgentRun{order.AgentRun},
		Ends: []api.AgentEnd{{AgentRun: order.AgentRun}}})
	if len(out.Done) != 1 || out.Done[0].Job != first {
		t.Fatalf("answer to the end of job %d: done %v, want it", first, out.Done)
	}
	if !slices.ContainsFunc(out.Orders, func(o api.AgentOrder) bool { return o.Job == second && o.Spec != nil }) {
		t.Errorf("answer to the end of job %d: orders %+v, want job %d's, which the next cycle started", first, out.Orders, second)
	}
	c.waitState(t, first, "DONE")
}

// TestAgentUnreachNotLost: a host whose agent sends load reports but no
// exchange stays unreach, its job UNKWN, for many times HostLost: it is
// never lost. Once the load reports stop too, the host is unavail and
// lost once: its job exits. The master runs on a testing clock, stepped
// a second (a housekeeping) at a time.
func TestAgentUnreachNotLost(t *testing.T) {
	const lostAfter = 10 * time.Second
	// reportEvery is the interval the load reports after the agent's
	// stop give: the host is unavail after three without one.
	const reportEvery = 2 * time.Second
	state := t.TempDir()
	clk := testclock.NewFakeClock(time.Unix(1_700_000_000, 0))
	p, err := compileTree(writeConf(t))
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	lost := 0
	d, err := daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: state, WrapperPath: []string{os.Args[0], localexec.WrapperArg},
		MinInterval: 5 * time.Millisecond, Listen: "127.0.0.1:0", Secret: "s3cret", HostLost: lostAfter, Clock: clk,
		Logf: func(format string, args ...any) {
			msg := fmt.Sprintf(format, args...)
			if strings.HasPrefix(msg, "host hostA:") && strings.Contains(msg, "the host is lost") {
				mu.Lock()
				lost++
				mu.Unlock()
			}
			t.Log(msg)
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	losses := func() int {
		mu.Lock()
		defer mu.Unlock()
		return lost
	}
	c := unixClient(state)
	adir := agentDir(t)
	a := startAgent(t, d.Addr(), "hostA", adir)
	c.waitAgent(t, "hostA")
	id := c.submit(t, api.SubmitRequest{Command: "sleep 60", Hosts: []string{"hostA"}, Umask: -1}).ID
	// The cycle that dispatches the job needs the clock to move; a step
	// of a millisecond leaves the agent, which reports on the real clock,
	// in time.
	stepUntil(t, clk, time.Millisecond, fmt.Sprintf("job %d to run", id), func() bool { return c.job(t, id).State == "RUN" })
	a.Close() // the exchange stops; the load reports go on, from here
	agent := tcpClient(d.Addr(), "s3cret", "boss")
	report := func() {
		t.Helper()
		code, err := agent.call("POST", "/v1/agent/load", api.AgentLoad{Host: "hostA", Interval: reportEvery.Seconds(),
			Load: map[string]float64{"r1m": 0.5}}, nil)
		if err != nil || code != http.StatusOK {
			t.Fatalf("load report: %d %v", code, err)
		}
	}
	// A load report every second for eight times HostLost: the host is
	// unreach once three intervals pass without an exchange, its job
	// UNKWN, and it is never lost.
	closed := clk.Now()
	var stopped time.Time // the last load report
	for clk.Since(closed) < 8*lostAfter {
		report()
		stopped = clk.Now()
		if clk.Since(closed) > 3*reportEvery {
			if h := c.host(t, "hostA"); h.Status != "unreach" {
				t.Fatalf("hostA, with load reports and no exchange for %v, is %s: want unreach", clk.Since(closed), h.Status)
			}
			if j := c.job(t, id); j.State != "UNKWN" {
				t.Fatalf("job %d on the unreach host is %s, want UNKWN", id, j.State)
			}
		}
		clk.Step(time.Second)
	}
	if n := losses(); n != 0 {
		t.Fatalf("the unreach host, whose load reports come, was lost %d times", n)
	}
	// The load reports stop: unavail after three intervals, lost after
	// HostLost.
	stepUntil(t, clk, time.Second, "hostA to be unavail", func() bool { return c.host(t, "hostA").Status == "unavail" })
	if silent := clk.Since(stopped); silent <= 3*reportEvery-time.Second {
		t.Errorf("hostA unavail %v after its last load report, want after three intervals (%v)", silent, 3*reportEvery)
	}
	var j api.Job
	stepUntil(t, clk, time.Second, fmt.Sprintf("job %d of the lost host to exit", id), func() bool {
		j = c.job(t, id)
		return j.State == "EXIT"
	})
	if j.ExitCode != 255 {
		t.Errorf("job %d of the lost host: exit code %d, want 255", id, j.ExitCode)
	}
	if silent := clk.Since(stopped); silent <= lostAfter {
		t.Errorf("hostA lost %v after its last load report, want after HostLost (%v)", silent, lostAfter)
	}
	// Three times HostLost more, a housekeeping a second: lost once.
	for range 3 * lostAfter / time.Second {
		clk.Step(time.Second)
		c.status(t)
	}
	if n := losses(); n != 1 {
		t.Errorf("the silent host was lost %d times, want once", n)
	}
	// The agent comes back and kills the run the master gave up.
	a = startAgent(t, d.Addr(), "hostA", adir)
	defer a.Close()
	c.waitHost(t, "hostA", "ok")
	waitRunsForgotten(t, adir)
}

// TestAgentStaleExchange: an exchange the agent gave up (cut short to
// report an end) may reach the master after a newer one. Built before
// the agent held a run, it does not list it: the master must not take
// the run for lost on its word, only on an exchange that acknowledges the
// run's order.
func TestAgentStaleExchange(t *testing.T) {
	state := t.TempDir()
	d := startMaster(t, state, "127.0.0.1:0", time.Hour)
	defer d.Close()
	c := unixClient(state)
	agent := tcpClient(d.Addr(), "s3cret", "boss")
	exchange := agentExchange(t, agent, "hostA", 60)
	session := exchange(api.AgentSync{}).Session
	id := c.submit(t, api.SubmitRequest{Command: "sleep 30", Hosts: []string{"hostA"}, Umask: -1}).ID
	c.waitState(t, id, "RUN")
	var order api.AgentOrder
	deadline := time.Now().Add(20 * time.Second)
	for order.Job != id {
		if time.Now().After(deadline) {
			t.Fatalf("no order to run job %d", id)
		}
		if out := exchange(api.AgentSync{Session: session, Wait: 0.05}); len(out.Orders) > 0 {
			order = out.Orders[0]
		}
	}
	// The agent recorded the run and acknowledged its order ...
	exchange(api.AgentSync{Session: session, Ack: order.Seq, Known: []api.AgentRun{order.AgentRun}})
	// ... and an exchange it built before then reaches the master.
	exchange(api.AgentSync{Session: session})
	exchange(api.AgentSync{})
	if j := c.job(t, id); j.State != "RUN" {
		t.Fatalf("job %d after an exchange older than its order's acknowledgement: %s, want RUN", id, j.State)
	}
	// An exchange that acknowledges the order and does not list the run:
	// the agent lost it.
	exchange(api.AgentSync{Session: session, Ack: order.Seq})
	if j := c.job(t, id); j.State != "EXIT" || j.ExitCode != 255 {
		t.Errorf("job %d the agent no longer holds: %s with exit code %d, want EXIT with 255", id, j.State, j.ExitCode)
	}
}

// waitRunsForgotten waits until the agent of state directory adir holds
// no run: those the master told it to kill are killed and forgotten.
func waitRunsForgotten(t *testing.T, adir string) {
	t.Helper()
	var left []os.DirEntry
	if !eventually(func() bool {
		left, _ = os.ReadDir(adir + "/runs")
		return len(left) == 0
	}) {
		t.Fatalf("the agent still holds %d runs the master told it to kill", len(left))
	}
}

// TestAgentNcpusCount: the master counts an agent's ncpus from the
// topology it reports, as EGO_DEFINE_NCPUS says for the cluster (procs
// here) and a host's define_ncpus_* resource says for that host (threads
// on hostA), up to the CPUs the agent may use.
func TestAgentNcpusCount(t *testing.T) {
	ar := txtar.Parse([]byte(`-- lsf.conf --
EGO_DEFINE_NCPUS=procs
-- lsf.shared --
Begin Cluster
ClusterName
test
End Cluster
Begin Resource
RESOURCENAME         TYPE    INTERVAL INCREASING DESCRIPTION
define_ncpus_procs   Boolean ()       ()         (ncpus := procs)
define_ncpus_cores   Boolean ()       ()         (ncpus := cores)
define_ncpus_threads Boolean ()       ()         (ncpus := threads)
End Resource
-- lsf.cluster.test --
Begin ClusterAdmins
Administrators = (boss)
End ClusterAdmins
Begin Host
HOSTNAME  model  type  server  RESOURCES
hostA     !      !     1       (define_ncpus_threads)
hostB     !      !     1       ()
End Host
-- lsb.queues --
Begin Queue
QUEUE_NAME = normal
PRIORITY   = 30
End Queue
`))
	tree, opts := testkit.ArchiveTree(t, ar, true)
	p, diags := compile.Compile(tree, opts)
	if diags.HasErrors() {
		t.Fatal(diags.Err())
	}
	state := t.TempDir()
	d, err := daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: state, WrapperPath: []string{os.Args[0], localexec.WrapperArg},
		MinInterval: 5 * time.Millisecond, Listen: "127.0.0.1:0", Secret: "s3cret", HostLost: time.Hour, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	agent := tcpClient(d.Addr(), "s3cret", "boss")
	c := unixClient(state)
	for host, want := range map[string]float64{"hostA": 16, "hostB": 2} {
		load := api.AgentLoad{Host: host, Interval: 60, Ncpus: 32, Nprocs: 2, Ncores: 4, Nthreads: 2}
		if code, err := agent.call("POST", "/v1/agent/load", load, nil); err != nil || code != http.StatusOK {
			t.Fatalf("%s: load report: %d %v", host, code, err)
		}
		if got := c.host(t, host).Ncpus; got != want {
			t.Errorf("%s: ncpus %v, want %v", host, got, want)
		}
	}
}

// agentDir returns a state directory for an agent whose killed jobs'
// wrappers may still be writing their status when the test ends: it is
// removed once they are done, not while they write.
func agentDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "agent")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		var err error
		if !eventually(func() bool {
			err = os.RemoveAll(dir)
			return err == nil
		}) {
			t.Errorf("removing the agent's directory: %v", err)
		}
	})
	return dir
}

// TestAgentLateJobStaysLocal starts a job on a host before its agent
// reports: the local executor runs it, and once the agent reports the job
// stays the local executor's, is never sent to the agent, and ends once
// with its own status.
func TestAgentLateJobStaysLocal(t *testing.T) {
	state := t.TempDir()
	d := startMaster(t, state, "127.0.0.1:0", time.Hour)
	defer d.Close()
	c := unixClient(state)
	release := filepath.Join(t.TempDir(), "release")
	id := c.submit(t, api.SubmitRequest{Command: fmt.Sprintf("until [ -e %s ]; do sleep 0.05; done; exit 5", release), Hosts: []string{"hostA"}, Umask: -1}).ID
	c.waitState(t, id, "RUN")
	adir := agentDir(t)
	a := startAgent(t, d.Addr(), "hostA", adir)
	defer a.Close()
	c.waitAgent(t, "hostA")
	// A few exchanges, in which the master could take the job for one the
	// agent lost or never had.
	time.Sleep(10 * agentInterval)
	if j := c.job(t, id); j.State != "RUN" {
		t.Fatalf("job %d is %s after its host's agent reported, want RUN", id, j.State)
	}
	if err := os.WriteFile(release, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if j := c.waitState(t, id, "DONE", "EXIT"); j.ExitCode != 5 {
		t.Errorf("job %d: %s with exit code %d, want EXIT 5", id, j.State, j.ExitCode)
	}
	if runs, _ := filepath.Glob(filepath.Join(adir, "runs", "*")); len(runs) != 0 {
		t.Errorf("the agent was given the job: %v", runs)
	}
}

// TestAgentGPUs: the GPUs an agent reports are its host's, and the order
// to run a job that asks for GPUs names those it holds there, which the
// agent gives the job as CUDA_VISIBLE_DEVICES.
func TestAgentGPUs(t *testing.T) {
	state := t.TempDir()
	d := startMaster(t, state, "127.0.0.1:0", time.Hour)
	defer d.Close()
	c := unixClient(state)
	agent := tcpClient(d.Addr(), "s3cret", "boss")
	load := api.AgentLoad{Host: "hostA", Interval: 60, GPUs: []api.GPUDevice{{Index: 0, Model: "Tesla_T4", Mem: 15360},
		{Index: 1, Model: "Tesla_T4", Mem: 15360}}}
	if code, err := agent.call("POST", "/v1/agent/load", load, nil); err != nil || code != http.StatusOK {
		t.Fatalf("load report: %d %v", code, err)
	}
	h := c.host(t, "hostA")
	if !h.GPUsFound || len(h.GPUs) != 2 || h.GPUs[1].Model != "Tesla_T4" || h.GPUs[1].Mem != 15360 {
		t.Fatalf("hostA's GPUs after the report: %+v (found %v)", h.GPUs, h.GPUsFound)
	}
	if h.GPUs[0].MemUsed != nil {
		t.Errorf("GPU 0's memory in use before the agent measured it: %v", *h.GPUs[0].MemUsed)
	}
	// The memory in use on each GPU, when the agent measures it, is shown
	// (bhosts -gpu's MUSED); it changes nothing else.
	used := 2048.0
	load.GPUs[1].MemUsed = &used
	if code, err := agent.call("POST", "/v1/agent/load", load, nil); err != nil || code != http.StatusOK {
		t.Fatalf("load report: %d %v", code, err)
	}
	if h = c.host(t, "hostA"); h.GPUs[0].MemUsed != nil || h.GPUs[1].MemUsed == nil || *h.GPUs[1].MemUsed != 2048 {
		t.Errorf("hostA's GPUs after a report of memory in use: %+v", h.GPUs)
	}
	var session string
	exchange := func(req api.AgentSync) api.AgentOrders {
		t.Helper()
		req.Host, req.Interval, req.Session = "hostA", 60, session
		var out api.AgentOrders
		if code, err := agent.call("POST", "/v1/agent/sync", req, &out); err != nil || code != http.StatusOK {
			t.Fatalf("exchange: %d %v", code, err)
		}
		return out
	}
	session = exchange(api.AgentSync{}).Session
	first := c.submit(t, api.SubmitRequest{Command: "sleep 30", Hosts: []string{"hostA"}, Umask: -1, GPU: "num=1:mode=exclusive_process"}).ID
	second := c.submit(t, api.SubmitRequest{Command: "sleep 30", Hosts: []string{"hostA"}, Umask: -1, GPU: "num=1:gmodel=T4:gmem=8G"}).ID
	c.waitState(t, first, "RUN")
	c.waitState(t, second, "RUN")
	gpus := map[int64][]int{}
	deadline := time.Now().Add(20 * time.Second)
	for len(gpus) < 2 {
		if time.Now().After(deadline) {
			t.Fatalf("orders to run jobs %d and %d: got %v", first, second, gpus)
		}
		for _, o := range exchange(api.AgentSync{Wait: 0.05}).Orders {
			if o.Spec != nil {
				gpus[o.Job] = o.Spec.GPUs
			}
		}
	}
	if !slices.Equal(gpus[first], []int{0}) || !slices.Equal(gpus[second], []int{1}) {
		t.Errorf("GPUs in the orders: job %d %v, job %d %v; want [0] and [1]", first, gpus[first], second, gpus[second])
	}
	if j := c.job(t, second); j.GPUReq != "num=1:mode=shared:mps=no:j_exclusive=no:gmodel=T4:gmem=8G" || len(j.GPUAlloc) != 1 || j.GPUAlloc[0].Reserved != 8192 {
		t.Errorf("job %d: GPU requirement %q, allocation %+v", second, j.GPUReq, j.GPUAlloc)
	}
}

// TestAgentEndTime: a job that ran under an agent ends when its agent
// says it ended, not when the master learns of it: five minutes before
// an exchange that comes ten minutes after the start, the finish in
// bjobs, the event log and lsb.acct is at five minutes. An end before the
// start is the start, one after the master's now is now, and an end
// without a time (an agent before end times) is now. The master runs on
// a testing clock; the host is unavail, its jobs UNKWN, by the time the
// ends come.
func TestAgentEndTime(t *testing.T) {
	state := t.TempDir()
	clk := testclock.NewFakeClock(time.Unix(1_700_000_000, 0))
	d := startMasterClock(t, state, "127.0.0.1:0", time.Hour, clk)
	c := unixClient(state)
	agent := tcpClient(d.Addr(), "s3cret", "boss")
	exchange := agentExchange(t, agent, "hostA", 5)
	first := exchange(api.AgentSync{})
	if !first.EndTimes {
		t.Fatalf("answer %+v: want one that says the master reads end times", first)
	}
	ids := map[int64]bool{}
	for range 4 {
		ids[c.submit(t, api.SubmitRequest{Command: "true", Hosts: []string{"hostA"}}).ID] = true
	}
	runs := map[int64]api.AgentRun{}
	var ack uint64
	stepUntil(t, clk, 10*time.Millisecond, "the orders of the four jobs", func() bool {
		for _, o := range exchange(api.AgentSync{Session: first.Session}).Orders {
			if o.Spec != nil && ids[o.Job] {
				runs[o.Job], ack = o.AgentRun, max(ack, o.Seq)
			}
		}
		return len(runs) == len(ids)
	})
	clk.Step(10 * time.Minute)
	// The master's now, as it reads its clock; the jobs' hosts stopped
	// reporting meanwhile (the agent could not reach the master).
	now := float64(clk.Now().UnixNano()) / 1e9
	var known []api.AgentRun
	var ends []api.AgentEnd
	want := map[int64]float64{}
	i := 0
	for id := range ids {
		run := runs[id]
		var end float64
		switch i {
		case 0: // five minutes ago
			end, want[id] = now-300, now-300
		case 1: // before the start: a clock behind the master's
			end, want[id] = run.Start-90, run.Start
		case 2: // after now: a clock ahead
			end, want[id] = now+3600, now
		case 3: // no time
			want[id] = now
		}
		i++
		known = append(known, run)
		ends = append(ends, api.AgentEnd{AgentRun: run, End: end})
	}
	out := exchange(api.AgentSync{Session: first.Session, Ack: ack, Known: known, Ends: ends})
	if len(out.Done) != len(ends) {
		t.Fatalf("answer to the ends: done %v, want the four runs", out.Done)
	}
	for id, end := range want {
		j := c.waitState(t, id, "DONE")
		if j.End != int64(end) || j.Start != int64(runs[id].Start) {
			t.Errorf("job %d: started %d, ended %d; want started %v, ended %v", id, j.Start, j.End, runs[id].Start, end)
		}
	}
	finish := map[int64]float64{}
	for _, r := range logRecords(t, state) {
		if r["t"] == "finish" {
			finish[int64(r["job"].(float64))] = r["at"].(float64)
		}
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	acct := map[int64]lsbacct.Record{}
	for _, r := range acctRecords(t, state) {
		acct[r.JobID] = r
	}
	for id, end := range want {
		if finish[id] != end {
			t.Errorf("job %d: finish record at %v, want %v", id, finish[id], end)
		}
		start := int64(runs[id].Start)
		if r := acct[id]; r.EventTime != int64(end) || r.StartTime != start || r.RunTime != int64(end)-start {
			t.Errorf("job %d: lsb.acct record at %d, started %d, ran %d s; want at %d, ran %d s", id, r.EventTime, r.StartTime, r.RunTime, int64(end), int64(end)-start)
		}
	}
}

// agentExchange reports the load of an agent of host, which exchanges
// with the master every interval seconds, through agent, and returns the
// agent's exchange: req, of host, sent to the master, its answer read; a
// failed exchange ends the test.
func agentExchange(t *testing.T, agent *client, host string, interval float64) func(req api.AgentSync) api.AgentOrders {
	t.Helper()
	if code, err := agent.call("POST", "/v1/agent/load", api.AgentLoad{Host: host, Interval: interval}, nil); err != nil || code != http.StatusOK {
		t.Fatalf("load report: %d %v", code, err)
	}
	return func(req api.AgentSync) api.AgentOrders {
		t.Helper()
		req.Host, req.Interval = host, interval
		var out api.AgentOrders
		if code, err := agent.call("POST", "/v1/agent/sync", req, &out); err != nil || code != http.StatusOK {
			t.Fatalf("exchange: %d %v", code, err)
		}
		return out
	}
}
