package localexec

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"sync/atomic"
	"syscall"
	"time"
)

// WrapperArg is the hidden first argument with which a program other
// than the job starter (StarterName), such as a test binary given as an
// Executor's WrapperPath, runs as a job's wrapper. Such a program's main
// hands the run to WrapperMain before anything else:
//
//	if len(os.Args) > 1 && os.Args[1] == localexec.WrapperArg {
//		os.Exit(localexec.WrapperMain(os.Args[2:]))
//	}
const WrapperArg = "__lsfc_jobwrap"

// handshakeFD is the descriptor on which the wrapper tells Start whether
// the job started: "ok", or "error: " and the reason.
const handshakeFD = 3

// statusRetry is how often a wrapper tries again to write a status that
// found no space.
const statusRetry = 250 * time.Millisecond

// lockFD is the descriptor of the job's lock file, held by the wrapper
// for its whole life (see lockHeld).
const lockFD = 4

// endFD is the descriptor on which the wrapper of a job of Spec.PostLater
// tells Start's Executor that the job's end is recorded while its
// post-execution commands run on: "end".
const endFD = 5

// WrapperMain runs one job's wrapper; args are the Executor's directory
// and the job id, the arguments of the job starter (or those after
// WrapperArg). It returns the
// wrapper's exit status: 0 once the job's status file is written, 1 when
// the job could not start or its status could not be written, 2 for bad
// arguments. With SuperviseArg and a directory as args it runs the
// host's supervisor of that directory instead (see supervisor.go), until
// it has nothing left to do.
func WrapperMain(args []string) int {
	// What this process inherited beyond its own descriptors stays out
	// of the jobs it starts.
	CloseInheritedOnExec()
	if len(args) == 2 && args[0] == SuperviseArg {
		return superviseMain(args[1])
	}
	// The lock Start handed over stays open, and held, until the wrapper
	// exits; the job's processes do not inherit it.
	var st syscall.Stat_t
	if syscall.Fstat(lockFD, &st) == nil && st.Mode&syscall.S_IFMT == syscall.S_IFREG {
		syscall.CloseOnExec(lockFD)
	}
	w := &wrapper{}
	if hs := openPipe(handshakeFD, "handshake"); hs != nil {
		w.reply = func(msg string) {
			io.WriteString(hs, msg+"\n") // Start may be gone: the job runs on
			hs.Close()
		}
	}
	if ends := openPipe(endFD, "ends"); ends != nil {
		w.tell = func() {
			io.WriteString(ends, "end\n") // the Executor may be gone: it reads the status file then
			ends.Close()
		}
	}
	if len(args) != 2 {
		w.refuse(fmt.Errorf("usage: %s DIR JOBID", StarterName))
		return 2
	}
	id, err := strconv.ParseInt(args[1], 10, 64)
	if err != nil || id <= 0 {
		w.refuse(fmt.Errorf("bad job id %q", args[1]))
		return 2
	}
	w.dir, w.id = args[0], id
	return w.run()
}

