package localexec

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// waitLimit bounds every wait of these tests.
const waitLimit = 10 * time.Second

// A harness is an Executor whose results go to a channel.
type harness struct {
	t       *testing.T
	e       *Executor
	results chan Result
}

// newHarness returns an Executor on dir that runs this test binary as its
// wrapper. Jobs still running when the test ends are killed.
func newHarness(t *testing.T, dir string) *harness {
	t.Helper()
	h := &harness{t: t, results: make(chan Result, 16)}
	e, err := New(dir, func(r Result) { h.results <- r })
	if err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	e.WrapperPath = []string{self, WrapperArg}
	e.KillGrace = 300 * time.Millisecond
	e.PollInterval = 50 * time.Millisecond
	h.e = e
	t.Cleanup(func() {
		e.Close()
		killLeftovers(e.Dir())
	})
	return h
}

// killLeftovers kills the process groups of the jobs recorded in dir.
func killLeftovers(dir string) {
	pids, _ := filepath.Glob(filepath.Join(dir, "*"+pidExt))
	for _, p := range pids {
		if rec, err := readPidRecord(p); err == nil && rec.leaderAlive() {
			rec.signalGroup(syscall.SIGKILL)
		}
	}
}

// start starts s and fails the test when it cannot.
func (h *harness) start(s Spec) {
	h.t.Helper()
	if err := h.e.Start(s); err != nil {
		h.t.Fatalf("Start(job %d): %v", s.JobID, err)
	}
}

// result waits for the Result of job id.
func (h *harness) result(id int64) Result {
	h.t.Helper()
	select {
	case r := <-h.results:
		if r.JobID != id {
			h.t.Fatalf("got the result of job %d, want job %d", r.JobID, id)
		}
		return r
	case <-time.After(waitLimit):
		h.t.Fatalf("no result for job %d within %v", id, waitLimit)
	}
	return Result{}
}

// noResult checks that no Result came.
func (h *harness) noResult() {
	h.t.Helper()
	select {
	case r := <-h.results:
		h.t.Errorf("unexpected result %+v", r)
	default:
	}
}

// eventually polls cond until it holds or waitLimit passes.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s did not happen within %v", what, waitLimit)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// groupStates returns the states of the processes of group pgid.
func groupStates(pgid int) []byte {
	entries, _ := os.ReadDir("/proc")
	var states []byte
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, err := readProcStat(pid); err == nil && st.Pgrp == pgid {
			states = append(states, st.State)
		}
	}
	return states
}

// groupRuns reports whether a process of process group pgid runs the
// program named comm.
func groupRuns(pgid int, comm string) bool {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, err := readProcStat(pid); err == nil && st.Pgrp == pgid {
			if c, err := os.ReadFile("/proc/" + e.Name() + "/comm"); err == nil && strings.TrimSpace(string(c)) == comm {
				return true
			}
		}
	}
	return false
}

// gone reports whether process pid has ended (a zombie no one reaps
// counts as ended).
func gone(pid int) bool {
	st, err := readProcStat(pid)
	return err != nil || st.State == 'Z' || st.State == 'X'
}

