package runtime

import (
	"fmt"
	"math"

	"github.com/lsfc/lsfc/compile"
)

// A JobFilter decides whether a pending job may be dispatched at all this
// cycle: holds, windows, and the limits that do not depend on a host. It
// runs for every job the cycle looks at.
type JobFilter interface {
	Name() string
	// Check returns ReasonNone to let the job through, or why not: the
	// job then pends with that reason for this cycle.
	Check(s CycleState, j JobInfo) Reason
}

// A HostFilter decides whether a host may take the jobs of a class (one
// queue, one requirement) this cycle: its HOSTS, status, windows, load
// thresholds and the requirement's select. It does not look at one job,
// so it runs once per class and host (and select once per host class).
// Its answers are kept between cycles while the hosts stay as they are
// (status, load, configuration): it answers from the class and the host
// alone, never from the time or from what the cycle planned; what
// changes with those is a HostLimiter's.
type HostFilter interface {
	Name() string
	// Filter returns ReasonNone to let the host take the class's jobs,
	// or the host-level reason why it may not.
	Filter(s CycleState, k ClassInfo, h HostInfo) Reason
}

// A HostLimiter says how many slots a host can still give: the job slot
// limits. With j zero it answers for any job of the class (limits that
// depend on the job's user answer "no limit" then).
type HostLimiter interface {
	Name() string
	// Room returns the slots the host can still give, and the reason
	// that stands when they are fewer than a job needs.
	Room(s CycleState, k ClassInfo, j JobInfo, h HostInfo) (int, Reason)
}

// An Orderer compares the next pending jobs of two job classes for the
// order the cycle tries them in. The cycle asks the orderers in turn, and
// the first that prefers one job decides; jobs no orderer separates go by
// user priority (bsub -sp), then submission order (as btop and bbot leave
// it). It orders classes, not the jobs within one: the jobs of one queue
// that share a requirement, a share account, -m, -x and a service class
// are one class, and keep its order (user priority and submission order,
// or APS value), so an orderer can tell classes apart by any of those.
//
// The cycle keeps its classes in a heap, and reorders it when what LSF's
// own orderers read changes (a share account's priority, a slot pool
// queue's holding); so an Orderer's answers must be a strict weak order
// that changes within a cycle only with those, as the built-ins' do: one
// that reads the job alone (its user, queue or slots) qualifies.
type Orderer interface {
	Name() string
	// Compare returns a negative number when job a goes before job b, a
	// positive one when after, and 0 when it prefers neither.
	Compare(s CycleState, a, b JobInfo) int
}

// A Preemptor makes room for a job of a preemptive queue that the free
// slots of its hosts cannot take, by suspending started jobs. The cycle
// asks the preemptors in turn, and the first that returns an allocation
// decides; with none in the profile, no job preempts, and a preemptive
// queue's jobs take only free slots (not those of jobs preempted
// before, which resume when their slots are free).
//
// The built-in "preemption" chooses and records its victims within the
// cycle (LSF's PREEMPTIVE, PREEMPTABLE, PREEMPT_FOR and MAX_JOB_PREEMPT).
// The views give no way to suspend a job for preemption, so a site's
// Preemptor decides whether and when the built-in runs: it declines
// (returns nil) or calls the built-in it took from Builtins.
type Preemptor interface {
	Name() string
	// Preempt returns where job j of class k runs once the jobs it
	// preempts are suspended, or nil when preemption cannot place it.
	Preempt(s CycleState, k ClassInfo, j JobInfo) []Alloc
}

// Plugins are the cycle's stages, in the order they run. Every plugin
// follows the views' contract (see CycleState): it reads, changes
// nothing, and keeps no view past its call.
type Plugins struct {
	JobFilters   []JobFilter
	HostFilters  []HostFilter
	HostLimiters []HostLimiter
	// LoadControllers suspend and resume started jobs for the state of
	// their hosts, before the cycle dispatches.
	LoadControllers []LoadController
	// ExceptionChecks detect job and host exceptions.
	ExceptionChecks []ExceptionCheck
	// Orderers order the pending jobs of the classes.
	Orderers []Orderer
	// Preemptors place a job of a preemptive queue by preemption.
	Preemptors []Preemptor
}

// DefaultPlugins returns LSF's rules, as a new value the caller may
// change: Builtins under DefaultProfile.
func DefaultPlugins() Plugins {
	p, err := Builtins().Plugins(DefaultProfile())
	if err != nil {
		panic(err) // the built-in registry holds every name of the default profile
	}
	return p
}

