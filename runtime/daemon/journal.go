package daemon

import (
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/lsfc/lsfc/runtime/eventlog"
)

// A Journal is the daemon's durable event log: the state directory's
// lsb.events by default, or a Store's (lsfc serve --etcd).
type Journal interface {
	// Append adds a transaction of records, which it copies (the
	// caller reuses their memory), and returns without waiting for it
	// to be durable.
	Append(records [][]byte) (Committed, error)
	// Compact replaces the log with a snapshot that reflects every
	// transaction appended so far.
	Compact(snapshot [][]byte) error
	Close() error
}

// A notLeader error of a Journal (NotLeader true) says that a write was
// refused, whole, because another master leads: a fail-over master whose
// election key is gone (runtime/etcdlog's ErrFenced). The request is
// answered as a standby answers, 503 naming no leader, so that a client
// of several master candidates asks the others.
type notLeader interface{ NotLeader() bool }

// isNotLeader reports whether err is, or wraps, a notLeader error.
func isNotLeader(err error) bool {
	var nl notLeader
	return errors.As(err, &nl) && nl.NotLeader()
}

// A markJournal can be compacted at a mark taken with the state the
// snapshot reflects, while transactions go on being appended: those after
// the mark follow the snapshot (see eventlog.Log.CompactAt).
type markJournal interface {
	Mark() eventlog.Mark
	CompactAt(m eventlog.Mark, snapshot [][]byte) error
}

// Committed is an appended transaction: Wait returns once it is durable,
// or why it will never be.
type Committed interface{ Wait() error }

// A Store keeps the event log outside the state directory, for master
// candidates that share it: whichever leads opens it and replays it.
// With a Store, the daemon runs no job itself: every host's jobs go to
// its execution agent (lsfc sbatchd), which outlives any one master.
type Store interface {
	// Open reads the log, calling replay for each transaction in order,
	// and returns it ready for appends, with a note of what it repaired
	// ("" if nothing).
	Open(replay func(seq uint64, records [][]byte) error) (Journal, string, error)
	// String says where the log is, for badmin showstatus.
	String() string
}

// fileStore is the default: lsb.events in the state directory. With
// existing, a missing or empty log is refused (see Config.New).
type fileStore struct {
	path     string
	existing bool
}

type fileJournal struct{ *eventlog.Log }

func (j fileJournal) Append(records [][]byte) (Committed, error) { return j.Log.Append(records) }

func (j fileJournal) AppendDeferred(records [][]byte, within time.Duration) (Committed, error) {
	return j.Log.AppendDeferred(records, within)
}

// Flush has the transactions appended so far written now.
func (j fileJournal) Flush() Committed { return j.Log.Flush() }

// A deferJournal appends transactions that call for no sync of their
// own: they are made durable with the next transaction that does, or
// within the time given (see eventlog.Log.AppendDeferred). A Journal
// without it makes them durable at once.
type deferJournal interface {
	AppendDeferred(records [][]byte, within time.Duration) (Committed, error)
}

func (s fileStore) String() string { return s.path }

func (s fileStore) Open(replay func(uint64, [][]byte) error) (Journal, string, error) {
	// A log made before logs were private is made so.
	for _, p := range []string{s.path, s.path + ".1"} {
		if err := private(p); err != nil {
			return nil, "", fmt.Errorf("event log: %w", err)
		}
	}
	l, rec, err := eventlog.Open(s.path, eventlog.Options{Replay: replay, Existing: s.existing, KeepPrevious: true})
	if errors.Is(err, eventlog.ErrNoLog) {
		dir := filepath.Dir(s.path)
		return nil, "", fmt.Errorf("state directory %s has held a cluster but its event log %s is missing or empty: restore the log, or start a new empty cluster with lsfc serve --new", dir, filepath.Base(s.path))
	}
	if err != nil {
		return nil, "", err
	}
	note := ""
	// Zeros after the last transaction are the space the log reserves
	// ahead of its writes, left by a crash: nothing was cut.
	switch {
	case rec != nil && rec.TornWrite:
		note = fmt.Sprintf("the last write to %s, torn by a crash, was cut at offset %d (%d bytes): %s", s.path, rec.TruncatedAt, rec.Dropped, rec.Reason)
	case rec != nil && rec.Truncated && !rec.ZeroTail:
		note = fmt.Sprintf("a torn transaction at the end of %s was cut at offset %d (%d bytes)", s.path, rec.TruncatedAt, rec.Dropped)
	}
	return fileJournal{l}, note, nil
}

func newFileStore(stateDir string, existing bool) fileStore {
	return fileStore{path: filepath.Join(stateDir, "lsb.events"), existing: existing}
}
