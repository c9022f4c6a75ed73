package daemon_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/daemon"
	"github.com/lsfc/lsfc/runtime/localexec"
)

// TestCwdFallback: a job whose -cwd cannot be entered runs in /tmp, as
// LSF runs it, and the job says so (bjobs -l's Execution CWD) while it
// runs, once it ended, after a restart and after a compaction; the
// directory it asked for stays its CWD.
func TestCwdFallback(t *testing.T) {
	p, err := compileTree(writeConf(t))
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	start := func() *daemon.Daemon {
		d, err := daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: state,
			WrapperPath: []string{os.Args[0], localexec.WrapperArg}, MinInterval: 5 * time.Millisecond,
			CompactEvery: 4, Logf: t.Logf})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	d := start()
	c := unixClient(state)
	out := filepath.Join(t.TempDir(), "pwd.out")
	gone := filepath.Join(t.TempDir(), "removed")
	gate := filepath.Join(t.TempDir(), "gate")
	id := c.submit(t, api.SubmitRequest{Command: "pwd; while [ ! -e " + gate + " ]; do sleep 0.05; done", Cwd: gone,
		Stdout: out, Umask: -1}).ID
	c.waitState(t, id, "RUN")
	// The executor knows the directory once the job's wrapper answered.
	var j api.Job
	waitFor(t, "the running job's Execution CWD to be /tmp", func() bool {
		j = c.job(t, id)
		return j.ExecCwd == "/tmp"
	})
	if j.State != "RUN" || j.Cwd != gone {
		t.Errorf("running job: %s, CWD %q; want RUN and %q", j.State, j.Cwd, gone)
	}
	ok := c.submit(t, api.SubmitRequest{Command: "true", Cwd: t.TempDir(), Umask: -1}).ID
	os.WriteFile(gate, nil, 0o644)
	j = c.waitState(t, id, "DONE")
	if j.ExecCwd != "/tmp" {
		t.Errorf("finished job: Execution CWD %q, want /tmp", j.ExecCwd)
	}
	if b, err := os.ReadFile(out); err != nil || strings.TrimSpace(reportedOutput(t, b)) != "/tmp" {
		t.Errorf("the job's pwd: %q %v, want /tmp", b, err)
	}
	if k := c.waitState(t, ok, "DONE"); k.ExecCwd != k.Cwd {
		t.Errorf("a job that entered its CWD %q shows Execution CWD %q", k.Cwd, k.ExecCwd)
	}
	// With LSB_EXIT_IF_CWD_NOTEXIST=Y in its environment it exits with
	// code 2 instead, as LSF's does.
	strict := c.submit(t, api.SubmitRequest{Command: "true", Cwd: gone, Env: []string{"LSB_EXIT_IF_CWD_NOTEXIST=Y"}, Umask: -1}).ID
	if j := c.waitState(t, strict, "EXIT", "DONE"); j.State != "EXIT" || j.ExitCode != 2 || j.Term != "TERM_CWD_NOTEXIST" {
		t.Errorf("a job with LSB_EXIT_IF_CWD_NOTEXIST=Y and no CWD: %s, exit code %d, %q; want EXIT, 2, TERM_CWD_NOTEXIST",
			j.State, j.ExitCode, j.Term)
	}
	for _, when := range []string{"after a restart", "after a compaction"} {
		d.Close()
		d = start()
		if j := c.job(t, id); j.ExecCwd != "/tmp" || j.Cwd != gone {
			t.Errorf("%s: CWD %q, Execution CWD %q; want %q and /tmp", when, j.Cwd, j.ExecCwd, gone)
		}
		for range 5 { // past CompactEvery transactions
			c.submit(t, api.SubmitRequest{Command: "true", Hold: true})
		}
	}
	d.Close()
}

// TestCwdFallbackAgent: the same for a job an execution agent runs: its
// agent reports where it runs, and its end where it ran.
func TestCwdFallbackAgent(t *testing.T) {
	state := t.TempDir()
	d := startMaster(t, state, "127.0.0.1:0", time.Hour)
	defer d.Close()
	a := startAgent(t, d.Addr(), "hostB", t.TempDir())
	defer a.Close()
	c := unixClient(state)
	c.waitHost(t, "hostB", "ok")
	gone := filepath.Join(t.TempDir(), "removed")
	// The job also ends once the test's directories are gone, so that a
	// failed test leaves no job behind.
	gateDir := t.TempDir()
	gate := filepath.Join(gateDir, "gate")
	id := c.submit(t, api.SubmitRequest{Command: "while [ ! -e " + gate + " ] && [ -d " + gateDir + " ]; do sleep 0.05; done", Cwd: gone,
		Hosts: []string{"hostB"}, Umask: -1}).ID
	var j api.Job
	waitFor(t, "the agent's job to run in /tmp", func() bool {
		j = c.job(t, id)
		return j.State == "RUN" && j.ExecCwd == "/tmp"
	})
	os.WriteFile(gate, nil, 0o644)
	if j = c.waitState(t, id, "DONE"); j.ExecCwd != "/tmp" || j.Cwd != gone || j.ExecHosts[0] != "hostB" {
		t.Errorf("finished on hostB: CWD %q, Execution CWD %q, hosts %v; want %q, /tmp, hostB", j.Cwd, j.ExecCwd, j.ExecHosts, gone)
	}
}
