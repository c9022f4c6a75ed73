package localexec

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Defaults of the Executor's settings.
const (
	// DefaultKillGrace is LSF's JOB_TERMINATE_INTERVAL default: the pause
	// between the signals of Kill.
	DefaultKillGrace = 10 * time.Second
	// DefaultPollInterval is how often adopted jobs are looked at.
	DefaultPollInterval = 200 * time.Millisecond
	// startTimeout bounds how long Start waits for the wrapper's answer.
	startTimeout = 30 * time.Second
	// maxInlineSpec is the largest spec sent to the supervisor with its
	// request, leaving room in the message for the request's first line.
	maxInlineSpec = maxSupMsg - 256
)

// An Executor runs jobs as processes of this machine; see the package
// documentation. Its methods may be called from several goroutines. Set
// its fields before the first Start.
type Executor struct {
	// WrapperPath is the command that runs a job's wrapper, to which Start
	// adds the directory and the job id. Nil means the job starter,
	// StarterName, found next to this program (os.Executable) or else on
	// PATH; Start fails with an error naming both places when it is in
	// neither. Any other program must hand its runs to WrapperMain, as
	// the starter does.
	WrapperPath []string
	// KillGrace is the pause between the signals of Kill; zero means
	// DefaultKillGrace.
	KillGrace time.Duration
	// PollInterval is how often jobs adopted by Recover are looked at;
	// zero means DefaultPollInterval.
	PollInterval time.Duration
	// PerJob starts every job under a job starter process of its own, as
	// a job with per-process limits always is, rather than in the host's
	// supervisor (see supervisor.go).
	PerJob bool
	// Logf, when set, receives the Executor's notices: the one line
	// saying whether jobs of Spec.ProcessTracking get cgroups, and
	// cgroups that could not be removed yet.
	Logf func(format string, args ...any)

	// cgOnce finds the base cgroup of the jobs of Spec.ProcessTracking
	// (cgBase, "" when there is none) at the first that starts.
	cgOnce sync.Once
	cgBase string
	// cgLeft holds the cgroups of ended jobs that could not be removed
	// yet, by job id, tried again at every Start and Cleanup, and
	// cgLogged those of them the log has named; guarded by mu.
	cgLeft   map[int64]string
	cgLogged map[int64]bool

	dir    string
	onExit func(Result)

	mu      sync.Mutex
	starter string // the job starter once found; looked for again until then
	// supervised is set once a job was handed to the host's supervisor,
	// which Close then tells to exit if it has nothing left to do.
	supervised bool
	supMu      sync.Mutex     // serialises starting the supervisor
	jobs       map[int64]*job // jobs started or adopted and not yet ended
	// prepared holds the jobs made ready by Prepare, not yet started.
	prepared map[int64]*prepared
	closed   bool
	quit     chan struct{} // closed by Close

	deliverMu sync.Mutex // serialises calls of onExit
}

// A job is a job the Executor watches.
type job struct {
	id      int64
	pids    pidRecord // set once started; guarded by Executor.mu
	started bool      // false while Start runs; guarded by Executor.mu
	// post is set once the job's end was reported before its
	// post-execution commands (Spec.PostLater), whose end is watched
	// now; guarded by Executor.mu.
	post bool
}

// New returns an Executor keeping its files in dir, which it creates (mode
// 0700) when missing. onExit receives the Result of every job started or
// adopted, once (and for a job of Spec.PostLater whose end came before
// its post-execution commands', theirs next, with PostReport set), from a
// goroutine of the Executor, one call at a time; it
// may call the Executor's methods except Close. A nil onExit drops them.
func New(dir string, onExit func(Result)) (*Executor, error) {
	if dir == "" {
		return nil, errors.New("no directory for job files")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("cannot use job directory %q: %v", dir, err)
	}
	if err := os.MkdirAll(abs, 0o700); err != nil {
		return nil, fmt.Errorf("cannot create job directory: %v", err)
	}
	if fi, err := os.Stat(abs); err != nil || !fi.IsDir() {
		return nil, fmt.Errorf("job directory %q is not a directory", abs)
	}
	removeStalePrepared(abs)
	return &Executor{dir: abs, onExit: onExit, jobs: map[int64]*job{}, quit: make(chan struct{})}, nil
}

