package sbatchd

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/localexec"
	"k8s.io/utils/clock"
)

// Config configures an agent.
type Config struct {
	// Master is the master's TCP API, with the cluster's secret.
	Master *api.Client
	// Host is the host's name in the configuration.
	Host string
	// StateDir holds the agent's lock, its runs and its jobs' files.
	StateDir string
	// Interval is how often the agent reports (0: 5 s).
	Interval time.Duration
	// Launchers bounds how many jobs the agent starts at once (0: 8).
	// Each start waits on the disk and on the job's wrapper; the
	// exchange with the master goes on meanwhile.
	Launchers int
	// WrapperPath overrides how the executor starts its job wrapper
	// (tests); nil runs this program with the wrapper argument.
	WrapperPath []string
	// Logf receives the agent's messages (nil: standard error).
	Logf func(format string, args ...any)
	// Clock times the agent's reports and its waits between exchanges
	// (nil: the real clock); tests give a testing clock and step it. A
	// request to the master is bounded in real time all the same.
	Clock clock.WithTicker
}

// An Agent is a running execution agent.
type Agent struct {
	cfg     Config
	exec    *localexec.Executor
	sampler *localexec.Sampler
	runsDir string
	lock    *os.File

	mu   sync.Mutex
	runs map[int64]*run
	// pending are the orders of the master's session taken in hand and
	// not yet acknowledged, in order; ack is the last one acknowledged.
	pending []pendingOrder
	ack     uint64
	// peeks are the answers to peek orders, for the next exchange;
	// notified the ends of resize notification commands, until the
	// master takes them.
	peeks    []api.AgentPeek
	notified []api.AgentNotified
	// hostEnds are how the host-based commands of HostExec orders ended,
	// until the master takes them.
	hostEnds []api.HostExecEnd
	// queue holds the runs waiting for a launcher; launchers counts the
	// launchers at work.
	queue     []*launch
	launchers int
	// cancel cuts the exchange's wait short, when one waits.
	cancel context.CancelFunc
	// holds is set once the master said it holds exchanges
	// (api.AgentOrders.Hold): the agent's exchanges then wait up to
	// api.AgentHoldWait for orders, not one interval, while it expects
	// nothing new to tell (see request).
	holds bool
	// plainEnds is set while the master does not read the end times of
	// ends (api.AgentOrders.EndTimes): the exchanges leave them out.
	plainEnds bool
	// progress is signalled when a run is recorded or ends.
	progress chan struct{}

	ctx  context.Context
	stop context.CancelFunc
	wg   sync.WaitGroup
	// stopAfter undoes the shutdown registered on Start's context;
	// closeOnce makes the shutdown happen once, closeErr is its error.
	stopAfter func() bool
	closeOnce sync.Once
	closeErr  error
}

// A run is one run of a job on this host.
type run struct {
	record
	// recorded is set once the run's record is durable under runs/;
	// starting while a launcher records and starts it, and signals are
	// the signals ordered meanwhile, sent once it runs.
	recorded bool
	starting bool
	signals  []string
	// killTerm is how the master ends the run (TERM_OWNER ...), when a
	// kill came while it was starting, for its job report.
	killTerm string
}

// A record is what runs/ keeps of a run; End is set once it ended.
// Post is set once the master recorded the end of a job whose
// post-execution commands run on after it: only theirs, PostEnd, is to
// come (kept in memory, as End is: after a restart the executor gives
// both again).
type record struct {
	Start   float64       `json:"start"`
	End     *api.AgentEnd `json:"end,omitempty"`
	Post    bool          `json:"post,omitempty"`
	PostEnd *api.AgentEnd `json:"-"`
}

