package daemon

import (
	"math"
	"net/http"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/runtime"
	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/localexec"
)

// deadlineGrace is how long a job past its termination time (bsub -t)
// has, after SIGUSR2, before it is killed, as LSF gives it.
const deadlineGrace = 600

// preExecExit is the exit code with which a pre-execution command makes
// its job exit rather than pend again, as LSF reads it.
const preExecExit = 99

// submitExec returns the JobExec of a submission, nil when it asks for
// none of its options, or why it is refused.
// defaultDirs, on the owner, gives a submission the directories the configuration
// sets for jobs that ask for none: the working directory of the job's
// application profile (JOB_CWD), else lsb.params' DEFAULT_JOB_CWD, for a
// job submitted without -cwd or LSB_JOB_CWD, taken from its submission
// directory when relative; and DEFAULT_JOB_OUTDIR for one without
// -outdir. Their dynamic patterns (%J, %U ...) are expanded, and the
// directories made, when the job starts, as for -cwd and -outdir.
func (d *Daemon) defaultDirs(req *api.SubmitRequest) {
	params := d.cfg.Policy.Parameters
	if req.CwdDefault {
		dir := params.DefaultJobCwd
		if app := d.cluster.Apps[req.App]; req.App != "" && app != nil && app.Def != nil {
			if v := settingString(app.Def.Settings, "JOB_CWD"); v != "" {
				dir = v
			}
		}
		if dir = strings.TrimSpace(dir); dir != "" {
			if !filepath.IsAbs(dir) {
				dir = filepath.Join(req.Cwd, dir)
			}
			req.Cwd = dir
		}
	}
	if strings.TrimSpace(req.OutDir) == "" {
		req.OutDir = strings.TrimSpace(params.DefaultJobOutdir)
	}
}

func (d *Daemon) submitExec(req *api.SubmitRequest, now runtime.Time) (*runtime.JobExec, error) {
	bad := func(format string, args ...any) error { return errorf(http.StatusBadRequest, format, args...) }
	e := &runtime.JobExec{PreExec: req.PreExec, PostExec: req.PostExec, Begin: runtime.Time(req.BeginTime),
		Term: runtime.Time(req.TermTime), CPULimit: req.CPULimit, CPUSpec: req.CPUSpec, Input: req.Input,
		LoginShell: req.LoginShell, OutDir: req.OutDir, ProcLimits: req.ProcLimits}
	for name, kb := range req.ProcLimits {
		if localexec.JobLimitName(name) && kb <= 0 || !localexec.JobLimitName(name) && !localexec.ProcLimitName(name) ||
			kb < 0 || kb > math.MaxInt64/1024 {
			return nil, bad("bad per-process limit %s=%d", truncate(name), kb)
		}
	}
	for _, f := range []struct{ opt, v string }{{"-E", e.PreExec}, {"-Ep", e.PostExec}, {"-i", e.Input},
		{"-L", e.LoginShell}, {"-outdir", e.OutDir}, {"-c", e.CPUSpec}} {
		switch {
		case len(f.v) > 64<<10:
			return nil, bad("%s is longer than 64 KiB", f.opt)
		case strings.ContainsRune(f.v, 0):
			return nil, bad("%s contains a NUL byte", f.opt)
		}
	}
	switch {
	case req.BeginTime < 0 || req.TermTime < 0:
		return nil, bad("negative begin or termination time")
	case req.TermTime != 0 && runtime.Time(req.TermTime) <= now:
		return nil, bad("the termination time (-t) is past")
	case req.TermTime != 0 && req.BeginTime != 0 && req.TermTime <= req.BeginTime:
		return nil, bad("the termination time (-t) must be later than the begin time (-b)")
	case req.CPULimit < 0 || math.IsNaN(req.CPULimit) || math.IsInf(req.CPULimit, 0):
		return nil, bad("bad CPU limit")
	case e.LoginShell != "" && !strings.HasPrefix(e.LoginShell, "/"):
		return nil, bad("-L %q: the login shell must be an absolute path", truncate(e.LoginShell))
	case req.InputData != nil && !req.InputSpooled || req.InputSpooled && req.Input == "":
		return nil, bad("spooled input (-is) without its file name")
	}
	if req.InputSpooled {
		e.InputData = req.InputData
		if e.InputData == nil {
			e.InputData = []byte{}
		}
	}
	if e.CPUSpec != "" {
		f, ok := d.cpuFactorOf(e.CPUSpec)
		if !ok {
			return nil, bad("-c %s: %s is neither a host nor a host model of the cluster", truncate(e.CPUSpec), truncate(e.CPUSpec))
		}
		e.CPUFactor = f
	}
	if bare := *e; bare.InputData == nil && reflect.ValueOf(bare).IsZero() {
		return nil, nil
	}
	return e, nil
}

