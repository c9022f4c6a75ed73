package daemon_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/daemon"
	"github.com/lsfc/lsfc/runtime/eventlog"
	"github.com/lsfc/lsfc/runtime/localexec"
	testclock "k8s.io/utils/clock/testing"
)

// mcShared is the lsf.shared of the three test clusters; %d are the
// ports of home, east and west.
const mcShared = `-- lsf.shared --
Begin Cluster
ClusterName  Servers
home         (127.0.0.1:%d)
east         (127.0.0.1:%d)
west         (127.0.0.1:%d)
End Cluster
`

// mcHome is the submission cluster: "send" runs nowhere locally and
// forwards to east and west; "lonely" only to west; "strict" to a queue
// of east that rejects big jobs; "patient" to a queue of east that does
// not dispatch, and is recalled after MAX_RSCHED_TIME (1 × 1 s), twice
// at most (LSB_MC_INITFAIL_RETRY = 1); "both" runs on homeA (one slot)
// first and forwards to west what homeA cannot take. Remote-resource
// matching is on: a job is forwarded only where an exported host has the
// host type it asks for.
const mcHome = `-- lsf.conf --
LSB_MC_INITFAIL_RETRY=1
MC_PLUGIN_REMOTE_RESOURCE=Y
-- lsf.cluster.home --
Begin Host
HOSTNAME  model  type  server  RESOURCES
homeA     !      !     1       ()
End Host
-- lsb.hosts --
Begin Host
HOST_NAME  MXJ
homeA      1
End Host
-- lsb.params --
Begin Parameters
MBD_SLEEP_TIME = 1
JOB_ACCEPT_INTERVAL = 0
End Parameters
-- lsb.queues --
Begin Queue
QUEUE_NAME = send
PRIORITY   = 30
HOSTS      = none
SNDJOBS_TO = recv@east recv@west
End Queue
Begin Queue
QUEUE_NAME = lonely
PRIORITY   = 30
HOSTS      = none
SNDJOBS_TO = recv@west
End Queue
Begin Queue
QUEUE_NAME = strict
PRIORITY   = 30
HOSTS      = none
SNDJOBS_TO = small@east
End Queue
Begin Queue
QUEUE_NAME      = patient
PRIORITY        = 30
HOSTS           = none
SNDJOBS_TO      = slow@east
MAX_RSCHED_TIME = 1
End Queue
Begin Queue
QUEUE_NAME = both
PRIORITY   = 30
HOSTS      = homeA
SNDJOBS_TO = recv@west
End Queue
`

// mcExec is an execution cluster; %s is its name, %d the backlog of its
// queue recv.
const mcExec = `-- lsf.conf --
# an execution cluster of the test
-- lsf.cluster.%[1]s --
Begin ClusterAdmins
Administrators = (boss)
End ClusterAdmins
Begin Host
HOSTNAME  model  type  server  RESOURCES
%[1]sA    !      !     1       ()
End Host
-- lsb.hosts --
Begin Host
HOST_NAME  MXJ
default    4
End Host
-- lsb.params --
Begin Parameters
JOB_ACCEPT_INTERVAL = 0
End Parameters
-- lsb.queues --
Begin Queue
QUEUE_NAME   = recv
PRIORITY     = 30
RCVJOBS_FROM = home
IMPT_JOBBKLG = %[2]d
End Queue
Begin Queue
QUEUE_NAME   = small
PRIORITY     = 30
RCVJOBS_FROM = home
MEMLIMIT     = 102400
End Queue
Begin Queue
QUEUE_NAME   = slow
PRIORITY     = 30
RCVJOBS_FROM = home
End Queue
`

// mcCluster is one of the test's clusters: a daemon of the test
// process, or, with proc set, of a process of its own, which the test can
// kill.
type mcCluster struct {
	name, conf, state string
	port              int
	d                 *daemon.Daemon
	proc              *exec.Cmd
	ownProcess        bool
}

