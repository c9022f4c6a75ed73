package daemon_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/daemon"
	"github.com/lsfc/lsfc/runtime/localexec"
	"github.com/lsfc/lsfc/runtime/sbatchd"
)

// postprocConf has two hosts of one slot each; queue hosts runs
// host-based pre- and post-execution commands that note the host they
// run for in the file %[1]s; profile incl includes the post-execution
// processing in its jobs.
const postprocConf = `-- lsf.shared --
Begin Cluster
ClusterName
test
End Cluster
-- lsf.cluster.test --
Begin Host
HOSTNAME  model  type  server  RESOURCES
hostA     !      !     1       ()
hostB     !      !     1       ()
End Host
-- lsb.hosts --
Begin Host
HOST_NAME  MXJ
default    1
End Host
-- lsb.params --
Begin Parameters
DEFAULT_QUEUE = normal
JOB_ACCEPT_INTERVAL = 0
End Parameters
-- lsb.queues --
Begin Queue
QUEUE_NAME = normal
PRIORITY   = 30
HOSTS      = hostA
End Queue

Begin Queue
QUEUE_NAME     = hosts
PRIORITY       = 30
HOST_PRE_EXEC  = echo pre $HOSTNAME >> %[1]s; test "$HOSTNAME" != "$(cat %[1]s.fail 2>/dev/null)"
HOST_POST_EXEC = echo post $HOSTNAME >> %[1]s
End Queue
-- lsb.applications --
Begin Application
NAME                 = incl
JOB_INCLUDE_POSTPROC = Y
End Application
`

