package runtime

import (
	"math"

	"github.com/lsfc/lsfc/compile"
)

// A JobFilter decides whether a pending job may be dispatched at all this
// cycle: holds, windows, and the limits that do not depend on a host.
type JobFilter interface {
	Name() string
	// Check returns ReasonNone to let the job through, or why not.
	Check(c *cycle, j *Job) Reason
}

// A HostFilter decides whether a host may take the jobs of a class (one
// queue, one requirement) this cycle: its HOSTS, status, windows, load
// thresholds and the requirement's select. It does not look at one job,
// so it runs once per class and host (and select once per host class).
type HostFilter interface {
	Name() string
	Filter(c *cycle, k *jobClass, h *Host) Reason
}

// A HostLimiter says how many slots a host can still give: the job slot
// limits. With j nil it answers for any job of the class (limits that
// depend on the job's user answer "no limit" then).
type HostLimiter interface {
	Name() string
	Room(c *cycle, k *jobClass, j *Job, h *Host) (int, Reason)
}

// Plugins is the registry of the cycle's stages, in the order they run.
type Plugins struct {
	JobFilters   []JobFilter
	HostFilters  []HostFilter
	HostLimiters []HostLimiter
	// ExceptionChecks detect job and host exceptions.
	ExceptionChecks []ExceptionCheck
}

// DefaultPlugins returns LSF's rules, as a new registry the caller may
// change.
func DefaultPlugins() Plugins {
	return Plugins{
		JobFilters: []JobFilter{holdFilter{}, dependFilter{}, queueStateFilter{}, queueLimitFilter{}, userQueueLimitFilter{},
			userMaxJobsFilter{}, resourceLimitFilter{}, slotPoolFilter{}, slaFilter{}},
		HostFilters: []HostFilter{queueHostsFilter{}, askedHostsFilter{}, hostStatusFilter{}, loadFilter{}, selectFilter{}},
		HostLimiters: []HostLimiter{hostWindowLimiter{}, mxjLimiter{}, queueHostLimiter{}, procLimiter{}, userHostLimiter{},
			userProcLimiter{}, acceptLimiter{}, hostResourceLimiter{}, exclusiveLimiter{}},
		ExceptionChecks: []ExceptionCheck{jobExceptionCheck{}, exitRateCheck{}},
	}
}

// Job filters.

type holdFilter struct{}

func (holdFilter) Name() string { return "hold" }
func (holdFilter) Check(c *cycle, j *Job) Reason {
	if j.State == PSusp {
		return ReasonHeld
	}
	return ReasonNone
}

// dependFilter keeps a job whose dependency condition (bsub -w) does not
// hold; one that can never hold again pends with its own reason, as LSF
// shows it, until the user kills or changes the job.
type dependFilter struct{}

func (dependFilter) Name() string { return "dependency" }
func (dependFilter) Check(c *cycle, j *Job) Reason {
	if j.dep == nil {
		return ReasonNone
	}
	switch holds, final := j.dep.root.eval(); {
	case holds:
		return ReasonNone
	case final:
		return ReasonDepNever
	}
	return ReasonDependency
}

type queueStateFilter struct{}

func (queueStateFilter) Name() string { return "queue-state" }
func (queueStateFilter) Check(c *cycle, j *Job) Reason {
	q := j.Queue
	switch {
	case !q.Active:
		return ReasonQueueClosed
	case !windowOpen(q.DispatchWindow, c.now):
		c.wakeAt(nextWindowChange(q.DispatchWindow, c.now))
		return ReasonQueueInact
	case !windowOpen(q.RunWindow, c.now):
		c.wakeAt(nextWindowChange(q.RunWindow, c.now))
		return ReasonRunWindow
	}
	return ReasonNone
}

type queueLimitFilter struct{}

