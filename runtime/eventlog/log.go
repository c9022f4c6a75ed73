package eventlog

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"syscall"
	"time"

	"github.com/lsfc/lsfc/internal/fsync"
)

// ErrClosed is returned, wrapped with the path, by calls on a closed Log.
var ErrClosed = errors.New("event log is closed")

// ErrNoLog is returned, wrapped with the path, by Open with
// Options.Existing when the file is missing or empty.
var ErrNoLog = errors.New("event log is missing or empty")

const (
	// tempSuffix names the file a new log or a compaction is written to
	// before it is renamed over the log.
	tempSuffix = ".tmp"
	// previousSuffix names the file Options.KeepPrevious keeps.
	previousSuffix = ".1"
	// maxPending is how many bytes may wait for the writer before Append
	// blocks; one transaction larger than that still goes through alone.
	maxPending = 64 << 20
	// maxSpare is the largest write buffer the writer keeps for reuse.
	maxSpare = 4 << 20
	// newFileMode is the mode of a log Open creates; a compaction keeps
	// the mode of the file it replaces.
	newFileMode = 0o600
	// reserveAhead is how far past its last transaction the writer
	// extends the file with zeros, made durable once (see reserve).
	reserveAhead = 1 << 20
)

// Options configures Open. The zero value is usable: transactions are
// checked but not delivered.
type Options struct {
	// Replay, if not nil, is called by Open for each intact transaction,
	// in order. It may keep records. If it returns an error Open stops
	// and returns it. If Open fails, Replay may already have seen a
	// prefix of the log: whatever it built must be discarded.
	Replay func(seq uint64, records [][]byte) error
	// KeepPrevious keeps the file a compaction replaces as lsb.events.1
	// (the log's path with ".1" added), replacing an older one.
	KeepPrevious bool
	// Existing refuses a missing or empty file with ErrNoLog instead of
	// creating an empty log: the caller knows a log was kept there.
	Existing bool

	// sync makes written data durable; nil means fsync.DataSync.
	sync func(*os.File) error
	// now reads the clock that tells how long the log was idle (see
	// gather); nil means time.Now.
	now func() time.Time
}

// A Log is an open event log. Its methods are safe for concurrent use.
type Log struct {
	path string
	opts Options
	sync func(*os.File) error
	done chan struct{} // closed when the writer stops

	// compactMu lets one compaction run at a time.
	compactMu sync.Mutex

	mu      sync.Mutex
	work    sync.Cond // the writer waits for frames, a switch or closing
	space   sync.Cond // appenders wait for the pending bytes to drain
	gen     uint64    // counts the files the log has had
	lastSeq uint64    // of the last transaction appended
	tail    int64     // offset after the last transaction appended
	pending []byte    // frames not yet taken by the writer
	group   *group    // the transactions in pending
	// writing is the group the writer is writing, nil between groups.
	writing *group
	sw      *switchReq
	moves   []move // of the last compactions, oldest first
	err     error  // sticky: the first write or sync failure
	// stalled is the error of the last write that failed for want of
	// space, while the writer waits to retry it; nil when writing.
	stalled error
	closing bool
	stats   Stats
	// gathering is set while the writer waits for a group to fill (see
	// gather); appenders then wake it on every transaction.
	gathering bool

	// Owned by the writer once it runs. lastGroup and lastSync are the
	// size and the write-and-sync time of the last group, released the
	// time its appenders were told of its end.
	lastGroup int
	lastSync  time.Duration
	released  time.Time
	f         *os.File
	size      int64 // bytes written to f
	// reserved is the length of f: size plus the zeros reserve wrote
	// past it. noReserve, when above size, is where reserve tries again
	// after it failed.
	reserved  int64
	noReserve int64
}

// A group is the transactions made durable by one write and one sync.
type group struct {
	n    int
	done chan struct{}
	err  error // set before done is closed
	// urgent counts the transactions of Append, which call for a write
	// at once; those of AppendDeferred wait for one, or for their
	// deadline: timer then sets due.
	urgent   int
	due      bool
	deadline time.Time
	timer    *time.Timer
}

// ready reports whether the writer is to take the group now.
func (g *group) ready() bool { return g.urgent > 0 || g.due }

func newGroup() *group { return &group{done: make(chan struct{})} }

// A Commit is the handle of one appended transaction.
type Commit struct {
	seq uint64
	g   *group
}

// Seq returns the transaction's sequence number.
func (c Commit) Seq() uint64 { return c.seq }

