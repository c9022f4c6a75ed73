package eventlog

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// A txn is one replayed transaction.
type txn struct {
	Seq     uint64
	Records []string
}

func (x txn) String() string { return fmt.Sprintf("%d%q", x.Seq, x.Records) }

// reopen opens the log at path, collecting what it replays.
func reopen(path string, opts Options) (*Log, []txn, *Recovery, error) {
	got := []txn{}
	opts.Replay = func(seq uint64, records [][]byte) error {
		x := txn{Seq: seq, Records: []string{}}
		for _, r := range records {
			x.Records = append(x.Records, string(r))
		}
		got = append(got, x)
		return nil
	}
	l, rec, err := Open(path, opts)
	return l, got, rec, err
}

// replayFile opens and closes the log at path and returns what it
// replayed.
func replayFile(t *testing.T, path string) ([]txn, *Recovery) {
	t.Helper()
	l, got, rec, err := reopen(path, Options{})
	if err != nil {
		t.Fatalf("Open(%s): %v", path, err)
	}
	if err := l.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	return got, rec
}

// mustOpen opens a log and closes it at the end of the test.
func mustOpen(t *testing.T, path string, opts Options) *Log {
	t.Helper()
	l, _, err := Open(path, opts)
	if err != nil {
		t.Fatalf("Open(%s): %v", path, err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// appendWait appends one transaction of records and waits for it.
func appendWait(t *testing.T, l *Log, records ...string) uint64 {
	t.Helper()
	var rs [][]byte
	for _, r := range records {
		rs = append(rs, []byte(r))
	}
	c, err := l.Append(rs)
	if err != nil {
		t.Fatalf("Append(%q): %v", records, err)
	}
	if err := c.Wait(); err != nil {
		t.Fatalf("Append(%q).Wait: %v", records, err)
	}
	return c.Seq()
}

func TestOpenCreates(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "lsb.events")
	l, rec, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := &Recovery{Created: true, Size: headerSize}
	if !reflect.DeepEqual(rec, want) {
		t.Errorf("Open(new) recovery = %+v, want %+v", rec, want)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != "lsb.events" {
		t.Errorf("directory holds %v, want only lsb.events", entries)
	}
	got, rec := replayFile(t, path)
	if len(got) != 0 || rec.Created || rec.Truncated {
		t.Errorf("reopen of empty log: replayed %v, recovery %+v", got, rec)
	}

	// An empty file is a log not yet made.
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, rec := replayFile(t, path); !rec.Created {
		t.Errorf("Open(empty file) recovery = %+v, want Created", rec)
	}
	// A missing directory is an error.
	if _, _, err := Open(filepath.Join(dir, "missing", "lsb.events"), Options{}); err == nil {
		t.Error("Open in a missing directory succeeded")
	}
}

// TestOpenExisting checks that Options.Existing refuses a missing or
// empty file and creates nothing.
func TestOpenExisting(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "lsb.events")
	if _, _, err := Open(path, Options{Existing: true}); !errors.Is(err, ErrNoLog) {
		t.Errorf("Open(missing, Existing) error = %v, want ErrNoLog", err)
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Open(missing, Existing) made the file: %v", err)
	}
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Open(path, Options{Existing: true}); !errors.Is(err, ErrNoLog) {
		t.Errorf("Open(empty, Existing) error = %v, want ErrNoLog", err)
	}
	if st, err := os.Stat(path); err != nil || st.Size() != 0 {
		t.Errorf("Open(empty, Existing) changed the file: %v", err)
	}
	l, _, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	appendWait(t, l, "a")
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	l, rec, err := Open(path, Options{Existing: true})
	if err != nil {
		t.Fatalf("Open(log, Existing): %v", err)
	}
	defer l.Close()
	if rec.LastSeq != 1 {
		t.Errorf("Open(log, Existing) last sequence = %d, want 1", rec.LastSeq)
	}
}

// TestRoundTripConcurrent appends from many goroutines, some waiting and
// some not, and checks the reopened log replays every transaction once,
// in sequence, each goroutine's in its own order.
func TestRoundTripConcurrent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lsb.events")
	l := mustOpen(t, path, Options{})
	const writers, each = 8, 100
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				recs := [][]byte{[]byte(fmt.Sprintf("%d/%d", w, i))}
				for range i % 3 {
					recs = append(recs, bytes.Repeat([]byte{byte(w)}, i))
				}
				c, err := l.Append(recs)
				if err != nil {
					t.Error(err)
					return
				}
				if i%4 == 0 {
					if err := c.Wait(); err != nil {
						t.Error(err)
						return
					}
				}
			}
		})
	}
	wg.Wait()
	st := l.Stats()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if st.Transactions != writers*each || st.LastSeq != writers*each {
		t.Errorf("stats %+v, want %d transactions", st, writers*each)
	}

	got, rec := replayFile(t, path)
	if rec.Transactions != writers*each || rec.FirstSeq != 1 || rec.LastSeq != writers*each || rec.Truncated {
		t.Errorf("recovery %+v, want %d transactions from 1", rec, writers*each)
	}
	next := make([]int, writers)
	for k, x := range got {
		if x.Seq != uint64(k+1) {
			t.Fatalf("transaction %d has sequence number %d", k, x.Seq)
		}
		var w, i int
		if _, err := fmt.Sscanf(x.Records[0], "%d/%d", &w, &i); err != nil {
			t.Fatalf("transaction %d: %v", x.Seq, err)
		}
		if i != next[w] {
			t.Fatalf("transaction %d is %d/%d, want %d/%d", x.Seq, w, i, w, next[w])
		}
		next[w]++
		want := 1 + i%3
		if len(x.Records) != want || (want > 1 && x.Records[1] != strings.Repeat(string(rune(w)), i)) {
			t.Fatalf("transaction %d (%d/%d) has records %q", x.Seq, w, i, x.Records)
		}
	}
	for w, n := range next {
		if n != each {
			t.Errorf("writer %d: %d transactions replayed, want %d", w, n, each)
		}
	}
}

