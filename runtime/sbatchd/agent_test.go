package sbatchd_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/localexec"
	"github.com/lsfc/lsfc/runtime/sbatchd"
	testclock "k8s.io/utils/clock/testing"
)

// gateEnv names a file the job wrappers of these tests wait for before
// they start their job: while it is missing, every start hangs.
const gateEnv = "LSFC_TEST_WRAPPER_GATE"

// TestMain lets the test binary act as the job wrapper.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == localexec.WrapperArg {
		if gate := os.Getenv(gateEnv); gate != "" {
			for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
				if _, err := os.Stat(gate); err == nil {
					break
				}
			}
		}
		os.Exit(localexec.WrapperMain(os.Args[2:]))
	}
	os.Exit(m.Run())
}

// A fakeMaster answers an agent's exchanges with the orders it is given,
// as the master does: those not acknowledged, at once, else after a wait.
type fakeMaster struct {
	mu      sync.Mutex
	session string
	orders  []api.AgentOrder
	// syncs are the exchanges received; ends the ends reported, by job.
	syncs []api.AgentSync
	ends  map[int64][]api.AgentEnd
	wake  chan struct{}
	// loads counts the load reports received.
	loads int
	// hold is the answers' Hold: whether the master holds exchanges.
	hold bool
	// endTimes is the answers' EndTimes: whether the master reads end
	// times. strict refuses a request with a field it does not know, as
	// masters before end times do; refused counts those refused. keep
	// leaves the ends unacknowledged, and answers after a pause.
	endTimes, strict, keep bool
	refused                int
}

func newFakeMaster(t *testing.T) (*fakeMaster, *api.Client) {
	m := &fakeMaster{ends: map[int64][]api.AgentEnd{}, wake: make(chan struct{}, 1)}
	srv := httptest.NewServer(m)
	t.Cleanup(srv.Close)
	return m, api.DialTCP(strings.TrimPrefix(srv.URL, "http://"), "s3cret", "boss")
}

func (m *fakeMaster) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	if r.URL.Path != "/v1/agent/sync" {
		if r.URL.Path == "/v1/agent/load" {
			m.mu.Lock()
			m.loads++
			m.mu.Unlock()
		}
		w.Write([]byte("{}"))
		return
	}
	var req api.AgentSync
	m.mu.Lock()
	strict, keep := m.strict, m.keep
	m.mu.Unlock()
	body, err := io.ReadAll(r.Body)
	if err == nil {
		err = json.Unmarshal(body, &req)
	}
	if err == nil && strict {
		// A master before end times refuses the field, which it does
		// not know.
		var raw struct{ Ends []map[string]json.RawMessage }
		json.Unmarshal(body, &raw)
		for _, e := range raw.Ends {
			if _, ok := e["end"]; ok {
				err = errors.New(`json: unknown field "end"`)
			}
		}
	}
	if err != nil {
		m.mu.Lock()
		m.refused++
		m.mu.Unlock()
		w.WriteHeader(http.StatusBadRequest)
		json.NewEncoder(w).Encode(api.Error{Error: "bad request body: " + err.Error()})
		return
	}
	if keep {
		time.Sleep(20 * time.Millisecond)
	}
	out := m.answer(&req, true)
	if len(out.Orders) == 0 && len(out.Done) == 0 && req.Wait > 0 {
		select {
		case <-m.wake:
		case <-time.After(time.Duration(req.Wait * float64(time.Second))):
		case <-r.Context().Done():
		}
		out = m.answer(&req, false)
	}
	json.NewEncoder(w).Encode(out)
}

// answer records an exchange (first) and returns the orders it did not
// acknowledge, and its ends as done.
func (m *fakeMaster) answer(req *api.AgentSync, first bool) *api.AgentOrders {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := &api.AgentOrders{Session: m.session, Hold: m.hold, EndTimes: m.endTimes}
	if first {
		m.syncs = append(m.syncs, *req)
		for _, e := range req.Ends {
			m.ends[e.Job] = append(m.ends[e.Job], e)
			if !m.keep {
				out.Done = append(out.Done, e.AgentRun)
			}
		}
	}
	for _, o := range m.orders {
		if req.Session != m.session || o.Seq > req.Ack {
			out.Orders = append(out.Orders, o)
		}
	}
	return out
}

