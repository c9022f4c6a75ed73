package sbatchd

import (
	"slices"
	"time"

	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/localexec"
)

// defaultLaunchers is how many jobs an agent starts at once by default.
const defaultLaunchers = 8

// A pendingOrder is an order taken in hand and not yet acknowledged: a
// signal (run nil) is acknowledged at once; a job to run once its run is
// recorded, has ended, or is no longer the job's run on this host.
type pendingOrder struct {
	seq uint64
	job int64
	run *run
}

// A launch is a run waiting for a launcher: to be recorded, then started.
type launch struct {
	job  int64
	run  *run
	spec localexec.Spec
	// cleanup is set when the run replaces an ended run of the job, whose
	// files go first.
	cleanup bool
}

// take takes an order in hand, in the order of their numbers. A job to
// run goes to the launchers, unless the agent holds that run already (an
// order received twice runs once) or an earlier run of the job still
// runs; a signal goes to its job, or waits for it to have started.
func (a *Agent) take(o api.AgentOrder) {
	if o.Peek != nil {
		a.peek(o)
		return
	}
	if o.Notify != nil {
		a.notify(o)
		return
	}
	if o.HostExec != nil {
		a.mu.Lock()
		a.pending = append(a.pending, pendingOrder{seq: o.Seq, job: o.Job})
		a.mu.Unlock()
		go a.hostExec(o)
		return
	}
	if o.Signal == "KILL" && o.Term != "" {
		a.exec.NoteTerm(o.Job, o.Term)
	}
	a.mu.Lock()
	r := a.runs[o.Job]
	if o.Spec == nil {
		a.pending = append(a.pending, pendingOrder{seq: o.Seq, job: o.Job})
		switch {
		case r == nil || r.Start != o.Start || r.End != nil:
			a.mu.Unlock()
		case r.starting:
			r.signals = append(r.signals, o.Signal)
			if o.Signal == "KILL" && o.Term != "" {
				r.killTerm = o.Term
			}
			a.mu.Unlock()
		default:
			a.mu.Unlock()
			a.signal(o.Job, o.Signal)
		}
		return
	}
	defer a.mu.Unlock()
	if r != nil && r.Start == o.Start {
		// This run is held already: it runs once.
		a.pending = append(a.pending, pendingOrder{seq: o.Seq, job: o.Job, run: r})
		return
	}
	nr := &run{record: record{Start: o.Start}}
	a.pending = append(a.pending, pendingOrder{seq: o.Seq, job: o.Job, run: nr})
	a.runs[o.Job] = nr
	if r != nil && r.End == nil {
		nr.End = &api.AgentEnd{AgentRun: o.AgentRun, ExitCode: 127, Err: "an earlier run of the job still runs on this host", End: a.now()}
		return
	}
	s := o.Spec
	nr.starting = true
	a.queue = append(a.queue, &launch{job: o.Job, run: nr, cleanup: r != nil, spec: localexec.Spec{JobID: o.Job,
		Name: s.Name, Queue: s.Queue, User: s.User, Command: s.Command, Env: s.Env, Cwd: s.Cwd, Umask: s.Umask,
		Stdout: s.Stdout, Stderr: s.Stderr, OutputID: s.OutputID, Hosts: s.Hosts, UID: s.UID, GID: s.GID,
		MemLimit: s.MemLimit, PreExec: execSteps(s.PreExec), PostExec: execSteps(s.PostExec), CPULimit: s.CPULimit, ProcLimits: s.ProcLimits, ProcHardLimits: s.ProcHardLimits, JobLimits: s.JobLimits,
		PostLater: s.PostLater, PostTimeout: s.PostTimeout, StepHosts: s.StepHosts, Input: s.Input, InputData: s.InputData, LoginShell: s.LoginShell, OutDir: s.OutDir,
		GPUs: s.GPUs, Index: s.Index, IndexEnd: s.IndexEnd, IndexStep: s.IndexStep,
		Report: specReport(s.Report), OutOverwrite: s.OutOverwrite, ErrOverwrite: s.ErrOverwrite,
		Interactive: interactiveSpec(s.Interactive), ProcessTracking: s.ProcessTracking, CgroupAcct: s.CgroupAcct}})
	if a.launchers < a.cfg.Launchers {
		a.launchers++
		a.wg.Add(1)
		go a.launcher()
	}
}

// settle moves the acknowledgement past the orders carried out, in
// order; a.mu is held.
func (a *Agent) settle() {
	n := 0
	for _, p := range a.pending {
		if r := p.run; r != nil && !r.recorded && r.End == nil && a.runs[p.job] == r {
			break
		}
		a.ack = p.seq
		n++
	}
	a.pending = a.pending[n:]
}

// unsettled reports whether orders taken in hand wait for their runs to
// be recorded.
func (a *Agent) unsettled() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.settle()
	return len(a.pending) > 0
}

// launcher starts the runs queued, first come first started, until none
// is left or the agent stops.
func (a *Agent) launcher() {
	defer a.wg.Done()
	for {
		a.mu.Lock()
		if len(a.queue) == 0 || a.ctx.Err() != nil {
			a.launchers--
			a.mu.Unlock()
			return
		}
		l := a.queue[0]
		a.queue[0] = nil
		a.queue = a.queue[1:]
		a.mu.Unlock()
		a.start(l)
	}
}

// current reports whether r is still the run of job on this host: the
// master may have told the agent to forget it, or sent a newer one.
func (a *Agent) current(job int64, r *run) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.runs[job] == r
}

