package runtime

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
	"github.com/lsfc/lsfc/runtime/api"
)

// A Cluster is the scheduler's whole state: hosts, queues, application
// profiles, limits and jobs, under one compiled Policy. It is changed only
// by the engine (submissions, starts, finishes, commands); the scheduling
// cycle reads it through a Snapshot and never writes it.
type Cluster struct {
	Policy *compile.Policy
	Env    *compile.Env
	Hosts  []*Host
	// Queues are in scheduling order: priority high first, then file
	// order.
	Queues []*Queue
	Apps   map[string]*App

	// DefaultQueues is DEFAULT_QUEUE: the queues tried, in order, for a
	// job submitted without -q.
	DefaultQueues []*Queue
	// MaxDispatch is LSB_MAX_JOB_DISPATCH_PER_SESSION; 0 for no cap.
	MaxDispatch int
	// SleepTime is MBD_SLEEP_TIME in seconds.
	SleepTime float64
	// DepLastSub is JOB_DEP_LAST_SUB=1: a dependency on a job name looks
	// at the most recent job of that name only.
	DepLastSub bool
	// SessionInterval is the least time between two scheduling sessions
	// (the minimum of JOB_SCHEDULING_INTERVAL): when a session stops at
	// LSB_MAX_JOB_DISPATCH_PER_SESSION, the next one starts then.
	SessionInterval float64
	// MaxUserPriority is MAX_USER_PRIORITY; 0 when user priorities are
	// off (bsub -sp is then ignored).
	MaxUserPriority int
	// ReservePerTask is RESOURCE_RESERVE_PER_TASK: rusage amounts are per
	// slot rather than per host.
	ReservePerTask bool
	// MaxJobPreempt is lsb.params MAX_JOB_PREEMPT, 0 for no limit;
	// PreemptFor its PREEMPT_FOR.
	MaxJobPreempt int
	PreemptFor    PreemptFor
	// PreemptExclusive is PREEMPT_JOBTYPE=EXCLUSIVE: exclusive jobs may
	// be preempted.
	PreemptExclusive bool
	// SbdSleep is SBD_SLEEP_TIME in seconds: how often load control looks
	// at a host. StopIgnoreIt is LSB_STOP_IGNORE_IT: the only job on a
	// host may be suspended for load even when nobody uses the host.
	SbdSleep     float64
	StopIgnoreIt bool
	// Fairshare holds the lsb.params factors of user fairshare.
	Fairshare FairshareParams
	// Exceptions holds the lsb.params settings of exception handling.
	Exceptions ExceptionParams
	// SLAs are the service classes of lsb.serviceclasses, in file order.
	SLAs []*SLA

	hostByName  map[string]*Host
	queueByName map[string]*Queue
	// lastEnv is the environment of the job last submitted or restored,
	// which the next job shares when it has the same (internSubmission).
	lastEnv []string
	// goneQueues are the stand-ins of queues the configuration no longer
	// has, by name (see goneQueue).
	goneQueues map[string]*Queue
	slaByName  map[string]*SLA
	limits     []*limitRule
	// The rows of lsb.users' User section: by user, group@ rows, group
	// rows, and default.
	userLimits   map[string]*userLimit
	memberLimits []*userLimit
	groupLimits  []*userLimit
	defaultLimit *userLimit
	// userJobs and groupJobs count the slots held per user and per group
	// with a limit; userPreempted and groupPreempted those of their jobs
	// suspended by preemption.
	userJobs       map[string]int
	groupJobs      map[string]int
	userPreempted  map[string]int
	groupPreempted map[string]int

	// jobGroups holds the job groups by path.
	jobGroups map[string]*JobGroup

	jobs map[int64]*Job
	// order holds the jobs of jobs in the order they came, which is
	// nearly always their ID order, for JobsWhere; those forgotten since
	// (orderDead of them) are dropped at its next walk, or once they
	// are half of it.
	order     []*Job
	orderDead int
	// arrays holds the job arrays by job ID.
	arrays map[int64]*Array
	// forwarded holds the unfinished jobs that are at another cluster
	// (MultiCluster job forwarding), by ID.
	forwarded map[int64]*Job
	nextID    int64
	nextSeq   float64
	minSeq    float64 // the lowest Seq given by btop
	// classes holds the job classes by key, classList in the order they
	// were made; a class no pending job is in is dropped from both before
	// the next cycle (see dropIdleClasses).
	classes   map[string]*jobClass
	classList []*jobClass
	// gen counts the changes to hosts that the scheduler's caches depend
	// on: facts, load, status; loadGen those of them that were loads.
	gen, loadGen uint64
	// reqs holds the effective requirements by queue, submission host
	// type, -R and profile; reqShared, by Requirement.key, the one shared
	// by those of one type whose merged text is the same. reqsKept is the
	// size of reqs after it was last swept of requirements no unfinished
	// job uses.
	reqs      map[string]*Requirement
	reqShared map[string]*Requirement
	// sharedOf maps a host and resource to the shared instance of
	// lsf.cluster's ResourceMap the host belongs to; sharedList holds
	// them all (see Shared).
	sharedOf   map[sharedKey]*SharedInstance
	sharedList []*SharedInstance
	// counted holds, by value-table slot, the static numeric resources
	// of the ResourceMap: what jobs reserve of them is taken from their
	// instances, and a select reads what is left.
	counted  map[int]string
	reqsKept int
	// byUser holds each user's named jobs in submission order, for
	// dependencies on job names.
	byUser map[string][]*Job
	// timed holds, in start order, the started jobs whose rusage
	// reservations change with time.
	timed []*Job
	// started holds every started job, and jobs that were started since
	// it was last walked (see StartedWhere); a job is in it once.
	started []*Job
	// ended holds the finished jobs by their end time, earliest first
	// (see FinishedBefore), and entries of jobs since requeued or
	// forgotten, which it drops when it comes to them.
	ended endHeap
	// preemption is set when some queue may preempt another;
	// preemptedJobs counts the jobs suspended by preemption.
	preemption    bool
	preemptedJobs int
	// resizing holds the started resizable jobs.
	resizing map[*Job]bool
	// loadControl is set when some loadStop threshold, STOP_COND or
	// RESUME_COND can suspend or resume jobs.
	loadControl bool
	// pools are the slot pools, in the order their first queue is
	// defined.
	pools []*slotPool
	// fairshares are the queues' user fairshares (one for the queues of
	// a FAIRSHARE_QUEUES set).
	fairshares []*fairshare
	// accrued is when slot pool and fairshare use were last brought up
	// to date.
	accrued Time
	// jobExceptions is set when some queue has JOB_OVERRUN or JOB_IDLE;
	// excJobs are then the started jobs, in start order. exitHosts are
	// the hosts with exits counting towards their exit rate.
	jobExceptions bool
	excJobs       []*Job
	exitHosts     []*Host
	// reserving are the pending jobs that hold a reservation as of the
	// last cycle, rsvHosts the hosts where they do (see reserve.go).
	reserving []*Job
	rsvHosts  []*Host
	// advRsvs are the advance reservations, by ID (see advrsv.go).
	advRsvs []*AdvRsv
}

// An App is an application profile.
type App struct {
	Name string
	Def  *compile.Application
	// RunLimit is the profile's RUNLIMIT in seconds, 0 for none;
	// Estimate its RUNTIME (or ESTIMATED_RUNTIME), the run time its jobs
	// are expected to take, 0 for none.
	RunLimit float64
	Estimate float64
	// maxPreempt is the profile's MAX_JOB_PREEMPT, 0 when unset.
	maxPreempt int
}