// A Registry holds plugins by name, a map for each kind, for a Profile
// to pick from. Builtins returns LSF's; a caller adds its own with the
// Add methods (or to the maps) and names them in its profile.
type Registry struct {
	JobFilters      map[string]JobFilter
	HostFilters     map[string]HostFilter
	HostLimiters    map[string]HostLimiter
	LoadControllers map[string]LoadController
	ExceptionChecks map[string]ExceptionCheck
	Orderers        map[string]Orderer
	Preemptors      map[string]Preemptor
}

// A Profile names, for each kind of plugin, those a scheduler runs, in
// the order they run.
type Profile struct {
	JobFilters, HostFilters, HostLimiters, LoadControllers, ExceptionChecks []string
	Orderers, Preemptors                                                    []string
}

// Builtins returns a new registry of LSF's rules: the job filters, host
// filters, host limiters, load control and exception checks behind
// queues, hosts, users, lsb.resources, slot pools, service classes and
// exclusive jobs; the order of pending work; and preemption.
//
// The order is two orderers: "SLA", which puts the jobs of service
// classes that need to run ahead of any queue's, and "LSF", one
// comparison of queue priority, APS, slot pools and fairshare share trees
// as the queues configure them (they are not separable: an APS queue
// group or a slot pool overrides queue priority). A site replaces or
// wraps either under its name, or adds its own before or after them.
func Builtins() Registry {
	var r Registry
	for _, f := range []JobFilter{holdFilter{}, beginFilter{}, dependFilter{}, queueStateFilter{}, queueLimitFilter{},
		userQueueLimitFilter{}, userMaxJobsFilter{}, resourceLimitFilter{}, slotPoolFilter{}, slaFilter{}, arrayLimitFilter{},
		jobGroupFilter{}} {
		r.AddJobFilter(f)
	}
	for _, f := range []HostFilter{queueHostsFilter{}, askedHostsFilter{}, hostStatusFilter{}, loadFilter{}, selectFilter{}} {
		r.AddHostFilter(f)
	}
	for _, l := range []HostLimiter{hostWindowLimiter{}, mxjLimiter{}, queueHostLimiter{}, procLimiter{}, userHostLimiter{},
		userProcLimiter{}, acceptLimiter{}, hostResourceLimiter{}, exclusiveLimiter{}, gpuLimiter{}, reserveLimiter{}, advRsvLimiter{}} {
		r.AddHostLimiter(l)
	}
	r.AddLoadController(loadStopController{})
	for _, x := range []ExceptionCheck{jobExceptionCheck{}, exitRateCheck{}} {
		r.AddExceptionCheck(x)
	}
	r.AddOrderer(slaOrderer{})
	r.AddOrderer(lsfOrderer{})
	r.AddPreemptor(preemptor{})
	return r
}

// DefaultProfile returns LSF's order of the built-in plugins, as a new
// profile the caller may change.
func DefaultProfile() Profile {
	return Profile{
		JobFilters: []string{"hold", "begin-time", "dependency", "queue-state", "QJOB_LIMIT", "UJOB_LIMIT", "MAX_JOBS",
			"lsb.resources", "SLOT_SHARE", "SLA", "%N", "JOB_GROUP"},
		HostFilters: []string{"HOSTS", "-m", "status", "loadSched", "select"},
		HostLimiters: []string{"DISPATCH_WINDOW", "MXJ", "HJOB_LIMIT", "PJOB_LIMIT", "JL/U", "JL/P",
			"JOB_ACCEPT_INTERVAL", "lsb.resources", "EXCLUSIVE", "GPU", "SLOT_RESERVE", "ADVANCE_RESERVATION"},
		LoadControllers: []string{"loadStop"},
		ExceptionChecks: []string{"job exceptions", "exit rate"},
		Orderers:        []string{"SLA", "LSF"},
		Preemptors:      []string{"preemption"},
	}
}

// AddJobFilter registers a job filter under its name, replacing one of
// the same name.
func (r *Registry) AddJobFilter(f JobFilter) { add(&r.JobFilters, f.Name(), f) }

// AddHostFilter registers a host filter under its name, replacing one of
// the same name.
func (r *Registry) AddHostFilter(f HostFilter) { add(&r.HostFilters, f.Name(), f) }

// AddHostLimiter registers a host limiter under its name, replacing one
// of the same name.
func (r *Registry) AddHostLimiter(l HostLimiter) { add(&r.HostLimiters, l.Name(), l) }

// AddLoadController registers a load controller under its name,
// replacing one of the same name.
func (r *Registry) AddLoadController(l LoadController) { add(&r.LoadControllers, l.Name(), l) }

