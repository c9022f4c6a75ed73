package failover_test

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/user"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/internal/etcdtest"
	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/lint"
	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/daemon"
	"github.com/lsfc/lsfc/runtime/etcdlog"
	"github.com/lsfc/lsfc/runtime/failover"
	"github.com/lsfc/lsfc/runtime/localexec"
	"github.com/lsfc/lsfc/runtime/sbatchd"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
	"go.uber.org/zap"
)

const secret = "s3cret"

// me is the user the tests' requests act for: one the machine knows, whose
// jobs can run.
var me = func() string {
	u, err := user.Current()
	if err != nil {
		return "root"
	}
	return u.Username
}()

// agentInterval is the agents' interval: a host is unavail after three.
const agentInterval = 250 * time.Millisecond

// TestMain lets the test binary act as the job wrapper, and as a master
// candidate of its own, which the failover test kills.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == localexec.WrapperArg {
		os.Exit(localexec.WrapperMain(os.Args[2:]))
	}
	if conf := os.Getenv("LSFC_TEST_CANDIDATE_CONF"); conf != "" {
		os.Exit(candidateMain(conf))
	}
	os.Exit(m.Run())
}

const testConf = `-- lsf.shared --
Begin Cluster
ClusterName
fo
End Cluster
-- lsf.cluster.fo --
Begin ClusterAdmins
Administrators = (boss root)
End ClusterAdmins
Begin Host
HOSTNAME  model  type  server  RESOURCES
hostA     !      !     1       ()
hostB     !      !     1       ()
End Host
-- lsb.hosts --
Begin Host
HOST_NAME  MXJ
default    64
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
`

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

// candidateConfig is a candidate's configuration in these tests: the
// master compacts its log every 500 transactions, so that a new master
// replays a snapshot and the transactions after it.
func candidateConfig(p *compile.Policy, cli *clientv3.Client, state, listen string, logf func(string, ...any)) failover.Config {
	return failover.Config{Client: cli, TTL: 2 * time.Second, Daemon: daemon.Config{Policy: p, StateDir: state,
		Listen: listen, Secret: secret, MinInterval: 5 * time.Millisecond, HostLost: 8 * time.Second, CompactEvery: 500,
		WrapperPath: []string{os.Args[0], localexec.WrapperArg}, Logf: logf}}
}

// candidateMain runs a master candidate until it is killed.
func candidateMain(conf string) int {
	p, err := compileTree(conf)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	cli, err := clientv3.New(clientv3.Config{Endpoints: strings.Split(os.Getenv("LSFC_TEST_ETCD"), ","), DialTimeout: 5 * time.Second, Logger: zap.NewNop()})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	logf := func(format string, args ...any) {
		fmt.Fprintf(os.Stderr, "%s %s: "+format+"\n", append([]any{time.Now().Format("15:04:05.000"), os.Getenv("LSFC_TEST_LISTEN")}, args...)...)
	}
	c, err := failover.Start(context.Background(), candidateConfig(p, cli, os.Getenv("LSFC_TEST_STATE"), os.Getenv("LSFC_TEST_LISTEN"), logf))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	<-c.Done()
	fmt.Fprintln(os.Stderr, c.Err())
	return 1
}

// freeAddrs returns n loopback addresses free a moment ago.
func freeAddrs(t testing.TB, n int) []string {
	var out []string
	var ls []net.Listener
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
		out = append(out, l.Addr().String())
	}
	for _, l := range ls {
		l.Close()
	}
	return out
}

// A rig is an etcd cluster of three members, three master candidates
// (processes of the test binary) and two agents.
type rig struct {
	t      testing.TB
	etcd   *etcdtest.Cluster
	conf   string
	addrs  []string
	procs  map[string]*exec.Cmd
	logs   map[string]*strings.Builder
	agents map[string]*sbatchd.Agent
	client *api.Client
}

func newRig(t testing.TB) *rig {
	r := &rig{t: t, etcd: etcdtest.Start(t, 3), conf: writeConf(t), addrs: freeAddrs(t, 3),
		procs: map[string]*exec.Cmd{}, logs: map[string]*strings.Builder{}, agents: map[string]*sbatchd.Agent{}}
	for _, addr := range r.addrs {
		r.startCandidate(addr)
	}
	t.Cleanup(func() {
		for _, a := range r.agents {
			a.Close()
		}
		for addr, p := range r.procs {
			p.Process.Kill()
			p.Wait()
			if t.Failed() {
				t.Logf("candidate %s:\n%s", addr, r.logs[addr])
			}
		}
	})
	r.client = api.DialTCP(strings.Join(r.addrs, ","), secret, me)
	for _, h := range []string{"hostA", "hostB"} {
		r.startAgent(h, t.TempDir())
	}
	return r
}