// ClusterOptions configure NewCluster.
type ClusterOptions struct {
	// Hosts are the hosts' facts (from an inventory, or made up for a
	// simulation); nil takes the hosts of the Policy's lsf.cluster.
	Hosts []*compile.Host
	// SlotsPerHost gives MXJ to hosts whose lsb.hosts row says "!" or
	// nothing, when their number of CPUs is unknown; 0 means one slot
	// for "!" and no slot limit for nothing.
	SlotsPerHost int
	// Retired are hosts the configuration no longer has but where jobs
	// still run (see Reconfigure): they are kept, closed for good, until
	// those jobs end.
	Retired []*compile.Host
}

// NewCluster builds the state of a cluster from its Policy. Hosts come in
// name order; each gets the lsb.hosts row that applies to it.
func NewCluster(p *compile.Policy, opts ClusterOptions) (*Cluster, error) {
	c := &Cluster{Policy: p, Env: p.Env(), Apps: map[string]*App{}, hostByName: map[string]*Host{},
		queueByName: map[string]*Queue{}, jobs: map[int64]*Job{}, forwarded: map[int64]*Job{}, nextID: 1, classes: map[string]*jobClass{},
		reqs: map[string]*Requirement{}, reqShared: map[string]*Requirement{}, userLimits: map[string]*userLimit{}, userJobs: map[string]int{},
		groupJobs: map[string]int{}, userPreempted: map[string]int{}, groupPreempted: map[string]int{}}
	if c.Env == nil {
		c.Env = compile.NewEnv(compile.EnvConfig{Unit: compile.MB})
	}
	c.readParams()
	facts := opts.Hosts
	if facts == nil {
		facts = hostsOfPolicy(p)
	}
	if len(facts) == 0 {
		return nil, fmt.Errorf("the cluster has no hosts: give them in lsf.cluster or with an inventory")
	}
	facts = slices.Clone(facts)
	retired := map[string]bool{}
	for _, r := range opts.Retired {
		if !slices.ContainsFunc(facts, func(f *compile.Host) bool { return f.Name == r.Name }) {
			facts = append(facts, r)
			retired[r.Name] = true
		}
	}
	slices.SortFunc(facts, func(a, b *compile.Host) int { return strings.Compare(a.Name, b.Name) })
	for i, f := range facts {
		if c.hostByName[f.Name] != nil {
			return nil, fmt.Errorf("host %q is given twice", f.Name)
		}
		h := &Host{Name: f.Name, Index: i, Facts: f, MaxSlots: -1}
		c.batchSettings(h, opts.SlotsPerHost)
		// maxslots reads MXJ; slots, the free slots, changes with every
		// job and is read afresh where a requirement names it.
		if h.MaxSlots >= 0 {
			f.MaxSlots, f.Slots = float64(h.MaxSlots), float64(h.MaxSlots)
		}
		if !f.Server {
			h.Status = HostClosedAdm
		}
		if retired[h.Name] {
			h.Status, h.Retired = HostClosedAdm, true
		}
		c.Hosts = append(c.Hosts, h)
		c.hostByName[h.Name] = h
	}
	c.readShared()
	for _, h := range c.Hosts {
		h.GPUs = c.declaredGPUs(h)
	}
	defaultAccept := c.acceptDefault()
	for i, cq := range p.Queues {
		q := newQueue(p, cq, i, c.Hosts, c.SleepTime, defaultAccept)
		c.Queues = append(c.Queues, q)
		c.queueByName[q.Name] = q
	}
	slices.SortStableFunc(c.Queues, func(a, b *Queue) int { return b.Priority - a.Priority })
	for _, a := range p.Applications {
		app := &App{Name: a.Name, Def: a}
		if st := a.Settings["RUNLIMIT"]; st != nil {
			if l, ok := st.Value.(*compile.Limit); ok {
				app.RunLimit = l.Max * 60
			}
		}
		for _, key := range []string{"ESTIMATED_RUNTIME", "RUNTIME"} {
			if st := a.Settings[key]; st != nil && app.Estimate == 0 {
				if l, ok := st.Value.(*compile.Limit); ok {
					app.Estimate = l.Max * 60
				}
			}
		}
		if st := a.Settings["MAX_JOB_PREEMPT"]; st != nil {
			if x, ok := st.Value.(float64); ok && x > 0 {
				app.maxPreempt = int(x)
			}
		}
		c.Apps[a.Name] = app
	}
	c.readDefaultQueues()
	c.readUserLimits()
	c.limits = readLimits(p, c)
	c.readPreemption()
	c.readInterruptible()
	if err := c.readPools(); err != nil {
		return nil, err
	}
	c.readFairshare()
	c.readAPS()
	c.readLoadControl()
	c.readExceptions()
	c.readSLAs()
	c.segmentQueues()
	return c, nil
}

// readParams reads the lsb.params and lsf.conf values the scheduler uses.
func (c *Cluster) readParams() {
	p := &c.Policy.Parameters
	c.SleepTime = p.MBDSleepTime.Seconds()
	c.MaxDispatch = c.Policy.LSFConf.MaxJobDispatchPerSession
	c.ReservePerTask = p.ResourceReservePerTask
	c.SessionInterval = max(p.JobSchedulingInterval.Min.Seconds(), 0.001)
	c.MaxUserPriority = p.MaxUserPriority
	c.DepLastSub = p.JobDepLastSub == 1
}

// acceptDefault returns lsb.params JOB_ACCEPT_INTERVAL in seconds (1 ×
// MBD_SLEEP_TIME by default).
func (c *Cluster) acceptDefault() float64 {
	return acceptSeconds(&c.Policy.Parameters.JobAcceptInterval, c.SleepTime)
}

// hostsOfPolicy makes host facts of the Policy's lsf.cluster hosts: type,
// model, Boolean resources and static values; no load.
func hostsOfPolicy(p *compile.Policy) []*compile.Host {
	var out []*compile.Host
	env := p.Env()
	for _, d := range p.Hosts {
		h := &compile.Host{Name: d.Name, Type: d.Type, Model: d.Model, Server: d.Server, Slots: -1, MaxSlots: -1,
			Status: "ok", Booleans: []string{}, Exclusive: []string{}, Numbers: map[string]float64{},
			Strings: map[string]string{}, Load: map[string]float64{}, Reserved: map[string]float64{}, Span: d.Span()}
		for _, m := range p.HostModels {
			if m.Name == d.Model {
				h.Cpuf = m.CPUFactor
			}
		}
		for _, r := range d.Resources {
			name, value, hasValue := strings.Cut(r, "=")
			if strings.HasPrefix(name, "!") {
				h.Exclusive = append(h.Exclusive, name[1:])
				h.Booleans = append(h.Booleans, name[1:])
				continue
			}
			if !hasValue {
				h.Booleans = append(h.Booleans, name)
				continue
			}
			if res, _, ok := env.Lookup(name); ok && res.Type == compile.Numeric {
				var x float64
				if _, err := fmt.Sscan(value, &x); err == nil {
					h.Numbers[name] = x
				}
				continue
			}
			h.Strings[name] = value
		}
		slices.Sort(h.Booleans)
		slices.Sort(h.Exclusive)
		out = append(out, h)
	}
	return out
}

