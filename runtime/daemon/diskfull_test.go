package daemon_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/daemon"
	"github.com/lsfc/lsfc/runtime/localexec"
)

// mountTmpfs mounts a tmpfs of size bytes on a new directory and
// unmounts it at the end of the test; it skips the test where mounting
// is not allowed.
func mountTmpfs(t *testing.T, size int) string {
	t.Helper()
	dir := t.TempDir()
	opts := "size=" + itoa(size) + ",mode=0700"
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, opts); err != nil {
		t.Skipf("cannot mount a tmpfs to fill (needs root): %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, syscall.MNT_DETACH) })
	return dir
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// fill writes a file in dir until the file system is full (leave bytes
// short of it), and returns its path.
func fill(t *testing.T, dir string, leave int64) string {
	t.Helper()
	path := filepath.Join(dir, "filler")
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		t.Fatal(err)
	}
	want := int64(st.Bavail)*int64(st.Bsize) - leave
	buf := make([]byte, 64<<10)
	for written := int64(0); written < want; {
		n, err := f.Write(buf[:min(int64(len(buf)), want-written)])
		written += int64(n)
		if errors.Is(err, syscall.ENOSPC) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// keepFull appends to the file at path, every few milliseconds, whatever
// room its file system has again, until the function it returns is
// called.
func keepFull(t *testing.T, path string) func() {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		defer f.Close()
		buf := make([]byte, 4<<10)
		tick := time.NewTicker(5 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-stop:
				return
			case <-tick.C:
			}
			for {
				if _, err := f.Write(buf); err != nil {
					break
				}
			}
		}
	}()
	var once sync.Once
	return func() { once.Do(func() { close(stop); <-done }) }
}

// TestDiskFull runs the daemon on a small tmpfs and fills it: the daemon
// stays up, refuses submissions and changes with a clear error, answers
// queries, records the real exit status of the jobs that end meanwhile
// (one while a little space is left, one when there is none: its end
// waits, in its wrapper, for space), and takes work again by itself once
// space is freed. No acknowledged job is lost, none is created twice,
// and a restarted daemon finds every job's real end.
func TestDiskFull(t *testing.T) {
	state := mountTmpfs(t, 16<<20)
	p, err := compileTree(writeConf(t))
	if err != nil {
		t.Fatal(err)
	}
	start := func() *daemon.Daemon {
		d, err := daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: state, MinInterval: 5 * time.Millisecond,
			WrapperPath: []string{os.Args[0], localexec.WrapperArg}, Logf: t.Logf})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	d := start()
	c := unixClient(state)
	cwd := t.TempDir()
	flag := filepath.Join(cwd, "go")
	early := c.submit(t, api.SubmitRequest{Command: "touch " + flag + "ran1; while [ ! -e " + flag + "1 ]; do sleep 0.05; done; exit 5", Cwd: cwd, Stdout: "/dev/null"}).ID
	late := c.submit(t, api.SubmitRequest{Command: "touch " + flag + "ran2; while [ ! -e " + flag + "2 ]; do sleep 0.05; done; exit 7", Cwd: cwd, Stdout: "/dev/null"}).ID
	// Its run limit passes while there is no space at all: the daemon
	// then has a kill to record and nowhere to write it.
	limited := c.submit(t, api.SubmitRequest{Command: "touch " + flag + "ran3; sleep 30", RunLimit: 2, Cwd: cwd, Stdout: "/dev/null"}).ID
	waitFor(t, "the jobs to run", func() bool {
		_, err1 := os.Stat(flag + "ran1")
		_, err2 := os.Stat(flag + "ran2")
		_, err3 := os.Stat(flag + "ran3")
		return err1 == nil && err2 == nil && err3 == nil
	})
	ranAt := time.Now()

	// Less than the daemon's reserve left: new work is refused.
	filler := fill(t, state, 1<<20)
	refused := func() {
		t.Helper()
		want := "the cluster cannot record new work: no space left on device"
		_, err := api.Dial(state).Submit(context.Background(), &api.SubmitRequest{Command: "true", Cwd: cwd})
		if err == nil || err.Error() != want {
			t.Errorf("a submission with the disk full: %v, want %q", err, want)
		}
		if code, err := c.call("POST", "/v1/queues/normal/close", nil, nil); err != nil || code != http.StatusInsufficientStorage {
			t.Errorf("a queue's close with the disk full: %d %v, want %d", code, err, http.StatusInsufficientStorage)
		}
	}
	refused()
	var jobs []api.Job
	if code, err := c.call("GET", "/v1/jobs?user=all&all=1", nil, &jobs); err != nil || code != http.StatusOK || len(jobs) != 3 {
		t.Errorf("bjobs with the disk full: %d %v, %d jobs, want 200 and 3", code, err, len(jobs))
	}
	// A job ends while a little space is left: its end is recorded.
	os.WriteFile(flag+"1", nil, 0o600)
	if j := c.waitState(t, early, "EXIT", "DONE"); j.ExitCode != 5 {
		t.Errorf("job %d ended %s %d with the disk nearly full, want EXIT 5", early, j.State, j.ExitCode)
	}

	// No space at all: a job that ends is seen running until its end
	// can be written.
	fill2 := fill(t, state, 0)
	// Files removed meanwhile (those of the job that ended) would make
	// room again: the file system is kept full until space is given back.
	stopFull := keepFull(t, fill2)
	fullIn := time.Since(ranAt)
	os.WriteFile(flag+"2", nil, 0o600)
	time.Sleep(time.Until(ranAt.Add(3500 * time.Millisecond)))
	if j := c.job(t, late); j.State != "RUN" {
		t.Errorf("job %d is %s %d while its end cannot be written, want RUN until it can", late, j.State, j.ExitCode)
	}
	// Its kill, or its end, waits for space: the job is seen running.
	// (On a machine so loaded that its limit passed before the disk was
	// full, it may have ended already.)
	if j := c.job(t, limited); j.State != "RUN" && fullIn < 1500*time.Millisecond {
		t.Errorf("job %d past its run limit is %s %d while its kill cannot be written, want RUN until it can", limited, j.State, j.ExitCode)
	}
	refused()

	// Space is back: the end is recorded, and work is taken again.
	stopFull()
	os.Remove(fill2)
	os.Remove(filler)
	if j := c.waitState(t, late, "EXIT", "DONE"); j.ExitCode != 7 {
		t.Errorf("job %d ended %s %d once space was back, want EXIT 7", late, j.State, j.ExitCode)
	}
	if j := c.waitState(t, limited, "EXIT", "DONE"); j.Term != "TERM_RUNLIMIT" {
		t.Errorf("job %d ended %s %d %q once space was back, want EXIT TERM_RUNLIMIT", limited, j.State, j.ExitCode, j.Term)
	}
	after := c.submit(t, api.SubmitRequest{Command: "exit 0", Cwd: cwd, Stdout: "/dev/null"}).ID
	c.waitState(t, after, "DONE")
	if err := d.Close(); err != nil {
		t.Fatalf("daemon stopped with: %v", err)
	}

	// A restarted daemon finds every job, once, with its real end.
	d = start()
	defer d.Close()
	jobs = nil
	c.call("GET", "/v1/jobs?user=all&all=1", nil, &jobs)
	var got []string
	for _, j := range jobs {
		got = append(got, j.State+" "+itoa(j.ExitCode))
	}
	if want := "EXIT 5,EXIT 7,EXIT 130,DONE 0"; strings.Join(got, ",") != want {
		t.Errorf("after a restart the jobs are %q, want %q", strings.Join(got, ","), want)
	}
}

