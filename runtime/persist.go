package runtime

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lsfc/lsfc/compile"
)

// A JobImage is everything about a job that outlives the daemon: what it
// was submitted with and where it stands. The event log keeps images of
// new jobs and, when it is compacted, of every job it keeps.
type JobImage struct {
	ID  int64      `json:"ID"`
	Seq float64    `json:"Seq"`
	Sub Submission `json:"Sub"`
	// Submit, Start and End are the job's times; Allocs its hosts and
	// slots while it holds them.
	Submit         Time         `json:"Submit"`
	Start          Time         `json:"Start"`
	End            Time         `json:"End"`
	State          JobState     `json:"State"`
	Reason         Reason       `json:"Reason"`
	Allocs         []AllocImage `json:"Allocs"`
	ExitCode       int          `json:"ExitCode"`
	Term           string       `json:"Term"`
	PreemptCount   int          `json:"PreemptCount"`
	Ran            float64      `json:"Ran"`
	RunSince       Time         `json:"RunSince"`
	ExternalStatus string       `json:"ExternalStatus"`
	// RunLimit is the run limit a started job runs under (the one of the
	// configuration it started with); 0 for a pending job, whose limit
	// comes from its queue.
	RunLimit float64 `json:"RunLimit"`
	// APSSystem and APSAdmin are an administrator's APS values (bmod
	// -aps), nil and 0 for none.
	APSSystem *float64 `json:"APSSystem,omitempty"`
	APSAdmin  float64  `json:"APSAdmin,omitempty"`
	// Exceptions are the job exceptions the job raised.
	Exceptions Exception `json:"Exceptions,omitempty"`
	// CPUTime and MaxMem are what the job's processes used (seconds, MB),
	// once its execution reported it.
	CPUTime float64 `json:"CPUTime,omitempty"`
	MaxMem  float64 `json:"MaxMem,omitempty"`
	// Remote is where a forwarded job is; MCFailures its failed remote
	// start attempts.
	Remote     *Remote `json:"Remote,omitempty"`
	MCFailures int     `json:"MCFailures,omitempty"`
	// PreExecFailures counts the job's failed pre-execution commands,
	// PreExecHost the host of the last; PostExec is how its
	// post-execution commands ended (POST_DONE, POST_ERR), "" when they
	// have not.
	PreExecFailures int    `json:"PreExecFailures,omitempty"`
	PostExec        string `json:"PostExec,omitempty"`
	PreExecHost     string `json:"PreExecHost,omitempty"`
	// ExitRequeues counts the job's requeues on its exit values;
	// AvoidHosts are the hosts an exclusive requeue keeps it from.
	ExitRequeues int      `json:"ExitRequeues,omitempty"`
	AvoidHosts   []string `json:"AvoidHosts,omitempty"`
	// Withdrawn is set on a received job its home recalled.
	Withdrawn bool `json:"Withdrawn,omitempty"`
	// KilledDone is set on a started job bkill -d is killing.
	KilledDone bool `json:"KilledDone,omitempty"`
	// RequeueHold is set on a started job brequeue -H kills: it pends
	// again held once its processes end.
	RequeueHold bool `json:"RequeueHold,omitempty"`
	// Resize is, for a started resizable job, its resizing; nil for any
	// other.
	Resize *ResizeImage `json:"Resize,omitempty"`
}

// A ResizeImage is what a started resizable job keeps of its resizing:
// whether it is autoresizable, its pending request, the slots granted
// whose notification command runs (part of the job's Allocs), and
// whether that command runs and holds back a suspend signal.
type ResizeImage struct {
	Auto       bool           `json:"Auto,omitempty"`
	Req        *ResizeRequest `json:"Req,omitempty"`
	Grant      []AllocImage   `json:"Grant,omitempty"`
	Notify     string         `json:"Notify,omitempty"`
	Notifying  bool           `json:"Notifying,omitempty"`
	HoldSignal bool           `json:"HoldSignal,omitempty"`
	// Notice is the number of the job's notification that runs, or of
	// its last (see Job.Notice).
	Notice int `json:"Notice,omitempty"`
}

