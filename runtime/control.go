package runtime

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
)

// askedHosts resolves -m: host names and host groups of lsb.hosts, kept to
// the hosts the queue may use. With strict, an unknown name is an error;
// otherwise it is left out.
func (c *Cluster) askedHosts(q *Queue, names []string, strict bool) (map[string]bool, error) {
	out := map[string]bool{}
	for _, n := range names {
		n = strings.TrimSuffix(n, "!")
		if i := strings.LastIndexByte(n, '+'); i > 0 {
			n = n[:i] // a preference: host+2
		}
		if h := c.hostByName[n]; h != nil {
			if q.UsesHost(h) {
				out[n] = true
			}
			continue
		}
		found := false
		for _, g := range slices.Concat(c.Policy.HostGroups, c.Policy.ComputeUnits) {
			if g.Name != n {
				continue
			}
			found = true
			for _, hn := range g.Hosts {
				if h := c.hostByName[hn]; h != nil && q.UsesHost(h) {
					out[hn] = true
				}
			}
		}
		if !found && !strings.EqualFold(n, "others") && !strings.EqualFold(n, "all") {
			if !strict {
				continue // gone since the job was accepted
			}
			return nil, fmt.Errorf("%s: no such host or host group (-m)", n)
		}
		if strings.EqualFold(n, "all") || strings.EqualFold(n, "others") {
			for _, h := range c.Hosts {
				if q.UsesHost(h) {
					out[h.Name] = true
				}
			}
		}
	}
	return out, nil
}

// askedHostsFilter keeps a job to the hosts it asked for with -m.
type askedHostsFilter struct{}

func (askedHostsFilter) Name() string { return "-m" }
func (askedHostsFilter) Filter(_ CycleState, kv ClassInfo, hv HostInfo) Reason {
	k, h := kv.k, hv.h
	if k.asked != nil && !k.asked[h.Name] {
		return ReasonHostNotAsked
	}
	return ReasonNone
}

// Rerunnable reports whether a job runs again when its host is lost: -r,
// or its queue's RERUNNABLE. An interactive job never is: its terminal
// went with its host.
func (j *Job) Rerunnable() bool {
	return j.Sub.Interactive == nil && (j.Sub.Rerunnable || j.Queue.Def != nil && j.Queue.Def.Rerunnable)
}

// Requeue puts a started job back in its queue, pending, as when its host
// is lost and it is rerunnable (or brequeue): it leaves its hosts and
// keeps its place by submission.
func (c *Cluster) Requeue(j *Job, now Time) error {
	if !j.State.Started() {
		return fmt.Errorf("job %d is not started", j.ID)
	}
	c.accrue(now)
	c.leaveHosts(j, now)
	c.stopResizable(j, true)
	j.State, j.Reason, j.Allocs, j.Start, j.Ran, j.Epoch = Pend, ReasonNew, nil, 0, 0, j.Epoch+1
	j.Term, j.RequeueHold = "", false
	// A requeued job is a new one to absolute priority scheduling: the
	// administrator's values go.
	j.apsSystem, j.apsAdmin = nil, 0
	c.enqueue(j)
	return nil
}

// PreExecFailed puts a started job whose pre-execution command failed
// back to pending, as LSF retries it: PEND with its reason, or PSUSP once
// suspend is set (the retry limit is reached). The host where it failed
// is the job's last choice next time (PreExecHost).
func (c *Cluster) PreExecFailed(j *Job, suspend bool, now Time) error {
	var host string
	if len(j.Allocs) > 0 {
		host = j.Allocs[0].Host.Name
	}
	if err := c.Requeue(j, now); err != nil {
		return err
	}
	// It is tried on another host when one can take it.
	j.PreExecHost = host
	j.PreExecFailures++
	j.Reason = ReasonPreExec
	if suspend {
		if err := c.Hold(j); err != nil {
			return err
		}
		j.Reason = ReasonPreExecLimit
	}
	return nil
}

