package daemon

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/lsfc/lsfc/runtime"
	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/localexec"
)

// Execution agents (lsfc sbatchd) on the master's side.
//
// A host runs its jobs through the local executor until an agent names
// it: the agent's first report registers it, durably (a file named for
// the host under agents/ in the state directory), before any job goes to
// it; from then on the jobs whose first execution host it is are
// dispatched to the agent, and a restarted master leaves them to it
// instead of the local executor (unless the local executor has files of
// the job, which it then ran).
//
// The agent's part is two requests. Its load report (POST
// /v1/agent/load, LIM's part) brings the host's facts and load indices
// every interval. Its exchange (POST /v1/agent/sync, sbatchd's part) is a
// long poll: it brings the runs the agent holds and the ends it has to
// report, and takes the orders waiting for it (jobs to run, signals) or
// waits for some. Orders are numbered in the master's session; the agent
// acknowledges them by number, and those not acknowledged are sent again
// (the agent runs a job at most once per run: a job, and the time it was
// dispatched). An end is acknowledged (Done) only once the master's
// record of it is durable; until then the agent keeps it.
//
// A host is unavail when no load report has come for three of its
// agent's intervals, unreach when load reports come but no exchange has
// for that long; either way its jobs are UNKWN (in memory only: the log
// keeps their state before) and it takes no job. When it answers again
// they get their state back, and the first exchange reconciles: a job the
// agent reports ended ends with its real status; one the master started
// that never reached the agent (the master died first) is sent again;
// one the agent no longer knows, although it received it, is lost. A
// host unavail for HostLost (default 10 minutes: its agent sent neither
// a load report nor an exchange for that long) is lost for good: its
// rerunnable jobs go back to pending, to run elsewhere, and the others
// exit (code 255), as LSF does when a host becomes unavailable; if its
// agent comes back it is told to kill and forget those runs. An unreach
// host is never lost, however long: its load reports show that its agent
// runs, and so do its jobs, which keep their state once it exchanges
// again.
type agents struct {
	dir     string
	session string
	// all is set when every host is an agent's (the daemon has a Store):
	// none needs registering.
	all bool

	mu     sync.Mutex
	byHost map[string]*agent
	// loads are the load reports the owner has yet to apply, the last of
	// each host, and loaded is closed once it has applied them; ready
	// tells the owner that some wait. A cluster's agents report every
	// interval, thousands a second for thousands of hosts: the owner
	// takes them a batch at a time, not a call each.
	loads  map[string]*api.AgentLoad
	loaded chan struct{}
	ready  chan struct{}
	// peeks are the bpeek requests waiting for their agent's answer, by
	// the number of their peek order (peekSeq counts them).
	peeks   map[uint64]chan api.AgentPeek
	peekSeq uint64
}

// An agent is the master's view of one host's execution agent.
type agent struct {
	host     string
	interval time.Duration
	// lastLoad and lastSync are when the agent's last load report and
	// exchange came (zero: not in this master's life); holding counts
	// the agent's exchanges held now, each word from it while held.
	lastLoad, lastSync time.Time
	holding            int
	// synced is set once an exchange reconciled the host's jobs; lost
	// once the host was lost for good (until it answers again).
	synced, lost bool
	// outbox holds the orders not yet acknowledged, by number; sent the
	// runs this master dispatched to the host, while they are the jobs'
	// runs there, with the number of their order (0 until it is in the
	// outbox).
	outbox  []api.AgentOrder
	nextSeq uint64
	sent    map[int64]sentRun
	wake    chan struct{}
}

type sentRun struct {
	start float64
	seq   uint64
	// handed is set once an exchange's answer carried the order.
	handed bool
}

// carried reports whether an exchange shows that the agent carried out
// the order of run s: it acknowledged it in this master's session. Only
// such an exchange, built after the agent recorded the run, can tell
// that the agent no longer holds it: an exchange the agent gave up, which
// reaches the master after a newer one, can not.
func (s sentRun) carried(req *api.AgentSync, session string) bool {
	return s.seq != 0 && req.Session == session && req.Ack >= s.seq
}

// defaultAgentInterval is how often an agent reports when it has not
// said: lsfc sbatchd's default.
const defaultAgentInterval = 5 * time.Second

// defaultHostLost is how long a host may stay silent before it is lost.
const defaultHostLost = 10 * time.Minute

