package localexec

import (
	"errors"
	"fmt"
	"syscall"
	"time"
)

// Signal sends sig to every process of job id (its process group): LSF
// suspends a job with SIGSTOP and resumes it with SIGCONT. It fails when
// the job is not running or has no process left.
func (e *Executor) Signal(id int64, sig syscall.Signal) error {
	rec, _, err := e.running(id)
	if err != nil {
		return err
	}
	if !rec.wrapperAlive() {
		return fmt.Errorf("job %d has ended", id)
	}
	if err := rec.signalGroup(sig); err != nil {
		if errors.Is(err, syscall.ESRCH) {
			return fmt.Errorf("cannot signal job %d: no processes left", id)
		}
		return fmt.Errorf("cannot signal job %d: %v", id, err)
	}
	return nil
}

// Kill terminates job id as LSF's default TERMINATE action does: SIGINT,
// then SIGTERM, then SIGKILL, KillGrace apart, each of the first two
// followed by SIGCONT so that a suspended job acts on it. It sends SIGINT
// and returns; the rest goes on in the background for as long as the
// job's process group has processes, even once the job's shell has ended,
// so that its background processes are reached too. The job's end comes
// through onExit as usual.
func (e *Executor) Kill(id int64) error {
	if err := e.Signal(id, syscall.SIGINT); err != nil {
		return err
	}
	rec, _, err := e.running(id)
	if err != nil {
		return nil // it ended meanwhile
	}
	rec.signalGroup(syscall.SIGCONT)
	go terminate(rec, e.killGrace())
	return nil
}

func (e *Executor) killGrace() time.Duration {
	if e.KillGrace > 0 {
		return e.KillGrace
	}
	return DefaultKillGrace
}

// terminate sends SIGTERM, then SIGKILL, to the job's process group, grace
// apart, stopping as soon as the group is empty.
func terminate(rec pidRecord, grace time.Duration) {
	for _, sig := range []syscall.Signal{syscall.SIGTERM, syscall.SIGKILL} {
		if waitGroupGone(rec, grace) {
			return
		}
		if rec.signalGroup(sig) != nil {
			return
		}
		if sig != syscall.SIGKILL {
			rec.signalGroup(syscall.SIGCONT)
		}
	}
}

// waitGroupGone waits up to d for the job's process group to empty and
// reports whether it did.
func waitGroupGone(rec pidRecord, d time.Duration) bool {
	const step = 50 * time.Millisecond
	deadline := time.Now().Add(d)
	for rec.groupAlive() {
		left := time.Until(deadline)
		if left <= 0 {
			return false
		}
		time.Sleep(min(step, left))
	}
	return true
}
