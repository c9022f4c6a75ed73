package runtime

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/runtime/api"
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
// requeue exit values back to pending, as Requeue does. The hosts of
// avoid are added to those it is not dispatched to again (AvoidHosts), as
// an exclusive requeue exit value asks. Without hold it is counted
// (ExitRequeues) and pends again; with hold (its MAX_JOB_REQUEUE is
// reached) it is held, PSUSP with ReasonRequeueLimit, until it is
// released (bresume), and the count stays: released, it runs once more
// and is held again if it exits so again.
func (c *Cluster) RequeueOnExit(j *Job, avoid []string, hold bool, now Time) error {
	for _, h := range avoid {
		if !slices.Contains(j.AvoidHosts, h) {
			j.AvoidHosts = append(j.AvoidHosts, h)
		}
	}
	if err := c.Requeue(j, now); err != nil {
		return err
	}
	if !hold {
		j.ExitRequeues++
		return nil
	}
	if err := c.Hold(j); err != nil {
		return err
	}
	j.Reason = ReasonRequeueLimit
	return nil
}

// jobSettings returns the settings that apply to a job, its application
// profile's before its queue's.
func jobSettings(j *Job) []compile.Settings {
	var sets []compile.Settings
	if j.App != nil && j.App.Def != nil {
		sets = append(sets, j.App.Def.Settings)
	}
	if j.Queue != nil && j.Queue.Def != nil {
		sets = append(sets, j.Queue.Def.Settings)
	}
	return sets
}

// rawSetting returns a setting as written, without its quotes; ok is
// false when it is not set.
func rawSetting(set compile.Settings, key string) (string, bool) {
	st := set[key]
	if st == nil {
		return "", false
	}
	v := strings.TrimSpace(st.Raw)
	if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
		v = v[1 : len(v)-1]
	}
	return strings.TrimSpace(v), true
}

// JobExitValues returns a job's requeue exit values (requeue: bsub -Q's,
// else its application profile's REQUEUE_EXIT_VALUES, else its queue's)
// or its success exit values (SUCCESS_EXIT_VALUES, the profile's, else
// the queue's); ok is false when none is set. Values that cannot be read
// give no values and an error naming them.
func JobExitValues(j *Job, requeue bool) (v api.ExitValues, ok bool, err error) {
	key := "SUCCESS_EXIT_VALUES"
	if requeue {
		key = "REQUEUE_EXIT_VALUES"
		if s := j.Sub.RequeueExitValues; s != "" {
			if v, err := api.ParseExitValues(s, true); err == nil {
				return v, true, nil
			}
		}
	}
	for _, set := range jobSettings(j) {
		raw, ok := rawSetting(set, key)
		if !ok {
			continue
		}
		v, err := api.ParseExitValues(raw, requeue)
		if err != nil {
			return api.ExitValues{}, false, fmt.Errorf("%s %q: %w", key, raw, err)
		}
		return v, true, nil
	}
	return api.ExitValues{}, false, nil
}

// MaxJobRequeue returns MAX_JOB_REQUEUE for a job: its application
// profile's, then its queue's, then lsb.params's; -1 when none sets it
// (no limit).
func (c *Cluster) MaxJobRequeue(j *Job) int {
	for _, set := range jobSettings(j) {
		if raw, ok := rawSetting(set, "MAX_JOB_REQUEUE"); ok {
			if n, err := strconv.Atoi(raw); err == nil && n >= 0 {
				return n
			}
		}
	}
	if c.Policy == nil {
		return -1
	}
	return c.Policy.Parameters.MaxJobRequeue
}

// An ExitDecision is what becomes of a started job whose processes
// exited on their own (not killed) with a non-zero code.
type ExitDecision struct {
	// Requeue: the code is one of the job's requeue exit values: it goes
	// back to pending (RequeueOnExit), kept off the hosts of Avoid.
	Requeue bool
	Avoid   []string
	// Hold (with Requeue): the job was requeued MAX_JOB_REQUEUE times
	// already: as LSF does, it is held (PSUSP, ReasonRequeueLimit)
	// rather than pending.
	Hold bool
	// Success: the job, not requeued, ends DONE: the code is one of its
	// SUCCESS_EXIT_VALUES (a code in both requeues).
	Success bool
	// Problems are exit values of the job that could not be read (each
	// such setting counts as unset).
	Problems []error
}

// DecideExit decides, as LSF does, what becomes of a started job whose
// processes exited on their own with code: requeued on one of its
// requeue exit values, away from the host it exited on for an exclusive
// value (EXCLUDE(...), a job of one slot only), pending again up to
// MAX_JOB_REQUEUE times and held (PSUSP) once that many requeues are
// reached; else DONE on one of its success exit values; else EXIT. The
// daemon and the simulator both end jobs through it.
func (c *Cluster) DecideExit(j *Job, code int) ExitDecision {
	var d ExitDecision
	if code == 0 {
		return d
	}
	v, ok, err := JobExitValues(j, true)
	if err != nil {
		d.Problems = append(d.Problems, err)
	}
	if in, exclusive := v.Has(code); ok && in {
		d.Requeue = true
		if limit := c.MaxJobRequeue(j); limit >= 0 && j.ExitRequeues >= limit {
			d.Hold = true
		}
		if exclusive && j.Slots <= 1 {
			for _, a := range j.Allocs {
				d.Avoid = append(d.Avoid, a.Host.Name)
			}
		}
		return d
	}
	v, ok, err = JobExitValues(j, false)
	if err != nil {
		d.Problems = append(d.Problems, err)
	}
	if in, _ := v.Has(code); ok && in {
		d.Success = true
	}
	return d
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