// TestCloseFlushes appends without waiting: Close makes it all durable.
func TestCloseFlushes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lsb.events")
	l, _, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var last Commit
	for i := range 50 {
		if last, err = l.Append([][]byte{[]byte(fmt.Sprint(i))}); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-last.Done():
	default:
		t.Error("last commit not done after Close")
	}
	if err := l.Close(); !errors.Is(err, ErrClosed) {
		t.Errorf("second Close = %v, want ErrClosed", err)
	}
	if _, err := l.Append(nil); !errors.Is(err, ErrClosed) {
		t.Errorf("Append after Close = %v, want ErrClosed", err)
	}
	got, _ := replayFile(t, path)
	if len(got) != 50 || got[49].Records[0] != "49" {
		t.Errorf("replayed %d transactions, want 50 ending in \"49\"", len(got))
	}
}

func TestAppendLimits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lsb.events")
	l := mustOpen(t, path, Options{})
	_, err := l.Append([][]byte{make([]byte, MaxRecordSize+1)})
	if err == nil || !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "limit") {
		t.Errorf("Append(oversized record) = %v, want an error naming the path and the limit", err)
	}
	// The log is still usable, and empty transactions are transactions.
	if seq := appendWait(t, l); seq != 1 {
		t.Errorf("first transaction after a refused one has sequence number %d, want 1", seq)
	}
	appendWait(t, l, "")
	l.Close()
	got, _ := replayFile(t, path)
	want := []txn{{1, []string{}}, {2, []string{""}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("replayed %v, want %v", got, want)
	}
}

