package daemon

import (
	"errors"
	"fmt"
	"syscall"
	"time"
)

// minFreeBytes is the space the daemon keeps for what it must record
// whatever happens (the ends of running jobs, kills), as a file system
// keeps blocks for root: below it, the file system of the state
// directory takes no new work.
const minFreeBytes = 4 << 20

// A full disk does not stop the daemon. While the state directory's file
// system has less than minFreeBytes free, or its event log is stalled
// for want of space, the daemon refuses the requests that change the
// cluster (submissions, job and queue and host control, reconfiguration,
// an agent's news) with errNoSpace, runs no scheduling cycle and no
// compaction, and keeps answering queries. What it must still record
// goes on: the ends of running jobs are logged while space lasts, and
// wait in memory, in order, when the log is stalled; a job whose
// wrapper cannot write its status yet is seen running until it can. When
// space is back the log writes what waited, and the daemon takes work
// again, without a restart.

// errNoSpace is the error of a refused request.
type errNoSpace struct{ cause string }

func (e errNoSpace) Error() string {
	return "the cluster cannot record new work: " + e.cause
}

// cannotRecord returns errNoSpace when the daemon takes no new work for
// want of space, and nil otherwise.
func (d *Daemon) cannotRecord() error {
	if s, ok := d.log.(interface{ Stalled() error }); ok {
		if err := s.Stalled(); err != nil {
			return errNoSpace{cause(err)}
		}
	}
	if d.cfg.Store != nil {
		return nil
	}
	now := time.Now().UnixNano()
	if now < d.plentyUntil.Load() {
		return nil
	}
	var st syscall.Statfs_t
	if err := syscall.Statfs(d.cfg.StateDir, &st); err != nil {
		return nil // the writes themselves will tell
	}
	free := uint64(st.Bavail) * uint64(st.Bsize)
	if free < minFreeBytes {
		return errNoSpace{syscall.ENOSPC.Error()}
	}
	if free >= plentyBytes {
		d.plentyUntil.Store(now + int64(plentyFor))
	}
	return nil
}

// With plentyBytes free or more, the file system is not looked at again
// for plentyFor: a busy daemon's requests each asked it (a statfs per
// submission), where the daemon cannot write plentyBytes in that time.
const (
	plentyBytes = 1 << 30
	plentyFor   = 100 * time.Millisecond
)

// cause returns the system's words for err: "no space left on device"
// for ENOSPC.
func cause(err error) string {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return errno.Error()
	}
	return fmt.Sprint(err)
}

// noteNoSpace logs when the daemon stops taking work for want of space,
// and when it takes work again (err nil).
func (d *Daemon) noteNoSpace(err error) {
	msg := ""
	if err != nil {
		msg = err.Error()
	}
	switch {
	case msg == d.noSpace:
	case msg == "":
		d.cfg.Logf("space is back: the cluster takes new work again")
	default:
		d.cfg.Logf("%s: submissions and changes are refused until space is freed", msg)
	}
	d.noSpace = msg
}