// resolveIDs gives a spec without ids (a job of a remote client) those
// of its user's name on this host.
func (s *Spec) resolveIDs() error {
	if s.UID >= 0 && s.GID >= 0 {
		return nil
	}
	u, err := user.Lookup(s.User)
	if err != nil {
		return fmt.Errorf("job %d: user %q is not known on this host", s.JobID, s.User)
	}
	uid, err1 := strconv.Atoi(u.Uid)
	gid, err2 := strconv.Atoi(u.Gid)
	if err1 != nil || err2 != nil {
		return fmt.Errorf("job %d: user %q has ids %s:%s", s.JobID, s.User, u.Uid, u.Gid)
	}
	s.UID, s.GID = uid, gid
	return nil
}

// Dir returns the Executor's directory, absolute.
func (e *Executor) Dir() string { return e.dir }

// OutputPath returns the file that receives the output of job id when it
// has no -o file. Cleanup removes it.
func (e *Executor) OutputPath(id int64) string { return spoolPath(e.dir, id, outExt) }

// Start runs the job of s and returns once its processes run, or once it
// has ended because its output files could not be opened (its Result then
// says so). It returns an error, and onExit is not called, when the job
// cannot start: s is invalid, the job already runs, its files cannot be
// written, or the wrapper or the shell cannot be started. Files left by an
// earlier run of the same job id are replaced.
func (e *Executor) Start(s Spec) (err error) {
	defer func() {
		if err != nil {
			// What Prepare made for the job is not left behind, lock
			// taken, by a start that failed before naming it.
			e.unprepare(s.JobID)
		}
	}()
	if err := s.resolveIDs(); err != nil {
		return err
	}
	if err := s.validate(); err != nil {
		return err
	}
	s.Cgroup = ""
	if s.ProcessTracking {
		s.Cgroup = e.cgroupBase()
	}
	e.retryCgroups()
	j := &job{id: s.JobID}
	e.mu.Lock()
	switch {
	case e.closed:
		e.mu.Unlock()
		return fmt.Errorf("cannot start job %d: the executor is closed", s.JobID)
	case e.jobs[s.JobID] != nil:
		e.mu.Unlock()
		return fmt.Errorf("job %d is already running", s.JobID)
	}
	e.jobs[s.JobID] = j
	e.mu.Unlock()

	run, err := e.launch(&s)
	if err != nil {
		e.mu.Lock()
		delete(e.jobs, s.JobID)
		e.mu.Unlock()
		removeSpool(e.dir, s.JobID)
		return err
	}
	// The wrapper wrote the pid file before answering, and the supervisor
	// may have sent its record with its answer; without it the job can
	// still end, but not be signalled.
	var rec pidRecord
	if run.pids != nil {
		rec = *run.pids
	} else {
		rec, _ = readPidRecord(e.path(s.JobID, pidExt))
	}
	e.mu.Lock()
	j.pids, j.started = rec, true
	e.mu.Unlock()
	go e.waitChild(j, run)
	return nil
}

func (e *Executor) path(id int64, ext string) string { return spoolPath(e.dir, id, ext) }

// Cwd returns the directory a running job runs in: its Spec's Cwd, or
// where it went when it could not enter that; "" for a job the executor
// does not run, or that did not start.
func (e *Executor) Cwd(id int64) string {
	e.mu.Lock()
	defer e.mu.Unlock()
	if j := e.jobs[id]; j != nil {
		return j.pids.Cwd
	}
	return ""
}