func TestRunJob(t *testing.T) {
	h := newHarness(t, filepath.Join(t.TempDir(), "spool"))
	cwd := t.TempDir()
	s := Spec{
		JobID: 101, Index: 2, Name: "echo[2]", Queue: "normal", User: "alice",
		Command: `echo "jobid=$LSB_JOBID"
echo "index=$LSB_JOBINDEX"
echo "hosts=$LSB_HOSTS"
echo "mcpu=$LSB_MCPU_HOSTS"
echo "queue=$LSB_QUEUE"
echo "name=$LSB_JOBNAME"
echo "jobfile=$LSB_JOBFILENAME"
echo "outfile=$LSB_OUTPUTFILE"
echo "errfile=$LSB_ERRORFILE"
echo "foo=$FOO"
echo "cwd=$(pwd)"
echo "umask=$(umask)"
echo oops >&2
: > created
exit 3`,
		Env:    []string{"FOO=bar baz", "PATH=" + os.Getenv("PATH"), "LSB_JOBID=stale"},
		Cwd:    cwd,
		Umask:  0o027,
		Stdout: "out.%J.%I",
		Stderr: "err.%J",
		Hosts:  []string{"hostA", "hostA", "hostB"},
	}
	h.start(s)
	r := h.result(101)
	if r.ExitCode != 3 || r.Signal != 0 || r.Lost || r.Err != "" || r.Done() || r.End.IsZero() {
		t.Errorf("Result = %+v, want exit code 3 and nothing else", r)
	}
	out, err := os.ReadFile(filepath.Join(cwd, "out.101.2"))
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Join([]string{
		"jobid=101",
		"index=2",
		"hosts=hostA hostA hostB",
		"mcpu=hostA 2 hostB 1",
		"queue=normal",
		"name=echo[2]",
		"jobfile=" + filepath.Join(h.e.Dir(), "101.sh"),
		"outfile=" + filepath.Join(cwd, "out.101.2"),
		"errfile=" + filepath.Join(cwd, "err.101"),
		"foo=bar baz",
		"cwd=" + cwd,
		"umask=0027",
	}, "\n") + "\n"
	if string(out) != want {
		t.Errorf("job output:\n%s\nwant:\n%s", out, want)
	}
	if errOut, err := os.ReadFile(filepath.Join(cwd, "err.101")); err != nil || string(errOut) != "oops\n" {
		t.Errorf("job error output = %q, %v, want \"oops\\n\"", errOut, err)
	}
	for _, name := range []string{"created", "out.101.2"} {
		if fi, err := os.Stat(filepath.Join(cwd, name)); err != nil || fi.Mode().Perm() != 0o640 {
			t.Errorf("mode of %s = %v, %v, want 0640 (umask 027)", name, fi.Mode().Perm(), err)
		}
	}
	script, err := os.ReadFile(filepath.Join(h.e.Dir(), "101.sh"))
	if err != nil || !strings.HasPrefix(string(script), "#!/bin/sh\n# lsfc job 101[2]: name \"echo[2]\", queue \"normal\", user \"alice\"\n") {
		t.Errorf("job file = %q, %v, want the #!/bin/sh line and the job's header first", script, err)
	}
	fi, err := os.Stat(h.e.Dir())
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("mode of the job directory = %v, %v, want 0700", fi.Mode().Perm(), err)
	}
	if got, err := readStatus(filepath.Join(h.e.Dir(), "101.status"), 101); err != nil || got.ExitCode != 3 {
		t.Errorf("status file = %+v, %v, want exit code 3", got, err)
	}
	// Output is appended: a second run of the same job adds to it.
	h.start(s)
	h.result(101)
	if out2, _ := os.ReadFile(filepath.Join(cwd, "out.101.2")); string(out2) != want+want {
		t.Errorf("output after a second run:\n%s\nwant the first run's twice", out2)
	}
}

func TestDefaultOutput(t *testing.T) {
	h := newHarness(t, t.TempDir())
	h.start(Spec{JobID: 7, Command: "echo hello; echo problem >&2; pwd", Umask: -1})
	if r := h.result(7); !r.Done() {
		t.Errorf("Result = %+v, want done", r)
	}
	out, err := os.ReadFile(h.e.OutputPath(7))
	if err != nil {
		t.Fatal(err)
	}
	home, _ := os.UserHomeDir()
	if lines := strings.Split(string(out), "\n"); len(lines) != 4 || lines[0] != "hello" || lines[1] != "problem" || (home != "" && lines[2] != home && lines[2] != "/") {
		t.Errorf("output = %q, want hello, problem and the home directory", out)
	}
}

func TestCwdFallback(t *testing.T) {
	h := newHarness(t, t.TempDir())
	h.start(Spec{JobID: 8, Command: "pwd", Cwd: "/nonexistent/dir", Umask: -1})
	h.result(8)
	if out, _ := os.ReadFile(h.e.OutputPath(8)); string(out) != "/tmp\n" {
		t.Errorf("a job whose directory is missing ran in %q, want /tmp", out)
	}
}

// TestCwdPatterns: a working directory given with dynamic patterns
// (bsub -cwd "DIR/%U/%J_%I") is made, with its parents, and the job runs
// and writes its relative output there; one given without them must
// exist (TestCwdFallback).
func TestCwdPatterns(t *testing.T) {
	h := newHarness(t, t.TempDir())
	base := t.TempDir()
	h.start(Spec{JobID: 14, Command: "pwd", Cwd: filepath.Join(base, "w", "%J_%I"), Stdout: "o.%J", Umask: -1})
	if r := h.result(14); !r.Done() || r.Cwd != filepath.Join(base, "w", "14_0") {
		t.Fatalf("Result = %+v, want DONE in %s", r, filepath.Join(base, "w", "14_0"))
	}
	if b, err := os.ReadFile(filepath.Join(base, "w", "14_0", "o.14")); err != nil || string(b) != filepath.Join(base, "w", "14_0")+"\n" {
		t.Errorf("the job's output = %q, %v; want its directory", b, err)
	}
}

