package sim

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/lsfc/lsfc/runtime"
	"github.com/lsfc/lsfc/runtime/api"
)

// A Job is one job of a simulated workload: what bsub gives, and when.
type Job struct {
	runtime.Submission
	// At is the submission time.
	At runtime.Time
}

// An Outcome is what became of one simulated job.
type Outcome struct {
	Job *runtime.Job
	// Rejected is why no queue accepted the job, or nil.
	Rejected error
	// SimJob is the job of the workload.
	SimJob Job
	// Index is, for an element of a job array, its index; the outcome of
	// an array's workload job is its first element's, and the outcomes
	// of the other elements follow those of the workload's jobs, in
	// submission order.
	Index int
}

// TraceID returns the outcome's number in the trace: its workload job's,
// and for an element of an array the element's ID (api.ElementID).
func (o Outcome) TraceID() int {
	if o.Index > 0 {
		return int(api.ElementID(int64(o.SimJob.TraceID), o.Index))
	}
	return o.SimJob.TraceID
}

// A Command is an operator's command at a time of a simulation: btop,
// bbot, bstop (hold a pending job) or bresume (release it).
type Command struct {
	At   runtime.Time
	Kind string
	// Job is the index of the job in the workload.
	Job int
	// Arg is the command's argument: the status text of bstatus, or the
	// load indices of load ("r1m=2.5,it=0").
	Arg string
	// Host names the host of a load command, which sets some of the
	// host's load indices (as its execution agent would report them).
	Host string
}

// Options configure Simulate.
type Options struct {
	// Commands are applied at their times, before that moment's cycle.
	Commands []Command
	// Progress, when not nil, is called now and then with the jobs
	// finished so far and their total.
	Progress func(done, total int)
	// Plugins replace LSF's default rules when not nil.
	Plugins *runtime.Plugins
	// AfterCycle, when not nil, is called after each cycle's plan was
	// applied, with the cluster as it stands (for checks and traces; it
	// must not change the cluster).
	AfterCycle func(c *runtime.Cluster, p *runtime.Plan)
	// MaxRequeues bounds the requeues of one job on its exit values when
	// MAX_JOB_REQUEUE does not (DefaultMaxRequeues when 0): a simulated
	// job exits the same way on every run, and would be requeued for
	// ever.
	MaxRequeues int
}

// DefaultMaxRequeues is the most times Simulate requeues one job on its
// exit values when no MAX_JOB_REQUEUE bounds it.
const DefaultMaxRequeues = 100

// A Result is the outcome of a simulation.
type Result struct {
	Jobs []Outcome
	// Cycles counts the scheduling cycles; Placements the jobs
	// dispatched; Preemptions the jobs preempted.
	Cycles, Placements, Preemptions int
	// HostsClosed counts the hosts closed for their job exit rate (a host
	// opened again and closed anew counts again).
	HostsClosed int
	// Pools follow the slots each queue of each slot pool held over time.
	Pools []PoolSeries
	// End is the time of the last event.
	End runtime.Time
	// Unrunnable are the queues whose jobs still pended at the end, in
	// lsb.queues order, each with why the cluster could not run them.
	Unrunnable []runtime.Unrunnable
	// Resizes are what happened to resizable jobs, in order: slots
	// granted to their requests, grants a preemption took back, ends of
	// notification commands, and the signals their processes were sent.
	Resizes []ResizeEvent
	// Requeues counts the times jobs went back to pending on their exit
	// values; Held the times jobs were held (PSUSP) on one, their
	// MAX_JOB_REQUEUE reached; Unbounded are the jobs that ended when
	// they reached Options.MaxRequeues, which no MAX_JOB_REQUEUE bounded.
	Requeues  int
	Held      int
	Unbounded []*runtime.Job
	// EarlierRuns are, for each job requeued or held on its exit values,
	// its runs that ended so, in order: all of its runs but the last for a
	// job that ended, all of them for one still pending or held.
	EarlierRuns map[*runtime.Job][]RunSpan
}

// A RunSpan is one run of a job, from its start to its end.
type RunSpan struct{ Start, End runtime.Time }

// A ResizeEvent is one thing that happened to a resizable job: "grow"
// (Allocs were added), "revoked" (a preemption took back a grant),
// "notified" (its notification command ended), or a signal its
// processes were sent ("suspend", "resume", "kill").
type ResizeEvent struct {
	At     runtime.Time
	Job    *runtime.Job
	Kind   string
	Allocs []runtime.Alloc
}

