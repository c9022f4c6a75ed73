package runtime

import (
	"cmp"
	"container/heap"
	"fmt"
	"maps"
	"math"
	"slices"
)

// A Remote is where a job of this cluster went when it was forwarded to
// another cluster (MultiCluster job forwarding): the receive-jobs queue,
// the job's ID there once that queue took it, and the hosts it runs on
// there, named host@cluster.
type Remote struct {
	Cluster string `json:"Cluster"`
	Queue   string `json:"Queue"`
	// ID is the job's ID in the execution cluster; 0 until its queue
	// accepted the job.
	ID int64 `json:"ID,omitempty"`
	// SentAt is when the job was forwarded; AcceptedAt when the remote
	// queue took it (0 before).
	SentAt     Time `json:"SentAt"`
	AcceptedAt Time `json:"AcceptedAt,omitempty"`
	// Hosts are the job's execution hosts, host@cluster, once it started
	// there.
	Hosts []string `json:"Hosts,omitempty"`
}

// A Forwarder is Phase II of MultiCluster job forwarding as a cycle sees
// it: for a pending job of a send-jobs queue that no local host takes, it
// names the remote queue the job goes to, or the reason it stays
// pending. Each job it sends somewhere counts in that queue's room for
// the rest of the cycle.
type Forwarder interface {
	Forward(j *Job) (to Forward, why Reason)
}

// A ForwardLimiter is a Forwarder that can tell when no job of a
// send-jobs queue can go anywhere for the rest of the cycle (every
// destination unreachable or full), and why: the cycle then stops
// offering that queue's jobs, and its jobs that wait for hosts show
// why. A why of ReasonNone keeps their local reasons (the queue has no
// destination at all).
type ForwardLimiter interface {
	Forwarder
	Exhausted(queue string) (why Reason, exhausted bool)
}

// A Forward is a pending job a cycle sends to a receive-jobs queue of
// another cluster.
type Forward struct {
	Job            *Job
	Cluster, Queue string
}

// forwardable reports whether a pending job of a send-jobs queue that
// the cycle did not dispatch waits for hosts (and so may go to another
// cluster), rather than for something no cluster changes: a dependency,
// a hold, a closed queue or window, a limit.
func forwardable(r Reason) bool {
	switch r {
	case ReasonNew, ReasonSlots, ReasonNoHosts, ReasonSpanHosts:
		return true
	}
	return r.HostLevel()
}

// planForwards hands the pending jobs of send-jobs queues that the cycle
// could not dispatch to the forwarder, in dispatch order (queue
// priority, then the order of each queue's jobs), and records where each
// goes or why it stays. A queue's jobs are merged from its classes as
// they are offered, so that a queue whose destinations fill up (a
// ForwardLimiter says so) costs what was offered, not all its jobs.
func (c *cycle) planForwards() {
	f := c.snap.Forward
	if f == nil {
		return
	}
	limiter, _ := f.(ForwardLimiter)
	dispatched := map[*Job]bool{}
	for _, d := range c.plan.Dispatches {
		dispatched[d.Job] = true
	}
	for _, q := range c.cluster.Queues {
		if q.Def == nil || !q.Def.Sends() || q.Pending == 0 {
			continue
		}
		m := &classMerge{}
		for _, k := range c.cluster.classList {
			if k.queue == q && k.live > 0 {
				m.add(k)
			}
		}
		for {
			if limiter != nil {
				if why, done := limiter.Exhausted(q.Name); done {
					if why != ReasonNone {
						c.setForwardReason(q, why)
					}
					break
				}
			}
			j := m.next()
			if j == nil {
				break
			}
			// A job of an advance reservation waits for the
			// reservation's slots here: another cluster would run it
			// outside it.
			if j.State != Pend || j.Remote != nil || dispatched[j] || j.Sub.Reservation != "" || !forwardable(c.plan.Reason(j)) {
				continue
			}
			to, why := f.Forward(j)
			if to.Cluster == "" {
				if why != ReasonNone {
					c.setReason(j, why)
				}
				continue
			}
			to.Job = j
			c.plan.Forwards = append(c.plan.Forwards, to)
			c.setReason(j, sentReason(j))
		}
	}
}

// setForwardReason records why the jobs of send-jobs queue q that wait
// for hosts and were not offered to the forwarder stay.
func (c *cycle) setForwardReason(q *Queue, r Reason) {
	if c.plan.forwardReason == nil {
		c.plan.forwardReason = map[*Queue]Reason{}
	}
	c.plan.forwardReason[q] = r
}