// openAgents reads the hosts whose agents registered; with all, every
// host of hosts is an agent's.
func openAgents(stateDir string, session string, all bool, hosts []string) (*agents, error) {
	a := &agents{dir: filepath.Join(stateDir, "agents"), session: session, all: all, byHost: map[string]*agent{},
		loads: map[string]*api.AgentLoad{}, loaded: make(chan struct{}), ready: make(chan struct{}, 1)}
	if all {
		for _, h := range hosts {
			a.byHost[h] = newAgent(h)
		}
		return a, nil
	}
	if err := os.MkdirAll(a.dir, 0o700); err != nil {
		return nil, fmt.Errorf("agents: %w", err)
	}
	ents, err := os.ReadDir(a.dir)
	if err != nil {
		return nil, fmt.Errorf("agents: %w", err)
	}
	for _, e := range ents {
		if checkName("host", e.Name()) == nil && !e.IsDir() {
			a.byHost[e.Name()] = newAgent(e.Name())
		}
	}
	return a, nil
}

func newAgent(host string) *agent {
	return &agent{host: host, interval: defaultAgentInterval, sent: map[int64]sentRun{}, wake: make(chan struct{}, 1)}
}

// get returns the agent of host, nil when it has none.
func (as *agents) get(host string) *agent {
	as.mu.Lock()
	defer as.mu.Unlock()
	a := as.byHost[host]
	if a == nil && as.all {
		a = newAgent(host)
		as.byHost[host] = a
	}
	return a
}

// register records, durably, that host has an agent. The file is
// written and synced outside the lock, so that hosts registering at
// once (a cluster's agents starting together) share the disk's time
// rather than queue for it, and no other agent's request waits on it.
func (as *agents) register(host string) error {
	as.mu.Lock()
	if as.byHost[host] != nil {
		as.mu.Unlock()
		return nil
	}
	if as.all {
		as.byHost[host] = newAgent(host)
		as.mu.Unlock()
		return nil
	}
	as.mu.Unlock()
	// Two requests of one agent may both get here: both write the same
	// empty file, and the first to finish adds the host.
	f, err := os.OpenFile(filepath.Join(as.dir, host), os.O_CREATE|os.O_WRONLY, 0o600)
	if err != nil {
		return fmt.Errorf("registering the agent of %s: %w", host, err)
	}
	err = errors.Join(f.Sync(), f.Close(), syncDir(as.dir))
	if err != nil {
		return fmt.Errorf("registering the agent of %s: %w", host, err)
	}
	as.mu.Lock()
	if as.byHost[host] == nil {
		as.byHost[host] = newAgent(host)
	}
	as.mu.Unlock()
	return nil
}

// syncDir makes a directory's entries durable.
func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	return errors.Join(f.Sync(), f.Close())
}

// order queues an order for host's agent and wakes its exchange.
func (as *agents) order(a *agent, o api.AgentOrder) {
	as.mu.Lock()
	a.nextSeq++
	o.Seq = a.nextSeq
	if o.Spec != nil {
		if s, ok := a.sent[o.Job]; ok && s.start == o.Start {
			a.sent[o.Job] = sentRun{start: o.Start, seq: o.Seq, handed: s.handed}
		}
	}
	a.outbox = append(a.outbox, o)
	as.mu.Unlock()
	select {
	case a.wake <- struct{}{}:
	default:
	}
}

// agentOf returns the agent that runs a started job: its first execution
// host's, nil when that host has none (the local executor runs it).
func (d *Daemon) agentOf(j *runtime.Job) *agent {
	if len(j.Allocs) == 0 {
		return nil
	}
	return d.agents.get(j.Allocs[0].Host.Name)
}

// A placement tells who runs one run of a job (the one that started at
// start): the local executor or the agent of its host.
type placement struct {
	start runtime.Time
	local bool
}

// runsLocally reports whether the local executor runs a started job: its
// host has no agent, this daemon gave the run to the local executor (an
// agent may have reported since: the run stays where it went), or, for a
// run an earlier daemon started, the local executor has its files. The
// answer is kept for the run.
func (d *Daemon) runsLocally(j *runtime.Job) bool {
	if d.agentOf(j) == nil {
		return true
	}
	if p, ok := d.placed[j.ID]; ok && p.start == j.Start {
		return p.local
	}
	_, err := os.Stat(filepath.Join(d.exec.Dir(), strconv.FormatInt(j.ID, 10)+".spec"))
	d.placed[j.ID] = placement{start: j.Start, local: err == nil}
	return err == nil
}

