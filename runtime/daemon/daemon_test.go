package daemon_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/lint"
	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/daemon"
	"github.com/lsfc/lsfc/runtime/localexec"
)

// TestMain lets the test binary act as the job wrapper, and as a daemon
// of its own for the crash test.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == localexec.WrapperArg {
		os.Exit(localexec.WrapperMain(os.Args[2:]))
	}
	if conf := os.Getenv("LSFC_TEST_SERVE_CONF"); conf != "" {
		os.Exit(serveForTest(conf, os.Getenv("LSFC_TEST_SERVE_STATE")))
	}
	os.Exit(m.Run())
}

// serveForTest runs a daemon until it is killed; with
// LSFC_TEST_SERVE_LISTEN it listens there too, as a MultiCluster peer,
// and with LSFC_TEST_SERVE_STARTER its jobs run under that job starter
// (a command line, split at blanks).
func serveForTest(conf, state string) int {
	p, err := compileTree(conf)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	cfg := daemon.Config{Policy: p, StateDir: state, WrapperPath: []string{os.Args[0], localexec.WrapperArg},
		MinInterval: 5 * time.Millisecond, Logf: func(string, ...any) {}}
	if starter := strings.Fields(os.Getenv("LSFC_TEST_SERVE_STARTER")); len(starter) > 0 {
		cfg.WrapperPath = starter
	}
	if addr := os.Getenv("LSFC_TEST_SERVE_LISTEN"); addr != "" {
		cfg.Listen, cfg.Secret, cfg.MCInterval = addr, "s3cret", 100*time.Millisecond
	}
	if path := os.Getenv("LSFC_TEST_SERVE_CPUPROFILE"); path != "" {
		// The daemon's profile, written when it is told to stop
		// (SIGTERM), as the benchmarks that start it do.
		f, err := os.Create(path)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 2
		}
		term := make(chan os.Signal, 1)
		signal.Notify(term, syscall.SIGTERM)
		go func() {
			<-term
			pprof.StopCPUProfile()
			f.Close()
			os.Exit(1)
		}()
	}
	d, err := daemon.Start(context.Background(), cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	<-d.Done()
	return 1
}

const testConf = `-- lsf.shared --
Begin Cluster
ClusterName
test
End Cluster
-- lsf.cluster.test --
Begin ClusterAdmins
Administrators = (boss)
End ClusterAdmins
Begin Host
HOSTNAME  model  type  server  RESOURCES
hostA     !      !     1       ()
hostB     !      !     1       ()
End Host
-- lsb.hosts --
Begin Host
HOST_NAME  MXJ
default    8
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
End Queue

Begin Queue
QUEUE_NAME     = owned
PRIORITY       = 20
ADMINISTRATORS = qadmin
End Queue
`

// writeConf writes the test configuration into a directory and returns
// it.
func writeConf(t testing.TB) string {
	t.Helper()
	return testkit.WriteArchive(t, testConf)
}

func compileTree(dir string) (*compile.Policy, error) {
	res, err := lint.Run([]string{dir}, lint.Options{})
	if err != nil {
		return nil, err
	}
	if res.Diagnostics.HasErrors() {
		return nil, res.Diagnostics.Err()
	}
	return res.Policy, nil
}

// startDaemon starts a daemon on a fresh state directory (or the one
// given) with a TCP listener.
func startDaemon(t *testing.T, state string) (*daemon.Daemon, string) {
	t.Helper()
	p, err := compileTree(writeConf(t))
	if err != nil {
		t.Fatal(err)
	}
	if state == "" {
		state = t.TempDir()
	}
	d, err := daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: state, WrapperPath: []string{os.Args[0], localexec.WrapperArg},
		MinInterval: 5 * time.Millisecond, Listen: "127.0.0.1:0", Secret: "s3cret", Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	return d, state
}

// client is a test client of the API.
type client struct {
	http   *http.Client
	base   string
	secret string
	user   string
}

func unixClient(state string) *client {
	sock := api.SocketPath(state)
	return &client{base: "http://lsfc", http: &http.Client{Timeout: 20 * time.Second, Transport: &http.Transport{
		DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, "unix", sock)
		}}}}
}