// start records a run durably, then starts its job. A run forgotten
// before it started never starts; the signals ordered while it started
// are sent once it runs.
func (a *Agent) start(l *launch) {
	r := l.run
	if !a.current(l.job, r) {
		a.stopStarting(r)
		return
	}
	if l.cleanup {
		a.exec.Cleanup(l.job)
	}
	if err := a.save(l.job, record{Start: r.Start}); err != nil {
		a.mu.Lock()
		r.End = &api.AgentEnd{AgentRun: api.AgentRun{Job: l.job, Start: r.Start}, ExitCode: 127, Err: err.Error(), End: a.now()}
		r.starting, r.signals = false, nil
		a.mu.Unlock()
		a.kick()
		return
	}
	a.mu.Lock()
	r.recorded = true
	now := a.runs[l.job] == r
	a.mu.Unlock()
	a.kick()
	if !now {
		a.stopStarting(r)
		return
	}
	if err := a.exec.Start(l.spec); err != nil {
		end := &api.AgentEnd{AgentRun: api.AgentRun{Job: l.job, Start: r.Start}, ExitCode: 127, Err: err.Error(), End: a.now()}
		// The end is durable before it is reported, so that no later
		// record of the job's is overwritten by this one.
		if a.current(l.job, r) {
			if err := a.save(l.job, record{Start: r.Start, End: end}); err != nil {
				a.cfg.Logf("job %d: %v", l.job, err)
			}
		}
		a.mu.Lock()
		r.End = end
		r.starting, r.signals = false, nil
		a.mu.Unlock()
		a.kick()
		return
	}
	a.mu.Lock()
	sigs, term := r.signals, r.killTerm
	ended := r.End != nil
	r.starting, r.signals = false, nil
	a.mu.Unlock()
	if ended {
		return
	}
	if term != "" {
		a.exec.NoteTerm(l.job, term)
	}
	for _, sig := range sigs {
		a.signal(l.job, sig)
	}
}

// stopStarting marks a run that will not start.
func (a *Agent) stopStarting(r *run) {
	a.mu.Lock()
	r.starting, r.signals = false, nil
	a.mu.Unlock()
}

// execSteps is the executor's form of the master's pre- or
// post-execution steps.
func execSteps(steps []api.ExecStep) []localexec.ExecStep {
	var out []localexec.ExecStep
	for _, st := range steps {
		out = append(out, localexec.ExecStep(st))
	}
	return out
}

// interactiveSpec is the executor's form of an interactive job's
// submitter.
func interactiveSpec(in *api.Interactive) *localexec.Interactive {
	if in == nil {
		return nil
	}
	return &localexec.Interactive{Mode: in.Mode, Addrs: in.Addrs, Token: in.Token, Tty: in.Tty}
}

// specReport is the executor's form of the report the master asks for.
func specReport(r *api.JobReport) *localexec.Report {
	if r == nil {
		return nil
	}
	return &localexec.Report{Cluster: r.Cluster, SubmitHost: r.SubmitHost,
		Submitted: time.Unix(0, int64(r.Submitted*1e9)), Sender: r.Sender, ReqMemMB: r.ReqMemMB, Direct: r.Direct, SpoolDir: r.SpoolDir,
		NoFile: r.NoFile, Mail: (*localexec.Mail)(r.Mail)}
}

// peek answers a peek order: the piece of the job's output it asks for
// goes with the next exchange; the order is acknowledged at once.
func (a *Agent) peek(o api.AgentOrder) {
	p := api.AgentPeek{ID: o.Peek.ID, Job: o.Job, Next: o.Peek.Offset}
	a.mu.Lock()
	r := a.runs[o.Job]
	current := r != nil && r.Start == o.Start && r.End == nil
	a.mu.Unlock()
	path, ok := a.exec.OutputFile(o.Job)
	errPath, apart := a.exec.ErrorFile(o.Job)
	p.Apart = apart
	if o.Peek.Stderr {
		path, ok = errPath, apart
	}
	switch {
	case !current || !ok:
		// Not started yet (the order to run it may even come after this
		// one), or ended meanwhile: nothing to add.
	default:
		data, next, err := localexec.ReadOutput(path, o.Peek.Offset, api.MaxOutputChunk)
		if err != nil {
			p.Err = err.Error()
		}
		p.Data, p.Next = data, next
	}
	a.mu.Lock()
	a.pending = append(a.pending, pendingOrder{seq: o.Seq, job: o.Job})
	a.peeks = append(a.peeks, p)
	a.mu.Unlock()
}

// notify answers a resize notification order: the command runs, as the
// job's user, while the agent goes on, and its end goes with the next
// exchanges until the master acknowledges it (NotifiedDone); the order
// is acknowledged at once.
func (a *Agent) notify(o api.AgentOrder) {
	a.mu.Lock()
	a.pending = append(a.pending, pendingOrder{seq: o.Seq, job: o.Job})
	a.mu.Unlock()
	n := o.Notify
	spec := localexec.Spec{JobID: o.Job, User: n.User, UID: n.UID, GID: n.GID, Cwd: n.Cwd, Env: n.Env, Hosts: n.Hosts}
	ref := api.NoticeRef{AgentRun: o.AgentRun, Notice: n.Notice}
	go func() {
		code := localexec.RunNotify(spec, n.Command, nil)
		a.mu.Lock()
		// An order given again (a new session of the master) runs again:
		// one end of a notification is kept.
		a.notified = slices.DeleteFunc(a.notified, func(e api.AgentNotified) bool { return e.NoticeRef == ref })
		a.notified = append(a.notified, api.AgentNotified{NoticeRef: ref, Code: code})
		cancel := a.cancel
		a.mu.Unlock()
		a.kick()
		if cancel != nil {
			cancel()
		}
	}()
}
