package runtime

import (
	"cmp"
	"fmt"
	"slices"
)

// A Remote is where a job of this cluster went when it was forwarded to
// another cluster (MultiCluster job forwarding): the receive-jobs queue,
// the job's ID there once that queue took it, and the hosts it runs on
// there, named host@cluster.
type Remote struct {
	Cluster, Queue string
	// ID is the job's ID in the execution cluster; 0 until its queue
	// accepted the job.
	ID int64 `json:",omitempty"`
	// SentAt is when the job was forwarded; AcceptedAt when the remote
	// queue took it (0 before).
	SentAt     Time
	AcceptedAt Time `json:",omitempty"`
	// Hosts are the job's execution hosts, host@cluster, once it started
	// there.
	Hosts []string `json:",omitempty"`
}

// A Forwarder is Phase II of MultiCluster job forwarding as a cycle sees
// it: for a pending job of a send-jobs queue that no local host takes, it
// names the remote queue the job goes to, or the reason it stays
// pending. Each job it sends somewhere counts in that queue's room for
// the rest of the cycle.
type Forwarder interface {
	Forward(j *Job) (to Forward, why Reason)
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
// goes or why it stays.
func (c *cycle) planForwards() {
	f := c.snap.Forward
	if f == nil {
		return
	}
	dispatched := map[*Job]bool{}
	for _, d := range c.plan.Dispatches {
		dispatched[d.Job] = true
	}
	for _, q := range c.cluster.Queues {
		if q.Def == nil || !q.Def.Sends() || q.Pending == 0 {
			continue
		}
		var jobs []*Job
		for _, k := range c.cluster.classList {
			if k.queue != q || k.live == 0 {
				continue
			}
			for _, j := range k.jobs {
				if j != nil && j.State == Pend && j.Remote == nil {
					jobs = append(jobs, j)
				}
			}
		}
		slices.SortFunc(jobs, before)
		for _, j := range jobs {
			if dispatched[j] || !forwardable(c.plan.Reason(j)) {
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
// remotely (rejected, recalled, unreachable, failed to start there): it
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
	var out []*Job
	for _, j := range c.jobs {
		if j.Remote != nil && !j.State.Finished() {
			out = append(out, j)
		}
	}
	slices.SortFunc(out, func(a, b *Job) int { return cmp.Compare(a.ID, b.ID) })
	return out
}

// A Home is where a job this cluster received from another one was
// submitted: its submission cluster and its ID there.
type Home struct {
	Cluster string
	ID      int64
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
func (c *Cluster) InboundPending(q *Queue) int {
	n := 0
	for _, j := range c.jobs {
		if j.Queue == q && j.Sub.Home != nil && j.State.Pending() {
			n++
		}
	}
	return n
}