// batchSettings gives a host its lsb.hosts settings: MXJ, JL/U,
// thresholds and dispatch window. MXJ "!" is the host's number of CPUs;
// without MXJ the host takes as many jobs as the inventory says it has
// slots, or --slots-per-host, or its CPUs, or, when none is known, any
// number.
func (c *Cluster) batchSettings(h *Host, slotsPerHost int) {
	row := c.hostRow(h)
	cpus := int(h.Facts.Ncpus)
	if cpus <= 0 {
		cpus = max(1, slotsPerHost)
	}
	h.CPUs = float64(cpus)
	if h.Facts.Ncpus > 0 {
		h.CPUs = h.Facts.Ncpus
	}
	switch {
	case row != nil && row.MXJ != nil && *row.MXJ < 0:
		h.MaxSlots = cpus
	case row != nil && row.MXJ != nil:
		h.MaxSlots = *row.MXJ
	case h.Facts.MaxSlots > 0:
		h.MaxSlots = int(h.Facts.MaxSlots)
	case slotsPerHost > 0:
		h.MaxSlots = slotsPerHost
	case h.Facts.Ncpus > 0:
		h.MaxSlots = int(h.Facts.Ncpus)
	default:
		h.MaxSlots = -1
	}
	if row != nil {
		if row.JLU != nil {
			h.JLU = *row.JLU
		}
		h.Thresholds = row.Thresholds
		h.DispatchWindow = row.DispatchWindow
	}
}

// hostRow returns the lsb.hosts row that applies to a host, or nil.
func (c *Cluster) hostRow(h *Host) *compile.HostBatch {
	if d := c.Policy.Host(h.Name); d != nil {
		return d.Batch
	}
	return c.defaultRow(h)
}

// defaultRow returns the lsb.hosts row for a host the configuration does
// not list: its model's or type's row, else default.
func (c *Cluster) defaultRow(h *Host) *compile.HostBatch {
	var def *compile.HostBatch
	for _, b := range c.Policy.BatchHosts {
		switch {
		case b.Row == h.Facts.Model && h.Facts.Model != "", b.Row == h.Facts.Type && h.Facts.Type != "":
			return b
		case strings.EqualFold(b.Row, "default"):
			def = b
		}
	}
	return def
}

// readDefaultQueues reads DEFAULT_QUEUE.
func (c *Cluster) readDefaultQueues() {
	for _, n := range c.Policy.Parameters.DefaultQueue {
		if q := c.queueByName[n]; q != nil {
			c.DefaultQueues = append(c.DefaultQueues, q)
		}
	}
	if len(c.DefaultQueues) == 0 {
		// Without DEFAULT_QUEUE, LSF puts jobs in a queue named default,
		// which it creates with default settings when lsb.queues has none.
		q := c.queueByName["default"]
		if q == nil {
			q = &Queue{Name: "default", Priority: 1, Open: true, Active: true, AcceptInterval: c.acceptDefault(),
				Order: len(c.Queues), byUser: map[string]int{}}
			c.Queues = append(c.Queues, q)
			c.queueByName[q.Name] = q
			slices.SortStableFunc(c.Queues, func(a, b *Queue) int { return b.Priority - a.Priority })
		}
		c.DefaultQueues = []*Queue{q}
	}
}

// Host returns the host named name, or nil.
func (c *Cluster) Host(name string) *Host { return c.hostByName[name] }

// Queue returns the queue named name, or nil.
func (c *Cluster) Queue(name string) *Queue { return c.queueByName[name] }

// Job returns the job with id, or nil.
func (c *Cluster) Job(id int64) *Job { return c.jobs[id] }

// Jobs returns every job, in ID order.
func (c *Cluster) Jobs() []*Job {
	return c.JobsWhere(func(*Job) bool { return true })
}

// JobsWhere returns the jobs for which keep holds, in ID order. It walks
// the jobs in the order they came (order), which is their ID order but
// where IDs wrapped or a restart restored them otherwise: it then sorts
// them once, and walks them again. Work done every second on a few of
// many jobs (the running ones among a hundred thousand pending) costs
// one look at each job.
func (c *Cluster) JobsWhere(keep func(*Job) bool) []*Job {
	out, sorted := c.walkOrder(keep)
	if !sorted {
		slices.SortFunc(c.order, func(a, b *Job) int { return cmp.Compare(orderKey(a.ID), orderKey(b.ID)) })
		out, _ = c.walkOrder(keep)
	}
	return out
}

// orderKey orders job IDs as compareIDs does: by job ID, then index.
func orderKey(id int64) uint64 {
	job, index := api.SplitID(id)
	return uint64(job)<<32 | uint64(uint32(index))
}

// walkOrder returns the jobs of order for which keep holds, in order,
// and whether order was in ID order; it drops the jobs forgotten.
func (c *Cluster) walkOrder(keep func(*Job) bool) ([]*Job, bool) {
	var out []*Job
	sorted := true
	var last uint64
	live := c.order[:0]
	for _, j := range c.order {
		if c.jobs[j.ID] != j {
			j.ordered = false
			continue
		}
		k := orderKey(j.ID)
		if len(live) > 0 && k < last {
			sorted = false
		}
		last = k
		live = append(live, j)
		if keep(j) {
			out = append(out, j)
		}
	}
	clear(c.order[len(live):])
	c.order, c.orderDead = live, 0
	return out, sorted
}

// putJob holds j in the cluster under its ID, and in order.
func (c *Cluster) putJob(j *Job) {
	c.jobs[j.ID] = j
	if !j.ordered {
		j.ordered = true
		c.order = append(c.order, j)
	}
}

// dropJob lets go of j, which is in the cluster under its ID; order
// drops it at its next walk, or now once the jobs dropped are half of it.
func (c *Cluster) dropJob(j *Job) {
	delete(c.jobs, j.ID)
	if c.orderDead++; c.orderDead > len(c.order)/2 {
		c.walkOrder(func(*Job) bool { return false })
	}
}

// StartedWhere returns the started jobs for which keep holds, in ID
// order, as JobsWhere does, walking the started jobs alone: the daemon's
// housekeeping looks at them every second, and pending and finished jobs
// can be the most by far.
func (c *Cluster) StartedWhere(keep func(*Job) bool) []*Job {
	live := c.started[:0]
	var out []*Job
	for _, j := range c.started {
		if !j.State.Started() || c.jobs[j.ID] != j {
			j.listedStarted = false
			continue
		}
		live = append(live, j)
		if keep(j) {
			out = append(out, j)
		}
	}
	clear(c.started[len(live):])
	c.started = live
	slices.SortFunc(out, compareIDs)
	return out
}

// FinishedBefore returns the finished jobs that ended before t, in ID
// order, as JobsWhere would find them, but for the time it takes: the
// daemon looks every second for the jobs past CLEAN_PERIOD, which it
// then forgets. The jobs returned are no longer kept among those this
// looks at: a call with a later t returns only jobs that finished since,
// or that a caller left finished.
func (c *Cluster) FinishedBefore(t Time) []*Job {
	var out []*Job
	for len(c.ended) > 0 && c.ended[0].end < t {
		e := c.ended.pop()
		if j := e.job; j.State.Finished() && j.End == e.end && c.jobs[j.ID] == j {
			out = append(out, j)
		}
	}
	slices.SortFunc(out, compareIDs)
	return slices.Compact(out)
}

// noteFinished puts a job that finished among those FinishedBefore
// looks at.
func (c *Cluster) noteFinished(j *Job) {
	c.ended.push(endEntry{end: j.End, job: j})
}

// endEntry is a finished job and the end time it had when it finished.
type endEntry struct {
	end Time
	job *Job
}