func (queueLimitFilter) Name() string { return "QJOB_LIMIT" }
func (queueLimitFilter) Check(c *cycle, j *Job) Reason {
	q := j.Queue
	if q.QJobLimit > 0 && q.Used+c.queueUsed[q]+j.Slots > q.QJobLimit {
		return ReasonQueueLimit
	}
	return ReasonNone
}

type userQueueLimitFilter struct{}

func (userQueueLimitFilter) Name() string { return "UJOB_LIMIT" }
func (userQueueLimitFilter) Check(c *cycle, j *Job) Reason {
	q := j.Queue
	if q.UJobLimit > 0 && q.UserSlots(j.User)+c.queueUser[queueUser{q, j.User}]+j.Slots > q.UJobLimit {
		return ReasonUserLimit
	}
	return ReasonNone
}

type resourceLimitFilter struct{}

func (resourceLimitFilter) Name() string { return "lsb.resources" }
func (resourceLimitFilter) Check(c *cycle, j *Job) Reason {
	for _, r := range c.cluster.limits {
		if r.hostBound() || !r.applies(j, nil) {
			continue
		}
		key := r.key(j, nil)
		slots, jobs, mem := r.room(key, c.limitPlanned(r, key))
		if slots < float64(j.Slots) || jobs < 1 || mem < r.jobMem(j) {
			return ReasonResLimit
		}
	}
	return ReasonNone
}

// Host filters.

type queueHostsFilter struct{}

func (queueHostsFilter) Name() string { return "HOSTS" }
func (queueHostsFilter) Filter(c *cycle, k *jobClass, h *Host) Reason {
	if !k.queue.UsesHost(h) {
		return ReasonHostNotInQueue
	}
	return ReasonNone
}

type hostStatusFilter struct{}

func (hostStatusFilter) Name() string { return "status" }
func (hostStatusFilter) Filter(c *cycle, k *jobClass, h *Host) Reason {
	if h.State() != HostOK || h.MaxSlots == 0 {
		return ReasonHostClosed
	}
	return ReasonNone
}

// loadFilter applies the loadSched thresholds of the host (lsb.hosts) and
// of the queue: for an index where more is busier the load must be below
// the threshold, for the others at least it. An index the host does not
// report passes.
type loadFilter struct{}

func (loadFilter) Name() string { return "loadSched" }
func (loadFilter) Filter(c *cycle, k *jobClass, h *Host) Reason {
	for _, ths := range [2]map[string]compile.Threshold{h.Thresholds, k.queue.Thresholds} {
		for name, th := range ths {
			if th.Sched == nil {
				continue
			}
			r, _, known := c.cluster.Env.Lookup(name)
			if !known {
				continue
			}
			load, ok := h.Facts.Load[r.Name]
			if !ok {
				continue
			}
			if r.Increasing && load >= *th.Sched || !r.Increasing && load < *th.Sched {
				return ReasonHostLoad
			}
		}
	}
	return ReasonNone
}

// selectFilter evaluates the requirement's select: a host passes when the
// select of some term of some alternative holds on it. It is evaluated
// once per host class.
type selectFilter struct{}

func (selectFilter) Name() string { return "select" }
func (selectFilter) Filter(c *cycle, k *jobClass, h *Host) Reason {
	if k.req == nil {
		return ReasonNone
	}
	if c.selects(k, h) || c.dynamicSelect(k) {
		// A select that reads free slots is checked at placement, where
		// the slots are current.
		return ReasonNone
	}
	return ReasonHostSelect
}

// Host limiters.

// hostWindowLimiter closes a host outside its lsb.hosts DISPATCH_WINDOW.
// It is a limiter rather than a filter because its answer changes with
// time, and the filters' answers are kept between cycles.
type hostWindowLimiter struct{}

func (hostWindowLimiter) Name() string { return "DISPATCH_WINDOW" }
func (hostWindowLimiter) Room(c *cycle, k *jobClass, j *Job, h *Host) (int, Reason) {
	if !windowOpen(h.DispatchWindow, c.now) {
		c.wakeAt(nextWindowChange(h.DispatchWindow, c.now))
		return 0, ReasonHostWindow
	}
	return math.MaxInt32, ReasonNone
}