// An AllocImage is an Alloc by host name.
type AllocImage struct {
	Host  string `json:"Host"`
	Slots int    `json:"Slots"`
	// GPUs are the indices of the host's GPUs the job holds there.
	GPUs []int `json:"GPUs,omitempty"`
}

// Image returns the image of a job.
func (j *Job) Image() JobImage {
	im := JobImage{ID: j.ID, Seq: j.Seq, Sub: j.Sub, Submit: j.Submit, Start: j.Start, End: j.End, State: j.State,
		Reason: j.Reason, ExitCode: j.ExitCode, Term: j.Term, PreemptCount: j.PreemptCount, Ran: j.Ran,
		RunSince: j.RunSince, ExternalStatus: j.ExternalStatus, APSSystem: j.apsSystem, APSAdmin: j.apsAdmin,
		Exceptions: j.Exceptions, MaxMem: j.MaxMem, MCFailures: j.MCFailures, Withdrawn: j.Withdrawn,
		PreExecFailures: j.PreExecFailures, PostExec: j.PostExec, PreExecHost: j.PreExecHost, RequeueHold: j.RequeueHold,
		KilledDone: j.KilledDone, ExitRequeues: j.ExitRequeues, AvoidHosts: slices.Clone(j.AvoidHosts)}
	if j.Remote != nil {
		r := *j.Remote
		r.Hosts = slices.Clone(r.Hosts)
		im.Remote = &r
	}
	if j.cpuKnown {
		im.CPUTime = j.CPUTime
	}
	if j.State == Unknown {
		// UNKWN says the host does not answer now, which the next daemon
		// learns afresh: the image keeps the state the job had.
		im.State = j.known
	}
	im.Sub.Queue = j.Queue.Name
	if j.State.Started() {
		im.RunLimit = j.RunLimit
	}
	for _, a := range j.Allocs {
		im.Allocs = append(im.Allocs, AllocImage{a.Host.Name, a.Slots, slices.Clone(a.GPUs)})
	}
	if rs := j.resize; rs != nil {
		ri := &ResizeImage{Auto: rs.auto, Notifying: rs.notifying, HoldSignal: rs.holdSignal, Notice: rs.notice}
		if rs.req != nil {
			r := *rs.req
			ri.Req = &r
		}
		if g := rs.grant; g != nil {
			ri.Notify = g.Notify
			for _, a := range g.Allocs {
				ri.Grant = append(ri.Grant, AllocImage{Host: a.Host.Name, Slots: a.Slots})
			}
		}
		im.Resize = ri
	}
	return im
}

// LostAndFound is the queue that takes the pending jobs whose queue no
// longer exists, as LSF's lost_and_found does: it accepts no submission
// and dispatches nothing until an administrator moves the jobs (bswitch).
// Started jobs of a queue that is gone stay where they are, under their
// queue's name, until they end.
const LostAndFound = "lost_and_found"

// bareQueue returns a queue no configuration describes: of the lowest
// priority, closed and inactive.
func bareQueue(name string, order int) *Queue {
	return &Queue{Name: name, Priority: 1, Open: false, Active: false, Order: order, byUser: map[string]int{}}
}

// lostAndFound returns the lost_and_found queue, making it on first use.
func (c *Cluster) lostAndFound() *Queue {
	if q := c.queueByName[LostAndFound]; q != nil {
		return q
	}
	q := bareQueue(LostAndFound, len(c.Queues))
	c.Queues = append(c.Queues, q)
	c.queueByName[q.Name] = q
	slices.SortStableFunc(c.Queues, func(a, b *Queue) int { return b.Priority - a.Priority })
	c.segmentQueues()
	return q
}

