package mc

import (
	"fmt"

	"github.com/lsfc/lsfc/runtime"
)

// An Inbound is a job that a submission cluster forwards to a
// receive-jobs queue of this cluster.
type Inbound struct {
	// From is the submission cluster, FromJob the job's ID there.
	From    string
	FromJob int64
	// Queue is the receive-jobs queue asked for.
	Queue string
	// Sub is the job as submitted at home; its Queue is ignored.
	Sub runtime.Submission
}

// Accept is Phase III of job forwarding, on the execution cluster: the
// receive-jobs queue takes the job, or refuses it with a *runtime.Rejection
// and the job returns to its submission cluster. The queue must exist,
// name the submission cluster in RCVJOBS_FROM (or say allclusters) and
// have fewer than IMPT_JOBBKLG pending MultiCluster jobs (pending counts
// them); then its own parameters decide, as for a local submission:
// whether it is open, USERS, MEMLIMIT against -M, PROCLIMIT and TASKLIMIT
// against -n, RUNLIMIT against -W, the -R merged with its RES_REQ. The
// send-jobs queue's settings no longer apply. Accept adds no job: the
// caller submits the job to the queue, with a new job ID, when it
// accepts.
func Accept(c *runtime.Cluster, in Inbound, pending int) error {
	reject := func(format string, args ...any) error {
		return &runtime.Rejection{Queue: in.Queue, Reason: fmt.Sprintf(format, args...)}
	}
	q := c.Queue(in.Queue)
	if q == nil {
		return &runtime.Rejection{Reason: fmt.Sprintf("%s: no such queue in cluster %s", in.Queue, c.Policy.Cluster)}
	}
	if q.Def == nil || !q.Def.ReceivesFrom(in.From) {
		return reject("the queue does not receive jobs from cluster %s (RCVJOBS_FROM)", in.From)
	}
	if b := q.Def.Backlog(); b != Unlimited && pending >= b {
		return reject("the queue's pending MultiCluster job limit (IMPT_JOBBKLG) of %d is reached", b)
	}
	s := in.Sub
	s.Queue = q.Name
	return c.Check(q, s)
}
