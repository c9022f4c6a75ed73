package localexec

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// A job's files may be made ready before its Start (Prepare), while the
// caller waits for the record of the start to be durable, so that Start
// itself only gives them their names. Until then they bear names that
// nothing else in the directory reads (".ID.sh.prep", ".ID.lock.prep",
// whose suffix is no job file's): a job made ready and never started
// has no job files, as if it had never been made ready. Start renames
// them; Close, or New after a crash, removes those left.
const prepExt = ".prep"

// A prepared job is the files Prepare made for a job.
type prepared struct {
	script []byte   // the job file's content
	lock   *os.File // the lock to come, taken
}

// prepPath returns the name of job id's file ext while it is made ready.
func prepPath(dir string, id int64, ext string) string {
	return filepath.Join(dir, "."+strconv.FormatInt(id, 10)+ext+prepExt)
}

// Prepare writes the job file and takes the lock of the job of s ahead
// of its Start with the same Spec, which then only names them. It does
// nothing for a job the Executor runs or made ready already, or when it
// cannot write them: Start then writes them itself.
func (e *Executor) Prepare(s Spec) {
	if s.resolveIDs() != nil || s.validate() != nil {
		return
	}
	id := s.JobID
	e.mu.Lock()
	skip := e.closed || e.jobs[id] != nil || e.prepared[id] != nil
	e.mu.Unlock()
	if skip {
		return
	}
	script := jobScript(&s)
	if writePrepFile(prepPath(e.dir, id, jobFileExt), script) != nil {
		return
	}
	lock, err := openFile(prepPath(e.dir, id, lockExt), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		os.Remove(prepPath(e.dir, id, jobFileExt))
		return
	}
	if syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		lock.Close()
		os.Remove(prepPath(e.dir, id, jobFileExt))
		return
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.closed || e.prepared[id] != nil {
		lock.Close()
		os.Remove(prepPath(e.dir, id, jobFileExt))
		os.Remove(prepPath(e.dir, id, lockExt))
		return
	}
	if e.prepared == nil {
		e.prepared = map[int64]*prepared{}
	}
	e.prepared[id] = &prepared{script: script, lock: lock}
}

// writePrepFile writes a job file made ready, mode 0700.
func writePrepFile(path string, data []byte) error {
	fd, err := openFD(path, syscall.O_WRONLY|syscall.O_CREAT|syscall.O_TRUNC, 0o700)
	if err != nil {
		return err
	}
	err = fchmod(fd, path, 0o700)
	if err == nil {
		err = writeFD(fd, path, data)
	}
	if cerr := closeFD(fd, path); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
	}
	return err
}

// takePrepared returns the files made ready for job id with the job file
// script, named as the job's own, or nil when there are none (those made
// for another script are dropped). A lock of an earlier run of the job
// that is still held is an error, as it is for Start.
func (e *Executor) takePrepared(id int64, script []byte) (*os.File, bool, error) {
	e.mu.Lock()
	p := e.prepared[id]
	delete(e.prepared, id)
	e.mu.Unlock()
	if p == nil {
		return nil, false, nil
	}
	if !bytes.Equal(p.script, script) {
		e.dropPrepared(id, p)
		return nil, false, nil
	}
	if lockHeld(e.dir, id) {
		e.dropPrepared(id, p)
		return nil, false, fmt.Errorf("cannot start job %d: its lock is held", id)
	}
	if err := renameFile(prepPath(e.dir, id, jobFileExt), e.path(id, jobFileExt)); err != nil {
		e.dropPrepared(id, p)
		return nil, false, nil
	}
	if err := renameFile(prepPath(e.dir, id, lockExt), e.path(id, lockExt)); err != nil {
		p.lock.Close()
		os.Remove(prepPath(e.dir, id, lockExt))
		// The job file is in place: Start takes the lock itself.
		return nil, true, nil
	}
	return p.lock, true, nil
}

// unprepare removes the files made ready for job id, if any, and lets
// their lock go.
func (e *Executor) unprepare(id int64) {
	e.mu.Lock()
	p := e.prepared[id]
	delete(e.prepared, id)
	e.mu.Unlock()
	if p != nil {
		e.dropPrepared(id, p)
	}
}

// dropPrepared removes the files made ready for job id.
func (e *Executor) dropPrepared(id int64, p *prepared) {
	p.lock.Close()
	os.Remove(prepPath(e.dir, id, jobFileExt))
	os.Remove(prepPath(e.dir, id, lockExt))
}

// dropAllPrepared removes the files made ready and not started, at Close.
func (e *Executor) dropAllPrepared() {
	e.mu.Lock()
	left := e.prepared
	e.prepared = nil
	e.mu.Unlock()
	for id, p := range left {
		e.dropPrepared(id, p)
	}
}

// removeStalePrepared removes the files made ready by an Executor that
// stopped without starting or removing them (it died). One it cannot
// remove stays: nothing reads those names, and a Prepare that cannot
// write its own leaves the job's files to Start.
func removeStalePrepared(dir string) {
	stale, _ := filepath.Glob(filepath.Join(dir, ".*"+prepExt))
	for _, path := range stale {
		os.Remove(path)
	}
}
