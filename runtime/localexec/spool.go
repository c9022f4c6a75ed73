package localexec

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// The suffixes of a job's files in the Executor's directory.
const (
	jobFileExt = ".sh"
	specExt    = ".spec"
	pidExt     = ".pid"
	statusExt  = ".status"
	outExt     = ".out"
	lockExt    = ".lock"
	termExt    = ".term"
	errExt     = ".err"
	// postExt is the file in which a wrapper that reported its job's
	// end before the post-execution commands (Spec.PostLater) records how
	// they ended.
	postExt = ".post"
)

// spoolExts lists every suffix of a job's files, for Cleanup.
func spoolExts() []string {
	return []string{jobFileExt, specExt, pidExt, statusExt, outExt, lockExt, termExt, errExt, postExt}
}

// lockHeld reports whether job id's wrapper runs: the wrapper holds the
// flock of the job's lock file for its whole life, from before it starts
// (Start takes the lock and hands it over) to after it recorded the
// status, so a wrapper that is starting, running or recording is seen,
// and one that died is not, whatever happened to its pid file.
func lockHeld(dir string, id int64) bool {
	fd, err := openFD(spoolPath(dir, id, lockExt), syscall.O_RDONLY, 0)
	if err != nil {
		return false
	}
	defer syscall.Close(fd)
	if err := syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return errors.Is(err, syscall.EWOULDBLOCK)
	}
	syscall.Flock(fd, syscall.LOCK_UN)
	return false
}

// spoolPath returns the path of job id's file with suffix ext in dir.
func spoolPath(dir string, id int64, ext string) string {
	return filepath.Join(dir, strconv.FormatInt(id, 10)+ext)
}

// replaceFile replaces path with data so that a reader sees either the old
// file or the whole new one: it writes a temporary file in the same
// directory and renames it over path. When durable is set, the new file
// is synced before the rename and the directory after it, so that it
// survives a crash of the machine once replaceFile returns; otherwise it
// survives the end of this process only.
func replaceFile(path string, data []byte, perm os.FileMode, durable bool) error {
	if _, err := placeFile(path, data, perm, durable, false); err != nil || !durable {
		return err
	}
	return syncDir(filepath.Dir(path))
}

// placeFile is replaceFile but for the directory's sync. With keep, it
// returns a descriptor of the new file, open for syncFD: a file written
// without sync may be made durable later without being opened again.
// Without keep, it returns -1.
func placeFile(path string, data []byte, perm os.FileMode, durable, keep bool) (int, error) {
	dir, base := filepath.Split(path)
	fd, tmp, err := createTemp(dir, "."+base+".tmp", "")
	if err != nil {
		return -1, err
	}
	kept := -1
	err = fchmod(fd, tmp, perm)
	if err == nil {
		err = writeFD(fd, tmp, data)
	}
	if err == nil && durable {
		err = syncFD(fd, tmp)
	}
	if err == nil && keep {
		// A copy, rather than the descriptor itself, stays open: the
		// file is closed before the rename as it would be without keep,
		// and a file system that reports a write's failure only when
		// the file is closed (NFS) reports it here, before the file
		// takes path's name.
		kept, err = dupFD(fd, tmp)
	}
	if cerr := closeFD(fd, tmp); err == nil {
		err = cerr
	}
	if err == nil {
		err = renameFile(tmp, path)
	}
	if err != nil {
		if kept >= 0 {
			syscall.Close(kept)
		}
		removeFile(tmp)
		return -1, err
	}
	return kept, nil
}

// fchmod gives descriptor fd, the file path, mode perm, whatever the
// umask took from it when it was made.
func fchmod(fd int, path string, perm os.FileMode) error {
	for {
		err := syscall.Fchmod(fd, uint32(perm.Perm()))
		if err == nil {
			return nil
		}
		if err != syscall.EINTR {
			return &os.PathError{Op: "chmod", Path: path, Err: err}
		}
	}
}

// syncPlaced makes durable the file placeFile wrote at path, through the
// descriptor fd it kept, which it closes, and then its entry in its
// directory.
func syncPlaced(fd int, path string) error {
	err := syncFD(fd, path)
	if cerr := closeFD(fd, path); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	return syncDir(filepath.Dir(path))
}