// signalLog is the sim executor: a simulated job is only an account, so
// starting it does nothing, and the signals the engine sends resizable
// jobs are logged (seed rules say when they are sent).
type signalLog struct{ res *Result }

func (signalLog) Start(*runtime.Engine, *runtime.Job) error { return nil }

func (l signalLog) Control(e *runtime.Engine, j *runtime.Job, a runtime.Action) error {
	if j.Resizable() {
		kind := map[runtime.Action]string{runtime.ActSuspend: "suspend", runtime.ActResume: "resume", runtime.ActKill: "kill"}[a]
		l.res.Resizes = append(l.res.Resizes, ResizeEvent{At: e.Clock.Now(), Job: j, Kind: kind})
	}
	return nil
}

// Simulate replays a workload on a cluster with the sim executor on a
// virtual clock: each job is submitted at its time, runs for its Runtime
// (or until its run limit, then ends in EXIT), and a scheduling cycle
// runs at every moment something happens — a submission, a job's end,
// the end of an accept interval, a window opening — rather than on a
// wall-clock period. Jobs are taken in the order given; ties at one time
// keep that order.
func Simulate(c *runtime.Cluster, jobs []Job, opts Options) (*Result, error) {
	clock := &runtime.VirtualClock{}
	res := &Result{Jobs: make([]Outcome, len(jobs))}
	e := runtime.NewEngine(c, clock, signalLog{res})
	if opts.Plugins != nil {
		e.Scheduler = runtime.NewScheduler(*opts.Plugins)
	}
	ev := &Queue{}
	maxRequeues := opts.MaxRequeues
	if maxRequeues <= 0 {
		maxRequeues = DefaultMaxRequeues
	}
	for i := range jobs {
		if math.IsNaN(float64(jobs[i].At)) || math.IsInf(float64(jobs[i].At), 0) {
			return nil, errors.New("a job's submission time is not a number")
		}
		res.Jobs[i].SimJob = jobs[i]
		ev.Push(Event{At: jobs[i].At, Kind: Submit, Index: i})
	}
	for i, cmd := range opts.Commands {
		if cmd.Kind == "load" {
			if c.Host(cmd.Host) == nil {
				return nil, fmt.Errorf("command %d (load) names host %q, which the cluster does not have", i+1, cmd.Host)
			}
			if _, err := parseLoad(cmd.Arg); err != nil {
				return nil, fmt.Errorf("command %d (load): %w", i+1, err)
			}
		} else if cmd.Job < 0 || cmd.Job >= len(jobs) {
			return nil, fmt.Errorf("command %d (%s) names job %d of %d", i+1, cmd.Kind, cmd.Job+1, len(jobs))
		}
		ev.Push(Event{At: cmd.At, Kind: Apply, Index: i})
	}
	done := 0
	wake := runtime.Never
	// progress is the last time something happened; waking up on time
	// alone (windows, intervals) for longer than a week without progress
	// means the jobs left can never run, and the simulation ends.
	var progress runtime.Time
	for ev.Len() > 0 || (wake < runtime.Never && wake-progress <= 8*24*3600) {
		t := min(wake, ev.Next())
		clock.T = t
		for ev.Len() > 0 && ev.Next() <= t {
			x := ev.Pop()
			if !x.Retry {
				progress = t
			}
			switch x.Kind {
			case Submit:
				sj := &res.Jobs[x.Index]
				if err := pendThresholds(c, sj.SimJob.Submission); err != nil {
					// As bsub does without LSB_NTRIES, the submission is
					// sent again every SUB_TRY_INTERVAL; after a week in
					// which nothing happened, it never will be taken.
					if t-progress > 7*24*3600 {
						sj.Rejected = err
						done++
						continue
					}
					ev.Push(Event{At: t.Add(subTryInterval(c)), Kind: Submit, Index: x.Index, Retry: true})
					continue
				}
				if sub := sj.SimJob.Submission; sub.Array != "" {
					a, err := submitArray(c, sub, t)
					if err != nil {
						sj.Rejected = err
						done++
						continue
					}
					sj.Job, sj.Index = a.Elements[0], a.Elements[0].Index()
					for _, e := range a.Elements[1:] {
						res.Jobs = append(res.Jobs, Outcome{Job: e, SimJob: sj.SimJob, Index: e.Index()})
					}
					continue
				}
				j, err := c.Submit(sj.SimJob.Submission, t)
				if err != nil {
					sj.Rejected = err
					done++
					continue
				}
				sj.Job = j
			case Apply:
				cmd := opts.Commands[x.Index]
				if cmd.Kind == "load" {
					h := c.Host(cmd.Host)
					load, _ := parseLoad(cmd.Arg)
					merged := maps.Clone(h.Facts.Load)
					if merged == nil {
						merged = map[string]float64{}
					}
					maps.Copy(merged, load)
					c.SetLoad(h, merged)
					continue
				}
				if j := res.Jobs[cmd.Job].Job; j != nil {
					if err := command(c, cmd.Kind, j, cmd.Arg, t); err != nil {
						return nil, fmt.Errorf("at %v: %s: %w", float64(cmd.At), cmd.Kind, err)
					}
					if cmd.Kind == "resume" {
						ev.Foresee(j, t, 0)
					}
				}
			case Notified:
				res.Resizes = append(res.Resizes, ResizeEvent{At: t, Job: x.Job, Kind: "notified"})
				e.NotifyDone(x.Job, 0)
			case End:
				if x.Epoch != x.Job.Epoch || !x.Job.State.Started() {
					continue // foreseen before a suspension: stale
				}
				start := x.Job.Start
				switch EndRun(e, x.Job, x.AtRunLimit, t, maxRequeues) {
				case Requeued:
					res.Requeues++
					if res.EarlierRuns == nil {
						res.EarlierRuns = map[*runtime.Job][]RunSpan{}
					}
					res.EarlierRuns[x.Job] = append(res.EarlierRuns[x.Job], RunSpan{start, t})
					continue
				case Held:
					res.Held++
					if res.EarlierRuns == nil {
						res.EarlierRuns = map[*runtime.Job][]RunSpan{}
					}
					res.EarlierRuns[x.Job] = append(res.EarlierRuns[x.Job], RunSpan{start, t})
				case Unbounded:
					res.Unbounded = append(res.Unbounded, x.Job)
				}
				done++
			}
		}
		_, resumed, windowChange := e.ApplyRunWindows()
		// foresee pushes the end of a job that runs from now.
		foresee := func(j *runtime.Job) { ev.Foresee(j, t, 0) }
		for _, j := range resumed {
			foresee(j)
		}
		p := e.Schedule()
		res.Cycles++
		for _, d := range p.Dispatches {
			res.Placements++
			foresee(d.Job)
			progress = t
		}
		for _, pr := range p.Preemptions {
			if pr.Revoke {
				res.Resizes = append(res.Resizes, ResizeEvent{At: t, Job: pr.Victim, Kind: "revoked"})
			}
		}
		for _, g := range p.Grows {
			progress = t
			res.Resizes = append(res.Resizes, ResizeEvent{At: t, Job: g.Job, Kind: "grow", Allocs: g.Allocs})
			if g.Job.Notifying() {
				ev.Push(Event{At: t.Add(max(0, g.Job.Sub.NotifyTime)), Kind: Notified, Job: g.Job})
			}
		}
		for _, x := range p.Exceptions {
			if x.Host != nil {
				res.HostsClosed++
			}
		}
		for _, pr := range p.Preemptions {
			res.Preemptions++
			if pr.Kill {
				done++
			}
		}
		done += len(p.RsvKills)
		for _, j := range slices.Concat(p.Resumes, p.LoadResumes) {
			foresee(j)
		}
		if len(p.Suspends)+len(p.Resumes)+len(p.LoadResumes) > 0 {
			progress = t
		}
		res.recordPools(c, t)
		if opts.AfterCycle != nil {
			opts.AfterCycle(c, p)
		}
		wake = min(p.Wake, windowChange)
		res.End = t
		if opts.Progress != nil && res.Cycles%4096 == 0 {
			opts.Progress(done, len(jobs))
		}
	}
	if opts.Progress != nil {
		opts.Progress(done, len(jobs))
	}
	// The jobs that never ran keep the reason of the last cycle.
	for _, o := range res.Jobs {
		if o.Job != nil && o.Job.State.Pending() {
			o.Job.Reason = e.Reason(o.Job)
		}
	}
	pending := make([]*runtime.Job, len(res.Jobs))
	for i, o := range res.Jobs {
		pending[i] = o.Job
	}
	res.Unrunnable = e.Unrunnable(pending)
	return res, nil
}