// endHeap orders finished jobs by end time, earliest first: a binary
// heap kept by hand, whose entries are not boxed as container/heap's.
type endHeap []endEntry

func (h *endHeap) push(e endEntry) {
	*h = append(*h, e)
	s := *h
	for i := len(s) - 1; i > 0; {
		p := (i - 1) / 2
		if s[p].end <= s[i].end {
			break
		}
		s[p], s[i] = s[i], s[p]
		i = p
	}
}

func (h *endHeap) pop() endEntry {
	s := *h
	top := s[0]
	n := len(s) - 1
	s[0] = s[n]
	s[n] = endEntry{}
	s = s[:n]
	for i := 0; ; {
		l, m := 2*i+1, i
		if l < n && s[l].end < s[m].end {
			m = l
		}
		if r := l + 1; r < n && s[r].end < s[m].end {
			m = r
		}
		if m == i {
			break
		}
		s[i], s[m] = s[m], s[i]
		i = m
	}
	*h = s
	return top
}

// noteStarted puts a job that started among those StartedWhere walks.
func (c *Cluster) noteStarted(j *Job) {
	if !j.listedStarted {
		j.listedStarted = true
		c.started = append(c.started, j)
	}
}

// compareIDs orders jobs by job ID, and the elements of an array by
// index.
func compareIDs(a, b *Job) int {
	if c := cmp.Compare(a.JobID(), b.JobID()); c != 0 {
		return c
	}
	return cmp.Compare(a.Index(), b.Index())
}

// TotalSlots returns the job slots of every host that takes jobs.
func (c *Cluster) TotalSlots() int {
	n := 0
	for _, h := range c.Hosts {
		if h.State() == HostOK && h.MaxSlots > 0 {
			n += h.MaxSlots
		}
	}
	return n
}

// A Submission is what bsub gives.
type Submission struct {
	Name string `json:"Name"`
	User string `json:"User"`
	// Group is -G, the user group whose fairshare account the job is
	// charged to; "" for the account the user's shares give.
	Group string `json:"Group"`
	// Queue is -q; "" picks from DEFAULT_QUEUE.
	Queue string `json:"Queue"`
	App   string `json:"App"`
	Slots int    `json:"Slots"`
	// MaxSlots is the maximum of -n min,max (Slots is the minimum); 0
	// when -n gave one number. AutoResize is -ar: the job is
	// autoresizable. ResizeNotify is -rnc, the command run on the first
	// execution host when the job's allocation changes; NotifyTime is, in
	// simulation, how long that command runs.
	MaxSlots     int     `json:"MaxSlots,omitempty"`
	AutoResize   bool    `json:"AutoResize,omitempty"`
	ResizeNotify string  `json:"ResizeNotify,omitempty"`
	NotifyTime   float64 `json:"NotifyTime,omitempty"`
	// ResReq is -R.
	ResReq   string `json:"ResReq"`
	Priority int    `json:"Priority"`
	// RunLimit is -W in seconds; 0 for the queue's.
	RunLimit float64 `json:"RunLimit"`
	// Estimate is -We, the estimated run time in seconds; 0 for the
	// application profile's RUNTIME, if any.
	Estimate float64 `json:"Estimate,omitempty"`
	FromType string  `json:"FromType"`
	Hold     bool    `json:"Hold"`
	// Depend is -w, the dependency condition.
	Depend string `json:"Depend"`
	// Runtime and TraceID are for simulation; so is ExitCode, the exit
	// status of a job that runs to its end (not 0: it ends in EXIT), and
	// CPUTime, the CPU seconds it uses over its Runtime (0 when unknown),
	// from which its idle factor follows.
	Runtime  float64 `json:"Runtime"`
	TraceID  int     `json:"TraceID"`
	ExitCode int     `json:"ExitCode"`
	CPUTime  float64 `json:"CPUTime"`

	// What a real job runs: Command (by /bin/sh) in Cwd with Env and
	// Umask, its output to Stdout and Stderr (-o, -e: %J and %I
	// substituted when it starts); FromHost is the submission host; UID
	// and GID the submitter's.
	Command  string   `json:"Command"`
	Env      []string `json:"Env"`
	Cwd      string   `json:"Cwd"`
	Umask    int      `json:"Umask"`
	Stdout   string   `json:"Stdout"`
	Stderr   string   `json:"Stderr"`
	FromHost string   `json:"FromHost"`
	UID      int      `json:"UID"`
	GID      int      `json:"GID"`
	// Rerunnable is -r: the job runs again when its host is lost (so is
	// every job of a RERUNNABLE queue). MemLimit is -M in MB; MemHard is
	// set for a hard limit (-M N!), which is enforced whatever lsf.conf
	// says.
	Rerunnable bool    `json:"Rerunnable"`
	MemLimit   float64 `json:"MemLimit"`
	MemHard    bool    `json:"MemHard,omitempty"`
	// Hosts is -m: the hosts or host groups the job may use.
	Hosts []string `json:"Hosts"`
	// Exclusive is -x: the job runs alone on its hosts (in a queue with
	// EXCLUSIVE=Y).
	Exclusive bool `json:"Exclusive"`
	// GPU is -gpu as given: a GPU requirement, "-" for the one of the
	// profile, queue and cluster, "" for none.
	GPU string `json:"GPU,omitempty"`
	// Sla is -sla: the service class of lsb.serviceclasses the job is
	// submitted to.
	Sla string `json:"Sla,omitempty"`
	// Project is -P, the project the job is charged to; Submit gives a
	// job without one DEFAULT_PROJECT, else "default".
	Project string `json:"Project,omitempty"`
	// Description is -Jd, the job's free-text description.
	Description string `json:"Description,omitempty"`
	// RequeueExitValues is -Q, the exit values that requeue the job, over
	// its application profile's and queue's REQUEUE_EXIT_VALUES.
	RequeueExitValues string `json:"RequeueExitValues,omitempty"`
	// JobGroup is -g, the full path of the job's job group; "" for none
	// (Submit gives a job without one DEFAULT_JOBGROUP, if set).
	JobGroup string `json:"JobGroup,omitempty"`
	// Reservation is -U, the ID of the advance reservation the job runs
	// in; "" for none.
	Reservation string `json:"Reservation,omitempty"`
	// Exec is how and when the job runs, beyond its command: pre- and
	// post-execution commands, begin and termination times, CPU limit,
	// input file, login shell and output directory; nil for none.
	Exec *JobExec `json:"Exec,omitempty"`
	// Array is, for a job array (-J "name[list]%N"), its index list as
	// written back ("1-10:2,20"), and ArrayLimit its running limit N (0
	// for none); Name is then the array's name, without the list.
	Array      string `json:"Array,omitempty"`
	ArrayLimit int    `json:"ArrayLimit,omitempty"`
	// OutOverwrite and ErrOverwrite are -oo and -eo: the files are
	// emptied when the job starts.
	OutOverwrite bool `json:"OutOverwrite,omitempty"`
	ErrOverwrite bool `json:"ErrOverwrite,omitempty"`
	// Mail is how the job's user is mailed about it (bsub -B, -N, -Ne,
	// -u); nil for LSF's default.
	Mail *JobMail `json:"Mail,omitempty"`
	// Home is, for a job another cluster forwarded here, its submission
	// cluster and its ID there; nil for a job submitted here.
	Home *Home `json:"Home,omitempty"`
	// Interactive is set for an interactive job (bsub -I, -Ip, -Is):
	// where its wrapper reaches the submitting bsub.
	Interactive *Interactive `json:"Interactive,omitempty"`
	// Pre is the requirement compiled before the submission reached the
	// cluster's owner (ReqCompiler.Compile), or nil; the job keeps none.
	Pre *Precompiled `json:"-"`
}