// launch writes the job's files, starts its wrapper and waits for its
// answer: in the host's supervisor, or in a process of its own (PerJob,
// or a job with per-process limits).
func (e *Executor) launch(s *Spec) (*wrapperRun, error) {
	id := s.JobID
	for _, ext := range []string{statusExt, pidExt} {
		if err := removeFile(e.path(id, ext)); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("cannot start job %d: %v", id, err)
		}
	}
	supervised := !e.PerJob && !s.hasProcLimits()
	if !supervised {
		// Its wrapper is waited for on a thread of this process.
		raiseThreadLimit()
	}
	var spec []byte
	if supervised {
		var err error
		if spec, err = json.Marshal(s); err != nil {
			return nil, fmt.Errorf("cannot start job %d: %v", id, err)
		}
		if len(spec) > maxInlineSpec {
			spec = nil
		}
	}
	argv, err := e.starterArgv()
	if err != nil {
		return nil, fmt.Errorf("cannot start job %d: %v", id, err)
	}
	// The job and spec files are read by the wrapper, which starts next,
	// and by the job's shell; nothing reads them after a crash of the
	// machine, which ends the job too: they need not be synced. A job of
	// the host's supervisor has its spec sent with its request, rather
	// than in a file, unless it is too large for one. A job made ready
	// (Prepare) has its job file, and its lock, written already.
	script := jobScript(s)
	lock, placed, err := e.takePrepared(id, script)
	if err != nil {
		return nil, err
	}
	if !placed {
		if err := replaceFile(e.path(id, jobFileExt), script, 0o700, false); err != nil {
			return nil, fmt.Errorf("cannot write the job file of job %d: %v", id, err)
		}
	}
	writeSpec := func() error { return replaceJSON(e.path(id, specExt), s, 0o600, false) }
	if spec == nil {
		if err := writeSpec(); err != nil {
			if lock != nil {
				lock.Close()
			}
			return nil, fmt.Errorf("cannot write the spec file of job %d: %v", id, err)
		}
	}
	// The wrapper's lock: taken here (or by Prepare) and handed over, so
	// that from now on a running wrapper can be told from one that never
	// ran, even if this process dies before the wrapper answers.
	if lock == nil {
		if lock, err = openFile(e.path(id, lockExt), os.O_RDWR|os.O_CREATE, 0o600); err != nil {
			return nil, fmt.Errorf("cannot start job %d: %v", id, err)
		}
		if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			lock.Close()
			return nil, fmt.Errorf("cannot start job %d: its lock is held: %v", id, err)
		}
	}
	if supervised {
		return e.launchSupervised(argv, id, lock, spec, writeSpec)
	}
	return e.launchProcess(argv, id, lock)
}

// starterArgv returns the command of the job's wrapper: WrapperPath, or
// the job starter.
func (e *Executor) starterArgv() ([]string, error) {
	if len(e.WrapperPath) > 0 {
		return e.WrapperPath, nil
	}
	e.mu.Lock()
	starter := e.starter
	e.mu.Unlock()
	if starter == "" {
		var err error
		if starter, err = findStarter(); err != nil {
			return nil, err
		}
		e.mu.Lock()
		e.starter = starter
		e.mu.Unlock()
	}
	return []string{starter}, nil
}

// launchProcess starts the wrapper of job id in a process of its own,
// handing it the job's lock (taken), and waits for its answer.
func (e *Executor) launchProcess(argv []string, id int64, lock *os.File) (*wrapperRun, error) {
	r, w, err := os.Pipe()
	if err != nil {
		lock.Close()
		return nil, fmt.Errorf("cannot start job %d: %v", id, err)
	}
	defer r.Close()
	endR, endW, err := os.Pipe()
	if err != nil {
		w.Close()
		lock.Close()
		return nil, fmt.Errorf("cannot start job %d: %v", id, err)
	}
	cmd := exec.Command(argv[0], append(slices.Clone(argv[1:]), e.dir, strconv.FormatInt(id, 10))...)
	cmd.ExtraFiles = []*os.File{w, lock, endW} // descriptors 3 = handshakeFD, 4 = lockFD, 5 = endFD
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	err = cmd.Start()
	w.Close()
	endW.Close()
	// The wrapper holds the lock now (the same open file); this copy goes.
	lock.Close()
	if err != nil {
		endR.Close()
		return nil, fmt.Errorf("cannot start the wrapper of job %d: %v", id, err)
	}
	msg, err := readHandshake(r, startTimeout)
	if err == nil && msg == "ok" {
		return &wrapperRun{cmd: cmd, ends: endR}, nil
	}
	endR.Close()
	if err != nil {
		// The wrapper hangs or died: make sure neither it nor a job it
		// may have started runs on unseen.
		cmd.Process.Kill()
		if rec, rerr := readPidRecord(e.path(id, pidExt)); rerr == nil {
			e.killUnseen(id, rec)
		}
	} else {
		err = errors.New(strings.TrimPrefix(msg, "error: "))
	}
	cmd.Wait()
	return nil, fmt.Errorf("cannot start job %d: %v", id, err)
}

// A wrapperRun is a started job's wrapper as Start's Executor follows it:
// a process of its own (cmd, which tells on ends the end of a job
// reported before its post-execution commands), or a job of the
// supervisor (conn).
type wrapperRun struct {
	cmd  *exec.Cmd
	ends *os.File
	conn *net.UnixConn
	// pids is the job's pid record the supervisor sent with its answer;
	// nil: it is read from the pid file.
	pids *pidRecord
	// next is the supervisor's message read by waitEnd that was not
	// "end", and nextErr the error of reading it; read says they are set.
	next    string
	nextErr error
	read    bool
}