// goneQueue returns the stand-in of a queue the configuration no longer
// has, making it on first use. It holds, under the queue's name, the
// started and finished jobs that were in it (and, while a log is
// replayed, its pending ones until MoveLost); it is not among the
// cluster's queues, so no command finds it by name and nothing is
// dispatched from it.
func (c *Cluster) goneQueue(name string) *Queue {
	if q := c.goneQueues[name]; q != nil {
		return q
	}
	q := bareQueue(name, -1)
	q.Retired = true
	if c.goneQueues == nil {
		c.goneQueues = map[string]*Queue{}
	}
	c.goneQueues[name] = q
	return q
}

// goneHost returns a stand-in for a host the configuration no longer has,
// which a finished job names as where it ran.
func goneHost(name string) *Host {
	return &Host{Name: name, Index: -1, Facts: &compile.Host{Name: name}, Status: HostClosedAdm, Retired: true}
}

// MoveLost moves the pending jobs whose queue is gone to lost_and_found
// and returns them, in job number order; it is what a reconfiguration
// does once every job is restored, and what follows the replay of an
// event log on a configuration without some of its queues. A job
// forwarded to another cluster stays where it is until it comes back.
func (c *Cluster) MoveLost() []*Job {
	var moved []*Job
	for _, j := range c.Jobs() {
		if j.Queue.Retired && j.State.Pending() && j.Remote == nil {
			c.toLostAndFound(j)
			moved = append(moved, j)
		}
	}
	return moved
}

// ToLostAndFound moves a pending job to lost_and_found, as the event log
// replays a move MoveLost made.
func (c *Cluster) ToLostAndFound(j *Job) error {
	switch {
	case !j.State.Pending():
		return fmt.Errorf("job %d is not pending", j.ID)
	case j.Remote != nil:
		return notForwarded(j, "moved")
	}
	c.toLostAndFound(j)
	return nil
}

func (c *Cluster) toLostAndFound(j *Job) {
	c.dequeue(j)
	q := c.lostAndFound()
	j.Queue, j.Sub.Queue, j.acct = q, q.Name, nil
	c.enqueue(j)
}

