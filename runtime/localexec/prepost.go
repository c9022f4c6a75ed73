package localexec

import (
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"os/user"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// An ExecStep is one pre- or post-execution command, run by /bin/sh -c.
type ExecStep struct {
	Command string `json:"command"`
	// Job marks the job's own command (bsub -E or -Ep): it runs as the
	// job's user, in the job's working directory, with the job's output
	// and error files. The other steps (of the queue or application
	// profile) run in /tmp with /dev/null as their standard files.
	Job bool `json:"job,omitempty"`
	// Host marks a host-based command (HOST_PRE_EXEC, HOST_POST_EXEC):
	// it runs as the wrapper's user (root when the daemon runs as root).
	Host bool `json:"host,omitempty"`
	// User is the user the step runs as instead of the job's
	// (LSB_PRE_POST_EXEC_USER), which only a wrapper running as root can
	// take; "" for the job's.
	User string `json:"user,omitempty"`
}

// The post-execution states of Result.PostExec, as bhist shows them.
const (
	PostDone = "POST_DONE"
	PostErr  = "POST_ERR"
)

// prePostPath is the PATH of the commands of the queue, the profile and
// the host, as LSF sets it for them.
const prePostPath = "/bin:/usr/bin:/sbin:/usr/sbin"

// A stepIO is what a step's standard files are: the job's output and
// error files, for the job's own commands.
type stepIO struct {
	stdout, stderr *os.File
	cwd            string
}

// runStep runs one step and returns its exit code (128+signal when a
// signal ended it). The pid file names the step's process group while it
// runs, so that bkill and bstop reach it. Past the wrapper's killAt, when
// set, the step's process group is killed.
func (w *wrapper) runStep(st ExecStep, u jobUser, env []string, io stepIO) (int, error) {
	cmd := &exec.Cmd{
		Path:        "/bin/sh",
		Args:        []string{"sh", "-c", st.Command},
		Env:         env,
		Dir:         "/tmp",
		SysProcAttr: &syscall.SysProcAttr{Setpgid: true},
	}
	if st.Job {
		cmd.Dir = io.cwd
		cmd.Stdout, cmd.Stderr = io.stdout, io.stderr
	} else {
		cmd.Env = withEnv(env, "PATH", prePostPath)
	}
	switch {
	case st.Host:
		// The wrapper's own user.
	case st.User != "" && os.Geteuid() == 0:
		pw, err := user.Lookup(st.User)
		if err != nil {
			return 0, fmt.Errorf("LSB_PRE_POST_EXEC_USER %s: %v", st.User, err)
		}
		uid, err1 := strconv.Atoi(pw.Uid)
		gid, err2 := strconv.Atoi(pw.Gid)
		if err1 != nil || err2 != nil {
			return 0, fmt.Errorf("LSB_PRE_POST_EXEC_USER %s has ids %s:%s", st.User, pw.Uid, pw.Gid)
		}
		cmd.SysProcAttr.Credential = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid), Groups: []uint32{}}
	default:
		cmd.SysProcAttr.Credential = u.credential()
	}
	if err := cmd.Start(); err != nil {
		return 0, fmt.Errorf("cannot run /bin/sh: %v", err)
	}
	pgid := cmd.Process.Pid
	if _, err := w.writePids(pgid, false); err != nil {
		syscall.Kill(-pgid, syscall.SIGKILL)
		cmd.Wait()
		return 0, fmt.Errorf("cannot record the processes of a pre- or post-execution command: %v", err)
	}
	w.answer("ok")
	w.setGroup(pgid)
	if !w.killAt.IsZero() {
		t := time.AfterFunc(time.Until(w.killAt), func() {
			w.timedOut.Store(true)
			syscall.Kill(-pgid, syscall.SIGKILL)
		})
		defer t.Stop()
	}
	err := cmd.Wait()
	w.setGroup(0)
	if ps := cmd.ProcessState; ps != nil {
		w.stepCPU += ps.UserTime() + ps.SystemTime()
	}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		return 0, err
	}
	ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if ws.Signaled() {
		return signalExitCode(int(ws.Signal())), nil
	}
	return cmd.ProcessState.ExitCode(), nil
}

// A hostStep is a step and the host it runs for ("" for this host).
type hostStep struct {
	ExecStep
	host string
}