// pendThresholds checks a workload's submission against the pending job
// thresholds (MAX_PEND_JOBS, MAX_PEND_SLOTS): each element of an array
// counts as a job. An array whose index list is bad is left to
// submitArray to refuse.
func pendThresholds(c *runtime.Cluster, s runtime.Submission) error {
	jobs := 1
	if s.Array != "" {
		spec, err := c.CheckArraySpec(s.Name + "[" + s.Array + "]")
		if err != nil {
			return nil
		}
		jobs = len(spec.Indices())
	}
	return c.CheckPendThresholds(s.User, jobs, jobs*max(s.Slots, 1))
}

// subTryInterval returns SUB_TRY_INTERVAL in seconds, a second at least.
func subTryInterval(c *runtime.Cluster) float64 {
	if c.Policy == nil {
		return 60
	}
	return max(c.Policy.Parameters.SubTryInterval.Seconds(), 1)
}

// submitArray submits a workload's job array: its Name and Array (the
// index list) read as bsub -J reads them, with its ArrayLimit, against
// the cluster's MAX_JOB_ARRAY_SIZE.
func submitArray(c *runtime.Cluster, s runtime.Submission, at runtime.Time) (*runtime.Array, error) {
	text := s.Name + "[" + s.Array + "]"
	if s.ArrayLimit > 0 {
		text += "%" + strconv.Itoa(s.ArrayLimit)
	}
	spec, err := c.CheckArraySpec(text)
	if err != nil {
		return nil, err
	}
	return c.SubmitArray(s, spec, at)
}