// Start takes the state directory (its lock), recovers the runs it holds,
// and starts reporting to the master, until ctx ends or Close is called,
// whichever comes first; either way it stops as Close says.
func Start(ctx context.Context, cfg Config) (*Agent, error) {
	if cfg.Master == nil || cfg.Host == "" || cfg.StateDir == "" {
		return nil, errors.New("an agent needs its master, its host name and a state directory")
	}
	if cfg.Interval <= 0 {
		cfg.Interval = 5 * time.Second
	}
	if cfg.Launchers <= 0 {
		cfg.Launchers = defaultLaunchers
	}
	if cfg.Logf == nil {
		cfg.Logf = func(format string, args ...any) { fmt.Fprintf(os.Stderr, "lsfc sbatchd: "+format+"\n", args...) }
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.RealClock{}
	}
	a := &Agent{cfg: cfg, sampler: localexec.NewSampler(), runsDir: filepath.Join(cfg.StateDir, "runs"), runs: map[int64]*run{},
		progress: make(chan struct{}, 1)}
	if err := os.MkdirAll(a.runsDir, 0o700); err != nil {
		return nil, fmt.Errorf("state directory: %w", err)
	}
	lock, err := os.OpenFile(filepath.Join(cfg.StateDir, "lock"), os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, fmt.Errorf("state directory: %w", err)
	}
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		lock.Close()
		return nil, fmt.Errorf("state directory %s is in use by another agent", cfg.StateDir)
	}
	a.lock = lock
	exec, err := localexec.New(filepath.Join(cfg.StateDir, "jobs"), a.exited)
	if err != nil {
		lock.Close()
		return nil, err
	}
	exec.WrapperPath = cfg.WrapperPath
	exec.Logf = cfg.Logf
	a.exec = exec
	if err := a.recover(); err != nil {
		exec.Close()
		lock.Close()
		return nil, err
	}
	a.ctx, a.stop = context.WithCancel(ctx)
	a.wg.Add(2)
	go a.loadLoop()
	go a.syncLoop()
	a.stopAfter = context.AfterFunc(ctx, func() { a.shutdown() })
	return a, nil
}

// Close stops reporting and starting jobs, as the end of Start's context
// does, and releases the state directory; the jobs run on, and the next
// agent on the directory reports them. Orders whose run was not yet
// recorded are left to the master, which sends them again. Close waits
// until the agent has stopped; after the context ended it only waits,
// and returns the same error.
func (a *Agent) Close() error {
	a.stopAfter()
	return a.shutdown()
}

// shutdown stops the agent, once, and returns the error of releasing its
// state directory.
func (a *Agent) shutdown() error {
	a.closeOnce.Do(func() {
		a.stop()
		a.wg.Wait()
		a.exec.Close()
		a.closeErr = a.lock.Close()
	})
	return a.closeErr
}

// recover reads the runs held and asks the executor about them.
func (a *Agent) recover() error {
	ents, err := os.ReadDir(a.runsDir)
	if err != nil {
		return fmt.Errorf("runs: %w", err)
	}
	var ids []int64
	for _, e := range ents {
		if strings.Contains(e.Name(), ".tmp") {
			os.Remove(filepath.Join(a.runsDir, e.Name())) // a record never completed
			continue
		}
		name, ok := strings.CutSuffix(e.Name(), ".json")
		id, err := strconv.ParseInt(name, 10, 64)
		if !ok || err != nil || id <= 0 {
			continue
		}
		data, err := os.ReadFile(filepath.Join(a.runsDir, e.Name()))
		r := &run{recorded: true}
		if err != nil || json.Unmarshal(data, &r.record) != nil {
			a.cfg.Logf("run of job %d: unreadable record: dropped", id)
			continue
		}
		a.runs[id] = r
		if r.End == nil {
			ids = append(ids, id)
		}
	}
	for _, res := range a.exec.Recover(ids) {
		r := a.runs[res.JobID]
		switch {
		case r == nil:
		case res.PostReport:
			r.PostEnd = endOf(res, r.Start, a.cfg.Clock.Now())
		case !r.Post:
			r.End = endOf(res, r.Start, a.cfg.Clock.Now())
		}
	}
	return nil
}

// endOf is the agent's report of a Result, which the agent learns of at
// now.
func endOf(r localexec.Result, start float64, now time.Time) *api.AgentEnd {
	if r.PostReport {
		return &api.AgentEnd{AgentRun: api.AgentRun{Job: r.JobID, Start: start, Post: true}, PostExec: r.PostExec, Err: r.Err}
	}
	// The job ended when its wrapper recorded, unless it recorded no
	// time (a lost job) or the job's post-execution commands ran as part
	// of it: its end is theirs, which the wrapper reports at once.
	end := r.End
	if end.IsZero() || r.PostExec != "" && !r.PostPending {
		end = now
	}
	return &api.AgentEnd{AgentRun: api.AgentRun{Job: r.JobID, Start: start}, PostPending: r.PostPending, ExitCode: r.ExitCode, Signal: r.Signal,
		Lost: r.Lost, NotStarted: r.NotStarted, Err: r.Err, CPU: r.CPUTime.Seconds(), MaxRSS: r.MaxRSS,
		MemLimitExceeded: r.MemLimitExceeded, LimitTerm: r.LimitTerm, Cwd: r.Cwd, CwdNotExist: r.CwdNotExist,
		PreExecFailed: r.PreExecFailed, PreExecCode: r.PreExecCode, PostExec: r.PostExec, CPULimitExceeded: r.CPULimitExceeded,
		End: unixSeconds(end)}
}

