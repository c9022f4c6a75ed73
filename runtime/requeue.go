package runtime

import (
	"fmt"
	"slices"
)

// RequeueFinished puts a finished job (DONE or EXIT) back in its queue,
// as brequeue -d, -e or -a does: pending, or held (PSUSP) with hold. It
// keeps its ID, its submission and its submit time, and runs again from
// the beginning; its end, exit code and how it was ended are forgotten.
func (c *Cluster) RequeueFinished(j *Job, hold bool, now Time) error {
	switch {
	case j.State != Done && j.State != Exit:
		return fmt.Errorf("job %d is %s, not DONE or EXIT", j.ID, j.State)
	case j.Remote != nil:
		return fmt.Errorf("job %d ran at cluster %s", j.ID, j.Remote.Cluster)
	}
	c.accrue(now)
	j.State, j.Reason, j.Allocs, j.Start, j.End, j.Ran, j.Epoch = Pend, ReasonNew, nil, 0, 0, 0, j.Epoch+1
	j.ExitCode, j.Term, j.RequeueHold = 0, "", false
	j.apsSystem, j.apsAdmin = nil, 0
	c.useRequirement(j)
	c.enqueue(j)
	if hold {
		return c.Hold(j)
	}
	return nil
}

// RequeueOnExit puts a started job whose processes exited with one of its
// requeue exit values back to pending, as Requeue does, and counts it
// (ExitRequeues). The hosts of avoid are added to those it is not
// dispatched to again (AvoidHosts), as an exclusive requeue exit value
// asks.
func (c *Cluster) RequeueOnExit(j *Job, avoid []string, now Time) error {
	for _, h := range avoid {
		if !slices.Contains(j.AvoidHosts, h) {
			j.AvoidHosts = append(j.AvoidHosts, h)
		}
	}
	if err := c.Requeue(j, now); err != nil {
		return err
	}
	j.ExitRequeues++
	return nil
}

// RequestedMem returns the memory, in MB, that a job's rusage[mem] asks
// for in all, over the hosts it runs on (or, pending, as if on one host);
// 0 when it asks for none.
func (c *Cluster) RequestedMem(j *Job) float64 {
	total := 0.0
	for _, am := range j.Req.amounts() {
		if am.Name != "mem" {
			continue
		}
		if len(j.Allocs) == 0 {
			total += am.Value * c.perHost(am.Per, j.Slots, j.Slots)
			continue
		}
		for _, a := range j.Allocs {
			total += am.Value * c.perHost(am.Per, a.Slots, j.Slots)
		}
	}
	return total
}