func TestOutputDirMissing(t *testing.T) {
	h := newHarness(t, t.TempDir())
	cwd := t.TempDir()
	// A missing directory is made; one ending in a slash gets JOBID.out.
	h.start(Spec{JobID: 9, Command: "echo out; echo err >&2", Cwd: cwd, Stdout: "logs/a/%J.out", Stderr: "errs/", Umask: -1})
	if r := h.result(9); !r.Done() {
		t.Fatalf("Result = %+v, want DONE", r)
	}
	for name, want := range map[string]string{"logs/a/9.out": "out\n", "errs/9.err": "err\n"} {
		if b, err := os.ReadFile(filepath.Join(cwd, name)); err != nil || string(b) != want {
			t.Errorf("%s = %q, %v; want %q", name, b, err, want)
		}
	}
	// A directory that cannot be made (a file is in its way) ends the
	// job before it runs.
	if err := os.WriteFile(filepath.Join(cwd, "file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	h.start(Spec{JobID: 10, Command: "touch ran", Cwd: cwd, Stdout: "file/%J.out", Umask: -1})
	if r := h.result(10); r.ExitCode != 1 || !strings.Contains(r.Err, "file/10.out") || r.Done() || r.Lost {
		t.Errorf("Result = %+v, want exit code 1 and an error naming file/10.out", r)
	}
	if _, err := os.Stat(filepath.Join(cwd, "ran")); err == nil {
		t.Error("the job ran without its output file")
	}
}

// TestOutputID: a job received from another cluster names its output
// files by its id there (OutputID); LSB_JOBID stays its id here.
func TestOutputID(t *testing.T) {
	h := newHarness(t, t.TempDir())
	cwd := t.TempDir()
	h.start(Spec{JobID: 12, OutputID: 5, Command: "echo $LSB_JOBID; echo err >&2", Cwd: cwd, Stdout: "o.%J", Stderr: "errs/", Umask: -1})
	if r := h.result(12); !r.Done() {
		t.Fatalf("Result = %+v, want DONE", r)
	}
	for name, want := range map[string]string{"o.5": "12\n", "errs/5.err": "err\n"} {
		if b, err := os.ReadFile(filepath.Join(cwd, name)); err != nil || string(b) != want {
			t.Errorf("%s = %q, %v; want %q", name, b, err, want)
		}
	}
	bad := Spec{JobID: 13, OutputID: -1, Command: "true", Umask: -1}
	if err := bad.validate(); err == nil || !strings.Contains(err.Error(), "negative output id") {
		t.Errorf("validate(OutputID -1) = %v, want an error of the negative output id", err)
	}
}

// TestArrayElement runs element 7 of array 12: its own id (index times
// 2^32 plus 12) names it to the executor; the job sees LSB_JOBID 12, its
// index and the array's, and %J, %I and a directory name its files.
func TestArrayElement(t *testing.T) {
	h := newHarness(t, t.TempDir())
	cwd := t.TempDir()
	id := int64(7)<<32 | 12
	h.start(Spec{JobID: id, Index: 7, IndexEnd: 9, IndexStep: 2, Name: "a[7]", Cwd: cwd, Umask: -1,
		Command: "echo $LSB_JOBID $LSB_JOBINDEX $LSB_JOBINDEX_END $LSB_JOBINDEX_STEP $LSB_JOBNAME; echo e >&2",
		Stdout:  "o.%J.%I", Stderr: "errs/"})
	if r := h.result(id); !r.Done() {
		t.Fatalf("Result = %+v, want DONE", r)
	}
	for name, want := range map[string]string{"o.12.7": "12 7 9 2 a[7]\n", "errs/12[7].err": "e\n"} {
		if b, err := os.ReadFile(filepath.Join(cwd, name)); err != nil || string(b) != want {
			t.Errorf("%s = %q, %v; want %q", name, b, err, want)
		}
	}
}

func TestOutputPath(t *testing.T) {
	for _, c := range []struct {
		path  string
		index int
		ext   string
		want  string
	}{
		{"", 0, ".out", ""},
		{"out.%J", 0, ".out", "out.42"},
		{"logs/%J.%I.err", 3, ".err", "logs/42.3.err"},
		{"logs/", 0, ".out", "logs/42.out"},
		{"/var/tmp/", 2, ".err", "/var/tmp/42[2].err"},
	} {
		if got := outputPath(c.path, 42, c.index, c.ext); got != c.want {
			t.Errorf("outputPath(%q, 42, %d) = %q, want %q", c.path, c.index, got, c.want)
		}
	}
}

func TestStartErrors(t *testing.T) {
	h := newHarness(t, t.TempDir())
	for _, c := range []struct {
		spec Spec
		want string
	}{
		{Spec{JobID: 0, Command: "true"}, "not positive"},
		{Spec{JobID: 1, Command: "  "}, "no command"},
		{Spec{JobID: 1, Command: "true", Umask: 0o1000}, "umask"},
		{Spec{JobID: 1, Command: "true", Hosts: []string{"a b"}}, "host name"},
		{Spec{JobID: 1, Command: "true", Index: -1}, "negative array index"},
	} {
		if err := h.e.Start(c.spec); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Start(%+v) = %v, want an error with %q", c.spec, err, c.want)
		}
	}

	// Wrappers, and supervisors, that cannot start, refuse, or end
	// without answering.
	for _, c := range []struct {
		perJob  bool
		wrapper []string
		want    string
	}{
		{true, []string{"/nonexistent/lsfc", WrapperArg}, "cannot start the wrapper of job 5"},
		{true, []string{"/bin/sh", "-c", `echo "error: no shell today" >&3`, "sh"}, "cannot start job 5: no shell today"},
		{true, []string{"/bin/true"}, "ended without answering"},
		{false, []string{"/nonexistent/lsfc", WrapperArg}, "cannot start job 5: cannot start the job supervisor"},
		{false, []string{"/bin/sh", "-c", `echo "error: no supervisor today"`, "sh"}, "cannot start the job supervisor /bin/sh: no supervisor today"},
		{false, []string{"/bin/true"}, "ended without answering"},
	} {
		h.e.WrapperPath, h.e.PerJob = c.wrapper, c.perJob
		err := h.e.Start(Spec{JobID: 5, Command: "true", Umask: -1})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Start with wrapper %q = %v, want an error with %q", c.wrapper, err, c.want)
		}
		if _, err := os.Stat(filepath.Join(h.e.Dir(), "5.sh")); err == nil {
			t.Errorf("wrapper %q: the job file is left after a failed Start", c.wrapper)
		}
	}
	h.noResult()

	h2 := newHarness(t, t.TempDir())
	h2.start(Spec{JobID: 6, Command: "sleep 30", Umask: -1})
	if err := h2.e.Start(Spec{JobID: 6, Command: "true", Umask: -1}); err == nil || !strings.Contains(err.Error(), "already running") {
		t.Errorf("second Start of a running job = %v, want an error", err)
	}
	if err := h2.e.Cleanup(6); err == nil {
		t.Error("Cleanup of a running job succeeded, want an error")
	}
	h2.e.Kill(6)
	h2.result(6)
	h2.e.Close()
	if err := h2.e.Start(Spec{JobID: 7, Command: "true", Umask: -1}); err == nil {
		t.Error("Start on a closed executor succeeded, want an error")
	}
}

