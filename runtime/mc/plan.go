package mc

import (
	"maps"
	"slices"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/runtime"
)

// A QueueState is what a remote cluster reports about one of its queues:
// whether it receives jobs from the submission cluster, its IMPT_JOBBKLG
// and pending MultiCluster jobs, and the hosts it exports.
type QueueState struct {
	Cluster, Queue string
	// Receives is true when the queue exists there and its RCVJOBS_FROM
	// names the submission cluster (or allclusters).
	Receives         bool
	Backlog, Pending int
	Hosts            []HostInfo
}

// StateOf makes the QueueState a cluster reports for its queue q to the
// submission cluster from; hosts are the hosts it exports for the queue.
func StateOf(cluster string, q *compile.Queue, from string, pending int, hosts []HostInfo) QueueState {
	return QueueState{Cluster: cluster, Queue: q.Name, Receives: q.ReceivesFrom(from),
		Backlog: q.Backlog(), Pending: pending, Hosts: hosts}
}

// A Planner makes the Phase II decisions of one scheduling cycle of a
// submission cluster. It holds the targets of each send-jobs queue and
// counts every job it forwards in its target's pending jobs, so that the
// next job of the cycle sees the room that is left (as LSF's submission
// scheduler counts the jobs it forwards between two updates from the
// execution clusters).
type Planner struct {
	opts    Options
	targets map[string][]*Target
	// needs caches the remote-resource needs of each -R (and submission
	// host type) the cycle weighed.
	needs map[[2]string]Needs
}

// A Dest is a receive-jobs queue of a remote cluster.
type Dest struct{ Cluster, Queue string }

// PlannerFor builds the planner of one cycle of a submission cluster
// from what each peer that answers last reported (reports, by cluster:
// the receive-jobs queues that take this cluster's jobs; a peer missing
// from it does not answer) and the jobs forwarded and not answered yet,
// by destination, which count in their queue's pending jobs since the
// peer's report does not hold them yet. A destination of SNDJOBS_TO
// that a peer which answers does not report does not pair.
func PlannerFor(p *compile.Policy, reports map[string][]QueueState, unanswered map[Dest]int, opts Options) *Planner {
	var states []QueueState
	up := map[string]bool{}
	for _, name := range slices.Sorted(maps.Keys(reports)) {
		up[name] = true
		listed := map[string]bool{}
		for _, s := range reports[name] {
			listed[s.Queue] = true
			s.Pending += unanswered[Dest{name, s.Queue}]
			states = append(states, s)
		}
		for _, q := range p.Queues {
			for _, dst := range q.SendTo {
				if dst.Cluster == name && !listed[dst.Remote(q.Name)] {
					states = append(states, QueueState{Cluster: name, Queue: dst.Remote(q.Name)})
				}
			}
		}
	}
	return NewPlanner(p, states, up, opts)
}

// NewPlanner builds the targets of every send-jobs queue of the
// submission cluster's policy from SNDJOBS_TO, with what the remote
// clusters last reported (states) and which of them answer (reachable,
// by cluster name). A destination a remote cluster reports nothing about
// is unreachable; one whose queue does not receive from this cluster, or
// does not exist there, is left out: the queues do not pair (lsfc lint
// reports such pairs when it sees both configurations).
func NewPlanner(p *compile.Policy, states []QueueState, reachable map[string]bool, opts Options) *Planner {
	pl := &Planner{opts: opts, targets: map[string][]*Target{}}
	type key struct{ cluster, queue string }
	byKey := map[key]QueueState{}
	for _, s := range states {
		byKey[key{s.Cluster, s.Queue}] = s
	}
	for _, q := range p.Queues {
		if !q.Sends() {
			continue
		}
		var ts []*Target
		for i, d := range q.SendTo {
			remote := d.Remote(q.Name)
			t := &Target{Cluster: d.Cluster, Queue: remote, Pref: d.Pref, Rank: i}
			s, known := byKey[key{d.Cluster, remote}]
			switch {
			case known && !s.Receives:
				continue
			case known:
				t.Backlog, t.Pending, t.Hosts = s.Backlog, s.Pending, s.Hosts
				t.Reachable = reachable[d.Cluster]
			}
			ts = append(ts, t)
		}
		pl.targets[q.Name] = ts
	}
	return pl
}

// Targets returns the targets of a send-jobs queue, in SNDJOBS_TO order;
// nil for a queue that forwards nowhere.
func (pl *Planner) Targets(queue string) []*Target { return pl.targets[queue] }

// Place decides where a job of a send-jobs queue goes and, when it goes
// somewhere, counts it in that target's pending jobs.
func (pl *Planner) Place(queue string, j Job) Decision {
	d := Decide(pl.targets[queue], j, pl.opts)
	if d.To != nil {
		d.To.Pending++
	}
	return d
}

// Forward is the planner as a cycle's runtime.Forwarder: it places a
// pending job of a send-jobs queue by its slots and its -R's needs, and
// words why it stays when no destination takes it. A job whose queue has
// no destination that pairs keeps its local reason (ReasonNone).
func (pl *Planner) Forward(j *runtime.Job) (runtime.Forward, runtime.Reason) {
	job := Job{ID: j.ID, Slots: j.Slots}
	if pl.opts.RemoteResource {
		// Only remote-resource matching reads the needs.
		key := [2]string{j.ResReq, j.FromType}
		n, ok := pl.needs[key]
		if !ok {
			n = ParseNeeds(j.ResReq, j.FromType)
			if pl.needs == nil {
				pl.needs = map[[2]string]Needs{}
			}
			pl.needs[key] = n
		}
		job.Needs = n
	}
	d := pl.Place(j.Queue.Name, job)
	if d.To != nil {
		return runtime.Forward{Cluster: d.To.Cluster, Queue: d.To.Queue}, runtime.ReasonNone
	}
	return runtime.Forward{}, d.Reason().Reason()
}

// Exhausted reports, for the cycle's runtime.ForwardLimiter, whether no
// job of the send-jobs queue can go anywhere any more because every
// destination is unreachable or full, and the reason its jobs then
// show: the one Forward would give each of them (ReasonNone when the
// queue has no destination that pairs).
func (pl *Planner) Exhausted(queue string) (runtime.Reason, bool) {
	why := WhyNone
	for _, t := range pl.targets[queue] {
		switch {
		case t.Reachable && t.Room() != 0:
			return runtime.ReasonNone, false
		case t.Reachable:
			why = WhyNoRoom
		case why == WhyNone:
			why = WhyUnreachable
		}
	}
	return why.Reason(), true
}

// Reason returns the job's pending reason for a target passed over.
func (w Why) Reason() runtime.Reason {
	switch w {
	case WhyNone:
		return runtime.ReasonNone
	case WhyUnreachable:
		return runtime.ReasonMCUnreachable
	case WhyNoRoom:
		return runtime.ReasonMCNoRoom
	}
	return runtime.ReasonMCRemoteResource
}

// ReturnReason is a returned job's pending reason at home, for the cause
// of its return.
func (c Cause) ReturnReason() runtime.Reason {
	switch c {
	case Rejected:
		return runtime.ReasonMCRejected
	case Unreachable:
		return runtime.ReasonMCUnreachable
	case Recalled:
		return runtime.ReasonMCRecalled
	}
	return runtime.ReasonNew
}

// ParseCause reads a cause as String names it.
func ParseCause(s string) (Cause, bool) {
	for i, t := range causeText {
		if t != "" && t == s {
			return Cause(i), true
		}
	}
	return 0, false
}