// Wait blocks until the transaction is durable, and returns nil, or
// until writing it failed, and returns why. The zero Commit returns nil.
func (c Commit) Wait() error {
	if c.g == nil {
		return nil
	}
	<-c.g.done
	return c.g.err
}

// Done returns a channel closed when Wait would no longer block (nil for
// the zero Commit).
func (c Commit) Done() <-chan struct{} {
	if c.g == nil {
		return nil
	}
	return c.g.done
}

// Stats are counters of a Log since Open.
type Stats struct {
	Transactions uint64 // transactions appended
	Records      uint64 // records in them
	Durable      uint64 // transactions whose sync succeeded
	Syncs        uint64 // writes-and-syncs of appended transactions (one per group)
	Bytes        uint64 // bytes of appended transactions written
	MaxGroup     int    // most transactions made durable by one sync
	Compactions  uint64 // compactions that replaced the file
	Stalls       uint64 // times the writer waited for space
	Gathers      uint64 // times the writer waited for a group to fill
	LastSeq      uint64 // sequence number of the last transaction appended
	Size         int64  // end of the last transaction written (the file may hold reserved zeros past it)
}

// Open opens the log at path, creating an empty one if there is no file
// or the file is empty (unless opts.Existing is set: then that is
// ErrNoLog, and nothing is created). Otherwise it replays the log through
// opts.Replay, truncates a torn tail and removes a leftover temporary
// file; the Recovery says what it found and did. Corruption other than a
// torn tail is a *CorruptError, and the file is left as it was. On any
// error the Log and the Recovery are nil.
func Open(path string, opts Options) (*Log, *Recovery, error) {
	rec := &Recovery{}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) && opts.Existing {
		return nil, nil, fmt.Errorf("%s: %w", path, ErrNoLog)
	}
	if errors.Is(err, fs.ErrNotExist) {
		f, err = create(path)
		rec.Created = true
	}
	if err != nil {
		return nil, nil, err
	}
	st, err := f.Stat()
	if err == nil && st.Size() == 0 && !rec.Created {
		f.Close()
		if opts.Existing {
			return nil, nil, fmt.Errorf("%s: %w", path, ErrNoLog)
		}
		f, err = create(path)
		rec.Created = true
		if err == nil {
			st, err = f.Stat()
		}
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	size, err := recoverFile(f, path, st.Size(), opts.Replay, rec)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	if err := os.Remove(path + tempSuffix); err == nil {
		rec.RemovedTemp = true
	} else if !errors.Is(err, fs.ErrNotExist) {
		f.Close()
		return nil, nil, err
	}
	rec.Size = size
	l := &Log{
		path:     path,
		opts:     opts,
		sync:     opts.sync,
		done:     make(chan struct{}),
		gen:      1,
		lastSeq:  rec.LastSeq,
		tail:     size,
		group:    newGroup(),
		f:        f,
		size:     size,
		reserved: size,
	}
	if l.sync == nil {
		l.sync = fsync.DataSync
	}
	if l.opts.now == nil {
		l.opts.now = time.Now
	}
	l.work.L = &l.mu
	l.space.L = &l.mu
	l.stats.LastSeq = rec.LastSeq
	l.stats.Size = size
	go l.run()
	return l, rec, nil
}

// recoverFile checks the header of f, replays its frames and truncates a
// torn tail. It returns the length of the file afterwards.
func recoverFile(f *os.File, path string, size int64, replay func(uint64, [][]byte) error, rec *Recovery) (int64, error) {
	if size < headerSize {
		return 0, &CorruptError{path, size, fmt.Sprintf("file of %d bytes is shorter than the %d-byte header", size, headerSize)}
	}
	h := make([]byte, headerSize)
	if _, err := f.ReadAt(h, 0); err != nil {
		return 0, fmt.Errorf("%s: offset 0: %w", path, err)
	}
	sealed, off, reason := decodeHeader(h)
	if reason != "" {
		return 0, &CorruptError{path, off, reason}
	}
	if size < sealed {
		return 0, &CorruptError{path, size, fmt.Sprintf("file ends before its sealed length %d", sealed)}
	}
	s := &scanner{f: f, path: path, size: size, sealed: sealed, replay: replay, rec: rec}
	end, torn, err := s.scan()
	if err != nil {
		return 0, err
	}
	if end == size {
		return size, nil
	}
	zero, err := allZero(f, end, size)
	if err != nil {
		return 0, fmt.Errorf("%s: offset %d: %w", path, end, err)
	}
	if err := f.Truncate(end); err != nil {
		return 0, fmt.Errorf("%s: truncating torn tail at offset %d: %w", path, end, err)
	}
	if err := f.Sync(); err != nil {
		return 0, fmt.Errorf("%s: sync after truncating at offset %d: %w", path, end, err)
	}
	rec.Truncated, rec.TruncatedAt, rec.Dropped, rec.Reason, rec.ZeroTail = true, end, size-end, torn, zero
	return end, nil
}