// A JobMail holds the bsub options of a job's mail.
type JobMail struct {
	// Begin is -B: mail when the job is dispatched.
	Begin bool `json:"Begin,omitempty"`
	// End is -N: mail the job report when the job ends, even when it has
	// a -o file; Exit is -Ne: only when it ends in EXIT.
	End  bool `json:"End,omitempty"`
	Exit bool `json:"Exit,omitempty"`
	// User is -u: the addresses (blank-separated) mail goes to in place
	// of the job's user.
	User string `json:"User,omitempty"`
}

// A JobExec holds the bsub options of how and when a job runs.
type JobExec struct {
	// PreExec and PostExec are -E and -Ep.
	PreExec  string `json:"PreExec,omitempty"`
	PostExec string `json:"PostExec,omitempty"`
	// Begin is -b: the job is not dispatched before it. Term is -t: a job
	// still running then is ended (TERM_DEADLINE). 0 for none.
	Begin Time `json:"Begin,omitempty"`
	Term  Time `json:"Term,omitempty"`
	// CPULimit is -c in seconds, normalised to the CPU factor CPUFactor
	// (that of the host or model -c named, else 0: unnormalised).
	CPULimit  float64 `json:"CPULimit,omitempty"`
	CPUSpec   string  `json:"CPUSpec,omitempty"`
	CPUFactor float64 `json:"CPUFactor,omitempty"`
	// ProcLimits are -C, -D, -F and -S, per-process soft limits in KB,
	// and -v (SWAPLIMIT, KB), -p (PROCESSLIMIT) and -T (THREADLIMIT),
	// limits of the whole job, by the name of their lsb.queues limit.
	ProcLimits map[string]int64 `json:"ProcLimits,omitempty"`
	// Input is -i or -is; InputData the file spooled by -is.
	Input     string `json:"Input,omitempty"`
	InputData []byte `json:"InputData,omitempty"`
	// LoginShell is -L, OutDir -outdir.
	LoginShell string `json:"LoginShell,omitempty"`
	OutDir     string `json:"OutDir,omitempty"`
}

// BeginTime returns the job's -b time, 0 for none.
func (j *Job) BeginTime() Time {
	if j.Sub.Exec == nil {
		return 0
	}
	return j.Sub.Exec.Begin
}

// TermTime returns the job's -t time, 0 for none.
func (j *Job) TermTime() Time {
	if j.Sub.Exec == nil {
		return 0
	}
	return j.Sub.Exec.Term
}

// An Interactive is how an interactive job's wrapper reaches the bsub
// that submitted it: Mode is "I", "Ip" or "Is", Addrs the addresses bsub
// listens on and Token its secret for the job; Tty (bsub -tty) sends
// its output to bsub's terminal as well as to its -o and -e files.
type Interactive struct {
	Mode  string   `json:"Mode"`
	Addrs []string `json:"Addrs"`
	Token string   `json:"Token"`
	Tty   bool     `json:"Tty,omitempty"`
}

// A Rejection is why a job was not accepted, as bsub reports it.
type Rejection struct {
	Queue  string
	Reason string
	Diags  lang.Diagnostics
}

func (r *Rejection) Error() string {
	if r.Queue != "" {
		return fmt.Sprintf("queue %s: %s", r.Queue, r.Reason)
	}
	return r.Reason
}

// LSF's answers to a bsub -G that names no user group of lsb.users, and
// one the submitter is not a direct member of.
const (
	BadUserGroup = "Bad user group name. Job not submitted."
	NotInGroup   = "User not in the specified user group. Job not submitted."
)

// DefaultProject returns the project of a job submitted without -P:
// DEFAULT_PROJECT, else "default".
func (c *Cluster) DefaultProject() string {
	if p := c.Policy.Parameters.DefaultProject; p != "" {
		return p
	}
	return "default"
}

// Project returns the job's project: -P, else the DEFAULT_PROJECT it
// was given at submission ("default" for a job of an event log written
// before projects were kept).
func (j *Job) Project() string {
	if j.Sub.Project == "" {
		return "default"
	}
	return j.Sub.Project
}

// CheckUserGroup checks a bsub -G: the group must be a user group of
// lsb.users with user a direct member of it (a member named, or "all",
// and not excluded); members through a subgroup are not. Submit leaves
// this to the caller, for a workload's groups need not be lsb.users'.
func (c *Cluster) CheckUserGroup(group, user string) error {
	switch in, ok := c.directMember(group, user); {
	case !ok:
		return &Rejection{Reason: BadUserGroup}
	case !in:
		return &Rejection{Reason: NotInGroup}
	}
	return nil
}

// directMember reports whether user is a direct member of the user
// group of lsb.users named group (a member named, or "all", and not
// excluded), as bsub -G requires; members through a subgroup are not.
// ok is false when lsb.users has no such group.
func (c *Cluster) directMember(group, user string) (in, ok bool) {
	for _, g := range c.Policy.UserGroups {
		if g.Name != group {
			continue
		}
		for _, it := range g.Members {
			if it.Name == user || strings.EqualFold(it.Name, "all") {
				if it.Exclude {
					return false, true
				}
				in = true
			}
		}
		return in, true
	}
	return false, false
}

// Submit checks a submission and, when a queue accepts it, adds it as a
// pending job. -q may name several queues (bsub -q "short normal"):
// they are tried in the order given, as the queues of DEFAULT_QUEUE are
// without -q, and the first that accepts the job takes it.
func (c *Cluster) Submit(s Submission, now Time) (*Job, error) {
	if s.Project == "" {
		s.Project = c.DefaultProject()
	}
	if s.Slots <= 0 {
		s.Slots = 1
	}
	if s.JobGroup == "" {
		// A default a user's name makes no valid path of leaves the job
		// out of any group rather than refuse it.
		if p, err := CleanJobGroupPath(c.DefaultJobGroup(s)); err == nil {
			s.JobGroup = p
		}
	}
	if s.JobGroup != "" {
		p, err := CleanJobGroupPath(s.JobGroup)
		if err != nil {
			return nil, &Rejection{Reason: err.Error()}
		}
		s.JobGroup = p
		if s.Sla == "" {
			s.Sla = c.jobGroupSLA(p)
		}
	}
	candidates := c.DefaultQueues
	if s.Queue != "" {
		var err error
		if candidates, err = c.queuesNamed(s.Queue); err != nil {
			return nil, err
		}
	} else if len(candidates) == 0 {
		return nil, &Rejection{Reason: "no default queue: submit with -q"}
	}
	var first error
	for _, q := range candidates {
		j, err := c.accept(q, s, now)
		if err == nil {
			return j, nil
		}
		if first == nil {
			first = err
		}
	}
	return nil, first
}

// queuesNamed returns the queues -q names, in its order (bsub -q and bmod
// -q "short normal").
func (c *Cluster) queuesNamed(list string) ([]*Queue, error) {
	var qs []*Queue
	for _, name := range strings.Fields(list) {
		q := c.queueByName[name]
		if q == nil {
			return nil, &Rejection{Reason: fmt.Sprintf("%s: no such queue", name)}
		}
		qs = append(qs, q)
	}
	if len(qs) == 0 {
		return nil, &Rejection{Reason: "-q names no queue"}
	}
	return qs, nil
}