// enqueue puts a job that is pending again in its queue's class; a job
// whose queue is gone (a started job requeued, a forwarded one back)
// goes to lost_and_found.
func (c *Cluster) enqueue(j *Job) {
	if j.Queue.Retired {
		q := c.lostAndFound()
		j.Queue, j.Sub.Queue, j.acct = q, q.Name, nil
	}
	c.enqueueIn(j)
}

// enqueueIn puts a pending job in its queue's class, whatever the queue.
func (c *Cluster) enqueueIn(j *Job) {
	q := j.Queue
	q.countPending(j, 1)
	var asked map[string]bool
	if len(j.Sub.Hosts) > 0 {
		// Hosts removed since the job was accepted are left out; a job
		// none of whose hosts is left waits, as LSF's does, rather than
		// run anywhere.
		asked, _ = c.askedHosts(q, j.Sub.Hosts, false)
	}
	if len(j.AvoidHosts) > 0 {
		// An exclusive requeue keeps the job from the hosts it exited
		// on: it asks for the others.
		if asked == nil {
			asked = map[string]bool{}
			for name, h := range c.hostByName {
				if q.UsesHost(h) {
					asked[name] = true
				}
			}
		} else {
			asked = maps.Clone(asked)
		}
		for _, name := range j.AvoidHosts {
			delete(asked, name)
		}
	}
	j.slaPend()
	c.classOf(q, j.Req, j.acct, asked, j.Sub.Exclusive, j.SLA, j.GPU, j.Sub.Reservation).add(j)
}

// Switch moves a job to another queue (bswitch). The job must be accepted
// by the new queue as a submission would be (its dependency aside, which
// no queue changes). A pending job is then as if submitted there: the new
// queue's default run limit applies when it gave none. A started job
// keeps its hosts and its limits, and its slots count in the new queue
// from now on.
func (c *Cluster) Switch(j *Job, name string, now Time) error {
	q := c.queueByName[name]
	switch {
	case q == nil:
		return fmt.Errorf("%s: no such queue", name)
	case j.State.Finished():
		return fmt.Errorf("job %d has already finished", j.ID)
	case q == j.Queue:
		return nil
	case j.Remote != nil:
		return notForwarded(j, "switched")
	}
	sub := j.Sub
	sub.Queue, sub.Depend = q.Name, ""
	a, err := c.check(q, sub)
	if err != nil {
		return err
	}
	if j.State.Started() {
		// It leaves its hosts from the old queue and takes them again in
		// the new one; a preempted job stays preempted, now counted as
		// the new queue's.
		preempted := j.preempted
		c.accrue(now)
		c.leaveHosts(j, now)
		j.Queue, j.Req, j.Sub.Queue, j.GPU, j.acct = q, a.req, q.Name, a.gpu, a.acct
		c.useRequirement(j)
		c.occupy(j, now)
		if preempted {
			c.markPreempted(j)
		}
		return nil
	}
	c.dequeue(j)
	j.Queue, j.Req, j.Sub.Queue, j.GPU, j.acct, j.RunLimit = q, a.req, q.Name, a.gpu, a.acct, a.runLimit
	c.useRequirement(j)
	c.enqueue(j)
	return nil
}

// dequeue takes a pending job out of its queue's class.
func (c *Cluster) dequeue(j *Job) {
	if j.class != nil {
		j.class.remove(j)
	}
	j.Queue.countPending(j, -1)
	j.slaUnpend()
}

// countPending counts a job in (d = 1) or out of (d = -1) the queue's
// pending jobs.
func (q *Queue) countPending(j *Job, d int) {
	q.Pending += d
	q.pendingSlots += d * j.Slots
	if j.Sub.Home != nil {
		q.inbound += d
	}
	if j.State == PSusp {
		q.held += d
	}
}