// startAct returns the action that starts a dispatched job once its start
// is durable: through its host's agent, else the local executor.
func (d *Daemon) startAct(j *runtime.Job, spec localexec.Spec) func() {
	// A new run: where an earlier one ran is no longer where it runs.
	delete(d.ranIn, j.ID)
	delete(d.runsIn, j.ID)
	a := d.agentOf(j)
	d.placed[j.ID] = placement{start: j.Start, local: a == nil}
	if a == nil {
		return d.withHostPre(j, spec, func() {
			if err := d.exec.Start(spec); err != nil {
				if strings.Contains(err.Error(), syscall.ENOSPC.Error()) {
					// Its files or its wrapper's found no space: the job
					// did not run, and goes back to pending until space
					// is back, rather than exit for it.
					d.exits <- localexec.Result{JobID: spec.JobID, Lost: true, NotStarted: true, Err: err.Error()}
					return
				}
				d.exits <- localexec.Result{JobID: spec.JobID, ExitCode: 127, Err: err.Error()}
			}
		})
	}
	run := api.AgentRun{Job: j.ID, Start: float64(j.Start)}
	// The run counts as sent from now: an exchange before the order is
	// queued must not take it for lost.
	d.agents.mu.Lock()
	a.sent[j.ID] = sentRun{start: run.Start}
	d.agents.mu.Unlock()
	js := jobSpec(spec)
	return d.withHostPre(j, spec, func() { d.agents.order(a, api.AgentOrder{AgentRun: run, Spec: &js}) })
}

// agentSignalAct returns the action that signals a job its host's agent
// runs, nil for a job the local executor runs. A kill counts as delivered
// once queued: the agent gets it whenever it answers.
func (d *Daemon) agentSignalAct(id int64, sig syscall.Signal) func() {
	j := d.cluster.Job(id)
	if j == nil || !j.State.Started() || d.runsLocally(j) {
		return nil
	}
	a := d.agentOf(j)
	name := map[syscall.Signal]string{syscall.SIGSTOP: "STOP", syscall.SIGCONT: "CONT", syscall.SIGKILL: "KILL",
		syscall.SIGUSR2: "USR2"}[sig]
	run := api.AgentRun{Job: j.ID, Start: float64(j.Start)}
	term := ""
	if sig == syscall.SIGKILL {
		term = j.Term
	}
	return func() {
		if name == "KILL" {
			d.killedMu.Lock()
			d.killed[id] = true
			d.killedMu.Unlock()
		}
		d.agents.order(a, api.AgentOrder{AgentRun: run, Signal: name, Term: term})
	}
}

// jobSpec is the agent's form of a Spec.
func jobSpec(s localexec.Spec) api.JobSpec {
	return api.JobSpec{Name: s.Name, Queue: s.Queue, User: s.User, Command: s.Command, Env: s.Env, Cwd: s.Cwd,
		Umask: s.Umask, Stdout: s.Stdout, Stderr: s.Stderr, OutputID: s.OutputID, Hosts: s.Hosts, UID: s.UID, GID: s.GID,
		MemLimit: s.MemLimit, PreExec: apiSteps(s.PreExec), PostExec: apiSteps(s.PostExec), CPULimit: s.CPULimit, ProcLimits: s.ProcLimits, ProcHardLimits: s.ProcHardLimits, JobLimits: s.JobLimits,
		PostLater: s.PostLater, PostTimeout: s.PostTimeout, StepHosts: s.StepHosts, Input: s.Input, InputData: s.InputData, LoginShell: s.LoginShell, OutDir: s.OutDir,
		GPUs: s.GPUs, Index: s.Index, IndexEnd: s.IndexEnd, IndexStep: s.IndexStep,
		Report: jobReport(s.Report), OutOverwrite: s.OutOverwrite, ErrOverwrite: s.ErrOverwrite,
		Interactive: apiInteractive(s.Interactive), ProcessTracking: s.ProcessTracking, CgroupAcct: s.CgroupAcct}
}

