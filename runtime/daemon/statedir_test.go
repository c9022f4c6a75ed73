package daemon_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/daemon"
	"github.com/lsfc/lsfc/runtime/localexec"
)

// TestLostLogRefused checks that a state directory a daemon ran in, whose
// event log is then emptied or removed, is refused rather than started as
// an empty cluster, unless the daemon is told to start a new one.
func TestLostLogRefused(t *testing.T) {
	p, err := compileTree(writeConf(t))
	if err != nil {
		t.Fatal(err)
	}
	start := func(dir string, fresh bool) (*daemon.Daemon, error) {
		return daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: dir, New: fresh,
			WrapperPath: []string{os.Args[0], localexec.WrapperArg}, Logf: func(string, ...any) {}})
	}
	state := t.TempDir()
	d, err := start(state, false)
	if err != nil {
		t.Fatalf("Start on an empty directory: %v", err)
	}
	unixClient(state).submit(t, api.SubmitRequest{Command: "true", Hold: true})
	d.Close()
	logPath := filepath.Join(state, "lsb.events")
	for _, damage := range []struct {
		name string
		do   func() error
	}{
		{"empty", func() error { return os.Truncate(logPath, 0) }},
		{"missing", func() error { return os.Remove(logPath) }},
	} {
		if err := damage.do(); err != nil {
			t.Fatal(err)
		}
		if d, err := start(state, false); err == nil {
			d.Close()
			t.Errorf("%s log: Start succeeded, want it refused", damage.name)
		} else if !strings.Contains(err.Error(), "--new") || !strings.Contains(err.Error(), "missing or empty") {
			t.Errorf("%s log: Start error %q, want one naming the missing or empty log and --new", damage.name, err)
		}
		if _, err := os.Stat(logPath); damage.name == "missing" && err == nil {
			t.Errorf("%s log: a refused Start made a log", damage.name)
		}
	}
	// A daemon told to start a new cluster does, with no jobs.
	d, err = start(state, true)
	if err != nil {
		t.Fatalf("Start with New: %v", err)
	}
	defer d.Close()
	var list []api.Job
	if _, err := unixClient(state).call("GET", "/v1/jobs?user=all&all=1", nil, &list); err != nil {
		t.Fatal(err)
	}
	if len(list) != 0 {
		t.Errorf("new cluster has %d jobs, want none", len(list))
	}
}

// TestStatePrivate checks that the state directory, its log and its job
// files are private to the daemon's user, also when they were made open
// before, while the socket, in the run directory, is open to all.
func TestStatePrivate(t *testing.T) {
	d, state := startDaemon(t, "")
	d.Close()
	// Made open by an older daemon.
	if err := os.Chmod(state, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(state, "lsb.events"), 0o644); err != nil {
		t.Fatal(err)
	}
	d, _ = startDaemon(t, state)
	defer d.Close()
	c := unixClient(state)
	j := c.submit(t, api.SubmitRequest{Command: "sleep 30", Cwd: t.TempDir(), Env: []string{"SECRET=1"}})
	c.waitState(t, j.ID, "RUN")
	// The job ends, its status written, before the daemon stops and the
	// state directory is removed.
	defer func() {
		c.call("POST", fmt.Sprintf("/v1/jobs/%d/kill", j.ID), nil, nil)
		c.waitState(t, j.ID, "EXIT")
	}()
	// The job's spec, with its environment, went to the host's
	// supervisor with its request: its files are its job file and the
	// record of its processes.
	jobFile := filepath.Join(state, "jobs", fmt.Sprintf("%d.sh", j.ID))
	pids := filepath.Join(state, "jobs", fmt.Sprintf("%d.pid", j.ID))
	waitFor(t, "the job's pid file", func() bool {
		_, err := os.Stat(pids)
		return err == nil
	})
	for _, f := range []struct {
		path string
		want os.FileMode
	}{
		{state, 0o700},
		{filepath.Join(state, "lsb.events"), 0o600},
		{filepath.Join(state, "lock"), 0o600},
		{filepath.Join(state, "jobs"), 0o700},
		{jobFile, 0o700},
		{pids, 0o600},
		{api.RunDir(state), 0o755},
		{api.SocketPath(state), 0o666},
	} {
		st, err := os.Stat(f.path)
		if err != nil {
			t.Error(err)
			continue
		}
		if got := st.Mode().Perm(); got != f.want {
			t.Errorf("%s has mode %#o, want %#o", f.path, got, f.want)
		}
	}
	if _, err := os.Stat(filepath.Join(state, api.SocketName)); err == nil {
		t.Errorf("the socket is in the state directory")
	}
}

// memStore is an event log kept in memory, as a Store outside the state
// directory (etcd's) is.
type memStore struct{ txns [][][]byte }

type memJournal struct{ s *memStore }

type doneCommit struct{}

func (doneCommit) Wait() error { return nil }

func (s *memStore) String() string { return "memory" }

func (s *memStore) Open(replay func(uint64, [][]byte) error) (daemon.Journal, string, error) {
	for i, t := range s.txns {
		if err := replay(uint64(i+1), t); err != nil {
			return nil, "", err
		}
	}
	return memJournal{s}, "", nil
}

func (j memJournal) Append(records [][]byte) (daemon.Committed, error) {
	// A copy, as a Journal makes: the daemon reuses the records' memory.
	j.s.txns = append(j.s.txns, cloneTxn(records))
	return doneCommit{}, nil
}

func (j memJournal) Compact(snapshot [][]byte) error {
	j.s.txns = [][][]byte{cloneTxn(snapshot)}
	return nil
}

func (j memJournal) Close() error { return nil }

// TestEmptyStoreRefused checks that a log kept outside the state
// directory (lsfc serve --etcd) that holds nothing is refused when the
// state directory shows the cluster ran before, unless New says to
// start a new one; a new state directory starts on it.
func TestEmptyStoreRefused(t *testing.T) {
	p, err := compileTree(writeConf(t))
	if err != nil {
		t.Fatal(err)
	}
	start := func(dir string, store *memStore, fresh bool) (*daemon.Daemon, error) {
		return daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: dir, Store: store, New: fresh,
			WrapperPath: []string{os.Args[0], localexec.WrapperArg}, Logf: func(string, ...any) {}})
	}
	state := t.TempDir()
	store := &memStore{}
	d, err := start(state, store, false)
	if err != nil {
		t.Fatalf("Start on a new state directory and an empty log: %v", err)
	}
	d.Close()
	if len(store.txns) == 0 {
		t.Fatal("a new log was left empty: want its format record")
	}
	_, err = start(state, &memStore{}, false)
	if err == nil || !strings.Contains(err.Error(), "--new") || !strings.Contains(err.Error(), "is empty") {
		t.Fatalf("Start on a used state directory and an emptied log: %v, want it refused naming --new", err)
	}
	d, err = start(state, &memStore{}, true)
	if err != nil {
		t.Fatalf("Start with New: %v", err)
	}
	d.Close()
	d, err = start(state, store, false)
	if err != nil {
		t.Fatalf("Start on the log it left: %v", err)
	}
	d.Close()
}

// cloneTxn copies a transaction's records.
func cloneTxn(records [][]byte) [][]byte {
	out := make([][]byte, len(records))
	for i, r := range records {
		out[i] = slices.Clone(r)
	}
	return out
}