// cpuFactorOf returns the CPU factor of a host, or else of a host model.
func (d *Daemon) cpuFactorOf(name string) (float64, bool) {
	if h := d.cluster.Host(name); h != nil && h.Facts != nil && h.Facts.Cpuf > 0 {
		return h.Facts.Cpuf, true
	}
	for _, m := range d.cfg.Policy.HostModels {
		if m.Name == name && m.CPUFactor > 0 {
			return m.CPUFactor, true
		}
	}
	return 0, false
}

// execSpec adds to a job's Spec its pre- and post-execution commands, in
// LSF's order, and the options of its JobExec.
func (d *Daemon) execSpec(j *runtime.Job, out *localexec.Spec) {
	var qset, aset compile.Settings
	if j.Queue.Def != nil {
		qset = j.Queue.Def.Settings
	}
	if j.App != nil && j.App.Def != nil {
		aset = j.App.Def.Settings
	}
	e := j.Sub.Exec
	if e == nil {
		e = &runtime.JobExec{}
	}
	user := d.cfg.Policy.LSFConf.PrePostExecUser
	step := func(cmd string, job, host bool) []localexec.ExecStep {
		if strings.TrimSpace(cmd) == "" {
			return nil
		}
		st := localexec.ExecStep{Command: cmd, Job: job, Host: host}
		if !job && !host {
			st.User = user
		}
		return []localexec.ExecStep{st}
	}
	// Before the job: the host-based commands of the queue and the
	// profile, the queue's, then the job's own or else the profile's.
	out.PreExec = append(out.PreExec, step(settingString(qset, "HOST_PRE_EXEC"), false, true)...)
	out.PreExec = append(out.PreExec, step(settingString(aset, "HOST_PRE_EXEC"), false, true)...)
	out.PreExec = append(out.PreExec, step(settingString(qset, "PRE_EXEC"), false, false)...)
	if e.PreExec != "" {
		out.PreExec = append(out.PreExec, step(e.PreExec, true, false)...)
	} else {
		out.PreExec = append(out.PreExec, step(settingString(aset, "PRE_EXEC"), false, false)...)
	}
	// After it, the other way round.
	if e.PostExec != "" {
		out.PostExec = append(out.PostExec, step(e.PostExec, true, false)...)
	} else {
		out.PostExec = append(out.PostExec, step(settingString(aset, "POST_EXEC"), false, false)...)
	}
	out.PostExec = append(out.PostExec, step(settingString(qset, "POST_EXEC"), false, false)...)
	out.PostExec = append(out.PostExec, step(settingString(aset, "HOST_POST_EXEC"), false, true)...)
	out.PostExec = append(out.PostExec, step(settingString(qset, "HOST_POST_EXEC"), false, true)...)
	limit, factor := e.CPULimit, e.CPUFactor
	if limit == 0 && j.Queue.CPULimit > 0 {
		// The queue's default CPULIMIT, for a job without -c.
		limit = j.Queue.CPULimit
		if j.Queue.CPUSpec != "" {
			factor, _ = d.cpuFactorOf(j.Queue.CPUSpec)
		}
	}
	if limit > 0 {
		if h := firstHost(j); factor > 0 && h != nil && h.Facts != nil && h.Facts.Cpuf > 0 {
			// Minutes on the named host are fewer on a faster one.
			limit = limit * factor / h.Facts.Cpuf
		}
		out.CPULimit = max(int64(math.Ceil(limit)), 1)
	}
	out.Input, out.InputData, out.LoginShell, out.OutDir = e.Input, e.InputData, e.LoginShell, e.OutDir
	out.ProcLimits, out.ProcHardLimits = j.ProcLimits()
	out.JobLimits = j.JobLimits()
	out.PostLater = !d.includePostproc(j)
	out.PostTimeout = int64(d.postprocTimeout(j).Seconds())
	out.StepHosts = d.stepHosts(j)
}