// A classMerge yields the jobs of several classes of one queue in the
// queue's order, one at a time.
type classMerge struct {
	cursors []classCursor
}

type classCursor struct {
	k   *jobClass
	pos int
}

func (m *classMerge) add(k *jobClass) {
	if cur := (classCursor{k: k}); cur.skip() {
		heap.Push(m, cur)
	}
}

// skip moves the cursor to the class's next job that is not held;
// false when there is none. The class's demand tree passes over held
// jobs and the places of jobs that left in one step.
func (cur *classCursor) skip() bool {
	cur.pos = cur.k.tree.first(cur.pos, math.MaxFloat64)
	return cur.pos >= 0
}

// next returns the next job in order, or nil.
func (m *classMerge) next() *Job {
	if len(m.cursors) == 0 {
		return nil
	}
	cur := &m.cursors[0]
	j := cur.k.jobs[cur.pos]
	cur.pos++
	if cur.skip() {
		heap.Fix(m, 0)
	} else {
		heap.Pop(m)
	}
	return j
}

func (m *classMerge) Len() int { return len(m.cursors) }
func (m *classMerge) Less(a, b int) bool {
	x, y := m.cursors[a], m.cursors[b]
	return x.k.order(x.k.jobs[x.pos], y.k.jobs[y.pos]) < 0
}
func (m *classMerge) Swap(a, b int) { m.cursors[a], m.cursors[b] = m.cursors[b], m.cursors[a] }
func (m *classMerge) Push(x any)    { m.cursors = append(m.cursors, x.(classCursor)) }
func (m *classMerge) Pop() any {
	x := m.cursors[len(m.cursors)-1]
	m.cursors = m.cursors[:len(m.cursors)-1]
	return x
}

// sentReason is the reason of a job just forwarded: that it is being
// forwarded, or, for a job that came back and is sent again, why it came
// back, until a remote queue takes it.
func sentReason(j *Job) Reason {
	switch j.Reason {
	case ReasonMCRejected, ReasonMCUnreachable, ReasonMCRecalled:
		return j.Reason
	}
	return ReasonMCSent
}

// notForwarded refuses an operation on a job that is at another cluster.
func notForwarded(j *Job, what string) error {
	if j.Remote != nil {
		return fmt.Errorf("job %d is forwarded to cluster %s: it cannot be %s here", j.ID, j.Remote.Cluster, what)
	}
	return nil
}

// Forward records that a pending job was sent to a receive-jobs queue of
// another cluster at now: it leaves its local queue's pending jobs (it
// takes no local slot and is not scheduled here) and shows PEND, waiting
// for the remote queue's answer.
func (c *Cluster) Forward(j *Job, cluster, queue string, now Time) error {
	switch {
	case j.State != Pend:
		return fmt.Errorf("job %d is %s: only a pending job is forwarded", j.ID, j.State)
	case j.Remote != nil:
		return fmt.Errorf("job %d is already forwarded to %s@%s", j.ID, j.Remote.Queue, j.Remote.Cluster)
	case cluster == "" || queue == "":
		return fmt.Errorf("job %d: forwarded to no queue", j.ID)
	}
	c.dequeue(j)
	j.Remote = &Remote{Cluster: cluster, Queue: queue, SentAt: now}
	c.forwarded[j.ID] = j
	j.Reason = sentReason(j)
	return nil
}

// ForwardAccepted records that the remote queue took a forwarded job,
// which has the ID remoteID there; it pends there now.
func (c *Cluster) ForwardAccepted(j *Job, remoteID int64, now Time) error {
	switch {
	case j.Remote == nil:
		return fmt.Errorf("job %d is not forwarded", j.ID)
	case remoteID <= 0:
		return fmt.Errorf("job %d: remote job ID %d", j.ID, remoteID)
	case j.Remote.ID != 0 && j.Remote.ID != remoteID:
		return fmt.Errorf("job %d is already job %d of cluster %s", j.ID, j.Remote.ID, j.Remote.Cluster)
	}
	if j.Remote.ID == 0 {
		j.Remote.ID, j.Remote.AcceptedAt = remoteID, now
	}
	if j.State == Pend {
		j.Reason = ReasonMCRemotePend
	}
	return nil
}

