package daemon

import (
	"fmt"
	"path/filepath"

	"github.com/lsfc/lsfc/runtime"
)

// The files the local executor keeps for a job (its directory is the
// state directory's jobs/) are the other half of the job's history, and
// the daemon keeps them so that no damage to the tail of the event log
// can make a job run twice:
//
//   - a job's files exist only once its start is durable (the executor
//     starts it after the commit; what the executor makes ready while
//     the commit is under way bears names of its own, which are no job's
//     files until the start gives them theirs), and go (dropFiles)
//     before a requeue is logged, so a job the log says is pending, or
//     does not know, has no files;
//   - once a job's finish is durable its files go but its status and pid
//     files (settle): a finish in the log's last frames may still be cut
//     as a torn write, and the job then replays as started; the executor
//     then gives its real end again from them, and the finish is logged
//     anew;
//   - those go too once a compaction's snapshot holds the finish: below
//     the sealed length of the log, nothing is cut as a tear.
//
// At start, checkSpool compares the files with the replayed log: files
// of a job the log says never started, or never existed, mean the log
// lost acknowledged transactions (it was cut or damaged past its last
// frame), and the daemon refuses to start rather than run the job again.

// settle removes the files of a local job whose finish is durable but
// its status and pid files, and notes it for the next compaction to
// clean up.
func (d *Daemon) settle(id int64) {
	d.settledMu.Lock()
	defer d.settledMu.Unlock()
	d.settleLocked(id)
}

func (d *Daemon) settleLocked(id int64) {
	if err := d.exec.Release(id); err != nil {
		d.cfg.Logf("job %d: %v", id, err)
	}
	d.settled = append(d.settled, id)
}

// settleRun returns the settle of the run of job id at epoch, to call
// once its finish is durable, off the owning goroutine. A requeue of the
// finished job (brequeue -d or -e) may have come first and dropped its
// files (unsettle): the settle then does nothing, rather than remove the
// files of the job's next run.
func (d *Daemon) settleRun(id int64, epoch int) func() {
	return func() {
		d.settledMu.Lock()
		defer d.settledMu.Unlock()
		if e, ok := d.dropped[id]; ok {
			if e >= epoch {
				return
			}
			delete(d.dropped, id)
		}
		d.settleLocked(id)
	}
}

// dropFiles removes every file of a local job that goes back to pending.
func (d *Daemon) dropFiles(id int64) {
	if err := d.exec.Cleanup(id); err != nil {
		d.cfg.Logf("job %d: %v", id, err)
	}
}

// checkSpool compares the jobs the executor has files of with the
// replayed log: jobs the log has finished or forgotten are settled (their
// files go at the next compaction), started ones are left to
// recoverJobs, and a job the log says is pending, or never had, is an
// error: the log lost transactions the daemon had acknowledged.
func (d *Daemon) checkSpool() error {
	ids, err := d.exec.Spooled()
	if err != nil {
		return fmt.Errorf("job files: %w", err)
	}
	next := d.cluster.NextID()
	for _, id := range ids {
		j := d.cluster.Job(id)
		what := ""
		switch {
		case j == nil && id >= next:
			what = "does not know it"
		case j == nil:
			// Forgotten after its finish (CLEAN_PERIOD).
			d.settled = append(d.settled, id)
		case j.State.Finished() && j.PostExec == runtime.PostRunning:
			// Its post-execution commands may run still: recoverJobs
			// takes them back.
		case j.State.Finished():
			d.settled = append(d.settled, id)
		case !j.State.Started():
			what = "says it never started"
		}
		if what != "" {
			return fmt.Errorf("the event log %s has lost transactions it had acknowledged: job %d has run on this host (its files are in %s) but the log %s; "+
				"restore the log, or move job %d's files away to accept the loss (the job may then run again)",
				d.store, id, filepath.Join(d.exec.Dir(), fmt.Sprint(id)+".*"), what, id)
		}
	}
	return nil
}
