package localexec

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// supervisorPID returns the process id the supervisor of dir recorded.
func supervisorPID(t testing.TB, dir string) int {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, supPID))
	if err != nil {
		t.Fatalf("no supervisor: %v", err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

// wrapperOf returns the wrapper recorded in job id's pid file.
func wrapperOf(t *testing.T, dir string, id int64) int {
	t.Helper()
	rec, err := readPidRecord(spoolPath(dir, id, pidExt))
	if err != nil {
		t.Fatal(err)
	}
	return rec.WrapperPID
}

// TestSupervisorJobDescriptors checks that a job inherits its standard
// input, output and error alone: not its lock, its pid file (kept open
// to be synced) nor any other file of its supervisor or wrapper, nor a
// descriptor whoever started them gave them (here a file the test opens
// without close-on-exec before the supervisor or wrapper starts). A
// program the job runs lists what it inherited (the shell keeps its job
// file close-on-exec). A job without input reads /dev/null.
func TestSupervisorJobDescriptors(t *testing.T) {
	stray, err := syscall.Open(os.DevNull, syscall.O_WRONLY, 0) // inherited by what the test starts
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(stray)
	for _, perJob := range []bool{false, true} {
		t.Run("PerJob="+strconv.FormatBool(perJob), func(t *testing.T) {
			h := newHarness(t, t.TempDir())
			h.e.PerJob = perJob
			work := t.TempDir()
			h.start(Spec{JobID: 1, Cwd: work, Umask: -1, Stdout: filepath.Join(work, "out"),
				Command: "ls -l /proc/self/fd > fds; readlink /proc/$$/fd/0 > in; sleep 0.2"})
			if r := h.result(1); !r.Done() {
				t.Fatalf("job ended %+v, want DONE", r)
			}
			data, err := os.ReadFile(filepath.Join(work, "fds"))
			if err != nil {
				t.Fatal(err)
			}
			var fds []string
			for line := range strings.Lines(string(data)) {
				f := strings.Fields(line)
				if len(f) < 3 || f[len(f)-2] != "->" {
					continue // ls's total
				}
				fd, target := f[len(f)-3], f[len(f)-1]
				if strings.HasPrefix(target, "/proc/") && strings.HasSuffix(target, "/fd") {
					continue // the directory ls reads
				}
				fds = append(fds, fd+" "+target)
			}
			if len(fds) != 3 || fds[0] != "0 "+os.DevNull || fds[1] != "1 "+filepath.Join(work, "fds") || !strings.HasPrefix(fds[2], "2 ") {
				t.Errorf("the job's program inherited %q, want its input (%s), output and error alone", fds, os.DevNull)
			}
			if in, _ := os.ReadFile(filepath.Join(work, "in")); strings.TrimSpace(string(in)) != os.DevNull {
				t.Errorf("the job's input is %q, want %s", in, os.DevNull)
			}
		})
	}
}

// TestSupervisorConcurrentJobs starts jobs at the same time, with
// different umasks, working directories and per-process limits: the jobs
// without limits all run in the one supervisor, and each job sees its
// own umask, directory and limits, whatever the others do meanwhile.
func TestSupervisorConcurrentJobs(t *testing.T) {
	h := newHarness(t, t.TempDir())
	h.results = make(chan Result, 64)
	work := t.TempDir()
	const n = 24
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			dir := filepath.Join(work, strconv.Itoa(i))
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Error(err)
				return
			}
			s := Spec{JobID: int64(i + 1), Cwd: dir, Umask: []int{0o022, 0o077, 0o002, 0o027}[i%4],
				Command: "umask > umask; pwd > pwd; ulimit -c > core; : > made; sleep 0.2"}
			if i%3 == 0 {
				s.ProcLimits = map[string]int64{"CORELIMIT": int64(i + 1)}
			}
			if err := h.e.Start(s); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	sup := supervisorPID(t, h.e.Dir())
	for range n {
		select {
		case r := <-h.results:
			if !r.Done() {
				t.Errorf("job %d ended %+v, want DONE", r.JobID, r)
			}
		case <-time.After(waitLimit):
			t.Fatal("not every job ended")
		}
	}
	for i := range n {
		dir := filepath.Join(work, strconv.Itoa(i))
		umask := []int{0o022, 0o077, 0o002, 0o027}[i%4]
		read := func(name string) string {
			data, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Error(err)
			}
			return strings.TrimSpace(string(data))
		}
		if got, want := read("umask"), fmt.Sprintf("%04o", umask); got != want {
			t.Errorf("job %d: umask %s, want %s", i+1, got, want)
		}
		if got := read("pwd"); got != dir {
			t.Errorf("job %d: ran in %s, want %s", i+1, got, dir)
		}
		if fi, err := os.Stat(filepath.Join(dir, "made")); err != nil || int(fi.Mode().Perm()) != 0o666&^umask {
			t.Errorf("job %d: its file has mode %v (%v), want %#o", i+1, fi.Mode().Perm(), err, 0o666&^umask)
		}
		wantCore := "unlimited"
		var lim syscall.Rlimit
		if syscall.Getrlimit(syscall.RLIMIT_CORE, &lim) == nil && lim.Cur != ^uint64(0) {
			wantCore = strconv.FormatUint(lim.Cur/512, 10) // the shell counts 512-byte blocks
		}
		wrapper := wrapperOf(t, h.e.Dir(), int64(i+1))
		if i%3 == 0 {
			wantCore = strconv.Itoa((i + 1) * 2)
			if wrapper == sup {
				t.Errorf("job %d, with a per-process limit, ran in the supervisor", i+1)
			}
		} else if wrapper != sup {
			t.Errorf("job %d ran in process %d, want the supervisor %d", i+1, wrapper, sup)
		}
		if got := read("core"); got != wantCore {
			t.Errorf("job %d: core limit %s, want %s", i+1, got, wantCore)
		}
	}
	// The supervisor's own umask and directory are as they were.
	if cwd, err := os.Readlink(fmt.Sprintf("/proc/%d/cwd", sup)); err != nil || cwd != "/" {
		t.Errorf("the supervisor's directory is %q (%v), want /", cwd, err)
	}
}