// apiSteps is the agent's form of pre- or post-execution steps.
func apiSteps(steps []localexec.ExecStep) []api.ExecStep {
	var out []api.ExecStep
	for _, st := range steps {
		out = append(out, api.ExecStep(st))
	}
	return out
}

// jobReport is the agent's form of a Report.
func jobReport(r *localexec.Report) *api.JobReport {
	if r == nil {
		return nil
	}
	return &api.JobReport{Cluster: r.Cluster, SubmitHost: r.SubmitHost, Submitted: float64(r.Submitted.UnixNano()) / 1e9,
		Sender: r.Sender, ReqMemMB: r.ReqMemMB, Direct: r.Direct, SpoolDir: r.SpoolDir, NoFile: r.NoFile, Mail: (*api.JobMail)(r.Mail)}
}

// apiInteractive is the agent's form of an interactive job's submitter.
func apiInteractive(in *localexec.Interactive) *api.Interactive {
	if in == nil {
		return nil
	}
	return &api.Interactive{Mode: in.Mode, Addrs: in.Addrs, Token: in.Token, Tty: in.Tty}
}

// hostDown returns the status a host's agent gives it at now: unavail
// without load reports, unreach without exchanges, for three intervals.
// A master just started gives agents that long from its start.
func (d *Daemon) hostDown(a *agent, now time.Time) (runtime.HostStatus, time.Time) {
	limit := 3 * a.interval
	load, sync := a.lastLoad, a.lastSync
	if load.IsZero() {
		load = d.started
	}
	if sync.IsZero() {
		sync = d.started
	}
	if a.holding > 0 {
		// An exchange held now: its agent waits for orders.
		sync = now
	}
	switch {
	case now.Sub(load) > limit:
		return runtime.HostUnavail, later(load, sync)
	case now.Sub(sync) > limit:
		return runtime.HostUnreach, sync
	}
	return runtime.HostOK, now
}

// later returns the later of two times.
func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}

// checkAgents runs with housekeeping: it marks the hosts whose agents
// are silent unavail or unreach (their jobs UNKWN), and loses those
// unavail for HostLost: their rerunnable jobs rerun, the others exit. A
// host is lost once for each silence.
func (d *Daemon) checkAgents(now time.Time) []Record {
	lostAfter := d.cfg.HostLost
	if lostAfter <= 0 {
		lostAfter = defaultHostLost
	}
	d.agents.mu.Lock()
	list := slices.Sorted(maps.Keys(d.agents.byHost))
	d.agents.mu.Unlock()
	var recs []Record
	for _, name := range list {
		h := d.cluster.Host(name)
		if h == nil {
			continue
		}
		a := d.agents.get(name)
		d.agents.mu.Lock()
		down, heard := d.hostDown(a, now)
		lost := down == runtime.HostUnavail && !a.lost && now.Sub(heard) > lostAfter
		if lost {
			a.lost, a.synced = true, false
			a.outbox, a.sent = nil, map[int64]sentRun{}
		}
		d.agents.mu.Unlock()
		d.setHostDown(h, down)
		if lost {
			d.dirty = true
			d.cfg.Logf("host %s: no word from its agent for %s: the host is lost", name, now.Sub(heard).Round(time.Second))
			recs = append(recs, d.loseJobs(h)...)
		}
	}
	return recs
}

// setHostDown applies an agent's status to its host.
func (d *Daemon) setHostDown(h *runtime.Host, s runtime.HostStatus) {
	was := h.Down
	changed := d.cluster.SetHostDown(h, s)
	if was != h.Down {
		d.dirty = true
		d.cfg.Logf("host %s: %s (%d jobs %s)", h.Name, h.State(), len(changed), map[bool]string{true: "UNKWN", false: "known again"}[s != runtime.HostOK])
	}
}

// loseJobs ends the jobs of a lost host: rerunnable ones go back to
// pending, the others exit.
func (d *Daemon) loseJobs(h *runtime.Host) []Record {
	var recs []Record
	now := d.now()
	for _, j := range slices.Clone(h.Jobs()) {
		if len(j.Allocs) == 0 || j.Allocs[0].Host != h || d.runsLocally(j) {
			continue
		}
		d.cluster.Known(j)
		if rec, ok := d.ended(localexec.Result{JobID: j.ID, Lost: true, Err: "its host " + h.Name + " is lost"}, now); ok {
			recs = append(recs, rec)
		}
	}
	return recs
}