func TestSuspendResumeKill(t *testing.T) {
	h := newHarness(t, t.TempDir())
	h.start(Spec{JobID: 11, Command: "sleep 30", Umask: -1})
	pgid, ok := h.e.JobPID(11)
	if !ok {
		t.Fatal("JobPID of a running job failed")
	}
	allIn := func(states []byte, set string) bool {
		if len(states) == 0 {
			return false
		}
		for _, s := range states {
			if !strings.ContainsRune(set, rune(s)) {
				return false
			}
		}
		return true
	}
	// The shell starts sleep with vfork: stopped between its vfork and
	// the child's exec, it waits in state D for a child that is stopped
	// (T) before it runs sleep, which is stopped for good but not seen as
	// T. The job is signalled once sleep runs.
	eventually(t, "the job's command running", func() bool { return groupRuns(pgid, "sleep") })
	if err := h.e.Signal(11, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	var seen []byte
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("process states of group %d: %q", pgid, seen)
		}
	})
	eventually(t, "the job stopping", func() bool { seen = groupStates(pgid); return allIn(seen, "T") })
	if err := h.e.Signal(11, syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the job resuming", func() bool { return allIn(groupStates(pgid), "RSD") })

	// Stop it again: Kill must reach a suspended job.
	h.e.Signal(11, syscall.SIGSTOP)
	begin := time.Now()
	if err := h.e.Kill(11); err != nil {
		t.Fatal(err)
	}
	r := h.result(11)
	// SIGINT ends it; on a loaded machine the job may not run within the
	// grace period, and SIGTERM, the next of the sequence, ends it.
	if sig := syscall.Signal(r.Signal); sig != syscall.SIGINT && sig != syscall.SIGTERM || r.ExitCode != 128+r.Signal || r.Lost || r.Done() {
		t.Errorf("Result after Kill = %+v, want signal %d (or %d) and exit code 128 plus it", r, syscall.SIGINT, syscall.SIGTERM)
	}
	if d := time.Since(begin); d > 2*time.Second {
		t.Errorf("Kill took %v, want it quick", d)
	}
	if err := h.e.Signal(11, syscall.SIGCONT); err == nil {
		t.Error("Signal to an ended job succeeded, want an error")
	}
	if err := h.e.Kill(12); err == nil {
		t.Error("Kill of an unknown job succeeded, want an error")
	}
}