// AddExceptionCheck registers an exception check under its name,
// replacing one of the same name.
func (r *Registry) AddExceptionCheck(x ExceptionCheck) { add(&r.ExceptionChecks, x.Name(), x) }

// AddOrderer registers an orderer under its name, replacing one of the
// same name.
func (r *Registry) AddOrderer(o Orderer) { add(&r.Orderers, o.Name(), o) }

// AddPreemptor registers a preemptor under its name, replacing one of the
// same name.
func (r *Registry) AddPreemptor(p Preemptor) { add(&r.Preemptors, p.Name(), p) }

// add puts v in *m under name, making the map on first use.
func add[V any](m *map[string]V, name string, v V) {
	if *m == nil {
		*m = map[string]V{}
	}
	(*m)[name] = v
}

// Plugins returns the registry's plugins that the profile names, in its
// order; a name the registry does not hold is an error.
func (r Registry) Plugins(p Profile) (Plugins, error) {
	var out Plugins
	var err error
	out.JobFilters, err = pick(r.JobFilters, p.JobFilters, "job filter", err)
	out.HostFilters, err = pick(r.HostFilters, p.HostFilters, "host filter", err)
	out.HostLimiters, err = pick(r.HostLimiters, p.HostLimiters, "host limiter", err)
	out.LoadControllers, err = pick(r.LoadControllers, p.LoadControllers, "load controller", err)
	out.ExceptionChecks, err = pick(r.ExceptionChecks, p.ExceptionChecks, "exception check", err)
	out.Orderers, err = pick(r.Orderers, p.Orderers, "orderer", err)
	out.Preemptors, err = pick(r.Preemptors, p.Preemptors, "preemptor", err)
	return out, err
}

// pick returns the plugins of m by the names, in order; the first name m
// lacks becomes the error, unless err is set already.
func pick[V any](m map[string]V, names []string, kind string, err error) ([]V, error) {
	out := make([]V, 0, len(names))
	for _, n := range names {
		v, ok := m[n]
		if !ok {
			if err == nil {
				err = fmt.Errorf("no %s %q in the registry", kind, n)
			}
			continue
		}
		out = append(out, v)
	}
	return out, err
}

// Job filters.

type holdFilter struct{}

func (holdFilter) Name() string { return "hold" }
func (holdFilter) Check(_ CycleState, jv JobInfo) Reason {
	j := jv.j
	if j.State == PSusp {
		if j.Reason == ReasonPreExecLimit || j.Reason == ReasonRequeueLimit {
			return j.Reason
		}
		return ReasonHeld
	}
	return ReasonNone
}

// beginFilter keeps a job until its begin time (bsub -b), and asks for a
// cycle then.
type beginFilter struct{}

func (beginFilter) Name() string { return "begin-time" }
func (beginFilter) Check(s CycleState, jv JobInfo) Reason {
	if b := jv.j.BeginTime(); b > s.Now() {
		s.WakeAt(b)
		return ReasonBeginTime
	}
	return ReasonNone
}

// dependFilter keeps a job whose dependency condition (bsub -w) does not
// hold; one that can never hold again pends with its own reason, as LSF
// shows it, until the user kills or changes the job.
type dependFilter struct{}