// accept checks a submission against one queue and adds it there.
func (c *Cluster) accept(q *Queue, s Submission, now Time) (*Job, error) {
	a, err := c.check(q, s)
	if err != nil {
		return nil, err
	}
	s.Queue, s.Pre = q.Name, nil
	internSubmission(&s, &c.lastEnv)
	j := &Job{ID: c.nextID, Seq: c.nextSeq, Name: s.Name, User: s.User, Group: s.Group, Queue: q, App: a.app, Sub: s,
		Slots: s.Slots, ResReq: s.ResReq, Req: a.req, Priority: a.priority, Submit: now, FromType: s.FromType,
		State: Pend, Reason: ReasonNew, Runtime: s.Runtime, TraceID: s.TraceID, SimExit: s.ExitCode,
		Depend: s.Depend, dep: a.dep, acct: a.acct, RunLimit: a.runLimit, SLA: a.sla, GPU: a.gpu}
	j.Estimate = estimateOf(s, a.app)
	if s.Hold {
		j.State, j.Reason = PSusp, ReasonHeld
	}
	c.nextID++
	c.nextSeq++
	c.attachSLA(j)
	c.add(j)
	c.useRequirement(j)
	c.joinJobGroup(j)
	return j, nil
}

// add records a new job and puts it in its queue.
func (c *Cluster) add(j *Job) {
	c.putJob(j)
	if j.Name != "" {
		if c.byUser == nil {
			c.byUser = map[string][]*Job{}
		}
		c.byUser[j.User] = append(c.byUser[j.User], j)
	}
	c.enqueue(j)
}

// Check checks a submission against a queue as Submit does, without
// adding a job: nil when the queue would take it, else a *Rejection that
// says why.
func (c *Cluster) Check(q *Queue, s Submission) error {
	_, err := c.check(q, s)
	return err
}

// An acceptance is what a queue's checks of a submission work out.
type acceptance struct {
	app      *App
	gpu      *lang.GPUReq
	req      *Requirement
	dep      *dependency
	acct     *account
	sla      *SLA
	priority int
	runLimit float64
}

// check checks a submission against a queue, as bsub's acceptance does.
func (c *Cluster) check(q *Queue, s Submission) (*acceptance, error) {
	reject := func(format string, args ...any) error {
		return &Rejection{Queue: q.Name, Reason: fmt.Sprintf(format, args...)}
	}
	if s.Slots <= 0 {
		s.Slots = 1
	}
	switch {
	case !q.Open:
		return nil, reject("the queue is closed")
	case !q.Accepts(s.User):
		return nil, reject("user %s cannot use the queue (USERS)", s.User)
	case s.Exclusive && (q.Def == nil || !q.Def.Exclusive):
		return nil, reject("the queue does not accept exclusive jobs (-x needs EXCLUSIVE = Y)")
	}
	a := &acceptance{}
	if s.Sla != "" {
		if a.sla = c.slaByName[s.Sla]; a.sla == nil {
			return nil, &Rejection{Reason: fmt.Sprintf("%s: no such service class (lsb.serviceclasses)", s.Sla)}
		}
		if a.sla.timeBased() && a.sla.users != nil && !a.sla.users(s.User) {
			return nil, &Rejection{Reason: fmt.Sprintf("user %s cannot submit to service class %s (USER_GROUP)", s.User, s.Sla)}
		}
	}
	if s.App != "" {
		if a.app = c.Apps[s.App]; a.app == nil {
			return nil, reject("%s: no such application profile", s.App)
		}
	}
	if max, ok := c.procLimit(q, a.app); ok && s.Slots > max {
		return nil, reject("%d slots asked for, but the queue allows at most %d (PROCLIMIT/TASKLIMIT)", s.Slots, max)
	}
	if total := c.usableSlots(q); total > 0 && s.Slots > total {
		return nil, reject("%d slots asked for, but the queue's hosts have %d", s.Slots, total)
	}
	if q.QJobLimit > 0 && s.Slots > q.QJobLimit {
		return nil, reject("too many processors requested: %d slots, and the queue's job slot limit (QJOB_LIMIT) is %d", s.Slots, q.QJobLimit)
	}
	if q.UJobLimit > 0 && s.Slots > q.UJobLimit {
		return nil, reject("too many processors requested: %d slots, and the queue's per-user job slot limit (UJOB_LIMIT) is %d", s.Slots, q.UJobLimit)
	}
	if q.MaxRunLimit > 0 && s.RunLimit > q.MaxRunLimit {
		return nil, reject("the run limit %s exceeds the queue's maximum run limit %s (RUNLIMIT)", minutes(s.RunLimit), minutes(q.MaxRunLimit))
	}
	if q.MaxCPULimit > 0 && s.Exec != nil && s.Exec.CPULimit > q.MaxCPULimit {
		return nil, reject("the CPU time limit %s (-c) exceeds the queue's maximum CPU time limit %s (CPULIMIT)", minutes(s.Exec.CPULimit), minutes(q.MaxCPULimit))
	}
	if err := checkProcLimits(q, s.Exec); err != nil {
		return nil, reject("%v", err)
	}
	if max, ok := c.memLimit(q, a.app); ok && s.MemLimit > max {
		job, queue := compile.FormatMemoryPair(s.MemLimit, max)
		return nil, reject("the memory limit %s (-M) exceeds the queue's MEMLIMIT of %s", job, queue)
	}
	a.priority = s.Priority
	switch {
	case c.MaxUserPriority <= 0:
		// User priorities are off: -sp is ignored.
		a.priority = 0
	case s.Priority == 0:
		a.priority = c.MaxUserPriority / 2
	case s.Priority < 0 || s.Priority > c.MaxUserPriority:
		return nil, reject("job priority %d is out of range: MAX_USER_PRIORITY is %d", s.Priority, c.MaxUserPriority)
	}
	gpu, err := c.jobGPU(q, a.app, s.GPU)
	if err != nil {
		return nil, reject("%v", err)
	}
	a.gpu = gpu
	req, diags := c.requirement(q, a.app, s.ResReq, s.FromType, s.Pre)
	if diags.HasErrors() {
		return nil, &Rejection{Queue: q.Name, Reason: "bad resource requirement: " + diags.Err().Error(), Diags: diags}
	}
	a.req = req
	if msg := c.checkResizable(q, a.app, req, s); msg != "" {
		return nil, &Rejection{Queue: q.Name, Reason: msg}
	}
	if max, ok := c.procLimit(q, a.app); ok && s.MaxSlots > max {
		return nil, reject("%d slots asked for, but the queue allows at most %d (PROCLIMIT/TASKLIMIT)", s.MaxSlots, max)
	}
	if q.fair != nil {
		if a.acct = q.fair.accountFor(s.User, s.Group); a.acct == nil {
			return nil, reject("%s", fairRejection(s.User))
		}
	}
	if strings.TrimSpace(s.Depend) != "" {
		var err error
		if a.dep, err = c.resolveDependency(s.Depend, s.User); err != nil {
			return nil, &Rejection{Queue: q.Name, Reason: err.Error()}
		}
	}
	if len(s.Hosts) > 0 {
		asked, err := c.askedHosts(q, s.Hosts, true)
		switch {
		case err != nil:
			return nil, reject("%s", err.Error())
		case len(asked) == 0:
			return nil, reject("none of the hosts asked for (-m) is a host of the queue")
		}
	}
	a.runLimit = s.RunLimit
	if a.runLimit <= 0 {
		a.runLimit = q.RunLimit
		if a.app != nil && a.app.RunLimit > 0 {
			a.runLimit = a.app.RunLimit
		}
	}
	return a, nil
}