// stallStore is an event log kept in memory that can run out of space:
// while full, its appends wait and Stalled reports ENOSPC, as
// runtime/eventlog's do.
type stallStore struct {
	memStore
	mu   sync.Mutex
	full chan struct{} // closed when space is back; nil when not full
}

type stallJournal struct{ s *stallStore }

type waitCommit struct{ ch chan struct{} }

func (c waitCommit) Wait() error {
	if c.ch != nil {
		<-c.ch
	}
	return nil
}

func (s *stallStore) Open(replay func(uint64, [][]byte) error) (daemon.Journal, string, error) {
	if _, _, err := s.memStore.Open(replay); err != nil {
		return nil, "", err
	}
	return stallJournal{s}, "", nil
}

func (j stallJournal) Append(records [][]byte) (daemon.Committed, error) {
	j.s.mu.Lock()
	defer j.s.mu.Unlock()
	j.s.txns = append(j.s.txns, cloneTxn(records))
	return waitCommit{j.s.full}, nil
}

func (j stallJournal) Compact(snapshot [][]byte) error {
	return memJournal{&j.s.memStore}.Compact(snapshot)
}
func (j stallJournal) Close() error { return nil }

func (j stallJournal) Stalled() error {
	j.s.mu.Lock()
	defer j.s.mu.Unlock()
	if j.s.full != nil {
		return &os.PathError{Op: "write", Path: "memory", Err: syscall.ENOSPC}
	}
	return nil
}

// TestLogStalled runs the daemon on a log that runs out of space: while
// it is stalled, changes are refused with a clear error and queries
// answered; a change acknowledged just before waits, and is answered once
// space is back, when the daemon takes work again by itself.
func TestLogStalled(t *testing.T) {
	store := &stallStore{}
	c, state := startOnStore(t, store)
	first := c.submit(t, api.SubmitRequest{Command: "true", Hold: true}).ID
	store.mu.Lock()
	store.full = make(chan struct{})
	store.mu.Unlock()
	_, err := api.Dial(state).Submit(context.Background(), &api.SubmitRequest{Command: "true", Hold: true})
	want := "the cluster cannot record new work: no space left on device"
	if err == nil || err.Error() != want {
		t.Errorf("a submission while the log is stalled: %v, want %q", err, want)
	}
	if j := c.job(t, first); j.State != "PSUSP" {
		t.Errorf("a query while the log is stalled: job %d is %s, want PSUSP", first, j.State)
	}
	store.mu.Lock()
	close(store.full)
	store.full = nil
	store.mu.Unlock()
	next := c.submit(t, api.SubmitRequest{Command: "true", Hold: true}).ID
	if next != first+1 {
		t.Errorf("the submission after space came back is job %d, want %d: the refused one took a number", next, first+1)
	}
}

// startOnStore starts a daemon on the test configuration whose event log
// is store, closed when the test ends, and returns a client of its socket
// and its state directory.
func startOnStore(t *testing.T, store daemon.Store) (*client, string) {
	t.Helper()
	p, err := compileTree(writeConf(t))
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	d, err := daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: state, Store: store, MinInterval: 5 * time.Millisecond,
		WrapperPath: []string{os.Args[0], localexec.WrapperArg}, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return unixClient(state), state
}