// handleAgentLoad takes an agent's load report. It answers once the
// owner has applied it, with the others that came meanwhile.
func (d *Daemon) handleAgentLoad(w http.ResponseWriter, r *http.Request) {
	var req api.AgentLoad
	if err := d.agentRequest(r, &req, &req.Host); err != nil {
		reply(w, nil, err)
		return
	}
	as := d.agents
	a := as.get(req.Host)
	as.mu.Lock()
	a.lastLoad = d.clk.Now()
	a.interval = agentInterval(req.Interval)
	a.lost = false
	as.loads[req.Host] = &req
	loaded := as.loaded
	as.mu.Unlock()
	select {
	case as.ready <- struct{}{}:
	default:
	}
	select {
	case <-loaded:
		reply(w, struct{}{}, nil)
	case <-r.Context().Done():
		reply(w, nil, r.Context().Err())
	case <-d.done:
		reply(w, nil, errShutdown)
	}
}

// applyLoads applies, on the owning goroutine, the load reports that
// wait, and releases their requests.
func (d *Daemon) applyLoads() {
	as := d.agents
	as.mu.Lock()
	loads, loaded := as.loads, as.loaded
	as.loads, as.loaded = map[string]*api.AgentLoad{}, make(chan struct{})
	as.mu.Unlock()
	defer close(loaded)
	now := d.clk.Now()
	for _, host := range slices.Sorted(maps.Keys(loads)) {
		req := loads[host]
		h := d.cluster.Host(host)
		if h == nil {
			continue // a reconfiguration removed it meanwhile
		}
		a := as.get(host)
		as.mu.Lock()
		down, _ := d.hostDown(a, now)
		as.mu.Unlock()
		ncpus := d.cluster.Policy.HostNcpus(host, req.Ncpus, req.Nprocs, req.Ncores, req.Nthreads)
		d.cluster.SetFacts(h, req.Type, req.Model, ncpus, req.Maxmem, req.Maxswp, req.Maxtmp)
		d.cluster.SetGPUs(h, gpuDevices(req.GPUs))
		d.cluster.SetGPUMemUsed(h, gpuMemUsed(req.GPUs))
		if req.Load != nil {
			d.cluster.SetLoad(h, req.Load)
		}
		d.setHostDown(h, down)
		d.dirty = true
	}
}

// agentRequest reads an agent's request, checks who sends it (an
// administrator, or a TCP client with the secret) and its host, and
// registers the host's agent.
func (d *Daemon) agentRequest(r *http.Request, v fastDecoder, host *string) error {
	if id := who(r); !id.Remote && !d.isAdmin(id) {
		return errorf(http.StatusForbidden, "only an administrator, or an agent with the cluster's secret, may act as an execution agent")
	}
	if err := readAgentJSON(r, v); err != nil {
		return err
	}
	if err := checkName("host", *host); err != nil {
		return errorf(http.StatusBadRequest, "%v", err)
	}
	if id := who(r); id.Cert && id.User != *host && !d.isAdmin(id) {
		// A certificate names a user: only an administrator's, or the
		// host's own, acts as the host's agent.
		return errorf(http.StatusForbidden, "the certificate of %q may not act as the execution agent of host %q", id.User, *host)
	}
	if d.cfg.Policy.Host(*host) == nil {
		return errorf(http.StatusNotFound, "%s: No such host in the cluster", truncate(*host))
	}
	return d.agents.register(*host)
}

// A fastDecoder is an agent's request, which reads its plain form
// without reflection (api.AgentLoad.DecodeFast).
type fastDecoder interface{ DecodeFast([]byte) bool }

// agentBodies are the buffers agents' requests are read into.
var agentBodies = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// readAgentJSON reads an agent's request as readJSON does: through its
// fast path when the body is in the plain form agents send, else through
// encoding/json, strictly.
func readAgentJSON(r *http.Request, v fastDecoder) error {
	buf := agentBodies.Get().(*bytes.Buffer)
	defer func() {
		if buf.Cap() <= 64<<10 {
			buf.Reset()
			agentBodies.Put(buf)
		}
	}()
	if _, err := buf.ReadFrom(r.Body); err != nil {
		var tooBig *http.MaxBytesError
		if errors.As(err, &tooBig) {
			return errorf(http.StatusRequestEntityTooLarge, "request larger than %d bytes", api.MaxRequestBytes)
		}
		return errorf(http.StatusBadRequest, "bad request body: %v", err)
	}
	if v.DecodeFast(buf.Bytes()) {
		return nil
	}
	return decodeJSON(bytes.NewReader(buf.Bytes()), v)
}