// TestSupervisorSurvivesRestart closes the Executor while jobs run, as a
// daemon that stops does: the supervisor runs on, a new Executor on the
// directory adopts the jobs and gets their real exit status, and its new
// jobs go to the same supervisor.
func TestSupervisorSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	h := newHarness(t, dir)
	h.start(Spec{JobID: 1, Command: "sleep 0.5; exit 7", Umask: -1})
	h.start(Spec{JobID: 2, Command: "sleep 30", Umask: -1})
	sup := supervisorPID(t, dir)
	h.e.Close()

	h2 := newHarness(t, dir)
	if ended := h2.e.Recover([]int64{1, 2}); len(ended) != 0 {
		t.Fatalf("Recover returned %+v, want both jobs adopted", ended)
	}
	if r := h2.result(1); r.ExitCode != 7 || r.Lost {
		t.Errorf("job 1 ended %+v, want exit code 7", r)
	}
	h2.start(Spec{JobID: 3, Command: "exit 4", Umask: -1})
	if r := h2.result(3); r.ExitCode != 4 {
		t.Errorf("job 3 ended %+v, want exit code 4", r)
	}
	if w := wrapperOf(t, dir, 3); w != sup {
		t.Errorf("job 3 ran in process %d, want the supervisor %d", w, sup)
	}
	if err := h2.e.Kill(2); err != nil {
		t.Fatal(err)
	}
	if r := h2.result(2); r.Signal == 0 {
		t.Errorf("job 2 ended %+v, want killed", r)
	}
}

// endsOf waits for the Results of jobs ids, in whatever order they come,
// and fails the test, with the supervisor's log of dir, when they do not.
func endsOf(t *testing.T, h *harness, dir string, ids ...int64) map[int64]Result {
	t.Helper()
	got := map[int64]Result{}
	for len(got) < len(ids) {
		select {
		case r := <-h.results:
			got[r.JobID] = r
		case <-time.After(waitLimit):
			log, _ := os.ReadFile(filepath.Join(dir, supLog))
			t.Fatalf("jobs %v did not all end (ended: %v); the supervisor's log:\n%s", ids, got, log)
		}
	}
	for _, id := range ids {
		if _, ok := got[id]; !ok {
			t.Errorf("results for %v, want jobs %v", got, ids)
		}
	}
	return got
}