// includePostproc reports whether a job's post-execution commands are
// part of it (JOB_INCLUDE_POSTPROC=Y): LSB_JOB_INCLUDE_POSTPROC of its
// submission's environment, else its application profile's, else
// lsb.params's.
func (d *Daemon) includePostproc(j *runtime.Job) bool {
	for _, kv := range j.Sub.Env {
		if v, ok := strings.CutPrefix(kv, "LSB_JOB_INCLUDE_POSTPROC="); ok {
			if b, ok := yesNo(v); ok {
				return b
			}
		}
	}
	if j.App != nil && j.App.Def != nil {
		if st := j.App.Def.Settings["JOB_INCLUDE_POSTPROC"]; st != nil {
			if b, ok := yesNo(st.Raw); ok {
				return b
			}
		}
	}
	return d.cfg.Policy.Parameters.JobIncludePostproc
}

// yesNo reads an LSF boolean, y or n in any case.
func yesNo(v string) (value, ok bool) {
	switch strings.ToUpper(strings.TrimSpace(v)) {
	case "Y", "YES":
		return true, true
	case "N", "NO":
		return false, true
	}
	return false, false
}

// postprocTimeout returns JOB_POSTPROC_TIMEOUT for a job, its application
// profile's before lsb.params's; 0 for none.
func (d *Daemon) postprocTimeout(j *runtime.Job) time.Duration {
	if j.App != nil && j.App.Def != nil {
		if st := j.App.Def.Settings["JOB_POSTPROC_TIMEOUT"]; st != nil {
			if sec, ok := st.Value.(compile.Duration); ok && sec > 0 {
				return time.Duration(float64(sec) * float64(time.Second))
			}
		}
	}
	return d.cfg.Policy.Parameters.JobPostprocTimeout
}

// stepHosts returns the hosts of a job whose host-based pre- and
// post-execution commands the job's wrapper runs: those of its hosts run
// where its first host is, by the local executor or by the same agent.
func (d *Daemon) stepHosts(j *runtime.Job) []string {
	if len(j.Allocs) == 0 {
		return nil
	}
	first := d.agents.get(j.Allocs[0].Host.Name)
	var out []string
	for _, al := range j.Allocs {
		if h := al.Host.Name; !slices.Contains(out, h) && d.agents.get(h) == first {
			out = append(out, h)
		}
	}
	return out
}

// firstHost returns the first host a started job holds, nil for none.
func firstHost(j *runtime.Job) *runtime.Host {
	if len(j.Allocs) == 0 {
		return nil
	}
	return j.Allocs[0].Host
}

// preExecLimit returns how many times a job's pre-execution command is
// tried before the job is suspended (or made to exit), 0 for unlimited:
// LOCAL_MAX_PREEXEC_RETRY of its profile, its queue or lsb.params; for a
// job received from another cluster, REMOTE_MAX_PREEXEC_RETRY (or the
// older MAX_PREEXEC_RETRY), 5 by default.
func (d *Daemon) preExecLimit(j *runtime.Job) (limit int, exit bool) {
	var sets []compile.Settings
	if j.App != nil && j.App.Def != nil {
		sets = append(sets, j.App.Def.Settings)
	}
	if j.Queue.Def != nil {
		sets = append(sets, j.Queue.Def.Settings)
	}
	p := &d.cfg.Policy.Parameters
	action := p.LocalMaxPreexecRetryAction
	for i := len(sets) - 1; i >= 0; i-- {
		if v := settingString(sets[i], "LOCAL_MAX_PREEXEC_RETRY_ACTION"); v != "" {
			action = v
		}
	}
	exit = strings.EqualFold(action, "EXIT")
	intOf := func(key string) (int, bool) {
		for _, set := range sets {
			if st := set[key]; st != nil {
				if n, err := strconv.Atoi(strings.TrimSpace(st.Raw)); err == nil && n > 0 {
					return n, true
				}
			}
		}
		return 0, false
	}
	if j.Sub.Home != nil {
		for _, k := range []string{"REMOTE_MAX_PREEXEC_RETRY", "MAX_PREEXEC_RETRY"} {
			if n, ok := intOf(k); ok {
				return n, exit
			}
		}
		return p.RemoteMaxPreexecRetry, exit
	}
	if n, ok := intOf("LOCAL_MAX_PREEXEC_RETRY"); ok {
		return n, exit
	}
	return p.LocalMaxPreexecRetry, exit
}