// Remaining returns how much longer a simulated job that runs from now
// runs (its Runtime less what it ran before a suspension), and whether it
// is then killed at its run limit rather than at its natural end.
func Remaining(j *runtime.Job) (seconds float64, atRunLimit bool) {
	run := j.Runtime
	if j.RunLimit > 0 && run > j.RunLimit {
		run, atRunLimit = j.RunLimit, true
	}
	return max(0, run-j.Ran), atRunLimit
}

// An Ending is how EndRun ended a job's run.
type Ending int

const (
	Ended     Ending = iota // it finished, DONE or EXIT
	Requeued                // it pends again on its exit value
	Held                    // it is held (PSUSP) on its exit value, its MAX_JOB_REQUEUE reached
	Unbounded               // it finished, having reached Options.MaxRequeues
)

// EndRun ends a simulated job's run on e when Remaining said, as the
// daemon ends a job whose processes ended: at its run limit it is killed
// (Finish); otherwise its exit code (SimExit) goes through the cluster's
// decision (runtime.Cluster.DecideExit): on one of its requeue exit
// values it pends again with its ID and submit time (away from the host
// for an EXCLUDE value) and runs its Runtime anew, or, its
// MAX_JOB_REQUEUE reached, it is held (PSUSP) until a bresume; when no
// MAX_JOB_REQUEUE bounds it, it ends after maxRequeues requeues; on one of
// its SUCCESS_EXIT_VALUES it ends DONE; else as Finish ends it.
func EndRun(e *runtime.Engine, j *runtime.Job, atRunLimit bool, now runtime.Time, maxRequeues int) Ending {
	c := e.Cluster
	if atRunLimit || j.SimExit == 0 {
		Finish(e, j, atRunLimit)
		return Ended
	}
	dec := c.DecideExit(j, j.SimExit)
	switch {
	case dec.Requeue && c.MaxJobRequeue(j) < 0 && j.ExitRequeues >= maxRequeues:
		Finish(e, j, false)
		return Unbounded
	case dec.Requeue:
		if err := c.RequeueOnExit(j, dec.Avoid, dec.Hold, now); err == nil {
			if dec.Hold {
				return Held
			}
			return Requeued
		}
	case dec.Success:
		e.Finish(j, runtime.Done, j.SimExit)
		return Ended
	}
	Finish(e, j, false)
	return Ended
}

// Finish ends a simulated job on e when Remaining said: at its run limit
// it is killed (EXIT 140, TERM_RUNLIMIT); otherwise it ends with its
// SimExit, DONE for 0 and EXIT for any other.
func Finish(e *runtime.Engine, j *runtime.Job, atRunLimit bool) {
	state, code := runtime.Done, j.SimExit
	switch {
	case atRunLimit:
		state, code = runtime.Exit, 140
		j.Term = "TERM_RUNLIMIT"
	case code != 0:
		state = runtime.Exit
	}
	e.Finish(j, state, code)
}

// command applies an operator's command to a job at now; arg is the
// status text of bstatus.
func command(c *runtime.Cluster, kind string, j *runtime.Job, arg string, now runtime.Time) error {
	switch kind {
	case "btop":
		return c.Top(j)
	case "bbot":
		return c.Bottom(j)
	case "bstop":
		return c.Hold(j)
	case "bresume":
		return c.Release(j)
	case "bkill":
		return c.Kill(j, now)
	case "bstatus":
		c.SetExternalStatus(j, arg)
		return nil
	case "stop":
		return c.Suspend(j, runtime.ReasonNone, now)
	case "resume":
		return c.Resume(j, now)
	case "bresize":
		return bresize(c, j, arg, now)
	case "aps":
		// bmod -aps "system=v" or "admin=v"; an empty argument is -apsn.
		kind, value, err := runtime.ParseAPS(arg)
		if err != nil {
			return err
		}
		return c.SetAPS(j, kind, value)
	}
	return fmt.Errorf("unknown command %q (want btop, bbot, bstop, bresume, bkill, bstatus, stop, resume, bresize or aps)", kind)
}