// openPipe returns descriptor fd when it is a pipe, marked close-on-exec
// (so that the job does not inherit it and the Executor sees the end of
// the message as soon as the wrapper closes it), or nil: the wrapper was
// not started by Start.
func openPipe(fd int, name string) *os.File {
	var st syscall.Stat_t
	if syscall.Fstat(fd, &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFIFO {
		return nil
	}
	syscall.CloseOnExec(fd)
	return os.NewFile(uintptr(fd), name)
}

// tellEnd tells the Executor that the job's end is recorded (see endFD).
func (w *wrapper) tellEnd() {
	if w.tell == nil {
		return
	}
	w.tell()
	w.tell = nil
}

// A wrapper runs one job.
type wrapper struct {
	dir string
	id  int64
	// spec is the job's Spec as JSON when the supervisor's request gave
	// it (inline), until it is read; nil: it is in the spec file. With
	// inline, Start is told the job's processes with its answer, "ok
	// PIDS", PIDS the pid record as JSON (pids, once written), and need
	// not read the pid file.
	spec   []byte
	inline bool
	pids   []byte
	// reply sends the answer to Start (see handshakeFD); nil once
	// answered, or when nothing waits for it.
	reply func(msg string)
	// tell tells the Executor that the job's end is recorded before its
	// post-execution commands run (see endFD); nil once told, or when
	// nothing waits for it.
	tell func()
	// shared is set when the wrapper runs in the host's supervisor, as
	// one of its jobs, rather than in a process of its own: what is a
	// process's (umask, working directory, limits, signals) is then not
	// the job's to change; see supervisor.go.
	shared bool
	cwd    string // the directory the job runs in, once entered
	// group is the process group the signals the wrapper gets go to:
	// that of the pre-execution command, the job or the post-execution
	// command running now; 0 between them.
	group atomic.Int64
	// final is the -o file of a job whose output is spooled, kept open
	// for its report (see Report); nil otherwise.
	final *os.File
	out   string // the file the job's output goes to as it runs
	// errOut is the file the job's errors go to as it runs, when not
	// with its output.
	errOut string
	spool  string // the spool file of a job whose output is spooled
	// finalErr is the -e file of its own of a job whose output is
	// spooled, and errSpool the spool of its errors.
	finalErr *os.File
	errSpool string
	// killAt, when set, is when the post-execution step running is
	// killed (JOB_POSTPROC_TIMEOUT); timedOut says one was.
	killAt   time.Time
	timedOut atomic.Bool
	// stepCPU is the CPU time of the post-execution steps run.
	stepCPU time.Duration
	// cgroup is the job's own cgroup while its shell runs (see
	// Spec.ProcessTracking), "" otherwise: the pid record names it.
	// cgroupAcct is set when the job's CPU time is read from it
	// (Spec.CgroupAcct).
	cgroup     string
	cgroupAcct bool
}

// setGroup names the process group that signals go to (0 for none).
func (w *wrapper) setGroup(pgid int) { w.group.Store(int64(pgid)) }

// answer sends msg to Start, once.
func (w *wrapper) answer(msg string) {
	if w.reply == nil {
		return
	}
	if msg == "ok" && w.inline && w.pids != nil {
		msg += " " + string(w.pids)
	}
	w.reply(msg)
	w.reply = nil
}

// refuse tells Start, or the standard error when there is no Start, that
// the job cannot start.
func (w *wrapper) refuse(err error) {
	if w.reply == nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", StarterName, err)
		return
	}
	w.answer("error: " + err.Error())
}

func (w *wrapper) path(ext string) string { return spoolPath(w.dir, w.id, ext) }