// freePort returns a loopback port nothing listens on now.
func freePort(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// writeArchive writes the files of a txtar-like text into a new directory.
func writeArchive(t *testing.T, text string) string {
	t.Helper()
	dir := t.TempDir()
	for _, part := range strings.Split(text, "-- ")[1:] {
		name, body, _ := strings.Cut(part, " --\n")
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// start starts (or restarts) the cluster's daemon on its state and port.
func (c *mcCluster) start(t *testing.T) {
	t.Helper()
	p, err := compileTree(c.conf)
	if err != nil {
		t.Fatal(err)
	}
	if c.ownProcess {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "LSFC_TEST_SERVE_CONF="+c.conf, "LSFC_TEST_SERVE_STATE="+c.state,
			fmt.Sprintf("LSFC_TEST_SERVE_LISTEN=127.0.0.1:%d", c.port))
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		c.proc = cmd
		waitSocket(t, unixClient(c.state), cmd, &stderr)
		return
	}
	d, err := daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: c.state, WrapperPath: []string{os.Args[0], localexec.WrapperArg},
		MinInterval: 5 * time.Millisecond, Listen: fmt.Sprintf("127.0.0.1:%d", c.port), Secret: "s3cret",
		MCInterval: 100 * time.Millisecond, Logf: func(f string, a ...any) { t.Logf(c.name+": "+f, a...) }})
	if err != nil {
		t.Fatal(err)
	}
	c.d = d
}

// kill kills the cluster's daemon process (SIGKILL): its jobs keep
// running.
func (c *mcCluster) kill(t *testing.T) {
	t.Helper()
	if err := c.proc.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	c.proc.Wait()
	c.proc = nil
}

// stop stops the cluster's daemon, however it runs.
func (c *mcCluster) stop() {
	if c.d != nil {
		c.d.Close()
		c.d = nil
	}
	if c.proc != nil {
		c.proc.Process.Kill()
		c.proc.Wait()
		c.proc = nil
	}
}

// jobs lists every job of the cluster.
func (c *mcCluster) jobs(t *testing.T) []api.Job {
	t.Helper()
	var out []api.Job
	code, err := unixClient(c.state).call("GET", "/v1/jobs?user=all&all=1", nil, &out)
	if err != nil || code != 200 {
		t.Fatalf("%s: jobs: %d %v", c.name, code, err)
	}
	return out
}

// copies returns the jobs of the cluster received for home job id.
func (c *mcCluster) copies(t *testing.T, id int64) []api.Job {
	var out []api.Job
	for _, j := range c.jobs(t) {
		if j.Home != nil && j.Home.Cluster == "home" && j.Home.ID == id {
			out = append(out, j)
		}
	}
	return out
}