// ForwardReturned takes back a forwarded job that has not started
// remotely (rejected, recalled, unreachable): it
// pends here again with reason, or is suspended (PSUSP) when suspend is
// set, and is scheduled anew. A return that counts is a failed start
// attempt (LSB_MC_INITFAIL_RETRY): the job's MCFailures grow.
func (c *Cluster) ForwardReturned(j *Job, reason Reason, counts, suspend bool) error {
	switch {
	case j.Remote == nil:
		return fmt.Errorf("job %d is not forwarded", j.ID)
	case j.State != Pend:
		return fmt.Errorf("job %d is %s at cluster %s: it cannot return", j.ID, j.State, j.Remote.Cluster)
	}
	j.Remote = nil
	delete(c.forwarded, j.ID)
	if counts {
		j.MCFailures++
	}
	j.State, j.Reason = Pend, reason
	if suspend {
		j.State = PSusp
	}
	c.enqueue(j)
	return nil
}

// RemoteStarted records that a forwarded job started in its execution
// cluster at now on hosts (host@cluster): it shows RUN here, holding no
// local slot.
func (c *Cluster) RemoteStarted(j *Job, hosts []string, now Time) error {
	switch {
	case j.Remote == nil:
		return fmt.Errorf("job %d is not forwarded", j.ID)
	case j.Remote.ID == 0:
		return fmt.Errorf("job %d has not been accepted by cluster %s", j.ID, j.Remote.Cluster)
	case j.State != Pend:
		return fmt.Errorf("job %d is %s: it cannot start", j.ID, j.State)
	}
	c.accrue(now)
	j.Remote.Hosts = slices.Clone(hosts)
	j.State, j.Reason, j.Start, j.RunSince = Run, ReasonNone, now, now
	c.noteStarted(j)
	return nil
}

// RemoteState records that a forwarded job that runs remotely changed
// state there: RUN, or suspended (USUSP, SSUSP). It holds nothing here
// either way.
func (c *Cluster) RemoteState(j *Job, state JobState) error {
	switch {
	case j.Remote == nil || !j.State.Started():
		return fmt.Errorf("job %d is not running at another cluster", j.ID)
	case state != Run && state != USusp && state != SSusp:
		return fmt.Errorf("job %d: a job running at another cluster is RUN, USUSP or SSUSP there, not %s", j.ID, state)
	}
	j.State, j.Reason = state, ReasonNone
	c.noteStarted(j)
	return nil
}

// RemoteRequeued records that a forwarded job that ran remotely pends
// there again (its execution cluster requeued it).
func (c *Cluster) RemoteRequeued(j *Job) error {
	if j.Remote == nil || !j.State.Started() {
		return fmt.Errorf("job %d is not running at another cluster", j.ID)
	}
	j.Remote.Hosts = nil
	j.State, j.Reason, j.Start, j.Epoch = Pend, ReasonMCRemotePend, 0, j.Epoch+1
	return nil
}

// Forwarded returns the jobs at other clusters, in ID order: pending,
// running there, or sent and not yet answered.
func (c *Cluster) Forwarded() []*Job {
	out := slices.Collect(maps.Values(c.forwarded))
	slices.SortFunc(out, func(a, b *Job) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

// A Home is where a job this cluster received from another one was
// submitted: its submission cluster, its ID there, and when that cluster
// sent it, which tells one forwarding of the job from another.
type Home struct {
	Cluster string `json:"Cluster"`
	ID      int64  `json:"ID"`
	Sent    Time   `json:"Sent,omitempty"`
}

// Withdraw gives a pending job received from another cluster back to it,
// which recalled it: the job ends here (EXIT) and is marked withdrawn,
// so that its home, asking again, learns that it was recalled rather
// than that it failed.
func (c *Cluster) Withdraw(j *Job, now Time) error {
	switch {
	case j.Sub.Home == nil:
		return fmt.Errorf("job %d was not received from another cluster", j.ID)
	case !j.State.Pending():
		return fmt.Errorf("job %d is %s: only a pending job is withdrawn", j.ID, j.State)
	}
	if err := c.Kill(j, now); err != nil {
		return err
	}
	j.Withdrawn = true
	return nil
}

// Inbound returns the jobs this cluster received from cluster from, in
// ID order, finished ones included (until they are forgotten).
func (c *Cluster) Inbound(from string) []*Job {
	var out []*Job
	for _, j := range c.jobs {
		if j.Sub.Home != nil && j.Sub.Home.Cluster == from {
			out = append(out, j)
		}
	}
	slices.SortFunc(out, func(a, b *Job) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

// InboundPending counts the pending jobs of queue q received from other
// clusters: what IMPT_JOBBKLG limits.
func (c *Cluster) InboundPending(q *Queue) int { return q.inbound }