// run does the wrapper's work; see WrapperMain.
func (w *wrapper) run() int {
	var s Spec
	if w.spec != nil {
		w.inline = true
		err := json.Unmarshal(w.spec, &s)
		w.spec = nil // read: the job does not keep it while it runs
		if err != nil {
			w.refuse(fmt.Errorf("the spec of job %d is damaged: %v", w.id, err))
			return 1
		}
		if s.JobID != w.id {
			w.refuse(fmt.Errorf("the request for job %d carries the spec of job %d", w.id, s.JobID))
			return 1
		}
	} else if err := readJSON(w.path(specExt), &s); err != nil {
		w.refuse(err)
		return 1
	} else if s.JobID != w.id {
		w.refuse(fmt.Errorf("%s holds job %d", w.path(specExt), s.JobID))
		return 1
	}
	if w.shared {
		if s.hasProcLimits() {
			// The limits would be the whole supervisor's while the job
			// starts: such a job gets a starter of its own (see Start).
			w.refuse(errors.New("a job with per-process limits cannot run in the supervisor"))
			return 1
		}
		// The job's umask and working directory are those of the
		// thread that runs it (a jobThread), and of the processes it
		// starts. The supervisor catches the signals below for good
		// (see superviseMain).
	}
	var sigs chan os.Signal
	if !w.shared {
		// Catching these signals also gives the job their default
		// actions, even when the daemon started with them ignored; they
		// are passed on to the job's process group.
		sigs = make(chan os.Signal, 8)
		signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGPIPE)
		defer signal.Stop(sigs)
	}
	if s.Umask >= 0 {
		syscall.Umask(s.Umask)
	}
	u := jobUserOf(&s, os.Geteuid())
	u.shared, u.umask = w.shared, s.Umask
	paths := jobPaths{jobFile: w.path(jobFileExt)}
	stdout, stderr, openErr := w.openOutputs(&s, u, &paths)
	if openErr != nil {
		return w.endUnrun(openErr)
	}
	defer closeOutputs(stdout, stderr)
	if w.shared {
		// The files were opened, and the directory entered, on a thread
		// of the job's user when it is another: this one follows. When
		// it is not, they were on this very thread (the job thread is
		// locked), which is in the directory already.
		u.cwd = w.cwd
		if w.cwd != "" && u.other {
			os.Chdir(w.cwd) // the job's processes enter it themselves
		}
	} else {
		go func() {
			for sig := range sigs {
				if g := w.group.Load(); g > 0 && sig != syscall.SIGPIPE {
					syscall.Kill(-int(g), sig.(syscall.Signal))
				}
			}
		}()
	}
	env := jobEnv(&s, paths)
	sio := stepIO{stdout: stdout, stderr: stderr, cwd: w.cwd}
	if code, err := w.runPre(&s, u, env, sio); err != nil || code != 0 {
		if err != nil && w.reply != nil {
			w.refuse(err)
			return 1
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: job %d: pre-execution: %v\n", StarterName, w.id, err)
		}
		r := Result{JobID: w.id, ExitCode: code, PreExecFailed: true, PreExecCode: code, End: time.Now(), Cwd: w.cwd}
		r.PostExec = w.runPost(&s, u, env, sio, r, true)
		return w.record(r)
	}
	stdin, err := w.openInput(&s, u)
	if err != nil {
		if w.reply != nil {
			return w.endUnrun(err)
		}
		r := Result{JobID: w.id, ExitCode: 1, Err: err.Error(), End: time.Now(), Cwd: w.cwd}
		r.PostExec = w.runPost(&s, u, env, sio, r, false)
		return w.record(r)
	}
	if stdin == nil {
		// A job without input reads /dev/null, a file of its own (no
		// lock a job takes through it outlives the job), opened without
		// the poller os/exec would offer it to; os/exec opens one when
		// this cannot.
		stdin, _ = openFile(os.DevNull, os.O_RDONLY, 0)
	}
	if stdin != nil {
		defer stdin.Close()
	}
	cmd := &exec.Cmd{
		Path:        "/bin/sh",
		Args:        []string{"sh", paths.jobFile},
		Env:         env,
		Stdout:      stdout,
		Stderr:      stderr,
		SysProcAttr: &syscall.SysProcAttr{Setpgid: true, Credential: u.credential()},
	}
	if stdin != nil {
		cmd.Stdin = stdin
	}
	if w.shared {
		cmd.Dir = w.cwd
	}
	if u.other {
		// The job's user cannot reach the Executor's private directory:
		// the job file, given to that user, is handed over open, as
		// descriptor 3, which the shell opens again by its /proc name.
		f, err := w.handOver(u)
		if err != nil {
			w.refuse(err)
			return 1
		}
		defer f.Close()
		cmd.ExtraFiles = []*os.File{f}
		cmd.Args[1] = "/proc/self/fd/3"
	}
	if s.LoginShell != "" {
		cmd.Path = s.LoginShell
		cmd.Args = loginShellArgs(s.LoginShell, cmd.Args[1])
	}
	var sess *session
	if s.Interactive != nil {
		var err error
		if sess, err = attachJob(&s, cmd, stdout, stderr); err != nil {
			return w.endUnrun(err)
		}
	}
	cgroup, cgroupFD := "", -1
	if s.Cgroup != "" {
		var err error
		if cgroup, cgroupFD, err = openJobCgroup(s.Cgroup, w.id); err != nil {
			fmt.Fprintf(os.Stderr, "%s: job %d is tracked by its process group: cannot make its cgroup: %v\n", StarterName, w.id, err)
			cgroup = ""
		} else {
			// Born in its cgroup: no process of the job is ever outside.
			cmd.SysProcAttr.UseCgroupFD, cmd.SysProcAttr.CgroupFD = true, cgroupFD
		}
	}
	restore, err := setProcLimits(s.ProcLimits, s.ProcHardLimits)
	if err == nil {
		err = cmd.Start()
		restore()
	}
	if cgroupFD >= 0 {
		syscall.Close(cgroupFD)
	}
	started := time.Now()
	if err != nil && cgroup != "" {
		removeCgroup(cgroup, 0)
	}
	if err != nil {
		w.closeFinal()
		if sess != nil {
			sess.closeAll()
		}
		if w.reply == nil {
			r := Result{JobID: w.id, ExitCode: 127, Err: fmt.Sprintf("cannot run %s: %v", cmd.Path, err), End: time.Now(), Cwd: w.cwd}
			r.PostExec = w.runPost(&s, u, env, sio, r, false)
			return w.record(r)
		}
		w.refuse(fmt.Errorf("cannot run %s: %v", cmd.Path, err))
		return 1
	}
	pgid := cmd.Process.Pid
	w.cgroup, w.cgroupAcct = cgroup, cgroup != "" && s.CgroupAcct
	rec := pidRecord{JobPID: pgid, Cgroup: cgroup, CgroupAcct: w.cgroupAcct}
	pidFD, err := w.writePids(pgid, true)
	if err != nil {
		rec.signalGroup(syscall.SIGKILL)
		syscall.Kill(-pgid, syscall.SIGKILL)
		if cgroup != "" {
			removeCgroup(cgroup, cgroupEmptyWait)
		}
		cmd.Wait()
		w.closeFinal()
		if sess != nil {
			sess.closeAll()
		}
		w.refuse(fmt.Errorf("cannot record the job's processes: %v", err))
		return 1
	}
	// The kept descriptor is closed by syncPlaced below, or here should
	// what comes before it fail (a supervisor recovers a job's fault and
	// runs on: it must not keep the descriptor).
	defer func() {
		if pidFD >= 0 {
			syscall.Close(pidFD)
		}
	}()
	// Signals passed on reach the job from the moment Start can know it
	// runs.
	w.setGroup(pgid)
	if sess != nil {
		sess.run(pgid)
	}
	w.answer("ok")
	begun := w.mailBegin(&s, started, u.home)
	// The pid file, written for Start to read, is made durable once Start
	// has its answer, off the path of the job's start: after a crash of
	// the machine it tells a job that ran (lost) from one that never did
	// (run again). A job whose pid file cannot be synced runs on: a crash
	// within this moment may only make it run again. It is synced through
	// the descriptor writePids kept, rather than opened again.
	syncPlaced(pidFD, w.path(pidExt))
	pidFD = -1
	var mem *memWatch
	if s.MemLimit > 0 {
		mem = watchMemory(rec, s.MemLimit, memCheckInterval, memKillGrace)
	}
	var cpu *cpuWatch
	if s.CPULimit > 0 {
		cpu = watchCPU(rec, s.CPULimit)
	}
	var limits *jobLimitWatch
	if len(s.JobLimits) > 0 {
		limits = watchJobLimits(rec, s.JobLimits, memCheckInterval, memKillGrace)
	}
	var usage *usageWatch
	if s.Report != nil {
		usage = watchUsage(rec)
	}
	cmd.Wait()
	w.setGroup(0)
	r := exitResult(w.id, cmd.ProcessState)
	r.Cwd = w.cwd
	if mem != nil {
		peak, over := mem.end()
		r.MaxRSS = max(r.MaxRSS, peak)
		// A job that ended well before the signals reached it is DONE.
		r.MemLimitExceeded = over && !r.Done()
	}
	if cpu != nil {
		r.CPULimitExceeded = cpu.end() && !r.Done() && !r.MemLimitExceeded
	}
	if limits != nil {
		if term := limits.end(); term != "" && !r.Done() && !r.MemLimitExceeded && !r.CPULimitExceeded {
			r.LimitTerm = term
		}
	}
	if cgroup != "" {
		// The job ends with its shell: whatever it left running in its
		// cgroup goes with it, and the cgroup too. One that cannot be
		// removed yet is the Executor's to remove later.
		w.cgroup = ""
		if w.cgroupAcct {
			// Once its processes are gone, the cgroup's time is the
			// whole job's: its shell's, which the shell's own usage
			// counts too, and that of every process it started.
			killCgroup(cgroup)
			waitCgroupEmpty(cgroup, cgroupEmptyWait)
			if t, err := cgroupCPU(cgroup); err == nil {
				r.CPUTime = max(r.CPUTime, t)
			}
		}
		if err := removeCgroup(cgroup, cgroupEmptyWait); err != nil {
			fmt.Fprintf(os.Stderr, "%s: job %d: %v\n", StarterName, w.id, err)
		}
	}
	if sess != nil {
		sess.ended()
	}
	// The post-execution commands write to the job's files before its
	// report closes them, unless the job ends before they run.
	r.PostPending = s.PostLater && hasPost(&s, false)
	if !r.PostPending {
		r.PostExec = w.runPost(&s, u, env, sio, r, false)
		if !w.timedOut.Load() {
			// Part of the job (JOB_INCLUDE_POSTPROC=Y): so is their CPU
			// time, unless they were killed for their time.
			r.CPUTime += w.stepCPU
		}
	}
	if usage != nil {
		run := jobRun{start: started, cwd: w.cwd, home: u.home, outFile: paths.stdout, errFile: paths.separateErr(), usage: usage.end()}
		w.writeReport(&s, r, run)
		r.MailErr = joinMailErrors(begun(), w.mailEnd(&s, r, run))
	}
	code := w.record(r)
	if sess != nil {
		sess.finish(r)
	}
	if r.PostPending && code == 0 {
		code = w.postAfterEnd(&s, u, env, sio, r, paths)
	}
	return code
}

