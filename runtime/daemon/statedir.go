package daemon

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/lsfc/lsfc/runtime/api"
)

// StateDir resolves the state directory of a cluster, as the daemon and
// its clients both do (see api.StateDir).
func StateDir(flag, shareDir, cluster string) (string, error) {
	return api.StateDir(flag, shareDir, cluster)
}

// A Lock is the exclusive ownership of a state directory: only one
// daemon runs on it. The lock is an flock on the file "lock", which holds
// the owner's process id; it ends with the process, however it ends.
type Lock struct {
	f *os.File
}

// LockDir takes the lock of a state directory, creating the directory
// (0700) if needed and taking group and others' access away from one
// that has it. It fails, after a few seconds, when another process holds
// it.
func LockDir(dir string) (*Lock, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("state directory: %w", err)
	}
	if err := private(dir); err != nil {
		return nil, fmt.Errorf("state directory: %w", err)
	}
	path := filepath.Join(dir, "lock")
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("state directory: %w", err)
	}
	// A daemon that just died may leave the lock held a moment longer by a
	// child it was starting (forked, not yet executed): try for a little
	// while before giving up.
	var err2 error
	for try := 0; try < 60; try++ {
		if err2 = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); !errors.Is(err2, syscall.EWOULDBLOCK) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := err2; err != nil {
		owner, _ := os.ReadFile(path)
		f.Close()
		if errors.Is(err, syscall.EWOULDBLOCK) {
			pid := strings.TrimSpace(string(owner))
			if _, perr := strconv.Atoi(pid); perr != nil || pid == "" {
				pid = "unknown"
			}
			return nil, fmt.Errorf("state directory %s is owned by another lsfc serve (pid %s)", dir, pid)
		}
		return nil, fmt.Errorf("state directory %s: lock: %w", dir, err)
	}
	if err := f.Truncate(0); err == nil {
		_, _ = f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0)
	}
	return &Lock{f: f}, nil
}

// Release gives the lock up.
func (l *Lock) Release() error {
	if l == nil || l.f == nil {
		return nil
	}
	err := l.f.Close()
	l.f = nil
	return err
}

// usedMarks are the names a daemon leaves in its state directory once it
// has run there: the lock, the event log (even an empty one), what a
// compaction leaves, the jobs' files and the agents' registrations.
var usedMarks = []string{"lsb.events", "lsb.events.1", "lsb.events.tmp", "lock", "jobs", "agents"}

// usedBy returns the first name in dir that shows a daemon has run there
// ("" when there is none, or dir does not exist).
func usedBy(dir string) string {
	for _, name := range usedMarks {
		if _, err := os.Lstat(filepath.Join(dir, name)); err == nil {
			return name
		}
	}
	return ""
}

// private takes group and others' access away from path, when it exists.
func private(path string) error {
	st, err := os.Lstat(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if st.Mode()&os.ModeSymlink != 0 || st.Mode().Perm()&0o077 == 0 {
		return nil
	}
	return os.Chmod(path, st.Mode().Perm()&^0o077)
}

// makeRunDir makes the run directory, where the socket is, 0755 whatever
// the umask. One that is there already must be a directory of this
// process's user: another user's could hand clients a socket of theirs.
func makeRunDir(dir string) error {
	if err := os.Mkdir(dir, 0o755); err != nil && !errors.Is(err, os.ErrExist) {
		return fmt.Errorf("run directory: %w", err)
	}
	st, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("run directory: %w", err)
	}
	if !st.IsDir() {
		return fmt.Errorf("run directory %s is not a directory", dir)
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok && int(sys.Uid) != os.Getuid() {
		return fmt.Errorf("run directory %s belongs to user %d, not to this daemon's user %d", dir, sys.Uid, os.Getuid())
	}
	if st.Mode().Perm() != 0o755 {
		if err := os.Chmod(dir, 0o755); err != nil {
			return fmt.Errorf("run directory: %w", err)
		}
	}
	return nil
}