func TestKillEscalates(t *testing.T) {
	h := newHarness(t, t.TempDir())
	h.start(Spec{JobID: 13, Command: "trap '' INT TERM; sleep 30", Umask: -1})
	time.Sleep(100 * time.Millisecond) // let the shell set its traps
	begin := time.Now()
	if err := h.e.Kill(13); err != nil {
		t.Fatal(err)
	}
	r := h.result(13)
	if r.Signal != int(syscall.SIGKILL) || r.ExitCode != 137 {
		t.Errorf("Result = %+v, want SIGKILL and exit code 137", r)
	}
	if d := time.Since(begin); d < 2*h.e.KillGrace {
		t.Errorf("SIGKILL came after %v, want at least two grace periods (%v)", d, 2*h.e.KillGrace)
	}
}

func TestKillReachesBackgroundChild(t *testing.T) {
	h := newHarness(t, t.TempDir())
	cwd := t.TempDir()
	h.start(Spec{JobID: 14, Command: "sleep 300 & echo $! > child.pid; wait", Cwd: cwd, Umask: -1})
	var child int
	eventually(t, "the child starting", func() bool {
		data, err := os.ReadFile(filepath.Join(cwd, "child.pid"))
		if err != nil {
			return false
		}
		child, err = strconv.Atoi(strings.TrimSpace(string(data)))
		return err == nil
	})
	if err := h.e.Kill(14); err != nil {
		t.Fatal(err)
	}
	if r := h.result(14); r.Signal == 0 {
		t.Errorf("Result = %+v, want a signal", r)
	}
	// A background child of a shell ignores SIGINT; SIGTERM follows.
	eventually(t, "the background child ending", func() bool { return gone(child) })
}

func TestCleanup(t *testing.T) {
	h := newHarness(t, t.TempDir())
	h.start(Spec{JobID: 15, Command: "echo x", Umask: -1})
	h.result(15)
	if err := h.e.Cleanup(15); err != nil {
		t.Fatal(err)
	}
	// The supervisor's own files are not the job's.
	left, _ := filepath.Glob(filepath.Join(h.e.Dir(), "[0-9]*"))
	if len(left) != 0 {
		t.Errorf("files left after Cleanup: %v", left)
	}
	if err := h.e.Cleanup(15); err != nil {
		t.Errorf("second Cleanup = %v, want nil", err)
	}
}

func TestRunAsOtherUser(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root")
	}
	const nobody = 65534
	h := newHarness(t, t.TempDir())
	outDir, err := os.MkdirTemp("", "localexec-out")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(outDir) })
	if err := os.Chmod(outDir, 0o777); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(outDir, "out")
	// The job's directory is out of reach of nobody: the job runs in /tmp.
	h.start(Spec{JobID: 16, Command: "id -u; id -g; pwd", Cwd: t.TempDir(), Stdout: out, Umask: 0o022, UID: nobody, GID: nobody})
	if r := h.result(16); !r.Done() {
		t.Fatalf("Result = %+v, want done", r)
	}
	data, err := os.ReadFile(out)
	if want := "65534\n65534\n/tmp\n"; err != nil || string(data) != want {
		t.Errorf("output = %q, %v, want %q", data, err, want)
	}
	fi, err := os.Stat(out)
	if err != nil {
		t.Fatal(err)
	}
	if st := fi.Sys().(*syscall.Stat_t); st.Uid != nobody || st.Gid != nobody {
		t.Errorf("output file owned by %d:%d, want %d:%d", st.Uid, st.Gid, nobody, nobody)
	}
	// nobody cannot write into a directory of root's.
	private := t.TempDir()
	h.start(Spec{JobID: 17, Command: "true", Stdout: filepath.Join(private, "out"), Umask: -1, UID: nobody, GID: nobody})
	if r := h.result(17); r.ExitCode != 1 || !strings.Contains(r.Err, "permission denied") {
		t.Errorf("Result = %+v, want exit code 1 and permission denied", r)
	}
}