// create makes an empty log at path: written and synced under a
// temporary name, renamed, and the directory synced.
func create(path string) (*os.File, error) {
	tmp := path + tempSuffix
	f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_TRUNC, newFileMode)
	if err != nil {
		return nil, err
	}
	_, err = f.WriteAt(encodeHeader(headerSize), 0)
	if err == nil {
		err = f.Sync()
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		f.Close()
		os.Remove(tmp)
		return nil, err
	}
	if err := syncDir(filepath.Dir(path)); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// syncDir makes the directory's entries durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("sync of directory %s: %w", dir, err)
	}
	return nil
}

// Path returns the path the log was opened with.
func (l *Log) Path() string { return l.path }

// Append adds a transaction of records, which it copies, and returns its
// Commit without waiting for it to be durable. It blocks only while more
// than 64 MiB wait to be written. It fails if a record or the
// transaction is over its limit, if the log is closed, or, for good, once
// a write or sync has failed.
func (l *Log) Append(records [][]byte) (Commit, error) {
	return l.append(records, 0)
}

// AppendDeferred is Append for a transaction that calls for no write of
// its own: it is written, and synced, with the next transaction appended
// by Append (or the group the writer is gathering), or once within has
// passed, whichever comes first; a Close or a compaction writes it too.
// Its Commit completes, as any, once it is durable. Transactions stay in
// order: one made durable makes every transaction before it durable, so
// a deferred transaction is durable before any transaction appended after
// it is. It is for records whose loss in a crash the caller recovers by
// other means, and that nothing waits for soon: where they are many, they
// share the syncs that others call for rather than each call for one.
func (l *Log) AppendDeferred(records [][]byte, within time.Duration) (Commit, error) {
	return l.append(records, max(within, time.Nanosecond))
}

// append appends a transaction, deferred by within (0: urgent).
func (l *Log) append(records [][]byte, within time.Duration) (Commit, error) {
	body, err := bodySize(records)
	if err != nil {
		return Commit{}, fmt.Errorf("%s: %w", l.path, err)
	}
	size := frameHeaderSize + body
	l.mu.Lock()
	defer l.mu.Unlock()
	for len(l.pending) > 0 && len(l.pending)+size > maxPending && !l.closing && l.err == nil {
		l.space.Wait()
	}
	if l.closing {
		return Commit{}, fmt.Errorf("%s: %w", l.path, ErrClosed)
	}
	if l.err != nil {
		return Commit{}, l.err
	}
	l.lastSeq++
	l.pending = appendFrame(l.pending, l.lastSeq, records, body)
	l.tail += int64(size)
	l.group.n++
	l.stats.Transactions++
	l.stats.Records += uint64(len(records))
	l.stats.LastSeq = l.lastSeq
	g := l.group
	if within > 0 {
		l.deferGroup(g, within)
		if l.gathering {
			l.work.Signal()
		}
		return Commit{seq: l.lastSeq, g: g}, nil
	}
	g.urgent++
	if g.urgent == 1 || l.gathering {
		l.work.Signal()
	}
	return Commit{seq: l.lastSeq, g: g}, nil
}

// deferGroup makes sure, with l.mu held, that g is written within the
// given time from now.
func (l *Log) deferGroup(g *group, within time.Duration) {
	if g.ready() {
		return
	}
	deadline := time.Now().Add(within)
	if g.timer != nil {
		if !deadline.Before(g.deadline) {
			return
		}
		g.timer.Stop()
	}
	g.deadline = deadline
	g.timer = time.AfterFunc(within, func() {
		l.mu.Lock()
		defer l.mu.Unlock()
		if l.group == g {
			g.due = true
			l.work.Signal()
		}
	})
}

// Flush calls for the transactions appended so far, deferred ones too,
// to be written now, and returns a Commit that completes once they are
// all durable (the zero Commit when they are).
func (l *Log) Flush() Commit {
	l.mu.Lock()
	defer l.mu.Unlock()
	if g := l.group; g.n > 0 {
		if !g.ready() {
			g.due = true
			l.work.Signal()
		}
		return Commit{seq: l.lastSeq, g: g}
	}
	if l.writing != nil {
		return Commit{seq: l.lastSeq, g: l.writing}
	}
	return Commit{}
}

// Stats returns the log's counters.
func (l *Log) Stats() Stats {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.stats
}