// A Modification is what bmod changes in a job (a pending one; of a
// started one, its run limit alone); nil fields are left as they are.
type Modification struct {
	// Queue is bmod -q: the queues the job may move to, tried in the order
	// given (bsub -q's list); the first that accepts the job takes it.
	Queue    *string   `json:"Queue,omitempty"`
	Name     *string   `json:"Name"`
	ResReq   *string   `json:"ResReq"`
	Slots    *int      `json:"Slots"`
	RunLimit *float64  `json:"RunLimit"`
	Priority *int      `json:"Priority"`
	Depend   *string   `json:"Depend"`
	Hosts    *[]string `json:"Hosts"`
	// Project is bmod -P; Group bmod -G, the user group charged; JobGroup
	// bmod -g (a path) or -gn ("": out of any group).
	Project  *string `json:"Project,omitempty"`
	Group    *string `json:"Group,omitempty"`
	JobGroup *string `json:"JobGroup,omitempty"`
	// Description is bmod -Jd, or -Jdn ("": no description).
	Description *string `json:"Description,omitempty"`
	// GPU is bmod -gpu, the job's own GPU requirement ("-" for the
	// default; "" for none of its own, bmod -gpun).
	GPU *string `json:"GPU,omitempty"`
	// Reservation is bmod -U (an advance reservation's ID) or -Un ("":
	// out of any reservation).
	Reservation *string `json:"Reservation,omitempty"`
	// Mail changes the job's mail options (bmod -B, -Bn, -N, -Ne, -Nn,
	// -u, -un); nil changes none.
	Mail *MailChange `json:"Mail,omitempty"`
}

// A MailChange is what bmod changes of a job's mail options: each field
// set replaces the option's value.
type MailChange struct {
	Begin *bool   `json:"Begin,omitempty"`
	End   *bool   `json:"End,omitempty"`
	Exit  *bool   `json:"Exit,omitempty"`
	User  *string `json:"User,omitempty"`
}

// apply returns the mail options m changes to: nil when none is left.
func (ch *MailChange) apply(m *JobMail) *JobMail {
	var out JobMail
	if m != nil {
		out = *m
	}
	if ch.Begin != nil {
		out.Begin = *ch.Begin
	}
	if ch.End != nil {
		out.End = *ch.End
	}
	if ch.Exit != nil {
		out.Exit = *ch.Exit
	}
	if ch.User != nil {
		out.User = *ch.User
	}
	if out == (JobMail{}) {
		return nil
	}
	return &out
}

// Modify changes a pending job (bmod). The changed job must still be one
// its queue (or the first of m.Queue that takes it) accepts; nothing
// changes when it is not. Of a started job, only the run limit changes
// (modifyStarted).
func (c *Cluster) Modify(j *Job, m Modification) error {
	if j.State.Started() {
		return c.modifyStarted(j, m)
	}
	if !j.State.Pending() {
		return fmt.Errorf("job %d is not pending: only a pending job can be modified", j.ID)
	}
	if err := notForwarded(j, "modified"); err != nil {
		return err
	}
	sub := j.Sub
	if m.Name != nil {
		sub.Name = *m.Name
	}
	if m.ResReq != nil {
		sub.ResReq = *m.ResReq
	}
	if m.Slots != nil {
		sub.Slots = *m.Slots
	}
	if m.RunLimit != nil {
		sub.RunLimit = *m.RunLimit
	}
	if m.Priority != nil {
		sub.Priority = *m.Priority
	}
	if m.Depend != nil {
		sub.Depend = *m.Depend
	}
	if m.Hosts != nil {
		sub.Hosts = *m.Hosts
	}
	if m.Project != nil {
		sub.Project = *m.Project
		if sub.Project == "" {
			sub.Project = c.DefaultProject()
		}
	}
	if m.Description != nil {
		sub.Description = *m.Description
	}
	if m.Group != nil {
		sub.Group = *m.Group
		if sub.Group != "" {
			if err := c.CheckUserGroup(sub.Group, j.User); err != nil {
				return err
			}
		}
	}
	if m.GPU != nil {
		sub.GPU = *m.GPU
	}
	if m.Mail != nil {
		sub.Mail = m.Mail.apply(sub.Mail)
	}
	if m.JobGroup != nil {
		sub.JobGroup = *m.JobGroup
		if sub.JobGroup != "" {
			p, err := CleanJobGroupPath(sub.JobGroup)
			if err != nil {
				return err
			}
			sub.JobGroup = p
		}
	}
	if m.Reservation != nil {
		sub.Reservation = *m.Reservation
	}
	if sub.Slots <= 0 {
		sub.Slots = 1
	}
	// The modified job must pass its queue's checks as a submission: its
	// own queue's, or those of the first queue of -q that accepts it.
	queues := []*Queue{j.Queue}
	if m.Queue != nil {
		var err error
		if queues, err = c.queuesNamed(*m.Queue); err != nil {
			return err
		}
	}
	var (
		a     *acceptance
		q     *Queue
		first error
	)
	for _, q = range queues {
		sub.Queue = q.Name
		var err error
		if a, err = c.check(q, sub); err == nil {
			break
		}
		if first == nil {
			first = err
		}
	}
	if a == nil {
		return first
	}
	c.dequeue(j)
	j.Queue = q
	moved := sub.JobGroup != j.Sub.JobGroup
	if moved {
		// When is not known here: the group's idle time starts at the
		// next bgdel -d that looks at it.
		c.leaveJobGroup(j, 0)
		j.jgroup = nil
	}
	j.Name, j.ResReq, j.Slots, j.Depend, j.Sub = sub.Name, sub.ResReq, sub.Slots, sub.Depend, sub
	j.Req, j.dep, j.Priority, j.RunLimit, j.GPU = a.req, a.dep, a.priority, a.runLimit, a.gpu
	j.Group, j.acct = sub.Group, a.acct
	j.Estimate = estimateOf(sub, j.App)
	if moved {
		c.joinJobGroup(j)
	}
	c.useRequirement(j)
	if j.Name != "" && !slices.Contains(c.byUser[j.User], j) {
		if c.byUser == nil {
			c.byUser = map[string][]*Job{}
		}
		c.byUser[j.User] = append(c.byUser[j.User], j)
	}
	c.enqueue(j)
	return nil
}

