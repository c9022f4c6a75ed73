package sim

import (
	"fmt"
	"slices"
	"sort"
	"strconv"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/runtime"
	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/simstats"
	"github.com/lsfc/lsfc/runtime/swf"
)

// ReplayOptions configure Replay.
type ReplayOptions struct {
	// Hosts replace the hosts of the configuration (an inventory, or
	// SyntheticHosts); nil keeps lsf.cluster's.
	Hosts []*compile.Host
	// SlotsPerHost gives job slots to hosts whose MXJ is "!" or unset and
	// whose CPUs are unknown.
	SlotsPerHost int
	// QueueMap maps trace queues to LSF queues (see WorkloadOptions).
	QueueMap map[string]string
	// SlaMap maps trace queues to service classes (see WorkloadOptions).
	SlaMap map[string]string
	// Progress is called now and then with the jobs finished and their
	// total.
	Progress func(done, total int)
}

// A ReplayResult is a replay's outcome: one record per job of the trace,
// in the trace's order, the cluster's size, the simulation's counts, and
// the samples of its slot pools.
type ReplayResult struct {
	Records    []simstats.Record
	Reasons    map[int]string // why a job was skipped, rejected or never ran, by trace ID
	TotalSlots int
	Sim        *Result
	// Pools are the samples of Sim.Pools with their times, like those of
	// the records, in seconds from the start of the trace; nil when the
	// configuration has no slot pool.
	Pools []simstats.PoolSeries
	// ServiceClasses are the goal attainment of the time-based service
	// classes, in lsb.serviceclasses order.
	ServiceClasses []simstats.ServiceClass
	// Warnings name the queues whose jobs the cluster could not run at
	// all (see Result.Unrunnable), in lsb.queues order.
	Warnings []simstats.Warning
	// Labels are the Source's names of its jobs, by trace ID.
	Labels map[int]string
}

// Replay runs a Standard Workload Format trace through the scheduler with
// the sim executor: the cluster of policy (or opts.Hosts), the jobs of the
// trace submitted at their times. Every job of the trace has a record:
// jobs the trace cannot give (no run time, too many processors) and jobs
// no queue accepts are SKIPPED with their reason, jobs that never started
// are PEND. A record counts the times its job was preempted.
func Replay(policy *compile.Policy, h *swf.Header, jobs []swf.Job, opts ReplayOptions) (*ReplayResult, error) {
	return ReplayWorkload(policy, func(c *runtime.Cluster) (*Source, error) {
		return SWFSource(c, h, jobs, WorkloadOptions{QueueMap: opts.QueueMap, SlaMap: opts.SlaMap}), nil
	}, opts)
}

// A Source is a workload ready to replay, whatever file it came from:
// its jobs, each numbered by its TraceID, and the jobs it cannot replay.
type Source struct {
	Jobs    []Job
	Skipped []SkippedJob
	// T0 is the origin of the records' times.
	T0 runtime.Time
	// Labels name jobs as their file does ("1234[5]" for an element of
	// an LSF job array), by trace ID; a job without one is named by its
	// trace ID.
	Labels map[int]string
}

// A SkippedJob is a job of a workload that cannot be replayed, as its
// record shows it, and why.
type SkippedJob struct {
	ID          int
	Queue, User string
	Submit      float64 // seconds after T0
	Slots       int
	Reason      string
}

// SWFSource makes the Source of an SWF trace on cluster c (see
// Workload); opts.TotalSlots is the cluster's.
func SWFSource(c *runtime.Cluster, h *swf.Header, jobs []swf.Job, opts WorkloadOptions) *Source {
	work, skipped := Workload(h, jobs, WorkloadOptions{QueueMap: opts.QueueMap, SlaMap: opts.SlaMap, TotalSlots: c.TotalSlots()})
	src := &Source{Jobs: work}
	if h != nil {
		if start, ok := h.UnixStartTime(); ok {
			src.T0 = runtime.Time(start)
		}
	}
	defaultQueue := defaultQueueOf(c)
	for _, s := range skipped {
		src.Skipped = append(src.Skipped, SkippedJob{ID: s.Job.Number, Queue: queueOf(s.Job, h, opts.QueueMap, defaultQueue),
			User: userOf(s.Job), Submit: s.Job.SubmitTime, Slots: max(s.Job.ReqProcs, s.Job.AllocProcs), Reason: s.Reason})
	}
	return src
}

// ReplayWorkload runs a workload through the scheduler with the sim
// executor, as Replay does: load makes it for the cluster of policy (or
// opts.Hosts), which it may read (its queues, its slots). Every job of the
// source has a record, in the order of their trace IDs.
func ReplayWorkload(policy *compile.Policy, load func(c *runtime.Cluster) (*Source, error), opts ReplayOptions) (*ReplayResult, error) {
	c, err := runtime.NewCluster(policy, runtime.ClusterOptions{Hosts: opts.Hosts, SlotsPerHost: opts.SlotsPerHost})
	if err != nil {
		return nil, err
	}
	total := c.TotalSlots()
	src, err := load(c)
	if err != nil {
		return nil, err
	}
	sim, err := Simulate(c, src.Jobs, Options{Progress: opts.Progress})
	if err != nil {
		return nil, err
	}
	res := &ReplayResult{TotalSlots: total, Sim: sim, Reasons: map[int]string{}, Labels: src.Labels}
	for _, s := range src.Skipped {
		res.Records = append(res.Records, simstats.Record{ID: s.ID, Queue: s.Queue, User: s.User,
			Submit: s.Submit, Slots: s.Slots, State: simstats.StateSkipped})
		res.Reasons[s.ID] = s.Reason
	}
	res.addOutcomes(c, sim, src.T0)
	return res, nil
}