func tcpClient(addr, secret, user string) *client {
	return &client{base: "http://" + addr, http: &http.Client{Timeout: 20 * time.Second}, secret: secret, user: user}
}

// call sends a request and decodes the answer into out; it returns the
// status code.
func (c *client) call(method, path string, body, out any) (int, error) {
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case []byte:
		rd = bytes.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			return 0, err
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, c.base+path, rd)
	if err != nil {
		return 0, err
	}
	if c.secret != "" {
		req.Header.Set(api.HeaderAuthorization, "Bearer "+c.secret)
	}
	if c.user != "" {
		req.Header.Set(api.HeaderUser, c.user)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return resp.StatusCode, err
	}
	if out != nil && resp.StatusCode == http.StatusOK {
		if err := json.Unmarshal(data, out); err != nil {
			return resp.StatusCode, fmt.Errorf("%s %s: %w", method, path, err)
		}
	}
	return resp.StatusCode, nil
}

func (c *client) submit(t *testing.T, req api.SubmitRequest) api.SubmitResponse {
	t.Helper()
	var out api.SubmitResponse
	code, err := c.call("POST", "/v1/jobs", req, &out)
	if err != nil || code != http.StatusOK {
		t.Fatalf("submit: %d %v", code, err)
	}
	return out
}

func (c *client) job(t *testing.T, id int64) api.Job {
	t.Helper()
	var out api.Job
	code, err := c.call("GET", fmt.Sprintf("/v1/jobs/%d", id), nil, &out)
	if err != nil || code != http.StatusOK {
		t.Fatalf("job %d: %d %v", id, code, err)
	}
	return out
}

// waitState polls a job until it reaches one of the states.
func (c *client) waitState(t *testing.T, id int64, states ...string) api.Job {
	t.Helper()
	var j api.Job
	if !eventually(func() bool {
		j = c.job(t, id)
		return slices.Contains(states, j.State)
	}) {
		t.Fatalf("job %d is %s (%s), not %v", id, j.State, j.Reason, states)
	}
	return j
}

func TestRunJob(t *testing.T) {
	d, state := startDaemon(t, "")
	defer d.Close()
	c := unixClient(state)
	work := t.TempDir()
	sub := c.submit(t, api.SubmitRequest{Command: `echo "job $LSB_JOBID in $LSB_QUEUE on $LSB_HOSTS: $GREETING"; pwd; exit 3`,
		Cwd: work, Env: []string{"GREETING=hello", "PATH=" + os.Getenv("PATH")}, Umask: 0o022,
		Stdout: "out.%J", Slots: 2, Name: "first"})
	if sub.Queue != "normal" || !sub.Default {
		t.Errorf("submitted to %+v, want the default queue normal", sub)
	}
	j := c.waitState(t, sub.ID, "DONE", "EXIT")
	if j.State != "EXIT" || j.ExitCode != 3 {
		t.Errorf("job ended %s with %d, want EXIT 3", j.State, j.ExitCode)
	}
	out, err := os.ReadFile(filepath.Join(work, fmt.Sprintf("out.%d", sub.ID)))
	if err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("job %d in normal on %s: hello\n%s\n", sub.ID, strings.Join(j.ExecHosts, " "), work)
	if got := reportedOutput(t, out); got != want {
		t.Errorf("output %q, want %q", got, want)
	}
}