// agentInterval reads an agent's interval: 5 s when it gives none, at
// least 10 ms.
func agentInterval(sec float64) time.Duration {
	if sec <= 0 {
		return defaultAgentInterval
	}
	return max(time.Duration(sec*float64(time.Second)), 10*time.Millisecond)
}

// maxAgentWait bounds how long an exchange is held.
const maxAgentWait = api.AgentHoldWait

// handleAgentSync takes an agent's exchange and answers with its orders,
// waiting for some up to the agent's Wait.
func (d *Daemon) handleAgentSync(w http.ResponseWriter, r *http.Request) {
	var req api.AgentSync
	if err := d.agentRequest(r, &req, &req.Host); err != nil {
		reply(w, nil, err)
		return
	}
	d.agents.deliverPeeks(req.Peeks)
	var cycled chan struct{}
	v, err := d.do(r.Context(), func() (any, []Record, func(), error) {
		cycled = d.cycled
		return d.agentSync(&req)
	})
	if err != nil {
		reply(w, nil, err)
		return
	}
	out := v.(*api.AgentOrders)
	if len(req.Ends) > 0 && req.Wait == 0 && len(out.Orders) == 0 && len(out.Kill) == 0 {
		// Ends free slots, which the next cycle fills, most often on
		// this very host: the answer waits for that cycle (a little
		// while at most) and carries its orders, rather than leave them
		// to the agent's next exchange, a round trip behind.
		d.awaitCycle(r, cycled, req.Host, out)
	}
	if len(out.Orders) == 0 && len(out.Kill) == 0 && req.Wait > 0 {
		a := d.agents.get(req.Host)
		wait := min(time.Duration(req.Wait*float64(time.Second)), maxAgentWait)
		d.holdFor(w, wait)
		// A wake left by an order an earlier answer already carried
		// would end this wait at once, for nothing: it is dropped, and
		// an order queued since the owner answered is seen in the
		// outbox instead (order wakes after it adds to it).
		select {
		case <-a.wake:
		default:
		}
		d.agents.mu.Lock()
		queued := len(a.outbox) > 0
		a.holding++
		d.agents.mu.Unlock()
		t := d.clk.NewTimer(wait)
		if !queued {
			select {
			case <-a.wake:
			case <-t.C():
			case <-r.Context().Done():
			case <-d.done:
			}
		}
		t.Stop()
		d.agents.mu.Lock()
		a.holding--
		if r.Context().Err() == nil {
			// An exchange its agent gave up (its connection closed)
			// is no word from it.
			a.lastSync = d.clk.Now()
		}
		out.Orders = slices.Clone(a.outbox)
		d.agents.mu.Unlock()
	}
	reply(w, out, nil)
	d.noteHanded(req.Host, out.Orders)
}

// endCycleWait bounds how long the answer to an exchange that reported
// ends waits for the next cycle.
const endCycleWait = time.Second

// awaitCycle waits until the cycle after an exchange's ends has handed
// on its starts (or endCycleWait, or an order for the host, or the
// request's end), and adds the host's orders to out.
func (d *Daemon) awaitCycle(r *http.Request, cycled chan struct{}, host string, out *api.AgentOrders) {
	a := d.agents.get(host)
	if a == nil || cycled == nil {
		return
	}
	t := d.clk.NewTimer(endCycleWait)
	select {
	case <-cycled:
	case <-a.wake:
	case <-t.C():
	case <-r.Context().Done():
	case <-d.done:
	}
	t.Stop()
	d.agents.mu.Lock()
	out.Orders = slices.Clone(a.outbox)
	d.agents.mu.Unlock()
}