func (dependFilter) Name() string { return "dependency" }
func (dependFilter) Check(_ CycleState, jv JobInfo) Reason {
	j := jv.j
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

// arrayLimitFilter keeps an element of a job array whose array runs as
// many elements as its running limit (bsub -J "name[list]%N") allows,
// counting those the cycle dispatched.
type arrayLimitFilter struct{}

func (arrayLimitFilter) Name() string { return "%N" }
func (arrayLimitFilter) Check(st CycleState, jv JobInfo) Reason {
	a := jv.j.array
	if a == nil || a.Limit <= 0 {
		return ReasonNone
	}
	if st.c.arrayRun(a) >= a.Limit {
		return ReasonArrayLimit
	}
	return ReasonNone
}

type queueStateFilter struct{}

func (queueStateFilter) Name() string { return "queue-state" }
func (queueStateFilter) Check(st CycleState, jv JobInfo) Reason {
	c, j := st.c, jv.j
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
func (queueLimitFilter) Check(st CycleState, jv JobInfo) Reason {
	c, j := st.c, jv.j
	q := j.Queue
	if q.QJobLimit > 0 && q.Used+c.queueUsed[q]+j.Slots > q.QJobLimit {
		return ReasonQueueLimit
	}
	return ReasonNone
}

type userQueueLimitFilter struct{}

func (userQueueLimitFilter) Name() string { return "UJOB_LIMIT" }
func (userQueueLimitFilter) Check(st CycleState, jv JobInfo) Reason {
	c, j := st.c, jv.j
	q := j.Queue
	if q.UJobLimit > 0 && q.UserSlots(j.User)+c.queueUser[queueUser{q, j.User}]+j.Slots > q.UJobLimit {
		return ReasonUserLimit
	}
	return ReasonNone
}

type resourceLimitFilter struct{}

func (resourceLimitFilter) Name() string { return "lsb.resources" }
func (resourceLimitFilter) Check(st CycleState, jv JobInfo) Reason {
	c, j := st.c, jv.j
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
func (queueHostsFilter) Filter(_ CycleState, kv ClassInfo, hv HostInfo) Reason {
	k, h := kv.k, hv.h
	if !k.queue.UsesHost(h) {
		return ReasonHostNotInQueue
	}
	return ReasonNone
}

type hostStatusFilter struct{}

func (hostStatusFilter) Name() string { return "status" }
func (hostStatusFilter) Filter(_ CycleState, _ ClassInfo, hv HostInfo) Reason {
	h := hv.h
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
func (loadFilter) Filter(st CycleState, kv ClassInfo, hv HostInfo) Reason {
	c, k, h := st.c, kv.k, hv.h
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
func (selectFilter) Filter(st CycleState, kv ClassInfo, hv HostInfo) Reason {
	c, k, h := st.c, kv.k, hv.h
	if k.req == nil {
		return ReasonNone
	}
	if c.selects(k, h) || c.dynamicSelect(k) {
		// A select that reads free slots is checked at placement, where
		// the slots are current.
		return ReasonNone
	}
	if c.loadUnavailable(k, h) {
		return ReasonHostLoadUnavail
	}
	return ReasonHostSelect
}

// Host limiters.

// hostWindowLimiter closes a host outside its lsb.hosts DISPATCH_WINDOW.
// It is a limiter rather than a filter because its answer changes with
// time, and the filters' answers are kept between cycles.
type hostWindowLimiter struct{}

func (hostWindowLimiter) Name() string { return "DISPATCH_WINDOW" }
func (hostWindowLimiter) Room(st CycleState, _ ClassInfo, _ JobInfo, hv HostInfo) (int, Reason) {
	c, h := st.c, hv.h
	if !windowOpen(h.DispatchWindow, c.now) {
		c.wakeAt(nextWindowChange(h.DispatchWindow, c.now))
		return 0, ReasonHostWindow
	}
	return math.MaxInt32, ReasonNone
}

type mxjLimiter struct{}

func (mxjLimiter) Name() string { return "MXJ" }
func (mxjLimiter) Room(st CycleState, kv ClassInfo, _ JobInfo, hv HostInfo) (int, Reason) {
	c, k, h := st.c, kv.k, hv.h
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
func (queueHostLimiter) Room(st CycleState, kv ClassInfo, _ JobInfo, hv HostInfo) (int, Reason) {
	c, k, h := st.c, kv.k, hv.h
	q := k.queue
	if q.HJobLimit <= 0 {
		return math.MaxInt32, ReasonNone
	}
	return q.HJobLimit - h.QueueSlots(q) - c.hostQueue[hostQueue{h, q}], ReasonHostQueueLimit
}

type procLimiter struct{}

func (procLimiter) Name() string { return "PJOB_LIMIT" }
func (procLimiter) Room(st CycleState, kv ClassInfo, _ JobInfo, hv HostInfo) (int, Reason) {
	c, k, h := st.c, kv.k, hv.h
	q := k.queue
	if q.PJobLimit <= 0 {
		return math.MaxInt32, ReasonNone
	}
	cpus := max(1.0, h.CPUs)
	return int(q.PJobLimit*cpus) - h.QueueSlots(q) - c.hostQueue[hostQueue{h, q}], ReasonHostProcLimit
}

type userHostLimiter struct{}

func (userHostLimiter) Name() string { return "JL/U" }
func (userHostLimiter) Room(st CycleState, _ ClassInfo, jv JobInfo, hv HostInfo) (int, Reason) {
	c, j, h := st.c, jv.j, hv.h
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
func (acceptLimiter) Room(st CycleState, kv ClassInfo, _ JobInfo, hv HostInfo) (int, Reason) {
	c, k, h := st.c, kv.k, hv.h
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
func (hostResourceLimiter) Room(st CycleState, _ ClassInfo, jv JobInfo, hv HostInfo) (int, Reason) {
	c, j, h := st.c, jv.j, hv.h
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
