package daemon

import (
	"errors"
	"os"
	"sync"
	"syscall"
	"testing"
	"time"
)

// flushStallJournal is a log whose Flush completes only when space is
// back, as eventlog.Log's does while it is stalled.
type flushStallJournal struct {
	mu      sync.Mutex
	stalled bool // what Stalled reports
	back    chan struct{}
	err     error // of the flush, once space is back
	flushes int
}

type chanCommit struct {
	ch  chan struct{}
	err *error
}

func (c chanCommit) Wait() error { <-c.ch; return *c.err }

func (j *flushStallJournal) Append([][]byte) (Committed, error) {
	return chanCommit{j.back, &j.err}, nil
}
func (j *flushStallJournal) Compact([][]byte) error { return nil }
func (j *flushStallJournal) Close() error           { return nil }

func (j *flushStallJournal) Flush() Committed {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.flushes++
	return chanCommit{j.back, &j.err}
}

func (j *flushStallJournal) Stalled() error {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.stalled {
		return &os.PathError{Op: "write", Path: "lsb.events", Err: syscall.ENOSPC}
	}
	return nil
}

// TestHistoryFlushStalled: bhist reads the event log after the deferred
// finishes are written, but a log stalled for space cannot write them,
// and bhist must answer from what is on disk rather than wait for space.
func TestHistoryFlushStalled(t *testing.T) {
	timed := func(d *Daemon) (time.Duration, error) {
		start := time.Now()
		err := d.flushForRead()
		return time.Since(start), err
	}

	j := &flushStallJournal{stalled: true, back: make(chan struct{})}
	d := &Daemon{log: j}
	if took, err := timed(d); err != nil || took > flushWait/2 {
		t.Errorf("flush of a stalled log: %v after %v, want nil at once", err, took)
	}
	if j.flushes != 0 {
		t.Errorf("a stalled log was asked to flush %d times", j.flushes)
	}

	// A stall that begins after the look: the wait is bounded.
	j.stalled = false
	if took, err := timed(d); err != nil || took < flushWait || took > 3*flushWait {
		t.Errorf("flush that stalls: %v after %v, want nil after %v", err, took, flushWait)
	}

	// Space is back: the flush is waited for, and its failure told.
	j.err = errors.New("write failed")
	close(j.back)
	if took, err := timed(d); err != j.err || took > flushWait/2 {
		t.Errorf("flush of a writing log: %v after %v, want %v at once", err, took, j.err)
	}
}