// noteHanded counts, for perfmon, the time from their start to now of
// the runs whose orders an answer carried for the first time.
func (d *Daemon) noteHanded(host string, orders []api.AgentOrder) {
	if len(orders) == 0 {
		return
	}
	a := d.agents.get(host)
	now := d.clk.Now()
	d.agents.mu.Lock()
	var lat []time.Duration
	for _, o := range orders {
		if s, ok := a.sent[o.Job]; ok && o.Spec != nil && s.start == o.Start && s.seq == o.Seq && !s.handed {
			s.handed = true
			a.sent[o.Job] = s
			lat = append(lat, now.Sub(time.Unix(0, int64(o.Start*1e9))))
		}
	}
	d.agents.mu.Unlock()
	for _, l := range lat {
		d.perf.note(kindDispatch, l)
	}
}

// agentSync reconciles a host's jobs with what its agent reports, on the
// owning goroutine; see agents.
func (d *Daemon) agentSync(req *api.AgentSync) (any, []Record, func(), error) {
	h := d.cluster.Host(req.Host)
	a := d.agents.get(req.Host)
	wall := d.clk.Now()
	as := d.agents
	as.mu.Lock()
	a.lastSync, a.lost = wall, false
	a.interval = agentInterval(req.Interval)
	if req.Session == as.session {
		a.outbox = slices.DeleteFunc(a.outbox, func(o api.AgentOrder) bool { return o.Seq <= req.Ack })
	}
	down, _ := d.hostDown(a, wall)
	as.mu.Unlock()
	d.setHostDown(h, down)

	now := d.now()
	out := &api.AgentOrders{Session: as.session, Hold: true, EndTimes: true}
	var recs []Record
	var acts []func()
	// The ends of resize notifications first: they ran before any end
	// of their job reported with them. Each is acknowledged with the
	// records of the exchange, once they are durable; one answering a
	// notification that is over is acknowledged and counts for nothing.
	for _, n := range req.Notified {
		if rec, act := d.noticeEnded(n.Job, runtime.Time(n.Start), n.Notice, n.Code); rec != nil {
			recs = append(recs, *rec)
			if act != nil {
				acts = append(acts, act)
			}
		}
		out.NotifiedDone = append(out.NotifiedDone, n.NoticeRef)
	}
	// on tells whether the run is the one the master counts on this host.
	on := func(id int64, start float64) *runtime.Job {
		j := d.cluster.Job(id)
		if j == nil || !j.State.Started() || len(j.Allocs) == 0 || j.Allocs[0].Host != h || float64(j.Start) != start {
			return nil
		}
		return j
	}
	reported := map[int64]bool{}
	// The ends of jobs before those of post-execution commands, which
	// may follow the job's end in the same exchange.
	ends := slices.Clone(req.Ends)
	rank := func(e api.AgentEnd) int {
		if e.Post {
			return 1
		}
		return 0
	}
	slices.SortStableFunc(ends, func(a, b api.AgentEnd) int { return rank(a) - rank(b) })
	for _, e := range ends {
		if e.Post {
			// The post-execution commands of a job whose end was
			// recorded before them, on this run.
			j := d.cluster.Job(e.Job)
			if j != nil && len(j.Allocs) > 0 && j.Allocs[0].Host == h && float64(j.Start) == e.Start {
				if rec, ok := d.postEnded(localexec.Result{JobID: e.Job, PostReport: true, PostExec: e.PostExec, Err: e.Err}, now); ok {
					recs = append(recs, rec)
				}
			}
			out.Done = append(out.Done, e.AgentRun)
			continue
		}
		reported[e.Job] = true
		if j := on(e.Job, e.Start); j != nil {
			d.cluster.Known(j)
			r := localexec.Result{JobID: e.Job, ExitCode: e.ExitCode, Signal: e.Signal, Lost: e.Lost, NotStarted: e.NotStarted,
				Err: e.Err, CPUTime: time.Duration(e.CPU * float64(time.Second)), MaxRSS: e.MaxRSS,
				MemLimitExceeded: e.MemLimitExceeded, LimitTerm: e.LimitTerm, Cwd: e.Cwd, CwdNotExist: e.CwdNotExist,
				PreExecFailed: e.PreExecFailed, PreExecCode: e.PreExecCode, PostExec: e.PostExec, CPULimitExceeded: e.CPULimitExceeded,
				PostPending: e.PostPending}
			if rec, ok := d.ended(r, agentEndOf(j, e.End, now)); ok {
				recs = append(recs, rec)
			}
		}
		out.Done = append(out.Done, e.AgentRun)
	}
	for _, e := range req.HostExecs {
		out.HostDone = append(out.HostDone, e.AgentRun)
		recs = append(recs, d.hostExecEnded(a, e, now)...)
	}
	known := map[int64]float64{}
	for _, k := range req.Known {
		known[k.Job] = k.Start
		if !reported[k.Job] && on(k.Job, k.Start) == nil {
			out.Kill = append(out.Kill, k)
		} else if dir := req.Dirs[k.Job]; dir != "" && !reported[k.Job] {
			d.runsIn[k.Job] = dir
		}
	}
	as.mu.Lock()
	synced := a.synced
	a.synced = true
	as.mu.Unlock()
	var resend []*runtime.Job
	for _, j := range slices.Clone(h.Jobs()) {
		if len(j.Allocs) == 0 || j.Allocs[0].Host != h || reported[j.ID] || d.runsLocally(j) {
			continue
		}
		if s, ok := known[j.ID]; ok && s == float64(j.Start) {
			continue
		}
		as.mu.Lock()
		s, dispatched := a.sent[j.ID]
		dispatched = dispatched && s.start == float64(j.Start)
		as.mu.Unlock()
		switch {
		case dispatched && !s.carried(req, as.session):
			// On its way, or being recorded by the agent.
		case !dispatched && !synced:
			// Started before this master's session, and never reached
			// the agent: send it now.
			resend = append(resend, j)
		case !dispatched && req.Session != as.session:
			// An exchange of the agent's before it knew this session:
			// wait for one that is.
		default:
			d.cfg.Logf("job %d: the agent of %s no longer knows it", j.ID, h.Name)
			d.cluster.Known(j)
			if rec, ok := d.ended(localexec.Result{JobID: j.ID, Lost: true, Err: "the agent of " + h.Name + " lost it"}, now); ok {
				recs = append(recs, rec)
			}
		}
	}
	// Forget the runs dispatched that are no longer their jobs' runs here.
	as.mu.Lock()
	for id, s := range a.sent {
		if on(id, s.start) == nil {
			delete(a.sent, id)
		}
	}
	as.mu.Unlock()
	for _, j := range resend {
		d.startAct(j, d.spec(j))()
	}
	if len(recs) > 0 {
		d.dirty = true
	}
	as.mu.Lock()
	out.Orders = slices.Clone(a.outbox)
	as.mu.Unlock()
	var act func()
	if len(acts) > 0 {
		act = func() {
			for _, f := range acts {
				f()
			}
		}
	}
	return out, recs, act, nil
}