// memLimit returns the most memory (MB) a job of the queue may ask for
// with -M: MEMLIMIT of the profile, else of the queue.
func (c *Cluster) memLimit(q *Queue, app *App) (float64, bool) {
	if l := memLimitOf(q, app); l != nil && l.Max > 0 {
		return l.Max, true
	}
	return 0, false
}

// memLimitOf returns the MEMLIMIT of the profile, else of the queue (in
// MB, as compiled), or nil.
func memLimitOf(q *Queue, app *App) *compile.Limit {
	var sets []compile.Settings
	if app != nil && app.Def != nil {
		sets = append(sets, app.Def.Settings)
	}
	if q != nil && q.Def != nil {
		sets = append(sets, q.Def.Settings)
	}
	for _, set := range sets {
		if st := set["MEMLIMIT"]; st != nil {
			if l, ok := st.Value.(*compile.Limit); ok {
				return l
			}
		}
	}
	return nil
}

// MemLimit returns the memory limit a job runs under, in MB: its -M,
// else the MEMLIMIT of its application profile, else of its queue (the
// default value of "MEMLIMIT = default maximum", else the maximum); 0
// for none.
func (j *Job) MemLimit() float64 {
	if j.Sub.MemLimit > 0 {
		return j.Sub.MemLimit
	}
	l := memLimitOf(j.Queue, j.App)
	switch {
	case l == nil:
		return 0
	case l.Default != nil && *l.Default > 0:
		return *l.Default
	}
	return l.Max
}

// procLimit returns the most slots a job may ask for in the queue
// (TASKLIMIT, else PROCLIMIT, of the profile then the queue).
func (c *Cluster) procLimit(q *Queue, app *App) (int, bool) {
	var sets []compile.Settings
	if app != nil {
		sets = append(sets, app.Def.Settings)
	}
	if q.Def != nil {
		sets = append(sets, q.Def.Settings)
	}
	for _, set := range sets {
		for _, key := range []string{"TASKLIMIT", "PROCLIMIT"} {
			if st := set[key]; st != nil {
				if l, ok := st.Value.(*compile.Limit); ok {
					return int(l.Max), true
				}
			}
		}
	}
	return 0, false
}

// usableSlots returns the slots of the hosts a queue may use, or 0 when
// some host is unlimited.
func (c *Cluster) usableSlots(q *Queue) int {
	if q.usableGen == c.gen+1 {
		return q.usable
	}
	q.usable, q.usableGen = c.countUsableSlots(q), c.gen+1
	return q.usable
}

// countUsableSlots counts what usableSlots returns.
func (c *Cluster) countUsableSlots(q *Queue) int {
	n := 0
	for _, h := range c.Hosts {
		if !q.UsesHost(h) || h.State() != HostOK {
			continue
		}
		if h.MaxSlots < 0 {
			return 0
		}
		n += h.MaxSlots
	}
	return n
}

// classOf returns the pending class of a queue, requirement (by its key:
// a text compiled for one submission host type), share account (nil
// outside fairshare queues), asked hosts (-m) and exclusiveness (-x).
func (c *Cluster) classOf(q *Queue, r *Requirement, a *account, asked map[string]bool, exclusive bool, sla *SLA, gpu *lang.GPUReq, rsv string) *jobClass {
	key := q.Name + "\x00"
	if r != nil {
		key += r.key
	}
	if a != nil {
		key += "\x00" + a.path
	}
	if asked != nil {
		key += "\x00-m " + strings.Join(slices.Sorted(maps.Keys(asked)), " ")
	}
	if exclusive {
		key += "\x00-x"
	}
	if sla != nil {
		key += "\x00-sla " + sla.Name
	}
	if gpu != nil {
		key += "\x00-gpu " + gpu.String()
	}
	if rsv != "" {
		key += "\x00-U " + rsv
	}
	k := c.classes[key]
	if k == nil {
		k = &jobClass{key: key, queue: q, req: r, acct: a, asked: asked, exclusive: exclusive, sla: sla, gpu: gpu, rsv: rsv}
		c.classes[key] = k
		c.classList = append(c.classList, k)
	}
	return k
}

// start records that a pending job runs on allocs from now on.
func (c *Cluster) start(j *Job, allocs []Alloc, now Time) {
	c.accrue(now)
	if j.class != nil {
		j.class.remove(j)
	}
	j.Queue.countPending(j, -1)
	j.slaStart()
	j.State, j.Reason, j.Start, j.Allocs = Run, ReasonNone, now, allocs
	j.RunSince = now
	c.startResizable(j)
	c.occupy(j, now)
	c.watchTimed(j)
	c.noteStarted(j)
	for _, a := range allocs {
		a.Host.LastDispatch = now
	}
}

// occupy adds what a started job holds, as of now: its slots,
// reservations and limits (holdJob), its share account's charge, and its
// place among the started jobs of a queue with a run window. leaveHosts
// takes it back.
func (c *Cluster) occupy(j *Job, now Time) {
	c.holdJob(j, 1, now)
	c.watchExceptions(j)
	if j.acct != nil {
		j.acct.chargeStart(j, j.Slots)
	}
	if q := j.Queue; len(q.RunWindow) > 0 {
		if q.started == nil {
			q.started = map[*Job]bool{}
		}
		q.started[j] = true
	}
}

// watchTimed keeps a started job whose rusage reservations change with
// time among those ageReservations brings up to date.
func (c *Cluster) watchTimed(j *Job) {
	if slices.ContainsFunc(j.Req.amounts(), reservation.timed) {
		c.timed = append(c.timed, j)
	}
}

// holdJob adds (sign 1) or releases (sign -1) what a started job holds:
// slots on its hosts, in its queue and for its user, resource
// reservations, and its share of lsb.resources limits.
func (c *Cluster) holdJob(j *Job, sign int, now Time) {
	n := 0
	for _, a := range j.Allocs {
		a.Host.hold(j, sign*a.Slots)
		if j.Sub.Exclusive {
			a.Host.exclusive += sign
		}
		n += a.Slots
		c.reserve(j, a, float64(sign), now)
	}
	j.Queue.Used += sign * n
	j.Queue.byUser[j.User] += sign * n
	if j.Queue.byUser[j.User] == 0 {
		delete(j.Queue.byUser, j.User)
	}
	c.userJobs[j.User] += sign * n
	for _, g := range c.groupsOf(j.User) {
		c.groupJobs[g.name] += sign * n
	}
	j.holdJobGroup(sign)
	for _, l := range c.limits {
		l.account(j, sign)
	}
}

// reserve adds (sign 1) or removes (sign -1) a job's rusage
// reservations on one host, at their amounts now. What it adds is kept on
// the job, so that removing takes back exactly that.
func (c *Cluster) reserve(j *Job, a Alloc, sign float64, now Time) {
	if sign < 0 {
		for _, hv := range j.held {
			if hv.host == a.Host {
				c.addReserved(hv.host, hv.name, -hv.v)
			}
		}
		j.held = slices.DeleteFunc(j.held, func(hv heldAmount) bool { return hv.host == a.Host })
		return
	}
	if j.Req == nil {
		return
	}
	elapsed := float64(now - j.Start)
	for _, am := range j.Req.amounts() {
		v := am.at(elapsed) * c.perHost(am.Per, a.Slots, j.Slots)
		if res, _, _ := c.Env.Lookup(am.Name); res != nil && res.Memory {
			v *= c.Env.Unit.Megabytes()
		}
		if v == 0 {
			continue
		}
		c.addReserved(a.Host, am.Name, v)
		j.held = append(j.held, heldAmount{a.Host, am.Name, v})
	}
}