// closeOutputs closes the wrapper's copies of the job's output files.
func closeOutputs(stdout, stderr *os.File) {
	stdout.Close()
	if stderr != stdout {
		stderr.Close()
	}
}

// openOutputs enters the job's working directory and opens its output and
// error files, both as the job's user, and sets the absolute -o and -e
// paths in p. When there is no -o file, the output goes to the
// Executor's .out file, opened as the wrapper's user.
func (w *wrapper) openOutputs(s *Spec, u jobUser, p *jobPaths) (stdout, stderr *os.File, err error) {
	open := func(name string, perm os.FileMode, overwrite bool) (*os.File, error) {
		flags := os.O_WRONLY | os.O_CREATE | os.O_APPEND
		if overwrite {
			flags |= os.O_TRUNC
		}
		f, err := openFile(name, flags, perm)
		if errors.Is(err, fs.ErrNotExist) {
			// The file's directory is missing: make it, as the job's
			// user, rather than lose the output.
			if err := os.MkdirAll(filepath.Dir(name), 0o777); err != nil {
				return nil, err
			}
			f, err = openFile(name, flags, perm)
		}
		return f, err
	}
	outName := outputPath(s.Stdout, s.outputID(), s.Index, ".out")
	errName := outputPath(s.Stderr, s.outputID(), s.Index, ".err")
	err = u.do(func() error {
		cwd, err := enterDir(makeWorkDir(s, u.home), u.home, exitIfCwdMissing(s.Env), os.Chdir)
		if errors.Is(err, errNoCwd) {
			return err
		}
		if err != nil {
			return fmt.Errorf("cannot enter a working directory: %v", err)
		}
		w.cwd = cwd
		if s.OutDir != "" {
			dir, err := makeOutDir(s, cwd)
			if err != nil {
				return err
			}
			p.outDir = dir
			outName, errName = inDir(dir, outName), inDir(dir, errName)
		}
		if outName != "" {
			p.stdout = absIn(cwd, outName)
			if stdout, err = open(outName, 0o666, s.OutOverwrite); err != nil {
				return fmt.Errorf("cannot open output file: %v", err)
			}
		}
		if errName != "" && errName != outName {
			p.stderr = absIn(cwd, errName)
			if stderr, err = open(errName, 0o666, s.ErrOverwrite); err != nil {
				return fmt.Errorf("cannot open error file: %v", err)
			}
		} else if errName != "" {
			p.stderr = p.stdout
		}
		return nil
	})
	if err == nil && s.spooled() {
		stdout, stderr, err = w.spoolOutput(s, u, stdout, stderr)
	}
	if err == nil && stdout == nil {
		stdout, err = open(w.path(outExt), 0o600, false)
	}
	switch {
	case w.final != nil:
		w.out = w.spool
	case p.stdout == "":
		w.out = w.path(outExt)
	case readableBy(u, p.stdout):
		// Output the job's user could not read is not shown to bpeek.
		w.out = p.stdout
	}
	switch {
	case w.errSpool != "":
		w.errOut = w.errSpool
	case p.separateErr() != "" && readableBy(u, p.stderr):
		w.errOut = p.stderr
	}
	if err != nil {
		if stdout != nil {
			stdout.Close()
		}
		if stderr != nil {
			stderr.Close()
		}
		return nil, nil, err
	}
	if stderr == nil {
		stderr = stdout
	}
	return stdout, stderr, nil
}