// agentEndOf returns when a job that ran under an agent ended: the time
// its agent reports, end, as endOf takes the time a local job's wrapper
// recorded, so that an end the master learns of late (the master was
// down, or the agent could not reach it) is still the job's. It is now
// when the agent reports none (agents before end times).
//
// The time is read on the agent's host's clock, the job's start and now
// on the master's. The two may differ: an end the agent's clock puts
// after now is now, and one before the run's start, the dispatch time
// the master recorded, is that start (the job ran for no time the
// master can tell). Nor is it before the job last began to run again
// (RunSince: a resumption the master ordered while it had not yet heard
// of the end), so that the run's time never comes out negative.
func agentEndOf(j *runtime.Job, end float64, now runtime.Time) runtime.Time {
	if end <= 0 {
		return now
	}
	return min(max(runtime.Time(end), j.Start, j.RunSince), now)
}

// gpuMemUsed returns the memory in use on the GPUs an agent reports, by
// index, when it measures it; nil otherwise.
func gpuMemUsed(devs []api.GPUDevice) map[int]float64 {
	var out map[int]float64
	for _, d := range devs {
		if d.MemUsed != nil && *d.MemUsed >= 0 && *d.MemUsed < 1<<40 {
			if out == nil {
				out = map[int]float64{}
			}
			out[d.Index] = *d.MemUsed
		}
	}
	return out
}

// gpuDevices turns the GPUs an agent reports into the cluster's.
func gpuDevices(devs []api.GPUDevice) []runtime.GPUDevice {
	if len(devs) == 0 {
		return nil
	}
	out := make([]runtime.GPUDevice, len(devs))
	for i, d := range devs {
		out[i] = runtime.GPUDevice{Index: d.Index, Model: d.Model, Mem: d.Mem}
	}
	return out
}