// preExecEnded handles a run of a job whose pre-execution command failed
// with code: the job pends again and is retried, until the retry limit
// makes it PSUSP (or EXIT, with LOCAL_MAX_PREEXEC_RETRY_ACTION=EXIT);
// exit code 99 makes it exit at once. ok is false when the job ends
// instead (the caller finishes it).
func (d *Daemon) preExecEnded(j *runtime.Job, code int, now runtime.Time) (Record, bool) {
	if code == preExecExit || j.Term != "" {
		return Record{}, false
	}
	limit, exit := d.preExecLimit(j)
	last := limit > 0 && j.PreExecFailures+1 >= limit
	if last && exit {
		return Record{}, false
	}
	d.dropFiles(j.ID)
	if err := d.cluster.PreExecFailed(j, last, now); err != nil {
		d.cfg.Logf("job %d: %v", j.ID, err)
		return Record{}, false
	}
	d.cfg.Logf("job %d: its pre-execution command exited with %d (failure %d); the job is %s", j.ID, code,
		j.PreExecFailures, j.State)
	return Record{Type: KindPreExec, At: now, Job: j.ID, Code: code, State: j.State.String()}, true
}

// postExecRecord returns the record of how a job's post-execution
// commands ended, once the job's processes ended: POST_DONE or POST_ERR,
// or POST_RUN when they run on after it (JOB_INCLUDE_POSTPROC=N) and
// their end comes later (postEnded).
func postExecRecord(j *runtime.Job, r localexec.Result, now runtime.Time) []Record {
	state := r.PostExec
	if r.PostPending {
		state = runtime.PostRunning
	}
	if state == "" {
		return nil
	}
	j.PostExec = state
	return []Record{{Type: KindPostExec, At: now, Job: j.ID, Text: state}}
}

// postEnded applies the end of the post-execution commands of a job
// whose end was recorded before them, and returns its record; ok is
// false when the job no longer waits for them (forgotten, or their end
// already recorded before a restart).
func (d *Daemon) postEnded(r localexec.Result, now runtime.Time) (Record, bool) {
	j := d.cluster.Job(r.JobID)
	if j == nil || j.PostExec != runtime.PostRunning {
		return Record{}, false
	}
	if r.Err != "" {
		d.cfg.Logf("job %d: post-execution: %s", j.ID, r.Err)
	}
	state := r.PostExec
	if state != localexec.PostDone || d.hostPostFailed[j.ID] {
		state = localexec.PostErr
	}
	delete(d.hostPostFailed, j.ID)
	j.PostExec = state
	d.dirty = true // post_done and post_err dependencies may hold now
	return Record{Type: KindPostExec, At: now, Job: j.ID, Text: state}, true
}

// deadline returns what housekeeping does about a started job's
// termination time at now: a record and an action, or nothing.
func (d *Daemon) deadline(j *runtime.Job, now runtime.Time) (Record, func(), bool) {
	t := j.TermTime()
	switch {
	case t == 0 || now < t || j.Remote != nil:
		return Record{}, nil, false
	case j.Term == "":
		// SIGUSR2 first, to let the job end by itself; it is killed
		// deadlineGrace later.
		j.Term = termDeadline
		return Record{Type: KindKill, At: now, Job: j.ID, Term: j.Term}, d.signalAct(j.ID, syscall.SIGUSR2), true
	}
	return Record{}, nil, false
}

// termDeadline is how a job past its termination time ends.
const termDeadline = "TERM_DEADLINE"

// deadlineWaits reports whether a job signalled at its termination time
// still has its grace before it is killed.
func deadlineWaits(j *runtime.Job, now runtime.Time) bool {
	t := j.TermTime()
	return j.Term == termDeadline && t > 0 && now < t+deadlineGrace
}

// execJobFields fills in the job's pre- and post-execution, begin and
// termination times as bjobs shows them.
func execJobFields(j *runtime.Job, out *api.Job) {
	out.PostExec = j.PostExec
	out.PreExecFailures = j.PreExecFailures
	e := j.Sub.Exec
	if e == nil {
		return
	}
	out.PreExecCmd, out.PostExecCmd = e.PreExec, e.PostExec
	out.BeginTime, out.TermTime = float64(e.Begin), float64(e.Term)
	out.CPULimit = e.CPULimit
	out.ProcLimits = e.ProcLimits
	out.Input, out.LoginShell, out.OutDir = e.Input, e.LoginShell, e.OutDir
}

// execRequest writes a job's JobExec into the submission that forwards
// it to another cluster; the CPU limit goes normalised already.
func execRequest(e *runtime.JobExec, req *api.SubmitRequest) {
	if e == nil {
		return
	}
	req.PreExec, req.PostExec = e.PreExec, e.PostExec
	req.BeginTime, req.TermTime = int64(e.Begin), int64(e.Term)
	req.CPULimit = e.CPULimit
	req.ProcLimits = e.ProcLimits
	req.Input, req.LoginShell, req.OutDir = e.Input, e.LoginShell, e.OutDir
	if e.InputData != nil {
		req.InputSpooled, req.InputData = true, e.InputData
	}
}