// TestStartContext stops a daemon by ending the context it was started
// with: it stops as Close stops it (Done closed, no error, the state
// directory free for the next daemon), and Close after then returns at
// once.
func TestStartContext(t *testing.T) {
	p, err := compileTree(writeConf(t))
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	d, err := daemon.Start(ctx, daemon.Config{Policy: p, StateDir: state, WrapperPath: []string{os.Args[0], localexec.WrapperArg},
		Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	c := unixClient(state)
	id := c.submit(t, api.SubmitRequest{Command: "true", Hold: true}).ID
	cancel()
	select {
	case <-d.Done():
	case <-time.After(20 * time.Second):
		t.Fatal("the daemon still runs after its context ended")
	}
	if err := d.Err(); err != nil {
		t.Errorf("Err after the context ended: %v, want nil", err)
	}
	if err := d.Close(); err != nil {
		t.Errorf("Close after the context ended: %v, want nil", err)
	}
	d2, _ := startDaemon(t, state)
	defer d2.Close()
	if j := c.job(t, id); j.State != "PSUSP" {
		t.Errorf("job %d is %s in the next daemon, want PSUSP", id, j.State)
	}
}

// TestRestartRecovers stops the daemon while a job runs and another is
// pending; the job ends while no daemon runs. The next daemon on the same
// state directory finds both, and the job that ended has its real status
// as the recovery read it, before the daemon answers.
func TestRestartRecovers(t *testing.T) {
	d, state := startDaemon(t, "")
	c := unixClient(state)
	running := c.submit(t, api.SubmitRequest{Command: "sleep 1; exit 7", Cwd: t.TempDir()})
	c.waitState(t, running.ID, "RUN")
	held := c.submit(t, api.SubmitRequest{Command: "true", Hold: true, Queue: "normal"})
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	// The job ends while no daemon runs: its wrapper writes its status.
	status := filepath.Join(state, "jobs", fmt.Sprintf("%d.status", running.ID))
	waitFor(t, "the status file of the job that ends while no daemon runs", func() bool {
		_, err := os.Stat(status)
		return err == nil
	})
	d2, _ := startDaemon(t, state)
	defer d2.Close()
	// Start recovered the job from its status file: at the first
	// question it has ended, not only once a watch saw it end.
	if j := c.job(t, running.ID); j.State != "EXIT" || j.ExitCode != 7 {
		t.Errorf("job %d is %s %d after a restart that found its status file, want EXIT 7", running.ID, j.State, j.ExitCode)
	}
	if j := c.job(t, held.ID); j.State != "PSUSP" {
		t.Errorf("held job is %s after restart", j.State)
	}
	next := c.submit(t, api.SubmitRequest{Command: "true"})
	if next.ID <= held.ID {
		t.Errorf("job number %d reused after %d", next.ID, held.ID)
	}
	// Its files are written before the state directory is removed.
	c.waitState(t, next.ID, "DONE", "EXIT")
}

// TestAccess checks who may do what: users control their own jobs only,
// administrators all; a queue administrator controls their queue; the TCP
// listener wants the secret; bad requests change nothing.
func TestAccess(t *testing.T) {
	d, state := startDaemon(t, "")
	defer d.Close()
	addr := d.Addr()
	alice := tcpClient(addr, "s3cret", "alice")
	bob := tcpClient(addr, "s3cret", "bob")
	boss := tcpClient(addr, "s3cret", "boss")
	qadmin := tcpClient(addr, "s3cret", "qadmin")
	job := alice.submit(t, api.SubmitRequest{Command: "sleep 30", Hold: true})
	owned := alice.submit(t, api.SubmitRequest{Command: "sleep 30", Hold: true, Queue: "owned"})
	for _, action := range []string{"kill", "stop", "resume", "top", "bottom"} {
		if code, _ := bob.call("POST", fmt.Sprintf("/v1/jobs/%d/%s", job.ID, action), nil, nil); code != http.StatusForbidden {
			t.Errorf("bob %s alice's job: %d, want 403", action, code)
		}
	}
	if code, _ := bob.call("POST", fmt.Sprintf("/v1/jobs/%d/switch", job.ID), api.ActionRequest{Queue: "owned"}, nil); code != http.StatusForbidden {
		t.Errorf("bob switch alice's job: %d, want 403", code)
	}
	if code, _ := bob.call("POST", fmt.Sprintf("/v1/jobs/%d/modify", job.ID), api.ActionRequest{Modify: &api.SubmitRequest{Name: "x"}}, nil); code != http.StatusForbidden {
		t.Errorf("bob modify alice's job: %d, want 403", code)
	}
	if code, _ := bob.call("POST", "/v1/queues/normal/close", nil, nil); code != http.StatusForbidden {
		t.Errorf("bob closes a queue: %d, want 403", code)
	}
	if code, _ := qadmin.call("POST", "/v1/queues/normal/close", nil, nil); code != http.StatusForbidden {
		t.Errorf("owned's administrator closes normal: %d, want 403", code)
	}
	if code, _ := qadmin.call("POST", "/v1/queues/owned/close", nil, nil); code != http.StatusOK {
		t.Errorf("owned's administrator closes owned: %d, want 200", code)
	}
	if code, _ := qadmin.call("POST", fmt.Sprintf("/v1/jobs/%d/kill", owned.ID), nil, nil); code != http.StatusOK {
		t.Errorf("owned's administrator kills a job of owned: %d, want 200", code)
	}
	if code, _ := bob.call("POST", "/v1/hosts/hostA/close", nil, nil); code != http.StatusForbidden {
		t.Errorf("bob closes a host: %d, want 403", code)
	}
	if code, _ := boss.call("POST", "/v1/hosts/hostA/close", nil, nil); code != http.StatusOK {
		t.Errorf("the cluster administrator closes a host: %d, want 200", code)
	}
	if code, _ := boss.call("POST", fmt.Sprintf("/v1/jobs/%d/kill", job.ID), nil, nil); code != http.StatusOK {
		t.Errorf("the cluster administrator kills alice's job: %d, want 200", code)
	}
	for _, bad := range []*client{tcpClient(addr, "", "alice"), tcpClient(addr, "wrong", "alice"), tcpClient(addr, "s3cret", "")} {
		if code, _ := bad.call("GET", "/v1/jobs", nil, nil); code != http.StatusUnauthorized {
			t.Errorf("secret %q user %q: %d, want 401", bad.secret, bad.user, code)
		}
	}
	// Bad requests: 4xx, and no job appears.
	before := 0
	var list []api.Job
	alice.call("GET", "/v1/jobs?user=all&all=1", nil, &list)
	before = len(list)
	bad := []struct {
		body any
		want int
	}{
		{[]byte("{not json"), http.StatusBadRequest},
		{[]byte(`{"command":"true","bogus":1}`), http.StatusBadRequest},
		{[]byte(`{"command":"true"} {"command":"true"}`), http.StatusBadRequest},
		{api.SubmitRequest{}, http.StatusBadRequest},
		{api.SubmitRequest{Command: "true", Slots: -1}, http.StatusBadRequest},
		{api.SubmitRequest{Command: "true", Queue: "nosuch"}, http.StatusBadRequest},
		{api.SubmitRequest{Command: "true", Env: []string{"NOEQUALS"}}, http.StatusBadRequest},
		{[]byte(`{"command":"` + strings.Repeat("x", api.MaxRequestBytes) + `"}`), http.StatusRequestEntityTooLarge},
	}
	for i, b := range bad {
		if code, _ := alice.call("POST", "/v1/jobs", b.body, nil); code != b.want {
			t.Errorf("bad request %d: %d, want %d", i, code, b.want)
		}
	}
	for _, path := range []string{"/v1/jobs/abc", "/v1/jobs/-1", "/v1/jobs/99999"} {
		if code, _ := alice.call("GET", path, nil, nil); code/100 != 4 {
			t.Errorf("GET %s: %d, want 4xx", path, code)
		}
	}
	alice.call("GET", "/v1/jobs?user=all&all=1", nil, &list)
	if len(list) != before {
		t.Errorf("%d jobs after bad requests, %d before", len(list), before)
	}
	// The Unix socket knows its callers: this process's user may do all
	// it asks on its own jobs.
	u := unixClient(state)
	mine := u.submit(t, api.SubmitRequest{Command: "true", Hold: true})
	if code, _ := u.call("POST", fmt.Sprintf("/v1/jobs/%d/kill", mine.ID), nil, nil); code != http.StatusOK {
		t.Errorf("killing one's own job: %d", code)
	}
}

// TestLogDamage cuts the event log at every byte of its last
// transactions, as a crash in the middle of a write leaves it: the daemon
// starts on the last complete transaction, and says so. A byte flipped
// inside the log stops the start with an error naming the offset.
func TestLogDamage(t *testing.T) {
	p, err := compileTree(writeConf(t))
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	start := func(dir string) (*daemon.Daemon, error) {
		return daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: dir, WrapperPath: []string{os.Args[0], localexec.WrapperArg},
			Logf: func(string, ...any) {}})
	}
	d, err := start(state)
	if err != nil {
		t.Fatal(err)
	}
	c := unixClient(state)
	var sizes []int64
	logPath := filepath.Join(state, "lsb.events")
	for i := range 4 {
		c.submit(t, api.SubmitRequest{Command: fmt.Sprintf("true # %d", i), Hold: true})
		// Where its transaction ends: the file is longer, by the space
		// the log reserves past its last transaction.
		st, ok := daemon.LogStats(d)
		if !ok {
			t.Fatal("the daemon's event log is not a file")
		}
		sizes = append(sizes, st.Size)
	}
	d.Close()
	full, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	step := int64(1)
	if testkit.Short() {
		step = 5 // every fifth byte (LSFC_LONG=1: every byte)
	}
	for cut := sizes[1]; cut < int64(len(full)); cut += step {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "lsb.events"), full[:cut], 0o600); err != nil {
			t.Fatal(err)
		}
		d, err := start(dir)
		if err != nil {
			t.Fatalf("log cut at %d of %d: %v", cut, len(full), err)
		}
		var list []api.Job
		unixClient(dir).call("GET", "/v1/jobs?user=all&all=1", nil, &list)
		want := 2
		for want < len(sizes) && cut >= sizes[want] {
			want++
		}
		if len(list) != want {
			t.Errorf("log cut at %d: %d jobs, want %d", cut, len(list), want)
		}
		var st api.Status
		unixClient(dir).call("GET", "/v1/status", nil, &st)
		if torn := cut != sizes[want-1]; torn != (st.LogRecovered != "") {
			t.Errorf("log cut at %d: recovery %q", cut, st.LogRecovered)
		}
		d.Close()
	}
	bad := slices.Clone(full)
	bad[sizes[0]-10] ^= 0x40
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "lsb.events"), bad, 0o600)
	if _, err := start(dir); err == nil || !strings.Contains(err.Error(), "offset") {
		t.Errorf("a flipped byte: %v, want an error naming the offset", err)
	}
}