// defaultQueueOf names the queue of jobs submitted without one.
func defaultQueueOf(c *runtime.Cluster) string {
	if len(c.DefaultQueues) > 0 {
		return c.DefaultQueues[0].Name
	}
	return "default"
}

// addOutcomes adds the records of the simulated jobs, their times from
// t0, sorts the records by ID, and takes the simulation's pools, service
// classes and warnings.
func (res *ReplayResult) addOutcomes(c *runtime.Cluster, sim *Result, t0 runtime.Time) {
	defaultQueue := defaultQueueOf(c)
	res.Records = slices.Grow(res.Records, len(sim.Jobs))
	for _, o := range sim.Jobs {
		sj := o.SimJob
		id := o.TraceID()
		if o.Index > 0 {
			// An element of an array the workload submitted: named as
			// bjobs names it, after its job's label.
			if res.Labels == nil {
				res.Labels = map[int]string{}
			}
			job := strconv.Itoa(sj.TraceID)
			if l, ok := res.Labels[sj.TraceID]; ok {
				job = l
			}
			res.Labels[id] = fmt.Sprintf("%s[%d]", job, o.Index)
		}
		// A job submitted without -n asks for one slot.
		r := simstats.Record{ID: id, User: sj.User, Submit: float64(sj.At - t0), Slots: max(sj.Slots, 1)}
		switch j := o.Job; {
		case o.Rejected != nil:
			r.Queue, r.State = sj.Queue, simstats.StateSkipped
			res.Reasons[id] = o.Rejected.Error()
		case j.State.Pending():
			r.Queue, r.State = j.Queue.Name, simstats.StatePend
			if j.State == runtime.PSusp {
				r.State = simstats.StateHeld
			}
			res.Reasons[id] = j.Reason.String()
		default:
			r.Queue, r.State = j.Queue.Name, j.State.String()
			r.Start, r.End = float64(j.Start-t0), float64(j.End-t0)
			if len(j.Allocs) > 0 {
				r.Hosts = make([]string, 0, len(j.Allocs))
			}
			for _, a := range j.Allocs {
				r.Hosts = append(r.Hosts, a.Host.Name)
			}
		}
		if o.Job != nil {
			r.Requeued = o.Job.ExitRequeues
			for _, run := range sim.EarlierRuns[o.Job] {
				r.EarlierRuns = append(r.EarlierRuns, simstats.Span{Start: float64(run.Start - t0), End: float64(run.End - t0)})
			}
			r.Preempted = o.Job.PreemptCount
			r.Exceptions = o.Job.Exceptions.String()
		}
		if r.Queue == "" {
			r.Queue = defaultQueue
		}
		res.Records = append(res.Records, r)
	}
	// By job ID, and an array's elements by index.
	sort.SliceStable(res.Records, func(a, b int) bool {
		ja, ia := api.SplitID(int64(res.Records[a].ID))
		jb, ib := api.SplitID(int64(res.Records[b].ID))
		return ja < jb || ja == jb && ia < ib
	})
	res.Pools = poolSeries(sim.Pools, t0)
	res.ServiceClasses = classAttainment(c)
	res.Warnings = []simstats.Warning{}
	for _, u := range sim.Unrunnable {
		res.Warnings = append(res.Warnings, simstats.Warning{Queue: u.Queue, Jobs: u.Jobs, Requeued: u.Requeued, Job: u.Job.TraceID, Reason: u.Reason})
	}
}

// poolSeries converts the samples of slot pools for simstats, their
// times from t0; the slices of names, shares and slots are shared.
func poolSeries(pools []PoolSeries, t0 runtime.Time) []simstats.PoolSeries {
	if pools == nil {
		return nil
	}
	out := make([]simstats.PoolSeries, len(pools))
	for i, p := range pools {
		s := simstats.PoolSeries{Name: p.Name, Size: p.Size, Queues: p.Queues, Shares: p.Shares,
			Samples: make([]simstats.PoolSample, len(p.Samples))}
		for k, x := range p.Samples {
			s.Samples[k] = simstats.PoolSample{T: float64(x.T - t0), Slots: x.Slots, Pending: x.Pending}
		}
		out[i] = s
	}
	return out
}

// queueOf names the LSF queue a skipped job would have gone to: its
// mapped queue, else the default one.
func queueOf(j swf.Job, h *swf.Header, m map[string]string, def string) string {
	if q, ok := m[strconv.Itoa(j.Queue)]; ok && j.Queue >= 0 {
		return q
	}
	if name := h.Queues()[j.Queue]; name != "" {
		if q, ok := m[name]; ok {
			return q
		}
	}
	return def
}

func userOf(j swf.Job) string {
	if j.UserID < 0 {
		return "unknown"
	}
	return "user" + strconv.Itoa(j.UserID)
}

// classAttainment returns the goal attainment of the cluster's time-based
// service classes: per goal, the seconds it was active and delayed, and
// its control actions.
func classAttainment(c *runtime.Cluster) []simstats.ServiceClass {
	var out []simstats.ServiceClass
	for _, s := range c.SLAs {
		if len(s.Goals) == 0 {
			continue // not time-based
		}
		sc := simstats.ServiceClass{Name: s.Name, Priority: s.Priority, Jobs: s.NJobs, Finished: s.Finished}
		for _, g := range s.Goals {
			sc.Goals = append(sc.Goals, simstats.ClassGoal{Kind: string(g.Kind), Target: g.Target,
				Active: g.ActiveTime, Delayed: g.DelayedTime, Violations: g.Violations})
		}
		out = append(out, sc)
	}
	return out
}
