package daemon

import (
	"strconv"
	"strings"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/runtime"
	"github.com/lsfc/lsfc/runtime/api"
)

// jobSettings returns the settings that apply to a job, its application
// profile's before its queue's.
func jobSettings(j *runtime.Job) []compile.Settings {
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

// exitValues returns a job's exit values of key (REQUEUE_EXIT_VALUES or
// SUCCESS_EXIT_VALUES): for requeue, bsub -Q's first, then its
// application profile's, then its queue's; ok is false when none is set.
func (d *Daemon) exitValues(j *runtime.Job, key string) (api.ExitValues, bool) {
	requeue := key == "REQUEUE_EXIT_VALUES"
	if requeue && j.Sub.RequeueExitValues != "" {
		if v, err := api.ParseExitValues(j.Sub.RequeueExitValues, true); err == nil {
			return v, true
		}
	}
	for _, set := range jobSettings(j) {
		raw, ok := rawSetting(set, key)
		if !ok {
			continue
		}
		v, err := api.ParseExitValues(raw, requeue)
		if err != nil {
			d.cfg.Logf("job %d: %s %q: %v", j.ID, key, raw, err)
			return api.ExitValues{}, false
		}
		return v, true
	}
	return api.ExitValues{}, false
}

// maxJobRequeue returns MAX_JOB_REQUEUE for a job, its application
// profile's, then its queue's, then lsb.params's; -1 when none sets it
// (no limit).
func (d *Daemon) maxJobRequeue(j *runtime.Job) int {
	for _, set := range jobSettings(j) {
		if raw, ok := rawSetting(set, "MAX_JOB_REQUEUE"); ok {
			if n, err := strconv.Atoi(raw); err == nil && n >= 0 {
				return n
			}
		}
	}
	return d.cfg.Policy.Parameters.MaxJobRequeue
}

// exitRequeue puts a job whose processes exited with code back to
// pending when code is one of its requeue exit values and it has been
// requeued so fewer than MAX_JOB_REQUEUE times, away from the host it
// exited on for an exclusive value (EXCLUDE); ok is false when the job
// ends instead (the caller finishes it, EXIT).
func (d *Daemon) exitRequeue(j *runtime.Job, code int, now runtime.Time) (Record, bool) {
	v, ok := d.exitValues(j, "REQUEUE_EXIT_VALUES")
	if !ok {
		return Record{}, false
	}
	in, exclusive := v.Has(code)
	if !in {
		return Record{}, false
	}
	if limit := d.maxJobRequeue(j); limit >= 0 && j.ExitRequeues >= limit {
		d.cfg.Logf("job %d: exited with %d, a requeue exit value, after %d requeues: MAX_JOB_REQUEUE is reached and it exits",
			j.ID, code, j.ExitRequeues)
		return Record{}, false
	}
	var avoid []string
	if exclusive && j.Slots <= 1 {
		// Exclusive requeue, for a job of one slot as LSF's: not on this
		// host again.
		for _, a := range j.Allocs {
			avoid = append(avoid, a.Host.Name)
		}
	}
	d.dropFiles(j.ID)
	d.unsettle(j.ID)
	if err := d.cluster.RequeueOnExit(j, avoid, now); err != nil {
		d.cfg.Logf("job %d: %v", j.ID, err)
		return Record{}, false
	}
	d.cfg.Logf("job %d: exited with %d, a requeue exit value: it pends again (requeue %d)", j.ID, code, j.ExitRequeues)
	return Record{Type: KindExitRequeue, At: now, Job: j.ID, Code: code, Hosts: avoid}, true
}

// successExit reports whether code is one of a job's SUCCESS_EXIT_VALUES,
// which make it DONE.
func (d *Daemon) successExit(j *runtime.Job, code int) bool {
	v, ok := d.exitValues(j, "SUCCESS_EXIT_VALUES")
	if !ok {
		return false
	}
	in, _ := v.Has(code)
	return in
}

// badExitValues returns why a submission's requeue exit values (bsub -Q)
// cannot be read; nil when they can.
func badExitValues(s string) error {
	_, err := api.ParseExitValues(s, true)
	return err
}