// unixSeconds is t in Unix seconds, as ends carry it.
func unixSeconds(t time.Time) float64 { return float64(t.UnixNano()) / 1e9 }

// now is the agent's time in Unix seconds, for the ends it tells itself.
func (a *Agent) now() float64 { return unixSeconds(a.cfg.Clock.Now()) }

// exited takes a job's end from the executor and cuts the exchange's wait
// short.
func (a *Agent) exited(res localexec.Result) {
	if res.MailErr != "" {
		a.cfg.Logf("job %d: %s", res.JobID, res.MailErr)
	}
	a.mu.Lock()
	r := a.runs[res.JobID]
	if r == nil {
		// A run the master told us to forget: its files go now.
		a.mu.Unlock()
		a.exec.Cleanup(res.JobID)
		return
	}
	switch {
	case res.PostReport && r.PostEnd == nil && (r.Post || r.End != nil && r.End.PostPending):
		// The end of the post-execution commands of a job whose end
		// came before it.
		r.PostEnd = endOf(res, r.Start, a.cfg.Clock.Now())
	case res.PostReport || r.End != nil || r.Post:
		// The end of an earlier run, which a run refused since replaced.
		a.mu.Unlock()
		return
	default:
		r.End = endOf(res, r.Start, a.cfg.Clock.Now())
	}
	cancel := a.cancel
	a.mu.Unlock()
	a.kick()
	if cancel != nil {
		cancel()
	}
}

// kick signals progress: a run recorded, or ended.
func (a *Agent) kick() {
	select {
	case a.progress <- struct{}{}:
	default:
	}
}

// loadLoop sends the host's load every interval.
func (a *Agent) loadLoop() {
	defer a.wg.Done()
	facts := a.sampler.Facts()
	var gpus []api.GPUDevice
	for _, g := range a.sampler.GPUs() {
		gpus = append(gpus, api.GPUDevice{Index: g.Index, Model: g.Model, Mem: g.Mem})
	}
	t := a.cfg.Clock.NewTicker(a.cfg.Interval)
	defer t.Stop()
	failing := false
	for {
		load, _ := a.sampler.Sample()
		req := &api.AgentLoad{Host: a.cfg.Host, Interval: a.cfg.Interval.Seconds(), Type: facts.Type, Model: facts.Model,
			Ncpus: facts.Ncpus, Nprocs: facts.Nprocs, Ncores: facts.Ncores, Nthreads: facts.Nthreads, Maxmem: facts.Maxmem, Maxswp: facts.Maxswp, Maxtmp: facts.Maxtmp, Load: load,
			GPUs: withMemUsed(gpus, a.sampler.GPUMemUsed)}
		ctx, cancel := context.WithTimeout(a.ctx, a.cfg.Interval*3)
		err := a.cfg.Master.AgentLoad(ctx, req)
		cancel()
		switch {
		case err != nil && !failing && a.ctx.Err() == nil:
			a.cfg.Logf("load report: %v", err)
			failing = true
		case err == nil && failing:
			a.cfg.Logf("load report: the master answers again")
			failing = false
		}
		select {
		case <-a.ctx.Done():
			return
		case <-t.C():
		}
	}
}