// TestStickyError fails one sync: its transactions report it, and the log
// refuses everything after.
func TestStickyError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lsb.events")
	calls := 0
	boom := errors.New("device on fire")
	l, _, err := Open(path, Options{sync: func(f *os.File) error {
		calls++
		if calls == 2 {
			return boom
		}
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	appendWait(t, l, "one")
	c, err := l.Append([][]byte{[]byte("two")})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Wait(); !errors.Is(err, boom) || !strings.Contains(err.Error(), path) {
		t.Errorf("Wait after failed sync = %v, want the sync error with the path", err)
	}
	if _, err := l.Append([][]byte{[]byte("three")}); !errors.Is(err, boom) {
		t.Errorf("Append after failed sync = %v, want the sync error", err)
	}
	if err := l.Compact(nil); !errors.Is(err, boom) {
		t.Errorf("Compact after failed sync = %v, want the sync error", err)
	}
	if err := l.Close(); !errors.Is(err, boom) {
		t.Errorf("Close after failed sync = %v, want the sync error", err)
	}
}

func TestReplayError(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lsb.events")
	l := mustOpen(t, path, Options{})
	appendWait(t, l, "a")
	appendWait(t, l, "b")
	l.Close()
	before, _ := os.ReadFile(path)
	bad := errors.New("unknown job")
	_, _, err := Open(path, Options{Replay: func(seq uint64, _ [][]byte) error {
		if seq == 2 {
			return bad
		}
		return nil
	}})
	if !errors.Is(err, bad) || !strings.Contains(err.Error(), path+": offset ") {
		t.Errorf("Open with failing replay = %v, want the replay error with path and offset", err)
	}
	if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
		t.Error("failed Open changed the file")
	}
}

// TestGroupCommit makes syncs slow: concurrent appenders share them.
func TestGroupCommit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lsb.events")
	slow := func(f *os.File) error {
		time.Sleep(2 * time.Millisecond)
		return nil
	}
	l := mustOpen(t, path, Options{sync: slow})
	const writers, each = 64, 10
	var wg sync.WaitGroup
	for range writers {
		wg.Go(func() {
			for range each {
				c, err := l.Append([][]byte{make([]byte, 200)})
				if err == nil {
					err = c.Wait()
				}
				if err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	st := l.Stats()
	t.Logf("%d transactions, %d syncs, largest group %d", st.Transactions, st.Syncs, st.MaxGroup)
	if st.Durable != writers*each || st.Syncs*8 > st.Durable || st.MaxGroup < writers/2 {
		t.Errorf("%d transactions made durable by %d syncs (largest group %d): want at most one sync per 8", st.Durable, st.Syncs, st.MaxGroup)
	}
	if want := uint64(writers * each * (minFrame + 4 + 200)); st.Bytes != want {
		t.Errorf("stats count %d bytes written, want %d", st.Bytes, want)
	}
}

// TestGroupCommitRealSync is TestGroupCommit with the real fdatasync.
func TestGroupCommitRealSync(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lsb.events")
	l := mustOpen(t, path, Options{})
	const writers, each = 32, 10
	var wg sync.WaitGroup
	for range writers {
		wg.Go(func() {
			for range each {
				c, err := l.Append([][]byte{make([]byte, 200)})
				if err == nil {
					err = c.Wait()
				}
				if err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	st := l.Stats()
	t.Logf("%d transactions, %d syncs, largest group %d", st.Transactions, st.Syncs, st.MaxGroup)
	if st.Syncs*2 > st.Durable {
		t.Errorf("%d transactions made durable by %d syncs: want at most one sync per 2", st.Durable, st.Syncs)
	}
}

// TestReservedSpace checks the zeros the writer keeps past its
// transactions: the file is longer than they are while the log is open, a
// reader beside it stops at the zeros, a copy of the file (as a crash
// leaves it) opens with every transaction and the zeros cut as a tail
// that held none, and Close cuts them.
func TestReservedSpace(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "lsb.events")
	l, _, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []txn{}
	for i := 1; i <= 5; i++ {
		appendWait(t, l, fmt.Sprint("job ", i))
		want = append(want, txn{uint64(i), []string{fmt.Sprint("job ", i)}})
	}
	end := l.Stats().Size
	live, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(live)) <= end || !bytes.Equal(live[end:], make([]byte, len(live)-int(end))) {
		t.Fatalf("open log of %d bytes, transactions end at %d: want zeros after them", len(live), end)
	}
	var read []txn
	if err := Read(path, func(seq uint64, records [][]byte) error {
		read = append(read, txn{seq, []string{string(records[0])}})
		return nil
	}); err != nil || !reflect.DeepEqual(read, want) {
		t.Errorf("Read beside the log: %v, %v; want %v", read, err, want)
	}
	crashed := filepath.Join(dir, "crashed")
	if err := os.WriteFile(crashed, live, 0o600); err != nil {
		t.Fatal(err)
	}
	got, rec := replayFile(t, crashed)
	if !reflect.DeepEqual(got, want) || !rec.Truncated || !rec.ZeroTail || rec.TruncatedAt != end {
		t.Errorf("open after a crash: %v, recovery %+v; want %v and the zeros cut at %d", got, rec, want, end)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(path); err != nil || st.Size() != end {
		t.Errorf("closed log of %v bytes, want %d (%v)", st.Size(), end, err)
	}
	if got, rec := replayFile(t, path); !reflect.DeepEqual(got, want) || rec.Truncated {
		t.Errorf("open after Close: %v, recovery %+v", got, rec)
	}
	// Zeros after a torn frame are no zero tail.
	torn := append(bytes.Clone(live[:end]), appendFrame(nil, 6, [][]byte{[]byte("torn")}, minBody+4+4)[:10]...)
	torn = append(torn, make([]byte, 100)...)
	if err := os.WriteFile(crashed, torn, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, rec := replayFile(t, crashed); !rec.Truncated || rec.ZeroTail {
		t.Errorf("torn frame then zeros: recovery %+v, want a torn tail that is not all zeros", rec)
	}
}

// TestAppendDeferred checks that a deferred transaction waits for a
// write another calls for, or for its deadline, or for Close, and stays
// in order.
func TestAppendDeferred(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lsb.events")
	l, _, err := Open(path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	appendWait(t, l, "first")
	syncs := l.Stats().Syncs
	c, err := l.AppendDeferred([][]byte{[]byte("deferred")}, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	// A real wait: nothing may write the deferred transaction meanwhile.
	time.Sleep(50 * time.Millisecond)
	select {
	case <-c.Done():
		t.Fatalf("a transaction deferred by an hour was written at once (%v)", c.Wait())
	default:
	}
	if got := l.Stats().Syncs; got != syncs {
		t.Errorf("%d syncs for a deferred transaction alone, want none", got-syncs)
	}
	appendWait(t, l, "urgent")
	if err := c.Wait(); err != nil {
		t.Fatal(err)
	}
	if got := l.Stats().Syncs; got != syncs+1 {
		t.Errorf("%d syncs for a deferred transaction and the next, want one shared", got-syncs)
	}
	// Flush writes it at once.
	c, err = l.AppendDeferred([][]byte{[]byte("flushed")}, time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	if f := l.Flush(); f.Seq() != c.Seq() {
		t.Errorf("Flush's commit is of transaction %d, want %d", f.Seq(), c.Seq())
	} else if err := f.Wait(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-c.Done():
	default:
		t.Error("a deferred transaction is not durable once Flush's commit is")
	}
	if err := l.Flush().Wait(); err != nil {
		t.Errorf("Flush with nothing pending: %v", err)
	}
	// Alone, it is written by its deadline.
	c, err = l.AppendDeferred([][]byte{[]byte("by its deadline")}, 20*time.Millisecond)
	if err != nil {
		t.Fatal(err)
	}
	select {
	case <-c.Done():
	case <-time.After(10 * time.Second):
		t.Fatal("a deferred transaction was not written past its deadline")
	}
	// Close writes the last.
	if _, err := l.AppendDeferred([][]byte{[]byte("at close")}, time.Hour); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	got, _ := replayFile(t, path)
	want := []txn{{1, []string{"first"}}, {2, []string{"deferred"}}, {3, []string{"urgent"}}, {4, []string{"flushed"}},
		{5, []string{"by its deadline"}}, {6, []string{"at close"}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("replay:\n got %v\nwant %v", got, want)
	}
}

// TestGatherOnlyAfterARelease checks when the writer waits for a group
// to fill up to the size of the last one: for a transaction appended
// while the last group was being written, whose appenders may come
// back; for one appended a few milliseconds after the release (an
// appender slow to come back on a loaded machine, past maxGather but
// within idleGap); and not for one appended once the log has been idle
// for longer than idleGap. The log's clock is the test's.
func TestGatherOnlyAfterARelease(t *testing.T) {
	gate := make(chan struct{})
	syncs := make(chan struct{}, 16)
	var clockMu sync.Mutex
	clock := time.Unix(1000, 0)
	advance := func(d time.Duration) {
		clockMu.Lock()
		defer clockMu.Unlock()
		clock = clock.Add(d)
	}
	l := mustOpen(t, filepath.Join(t.TempDir(), "lsb.events"), Options{
		sync: func(*os.File) error {
			syncs <- struct{}{}
			<-gate
			return nil
		},
		now: func() time.Time {
			clockMu.Lock()
			defer clockMu.Unlock()
			return clock
		},
	})
	var wg sync.WaitGroup
	appendOne := func() {
		wg.Go(func() {
			c, err := l.Append([][]byte{[]byte("x")})
			if err == nil {
				err = c.Wait()
			}
			if err != nil {
				t.Error(err)
			}
		})
	}
	waitTxns := func(n uint64) {
		for deadline := time.Now().Add(10 * time.Second); l.Stats().Transactions < n; {
			if time.Now().After(deadline) {
				t.Fatalf("%d transactions appended, want %d", l.Stats().Transactions, n)
			}
			time.Sleep(time.Millisecond)
		}
	}
	// groupOfTwo makes the last group written one of two transactions:
	// one alone, then two appended while it syncs.
	n := uint64(0)
	groupOfTwo := func() {
		appendOne()
		<-syncs
		appendOne()
		appendOne()
		n += 3
		waitTxns(n)
		gate <- struct{}{}
		<-syncs
		gate <- struct{}{}
		wg.Wait()
	}
	// lone appends one transaction once the log's clock has moved on by
	// idle after the last release, and returns whether the writer waited
	// for another before writing it.
	lone := func(idle time.Duration) bool {
		before := l.Stats().Gathers
		advance(idle)
		appendOne()
		<-syncs
		gate <- struct{}{}
		wg.Wait()
		n++
		return l.Stats().Gathers != before
	}
	groupOfTwo()
	if !lone(0) {
		t.Error("the writer did not wait for a second transaction right after a group of two")
	}
	groupOfTwo()
	if !lone(3 * maxGather) {
		t.Error("the writer did not wait for a second transaction within idleGap of a group of two")
	}
	groupOfTwo()
	if lone(2 * idleGap) {
		t.Error("the writer waited for a group to fill after the log was idle")
	}
	close(gate)
}