// Restore brings back a job from its image, as the event log replays it:
// with its number, its queue (kept under its name when the configuration
// no longer has it, until MoveLost takes the pending jobs of such queues
// to lost_and_found), its state and the hosts it holds or, finished, ran
// on. A job is restored whatever the current configuration says of it —
// it was accepted once; what cannot be resolved any more (a profile, a
// requirement, a dependency, the host of an unfinished job) is dropped and
// said in the returned warning.
func (c *Cluster) Restore(im JobImage) (*Job, string, error) {
	if im.ID <= 0 {
		return nil, "", fmt.Errorf("job image without a job number")
	}
	if c.jobs[im.ID] != nil {
		return nil, "", fmt.Errorf("job %d is restored twice", im.ID)
	}
	var warn []string
	s := im.Sub
	internSubmission(&s, &c.lastEnv)
	if s.Slots <= 0 {
		s.Slots = 1
	}
	q := c.queueByName[s.Queue]
	switch {
	case q != nil:
	case s.Queue == LostAndFound || s.Queue == "":
		q = c.lostAndFound()
	default:
		// A job whose queue is gone keeps its queue's name: a started or
		// finished one for good, a pending one until MoveLost (a log's
		// replay restores jobs pending before their start record).
		q = c.goneQueue(s.Queue)
	}
	j := &Job{ID: im.ID, Seq: im.Seq, Name: s.Name, User: s.User, Group: s.Group, Queue: q, Sub: s, Slots: s.Slots,
		ResReq: s.ResReq, Priority: s.Priority, Submit: im.Submit, FromType: s.FromType, Depend: s.Depend,
		State: im.State, Reason: im.Reason, Start: im.Start, End: im.End, ExitCode: im.ExitCode, Term: im.Term,
		PreemptCount: im.PreemptCount, Ran: im.Ran, RunSince: im.RunSince, ExternalStatus: im.ExternalStatus,
		Runtime: s.Runtime, TraceID: s.TraceID, SimExit: s.ExitCode, RunLimit: s.RunLimit,
		apsSystem: im.APSSystem, apsAdmin: im.APSAdmin, Exceptions: im.Exceptions, MaxMem: im.MaxMem,
		MCFailures: im.MCFailures, Withdrawn: im.Withdrawn, RequeueHold: im.RequeueHold,
		PreExecFailures: im.PreExecFailures, PostExec: im.PostExec, PreExecHost: im.PreExecHost, KilledDone: im.KilledDone,
		ExitRequeues: im.ExitRequeues, AvoidHosts: slices.Clone(im.AvoidHosts)}
	if im.Remote != nil {
		r := *im.Remote
		j.Remote = &r
	}
	if im.CPUTime > 0 {
		j.CPUTime, j.cpuKnown = im.CPUTime, true
	}
	j.Sub.Queue = q.Name
	if s.App != "" {
		if j.App = c.Apps[s.App]; j.App == nil {
			warn = append(warn, fmt.Sprintf("application profile %s is gone", s.App))
		}
	}
	if j.RunLimit <= 0 {
		j.RunLimit = q.RunLimit
		if j.App != nil && j.App.RunLimit > 0 {
			j.RunLimit = j.App.RunLimit
		}
	}
	j.Estimate = estimateOf(s, j.App)
	if im.RunLimit > 0 && j.State.Started() {
		j.RunLimit = im.RunLimit
	}
	req, diags := c.requirement(q, j.App, s.ResReq, s.FromType)
	if diags.HasErrors() {
		warn = append(warn, "its resource requirement no longer compiles: "+diags.Err().Error())
	} else {
		j.Req = req
	}
	if gpu, err := c.jobGPU(q, j.App, s.GPU); err != nil {
		warn = append(warn, "its GPU requirement no longer holds: "+err.Error())
	} else {
		j.GPU = gpu
	}
	if q.fair != nil {
		j.acct = q.fair.accountFor(s.User, s.Group)
	}
	if s.Sla != "" {
		if j.SLA = c.slaByName[s.Sla]; j.SLA == nil {
			warn = append(warn, fmt.Sprintf("service class %s is gone", s.Sla))
		}
	}
	if strings.TrimSpace(s.Depend) != "" && j.State.Pending() {
		dep, err := c.resolveDependency(s.Depend, s.User)
		if err != nil {
			warn = append(warn, "its dependency no longer resolves: "+err.Error())
		}
		j.dep = dep
	}
	var allocs []Alloc
	for _, a := range im.Allocs {
		h := c.hostByName[a.Host]
		switch {
		case h == nil && j.State.Finished():
			// A finished job keeps the names of the hosts it ran on.
			h = goneHost(a.Host)
		case h == nil:
			warn = append(warn, fmt.Sprintf("host %s is gone", a.Host))
			continue
		}
		allocs = append(allocs, Alloc{Host: h, Slots: a.Slots, GPUs: slices.Clone(a.GPUs)})
	}
	c.putJob(j)
	c.useRequirement(j)
	if j.Name != "" {
		if c.byUser == nil {
			c.byUser = map[string][]*Job{}
		}
		c.byUser[j.User] = append(c.byUser[j.User], j)
	}
	c.attachSLA(j)
	c.joinJobGroup(j)
	c.nextID = max(c.nextID, j.JobID()+1)
	c.nextSeq = max(c.nextSeq, j.Seq+1)
	c.joinArray(j)
	c.minSeq = min(c.minSeq, j.Seq)
	switch {
	case j.Remote != nil:
		// At another cluster: it holds nothing here and is not
		// scheduled here.
		if !j.State.Finished() {
			c.forwarded[j.ID] = j
		}
	case j.State.Pending():
		c.enqueueIn(j)
	case j.State.Finished():
		// It holds nothing; bjobs and bacct show where it ran.
		j.Allocs = allocs
	case j.State.Started():
		if len(allocs) == 0 {
			// Its hosts are gone: it goes back to pending.
			j.State, j.Reason = Pend, ReasonNew
			c.enqueueIn(j)
			break
		}
		state, reason := j.State, j.Reason
		j.State, j.Allocs = Run, allocs
		c.restoreResizable(j, im.Resize)
		if j.SLA != nil {
			j.SLA.running = append(j.SLA.running, j)
		}
		c.occupy(j, j.Start)
		c.watchTimed(j)
		j.State, j.Reason = state, reason
		if state == SSusp && reason == ReasonPreempted {
			c.markPreempted(j)
		}
	}
	switch {
	case j.State.Started():
		c.noteStarted(j)
	case j.State.Finished():
		c.noteFinished(j)
	}
	return j, strings.Join(warn, "; "), nil
}