// syncLoop keeps the exchange with the master going. It hands the jobs
// to run to the launchers and goes on at once, so that the master hears
// from the agent while jobs start.
func (a *Agent) syncLoop() {
	defer a.wg.Done()
	var session string
	// taken is the last order of the session taken in hand.
	var taken uint64
	failing := false
	wait := a.cfg.Clock.NewTimer(a.cfg.Interval)
	wait.Stop()
	defer wait.Stop()
	for a.ctx.Err() == nil {
		req := a.request(session)
		ctx, cancel := context.WithCancel(a.ctx)
		if req.Wait > 0 {
			a.mu.Lock()
			a.cancel = cancel
			a.mu.Unlock()
			// An end that came while the request was built cuts it short.
			if a.pendingEnds() > len(req.Ends) {
				cancel()
			}
		}
		out, err := a.cfg.Master.AgentSync(ctx, req)
		a.mu.Lock()
		a.cancel = nil
		a.mu.Unlock()
		cut := ctx.Err() != nil && a.ctx.Err() == nil
		cancel()
		if err != nil {
			if cut {
				continue // an end to report: the orders not acknowledged come again
			}
			var refused *api.APIError
			if errors.As(err, &refused) && refused.Status == api.StatusBadRequest && endTimes(req.Ends) {
				// A master before end times refuses them: the ends go
				// again at once, without.
				a.cfg.Logf("exchange with the master: it does not take the end times of jobs (%s): ends go without them", refused.Message)
				a.mu.Lock()
				a.plainEnds = true
				a.mu.Unlock()
				continue
			}
			if !failing && a.ctx.Err() == nil {
				a.cfg.Logf("exchange with the master: %v", err)
				failing = true
			}
			select {
			case <-a.ctx.Done():
			case <-a.cfg.Clock.After(min(a.cfg.Interval, time.Second)):
			}
			continue
		}
		if failing {
			a.cfg.Logf("exchange with the master: it answers again")
			failing = false
		}
		a.mu.Lock()
		a.holds, a.plainEnds = out.Hold, !out.EndTimes
		a.mu.Unlock()
		if out.Session != session {
			session, taken = out.Session, 0
			a.mu.Lock()
			a.pending, a.ack = nil, 0
			a.mu.Unlock()
		}
		a.forget(out.Done, false)
		a.forget(out.Kill, true)
		a.forgetHostEnds(out.HostDone)
		a.forgetNotified(out.NotifiedDone)
		fresh := false
		for _, o := range out.Orders {
			if o.Seq <= taken {
				continue
			}
			a.take(o)
			taken, fresh = o.Seq, true
		}
		if !fresh && a.unsettled() {
			// The master sent again orders still being recorded: ask
			// again once one is, or after an interval at the latest.
			wait.Reset(a.cfg.Interval)
			select {
			case <-a.ctx.Done():
			case <-a.progress:
			case <-wait.C():
			}
			// A tick nobody took is dropped: a testing clock's timer
			// keeps it, and would block on the next.
			if !wait.Stop() {
				select {
				case <-wait.C():
				default:
				}
			}
		}
	}
}

// request builds the next exchange: the runs recorded, the ends, and the
// orders acknowledged. It waits for orders only when it has no end to
// report.
func (a *Agent) request(session string) *api.AgentSync {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.settle()
	req := &api.AgentSync{Host: a.cfg.Host, Interval: a.cfg.Interval.Seconds(), Session: session, Ack: a.ack}
	ids := make([]int64, 0, len(a.runs))
	for id := range a.runs {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	var postEnds []api.AgentEnd
	// news is set while the agent expects to have more to tell soon:
	// orders being recorded, runs whose directory is not yet known.
	news := len(a.pending) > 0
	for _, id := range ids {
		r := a.runs[id]
		if r.PostEnd != nil && (r.Post || r.End != nil) {
			// After the jobs' ends, which the master takes first.
			postEnds = append(postEnds, *r.PostEnd)
		}
		if r.Post || !r.recorded && r.End == nil {
			// Not yet held (the master still counts it as sent), or
			// ended: the master waits for its post-execution commands
			// only.
			news = news || !r.Post && !r.recorded
			continue
		}
		req.Known = append(req.Known, api.AgentRun{Job: id, Start: r.Start})
		if r.End != nil {
			e := *r.End
			if a.plainEnds {
				e.End = 0
			}
			req.Ends = append(req.Ends, e)
		} else if dir := a.exec.Cwd(id); dir != "" {
			if req.Dirs == nil {
				req.Dirs = map[int64]string{}
			}
			req.Dirs[id] = dir
		} else {
			news = true
		}
	}
	req.Ends = append(req.Ends, postEnds...)
	req.Peeks, a.peeks = a.peeks, nil
	req.Notified = slices.Clone(a.notified)
	req.HostExecs = slices.Clone(a.hostEnds)
	if len(req.Ends) == 0 && len(req.Peeks) == 0 && len(req.Notified) == 0 && len(req.HostExecs) == 0 {
		req.Wait = a.cfg.Interval.Seconds()
		if a.holds && !news {
			req.Wait = max(a.cfg.Interval, api.AgentHoldWait).Seconds()
		}
	}
	return req
}

// endTimes reports whether ends carry an end time.
func endTimes(ends []api.AgentEnd) bool {
	return slices.ContainsFunc(ends, func(e api.AgentEnd) bool { return e.End != 0 })
}

// pendingEnds counts the ends not yet acknowledged.
func (a *Agent) pendingEnds() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	n := len(a.hostEnds) + len(a.notified)
	for _, r := range a.runs {
		if r.End != nil {
			n++
		}
		if r.PostEnd != nil && (r.Post || r.End != nil) {
			n++
		}
	}
	return n
}