type mxjLimiter struct{}

func (mxjLimiter) Name() string { return "MXJ" }
func (mxjLimiter) Room(c *cycle, k *jobClass, j *Job, h *Host) (int, Reason) {
	if h.MaxSlots < 0 {
		return math.MaxInt32, ReasonNone
	}
	room := c.mxjRoom(k.queue, h)
	if c.probe {
		// The room of a job placed as if the jobs it may preempt were
		// gone.
		room += c.preemptBonus(k.queue, h)
	}
	return room, ReasonHostMXJ
}

type queueHostLimiter struct{}

func (queueHostLimiter) Name() string { return "HJOB_LIMIT" }
func (queueHostLimiter) Room(c *cycle, k *jobClass, j *Job, h *Host) (int, Reason) {
	q := k.queue
	if q.HJobLimit <= 0 {
		return math.MaxInt32, ReasonNone
	}
	return q.HJobLimit - h.QueueSlots(q) - c.hostQueue[hostQueue{h, q}], ReasonHostQueueLimit
}

type procLimiter struct{}

func (procLimiter) Name() string { return "PJOB_LIMIT" }
func (procLimiter) Room(c *cycle, k *jobClass, j *Job, h *Host) (int, Reason) {
	q := k.queue
	if q.PJobLimit <= 0 {
		return math.MaxInt32, ReasonNone
	}
	cpus := max(1.0, h.Facts.Ncpus)
	return int(q.PJobLimit*cpus) - h.QueueSlots(q) - c.hostQueue[hostQueue{h, q}], ReasonHostProcLimit
}

type userHostLimiter struct{}

func (userHostLimiter) Name() string { return "JL/U" }
func (userHostLimiter) Room(c *cycle, k *jobClass, j *Job, h *Host) (int, Reason) {
	if h.JLU <= 0 || j == nil {
		return math.MaxInt32, ReasonNone
	}
	used := h.UserSlots(j.User) + c.hostUser[hostUser{h, j.User}]
	if c.cluster.PreemptFor.HostJLU {
		used -= h.preemptedUser[j.User]
	}
	return h.JLU - used, ReasonHostUserLimit
}

// acceptLimiter applies JOB_ACCEPT_INTERVAL: after a host received a job,
// it takes no other for the interval (of the queue whose job it is about
// to take); with 0, it takes any number.
type acceptLimiter struct{}

func (acceptLimiter) Name() string { return "JOB_ACCEPT_INTERVAL" }
func (acceptLimiter) Room(c *cycle, k *jobClass, j *Job, h *Host) (int, Reason) {
	iv := k.queue.AcceptInterval
	if iv <= 0 {
		return math.MaxInt32, ReasonNone
	}
	if c.dispatchedTo[h.Index] {
		c.wakeAt(c.now.Add(iv))
		return 0, ReasonHostAccept
	}
	if h.LastDispatch > 0 && c.now < h.LastDispatch.Add(iv) {
		c.wakeAt(h.LastDispatch.Add(iv))
		return 0, ReasonHostAccept
	}
	return math.MaxInt32, ReasonNone
}

// hostResourceLimiter applies the lsb.resources limits that count per
// host or on some hosts.
type hostResourceLimiter struct{}

func (hostResourceLimiter) Name() string { return "lsb.resources" }
func (hostResourceLimiter) Room(c *cycle, k *jobClass, j *Job, h *Host) (int, Reason) {
	room := math.MaxInt32
	if j == nil {
		return room, ReasonNone
	}
	for _, r := range c.cluster.limits {
		if !r.hostBound() || !r.applies(j, h) {
			continue
		}
		key := r.key(j, h)
		slots, jobs, _ := r.room(key, c.limitPlanned(r, key))
		if jobs < 1 {
			return 0, ReasonResLimit
		}
		room = min(room, int(slots))
	}
	return room, ReasonResLimit
}