// give starts a session of the master with these orders, numbered from 1.
func (m *fakeMaster) give(session string, orders []api.AgentOrder) {
	m.mu.Lock()
	m.session, m.orders = session, orders
	for i := range m.orders {
		m.orders[i].Seq = uint64(i + 1)
	}
	m.mu.Unlock()
	select {
	case m.wake <- struct{}{}:
	default:
	}
}

// exchanges returns the exchanges received so far.
func (m *fakeMaster) exchanges() []api.AgentSync {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.syncs)
}

// endsOf returns the ends reported for job.
func (m *fakeMaster) endsOf(job int64) []api.AgentEnd {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.ends[job])
}

func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("waited 60 s for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// jobOrder is an order to run command as job id, dispatched at start.
func jobOrder(id int64, start float64, command string) api.AgentOrder {
	u, err := user.Current()
	name := "root"
	if err == nil {
		name = u.Username
	}
	return api.AgentOrder{AgentRun: api.AgentRun{Job: id, Start: start}, Spec: &api.JobSpec{Command: command, User: name,
		UID: os.Getuid(), GID: os.Getgid(), Umask: -1, Env: []string{"PATH=/usr/bin:/bin", "HOME=/tmp"}}}
}

// TestHeldWait: an agent whose master holds exchanges waits up to
// api.AgentHoldWait in an exchange that brings nothing new, and one
// interval in one that tells of a new run; an agent whose master does not
// say so waits one interval.
func TestHeldWait(t *testing.T) {
	const interval = 50 * time.Millisecond
	for _, hold := range []bool{false, true} {
		m, client := newFakeMaster(t)
		m.mu.Lock()
		m.hold = hold
		m.mu.Unlock()
		a, err := sbatchd.Start(context.Background(), sbatchd.Config{Master: client, Host: "hostA", StateDir: t.TempDir(), Interval: interval,
			WrapperPath: []string{os.Args[0], localexec.WrapperArg}, Logf: t.Logf})
		if err != nil {
			t.Fatal(err)
		}
		waits := func() []float64 {
			var w []float64
			for _, x := range m.exchanges() {
				w = append(w, x.Wait)
			}
			return w
		}
		long := api.AgentHoldWait.Seconds()
		if !hold {
			// Exchanges every interval, each waiting one.
			waitFor(t, "five exchanges", func() bool { return len(m.exchanges()) >= 5 })
			if w := waits(); slices.ContainsFunc(w, func(s float64) bool { return s != interval.Seconds() }) {
				t.Errorf("waits %v from an agent of a master that does not hold exchanges: want %v each", w, interval.Seconds())
			}
			a.Close()
			continue
		}
		waitFor(t, "an exchange that waits long", func() bool { return slices.Contains(waits(), long) })
		if w := waits(); len(w) != 2 || w[0] != interval.Seconds() {
			t.Errorf("waits %v: want one interval, then %v once the master said it holds exchanges", w, long)
		}
		// A job to run: the exchanges while its order is being recorded
		// wait an interval; once the run and its directory are told, a
		// long wait again.
		m.give("s1", []api.AgentOrder{jobOrder(1, 100, "sleep 5")})
		waitFor(t, "the run and its directory to be told, with a long wait", func() bool {
			ex := m.exchanges()
			l := ex[len(ex)-1]
			return len(l.Known) == 1 && len(l.Dirs) == 1 && l.Wait == long
		})
		for _, x := range m.exchanges()[2:] {
			if x.Ack == 0 && x.Wait != interval.Seconds() {
				t.Errorf("an exchange while the order is being recorded waits %v, want one interval (%v)", x.Wait, interval.Seconds())
			}
		}
		a.Close()
	}
}

// TestBurstWhileStarting dispatches a burst of jobs whose wrappers hang
// at their start: the agent records the runs its launchers took and
// acknowledges those orders, and goes on exchanging with the master while
// no job has started. A second session of the master (a new leader)
// sends the same runs again, and a kill for a job still starting: once
// the wrappers go on, every job runs once and ends with its own exit
// status, and the killed one is killed.
func TestBurstWhileStarting(t *testing.T) {
	gate := filepath.Join(t.TempDir(), "gate")
	t.Setenv(gateEnv, gate)
	out := t.TempDir()
	m, client := newFakeMaster(t)
	const n, launchers = 24, 4
	var orders []api.AgentOrder
	for id := int64(1); id <= n; id++ {
		orders = append(orders, jobOrder(id, 100, fmt.Sprintf("echo ran >> %s/%d; exit %d", out, id, id%5)))
	}
	killed := jobOrder(n+1, 100, "sleep 300")
	orders = append(orders, killed, api.AgentOrder{AgentRun: killed.AgentRun, Signal: "KILL"})
	m.give("s1", slices.Clone(orders))
	state := t.TempDir()
	a, err := sbatchd.Start(context.Background(), sbatchd.Config{Master: client, Host: "hostA", StateDir: state, Interval: 100 * time.Millisecond,
		Launchers: launchers, WrapperPath: []string{os.Args[0], localexec.WrapperArg}, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()

	// The first runs, one per launcher, are recorded and their orders
	// acknowledged, though no job can start; the others wait.
	last := func() api.AgentSync {
		ex := m.exchanges()
		if len(ex) == 0 {
			return api.AgentSync{}
		}
		return ex[len(ex)-1]
	}
	waitFor(t, "the first orders to be acknowledged", func() bool {
		l := last()
		return l.Session == "s1" && l.Ack == launchers && len(l.Known) == launchers
	})
	// The agent goes on exchanging while its jobs start.
	held := len(m.exchanges())
	waitFor(t, "more exchanges while the jobs start", func() bool { return len(m.exchanges()) >= held+3 })
	if l := last(); l.Ack != launchers {
		t.Errorf("acknowledged %d orders while %d launchers wait for their jobs, want %d", l.Ack, launchers, launchers)
	}
	// A new leader sends the same runs again: they are held already.
	m.give("s2", slices.Clone(orders))
	waitFor(t, "the orders of the new session to be acknowledged", func() bool {
		l := last()
		return l.Session == "s2" && l.Ack == launchers
	})
	if ents, _ := os.ReadDir(out); len(ents) != 0 {
		t.Fatalf("%d jobs ran before their wrappers could start them", len(ents))
	}

	if err := os.WriteFile(gate, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for id := int64(1); id <= n+1; id++ {
		waitFor(t, fmt.Sprintf("the end of job %d", id), func() bool { return len(m.endsOf(id)) > 0 })
	}
	for id := int64(1); id <= n; id++ {
		ends := m.endsOf(id)
		if e := ends[0]; e.ExitCode != int(id%5) || e.Lost || e.Err != "" {
			t.Errorf("job %d ended %+v, want exit code %d", id, e, id%5)
		}
		data, err := os.ReadFile(filepath.Join(out, fmt.Sprint(id)))
		if got := strings.Count(string(data), "ran"); err != nil || got != 1 {
			t.Errorf("job %d ran %d times (%v), want once", id, got, err)
		}
	}
	if e := m.endsOf(n + 1)[0]; e.ExitCode == 0 && e.Signal == 0 {
		t.Errorf("the job killed while it started ended %+v, want killed", e)
	}
	// Every end was acknowledged: the agent keeps no run.
	waitFor(t, "the agent to forget its runs", func() bool {
		ents, _ := os.ReadDir(filepath.Join(state, "runs"))
		return len(ents) == 0
	})
}

// TestOutputID: a job's output files are named by the output id its order
// gives (a job received from another cluster: its id there), while
// LSB_JOBID is its own id.
func TestOutputID(t *testing.T) {
	m, client := newFakeMaster(t)
	cwd := t.TempDir()
	o := jobOrder(3, 100, "echo $LSB_JOBID")
	o.Spec.Cwd, o.Spec.Stdout, o.Spec.OutputID = cwd, "fw.%J.out", 7
	m.give("s1", []api.AgentOrder{o})
	a, err := sbatchd.Start(context.Background(), sbatchd.Config{Master: client, Host: "hostA", StateDir: t.TempDir(), Interval: 100 * time.Millisecond,
		WrapperPath: []string{os.Args[0], localexec.WrapperArg}, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	waitFor(t, "the end of job 3", func() bool { return len(m.endsOf(3)) > 0 })
	if e := m.endsOf(3)[0]; e.ExitCode != 0 || e.Err != "" {
		t.Fatalf("job 3 ended %+v, want exit code 0", e)
	}
	if b, err := os.ReadFile(filepath.Join(cwd, "fw.7.out")); err != nil || string(b) != "3\n" {
		entries, _ := os.ReadDir(cwd)
		t.Errorf("fw.7.out = %q, %v; want \"3\\n\" (the directory holds %v)", b, err, entries)
	}
}

// TestStartContext stops an agent by ending the context it was started
// with: it stops exchanging and releases its state directory, as Close
// does, so that the next agent takes the directory; Close after then
// returns at once.
func TestStartContext(t *testing.T) {
	m, client := newFakeMaster(t)
	state := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	a, err := sbatchd.Start(ctx, sbatchd.Config{Master: client, Host: "hostA", StateDir: state, Interval: 100 * time.Millisecond,
		WrapperPath: []string{os.Args[0], localexec.WrapperArg}, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "a first exchange", func() bool { return len(m.exchanges()) > 0 })
	cancel()
	var next *sbatchd.Agent
	waitFor(t, "the state directory to be released", func() bool {
		next, err = sbatchd.Start(context.Background(), sbatchd.Config{Master: client, Host: "hostA", StateDir: state,
			Interval: 100 * time.Millisecond, WrapperPath: []string{os.Args[0], localexec.WrapperArg}, Logf: t.Logf})
		return err == nil
	})
	defer next.Close()
	if err := a.Close(); err != nil {
		t.Errorf("Close after the context ended: %v, want nil", err)
	}
}

// TestAgentClock: the agent reports its load every interval of its
// clock: on a testing clock, once more each time the clock is stepped by
// an interval (a minute, longer than the test waits in real time).
func TestAgentClock(t *testing.T) {
	m, client := newFakeMaster(t)
	clk := testclock.NewFakeClock(time.Unix(1_700_000_000, 0))
	a, err := sbatchd.Start(context.Background(), sbatchd.Config{Master: client, Host: "hostA", StateDir: t.TempDir(),
		Interval: time.Minute, WrapperPath: []string{os.Args[0], localexec.WrapperArg}, Logf: t.Logf, Clock: clk})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	loads := func() int {
		m.mu.Lock()
		defer m.mu.Unlock()
		return m.loads
	}
	waitFor(t, "the first load report", func() bool { return loads() == 1 })
	for want := 2; want <= 4; want++ {
		clk.Step(time.Minute)
		waitFor(t, fmt.Sprintf("load report %d after a step of an interval", want), func() bool { return loads() == want })
	}
}

// lastEnd returns the last end reported for job, and how many were.
func (m *fakeMaster) lastEnd(job int64) (api.AgentEnd, int) {
	ends := m.endsOf(job)
	if len(ends) == 0 {
		return api.AgentEnd{}, 0
	}
	return ends[len(ends)-1], len(ends)
}

// TestEndTime: an agent reports when a job ended, as its wrapper
// recorded it, and the time of an end it tells itself (a job it could
// not start) by its own clock; the ends and their times survive the
// agent's restart before the master took them.
func TestEndTime(t *testing.T) {
	m, client := newFakeMaster(t)
	m.mu.Lock()
	m.endTimes, m.keep = true, true
	m.mu.Unlock()
	t0 := time.Unix(1_700_000_000, 0)
	start := func(state string, wrapper []string, clk *testclock.FakeClock) *sbatchd.Agent {
		a, err := sbatchd.Start(context.Background(), sbatchd.Config{Master: client, Host: "hostA", StateDir: state,
			Interval: 100 * time.Millisecond, WrapperPath: wrapper, Logf: t.Logf, Clock: clk})
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	wrapper := []string{os.Args[0], localexec.WrapperArg}
	ran, refused := t.TempDir(), t.TempDir()
	before := time.Now()
	// Job 1 runs on one agent; job 2 on another, whose wrapper cannot
	// start.
	m.give("s1", []api.AgentOrder{jobOrder(1, 100, "sleep 0.2; exit 3")})
	a := start(ran, wrapper, testclock.NewFakeClock(t0))
	waitFor(t, "the end of job 1", func() bool { _, n := m.lastEnd(1); return n > 0 })
	after := time.Now()
	a.Close()
	m.give("s2", []api.AgentOrder{jobOrder(2, 100, "true")})
	b := start(refused, []string{filepath.Join(t.TempDir(), "no-wrapper")}, testclock.NewFakeClock(t0))
	waitFor(t, "the end of job 2", func() bool { _, n := m.lastEnd(2); return n > 0 })
	b.Close()
	m.give("s3", nil)
	e1, _ := m.lastEnd(1)
	if e1.ExitCode != 3 || e1.End < float64(before.Add(200*time.Millisecond).UnixNano())/1e9 || e1.End > float64(after.UnixNano())/1e9 {
		t.Errorf("job 1 ended %+v: want exit code 3, at a time %v after %v and before %v", e1, time.Unix(0, int64(e1.End*1e9)), before, after)
	}
	e2, _ := m.lastEnd(2)
	if e2.ExitCode != 127 || e2.Err == "" || e2.End != float64(t0.Unix()) {
		t.Errorf("job 2 ended %+v: want exit code 127, at the agent's time %v", e2, float64(t0.Unix()))
	}
	// The next agents, an hour later by their clocks, report the same.
	later := testclock.NewFakeClock(t0.Add(time.Hour))
	_, n1 := m.lastEnd(1)
	_, n2 := m.lastEnd(2)
	a = start(ran, wrapper, later)
	defer a.Close()
	b = start(refused, wrapper, later)
	defer b.Close()
	waitFor(t, "the ends again after the restart", func() bool {
		_, k1 := m.lastEnd(1)
		_, k2 := m.lastEnd(2)
		return k1 > n1 && k2 > n2
	})
	if e, _ := m.lastEnd(1); e.End != e1.End || e.ExitCode != 3 {
		t.Errorf("job 1 after the restart ended %+v, want %+v", e, e1)
	}
	if e, _ := m.lastEnd(2); e.End != e2.End || e.ExitCode != 127 {
		t.Errorf("job 2 after the restart ended %+v, want %+v", e, e2)
	}
	// Taken, they are forgotten.
	m.mu.Lock()
	m.keep = false
	m.mu.Unlock()
	for _, state := range []string{ran, refused} {
		waitFor(t, "the agents to forget their runs", func() bool {
			ents, _ := os.ReadDir(filepath.Join(state, "runs"))
			return len(ents) == 0
		})
	}
}

// TestEndTimeOldMaster: an agent leaves the end times out for a master
// that does not say it reads them, and for one that refuses a request
// with them (a master before end times, where one that read them was):
// the end goes again at once, without its time.
func TestEndTimeOldMaster(t *testing.T) {
	m, client := newFakeMaster(t)
	m.mu.Lock()
	m.endTimes = true
	m.mu.Unlock()
	gate := filepath.Join(t.TempDir(), "gate")
	a, err := sbatchd.Start(context.Background(), sbatchd.Config{Master: client, Host: "hostA", StateDir: t.TempDir(),
		Interval: 30 * time.Second, WrapperPath: []string{os.Args[0], localexec.WrapperArg}, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	m.give("s1", []api.AgentOrder{jobOrder(1, 100, fmt.Sprintf("while [ ! -e %s ]; do sleep 0.05; done; exit 2", gate))})
	// The master holds the exchange that tells of the run (the agent's
	// wait is long); meanwhile it is replaced by an older one.
	waitFor(t, "the run to be told", func() bool {
		ex := m.exchanges()
		return len(ex) > 0 && len(ex[len(ex)-1].Known) == 1
	})
	m.mu.Lock()
	m.endTimes, m.strict = false, true
	m.mu.Unlock()
	if err := os.WriteFile(gate, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the end of job 1", func() bool { _, n := m.lastEnd(1); return n > 0 })
	e, _ := m.lastEnd(1)
	m.mu.Lock()
	refused := m.refused
	m.mu.Unlock()
	if e.ExitCode != 2 || e.End != 0 || refused != 1 {
		t.Errorf("job 1 ended %+v after %d refusals: want exit code 2, no end time, after one refusal", e, refused)
	}
	// The next end goes without its time at once: the master's answers
	// do not say it reads them.
	m.give("s2", []api.AgentOrder{jobOrder(2, 100, "exit 4")})
	waitFor(t, "the end of job 2", func() bool { _, n := m.lastEnd(2); return n > 0 })
	m.mu.Lock()
	refused = m.refused
	m.mu.Unlock()
	if e, _ := m.lastEnd(2); e.ExitCode != 4 || e.End != 0 || refused != 1 {
		t.Errorf("job 2 ended %+v after %d refusals in all: want exit code 4, no end time, no new refusal", e, refused)
	}
}