// waitEnd waits until the wrapper tells that the job's end is recorded
// while its post-execution commands run on (true), or ends (false).
func (r *wrapperRun) waitEnd() bool {
	if r.conn != nil {
		msg, _, err := readMsg(r.conn, 0)
		if err == nil && msg == "end" {
			return true
		}
		r.next, r.nextErr, r.read = msg, err, true
		return false
	}
	line, _ := bufio.NewReader(io.LimitReader(r.ends, 64)).ReadString('\n')
	r.ends.Close()
	return line == "end\n"
}

// wait waits until the wrapper has ended (written the job's status
// file, if it could).
func (r *wrapperRun) wait() error {
	if r.conn == nil {
		return r.cmd.Wait()
	}
	if !r.read {
		r.next, _, r.nextErr = readMsg(r.conn, 0)
	}
	r.conn.Close()
	switch {
	case r.nextErr != nil:
		return fmt.Errorf("the supervisor went away: %v", r.nextErr)
	case r.next == "done 0":
		return nil
	case strings.HasPrefix(r.next, "done "):
		return fmt.Errorf("exit status %s", strings.TrimPrefix(r.next, "done "))
	}
	return fmt.Errorf("the supervisor said %q", r.next)
}

// waitChild waits for the wrapper of j, started by this process, and
// reports the job's end: when the wrapper tells it on ends, before its
// post-execution commands end, and then theirs.
func (e *Executor) waitChild(j *job, run *wrapperRun) {
	if run.waitEnd() {
		if r, err := readStatus(e.path(j.id, statusExt), j.id); err == nil && r.PostPending {
			e.endBeforePost(j, r)
		}
	}
	werr := run.wait()
	if e.inPost(j) {
		r, ok := e.recordedPost(j.id)
		if !ok {
			r = lostPost(j.id)
		}
		e.finish(j, r)
		return
	}
	r, err := readStatus(e.path(j.id, statusExt), j.id)
	if err != nil {
		why := "the job wrapper ended without recording an exit status"
		if !errors.Is(err, os.ErrNotExist) {
			why = err.Error()
		} else if werr != nil {
			why += " (" + werr.Error() + ")"
		}
		r = e.lose(j, why)
	}
	e.finish(j, r)
}

// endBeforePost reports the end of job j, whose post-execution commands
// run on: j stays watched, for theirs.
func (e *Executor) endBeforePost(j *job, r Result) {
	e.mu.Lock()
	j.post = true
	e.mu.Unlock()
	e.deliver(r)
}

// inPost reports whether j's end was reported before its post-execution
// commands ended.
func (e *Executor) inPost(j *job) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	return j.post
}

// recordedPost returns the Result in job id's post file, if any: how
// its post-execution commands ended. A damaged file gives a failure.
func (e *Executor) recordedPost(id int64) (Result, bool) {
	r, err := readStatus(e.path(id, postExt), id)
	switch {
	case err == nil:
		r.PostReport = true
		return r, true
	case errors.Is(err, os.ErrNotExist):
		return Result{}, false
	}
	return Result{JobID: id, PostReport: true, PostExec: PostErr, Err: err.Error()}, true
}

// lostPost is the Result of post-execution commands whose end cannot be
// known: their wrapper is gone and recorded none. They count as failed.
func lostPost(id int64) Result {
	return Result{JobID: id, PostReport: true, PostExec: PostErr,
		Err: "the job wrapper ended without recording how the post-execution commands ended"}
}

// lose returns the Result of a job whose end cannot be known. A job whose
// wrapper is gone can no longer be watched, so its processes, if any are
// left, are killed.
func (e *Executor) lose(j *job, why string) Result {
	e.mu.Lock()
	rec := j.pids
	e.mu.Unlock()
	e.killUnseen(j.id, rec)
	return Result{JobID: j.id, Lost: true, Err: why}
}

// finish forgets j and passes its Result to onExit.
func (e *Executor) finish(j *job, r Result) {
	e.mu.Lock()
	if e.jobs[j.id] == j {
		delete(e.jobs, j.id)
	}
	cgroup := j.pids.Cgroup
	e.mu.Unlock()
	e.reapCgroup(j.id, cgroup)

	e.deliver(r)
}