// TestCompaction compacts the log every few transactions while jobs come,
// run, are killed and change queues; a restarted daemon finds every job
// in its last state (a finished one on the hosts it ran on), and numbers
// go on.
func TestCompaction(t *testing.T) {
	p, err := compileTree(writeConf(t))
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	start := func() *daemon.Daemon {
		d, err := daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: state, WrapperPath: []string{os.Args[0], localexec.WrapperArg},
			MinInterval: 5 * time.Millisecond, CompactEvery: 4, Logf: t.Logf})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	d := start()
	c := unixClient(state)
	want := map[int64]string{}
	ran := map[int64][]string{}
	for i := range 12 {
		switch i % 4 {
		case 0:
			j := c.submit(t, api.SubmitRequest{Command: "exit 0", Cwd: state, Stdout: "/dev/null"})
			done := c.waitState(t, j.ID, "DONE")
			want[j.ID], ran[j.ID] = done.State, done.ExecHosts
		case 1:
			j := c.submit(t, api.SubmitRequest{Command: "true", Hold: true})
			want[j.ID] = "PSUSP"
		case 2:
			j := c.submit(t, api.SubmitRequest{Command: "true", Hold: true})
			c.call("POST", fmt.Sprintf("/v1/jobs/%d/switch", j.ID), api.ActionRequest{Queue: "owned"}, nil)
			want[j.ID] = "PSUSP owned"
		case 3:
			j := c.submit(t, api.SubmitRequest{Command: "true", Hold: true})
			c.call("POST", fmt.Sprintf("/v1/jobs/%d/kill", j.ID), nil, nil)
			want[j.ID] = "EXIT"
		}
	}
	c.call("POST", "/v1/queues/normal/inactivate", nil, nil)
	d.Close()
	d = start()
	defer d.Close()
	for id, w := range want {
		j := c.job(t, id)
		got := j.State
		if j.Queue != "normal" {
			got += " " + j.Queue
		}
		if got != w {
			t.Errorf("job %d: %s after restart, want %s", id, got, w)
		}
		// A finished job's image in the snapshot keeps its hosts.
		if hosts, ok := ran[id]; ok && (len(hosts) == 0 || !slices.Equal(j.ExecHosts, hosts)) {
			t.Errorf("job %d ran on %q, after restart on %q", id, hosts, j.ExecHosts)
		}
	}
	var qs []api.Queue
	c.call("GET", "/v1/queues", nil, &qs)
	for _, q := range qs {
		if q.Name == "normal" && q.Active {
			t.Errorf("queue normal is active again after restart")
		}
	}
	if next := c.submit(t, api.SubmitRequest{Command: "true", Hold: true, Queue: "owned"}); next.ID != int64(len(want)+1) {
		t.Errorf("next job number %d, want %d", next.ID, len(want)+1)
	}
	// The log's transactions, not the space it reserves past them.
	if st, ok := daemon.LogStats(d); !ok || st.Size > 1<<20 {
		t.Errorf("log of %d bytes after compactions (%v)", st.Size, ok)
	}
}

