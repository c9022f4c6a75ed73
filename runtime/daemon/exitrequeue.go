package daemon

import (
	"github.com/lsfc/lsfc/runtime"
	"github.com/lsfc/lsfc/runtime/api"
)

// exitRequeue applies to a job whose processes exited on their own with
// code what the cluster decides of it (runtime.Cluster.DecideExit, which
// lsfc simulate applies too): requeued, it pends again, or is held
// (PSUSP) once its MAX_JOB_REQUEUE is reached, and rec is the record of
// the requeue (State PSUSP for the hold, so that a restart holds it
// again); otherwise success says whether it ends DONE (one of its
// SUCCESS_EXIT_VALUES) rather than EXIT, and the caller finishes it.
func (d *Daemon) exitRequeue(j *runtime.Job, code int, now runtime.Time) (rec Record, requeued, success bool) {
	dec := d.cluster.DecideExit(j, code)
	for _, err := range dec.Problems {
		d.cfg.Logf("job %d: %v", j.ID, err)
	}
	if !dec.Requeue {
		return Record{}, false, dec.Success
	}
	d.dropFiles(j.ID)
	d.unsettle(j.ID, j.Epoch)
	if err := d.cluster.RequeueOnExit(j, dec.Avoid, dec.Hold, now); err != nil {
		d.cfg.Logf("job %d: %v", j.ID, err)
		return Record{}, false, false
	}
	rec = Record{Type: KindExitRequeue, At: now, Job: j.ID, Code: code, Hosts: dec.Avoid}
	if dec.Hold {
		d.cfg.Logf("job %d: exited with %d, a requeue exit value, after %d requeues: MAX_JOB_REQUEUE is reached and it is held (PSUSP) until bresume",
			j.ID, code, j.ExitRequeues)
		rec.State = runtime.PSusp.String()
		return rec, true, false
	}
	d.cfg.Logf("job %d: exited with %d, a requeue exit value: it pends again (requeue %d)", j.ID, code, j.ExitRequeues)
	return rec, true, false
}

// badExitValues returns why a submission's requeue exit values (bsub -Q)
// cannot be read; nil when they can.
func badExitValues(s string) error {
	_, err := api.ParseExitValues(s, true)
	return err
}
