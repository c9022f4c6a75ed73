package daemon_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/daemon"
	"github.com/lsfc/lsfc/runtime/localexec"
)

// startPlain starts a daemon of memConf's cluster on state.
func startPlain(t *testing.T, state string) *daemon.Daemon {
	t.Helper()
	p, err := compileTree(testkit.WriteArchive(t, memConf))
	if err != nil {
		t.Fatal(err)
	}
	d, err := daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: state,
		WrapperPath: []string{os.Args[0], localexec.WrapperArg}, MinInterval: 5 * time.Millisecond, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// TestBeginAndTermTime submits a job that may not start for two seconds
// (-b): it pends with LSF's reason, then runs; and one whose termination
// time (-t) comes while it runs: it gets SIGUSR2, which ends it, and
// exits with TERM_DEADLINE, also after a restart. A termination time
// already past is refused.
func TestBeginAndTermTime(t *testing.T) {
	state := t.TempDir()
	d := startPlain(t, state)
	c := unixClient(state)
	now := time.Now()
	env := []string{"PATH=" + os.Getenv("PATH")}
	begin := c.submit(t, api.SubmitRequest{Command: "true", Cwd: t.TempDir(), Stdout: "/dev/null", Env: env,
		BeginTime: now.Add(2 * time.Second).Unix()}).ID
	// The termination time is read from the clock again: a loaded machine
	// can take more than a second to get here, and a time already past
	// is refused.
	term := c.submit(t, api.SubmitRequest{Command: "sleep 60", Cwd: t.TempDir(), Stdout: "/dev/null", Env: env,
		TermTime: time.Now().Add(3 * time.Second).Unix()}).ID
	time.Sleep(300 * time.Millisecond)
	if j := c.job(t, begin); j.State != "PEND" || j.Reason != "The job has a specified start time" {
		t.Errorf("job %d (-b in 2 s) is %s (%s), want PEND with LSF's reason", begin, j.State, j.Reason)
	}
	if j := c.waitState(t, begin, "DONE", "EXIT"); j.State != "DONE" || j.Start < now.Add(time.Second).Unix() {
		t.Errorf("job %d (-b) ended %s having started at %d, want DONE, not before %d", begin, j.State, j.Start, now.Add(time.Second).Unix())
	}
	if j := c.waitState(t, term, "DONE", "EXIT"); j.State != "EXIT" || j.Term != "TERM_DEADLINE" || j.ExitCode != 128+12 {
		t.Errorf("job %d (-t in 3 s) ended %s %q with exit code %d, want EXIT TERM_DEADLINE by SIGUSR2 (140)", term, j.State, j.Term, j.ExitCode)
	}
	if code, _ := c.call("POST", "/v1/jobs", api.SubmitRequest{Command: "true", TermTime: now.Add(-time.Minute).Unix()}, nil); code != 400 {
		t.Errorf("a termination time past: status %d, want 400", code)
	}
	d.Close()
	d = startPlain(t, state)
	defer d.Close()
	if j := c.job(t, term); j.State != "EXIT" || j.Term != "TERM_DEADLINE" {
		t.Errorf("after a restart job %d is %s %q, want EXIT TERM_DEADLINE", term, j.State, j.Term)
	}
}

// TestCPULimit runs a job that spins past its CPU limit of a second: it
// exits with TERM_CPULIMIT; one within its limit is DONE.
func TestCPULimit(t *testing.T) {
	state := t.TempDir()
	d := startPlain(t, state)
	defer d.Close()
	c := unixClient(state)
	env := []string{"PATH=" + os.Getenv("PATH")}
	spin := c.submit(t, api.SubmitRequest{Command: "while :; do :; done", Cwd: t.TempDir(), Stdout: "/dev/null", Env: env, CPULimit: 1}).ID
	idle := c.submit(t, api.SubmitRequest{Command: "sleep 1", Cwd: t.TempDir(), Stdout: "/dev/null", Env: env, CPULimit: 1}).ID
	if j := c.waitState(t, spin, "DONE", "EXIT"); j.State != "EXIT" || j.Term != "TERM_CPULIMIT" {
		t.Errorf("job %d (spins, -c 1 s) ended %s %q, want EXIT TERM_CPULIMIT", spin, j.State, j.Term)
	}
	if j := c.waitState(t, idle, "DONE", "EXIT"); j.State != "DONE" {
		t.Errorf("job %d (sleeps, -c 1 s) ended %s %q, want DONE", idle, j.State, j.Term)
	}
	if code, _ := c.call("POST", "/v1/jobs", api.SubmitRequest{Command: "true", CPULimit: 60, CPUSpec: "nosuch"}, nil); code != 400 {
		t.Errorf("-c 1/nosuch: status %d, want 400", code)
	}
}

// TestAgentPrePost runs jobs with pre- and post-execution commands, an
// input file, a login shell and an output directory on agents' hosts:
// a failing pre-execution command is retried until the job is PSUSP,
// and the rest runs as through the local executor.
func TestAgentPrePost(t *testing.T) {
	state := t.TempDir()
	d := startMaster(t, state, "127.0.0.1:0", time.Hour)
	defer d.Close()
	a := startAgent(t, d.Addr(), "hostA", t.TempDir())
	defer a.Close()
	b := startAgent(t, d.Addr(), "hostB", t.TempDir())
	defer b.Close()
	c := unixClient(state)
	c.waitAgent(t, "hostA")
	c.waitAgent(t, "hostB")
	work := t.TempDir()
	env := []string{"PATH=" + os.Getenv("PATH")}
	if err := os.WriteFile(filepath.Join(work, "in.txt"), []byte("from the input file\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ok := c.submit(t, api.SubmitRequest{Command: "cat; echo job in $LSB_OUTDIR", Cwd: work, Env: env, Umask: -1,
		Stdout: "out.txt", Input: "in.txt", OutDir: "dir.%J", LoginShell: "/bin/sh",
		PreExec: "echo pre", PostExec: "echo post $LSB_JOBEXIT_STAT"}).ID
	j := c.waitState(t, ok, "DONE", "EXIT")
	if j.State != "DONE" {
		t.Fatalf("job %d ended %s %q, want DONE", ok, j.State, j.Term)
	}
	if !eventually(func() bool { return c.job(t, ok).PostExec == "POST_DONE" }) {
		t.Errorf("job %d: post-execution %q, want POST_DONE", ok, c.job(t, ok).PostExec)
	}
	dir := filepath.Join(work, "dir."+strconv.FormatInt(ok, 10))
	out, err := os.ReadFile(filepath.Join(dir, "out.txt"))
	if err != nil {
		t.Fatal(err)
	}
	want := "pre\nfrom the input file\njob in " + dir + "\npost 0\n"
	// After the job report's header, the output of the job and of its
	// pre- and post-execution commands.
	if !strings.HasSuffix(string(out), "\n\n"+want) {
		t.Errorf("job %d wrote %q, want it to end with %q", ok, out, want)
	}
	fail := c.submit(t, api.SubmitRequest{Command: "true", Cwd: work, Env: env, Umask: -1, Stdout: "/dev/null",
		PreExec: "echo x >> " + filepath.Join(work, "tries") + "; exit 1"}).ID
	// The cluster's LOCAL_MAX_PREEXEC_RETRY is unlimited: the job is
	// tried again and again, pending in between.
	if !eventually(func() bool {
		b, _ := os.ReadFile(filepath.Join(work, "tries"))
		return strings.Count(string(b), "x") >= 3
	}) {
		t.Fatalf("job %d: its pre-execution command was not tried three times", fail)
	}
	if j := c.job(t, fail); j.State != "PEND" && j.State != "RUN" || j.PreExecFailures < 2 {
		t.Errorf("job %d is %s after %d failures, want PEND or RUN, tried again", fail, j.State, j.PreExecFailures)
	}
	// It would be tried for ever: it goes, and nothing of it writes to
	// the test's directory any more.
	if code, err := c.call("POST", "/v1/jobs/"+strconv.FormatInt(fail, 10)+"/kill", nil, nil); err != nil || code != 200 {
		t.Fatalf("bkill %d: %d %v", fail, code, err)
	}
	c.waitState(t, fail, "EXIT")
	// A pre-execution command that fails on one host only: the job is
	// tried on the other, and runs there.
	for _, bad := range []string{"hostA", "hostB"} {
		id := c.submit(t, api.SubmitRequest{Command: "true", Cwd: work, Env: env, Umask: -1, Stdout: "/dev/null",
			PreExec: `test "$LSB_HOSTS" != ` + bad}).ID
		j := c.waitState(t, id, "DONE", "EXIT")
		if j.State != "DONE" || len(j.ExecHosts) == 0 || j.ExecHosts[0] == bad || j.PreExecFailures > 1 {
			t.Errorf("job %d (pre-execution fails on %s) ended %s on %v after %d failures, want DONE on the other host after one at most",
				id, bad, j.State, j.ExecHosts, j.PreExecFailures)
		}
	}
}