// absIn returns name made absolute from the directory dir.
func absIn(dir, name string) string {
	if filepath.IsAbs(name) {
		return filepath.Clean(name)
	}
	return filepath.Join(dir, name)
}

// handOver gives the job file to the job's user and opens it.
func (w *wrapper) handOver(u jobUser) (*os.File, error) {
	if err := os.Chown(w.path(jobFileExt), u.uid, u.gid); err != nil {
		return nil, fmt.Errorf("cannot give the job file to user %d: %v", u.uid, err)
	}
	return os.Open(w.path(jobFileExt))
}

// writePids records the wrapper's and the job's process ids, for Start to
// read; the record is not yet durable (see run). With keep, it returns a
// descriptor of the pid file, for syncPlaced to make it durable; -1
// otherwise.
func (w *wrapper) writePids(jobPID int, keep bool) (int, error) {
	rec := pidRecord{WrapperPID: os.Getpid(), JobPID: jobPID, Supervised: w.shared}
	if jobPID > 0 {
		rec.Cwd, rec.Out, rec.Err, rec.Cgroup, rec.CgroupAcct = w.cwd, w.out, w.errOut, w.cgroup, w.cgroupAcct
	}
	var err error
	if rec.WrapperStart, err = processStart(0); err != nil {
		return -1, err
	}
	if jobPID > 0 {
		if rec.JobStart, err = processStart(jobPID); err != nil {
			return -1, err
		}
	}
	data, err := json.Marshal(rec)
	if err != nil {
		return -1, err
	}
	fd, err := placeFile(w.path(pidExt), append(data, '\n'), 0o600, false, keep)
	if err != nil {
		return -1, err
	}
	w.pids = data
	return fd, nil
}