// forHosts returns steps with each run of host-based steps repeated for
// every host of hosts, in order (the queue's command, then the
// profile's, on one host before the next), as LSF runs them on each
// execution host of the job; without hosts, once.
func forHosts(steps []ExecStep, hosts []string) []hostStep {
	var out []hostStep
	for i := 0; i < len(steps); {
		if !steps[i].Host || len(hosts) == 0 {
			out = append(out, hostStep{ExecStep: steps[i]})
			i++
			continue
		}
		n := i
		for n < len(steps) && steps[n].Host {
			n++
		}
		for _, h := range hosts {
			for _, st := range steps[i:n] {
				out = append(out, hostStep{ExecStep: st, host: h})
			}
		}
		i = n
	}
	return out
}

// stepHosts returns the distinct hosts of s.StepHosts, in order.
func stepHosts(s *Spec) []string {
	var out []string
	for _, h := range s.StepHosts {
		if !slices.Contains(out, h) {
			out = append(out, h)
		}
	}
	return out
}

// runHostStep runs st, with HOSTNAME set to the host it runs for.
func (w *wrapper) runHostStep(st hostStep, u jobUser, env []string, io stepIO) (int, error) {
	if st.host != "" {
		env = withEnv(env, "HOSTNAME", st.host)
	}
	return w.runStep(st.ExecStep, u, env, io)
}

// runPre runs the pre-execution steps of s in order and returns the exit
// code of the first that fails, 0 when all succeed: a host-based command
// that fails on one host stops the others, and the job's.
func (w *wrapper) runPre(s *Spec, u jobUser, env []string, io stepIO) (int, error) {
	for _, st := range forHosts(s.PreExec, stepHosts(s)) {
		code, err := w.runHostStep(st, u, env, io)
		if err != nil || code != 0 {
			return max(code, 1), err
		}
	}
	return 0, nil
}

// RunHostSteps runs host-based steps for each host of hosts, in order,
// outside any job's wrapper: as this process's user, by /bin/sh -c in
// /tmp, with env, PATH as LSF sets it and HOSTNAME the host, and
// /dev/null as their standard files. Before a job (pre), the first that
// fails stops them; after it, all run. It returns 0 when all exited 0,
// else the exit code of the first that did not (128+signal for one a
// signal ended, 1 for one that could not run).
func RunHostSteps(steps []ExecStep, hosts []string, env []string, pre bool) int {
	first := 0
	for _, st := range forHosts(steps, hosts) {
		cmd := &exec.Cmd{Path: "/bin/sh", Args: []string{"sh", "-c", st.Command}, Dir: "/tmp",
			Env: withEnv(withEnv(env, "PATH", prePostPath), "HOSTNAME", st.host), SysProcAttr: &syscall.SysProcAttr{Setpgid: true}}
		code := 0
		if err := cmd.Run(); err != nil {
			code = 1
			if ps := cmd.ProcessState; ps != nil {
				if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
					code = signalExitCode(int(ws.Signal()))
				} else {
					code = max(ps.ExitCode(), 1)
				}
			}
		}
		if code != 0 && first == 0 {
			first = code
			if pre {
				break
			}
		}
	}
	return first
}

// hasPost reports whether s has post-execution steps to run: after a
// failed pre-execution (preFailed), host-based ones only.
func hasPost(s *Spec, preFailed bool) bool {
	for _, st := range s.PostExec {
		if st.Host || !preFailed {
			return true
		}
	}
	return false
}

// runPost runs the post-execution steps of s in order, with the job's end
// in their environment (LSB_JOBEXIT_STAT, the wait status as LSF gives
// it), and returns PostDone when all exit 0, PostErr otherwise, "" when
// there are none. After a failed pre-execution (preFailed) only the
// host-based steps run, for their clean-up. Every step runs whatever
// those before it did, but none after s.PostTimeout: the one running
// then is killed, and the post-execution processing has failed.
func (w *wrapper) runPost(s *Spec, u jobUser, env []string, io stepIO, r Result, preFailed bool) string {
	if !hasPost(s, preFailed) {
		return ""
	}
	stat := r.ExitCode << 8
	if r.Signal != 0 {
		stat = r.Signal
	}
	env = withEnv(env, "LSB_JOBEXIT_STAT", strconv.Itoa(stat))
	if s.PostTimeout > 0 {
		w.killAt = time.Now().Add(time.Duration(s.PostTimeout) * time.Second)
		defer func() { w.killAt = time.Time{} }()
	}
	w.stepCPU = 0
	state := PostDone
	for _, st := range forHosts(s.PostExec, stepHosts(s)) {
		if preFailed && !st.Host {
			continue
		}
		if w.timedOut.Load() {
			break
		}
		code, err := w.runHostStep(st, u, env, io)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: job %d: post-execution: %v\n", StarterName, w.id, err)
		}
		if err != nil || code != 0 {
			state = PostErr
		}
	}
	if w.timedOut.Load() {
		fmt.Fprintf(os.Stderr, "%s: job %d: post-execution processing ran past JOB_POSTPROC_TIMEOUT (%d s): killed\n",
			StarterName, w.id, s.PostTimeout)
		state = PostErr
	}
	return state
}