// addReserved adds v to what jobs hold of resource name on h: on h
// alone, or on every host of the shared instance h belongs to.
func (c *Cluster) addReserved(h *Host, name string, v float64) {
	if s := c.sharedInstance(h, name); s != nil {
		for _, m := range s.Hosts {
			addHeld(m.Facts, name, v)
		}
		return
	}
	addHeld(h.Facts, name, v)
}

func addHeld(f *compile.Host, name string, v float64) {
	if f.Reserved == nil {
		f.Reserved = map[string]float64{}
	}
	r := f.Reserved
	r[name] += v
	if r[name] <= 1e-9 {
		delete(r, name)
	}
}

// ageReservations brings the reservations of running jobs whose rusage
// has a duration, decay or phases to their amounts at now. It returns
// when they next change: the end of a duration or phase, or now plus the
// session interval while an amount decays; Never when none will.
func (c *Cluster) ageReservations(now Time) Time {
	next := Never
	for _, j := range c.timedJobs() {
		for _, a := range j.Allocs {
			c.reserve(j, a, -1, now)
			c.reserve(j, a, 1, now)
		}
		elapsed := float64(now - j.Start)
		for _, am := range j.Req.amounts() {
			at, decaying := am.nextChange(elapsed)
			switch {
			case decaying:
				next = min(next, now.Add(c.SessionInterval), j.Start.Add(at))
			case at >= 0:
				next = min(next, j.Start.Add(at))
			}
		}
	}
	return next
}

// pending counts the pending jobs.
func (c *Cluster) pending() int {
	n := 0
	for _, q := range c.Queues {
		n += q.Pending
	}
	return n
}

// timedJobs returns the started jobs whose reservations change with time,
// in start order, forgetting those that ended.
func (c *Cluster) timedJobs() []*Job {
	out := c.timed[:0]
	for _, j := range c.timed {
		if j.State.Started() {
			out = append(out, j)
		}
	}
	c.timed = out
	return out
}

// perHost returns how many times an rusage amount counts on a host that
// gives the job slots of its total: once per host by default, once per
// slot with RESOURCE_RESERVE_PER_TASK or /task, and the job's share with
// /job.
func (c *Cluster) perHost(per string, slots, total int) float64 {
	switch per {
	case "task":
		return float64(slots)
	case "job":
		return float64(slots) / float64(max(1, total))
	case "host":
		return 1
	}
	if c.ReservePerTask {
		return float64(slots)
	}
	return 1
}

// finish records that a job ended in state (DONE or EXIT) at now.
func (c *Cluster) finish(j *Job, state JobState, now Time) {
	c.accrue(now)
	switch {
	case j.Remote != nil:
		// At another cluster: it holds nothing here.
		delete(c.forwarded, j.ID)
	case j.State.Started():
		c.countExit(j, state, now)
		c.leaveHosts(j, now)
		c.stopResizable(j, false)
	case j.State.Pending():
		c.dequeue(j)
	}
	j.slaFinish(now)
	j.State, j.End = state, now
	c.useRequirement(j)
	c.leaveJobGroup(j, now)
	c.noteFinished(j)
}

// leaveHosts releases what a started job holds: its slots, reservations
// and limits, its preemption, its share account's charge.
func (c *Cluster) leaveHosts(j *Job, now Time) {
	c.unmarkPreempted(j)
	c.holdJob(j, -1, now)
	j.slaLeave()
	delete(j.Queue.started, j)
	if j.acct != nil {
		j.acct.chargeEnd(j, j.Slots)
	}
}

// SetHostStatus changes a host's status (badmin hclose, hopen; a host
// that stops answering).
func (c *Cluster) SetHostStatus(h *Host, s HostStatus) {
	if h.Retired {
		return // closed until its jobs end
	}
	if h.Status != s {
		h.Status = s
		c.gen++
	}
	if s == HostOK {
		h.ExitClosed = false
	}
}

// SetLoad replaces a host's load indices (from its execution agent or
// this machine).
func (c *Cluster) SetLoad(h *Host, load map[string]float64) {
	h.Facts.Load = load
	h.Gen++
	c.gen++
	c.loadGen++
}

// Top moves a pending job before the other pending jobs (btop): it is
// considered first among jobs of its priority.
func (c *Cluster) Top(j *Job) error {
	if !j.State.Pending() {
		return fmt.Errorf("job %d is not pending", j.ID)
	}
	if err := notForwarded(j, "moved"); err != nil {
		return err
	}
	c.minSeq--
	c.reorder(j, c.minSeq)
	return nil
}

// Bottom moves a pending job after the other pending jobs (bbot).
func (c *Cluster) Bottom(j *Job) error {
	if !j.State.Pending() {
		return fmt.Errorf("job %d is not pending", j.ID)
	}
	if err := notForwarded(j, "moved"); err != nil {
		return err
	}
	c.reorder(j, c.nextSeq)
	c.nextSeq++
	return nil
}

// reorder gives a pending job a new place in its class.
func (c *Cluster) reorder(j *Job, seq float64) {
	k := j.class
	if k != nil {
		k.remove(j)
	}
	j.Seq = seq
	if k != nil {
		k.add(j)
	}
}

// Hold stops a pending job from being dispatched (bstop on a pending job:
// PSUSP).
func (c *Cluster) Hold(j *Job) error {
	if j.State != Pend {
		return fmt.Errorf("job %d is not pending", j.ID)
	}
	if err := notForwarded(j, "stopped"); err != nil {
		return err
	}
	j.State, j.Reason = PSusp, ReasonHeld
	if j.class != nil {
		j.class.held(j)
	}
	return nil
}

// Release lets a held job be dispatched again (bresume on PSUSP).
func (c *Cluster) Release(j *Job) error {
	if j.State != PSusp {
		return fmt.Errorf("job %d is not held", j.ID)
	}
	j.State, j.Reason = Pend, ReasonNew
	if j.class != nil {
		j.class.held(j)
	}
	// A job suspended for its failed remote starts gets
	// LSB_MC_INITFAIL_RETRY more, and one suspended for its failed
	// pre-execution commands LOCAL_MAX_PREEXEC_RETRY more.
	j.MCFailures, j.PreExecFailures = 0, 0
	return nil
}

// SetExternalStatus sets a job's external status (bstatus), which
// external() dependency conditions test.
func (c *Cluster) SetExternalStatus(j *Job, status string) { j.ExternalStatus = status }

// Kill ends a job as bkill does: a pending job leaves its queue, a
// started one its hosts; either ends in EXIT with status 130 (killed by
// a signal, as a job killed by SIGINT reports).
func (c *Cluster) Kill(j *Job, now Time) error {
	if j.State.Finished() {
		return fmt.Errorf("job %d has already finished", j.ID)
	}
	j.ExitCode, j.Term = 130, "TERM_OWNER"
	c.finish(j, Exit, now)
	return nil
}

// minutes prints a run limit given in seconds as LSF writes it: [hh:]mm.
func minutes(sec float64) string {
	m := int(sec / 60)
	if m >= 60 {
		return fmt.Sprintf("%d:%02d", m/60, m%60)
	}
	return fmt.Sprintf("%d", m)
}