// TestSupervisorKilled kills the supervisor: its running jobs are lost,
// their processes killed, and the next Start starts a new supervisor.
func TestSupervisorKilled(t *testing.T) {
	dir := t.TempDir()
	h := newHarness(t, dir)
	h.start(Spec{JobID: 1, Command: "sleep 30", Umask: -1})
	h.start(Spec{JobID: 2, Command: "sleep 30", Umask: -1})
	sup := supervisorPID(t, dir)
	pgid1, _ := h.e.JobPID(1)
	pgid2, _ := h.e.JobPID(2)
	if err := syscall.Kill(sup, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	for _, r := range endsOf(t, h, dir, 1, 2) {
		if !r.Lost {
			t.Errorf("job %d ended %+v, want lost", r.JobID, r)
		}
	}
	eventually(t, "the jobs' processes ending", func() bool { return len(groupStates(pgid1))+len(groupStates(pgid2)) == 0 })
	h.start(Spec{JobID: 3, Command: "exit 5", Umask: -1})
	if r := h.result(3); r.ExitCode != 5 {
		t.Errorf("job 3 ended %+v, want exit code 5", r)
	}
	if w := wrapperOf(t, dir, 3); w == sup || w != supervisorPID(t, dir) {
		t.Errorf("job 3 ran in process %d, want a new supervisor (the killed one was %d)", w, sup)
	}
}

// TestSupervisorLostAdopted checks that a supervised job whose lock is
// free and whose status was never written (its wrapper in the supervisor
// failed to record it) is lost at once when adopted, though its
// supervisor, named as its wrapper, still runs, and that its processes
// are killed; the same job with a wrapper of its own that runs is
// adopted and watched.
func TestSupervisorLostAdopted(t *testing.T) {
	leader := exec.Command("sleep", "30")
	leader.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := leader.Start(); err != nil {
		t.Fatal(err)
	}
	defer leader.Process.Kill()
	exited := make(chan struct{})
	go func() { leader.Wait(); close(exited) }()
	self, err := processStart(0)
	if err != nil {
		t.Fatal(err)
	}
	jobStart, err := processStart(leader.Process.Pid)
	if err != nil {
		t.Fatal(err)
	}
	rec := pidRecord{WrapperPID: os.Getpid(), WrapperStart: self, JobPID: leader.Process.Pid, JobStart: jobStart}
	for _, supervised := range []bool{false, true} {
		dir := t.TempDir()
		rec.Supervised = supervised
		if err := replaceJSON(spoolPath(dir, 1, pidExt), rec, 0o600, false); err != nil {
			t.Fatal(err)
		}
		h := newHarness(t, dir)
		ended := h.e.Recover([]int64{1})
		h.e.Close()
		if !supervised {
			if len(ended) != 0 {
				t.Errorf("a job whose own wrapper runs: Recover returned %+v, want it adopted", ended)
			}
			continue
		}
		if len(ended) != 1 || !ended[0].Lost {
			t.Errorf("a supervised job with its lock free and no status: Recover returned %+v, want it lost", ended)
		}
		select {
		case <-exited:
		case <-time.After(waitLimit):
			t.Error("the lost job's processes were not killed")
		}
	}
}

// TestSupervisorSignalled checks that SIGTERM sent to the supervisor goes
// on to its jobs, whose ends are recorded as those of jobs killed by the
// signal (not lost), and that the supervisor then takes no more jobs and
// exits once they have ended: the next job gets a new supervisor.
func TestSupervisorSignalled(t *testing.T) {
	dir := t.TempDir()
	h := newHarness(t, dir)
	h.start(Spec{JobID: 1, Command: "sleep 30", Umask: -1})
	h.start(Spec{JobID: 2, Command: "sleep 30", Umask: -1})
	sup := supervisorPID(t, dir)
	if err := syscall.Kill(sup, syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	for _, r := range endsOf(t, h, dir, 1, 2) {
		if r.Lost || r.Signal != int(syscall.SIGTERM) {
			t.Errorf("job %d ended %+v, want killed by SIGTERM and not lost", r.JobID, r)
		}
	}
	eventually(t, "the signalled supervisor exiting", func() bool { return gone(sup) })
	h.start(Spec{JobID: 3, Command: "exit 4", Umask: -1})
	if r := h.result(3); r.ExitCode != 4 {
		t.Errorf("job 3 ended %+v, want exit code 4", r)
	}
	if w := wrapperOf(t, dir, 3); w == sup {
		t.Errorf("job 3 ran in the signalled supervisor %d", sup)
	}
}

// TestSupervisorExits checks when the supervisor ends by itself: idle for
// its idle time; at once when the Executor closes without jobs; once its
// jobs end when its socket is gone.
func TestSupervisorExits(t *testing.T) {
	t.Setenv(supIdleEnv, "300ms")
	dir := t.TempDir()
	h := newHarness(t, dir)
	h.start(Spec{JobID: 1, Command: "true", Umask: -1})
	h.result(1)
	sup := supervisorPID(t, dir)
	eventually(t, "the idle supervisor exiting", func() bool { return gone(sup) })
	if _, err := os.Stat(filepath.Join(dir, supSock)); err == nil {
		t.Error("the socket of the supervisor is left")
	}

	t.Setenv(supIdleEnv, "1h")
	h.start(Spec{JobID: 2, Command: "true", Umask: -1})
	h.result(2)
	sup = supervisorPID(t, dir)
	start := time.Now()
	h.e.Close()
	eventually(t, "the supervisor exiting after Close", func() bool { return gone(sup) })
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("the supervisor took %v to exit after Close", d)
	}

	h3 := newHarness(t, dir)
	h3.start(Spec{JobID: 3, Command: "sleep 1; exit 2", Umask: -1})
	sup = supervisorPID(t, dir)
	if err := os.Remove(filepath.Join(dir, supSock)); err != nil {
		t.Fatal(err)
	}
	if r := h3.result(3); r.ExitCode != 2 {
		t.Errorf("job 3 ended %+v, want exit code 2", r)
	}
	eventually(t, "the supervisor without a socket exiting", func() bool { return gone(sup) })

	// Its directory removed, it kills its jobs and exits.
	dir4 := filepath.Join(t.TempDir(), "jobs")
	h4 := newHarness(t, dir4)
	h4.start(Spec{JobID: 4, Command: "sleep 30", Umask: -1})
	sup = supervisorPID(t, dir4)
	pgid, _ := h4.e.JobPID(4)
	if err := os.RemoveAll(dir4); err != nil {
		t.Fatal(err)
	}
	if r := h4.result(4); !r.Lost {
		t.Errorf("job 4 ended %+v, want lost", r)
	}
	eventually(t, "the supervisor without a directory exiting", func() bool { return gone(sup) })
	eventually(t, "its job's processes ending", func() bool { return len(groupStates(pgid)) == 0 })
}

// TestSupervisorRefusesOtherUsers checks that the supervisor serves only
// its own user.
func TestSupervisorRefusesOtherUsers(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs root to connect as another user")
	}
	dir := t.TempDir()
	h := newHarness(t, dir)
	h.start(Spec{JobID: 1, Command: "sleep 30", Umask: -1})
	defer func() {
		h.e.Kill(1)
		h.result(1)
	}()
	// The directory and socket opened to all for the test: user nobody's
	// connection reaches the supervisor, which refuses it.
	for _, p := range []string{filepath.Dir(dir), dir} {
		if err := os.Chmod(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chmod(filepath.Join(dir, supSock), 0o777); err != nil {
		t.Fatal(err)
	}
	script := fmt.Sprintf(`exec python3 -c 'import socket,sys
s=socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
try:
    s.connect(%q)
except OSError as e:
    print("cannot connect", e); sys.exit(0)
print(s.recv(100) or "refused")'`, filepath.Join(dir, supSock))
	out, err := runAs(65534, script)
	if err != nil {
		t.Skipf("cannot run as nobody: %v %s", err, out)
	}
	if strings.TrimSpace(out) != "refused" {
		t.Errorf("another user's connection got %q, want it refused", out)
	}
}

// runAs runs the shell script as user uid (and group uid) and returns its
// output.
func runAs(uid int, script string) (string, error) {
	cmd := exec.Command("/bin/sh", "-c", script)
	cmd.Dir = "/"
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: uint32(uid), Gid: uint32(uid), Groups: []uint32{}}}
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestSupervisorLongPath runs a job in a directory whose socket path is
// too long for a socket address.
func TestSupervisorLongPath(t *testing.T) {
	dir := filepath.Join(t.TempDir(), strings.Repeat("d", 100))
	h := newHarness(t, dir)
	h.start(Spec{JobID: 1, Command: "exit 3", Umask: -1})
	if r := h.result(1); r.ExitCode != 3 {
		t.Errorf("job 1 ended %+v, want exit code 3", r)
	}
	if w := wrapperOf(t, dir, 1); w != supervisorPID(t, dir) {
		t.Errorf("job 1 ran in process %d, not in the supervisor", w)
	}
}

func TestParseRequest(t *testing.T) {
	for _, c := range []struct {
		msg  string
		nfds int
		id   int64
		prog string
		err  string
	}{
		{"start 42", 1, 42, "", ""},
		{"start 42 2049:131077", 1, 42, "2049:131077", ""},
		{"start 42 0:18446744073709551615", 1, 42, "0:18446744073709551615", ""},
		{"close", 0, 0, "", ""},
		{"start 42 2049", 1, 0, "", "bad program"},
		{"start 42 2049:", 1, 0, "", "bad program"},
		{"start 42 :1", 1, 0, "", "bad program"},
		{"start 42 01:1", 1, 0, "", "bad program"},
		{"start 42 1:2:3", 1, 0, "", "bad program"},
		{"start 42 1:18446744073709551616", 1, 0, "", "bad program"},
		{"start 42 1:2 ", 1, 0, "", "bad program"},
		{"start 42 ", 1, 0, "", "bad program"},
		{"close", 1, 0, "", "bad request"},
		{"start 42", 0, 0, "", "bad request"},
		{"start 42", 2, 0, "", "bad request"},
		{"start -1", 1, 0, "", "bad job id"},
		{"start 0", 1, 0, "", "bad job id"},
		{"start +7", 1, 0, "", "bad job id"},
		{"start 007", 1, 0, "", "bad job id"},
		{"start 1 2", 1, 0, "", "bad program"},
		{"start 1x 2:3", 1, 0, "", "bad job id"},
		{"stop 1", 1, 0, "", "bad request"},
		{"", 0, 0, "", "bad request"},
	} {
		id, prog, err := parseRequest(c.msg, c.nfds)
		if id != c.id || prog != c.prog || (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("parseRequest(%q, %d) = %d, %q, %v; want %d, %q, %q", c.msg, c.nfds, id, prog, err, c.id, c.prog, c.err)
		}
	}
}

// FuzzParseRequest checks that any request is read without a panic, and
// that a job id and program read are written as in the request.
func FuzzParseRequest(f *testing.F) {
	for _, s := range []string{"start 1", "close", "start 9223372036854775807", "start 9223372036854775808", "start \x00",
		"start 1 2049:131077", "start 1 1:2:3", "start 1 :"} {
		f.Add(s, 1)
	}
	f.Fuzz(func(t *testing.T, msg string, nfds int) {
		id, prog, err := parseRequest(msg, nfds)
		if err != nil {
			if id != 0 || prog != "" {
				t.Errorf("parseRequest(%q, %d) = %d, %q with error %v", msg, nfds, id, prog, err)
			}
			return
		}
		want := "close"
		if id > 0 {
			want = "start " + strconv.FormatInt(id, 10)
			if prog != "" {
				want += " " + prog
			}
		}
		if id < 0 || msg != want || id == 0 && prog != "" {
			t.Errorf("parseRequest(%q, %d) = %d, %q", msg, nfds, id, prog)
		}
	})
}

// installProgram copies the program src to dst as an upgrade installs
// it: a new file renamed over the old one.
func installProgram(t *testing.T, src, dst string) {
	t.Helper()
	data, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst+".new", data, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(dst+".new", dst); err != nil {
		t.Fatal(err)
	}
}

// TestSupervisorRetiresOnUpgrade replaces the job starter while its
// supervisor runs a job, and restarts the Executor, as an upgrade of
// lsfc does: the next Start has the old supervisor retire and starts a
// new one from the new program; the old one runs its job to its end,
// whose exit status the new Executor gets, and then exits.
func TestSupervisorRetiresOnUpgrade(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	starter := filepath.Join(t.TempDir(), StarterName)
	installProgram(t, self, starter)
	dir := t.TempDir()
	gate := filepath.Join(t.TempDir(), "gate")
	h := newHarness(t, dir)
	h.e.WrapperPath = []string{starter}
	h.start(Spec{JobID: 1, Command: fmt.Sprintf("while [ ! -e %s ]; do sleep 0.05; done; exit 7", gate), Umask: -1})
	old := supervisorPID(t, dir)
	pgid1, _ := h.e.JobPID(1)
	h.e.Close()

	installProgram(t, self, starter)
	h2 := newHarness(t, dir)
	h2.e.WrapperPath = []string{starter}
	if ended := h2.e.Recover([]int64{1}); len(ended) != 0 {
		t.Fatalf("Recover returned %+v, want job 1 adopted", ended)
	}
	// Jobs started at once: one of them has the old supervisor retire,
	// none is taken by it, each runs once in the new one.
	const n = 6
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := h2.e.Start(Spec{JobID: int64(10 + i), Command: fmt.Sprintf("exit %d", 10+i), Umask: -1}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	sup := supervisorPID(t, dir)
	if sup == old {
		t.Fatalf("the jobs went to the supervisor %d of the replaced program", old)
	}
	if got, want := programID(fmt.Sprintf("/proc/%d/exe", sup)), programID(starter); got != want {
		t.Errorf("the new supervisor runs program %s, want the new starter %s", got, want)
	}
	seen := map[int64]bool{}
	for range n {
		select {
		case r := <-h2.results:
			if r.ExitCode != int(r.JobID) || seen[r.JobID] {
				t.Errorf("job %d ended %+v, want exit code %d, once", r.JobID, r, r.JobID)
			}
			seen[r.JobID] = true
			if w := wrapperOf(t, dir, r.JobID); w != sup {
				t.Errorf("job %d ran in process %d, want the new supervisor %d", r.JobID, w, sup)
			}
		case <-time.After(waitLimit):
			t.Fatal("not every job ended")
		}
	}
	// The retired supervisor runs job 1 on; the next job goes to the new
	// one, which runs the program Start would start.
	if gone(old) {
		t.Fatal("the retired supervisor exited before its job ended")
	}
	if w := wrapperOf(t, dir, 1); w != old {
		t.Errorf("job 1's wrapper is %d, want the retired supervisor %d", w, old)
	}
	h2.start(Spec{JobID: 3, Command: "exit 5", Umask: -1})
	if r := h2.result(3); r.ExitCode != 5 {
		t.Errorf("job 3 ended %+v, want exit code 5", r)
	}
	if w := wrapperOf(t, dir, 3); w != sup {
		t.Errorf("job 3 ran in process %d, want the new supervisor %d", w, sup)
	}
	if err := os.WriteFile(gate, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if r := h2.result(1); r.ExitCode != 7 || r.Lost {
		t.Errorf("job 1 ended %+v, want exit code 7", r)
	}
	eventually(t, "the retired supervisor exiting", func() bool { return gone(old) })
	eventually(t, "job 1's processes ending", func() bool { return len(groupStates(pgid1)) == 0 })
	if log, err := os.ReadFile(filepath.Join(dir, supLog)); err != nil || !strings.Contains(string(log), "retiring") {
		t.Errorf("the supervisor's log %q (%v) does not tell it retired", log, err)
	}
	h2.e.Close()
	eventually(t, "the new supervisor exiting", func() bool { return gone(sup) })
}

// TestSupervisorSpecInline checks that a job of the supervisor gets its
// spec with its request, with no spec file, and that one too large for
// a message gets it through the spec file.
func TestSupervisorSpecInline(t *testing.T) {
	h := newHarness(t, t.TempDir())
	work := t.TempDir()
	big := strings.Repeat("x", maxSupMsg+1)
	for _, c := range []struct {
		id    int64
		value string
		file  bool
	}{{1, "small", false}, {2, big, true}} {
		s := Spec{JobID: c.id, Cwd: work, Umask: -1, Env: []string{"VALUE=" + c.value},
			Command: fmt.Sprintf(`printf %%s "$VALUE" > value.%d`, c.id)}
		h.start(s)
		if r := h.result(c.id); !r.Done() {
			t.Fatalf("job %d ended %+v, want DONE", c.id, r)
		}
		if got, err := os.ReadFile(filepath.Join(work, fmt.Sprint("value.", c.id))); err != nil || string(got) != c.value {
			t.Errorf("job %d saw a value of %d bytes (%v), want %d", c.id, len(got), err, len(c.value))
		}
		_, err := os.Stat(spoolPath(h.e.Dir(), c.id, specExt))
		if file := err == nil; file != c.file {
			t.Errorf("job %d: spec file written %v, want %v", c.id, file, c.file)
		}
		if w := wrapperOf(t, h.e.Dir(), c.id); w != supervisorPID(t, h.e.Dir()) {
			t.Errorf("job %d ran in process %d, not in the supervisor", c.id, w)
		}
	}
}

// TestSupervisorWithoutInlineSpec plays a supervisor of an older program,
// which reads a job's spec from its file and finds a request with a spec
// bad: Start writes the spec file and asks again without it. Then it
// plays one of this program, whose answer names the job's processes.
func TestSupervisorWithoutInlineSpec(t *testing.T) {
	h := newHarness(t, t.TempDir())
	ln, err := net.ListenUnix("unixpacket", &net.UnixAddr{Name: filepath.Join(h.e.Dir(), supSock), Net: "unixpacket"})
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	reqs, answers := make(chan string, 3), make(chan string, 1)
	go func() {
		for i := 0; ; i++ {
			c, err := ln.AcceptUnix()
			if err != nil {
				return
			}
			msg, fds, _ := readMsg(c, waitLimit)
			closeFDs(fds)
			reqs <- msg
			c.Write([]byte("hello 1"))
			switch i {
			case 0:
				// As an older supervisor's parseRequest reads it.
				_, _, err := parseRequest(msg, len(fds))
				c.Write([]byte("error: " + err.Error()))
			case 1:
				c.Write([]byte("ok"))
			default:
				c.Write([]byte("ok " + <-answers))
			}
			c.Write([]byte("done 1"))
			c.Close()
		}
	}()
	if err := h.e.Start(Spec{JobID: 7, Command: "true", Umask: -1}); err != nil {
		t.Fatalf("Start: %v", err)
	}
	if first := <-reqs; !strings.HasPrefix(first, "start 7") || !strings.Contains(first, "\n{") {
		t.Errorf("first request %q, want one with the spec", first)
	}
	if second := <-reqs; strings.Contains(second, "\n") || !strings.HasPrefix(second, "start 7") {
		t.Errorf("second request %q, want one without the spec", second)
	}
	var s Spec
	if err := readJSON(spoolPath(h.e.Dir(), 7, specExt), &s); err != nil || s.JobID != 7 {
		t.Errorf("spec file: %+v, %v", s, err)
	}
	if r := h.result(7); !r.Lost {
		t.Errorf("job 7 ended %+v, want lost: the play wrote no status", r)
	}

	// A supervisor of this program sends the job's processes with its
	// answer, and writes no pid file here: the job, lost (no status),
	// has its processes killed, which only the answer named.
	leader := exec.Command("sleep", "30")
	leader.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := leader.Start(); err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	go func() { waited <- leader.Wait() }()
	defer leader.Process.Kill()
	self, err1 := processStart(0)
	start, err2 := processStart(leader.Process.Pid)
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	answers <- fmt.Sprintf(`{"WrapperPID":%d,"WrapperStart":%d,"JobPID":%d,"JobStart":%d,"Supervised":true}`,
		os.Getpid(), self, leader.Process.Pid, start)
	h.start(Spec{JobID: 8, Command: "true", Umask: -1})
	if req := <-reqs; !strings.HasPrefix(req, "start 8") || !strings.Contains(req, "\n{") {
		t.Errorf("request %q, want one with the spec", req)
	}
	if r := h.result(8); !r.Lost {
		t.Errorf("job 8 ended %+v, want lost: the play wrote no status", r)
	}
	select {
	case err := <-waited:
		if err == nil {
			t.Errorf("the job's process ended well, want it killed")
		}
	case <-time.After(waitLimit):
		t.Errorf("the lost job's process, named in the answer only, was not killed")
	}
}