// TestSubmitToken sends a submission twice with its token, before and
// after a restart and a compaction: one job.
func TestSubmitToken(t *testing.T) {
	p, err := compileTree(writeConf(t))
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	start := func() *daemon.Daemon {
		d, err := daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: state, WrapperPath: []string{os.Args[0], localexec.WrapperArg},
			MinInterval: 5 * time.Millisecond, CompactEvery: 3, Logf: t.Logf})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	d := start()
	c := unixClient(state)
	req := api.SubmitRequest{Command: "true", Hold: true, Token: "tok-1"}
	first := c.submit(t, req)
	if again := c.submit(t, req); again.ID != first.ID {
		t.Fatalf("the same submission again made job %d, want %d", again.ID, first.ID)
	}
	other := c.submit(t, api.SubmitRequest{Command: "true", Hold: true, Token: "tok-2"})
	if other.ID == first.ID {
		t.Fatalf("another token got job %d too", other.ID)
	}
	for range 4 { // past a compaction
		c.submit(t, api.SubmitRequest{Command: "true", Hold: true})
	}
	d.Close()
	d = start()
	defer d.Close()
	if again := c.submit(t, req); again.ID != first.ID {
		t.Fatalf("after a restart the same submission made job %d, want %d", again.ID, first.ID)
	}
	if again := c.submit(t, api.SubmitRequest{Command: "true", Hold: true, Token: "tok-2"}); again.ID != other.ID {
		t.Fatalf("after a restart tok-2 made job %d, want %d", again.ID, other.ID)
	}
	var all []api.Job
	c.call("GET", "/v1/jobs?user=all&all=1", nil, &all)
	if len(all) != 6 {
		t.Errorf("%d jobs, want 6", len(all))
	}
	if code, _ := c.call("POST", "/v1/jobs", api.SubmitRequest{Command: "true", Token: strings.Repeat("x", 129)}, nil); code != http.StatusBadRequest {
		t.Errorf("a token of 129 bytes: %d, want 400", code)
	}
}