// parseLoad reads load indices written "name=value,name=value".
func parseLoad(s string) (map[string]float64, error) {
	out := map[string]float64{}
	for _, kv := range strings.Split(s, ",") {
		name, value, ok := strings.Cut(strings.TrimSpace(kv), "=")
		x, err := strconv.ParseFloat(value, 64)
		if !ok || name == "" || err != nil || math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, fmt.Errorf("load %q: want name=value[,name=value...]", s)
		}
		out[name] = x
	}
	return out, nil
}

// A PoolSeries follows one slot pool through a simulation: at each
// sample time, the slots each of its queues held and whether it had work.
type PoolSeries struct {
	Name string
	// Size is the pool's slots; Queues its queues in lsb.queues order,
	// with their SLOT_SHARE in Shares.
	Size    int
	Queues  []string
	Shares  []int
	Samples []PoolSample
}

// A PoolSample is a pool's state from time T until the next sample.
type PoolSample struct {
	T runtime.Time
	// Slots and Pending are, per queue, the slots its started jobs hold
	// and the slots its pending jobs ask for.
	Slots, Pending []int
}

// recordPools samples every slot pool, when something in it changed.
func (r *Result) recordPools(c *runtime.Cluster, t runtime.Time) {
	if r.Pools == nil {
		for _, p := range c.SlotPools() {
			ps := PoolSeries{Name: p.Name, Size: p.Size, Shares: p.Shares}
			for _, q := range p.Queues {
				ps.Queues = append(ps.Queues, q.Name)
			}
			r.Pools = append(r.Pools, ps)
		}
	}
	for i := range r.Pools {
		ps := &r.Pools[i]
		s := PoolSample{T: t, Slots: make([]int, len(ps.Queues)), Pending: make([]int, len(ps.Queues))}
		for k, name := range ps.Queues {
			q := c.Queue(name)
			s.Slots[k], s.Pending[k] = q.Used, q.PendingSlots()
		}
		if n := len(ps.Samples); n > 0 && slices.Equal(ps.Samples[n-1].Slots, s.Slots) && slices.Equal(ps.Samples[n-1].Pending, s.Pending) {
			continue
		}
		if n := len(ps.Samples); n > 0 && ps.Samples[n-1].T == t {
			ps.Samples[n-1] = s
			continue
		}
		ps.Samples = append(ps.Samples, s)
	}
}

// bresize applies bresize to a running job: "release=all",
// "release=HOST[:N][,HOST[:N]...]" (N slots, all of the host's without),
// "request=[MIN,]MAX" or "cancel". A simulated job's release runs no
// notification command.
func bresize(c *runtime.Cluster, j *runtime.Job, arg string, now runtime.Time) error {
	op, value, _ := strings.Cut(arg, "=")
	switch op {
	case "release":
		var spec []runtime.HostSlotSpec
		all := value == "all"
		if !all {
			for _, part := range strings.Split(value, ",") {
				host, n, hasN := strings.Cut(part, ":")
				s := runtime.HostSlotSpec{Host: host}
				if hasN {
					x, err := strconv.Atoi(n)
					if err != nil || x <= 0 {
						return fmt.Errorf("bresize %q: bad slot count %q", arg, n)
					}
					s.Slots = x
				}
				spec = append(spec, s)
			}
		}
		less, err := c.CheckRelease(j, all, spec, true)
		if err != nil {
			return err
		}
		return c.ReleaseSlots(j, less, true, false, now)
	case "request":
		lo, hi, hasMin := strings.Cut(value, ",")
		if !hasMin {
			lo, hi = "1", value
		}
		minN, err1 := strconv.Atoi(lo)
		maxN, err2 := strconv.Atoi(hi)
		if err1 != nil || err2 != nil {
			return fmt.Errorf("bresize %q: want request=[MIN,]MAX", arg)
		}
		return c.RequestSlots(j, runtime.ResizeRequest{Min: minN, Max: maxN}, true)
	case "cancel":
		return c.CancelResize(j)
	}
	return fmt.Errorf("bresize %q: want release=..., request=... or cancel", arg)
}