// modifyStarted changes what bmod may change of a started job: its run
// limit, when lsf.conf sets LSB_MOD_ALL_JOBS=Y. The new limit counts from
// the job's start, as the old one did, and may not pass the queue's
// maximum (RUNLIMIT).
func (c *Cluster) modifyStarted(j *Job, m Modification) error {
	rest := m
	rest.RunLimit = nil
	switch {
	case !c.Policy.LSFConf.ModAllJobs:
		return fmt.Errorf("job %d has started: only a pending job can be modified (LSB_MOD_ALL_JOBS=Y in lsf.conf lets bmod -W change a started job's run limit)", j.ID)
	case m.RunLimit == nil || rest != Modification{}:
		return fmt.Errorf("job %d has started: only its run limit (-W) can be changed", j.ID)
	case j.Remote != nil:
		return notForwarded(j, "modified")
	case j.Queue.MaxRunLimit > 0 && *m.RunLimit > j.Queue.MaxRunLimit:
		return fmt.Errorf("the run limit %s exceeds the queue's maximum run limit %s (RUNLIMIT)", minutes(*m.RunLimit), minutes(j.Queue.MaxRunLimit))
	}
	j.Sub.RunLimit, j.RunLimit = *m.RunLimit, *m.RunLimit
	return nil
}

// SetQueueOpen opens or closes a queue to submissions (badmin qopen,
// qclose).
func (c *Cluster) SetQueueOpen(q *Queue, open bool) { q.Open = open }

// SetQueueActive activates or inactivates a queue's dispatching (badmin
// qact, qinact).
func (c *Cluster) SetQueueActive(q *Queue, active bool) { q.Active = active }

// exclusiveLimiter keeps exclusive jobs (bsub -x) alone on their hosts:
// no job goes to a host that runs one, and one goes only to a host that
// runs no other job (suspended ones included).
type exclusiveLimiter struct{}

func (exclusiveLimiter) Name() string { return "EXCLUSIVE" }
func (exclusiveLimiter) Room(st CycleState, kv ClassInfo, _ JobInfo, hv HostInfo) (int, Reason) {
	c, k, h := st.c, kv.k, hv.h
	if h.exclusive > 0 || c.exclusiveOn[h.Index] {
		return 0, ReasonHostExclusive
	}
	if k.exclusive && (h.Used > 0 || c.hostUsed[h.Index] > 0) {
		return 0, ReasonHostNotIdle
	}
	return math.MaxInt32, ReasonNone
}