// endUnrun ends a job that could not run because of err: the job counts as
// started, and its status says why it did not run.
func (w *wrapper) endUnrun(err error) int {
	if _, perr := w.writePids(0, false); perr != nil {
		w.refuse(fmt.Errorf("cannot record the job's processes: %v", perr))
		return 1
	}
	w.answer("ok")
	r := Result{JobID: w.id, ExitCode: 1, Err: err.Error(), End: time.Now()}
	if errors.Is(err, errNoCwd) {
		r.ExitCode, r.CwdNotExist = cwdExitCode, true
	}
	return w.record(r)
}

// record writes the job's status file. While the file system has no
// space for it, the wrapper waits and tries again: it holds the job's
// lock meanwhile, so the job is seen running until its real end is
// recorded.
func (w *wrapper) record(r Result) int {
	err := writeJSON(w.path(statusExt), r, 0o600)
	for errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) {
		time.Sleep(statusRetry)
		err = writeJSON(w.path(statusExt), r, 0o600)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: cannot record the exit status of job %d: %v\n", StarterName, w.id, err)
		return 1
	}
	return 0
}

// exitResult turns the job's process state into its Result.
func exitResult(id int64, ps *os.ProcessState) Result {
	r := Result{JobID: id, End: time.Now()}
	if ps == nil {
		r.ExitCode, r.Err = 1, "the job's exit status is unknown"
		return r
	}
	r.CPUTime = ps.UserTime() + ps.SystemTime()
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok && ru != nil {
		r.MaxRSS = ru.Maxrss
	}
	ws, ok := ps.Sys().(syscall.WaitStatus)
	switch {
	case ok && ws.Signaled():
		r.Signal = int(ws.Signal())
		r.ExitCode = signalExitCode(r.Signal)
	default:
		r.ExitCode = ps.ExitCode()
	}
	return r
}

// readHandshake reads the wrapper's answer, waiting until timeout at most.
func readHandshake(r *os.File, timeout time.Duration) (string, error) {
	r.SetReadDeadline(time.Now().Add(timeout))
	data, err := io.ReadAll(io.LimitReader(r, 64<<10))
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return "", fmt.Errorf("the job wrapper did not answer within %v", timeout)
	}
	if err != nil {
		return "", err
	}
	if len(data) == 0 {
		return "", errors.New("the job wrapper ended without answering")
	}
	return string(trimNewline(data)), nil
}

// trimNewline drops the final newline of b.
func trimNewline(b []byte) []byte {
	if n := len(b); n > 0 && b[n-1] == '\n' {
		return b[:n-1]
	}
	return b
}