// forget drops runs the master acknowledged, killing them first when
// they are to be killed.
func (a *Agent) forget(list []api.AgentRun, kill bool) {
	for _, k := range list {
		a.mu.Lock()
		r := a.runs[k.Job]
		if r == nil || r.Start != k.Start {
			a.mu.Unlock()
			continue
		}
		if !kill && !k.Post && r.End != nil && r.End.PostPending {
			// The job's end is recorded; its post-execution commands'
			// is to come (or here already, and goes next).
			r.End, r.Post = nil, true
			rec := r.record
			a.mu.Unlock()
			if err := a.save(k.Job, rec); err != nil {
				a.cfg.Logf("job %d: %v", k.Job, err)
			}
			continue
		}
		if !kill && !k.Post && r.Post {
			a.mu.Unlock()
			continue // the job's end again: done already
		}
		delete(a.runs, k.Job)
		ended, starting := r.End != nil || r.Post, r.starting
		if kill && starting {
			// Its launcher kills it once it runs, or does not start it.
			r.signals = append(r.signals, "KILL")
		}
		a.mu.Unlock()
		if err := os.Remove(a.runPath(k.Job)); err != nil && !errors.Is(err, os.ErrNotExist) {
			a.cfg.Logf("job %d: %v", k.Job, err)
		}
		switch {
		case ended:
			a.exec.Cleanup(k.Job)
		case kill:
			a.cfg.Logf("job %d: the master no longer counts on this run: killing it", k.Job)
			if !starting {
				go a.exec.Kill(k.Job) // its end, when it comes, cleans up
			}
		}
	}
}

// signal sends a signal order to a running job.
func (a *Agent) signal(id int64, sig string) {
	var err error
	switch sig {
	case "KILL":
		go a.exec.Kill(id)
	case "STOP":
		err = a.exec.Signal(id, syscall.SIGSTOP)
	case "CONT":
		err = a.exec.Signal(id, syscall.SIGCONT)
	case "USR2":
		err = a.exec.Signal(id, syscall.SIGUSR2)
	}
	if err != nil {
		a.cfg.Logf("job %d: %v", id, err)
	}
}

func (a *Agent) runPath(id int64) string {
	return filepath.Join(a.runsDir, strconv.FormatInt(id, 10)+".json")
}

// save writes a run's record durably: a temporary file, synced, renamed,
// and the directory synced.
func (a *Agent) save(id int64, rec record) error {
	data, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(a.runsDir, strconv.FormatInt(id, 10)+".json.tmp*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	err = errors.Join(err, f.Close())
	if err == nil {
		err = os.Rename(f.Name(), a.runPath(id))
	}
	if err != nil {
		os.Remove(f.Name())
		return err
	}
	dir, err := os.Open(a.runsDir)
	if err != nil {
		return err
	}
	return errors.Join(dir.Sync(), dir.Close())
}

// withMemUsed returns the host's GPUs with the memory in use on each, as
// used measures it now (by GPU index; nil when it cannot).
func withMemUsed(gpus []api.GPUDevice, used func() map[int]float64) []api.GPUDevice {
	if len(gpus) == 0 {
		return gpus
	}
	m := used()
	if m == nil {
		return gpus
	}
	out := slices.Clone(gpus)
	for i := range out {
		if v, ok := m[out[i].Index]; ok {
			out[i].MemUsed = &v
		}
	}
	return out
}

// hostExec runs the host-based commands of a HostExec order for this
// agent's hosts of a job, and keeps how they ended for the master.
func (a *Agent) hostExec(o api.AgentOrder) {
	h := o.HostExec
	code := localexec.RunHostSteps(execSteps(h.Steps), h.Hosts, h.Env, !h.Post)
	run := o.AgentRun
	run.Post = h.Post
	a.mu.Lock()
	a.hostEnds = append(a.hostEnds, api.HostExecEnd{AgentRun: run, Code: code})
	cancel := a.cancel
	a.mu.Unlock()
	a.kick()
	if cancel != nil {
		cancel()
	}
}

// forgetHostEnds drops the ends of host-based commands the master took.
func (a *Agent) forgetHostEnds(done []api.AgentRun) {
	if len(done) == 0 {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.hostEnds = slices.DeleteFunc(a.hostEnds, func(e api.HostExecEnd) bool { return slices.Contains(done, e.AgentRun) })
}

// forgetNotified drops the ends of notification commands the master took.
func (a *Agent) forgetNotified(done []api.NoticeRef) {
	if len(done) == 0 {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	a.notified = slices.DeleteFunc(a.notified, func(e api.AgentNotified) bool { return slices.Contains(done, e.NoticeRef) })
}