// logRecords reads the records of a daemon's event log (a copy of it,
// so that the daemon can go on writing).
func logRecords(t *testing.T, state string) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(state, "lsb.events"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "lsb.events")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	l, _, err := eventlog.Open(path, eventlog.Options{Replay: func(_ uint64, recs [][]byte) error {
		for _, b := range recs {
			var r map[string]any
			if err := json.Unmarshal(b, &r); err != nil {
				return err
			}
			out = append(out, r)
		}
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	l.Close()
	return out
}

// TestMultiCluster runs three clusters on loopback, each its own daemon
// with its own state, and forwards jobs between them through the TCP
// API.
func TestMultiCluster(t *testing.T) {
	testkit.Long(t, "starts three daemons that forward jobs over TCP")
	home := &mcCluster{name: "home", port: freePort(t), state: t.TempDir()}
	east := &mcCluster{name: "east", port: freePort(t), state: t.TempDir()}
	west := &mcCluster{name: "west", port: freePort(t), state: t.TempDir(), ownProcess: true}
	shared := fmt.Sprintf(mcShared, home.port, east.port, west.port)
	home.conf = writeArchive(t, shared+mcHome)
	east.conf = writeArchive(t, shared+fmt.Sprintf(mcExec, "east", 2))
	west.conf = writeArchive(t, shared+fmt.Sprintf(mcExec, "west", 10))
	for _, c := range []*mcCluster{home, east, west} {
		c.start(t)
	}
	defer func() {
		for _, c := range []*mcCluster{home, east, west} {
			c.stop()
		}
	}()
	hc := unixClient(home.state)
	// The east queue "slow" takes jobs and dispatches none.
	if code, err := tcpClient(fmt.Sprintf("127.0.0.1:%d", east.port), "s3cret", "boss").call("POST", "/v1/queues/slow/inactivate", nil, nil); err != nil || code != 200 {
		t.Fatalf("inactivate slow at east: %d %v", code, err)
	}

	// Home's link talks to the peers of a send-jobs queue once a job
	// pends there: a held job, which is not forwarded, has it hear from
	// east and west before the first job to forward; its status tells
	// when. The held job is then killed.
	held := hc.submit(t, api.SubmitRequest{Queue: "send", Command: "true", Hold: true}).ID
	waitFor(t, "home to hear from east and west", func() bool {
		var st api.Status
		if code, err := hc.call("GET", "/v1/status", nil, &st); err != nil || code != 200 {
			t.Fatalf("status: %d %v", code, err)
		}
		return len(st.Peers) == 2 && st.Peers[0].Up && st.Peers[1].Up
	})
	if code, err := hc.call("POST", fmt.Sprintf("/v1/jobs/%d/kill", held), nil, nil); err != nil || code != 200 {
		t.Fatalf("kill the held job %d: %d %v", held, code, err)
	}

	t.Run("most room", func(t *testing.T) {
		// west's recv has room for 10, east's for 2: the job goes west,
		// runs there and ends there; home shows where and how.
		id := hc.submit(t, api.SubmitRequest{Queue: "send", Command: "sleep 0.3; exit 3"}).ID
		j := hc.waitState(t, id, "RUN", "EXIT")
		if j.Forward == nil || j.Forward.Cluster != "west" || j.Forward.Queue != "recv" || j.Forward.RemoteID == 0 {
			t.Fatalf("job %d forward = %+v, want recv@west with a remote ID", id, j.Forward)
		}
		j = hc.waitState(t, id, "EXIT")
		if j.ExitCode != 3 || len(j.ExecHosts) != 1 || j.ExecHosts[0] != "westA@west" {
			t.Errorf("job %d at home: exit %d on %v, want 3 on westA@west", id, j.ExitCode, j.ExecHosts)
		}
		copies := west.copies(t, id)
		if len(copies) != 1 || copies[0].ID != j.Forward.RemoteID || copies[0].State != "EXIT" || copies[0].Queue != "recv" {
			t.Errorf("west's copies of job %d: %+v, want one EXIT job %d in recv", id, copies, j.Forward.RemoteID)
		}
		if n := len(east.copies(t, id)); n != 0 {
			t.Errorf("east has %d copies of job %d", n, id)
		}
	})

	t.Run("output named for the home id", func(t *testing.T) {
		// Jobs west takes for itself move west's numbering past home's
		// next id, which a held job at home tells, so that the two ids of
		// the forwarded job differ.
		probe := hc.submit(t, api.SubmitRequest{Queue: "send", Command: "true", Hold: true}).ID
		hc.call("POST", fmt.Sprintf("/v1/jobs/%d/kill", probe), nil, nil)
		wc := tcpClient(fmt.Sprintf("127.0.0.1:%d", west.port), "s3cret", "boss")
		for own := (api.SubmitResponse{}); own.ID <= probe+1; {
			if code, err := wc.call("POST", "/v1/jobs", api.SubmitRequest{Queue: "recv", Command: "true", Hold: true}, &own); err != nil || code != 200 {
				t.Fatalf("submit at west: %d %v", code, err)
			}
			wc.call("POST", fmt.Sprintf("/v1/jobs/%d/kill", own.ID), nil, nil)
		}
		// %J in -o and the files of an -e directory are the job's id at
		// home, the one its owner knows; LSB_JOBID is its id at west.
		cwd := t.TempDir()
		id := hc.submit(t, api.SubmitRequest{Queue: "lonely", Command: "echo $LSB_JOBID; echo oops >&2", Cwd: cwd,
			Stdout: "fw.%J.out", Stderr: "errs/"}).ID
		j := hc.waitState(t, id, "DONE", "EXIT")
		if j.State != "DONE" || j.Forward == nil || j.Forward.RemoteID == id {
			t.Fatalf("job %d: %s, forward %+v, want DONE at west under another id", id, j.State, j.Forward)
		}
		for name, want := range map[string]string{fmt.Sprintf("fw.%d.out", id): fmt.Sprintf("%d\n", j.Forward.RemoteID),
			fmt.Sprintf("errs/%d.err", id): "oops\n"} {
			b, err := os.ReadFile(filepath.Join(cwd, name))
			got := string(b)
			if err == nil && strings.HasSuffix(name, ".out") {
				// The output comes below the job report.
				got = reportedOutput(t, b)
			}
			if err != nil || got != want {
				entries, _ := os.ReadDir(cwd)
				t.Errorf("%s = %q, %v; want %q (the directory holds %v)", name, got, err, want, entries)
			}
		}
	})

	t.Run("rejection", func(t *testing.T) {
		// small@east's MEMLIMIT (100 MB) refuses -M 1000: the job stays
		// pending at home, rejected, and east keeps no copy.
		id := hc.submit(t, api.SubmitRequest{Queue: "strict", Command: "true", MemLimit: 1000}).ID
		defer hc.call("POST", fmt.Sprintf("/v1/jobs/%d/kill", id), nil, nil)
		waitFor(t, "a rejection", func() bool {
			return hc.job(t, id).Reason == "The job was rejected by the remote queue"
		})
		j := hc.job(t, id)
		if j.State != "PEND" {
			t.Errorf("rejected job %d is %s, want PEND", id, j.State)
		}
		if n := len(east.copies(t, id)); n != 0 {
			t.Errorf("east keeps %d copies of a rejected job", n)
		}
	})

	t.Run("recall and suspension", func(t *testing.T) {
		// slow@east never dispatches: the job is recalled after 1 s,
		// forwarded again, recalled again, and then, past
		// LSB_MC_INITFAIL_RETRY=1, suspended at home.
		id := hc.submit(t, api.SubmitRequest{Queue: "patient", Command: "true"}).ID
		j := hc.waitState(t, id, "PSUSP")
		if j.Reason != "The job failed to start remotely more than LSB_MC_INITFAIL_RETRY times" || j.Forward != nil {
			t.Errorf("suspended job %d: reason %q forward %+v", id, j.Reason, j.Forward)
		}
		copies := east.copies(t, id)
		if len(copies) != 2 {
			t.Fatalf("east has %d copies of job %d, want 2 (one per attempt)", len(copies), id)
		}
		for _, c := range copies {
			if c.State != "EXIT" {
				t.Errorf("east's copy %d of recalled job %d is %s, want EXIT (removed)", c.ID, id, c.State)
			}
		}
	})

	t.Run("peer killed and restarted", func(t *testing.T) {
		// A job runs at west; west's daemon is killed mid-run and a job for
		// west alone waits, unreachable; west comes back, recovers its
		// running job, takes the waiting one, and home sees both end.
		running := hc.submit(t, api.SubmitRequest{Queue: "lonely", Command: "sleep 1.5"}).ID
		hc.waitState(t, running, "RUN")
		west.kill(t)
		waiting := hc.submit(t, api.SubmitRequest{Queue: "lonely", Command: "true"}).ID
		waitFor(t, "the unreachable reason", func() bool { return hc.job(t, waiting).Reason == "Remote cluster unreachable" })
		if j := hc.job(t, running); j.State != "RUN" {
			t.Errorf("job %d running at the killed west is %s at home, want RUN", running, j.State)
		}
		var st api.Status
		hc.call("GET", "/v1/status", nil, &st)
		// The running job is there; the waiting one is sent again and
		// again, and comes back each time.
		if len(st.Peers) != 2 || st.Peers[1].Cluster != "west" || st.Peers[1].Up || st.Peers[1].Forwarded < 1 {
			t.Errorf("home's peers while west is down: %+v, want west down with its running job", st.Peers)
		}
		west.start(t)
		for _, id := range []int64{running, waiting} {
			if j := hc.waitState(t, id, "DONE", "EXIT"); j.State != "DONE" {
				t.Errorf("job %d ended %s (%s), want DONE", id, j.State, j.Term)
			}
			if n := len(west.copies(t, id)); n != 1 {
				t.Errorf("west has %d copies of job %d, want 1", n, id)
			}
		}
	})

	t.Run("local hosts first", func(t *testing.T) {
		// homeA takes one job of "both"; the next goes to west.
		first := hc.submit(t, api.SubmitRequest{Queue: "both", Command: "sleep 1"}).ID
		j := hc.waitState(t, first, "RUN")
		if j.Forward != nil || len(j.ExecHosts) != 1 || j.ExecHosts[0] != "homeA" {
			t.Fatalf("job %d: forward %+v on %v, want homeA", first, j.Forward, j.ExecHosts)
		}
		second := hc.submit(t, api.SubmitRequest{Queue: "both", Command: "true"}).ID
		j = hc.waitState(t, second, "DONE")
		if j.Forward == nil || j.Forward.Cluster != "west" || len(j.ExecHosts) != 1 || j.ExecHosts[0] != "westA@west" {
			t.Errorf("job %d: forward %+v on %v, want recv@west", second, j.Forward, j.ExecHosts)
		}
		hc.waitState(t, first, "DONE")
	})

	t.Run("remote resources", func(t *testing.T) {
		// No host of east or west has type NOSUCH: the job is not sent
		// and says why; a job whose type they have goes.
		id := hc.submit(t, api.SubmitRequest{Queue: "send", Command: "true", ResReq: "select[type==NOSUCH]"}).ID
		defer hc.call("POST", fmt.Sprintf("/v1/jobs/%d/kill", id), nil, nil)
		waitFor(t, "the remote-resource reason", func() bool {
			return hc.job(t, id).Reason == "No remote cluster has hosts that meet the job's resource requirements"
		})
		if n := len(east.copies(t, id)) + len(west.copies(t, id)); n != 0 {
			t.Errorf("%d copies of a job no remote host fits", n)
		}
		ok := hc.submit(t, api.SubmitRequest{Queue: "send", Command: "true", ResReq: "select[type==any]"}).ID
		if j := hc.waitState(t, ok, "DONE", "EXIT"); j.State != "DONE" || j.Forward == nil {
			t.Errorf("job %d: %s forward %+v, want DONE at a peer", ok, j.State, j.Forward)
		}
	})

	t.Run("routes between clusters", func(t *testing.T) {
		// The routes peers call need the secret, and are not on the Unix
		// socket; nothing a refused call sends is taken.
		fwd := api.MCForward{From: "home", FromJob: 999, Queue: "recv", User: "u", Job: api.SubmitRequest{Command: "true"}}
		for _, secret := range []string{"", "wrong"} {
			code, err := tcpClient(fmt.Sprintf("127.0.0.1:%d", east.port), secret, "home").call("POST", "/v1/mc/forward", fwd, nil)
			if err != nil || code != 401 {
				t.Errorf("forward with secret %q: %d %v, want 401", secret, code, err)
			}
		}
		for _, route := range []string{"/v1/mc/forward", "/v1/mc/poll", "/v1/mc/withdraw"} {
			if code, err := unixClient(east.state).call("POST", route, fwd, nil); err != nil || code != 404 {
				t.Errorf("%s on the Unix socket: %d %v, want 404", route, code, err)
			}
		}
		if n := len(east.copies(t, 999)); n != 0 {
			t.Errorf("east took %d copies of a refused call", n)
		}
	})

	t.Run("killed at home", func(t *testing.T) {
		// A job killed at home while it runs at west is killed there.
		id := hc.submit(t, api.SubmitRequest{Queue: "lonely", Command: "sleep 30"}).ID
		hc.waitState(t, id, "RUN")
		if code, err := hc.call("POST", fmt.Sprintf("/v1/jobs/%d/kill", id), nil, nil); err != nil || code != 200 {
			t.Fatalf("kill: %d %v", code, err)
		}
		waitFor(t, "the copy at west to end", func() bool {
			c := west.copies(t, id)
			return len(c) == 1 && c[0].State == "EXIT"
		})
	})

	// Across the three clusters: every copy stands for a job of home,
	// no job started twice, and every job of home that ended after it
	// ran elsewhere ended as its one started copy did.
	homeJobs := map[int64]api.Job{}
	for _, j := range home.jobs(t) {
		homeJobs[j.ID] = j
	}
	started := map[int64][]api.Job{}
	for _, c := range []*mcCluster{east, west} {
		for _, cp := range c.jobs(t) {
			if cp.Home == nil {
				continue
			}
			if _, ok := homeJobs[cp.Home.ID]; !ok || cp.Home.Cluster != "home" {
				t.Errorf("%s's job %d stands for job %d of %s, which home does not have", c.name, cp.ID, cp.Home.ID, cp.Home.Cluster)
			}
			if cp.Start > 0 {
				started[cp.Home.ID] = append(started[cp.Home.ID], cp)
			}
		}
	}
	for id, j := range homeJobs {
		copies := started[id]
		switch {
		case len(copies) > 1:
			t.Errorf("job %d started %d times at the peers", id, len(copies))
		case len(copies) == 1 && (j.State == "DONE" || j.State == "EXIT") && (j.State != copies[0].State || j.ExitCode != copies[0].ExitCode):
			t.Errorf("job %d ended %s %d at home, its copy %s %d", id, j.State, j.ExitCode, copies[0].State, copies[0].ExitCode)
		case len(copies) == 1 && len(j.ExecHosts) > 0 && j.ExecHosts[0] == "homeA":
			t.Errorf("job %d ran at home and at a peer", id)
		}
	}

	// Each cluster's event log holds its side: home what it forwarded,
	// what was accepted, what came back and why; east what it took (jobs
	// that name their home), refused and gave back.
	homeLog := logRecords(t, home.state)
	for _, want := range []string{"forward", "accept", "remote-start", "remote-finish"} {
		if !slices.ContainsFunc(homeLog, func(r map[string]any) bool { return r["t"] == want }) {
			t.Errorf("home's log has no %s record", want)
		}
	}
	if !slices.ContainsFunc(homeLog, func(r map[string]any) bool {
		why, _ := r["why"].(string)
		return r["t"] == "return" && r["text"] == "rejected" && strings.Contains(why, "MEMLIMIT")
	}) {
		t.Error("home's log has no return of a rejected job with the queue's reason")
	}
	if !slices.ContainsFunc(homeLog, func(r map[string]any) bool { return r["t"] == "return" && r["text"] == "recalled" }) {
		t.Error("home's log has no return of a recalled job")
	}
	eastLog := logRecords(t, east.state)
	if !slices.ContainsFunc(eastLog, func(r map[string]any) bool {
		im, _ := r["image"].(map[string]any)
		sub, _ := im["Sub"].(map[string]any)
		h, _ := sub["Home"].(map[string]any)
		return r["t"] == "new" && h["Cluster"] == "home" && h["Sent"] != nil
	}) {
		t.Error("east's log has no job received from home")
	}
	for _, want := range []string{"mc-reject", "mc-recall"} {
		if !slices.ContainsFunc(eastLog, func(r map[string]any) bool { return r["t"] == want && r["cluster"] == "home" }) {
			t.Errorf("east's log has no %s record", want)
		}
	}

	// Nothing is lost or doubled across a restart of home either: every
	// job keeps its state and where it went.
	before := home.jobs(t)
	if err := home.d.Close(); err != nil {
		t.Fatal(err)
	}
	home.start(t)
	after := home.jobs(t)
	if len(after) != len(before) {
		t.Fatalf("home has %d jobs after a restart, %d before", len(after), len(before))
	}
	for i := range before {
		b, a := before[i], after[i]
		if a.ID != b.ID || a.State != b.State || (a.Forward == nil) != (b.Forward == nil) {
			t.Errorf("job %d: %s %+v before the restart, %s %+v after", b.ID, b.State, b.Forward, a.State, a.Forward)
		}
	}
}

// TestMCPeer calls an execution cluster's routes as its submission
// cluster would, and checks that each sending is taken at most once: a
// delivery repeated with the same sending time gets the same copy, even
// once it has ended; a later sending gets a new one; a recall is
// answered the same when asked again, and the poll says the copy was
// withdrawn; a refused job is in the log with the queue's reason.
func TestMCPeer(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a daemon")
	}
	east := &mcCluster{name: "east", port: freePort(t), state: t.TempDir()}
	east.conf = writeArchive(t, fmt.Sprintf(mcShared, freePort(t), east.port, freePort(t))+fmt.Sprintf(mcExec, "east", 5))
	east.start(t)
	defer east.stop()
	addr := fmt.Sprintf("127.0.0.1:%d", east.port)
	if code, err := tcpClient(addr, "s3cret", "boss").call("POST", "/v1/queues/slow/inactivate", nil, nil); err != nil || code != 200 {
		t.Fatalf("inactivate slow: %d %v", code, err)
	}
	peer := tcpClient(addr, "s3cret", "home")
	forward := func(fromJob int64, sent float64, queue string, memLimit float64) api.MCForwardResponse {
		t.Helper()
		var out api.MCForwardResponse
		req := api.MCForward{From: "home", FromJob: fromJob, Sent: sent, Queue: queue, User: "u", UID: -1, GID: -1,
			Job: api.SubmitRequest{Command: "true", MemLimit: memLimit, Umask: 0o22}}
		if code, err := peer.call("POST", "/v1/mc/forward", req, &out); err != nil || code != 200 {
			t.Fatalf("forward: %d %v", code, err)
		}
		return out
	}
	withdraw := func(id int64) api.MCWithdrawResponse {
		t.Helper()
		var out api.MCWithdrawResponse
		if code, err := peer.call("POST", "/v1/mc/withdraw", api.MCWithdraw{From: "home", FromJob: 1, ID: id}, &out); err != nil || code != 200 {
			t.Fatalf("withdraw: %d %v", code, err)
		}
		return out
	}
	first := forward(1, 100, "slow", 0)
	if first.ID == 0 {
		t.Fatalf("first delivery: %+v", first)
	}
	if again := forward(1, 100, "slow", 0); again.ID != first.ID {
		t.Errorf("the delivery repeated got job %d, the first %d", again.ID, first.ID)
	}
	for i := range 2 {
		if r := withdraw(first.ID); !r.Removed || r.State != "EXIT" {
			t.Errorf("recall %d: %+v, want removed", i+1, r)
		}
	}
	var poll api.MCPoll
	if code, err := peer.call("POST", "/v1/mc/poll", api.MCPollRequest{From: "home"}, &poll); err != nil || code != 200 {
		t.Fatalf("poll: %d %v", code, err)
	}
	if len(poll.Jobs) != 1 || poll.Jobs[0].ID != first.ID || !poll.Jobs[0].Withdrawn || poll.Jobs[0].Sent != 100 || poll.Jobs[0].State != "EXIT" {
		t.Errorf("poll: %+v, want job %d withdrawn, sent at 100", poll.Jobs, first.ID)
	}
	if again := forward(1, 100, "slow", 0); again.ID != first.ID {
		t.Errorf("the first sending delivered again after its recall got job %d, want %d", again.ID, first.ID)
	}
	second := forward(1, 200, "slow", 0)
	if second.ID == 0 || second.ID == first.ID {
		t.Errorf("a new sending got job %d (the first was %d)", second.ID, first.ID)
	}
	if r := forward(2, 300, "small", 1000); r.ID != 0 || !strings.Contains(r.Rejected, "MEMLIMIT") {
		t.Errorf("a job over small's MEMLIMIT: %+v, want a rejection", r)
	}
	east.stop()
	// The log replays to the same jobs, and holds the recall and the
	// rejection.
	recs := logRecords(t, east.state)
	if !slices.ContainsFunc(recs, func(r map[string]any) bool { return r["t"] == "mc-recall" && r["job"] == float64(first.ID) }) {
		t.Errorf("no mc-recall record of job %d", first.ID)
	}
	if !slices.ContainsFunc(recs, func(r map[string]any) bool {
		text, _ := r["text"].(string)
		return r["t"] == "mc-reject" && r["queue"] == "small" && strings.Contains(text, "MEMLIMIT")
	}) {
		t.Error("no mc-reject record of the job small refused")
	}
	east.start(t)
	if r := withdraw(first.ID); !r.Removed {
		t.Errorf("recall after a restart: %+v, want removed", r)
	}
	copies := east.copies(t, 1)
	if len(copies) != 2 || copies[0].ID != first.ID || copies[1].ID != second.ID || copies[1].State != "PEND" {
		t.Errorf("east's copies after a restart: %+v", copies)
	}
}

// TestMCPeerContactedLazily checks that a daemon whose send-jobs queue is
// empty contacts no peer, so that it neither resolves nor dials a peer's
// address at start (a demo cluster runs offline), and that it contacts
// the peer once a job pends in that queue.
func TestMCPeerContactedLazily(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a daemon")
	}
	conf := writeArchive(t, `-- lsf.shared --
Begin Cluster
ClusterName  Servers
home         (127.0.0.1)
east         (peermaster.invalid:6881)
End Cluster
-- lsf.cluster.home --
Begin Host
HOSTNAME  model  type  server  RESOURCES
homeA     !      !     1       ()
End Host
-- lsb.queues --
Begin Queue
QUEUE_NAME = send
PRIORITY   = 30
HOSTS      = none
SNDJOBS_TO = recv@east
End Queue
`)
	p, err := compileTree(conf)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var called []string
	state := t.TempDir()
	const every = 10 * time.Millisecond
	clk := testclock.NewFakeClock(time.Unix(1_700_000_000, 0))
	d, err := daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: state, WrapperPath: []string{os.Args[0], localexec.WrapperArg},
		MinInterval: 5 * time.Millisecond, MCInterval: every, Clock: clk,
		Logf: func(f string, a ...any) { t.Logf(f, a...) },
		PeerClient: func(addr, self string) *api.Client {
			mu.Lock()
			called = append(called, addr)
			mu.Unlock()
			// Nothing listens on port 1 of loopback: refused at once.
			return api.DialTCP("127.0.0.1:1", "s3cret", self)
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	contacted := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(called)
	}
	// Many rounds pass with nothing to forward: no peer is contacted. The
	// daemon waits on three timers of its clock once a round is over
	// (housekeeping's, the next cycle's, the next round's): each step
	// ends a round, and the next step waits until it is over.
	settled := func() bool { return clk.Waiters() == 3 }
	for range 30 {
		waitFor(t, "a MultiCluster round to end", settled)
		clk.Step(every)
	}
	waitFor(t, "the last MultiCluster round to end", settled)
	if got := contacted(); len(got) > 0 {
		t.Fatalf("the daemon contacted %q with no job to forward", got)
	}
	unixClient(state).submit(t, api.SubmitRequest{Queue: "send", Command: "true"})
	stepUntil(t, clk, every, "the link to contact east", func() bool { return len(contacted()) > 0 })
	if got := contacted(); got[0] != "peermaster.invalid:6881" {
		t.Errorf("the link contacted %q, want east's server peermaster.invalid:6881", got[0])
	}
}