// TestSubmitResReq submits jobs with -R from several clients at once,
// before and after a reconfiguration: each is compiled by its request's
// handler and accepted, a bad one is refused.
func TestSubmitResReq(t *testing.T) {
	p, err := compileTree(writeConf(t))
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	d, err := daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: state, WrapperPath: []string{os.Args[0], localexec.WrapperArg},
		MinInterval: 5 * time.Millisecond, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	c := unixClient(state)
	submitAll := func() {
		var wg sync.WaitGroup
		for i := range 6 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for k := range 3 {
					r := fmt.Sprintf("select[mem>%d] rusage[mem=%d]", 10*(i%3), k)
					var out api.SubmitResponse
					if code, err := c.call("POST", "/v1/jobs", api.SubmitRequest{Command: "true", Hold: true, ResReq: r}, &out); code != http.StatusOK || err != nil {
						t.Errorf("submit -R %q: %d %v", r, code, err)
					}
				}
			}()
		}
		wg.Wait()
		if code, _ := c.call("POST", "/v1/jobs", api.SubmitRequest{Command: "true", Hold: true, ResReq: "select[nosuch > 1]"}, nil); code != http.StatusBadRequest {
			t.Errorf("a -R naming no resource: %d, want 400", code)
		}
	}
	submitAll()
	d.Reload("test")
	submitAll()
	var all []api.Job
	c.call("GET", "/v1/jobs?user=all&all=1", nil, &all)
	if len(all) != 36 {
		t.Errorf("%d jobs, want 36", len(all))
	}
	for _, j := range all {
		if !strings.HasPrefix(j.ResReq, "select[mem>") {
			t.Errorf("job %d: -R %q", j.ID, j.ResReq)
		}
	}
}