// NextID returns the number the next job will get. Numbers are never
// reused: SetNextID raises it (never lowers it), as the event log's
// snapshot keeps it.
func (c *Cluster) NextID() int64 { return c.nextID }

// SetNextID raises the number the next job gets to at least id.
func (c *Cluster) SetNextID(id int64) { c.nextID = max(c.nextID, id) }

// Start records that a pending job started on allocs at now, as a cycle's
// dispatch does (the event log replays it).
func (c *Cluster) Start(j *Job, allocs []Alloc, now Time) error {
	if !j.State.Pending() {
		return fmt.Errorf("job %d is not pending", j.ID)
	}
	c.start(j, allocs, now)
	return nil
}

// Finish records that a job ended in state (DONE or EXIT) with its exit
// code, and how it was ended (term, "" when it ran to its end).
func (c *Cluster) Finish(j *Job, state JobState, code int, term string, now Time) error {
	if j.State.Finished() {
		return fmt.Errorf("job %d has already finished", j.ID)
	}
	if state != Done && state != Exit {
		return fmt.Errorf("a job finishes in DONE or EXIT, not %s", state)
	}
	j.ExitCode, j.Term = code, term
	c.finish(j, state, now)
	return nil
}

// Suspend suspends a running job (SSUSP) for a reason: preemption,
// load, STOP_COND, a run window; or by its owner or an administrator
// (USUSP, with ReasonNone).
func (c *Cluster) Suspend(j *Job, reason Reason, now Time) error {
	if j.State != Run {
		return fmt.Errorf("job %d is not running", j.ID)
	}
	switch reason {
	case ReasonPreempted:
		c.suspendPreempted(j, now)
	case ReasonNone:
		j.Ran += float64(now - j.RunSince)
		j.State, j.Reason = USusp, ReasonNone
		j.Epoch++
	default:
		c.suspendForLoad(j, reason, now)
	}
	return nil
}

// Resume lets a suspended job run again.
func (c *Cluster) Resume(j *Job, now Time) error {
	switch {
	case j.State == SSusp && j.preempted:
		c.resumePreempted(j, now)
	case j.State == SSusp || j.State == USusp:
		c.resumeFromLoad(j, now)
	default:
		return fmt.Errorf("job %d is not suspended", j.ID)
	}
	return nil
}

// Forget drops a finished job from the cluster (after CLEAN_PERIOD).
func (c *Cluster) Forget(j *Job) {
	if !j.State.Finished() {
		return
	}
	c.dropJob(j)
	c.leaveArray(j)
	if list := c.byUser[j.User]; list != nil {
		c.byUser[j.User] = slices.DeleteFunc(list, func(x *Job) bool { return x == j })
	}
}

// QueueImage and HostImage are the states operators set on queues and
// hosts, which the event log keeps.
type QueueImage struct {
	Open, Active bool
}

// Control returns the operators' state of every queue and closed host.
func (c *Cluster) Control() (map[string]QueueImage, map[string]HostStatus) {
	qs := map[string]QueueImage{}
	for _, q := range c.Queues {
		qs[q.Name] = QueueImage{q.Open, q.Active}
	}
	hs := map[string]HostStatus{}
	for _, h := range c.Hosts {
		if h.Status != HostOK {
			hs[h.Name] = h.Status
		}
	}
	return qs, hs
}
