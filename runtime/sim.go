package runtime

import (
	"container/heap"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
)

// A SimJob is one job of a simulated workload: what bsub gives, and when.
type SimJob struct {
	Submission
	// At is the submission time.
	At Time
}

// A SimOutcome is what became of one simulated job.
type SimOutcome struct {
	Job *Job
	// Rejected is why no queue accepted the job, or nil.
	Rejected error
	SimJob   SimJob
}

// A SimCommand is an operator's command at a time of a simulation: btop,
// bbot, bstop (hold a pending job) or bresume (release it).
type SimCommand struct {
	At   Time
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

// SimOptions configure Simulate.
type SimOptions struct {
	// Commands are applied at their times, before that moment's cycle.
	Commands []SimCommand
	// Progress, when not nil, is called now and then with the jobs
	// finished so far and their total.
	Progress func(done, total int)
	// Plugins replace LSF's default rules when not nil.
	Plugins *Plugins
	// AfterCycle, when not nil, is called after each cycle's plan was
	// applied, with the cluster as it stands (for checks and traces; it
	// must not change the cluster).
	AfterCycle func(c *Cluster, p *Plan)
}

// SimResult is the outcome of a simulation.
type SimResult struct {
	Jobs []SimOutcome
	// Cycles counts the scheduling cycles; Placements the jobs
	// dispatched; Preemptions the jobs preempted.
	Cycles, Placements, Preemptions int
	// HostsClosed counts the hosts closed for their job exit rate (a host
	// opened again and closed anew counts again).
	HostsClosed int
	// Pools follow the slots each queue of each slot pool held over time.
	Pools []PoolSeries
	// End is the time of the last event.
	End Time
	// Unrunnable are the queues whose jobs still pended at the end, in
	// lsb.queues order, each with why the cluster could not run them.
	Unrunnable []Unrunnable
}

// Simulate replays a workload on a cluster with the sim executor on a
// virtual clock: each job is submitted at its time, runs for its Runtime
// (or until its run limit, then ends in EXIT), and a scheduling cycle
// runs at every moment something happens — a submission, a job's end,
// the end of an accept interval, a window opening — rather than on a
// wall-clock period. Jobs are taken in the order given; ties at one time
// keep that order.
func Simulate(c *Cluster, jobs []SimJob, opts SimOptions) (*SimResult, error) {
	clock := &VirtualClock{}
	e := NewEngine(c, clock, nil)
	if opts.Plugins != nil {
		e.Scheduler = NewScheduler(*opts.Plugins)
	}
	res := &SimResult{Jobs: make([]SimOutcome, len(jobs))}
	ev := &eventHeap{}
	for i := range jobs {
		if math.IsNaN(float64(jobs[i].At)) || math.IsInf(float64(jobs[i].At), 0) {
			return nil, errors.New("a job's submission time is not a number")
		}
		res.Jobs[i].SimJob = jobs[i]
		heap.Push(ev, event{at: jobs[i].At, kind: evSubmit, index: i, seq: i})
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
		heap.Push(ev, event{at: cmd.At, kind: evCommand, index: i, seq: len(jobs) + i})
	}
	seq := len(jobs) + len(opts.Commands)
	done := 0
	wake := Never
	// progress is the last time something happened; waking up on time
	// alone (windows, intervals) for longer than a week without progress
	// means the jobs left can never run, and the simulation ends.
	var progress Time
	for ev.Len() > 0 || (wake < Never && wake-progress <= 8*24*3600) {
		t := wake
		if ev.Len() > 0 && (*ev)[0].at <= t {
			t = (*ev)[0].at
		}
		clock.T = t
		for ev.Len() > 0 && (*ev)[0].at <= t {
			progress = t
			x := heap.Pop(ev).(event)
			switch x.kind {
			case evSubmit:
				sj := &res.Jobs[x.index]
				j, err := c.Submit(sj.SimJob.Submission, t)
				if err != nil {
					sj.Rejected = err
					done++
					continue
				}
				sj.Job = j
			case evCommand:
				cmd := opts.Commands[x.index]
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
					if err := c.command(cmd.Kind, j, cmd.Arg, t); err != nil {
						return nil, fmt.Errorf("at %v: %s: %w", float64(cmd.At), cmd.Kind, err)
					}
				}
			case evFinish:
				if x.epoch != x.job.Epoch || !x.job.State.Started() {
					continue // foreseen before a suspension: stale
				}
				e.SimFinish(x.job, x.exit)
				done++
			}
		}
		_, resumed, windowChange := e.ApplyRunWindows()
		// foresee pushes the end of a job that runs from now.
		foresee := func(j *Job) {
			left, exit := SimRemaining(j)
			heap.Push(ev, event{at: t.Add(left), kind: evFinish, job: j, exit: exit, seq: seq, epoch: j.Epoch})
			seq++
		}
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
	pending := make([]*Job, len(res.Jobs))
	for i, o := range res.Jobs {
		pending[i] = o.Job
	}
	res.Unrunnable = e.Unrunnable(pending)
	return res, nil
}

// SimRemaining returns how much longer a simulated job that runs from now
// runs (its Runtime less what it ran before a suspension), and whether it
// is then killed at its run limit rather than at its natural end.
func SimRemaining(j *Job) (seconds float64, atRunLimit bool) {
	run := j.Runtime
	if j.RunLimit > 0 && run > j.RunLimit {
		run, atRunLimit = j.RunLimit, true
	}
	return max(0, run-j.Ran), atRunLimit
}

// SimFinish ends a simulated job when SimRemaining said: at its run limit
// it is killed (EXIT 140, TERM_RUNLIMIT); otherwise it ends with its
// SimExit, DONE for 0 and EXIT for any other.
func (e *Engine) SimFinish(j *Job, atRunLimit bool) {
	state, code := Done, j.SimExit
	switch {
	case atRunLimit:
		state, code = Exit, 140
		j.Term = "TERM_RUNLIMIT"
	case code != 0:
		state = Exit
	}
	e.Finish(j, state, code)
}

type eventKind uint8

const (
	// Ends come before submissions at one time, so that a job submitted
	// when another ends can use its slots in the same cycle.
	evFinish eventKind = iota
	evSubmit
	evCommand
)

type event struct {
	at    Time
	kind  eventKind
	index int
	job   *Job
	exit  bool
	seq   int
	epoch int
}

type eventHeap []event

func (h eventHeap) Len() int { return len(h) }
func (h eventHeap) Less(a, b int) bool {
	if h[a].at != h[b].at {
		return h[a].at < h[b].at
	}
	if h[a].kind != h[b].kind {
		return h[a].kind < h[b].kind
	}
	return h[a].seq < h[b].seq
}
func (h eventHeap) Swap(a, b int) { h[a], h[b] = h[b], h[a] }
func (h *eventHeap) Push(x any)   { *h = append(*h, x.(event)) }
func (h *eventHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
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
	T Time
	// Slots and Pending are, per queue, the slots its started jobs hold
	// and the slots its pending jobs ask for.
	Slots, Pending []int
}

// recordPools samples every slot pool, when something in it changed.
func (r *SimResult) recordPools(c *Cluster, t Time) {
	if len(c.pools) == 0 {
		return
	}
	if r.Pools == nil {
		for _, p := range c.pools {
			qs := slices.Clone(p.queues)
			slices.SortFunc(qs, func(a, b *Queue) int { return a.Order - b.Order })
			ps := PoolSeries{Name: p.Name, Size: p.size(c)}
			for _, q := range qs {
				ps.Queues = append(ps.Queues, q.Name)
				ps.Shares = append(ps.Shares, q.share)
			}
			r.Pools = append(r.Pools, ps)
		}
	}
	for i := range c.pools {
		ps := &r.Pools[i]
		s := PoolSample{T: t, Slots: make([]int, len(ps.Queues)), Pending: make([]int, len(ps.Queues))}
		for k, name := range ps.Queues {
			q := c.Queue(name)
			s.Slots[k], s.Pending[k] = q.Used, q.pendingSlots
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
