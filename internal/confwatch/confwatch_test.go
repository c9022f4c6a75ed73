package confwatch

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestWatcher(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "conf")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	w, err := New()
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	missing := filepath.Join(dir, "missing")
	if failed := w.Set([]string{sub, missing}, false); len(failed) != 1 || failed[missing] == nil {
		t.Fatalf("Set failed on %v, want only %s", failed, missing)
	}
	stop := make(chan struct{})
	defer close(stop)
	changes := w.Changes(stop)

	// A change of mode alone is not a change; a write is.
	file := filepath.Join(sub, "lsb.queues")
	if err := os.WriteFile(file, []byte("a"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := next(t, changes); got != file {
		t.Fatalf("first change = %q, want %q", got, file)
	}
	if !Settle(changes, stop, 50*time.Millisecond) {
		t.Fatal("Settle ended without stop")
	}
	if err := os.Chmod(file, 0o600); err != nil {
		t.Fatal(err)
	}
	select {
	case c := <-changes:
		t.Fatalf("a change of mode was reported: %q", c)
	case <-time.After(200 * time.Millisecond):
	}

	// With parents, a directory made next to the watched one is seen.
	w.Set([]string{sub}, true)
	made := filepath.Join(dir, "new")
	if err := os.Mkdir(made, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := next(t, changes); got != made {
		t.Errorf("change = %q, want %q (through the parent)", got, made)
	}
	Settle(changes, stop, 50*time.Millisecond)

	// Dropped from the set, a directory is no longer followed.
	w.Set(nil, false)
	if err := os.WriteFile(filepath.Join(sub, "lsb.hosts"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	select {
	case c := <-changes:
		t.Errorf("a change in a directory no longer watched was reported: %q", c)
	case <-time.After(200 * time.Millisecond):
	}
	w.Set([]string{sub}, false)
	w.Forget()
	if len(w.watched) != 0 {
		t.Errorf("after Forget %d directories are watched", len(w.watched))
	}
}

func TestSettleStops(t *testing.T) {
	stop := make(chan struct{})
	close(stop)
	if Settle(make(chan string), stop, time.Hour) {
		t.Error("Settle reported a settled change after stop")
	}
}

func next(t *testing.T, changes <-chan string) string {
	t.Helper()
	select {
	case c := <-changes:
		return c
	case <-time.After(5 * time.Second):
		t.Fatal("no change reported")
		return ""
	}
}