// startPostproc starts a daemon of postprocConf on state, its host-based
// commands noting in log.
func startPostproc(t *testing.T, state, log string) *daemon.Daemon {
	t.Helper()
	p, err := compileTree(testkit.WriteArchive(t, fmt.Sprintf(postprocConf, log)))
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

// waitFile waits until a command of a test wrote name: a gate script
// blocks until the test creates its gate.
func gateCmd(gate string) string {
	return "while [ ! -e " + gate + " ]; do sleep 0.05; done"
}

// TestPostprocAfterEnd: by default (JOB_INCLUDE_POSTPROC=N) a job is
// DONE as soon as its command ends, its slot goes to the next job while
// its post-execution command runs on, and post_done dependencies wait
// for that command, whose end is recorded even when the daemon restarts
// in between. With JOB_INCLUDE_POSTPROC=Y (the profile's, or
// LSB_JOB_INCLUDE_POSTPROC=Y of the job's environment) the job stays RUN,
// holding its slot, until its post-execution command ends.
func TestPostprocAfterEnd(t *testing.T) {
	state, work := t.TempDir(), t.TempDir()
	log := filepath.Join(work, "log")
	d := startPostproc(t, state, log)
	c := unixClient(state)
	env := []string{"PATH=" + os.Getenv("PATH")}
	gate := filepath.Join(work, "gate")
	sub := func(req api.SubmitRequest) int64 {
		req.Cwd, req.Env, req.Umask = work, append(slices.Clone(env), req.Env...), -1
		if req.Stdout == "" {
			req.Stdout = "/dev/null"
		}
		return c.submit(t, req).ID
	}
	first := sub(api.SubmitRequest{Command: "echo job", Stdout: "first.out", PostExec: "echo post; " + gateCmd(gate)})
	if j := c.waitState(t, first, "DONE", "EXIT"); j.State != "DONE" || j.PostExec == "POST_DONE" {
		t.Fatalf("job %d ended %s with post-execution %q, want DONE before its post-execution ends", first, j.State, j.PostExec)
	}
	// Its slot, the only one of hostA, is free: the next job runs.
	next := sub(api.SubmitRequest{Command: "true"})
	if j := c.waitState(t, next, "DONE", "EXIT"); j.State != "DONE" {
		t.Errorf("job %d ended %s, want DONE while job %d's post-execution runs", next, j.State, first)
	}
	// Its run is not over: brequeue waits for it.
	if code, _ := c.call("POST", fmt.Sprintf("/v1/jobs/%d/requeue", first), api.ActionRequest{States: []string{"DONE"}}, nil); code != 409 {
		t.Errorf("brequeue -d of job %d while its post-execution runs: status %d, want 409", first, code)
	}
	after := sub(api.SubmitRequest{Command: "true", Depend: fmt.Sprintf("post_done(%d)", first)})
	time.Sleep(300 * time.Millisecond)
	if j := c.job(t, after); j.State != "PEND" {
		t.Errorf("job %d (post_done(%d)) is %s while the post-execution runs, want PEND", after, first, j.State)
	}
	// The daemon goes and comes back while the post-execution runs.
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	d = startPostproc(t, state, log)
	defer d.Close()
	if j := c.job(t, first); j.State != "DONE" || j.PostExec == "POST_DONE" {
		t.Errorf("after a restart job %d is %s with post-execution %q, want DONE, its post-execution running", first, j.State, j.PostExec)
	}
	if err := os.WriteFile(gate, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if !eventually(func() bool { return c.job(t, first).PostExec == "POST_DONE" }) {
		t.Fatalf("job %d: post-execution %q, want POST_DONE", first, c.job(t, first).PostExec)
	}
	if j := c.waitState(t, after, "DONE", "EXIT"); j.State != "DONE" {
		t.Errorf("job %d (post_done(%d)) ended %s, want DONE", after, first, j.State)
	}
	out, _ := os.ReadFile(filepath.Join(work, "first.out"))
	if !strings.Contains(string(out), "Successfully completed.") || !strings.HasSuffix(string(out), "job\npost\n") {
		t.Errorf("job %d's output file %q: want the report, the job's output, then the post-execution's", first, out)
	}
	var hs []api.JobHistory
	if code, err := c.call("GET", fmt.Sprintf("/v1/history?id=%d", first), nil, &hs); err != nil || code != 200 || len(hs) != 1 {
		t.Fatalf("history of job %d: %d %v %d", first, code, err, len(hs))
	}
	if k := kinds(hs[0]); !slices.Contains(k, api.EventPostDone) || slices.Index(k, api.EventPostDone) < slices.Index(k, api.EventDone) {
		t.Errorf("history of job %d: %v, want its post-execution's end after its own", first, k)
	}
	if _, err := os.Stat(filepath.Join(state, "jobs", fmt.Sprint(first)+".sh")); err == nil {
		t.Errorf("job %d's files are still there once its post-execution ended", first)
	}

	// Included: the job stays RUN and holds its slot.
	for i, req := range []api.SubmitRequest{{App: "incl"}, {Env: []string{"LSB_JOB_INCLUDE_POSTPROC=Y"}}} {
		gate := filepath.Join(work, fmt.Sprint("gate", i))
		req.Command, req.PostExec = "true", gateCmd(gate)
		held := sub(req)
		c.waitState(t, held, "RUN")
		waiting := sub(api.SubmitRequest{Command: "true"})
		time.Sleep(300 * time.Millisecond)
		if j := c.job(t, held); j.State != "RUN" {
			t.Errorf("job %d (%+v) is %s while its post-execution runs, want RUN", held, req, j.State)
		}
		if j := c.job(t, waiting); j.State != "PEND" {
			t.Errorf("job %d is %s while job %d holds the slot, want PEND", waiting, j.State, held)
		}
		os.WriteFile(gate, nil, 0o600)
		if j := c.waitState(t, held, "DONE", "EXIT"); j.State != "DONE" || j.PostExec != "POST_DONE" {
			t.Errorf("job %d ended %s with post-execution %q, want DONE and POST_DONE together", held, j.State, j.PostExec)
		}
		c.waitState(t, waiting, "DONE")
	}
}

// TestHostPrePostEveryHost: the queue's host-based pre- and
// post-execution commands run for every host of a parallel job; one
// failing on a host sends the job back to pending, and the host-based
// post-execution commands still run on every host.
func TestHostPrePostEveryHost(t *testing.T) {
	state, work := t.TempDir(), t.TempDir()
	log := filepath.Join(work, "log")
	d := startPostproc(t, state, log)
	defer d.Close()
	c := unixClient(state)
	env := []string{"PATH=" + os.Getenv("PATH")}
	id := c.submit(t, api.SubmitRequest{Command: "true", Queue: "hosts", Slots: 2, Cwd: work, Env: env, Umask: -1, Stdout: "/dev/null"}).ID
	if j := c.waitState(t, id, "DONE", "EXIT"); j.State != "DONE" {
		t.Fatalf("job %d ended %s, want DONE", id, j.State)
	}
	if !eventually(func() bool { return c.job(t, id).PostExec == "POST_DONE" }) {
		t.Fatalf("job %d: post-execution %q", id, c.job(t, id).PostExec)
	}
	b, _ := os.ReadFile(log)
	if got, want := string(b), "pre hostA\npre hostB\npost hostA\npost hostB\n"; got != want && got != strings.NewReplacer("hostA", "X", "hostB", "hostA", "X", "hostB").Replace(want) {
		t.Errorf("job %d's host-based commands noted %q, want %q", id, got, want)
	}
	// Fails for hostB: the job pends again, after the post-execution
	// commands of both hosts.
	os.Remove(log)
	os.WriteFile(log+".fail", []byte("hostB\n"), 0o600)
	id = c.submit(t, api.SubmitRequest{Command: "true", Queue: "hosts", Slots: 2, Cwd: work, Env: env, Umask: -1, Stdout: "/dev/null"}).ID
	if !eventually(func() bool { return c.job(t, id).PreExecFailures >= 1 }) {
		t.Fatalf("job %d: no pre-execution failure", id)
	}
	if !eventually(func() bool {
		b, _ := os.ReadFile(log)
		return strings.Count(string(b), "post host") >= 2
	}) {
		b, _ := os.ReadFile(log)
		t.Errorf("job %d, failed on hostB: its host-based commands noted %q, want the post-execution on both hosts", id, b)
	}
	c.call("POST", fmt.Sprintf("/v1/jobs/%d/kill", id), nil, nil)
	c.waitState(t, id, "EXIT")
}

// TestAgentPostprocAfterEnd runs a job whose post-execution command runs
// on after it on an agent's host: the job is DONE at once, its host takes
// the next job, and the end of the post-execution command, which comes
// while no master runs, is recorded by the next master.
func TestAgentPostprocAfterEnd(t *testing.T) {
	state := t.TempDir()
	d := startMaster(t, state, "127.0.0.1:0", time.Hour)
	addr := d.Addr()
	dirs := map[string]string{"hostA": t.TempDir(), "hostB": t.TempDir()}
	agents := map[string]*sbatchd.Agent{}
	for h, dir := range dirs {
		agents[h] = startAgent(t, addr, h, dir)
	}
	defer func() {
		for _, a := range agents {
			a.Close()
		}
	}()
	c := unixClient(state)
	c.waitAgent(t, "hostA")
	c.waitAgent(t, "hostB")
	work := t.TempDir()
	gate := filepath.Join(work, "gate")
	env := []string{"PATH=" + os.Getenv("PATH")}
	id := c.submit(t, api.SubmitRequest{Command: "echo job", Cwd: work, Env: env, Umask: -1, Stdout: "out.txt",
		PostExec: gateCmd(gate) + "; echo post"}).ID
	j := c.waitState(t, id, "DONE", "EXIT")
	if j.State != "DONE" || j.PostExec == "POST_DONE" {
		t.Fatalf("job %d ended %s with post-execution %q, want DONE before its post-execution ends", id, j.State, j.PostExec)
	}
	host := j.ExecHosts[0]
	if h := c.waitHost(t, host, "ok"); h.NJobs != 0 {
		t.Errorf("%s holds %d slots while only job %d's post-execution runs there", host, h.NJobs, id)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(gate, nil, 0o600)
	time.Sleep(300 * time.Millisecond)
	d = startMaster(t, state, addr, time.Hour)
	defer d.Close()
	if !eventually(func() bool { return c.job(t, id).PostExec == "POST_DONE" }) {
		t.Fatalf("job %d: post-execution %q, want POST_DONE", id, c.job(t, id).PostExec)
	}
	if out, _ := os.ReadFile(filepath.Join(work, "out.txt")); !strings.HasSuffix(string(out), "job\npost\n") {
		t.Errorf("job %d wrote %q, want its output, then the post-execution's", id, out)
	}
	next := c.submit(t, api.SubmitRequest{Command: "true", Cwd: work, Env: env, Umask: -1, Stdout: "/dev/null",
		Depend: fmt.Sprintf("post_done(%d)", id)}).ID
	c.waitState(t, next, "DONE")

	// The agent goes and comes back while the post-execution runs, and
	// it fails: the new agent reports it.
	gate = filepath.Join(work, "gate2")
	id = c.submit(t, api.SubmitRequest{Command: "true", Cwd: work, Env: env, Umask: -1, Stdout: "/dev/null",
		PostExec: gateCmd(gate) + "; exit 3"}).ID
	j = c.waitState(t, id, "DONE", "EXIT")
	host = j.ExecHosts[0]
	time.Sleep(200 * time.Millisecond) // the agent has the master's record of the job's end
	if err := agents[host].Close(); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(gate, nil, 0o600)
	agents[host] = startAgent(t, addr, host, dirs[host])
	if !eventually(func() bool { return c.job(t, id).PostExec == "POST_ERR" }) {
		t.Errorf("job %d: post-execution %q after its agent's restart, want POST_ERR", id, c.job(t, id).PostExec)
	}
}

// TestAgentHostPrePostEveryHost: a job on the hosts of two agents runs
// its queue's host-based pre- and post-execution commands on both, the
// job's own agent running them for its host and the other agent for its
// own; one failing on a host sends the job back to pending, after the
// host-based post-execution commands ran on both hosts.
func TestAgentHostPrePostEveryHost(t *testing.T) {
	state, work := t.TempDir(), t.TempDir()
	log := filepath.Join(work, "log")
	p, err := compileTree(testkit.WriteArchive(t, strings.Replace(fmt.Sprintf(postprocConf, log), "default    1", "default    4", 1)))
	if err != nil {
		t.Fatal(err)
	}
	d, err := daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: state, WrapperPath: []string{os.Args[0], localexec.WrapperArg},
		MinInterval: 5 * time.Millisecond, Listen: "127.0.0.1:0", Secret: "s3cret", HostLost: time.Hour, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, h := range []string{"hostA", "hostB"} {
		a := startAgent(t, d.Addr(), h, t.TempDir())
		defer a.Close()
	}
	c := unixClient(state)
	c.waitAgent(t, "hostA")
	c.waitAgent(t, "hostB")
	env := []string{"PATH=" + os.Getenv("PATH")}
	sub := func() int64 {
		return c.submit(t, api.SubmitRequest{Command: "true", Queue: "hosts", Slots: 2, ResReq: "span[ptile=1]", Cwd: work, Env: env,
			Umask: -1, Stdout: "/dev/null"}).ID
	}
	id := sub()
	if j := c.waitState(t, id, "DONE", "EXIT"); j.State != "DONE" || len(j.ExecHosts) != 2 {
		t.Fatalf("job %d ended %s on %v, want DONE on two hosts", id, j.State, j.ExecHosts)
	}
	lines := func() []string {
		b, _ := os.ReadFile(log)
		l := strings.Split(strings.TrimSpace(string(b)), "\n")
		slices.Sort(l)
		return l
	}
	want := []string{"post hostA", "post hostB", "pre hostA", "pre hostB"}
	if !eventually(func() bool { return slices.Equal(lines(), want) }) {
		t.Errorf("job %d's host-based commands noted %q, want %q", id, lines(), want)
	}
	if !eventually(func() bool { return c.job(t, id).PostExec == "POST_DONE" }) {
		t.Errorf("job %d: post-execution %q, want POST_DONE", id, c.job(t, id).PostExec)
	}
	os.Remove(log)
	os.WriteFile(log+".fail", []byte("hostB\n"), 0o600)
	id = sub()
	if !eventually(func() bool { return c.job(t, id).PreExecFailures >= 1 }) {
		t.Fatalf("job %d: no pre-execution failure", id)
	}
	if !eventually(func() bool { l := lines(); return slices.Contains(l, "post hostA") && slices.Contains(l, "post hostB") }) {
		t.Errorf("job %d, failed on hostB: its host-based commands noted %q, want the post-execution on both hosts", id, lines())
	}
	c.call("POST", fmt.Sprintf("/v1/jobs/%d/kill", id), nil, nil)
	c.waitState(t, id, "EXIT")
}
