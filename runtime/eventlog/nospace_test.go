package eventlog

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/lsfc/lsfc/internal/fsync"
)

// TestNoSpaceStalls makes the file system run out of space for a while
// (the sync fails with ENOSPC after the bytes reached the file, as it
// does where space is allocated late): the log stalls instead of
// failing, takes appends meanwhile, cuts what it could not make durable,
// and once space is back writes every transaction exactly once, in
// order, without being reopened.
func TestNoSpaceStalls(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lsb.events")
	var full atomic.Bool
	l, _, err := Open(path, Options{sync: func(f *os.File) error {
		if full.Load() {
			return &os.PathError{Op: "sync", Path: f.Name(), Err: syscall.ENOSPC}
		}
		return fsync.DataSync(f)
	}})
	if err != nil {
		t.Fatal(err)
	}
	appendWait(t, l, "before")
	full.Store(true)
	var commits []Commit
	for i := range 3 {
		c, err := l.Append([][]byte{[]byte(fmt.Sprintf("during %d", i))})
		if err != nil {
			t.Fatalf("Append while out of space: %v", err)
		}
		commits = append(commits, c)
	}
	deadline := time.Now().Add(5 * time.Second)
	for l.Stalled() == nil && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	if err := l.Stalled(); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("Stalled() = %v while out of space, want ENOSPC", err)
	}
	select {
	case <-commits[0].Done():
		t.Fatalf("a transaction was reported done while out of space: %v", commits[0].Wait())
	case <-time.After(3 * noSpaceRetry):
	}
	// What reached the file without being durable was cut.
	if st, err := os.Stat(path); err != nil || st.Size() != l.Stats().Size {
		t.Errorf("file of %v bytes while stalled, want the %d durable ones (%v)", st.Size(), l.Stats().Size, err)
	}
	full.Store(false)
	for _, c := range commits {
		if err := c.Wait(); err != nil {
			t.Fatalf("Wait once space is back: %v", err)
		}
	}
	if err := l.Stalled(); err != nil {
		t.Errorf("Stalled() = %v once written", err)
	}
	appendWait(t, l, "after")
	if st := l.Stats(); st.Stalls != 1 {
		t.Errorf("Stats().Stalls = %d, want 1", st.Stalls)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	got, _ := replayFile(t, path)
	want := []txn{{1, []string{"before"}}, {2, []string{"during 0"}}, {3, []string{"during 1"}}, {4, []string{"during 2"}}, {5, []string{"after"}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("replay after running out of space = %v, want %v", got, want)
	}
}

// TestNoSpaceClose closes a log stalled for space: the transactions that
// were never written fail with the error, and the file holds only the
// durable ones.
func TestNoSpaceClose(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lsb.events")
	var full atomic.Bool
	l, _, err := Open(path, Options{sync: func(f *os.File) error {
		if full.Load() {
			return syscall.ENOSPC
		}
		return fsync.DataSync(f)
	}})
	if err != nil {
		t.Fatal(err)
	}
	appendWait(t, l, "kept")
	full.Store(true)
	c, err := l.Append([][]byte{[]byte("lost")})
	if err != nil {
		t.Fatal(err)
	}
	for l.Stalled() == nil {
		time.Sleep(5 * time.Millisecond)
	}
	if err := l.Close(); !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("Close while stalled = %v, want ENOSPC", err)
	}
	if err := c.Wait(); !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("Wait of a transaction never written = %v, want ENOSPC", err)
	}
	got, _ := replayFile(t, path)
	if want := []txn{{1, []string{"kept"}}}; !reflect.DeepEqual(got, want) {
		t.Errorf("replay = %v, want %v", got, want)
	}
}