// Close makes every transaction appended so far durable, stops the
// writer and closes the file. It returns the error that stopped the log,
// if one did. Calls after the first return ErrClosed.
func (l *Log) Close() error {
	l.mu.Lock()
	if l.closing {
		l.mu.Unlock()
		return fmt.Errorf("%s: %w", l.path, ErrClosed)
	}
	l.closing = true
	l.work.Signal()
	l.space.Broadcast()
	l.mu.Unlock()
	<-l.done
	err := l.unreserve()
	if cerr := l.f.Close(); err == nil {
		err = cerr
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return l.err
	}
	return err
}

// run is the writer: it takes the pending group, writes and syncs it,
// completes it, and handles a compaction's switch between two groups.
func (l *Log) run() {
	defer close(l.done)
	var spare []byte
	for {
		l.mu.Lock()
		for !l.group.ready() && l.sw == nil && !l.closing {
			l.work.Wait()
		}
		l.gather()
		g, data, sw := l.group, l.pending, l.sw
		// A group left in place (none pending at a file switch) takes
		// appends as soon as the lock is let go: its size is read here.
		grouped := g.n > 0
		if !grouped && sw == nil {
			l.mu.Unlock()
			return
		}
		if grouped {
			if g.timer != nil {
				g.timer.Stop()
			}
			l.group, l.pending = newGroup(), spare[:0]
			l.writing = g
			l.space.Broadcast()
		}
		l.sw = nil
		err := l.err
		l.mu.Unlock()

		if grouped {
			if err == nil {
				start := time.Now()
				err = l.write(data)
				for noSpace(err) && l.waitForSpace(err) {
					err = l.write(data)
				}
				if g.urgent > 0 {
					// A group the deadline of deferred transactions
					// sent says nothing of how appenders come back.
					l.lastGroup, l.lastSync = g.n, time.Since(start)
				}
			}
			l.finish(g, len(data), err)
			if g.urgent > 0 {
				l.released = l.opts.now()
			}
			// Let the appenders just released append again before the
			// next group is taken, so that they share its sync rather
			// than splitting into two groups that alternate.
			runtime.Gosched()
			if cap(data) <= maxSpare {
				spare = data
			}
		}
		if sw != nil {
			sw.result <- l.switchFile(sw)
		}
	}
}

// maxGather bounds how long the writer waits for a group to fill.
const maxGather = time.Millisecond

// idleGap is how long after a group's release a transaction comes from
// no appender that group released: the log was idle.
const idleGap = 10 * time.Millisecond

// gather waits, with l.mu held, for the pending group to fill up to the
// size of the last one, for at most twice as long as the last write and
// sync took (and never more than maxGather). Appenders released by a sync
// come back at about the same time, each after its own round trip;
// without the wait the first of them would be synced alone, and the
// group commit would break up into small groups, each paying a whole
// sync. When syncs are fast (or groups small) the wait is short or none.
// A group begun more than idleGap after the last one was released holds
// none of its appenders: the log was idle, and the group is written at
// once (a bkill after a while would otherwise wait for the appenders of
// a group long answered). The bound is well past an appender's round
// trip, so that appenders slow to come back on a loaded machine still
// share a sync.
func (l *Log) gather() {
	if l.group.urgent == 0 || l.group.n >= l.lastGroup || l.lastSync <= 0 || l.sw != nil || l.closing {
		return
	}
	if l.opts.now().Sub(l.released) > idleGap {
		return
	}
	deadline := time.Now().Add(min(2*l.lastSync, maxGather))
	l.stats.Gathers++
	l.gathering = true
	t := time.AfterFunc(time.Until(deadline), func() {
		l.mu.Lock()
		l.work.Broadcast()
		l.mu.Unlock()
	})
	for l.group.n < l.lastGroup && l.sw == nil && !l.closing && time.Now().Before(deadline) {
		l.work.Wait()
	}
	t.Stop()
	l.gathering = false
}

