package localexec

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
)

// prepFiles returns the files made ready in dir.
func prepFiles(t *testing.T, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, ".*"+prepExt))
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// TestPrepare checks that a job made ready starts from the files made,
// that those of a job that never starts are no job's files and go at
// Close or at the next New, and that a job made ready for another
// command starts with its own.
func TestPrepare(t *testing.T) {
	dir := t.TempDir()
	h := newHarness(t, dir)
	work := t.TempDir()
	s := Spec{JobID: 1, Cwd: work, Umask: -1, Command: "echo one > out.1"}
	h.e.Prepare(s)
	if got := len(prepFiles(t, dir)); got != 2 {
		t.Fatalf("%d files made ready, want the job file and the lock", got)
	}
	if ids, err := h.e.Spooled(); err != nil || len(ids) != 0 {
		t.Errorf("Spooled = %v, %v with a job made ready only: want none", ids, err)
	}
	h.start(s)
	if r := h.result(1); !r.Done() {
		t.Fatalf("job 1 ended %+v, want DONE", r)
	}
	if out, _ := os.ReadFile(filepath.Join(work, "out.1")); string(out) != "one\n" {
		t.Errorf("job 1 wrote %q", out)
	}
	if left := prepFiles(t, dir); len(left) != 0 {
		t.Errorf("files made ready left after the start: %v", left)
	}

	// Made ready for one command, started with another.
	h.e.Prepare(Spec{JobID: 2, Cwd: work, Umask: -1, Command: "echo stale > out.2"})
	h.start(Spec{JobID: 2, Cwd: work, Umask: -1, Command: "echo fresh > out.2"})
	if r := h.result(2); !r.Done() {
		t.Fatalf("job 2 ended %+v, want DONE", r)
	}
	if out, _ := os.ReadFile(filepath.Join(work, "out.2")); string(out) != "fresh\n" {
		t.Errorf("job 2 wrote %q, want its own command's output", out)
	}

	// Made ready and never started: gone at Close.
	h.e.Prepare(Spec{JobID: 3, Cwd: work, Umask: -1, Command: "true"})
	h.e.Close()
	if left := prepFiles(t, dir); len(left) != 0 {
		t.Errorf("files made ready left after Close: %v", left)
	}

	// Left by an Executor that died: gone at the next New.
	for _, name := range []string{".4.sh" + prepExt, ".4.lock" + prepExt} {
		if err := os.WriteFile(filepath.Join(dir, name), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	e, err := New(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if left := prepFiles(t, dir); len(left) != 0 {
		t.Errorf("files made ready by a dead Executor left after New: %v", left)
	}
	ids, _ := e.Spooled()
	if slices.Contains(ids, 3) || slices.Contains(ids, 4) {
		t.Errorf("Spooled = %v: jobs made ready and never started have files", ids)
	}
}

// TestPrepareHeldLock checks that a job made ready whose earlier run
// still holds its lock is refused, as Start refuses it.
func TestPrepareHeldLock(t *testing.T) {
	dir := t.TempDir()
	h := newHarness(t, dir)
	held, err := os.OpenFile(spoolPath(dir, 5, lockExt), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	if err := flockNB(held); err != nil {
		t.Fatal(err)
	}
	s := Spec{JobID: 5, Umask: -1, Command: "true"}
	h.e.Prepare(s)
	if err := h.e.Start(s); err == nil || !strings.Contains(err.Error(), "lock is held") {
		t.Errorf("Start of a job whose lock is held: %v", err)
	}
	if left := prepFiles(t, dir); len(left) != 0 {
		t.Errorf("files made ready left: %v", left)
	}
}

// TestPrepareFailedStart starts a job made ready whose start fails
// before the files made ready are named (a directory where its status
// file goes): they are removed and their lock let go.
func TestPrepareFailedStart(t *testing.T) {
	dir := t.TempDir()
	h := newHarness(t, dir)
	status := spoolPath(dir, 6, statusExt)
	if err := os.MkdirAll(filepath.Join(status, "x"), 0o700); err != nil {
		t.Fatal(err)
	}
	s := Spec{JobID: 6, Umask: -1, Command: "true"}
	h.e.Prepare(s)
	if got := len(prepFiles(t, dir)); got != 2 {
		t.Fatalf("%d files made ready, want 2", got)
	}
	if err := h.e.Start(s); err == nil {
		t.Fatal("Start succeeded with a directory as the status file")
	}
	if left := prepFiles(t, dir); len(left) != 0 {
		t.Errorf("files made ready left after the failed start: %v", left)
	}
	h.e.mu.Lock()
	n := len(h.e.prepared)
	h.e.mu.Unlock()
	if n != 0 {
		t.Errorf("%d jobs still made ready after the failed start", n)
	}
}

// flockNB takes f's lock, without waiting.
func flockNB(f *os.File) error {
	return syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
}