type syncBuilder struct {
	mu sync.Mutex
	b  *strings.Builder
}

func (s *syncBuilder) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (r *rig) startCandidate(addr string) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "LSFC_TEST_CANDIDATE_CONF="+r.conf, "LSFC_TEST_STATE="+r.t.TempDir(),
		"LSFC_TEST_LISTEN="+addr, "LSFC_TEST_ETCD="+strings.Join(r.etcd.Endpoints, ","))
	if r.logs[addr] == nil {
		r.logs[addr] = &strings.Builder{}
	}
	w := &syncBuilder{b: r.logs[addr]}
	cmd.Stdout, cmd.Stderr = w, w
	// A candidate dies with the test, even one that times out.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		r.t.Fatal(err)
	}
	r.procs[addr] = cmd
}

func (r *rig) startAgent(host, dir string) {
	a, err := sbatchd.Start(context.Background(), sbatchd.Config{Master: api.DialTCP(strings.Join(r.addrs, ","), secret, me), Host: host,
		StateDir: dir, Interval: agentInterval, WrapperPath: []string{os.Args[0], localexec.WrapperArg},
		Logf: func(string, ...any) {}})
	if err != nil {
		r.t.Fatal(err)
	}
	r.agents[host] = a
}

// leader returns the candidate that answers as the master, waiting for
// one.
func (r *rig) leader() string {
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		for _, addr := range r.addrs {
			if r.procs[addr] == nil {
				continue
			}
			if _, err := api.DialTCP(addr, secret, me).Status(context.Background()); err == nil {
				return addr
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	r.t.Fatal("no master leads after 30 s")
	return ""
}

// kill kills a candidate's process (SIGKILL: it resigns nothing).
func (r *rig) kill(addr string) {
	p := r.procs[addr]
	p.Process.Signal(syscall.SIGKILL)
	p.Wait()
	delete(r.procs, addr)
}

func (r *rig) job(id int64) *api.Job {
	j, err := r.client.Job(context.Background(), id)
	if err != nil {
		r.t.Fatalf("job %d: %v", id, err)
	}
	return j
}

func (r *rig) waitState(id int64, states ...string) *api.Job {
	deadline := time.Now().Add(60 * time.Second)
	for {
		j := r.job(id)
		if slices.Contains(states, j.State) {
			return j
		}
		if time.Now().After(deadline) {
			r.t.Fatalf("job %d is %s, not %v", id, j.State, states)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (r *rig) submit(req api.SubmitRequest) int64 {
	req.Umask = -1
	resp, err := r.client.Submit(context.Background(), &req)
	if err != nil {
		r.t.Fatalf("bsub: %v", err)
	}
	return resp.ID
}

// burst submits short jobs from clients goroutines until stop closes, and
// returns the IDs acknowledged.
func (r *rig) burst(clients int, stop <-chan struct{}) <-chan []int64 {
	out := make(chan []int64, 1)
	var mu sync.Mutex
	var ids []int64
	var wg sync.WaitGroup
	for i := range clients {
		c := api.DialTCP(strings.Join(r.addrs, ","), secret, me)
		wg.Go(func() {
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				resp, err := c.Submit(context.Background(), &api.SubmitRequest{Command: "true", Name: fmt.Sprintf("b%d-%d", i, n), Umask: -1})
				if err != nil {
					r.t.Errorf("burst client %d: %v", i, err)
					return
				}
				mu.Lock()
				ids = append(ids, resp.ID)
				mu.Unlock()
			}
		})
	}
	go func() {
		wg.Wait()
		out <- ids
	}()
	return out
}

// failoverRound kills the leader during a burst of submissions and
// returns how long after its death a new leader accepted a submission.
// Every acknowledged job must be there once and end; the jobs running on
// the agents across the change end with their real exit status.
func failoverRound(t testing.TB, r *rig) time.Duration {
	old := r.leader()
	// Jobs that run across the change, on both agents.
	var long []int64
	for i := range 4 {
		long = append(long, r.submit(api.SubmitRequest{Command: fmt.Sprintf("sleep 4; exit %d", 3+i)}))
	}
	for _, id := range long {
		r.waitState(id, "RUN")
	}
	stop := make(chan struct{})
	acked := r.burst(8, stop)
	time.Sleep(500 * time.Millisecond)
	r.kill(old)
	died := time.Now()
	// The new leader: the first submission it accepts.
	probe := api.DialTCP(strings.Join(r.addrs, ","), secret, me)
	if _, err := probe.Submit(context.Background(), &api.SubmitRequest{Command: "true", Umask: -1}); err != nil {
		t.Fatalf("no master accepts submissions after the leader died: %v", err)
	}
	takeover := time.Since(died)
	time.Sleep(500 * time.Millisecond)
	close(stop)
	ids := <-acked
	if t.Failed() {
		t.FailNow()
	}
	now := r.leader()
	if now == old {
		t.Fatalf("the dead candidate %s still leads", old)
	}
	// Every acknowledged job is there, once, and ends.
	seen := map[int64]bool{}
	for _, id := range ids {
		if seen[id] {
			t.Fatalf("job %d acknowledged twice", id)
		}
		seen[id] = true
	}
	for _, id := range ids {
		if j := r.waitState(id, "DONE", "EXIT"); j.State != "DONE" {
			t.Errorf("burst job %d: %s (%s), want DONE", id, j.State, j.Term)
		}
	}
	for i, id := range long {
		j := r.waitState(id, "DONE", "EXIT")
		if j.State != "EXIT" || j.ExitCode != 3+i {
			t.Errorf("job %d running across the failover: %s with exit %d, want EXIT with %d", id, j.State, j.ExitCode, 3+i)
		}
	}
	// No job that was not acknowledged: the burst's names are unique.
	all, err := r.client.Jobs(context.Background(), api.JobQuery{All: true, User: "all"})
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]int{}
	for _, j := range all {
		if strings.HasPrefix(j.Name, "b") {
			names[j.Name]++
			if !seen[j.ID] {
				t.Errorf("job %d (%s) is there but was never acknowledged", j.ID, j.Name)
			}
		}
	}
	for n, c := range names {
		if c > 1 {
			t.Errorf("submission %s made %d jobs", n, c)
		}
	}
	t.Logf("leader %s killed during a burst of %d acknowledged submissions; %s leads, accepting submissions %s after the death",
		old, len(ids), now, takeover.Round(time.Millisecond))
	return takeover
}

func TestFailover(t *testing.T) {
	testkit.Long(t, "starts etcd and three master candidates, kills the leader and an agent")
	r := newRig(t)
	failoverRound(t, r)

	// An agent dies: its host goes unavail, its jobs UNKWN; once the host
	// is lost the rerunnable job reruns on the other host and the other
	// exits. The agent restarted reconciles: the host is ok again.
	var onB []int64
	for _, rerun := range []bool{true, false} {
		id := r.submit(api.SubmitRequest{Command: "sleep 30", Rerunnable: rerun, Hosts: []string{"hostB"}})
		r.waitState(id, "RUN")
		onB = append(onB, id)
	}
	dirB := t.TempDir()
	r.agents["hostB"].Close()
	delete(r.agents, "hostB")
	for _, id := range onB {
		r.waitState(id, "UNKWN")
	}
	if j := r.waitState(onB[1], "EXIT"); j.ExitCode == 0 {
		t.Errorf("the job of the lost host exited with 0")
	}
	if j := r.waitState(onB[0], "PEND", "RUN"); j.State == "RUN" && j.ExecHosts[0] != "hostB" {
		t.Errorf("rerunnable job runs again on %v", j.ExecHosts)
	}
	r.startAgent("hostB", dirB)
	deadline := time.Now().Add(30 * time.Second)
	for {
		hosts, err := r.client.Hosts(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		i := slices.IndexFunc(hosts, func(h api.Host) bool { return h.Name == "hostB" })
		if hosts[i].Status == "ok" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("hostB is %s after its agent came back", hosts[i].Status)
		}
		time.Sleep(20 * time.Millisecond)
	}
	r.client.JobAction(context.Background(), onB[0], "kill", &api.ActionRequest{})
	r.waitState(onB[0], "EXIT", "DONE")
}

// TestPartitionedLeaderStops cuts the leader from etcd: its lease runs
// out, another candidate leads, and the old one answers no more as the
// master.
func TestPartitionedLeaderStops(t *testing.T) {
	e, p, addrs := cutPrologue(t)
	// The first candidate's own proxy to etcd, which the test cuts.
	proxy, cliA := proxiedClient(t, e)
	a, err := failover.Start(context.Background(), candidateConfig(p, cliA, t.TempDir(), addrs[0], t.Logf))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	waitFor(t, "candidate A to lead", func() bool { return a.Leading() != nil })
	b, err := failover.Start(context.Background(), candidateConfig(p, e.Client(), t.TempDir(), addrs[1], t.Logf))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	c := api.DialTCP(strings.Join(addrs, ","), secret, me)
	id, err := c.Submit(context.Background(), &api.SubmitRequest{Command: "true", Hold: true, Umask: -1})
	if err != nil {
		t.Fatal(err)
	}
	proxy.cut()
	waitFor(t, "candidate B to lead", func() bool { return b.Leading() != nil })
	waitFor(t, "candidate A to stop leading", func() bool { return a.Leading() == nil })
	// A answers as a standby now; the job acknowledged before is at B.
	waitFor(t, "candidate A to answer as a standby", func() bool {
		_, err = api.DialTCP(addrs[0], secret, me).Status(context.Background())
		var ae *api.APIError
		return errors.As(err, &ae) && ae.Status == http.StatusServiceUnavailable
	})
	if j, err := c.Job(context.Background(), id.ID); err != nil || j.State != "PSUSP" {
		t.Fatalf("job %d at the new master: %+v %v", id.ID, j, err)
	}
}

// cutPrologue is what the tests that cut a candidate off etcd start
// with: it skips them when short, starts a one-member etcd, compiles the
// test's tree and takes two addresses for the candidates.
func cutPrologue(t *testing.T) (*etcdtest.Cluster, *compile.Policy, []string) {
	t.Helper()
	if testing.Short() {
		t.Skip("starts etcd")
	}
	e := etcdtest.Start(t, 1)
	p, err := compileTree(writeConf(t))
	if err != nil {
		t.Fatal(err)
	}
	return e, p, freeAddrs(t, 2)
}

// proxiedClient returns an etcd client that reaches e through a proxy of
// its own, which the test may cut; the client is closed at the test's
// end.
func proxiedClient(t *testing.T, e *etcdtest.Cluster) (*proxy, *clientv3.Client) {
	t.Helper()
	px := newProxy(t, strings.TrimPrefix(e.Endpoints[0], "http://"))
	cli, err := clientv3.New(clientv3.Config{Endpoints: []string{"http://" + px.addr}, DialTimeout: 2 * time.Second, Logger: zap.NewNop()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cli.Close() })
	return px, cli
}

// TestStandbyCutFromEtcdStops cuts a standby from etcd while it waits in
// its campaign: it still answers, that it cannot reach etcd, and Close
// returns in a few seconds though the campaign's withdrawal from the
// election cannot reach etcd.
func TestStandbyCutFromEtcdStops(t *testing.T) {
	e, p, addrs := cutPrologue(t)
	ctx := context.Background()
	a, err := failover.Start(ctx, candidateConfig(p, e.Client(), t.TempDir(), addrs[0], t.Logf))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	waitFor(t, "candidate A to lead", func() bool { return a.Leading() != nil })
	// The standby's own proxy to etcd, which the test cuts.
	proxy, cliB := proxiedClient(t, e)
	b, err := failover.Start(ctx, candidateConfig(p, cliB, t.TempDir(), addrs[1], t.Logf))
	if err != nil {
		t.Fatal(err)
	}
	other := e.Client()
	waitFor(t, "candidate B to campaign", func() bool {
		resp, err := other.Get(ctx, "/lsfc/fo/election/", clientv3.WithPrefix(), clientv3.WithCountOnly())
		return err == nil && resp.Count == 2
	})
	proxy.cut()

	start := time.Now()
	_, err = api.DialTCP(addrs[1], secret, me).Status(ctx)
	var ae *api.APIError
	if !errors.As(err, &ae) || ae.Status != http.StatusServiceUnavailable || !strings.Contains(ae.Message, "cannot reach etcd") {
		t.Fatalf("the standby cut from etcd answered %v, want 503 saying it cannot reach etcd", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the standby cut from etcd answered after %v", d)
	}

	start = time.Now()
	closed := make(chan error, 1)
	go func() { closed <- b.Close() }()
	select {
	case err := <-closed:
		if err != nil {
			t.Errorf("Close: %v", err)
		}
		t.Logf("closed in %v", time.Since(start))
	case <-time.After(15 * time.Second):
		t.Fatal("Close of a standby cut from etcd still waits after 15 s")
	}
	// The leader is unaffected.
	if a.Leading() == nil {
		t.Error("candidate A no longer leads")
	}
}

// TestFencedLeaderRefuses takes the leadership from a master that still
// reaches etcd and still believes it leads: another client deletes its
// election key, and a rival candidate is elected. The old master's next
// submission is refused by the fence of its event log; the master stops
// at once and answers as a standby from then on; the log in etcd is as
// its last acknowledged submission left it.
func TestFencedLeaderRefuses(t *testing.T) {
	if testing.Short() {
		t.Skip("starts etcd")
	}
	e := etcdtest.Start(t, 1)
	p, err := compileTree(writeConf(t))
	if err != nil {
		t.Fatal(err)
	}
	addr := freeAddrs(t, 1)[0]
	a, err := failover.Start(context.Background(), candidateConfig(p, e.Client(), t.TempDir(), addr, t.Logf))
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	var d *daemon.Daemon
	waitFor(t, "the candidate to lead", func() bool { d = a.Leading(); return d != nil })
	c := api.DialTCP(addr, secret, me)
	ctx := context.Background()
	if _, err := c.Submit(ctx, &api.SubmitRequest{Command: "true", Hold: true, Umask: -1}); err != nil {
		t.Fatal(err)
	}
	other := e.Client()
	events := "/lsfc/fo/events/"
	logKeys := func() []string {
		resp, err := other.Get(ctx, events, clientv3.WithPrefix())
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, kv := range resp.Kvs {
			out = append(out, fmt.Sprintf("%s@%d", kv.Key, kv.ModRevision))
		}
		return out
	}
	before := logKeys()
	if len(before) == 0 {
		t.Fatalf("no event log under %s", events)
	}

	// A rival campaigns; the leader's key goes, and the rival leads.
	rival, err := concurrency.NewSession(other, concurrency.WithTTL(60))
	if err != nil {
		t.Fatal(err)
	}
	defer rival.Close()
	el := concurrency.NewElection(rival, "/lsfc/fo/election")
	elected := make(chan error, 1)
	go func() { elected <- el.Campaign(ctx, "rival:1") }()
	resp, err := other.Get(ctx, "/lsfc/fo/election/", clientv3.WithFirstCreate()...)
	if err != nil || len(resp.Kvs) != 1 || string(resp.Kvs[0].Value) != addr {
		t.Fatalf("the leader's election key: %v %v", resp, err)
	}
	if _, err := other.Delete(ctx, string(resp.Kvs[0].Key)); err != nil {
		t.Fatal(err)
	}
	if err := <-elected; err != nil {
		t.Fatal(err)
	}
	if a.Leading() != d {
		t.Fatal("the old master noticed before its next write: the test shows nothing of the fence")
	}
	_, err = c.Submit(ctx, &api.SubmitRequest{Command: "true", Hold: true, Umask: -1})
	if err == nil {
		t.Fatal("the old master acknowledged a submission after another was elected")
	}
	t.Logf("refused: %v", err)
	select {
	case <-d.Done():
	case <-time.After(30 * time.Second):
		t.Fatal("the fenced master still serves after 30 s")
	}
	if !errors.Is(d.Err(), etcdlog.ErrFenced) {
		t.Errorf("the old master stopped with %v, want %v", d.Err(), etcdlog.ErrFenced)
	}
	if a.Leading() != nil {
		t.Error("the fenced candidate still leads")
	}
	// From now on the old master answers as a standby, naming the rival.
	waitFor(t, "the old master to answer as a standby", func() bool {
		_, err = c.Submit(ctx, &api.SubmitRequest{Command: "true", Hold: true, Umask: -1})
		var ae *api.APIError
		return errors.As(err, &ae) && ae.Status == http.StatusServiceUnavailable
	})
	if !strings.Contains(err.Error(), "rival:1") {
		t.Errorf("the old master's answer: %v, want the rival's address", err)
	}
	if after := logKeys(); !slices.Equal(after, before) {
		t.Errorf("the event log in etcd changed:\n%q\nwas\n%q", after, before)
	}
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("waited 30 s for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A proxy forwards TCP connections to an address until cut.
type proxy struct {
	addr string
	ln   net.Listener
	mu   sync.Mutex
	cons []net.Conn
	dead bool
}

func newProxy(t *testing.T, to string) *proxy {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &proxy{addr: ln.Addr().String(), ln: ln}
	t.Cleanup(p.cut)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			u, err := net.Dial("tcp", to)
			if err != nil {
				c.Close()
				continue
			}
			p.mu.Lock()
			if p.dead {
				c.Close()
				u.Close()
			}
			p.cons = append(p.cons, c, u)
			p.mu.Unlock()
			go pipe(c, u)
			go pipe(u, c)
		}
	}()
	return p
}

func pipe(a, b net.Conn) {
	buf := make([]byte, 32<<10)
	for {
		n, err := a.Read(buf)
		if n > 0 {
			if _, err := b.Write(buf[:n]); err != nil {
				return
			}
		}
		if err != nil {
			b.Close()
			return
		}
	}
}

func (p *proxy) cut() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.dead = true
	p.ln.Close()
	for _, c := range p.cons {
		c.Close()
	}
}