// postAfterEnd runs the post-execution commands of a job of Spec.PostLater
// whose end is recorded: it tells the Executor that the end is there,
// runs them (the job's own command writing to the job's -o and -e files,
// opened again when the report closed them) and records how they ended
// in the post file.
func (w *wrapper) postAfterEnd(s *Spec, u jobUser, env []string, sio stepIO, r Result, p jobPaths) int {
	w.tellEnd()
	sio, closeIO := w.postIO(u, sio, p)
	state := w.runPost(s, u, env, sio, r, false)
	closeIO()
	post := Result{JobID: w.id, PostReport: true, PostExec: state, End: time.Now()}
	err := writeJSON(w.path(postExt), post, 0o600)
	for errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) {
		time.Sleep(statusRetry)
		err = writeJSON(w.path(postExt), post, 0o600)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: cannot record the post-execution status of job %d: %v\n", StarterName, w.id, err)
		return 1
	}
	return 0
}

// postIO returns the standard files of the job's own post-execution
// command once the job's report is written: those of the job while they
// are still open (its output went to its files directly, or there is no
// report), else the -o and -e files opened again, as the job's user, for
// appending. The function returned closes what was opened.
func (w *wrapper) postIO(u jobUser, sio stepIO, p jobPaths) (stepIO, func()) {
	if w.final == nil {
		return sio, func() {}
	}
	open := func(name string) *os.File {
		var f *os.File
		err := u.do(func() error {
			var err error
			// Not waiting for a reader, should the file be a FIFO.
			f, err = os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_APPEND|syscall.O_NONBLOCK, 0o666)
			return err
		})
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: job %d: post-execution: cannot open %s: %v\n", StarterName, w.id, name, err)
			f, _ = os.OpenFile(os.DevNull, os.O_WRONLY, 0)
		}
		return f
	}
	out := open(p.stdout)
	errf := out
	if name := p.separateErr(); name != "" {
		errf = open(name)
	}
	return stepIO{stdout: out, stderr: errf, cwd: sio.cwd}, func() { closeOutputs(out, errf) }
}

// withEnv returns env with name set to value.
func withEnv(env []string, name, value string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if !strings.HasPrefix(kv, name+"=") {
			out = append(out, kv)
		}
	}
	return append(out, name+"="+value)
}

// A cpuWatch enforces the CPU time limit of a running job: every
// cpuCheckInterval it reads the job's CPU time (jobCPUTime); past the
// limit it sends SIGXCPU and then, as LSF does, SIGINT, SIGTERM and
// SIGKILL, a second apart (as past a memory limit).
type cpuWatch struct {
	rec   pidRecord
	limit time.Duration
	stop  chan struct{}
	done  chan struct{}
	over  bool
}

// cpuCheckInterval is how often a job's CPU time is read.
const cpuCheckInterval = time.Second

// watchCPU starts watching the CPU time of process group rec.JobPID
// against limit seconds.
func watchCPU(rec pidRecord, limit int64) *cpuWatch {
	c := &cpuWatch{rec: rec, limit: time.Duration(min(max(limit, 0), math.MaxInt64/int64(time.Second))) * time.Second,
		stop: make(chan struct{}), done: make(chan struct{})}
	go c.run()
	return c
}

func (c *cpuWatch) run() {
	defer close(c.done)
	tick := time.NewTicker(cpuCheckInterval)
	defer tick.Stop()
	for {
		select {
		case <-c.stop:
			return
		case <-tick.C:
		}
		if jobCPUTime(c.rec) > c.limit {
			// SIGXCPU, which ends a job that does not handle it; then,
			// a grace apart, SIGINT, SIGTERM and SIGKILL.
			c.over = true
			c.rec.signalGroup(syscall.SIGXCPU)
			c.rec.signalGroup(syscall.SIGCONT)
			if !waitGroupGone(c.rec, memKillGrace) {
				c.rec.signalGroup(syscall.SIGINT)
				c.rec.signalGroup(syscall.SIGCONT)
				terminate(c.rec, memKillGrace)
			}
			return
		}
	}
}