// deliver passes r to onExit, unless the Executor is closed.
func (e *Executor) deliver(r Result) {
	e.deliverMu.Lock()
	defer e.deliverMu.Unlock()
	e.mu.Lock()
	closed := e.closed
	e.mu.Unlock()
	if !closed && e.onExit != nil {
		e.onExit(r)
	}
}

// Close stops reporting: once it returns, onExit is not called again, and
// jobs adopted by Recover are no longer watched. The jobs themselves run
// on, and their status files are written as usual, for a later Executor's
// Recover. Close must not be called from onExit.
func (e *Executor) Close() {
	e.mu.Lock()
	first := !e.closed
	if !e.closed {
		e.closed = true
		close(e.quit)
	}
	e.mu.Unlock()
	if first {
		e.dropAllPrepared()
		e.closeSupervisor()
	}
	// Taking deliverMu waits for a call of onExit in progress; nothing is
	// done under it.
	e.deliverMu.Lock()
	//lint:ignore SA2001 the lock is taken only to wait
	e.deliverMu.Unlock()
}

// Running returns the ids of the jobs started or adopted whose end has not
// been reported, in increasing order.
func (e *Executor) Running() []int64 {
	e.mu.Lock()
	defer e.mu.Unlock()
	ids := make([]int64, 0, len(e.jobs))
	for id, j := range e.jobs {
		if !j.post {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return ids
}

// JobPID returns the process id of job id's first process, which is also
// its process group id, and whether the job is running.
func (e *Executor) JobPID(id int64) (int, bool) {
	rec, _, err := e.running(id)
	return rec.JobPID, err == nil && rec.JobPID > 1
}

// running returns the processes of job id, which must be running.
func (e *Executor) running(id int64) (pidRecord, *job, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	j := e.jobs[id]
	switch {
	case j == nil:
		return pidRecord{}, nil, fmt.Errorf("job %d is not running", id)
	case !j.started:
		return pidRecord{}, nil, fmt.Errorf("job %d is still starting", id)
	}
	if j.pids.JobPID > 0 && !j.pids.leaderAlive() {
		// A job with pre- or post-execution commands runs them, and
		// itself, in process groups one after the other: the wrapper's
		// pid file names the one running now.
		if rec, err := readPidRecord(e.path(id, pidExt)); err == nil && rec.WrapperPID == j.pids.WrapperPID {
			j.pids = rec
		}
	}
	return j.pids, j, nil
}

// Cleanup removes the files of job id, which must have ended: its job
// file, spec, pid and status files and its OutputPath.
func (e *Executor) Cleanup(id int64) error {
	e.mu.Lock()
	j := e.jobs[id]
	e.mu.Unlock()
	if j != nil {
		return fmt.Errorf("cannot clean up job %d: it is still running", id)
	}
	e.retryCgroups()
	if err := removeSpool(e.dir, id); err != nil {
		return fmt.Errorf("cannot clean up job %d: %v", id, err)
	}
	return nil
}

// Release removes the files of job id, which must have ended, but its
// status, pid and post files: from them Recover gives the job's Results
// again (its real exit status, or Lost, and how its post-execution
// commands ended), for a caller whose record of the end may still be
// lost. Cleanup removes what is left.
func (e *Executor) Release(id int64) error {
	e.mu.Lock()
	j := e.jobs[id]
	e.mu.Unlock()
	if j != nil {
		return fmt.Errorf("cannot release job %d: it is still running", id)
	}
	var first error
	for _, ext := range spoolExts() {
		if ext == statusExt || ext == pidExt || ext == postExt {
			continue
		}
		if err := removeFile(e.path(id, ext)); err != nil && !errors.Is(err, os.ErrNotExist) && first == nil {
			first = fmt.Errorf("cannot release job %d: %v", id, err)
		}
	}
	return first
}

// Spooled returns, in increasing order, the ids of the jobs that have
// files in the Executor's directory: every job started and not yet
// cleaned up.
func (e *Executor) Spooled() ([]int64, error) {
	entries, err := os.ReadDir(e.dir)
	if err != nil {
		return nil, err
	}
	var ids []int64
	for _, ent := range entries {
		name := ent.Name()
		ext := filepath.Ext(name)
		if !slices.Contains(spoolExts(), ext) {
			continue
		}
		id, err := strconv.ParseInt(strings.TrimSuffix(name, ext), 10, 64)
		if err != nil || id <= 0 {
			continue
		}
		if n := len(ids); n == 0 || ids[n-1] != id {
			ids = append(ids, id)
		}
	}
	slices.Sort(ids)
	return slices.Compact(ids), nil
}