// write writes data at the end of the file and syncs it. When the file
// system is out of space, what part of data reached the file is cut off
// again, so that the write can be retried whole.
func (l *Log) write(data []byte) error {
	l.reserve(int64(len(data)))
	err := error(nil)
	if _, werr := l.f.WriteAt(data, l.size); werr != nil {
		err = fmt.Errorf("%s: writing %d bytes at offset %d: %w", l.path, len(data), l.size, werr)
	} else if serr := l.sync(l.f); serr != nil {
		err = fmt.Errorf("%s: sync after writing %d bytes at offset %d: %w", l.path, len(data), l.size, serr)
	}
	if err == nil {
		l.size += int64(len(data))
		return nil
	}
	if noSpace(err) {
		// The retries write the group alone: zeros reserved ahead of it
		// would take the space it waits for.
		l.reserved, l.noReserve = l.size, l.size+int64(len(data))+reserveAhead
		if terr := l.f.Truncate(l.size); terr != nil {
			return fmt.Errorf("%v; cutting the unwritten group at offset %d: %w", err, l.size, terr)
		}
		if serr := l.f.Sync(); serr != nil && !noSpace(serr) {
			return fmt.Errorf("%v; sync after cutting the unwritten group at offset %d: %w", err, l.size, serr)
		}
	}
	return err
}

// reserve makes sure, as far as it can, that the next n bytes are
// written over zeros the file already holds durably: it extends the file
// by zeros up to reserveAhead past them, and fsyncs it, when they are
// not. An fdatasync after a write inside the file's length then has no
// metadata to make durable (the length does not change), which on
// journalling file systems saves a journal commit per group: the sync,
// which bounds the rate of durable transactions, takes a fraction of the
// time. The zeros past the last transaction are no frame: a reader stops
// there (Read), Open cuts them off (Recovery.ZeroTail) and Close does
// too. When the zeros cannot be written (no space), reserve cuts what it
// wrote and gives up until the file has grown by reserveAhead: the
// transactions are written as before, each extending the file.
func (l *Log) reserve(n int64) {
	end := l.size + n
	if end <= l.reserved || end <= l.noReserve {
		return
	}
	from := max(l.reserved, l.size)
	to := end + reserveAhead
	err := error(nil)
	zeros := make([]byte, min(to-from, 64<<10))
	for off := from; off < to && err == nil; off += int64(len(zeros)) {
		_, err = l.f.WriteAt(zeros[:min(int64(len(zeros)), to-off)], off)
	}
	if err == nil {
		err = l.f.Sync()
	}
	if err != nil {
		// Nothing was promised on these zeros: the file goes back to
		// the transactions' end, and the write goes on without them.
		l.f.Truncate(l.size)
		l.reserved, l.noReserve = l.size, end+reserveAhead
		return
	}
	l.reserved = to
}

// unreserve cuts the zeros reserve left past the last transaction, when
// the log closes.
func (l *Log) unreserve() error {
	l.mu.Lock()
	failed := l.err != nil
	l.mu.Unlock()
	if l.reserved <= l.size || failed {
		return nil
	}
	if err := l.f.Truncate(l.size); err != nil {
		return fmt.Errorf("%s: cutting the reserved space at offset %d: %w", l.path, l.size, err)
	}
	l.reserved = l.size
	return nil
}

// noSpaceRetry is how often a write that failed for want of space is
// tried again.
const noSpaceRetry = 200 * time.Millisecond

// noSpace reports whether err is the file system's lack of space (or of
// the user's quota).
func noSpace(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT)
}

// waitForSpace notes that the writer is stalled by err and waits a while
// before the next try; it returns false, without waiting, once the log is
// closing: the group then fails with err.
func (l *Log) waitForSpace(err error) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closing {
		return false
	}
	if l.stalled == nil {
		l.stats.Stalls++
	}
	l.stalled = err
	t := time.AfterFunc(noSpaceRetry, func() {
		l.mu.Lock()
		l.work.Broadcast()
		l.mu.Unlock()
	})
	defer t.Stop()
	// Appends and compactions wake the writer too: wait out the delay.
	for deadline := time.Now().Add(noSpaceRetry); !l.closing && time.Now().Before(deadline); {
		l.work.Wait()
	}
	return true
}

// Stalled returns, while the file system has no space for the pending
// transactions, the error of the last try to write them, and nil
// otherwise. Appends go on meanwhile: their transactions wait in memory,
// in order, and the writer tries again every 200 ms until they are
// written, or the log is closed.
func (l *Log) Stalled() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.stalled
}

// finish records the outcome of a group and releases its waiters.
func (l *Log) finish(g *group, n int, err error) {
	l.mu.Lock()
	if l.writing == g {
		l.writing = nil
	}
	l.stalled = nil
	if err != nil {
		if l.err == nil {
			l.err = err
		}
		l.space.Broadcast()
	} else {
		l.stats.Durable += uint64(g.n)
		l.stats.Syncs++
		l.stats.Bytes += uint64(n)
		l.stats.MaxGroup = max(l.stats.MaxGroup, g.n)
		l.stats.Size = l.size
	}
	l.mu.Unlock()
	g.err = err
	close(g.done)
}