// end stops the watch once the job's shell has ended and reports whether
// the job was terminated for its CPU time.
func (c *cpuWatch) end() bool {
	close(c.stop)
	<-c.done
	return c.over
}

// expandJobPath expands the dynamic patterns of bsub -outdir and -cwd in
// dir: %J and %EJ the job id, %I and %EI the array index (0 for a job
// that is no array), %U the job's user, %P its project, %G its user
// group, %H its first host; %JG (the job group) drops out.
func expandJobPath(dir string, s *Spec) string {
	if !strings.Contains(dir, "%") {
		return dir
	}
	first := ""
	if len(s.Hosts) > 0 {
		first = s.Hosts[0]
	}
	envOf := func(name string) string {
		for _, kv := range s.Env {
			if v, ok := strings.CutPrefix(kv, name+"="); ok {
				return v
			}
		}
		return ""
	}
	id, index := strconv.FormatInt(s.outputID(), 10), strconv.Itoa(s.Index)
	return strings.NewReplacer("%JG", "", "%EJ", id, "%EI", index, "%J", id, "%I", index, "%U", s.User,
		"%P", envOf("LSB_PROJECT_NAME"), "%G", envOf("LSB_USER_GROUP"), "%H", first).Replace(dir)
}

// openInput opens the job's standard input: the spooled data of bsub
// -is, through a file of the wrapper's that is removed once open, or the
// file of bsub -i, opened as the job's user from the working directory.
// It returns nil when the job has neither.
func (w *wrapper) openInput(s *Spec, u jobUser) (*os.File, error) {
	if s.InputData != nil {
		name := w.path(".in")
		if err := os.WriteFile(name, s.InputData, 0o600); err != nil {
			return nil, fmt.Errorf("cannot write the spooled input file: %v", err)
		}
		f, err := os.Open(name)
		os.Remove(name)
		if err != nil {
			return nil, fmt.Errorf("cannot open the spooled input file: %v", err)
		}
		return f, nil
	}
	if s.Input == "" {
		return nil, nil
	}
	// A relative name is the job's directory's, whatever directory the
	// wrapper's thread is in when the file is opened as the job's user.
	name := expandPath(s.Input, s.outputID(), s.Index)
	if w.cwd != "" {
		name = absIn(w.cwd, name)
	}
	var f *os.File
	err := u.do(func() error {
		var err error
		f, err = os.Open(name)
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("cannot open input file: %v", err)
	}
	return f, nil
}

// loginShellArgs returns the program and arguments that run the job file
// script from login shell sh: sh started as a login shell (its name
// begins with "-", which every shell reads so), which then runs the job
// file under /bin/sh.
func loginShellArgs(sh, script string) []string {
	name := sh[strings.LastIndexByte(sh, '/')+1:]
	return []string{"-" + name, "-c", "exec /bin/sh '" + strings.ReplaceAll(script, "'", `'\''`) + "'"}
}

// makeOutDir makes the job's output directory (bsub -outdir), patterns
// expanded and taken from the working directory cwd, with its missing
// parents, mode 0700, and returns its absolute path. It runs with the
// job's user's identity (jobUser.do).
func makeOutDir(s *Spec, cwd string) (string, error) {
	dir := absIn(cwd, expandJobPath(s.OutDir, s))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("cannot make the output directory: %v", err)
	}
	return dir, nil
}

// workDir returns the job's working directory as it is entered: Cwd with
// its dynamic patterns (bsub -cwd "/scratch/%U/%J_%I") expanded.
func (s *Spec) workDir() string {
	return expandJobPath(s.Cwd, s)
}

// makeWorkDir returns the job's working directory (workDir) and makes
// it, with its missing parents, when bsub -cwd gave it with dynamic
// patterns, as LSF does (a directory given without them must exist); a
// relative one is taken from home. It runs with the job's user's
// identity (jobUser.do). A directory that cannot be made is left to
// enterDir, which runs the job elsewhere or not at all.
func makeWorkDir(s *Spec, home string) string {
	dir := s.workDir()
	if dir == s.Cwd || dir == "" {
		return dir
	}
	made := dir
	if home != "" {
		made = absIn(home, dir)
	}
	os.MkdirAll(made, 0o777)
	return dir
}

// inDir returns a relative output path name taken from dir; an absolute
// one, or "", as it is.
func inDir(dir, name string) string {
	if name == "" || strings.HasPrefix(name, "/") {
		return name
	}
	return dir + "/" + name
}