// syncDir makes the entries of dir durable.
func syncDir(dir string) error {
	if dir == "" {
		dir = "."
	}
	fd, err := openFD(dir, syscall.O_RDONLY, 0)
	if err != nil {
		return err
	}
	err = syncFD(fd, dir)
	if cerr := closeFD(fd, dir); err == nil {
		err = cerr
	}
	return err
}

// writeJSON writes v as JSON to path durably.
func writeJSON(path string, v any, perm os.FileMode) error {
	return replaceJSON(path, v, perm, true)
}

// replaceJSON writes v as JSON to path with replaceFile.
func replaceJSON(path string, v any, perm os.FileMode, durable bool) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	return replaceFile(path, append(data, '\n'), perm, durable)
}

// readJSON reads path into v. A missing file gives an error for which
// errors.Is(err, fs.ErrNotExist) holds.
func readJSON(path string, v any) error {
	data, err := readFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s is damaged: %v", path, err)
	}
	return nil
}

// A pidRecord is the content of a job's pid file: the wrapper's and the
// job's process ids, each with its start time (in clock ticks since boot,
// as /proc/<pid>/stat gives it) so that a reused pid is not taken for the
// process it once named. The job's pid is also its process group id;
// JobPID is 0 when the job never ran.
type pidRecord struct {
	WrapperPID   int
	WrapperStart uint64
	JobPID       int
	JobStart     uint64
	// Cwd is the directory the job runs in ("" when it did not run).
	Cwd string `json:",omitempty"`
	// Out is the file the job's output goes to as it runs: its -o file,
	// or the spool file (see Report); "" when it did not run.
	Out string `json:",omitempty"`
	// Err is the file the job's errors go to as it runs when they go
	// apart from its output (a -e file of its own, or its spool file);
	// "" otherwise.
	Err string `json:",omitempty"`
	// Supervised is set when WrapperPID is the host's supervisor, which
	// outlives the job: the job's lock alone then tells whether its
	// wrapper still runs.
	Supervised bool `json:",omitempty"`
	// Cgroup is the job's own cgroup when its processes are tracked by
	// cgroup (Spec.ProcessTracking): its signals go to every process
	// in it. "" when they go to the process group JobPID.
	Cgroup string `json:",omitempty"`
	// CgroupAcct is set when the job's CPU time is read from its
	// cgroup's cpu.stat (Spec.CgroupAcct).
	CgroupAcct bool `json:",omitempty"`
}

// readPidRecord reads a pid file.
func readPidRecord(path string) (pidRecord, error) {
	var rec pidRecord
	if err := readJSON(path, &rec); err != nil {
		return pidRecord{}, err
	}
	if !rec.valid() {
		return pidRecord{}, fmt.Errorf("%s is damaged: bad process ids", path)
	}
	return rec, nil
}

// valid tells whether the record's process ids may be a job's.
func (p pidRecord) valid() bool {
	return p.WrapperPID > 1 && p.JobPID >= 0 && p.JobPID != 1
}

// readStatus reads a status file. A missing file gives an error for which
// errors.Is(err, fs.ErrNotExist) holds.
func readStatus(path string, id int64) (Result, error) {
	var r Result
	if err := readJSON(path, &r); err != nil {
		return Result{}, err
	}
	if r.JobID != id {
		return Result{}, fmt.Errorf("%s is damaged: it holds job %d", path, r.JobID)
	}
	return r, nil
}

// removeSpool removes job id's files from dir, ignoring those that are
// missing, and returns the first other error.
func removeSpool(dir string, id int64) error {
	var first error
	for _, ext := range spoolExts() {
		err := removeFile(spoolPath(dir, id, ext))
		if err != nil && !errors.Is(err, os.ErrNotExist) && first == nil {
			first = err
		}
	}
	return first
}

// removeFile removes the file path, as os.Remove does but in one system
// call when there is no such file: os.Remove then tries it as a directory
// too, and a job's end looks for several files most jobs never had.
func removeFile(path string) error {
	err := syscall.Unlink(path)
	for err == syscall.EINTR {
		err = syscall.Unlink(path)
	}
	if err != nil {
		return &os.PathError{Op: "remove", Path: path, Err: err}
	}
	return nil
}
