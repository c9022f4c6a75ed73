package localexec

import (
	"fmt"
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
	seen := map[int64]bool{}
	for range 2 {
		select {
		case r := <-h.results:
			if !r.Lost {
				t.Errorf("job %d ended %+v, want lost", r.JobID, r)
			}
			seen[r.JobID] = true
		case <-time.After(waitLimit):
			t.Fatal("the jobs of the killed supervisor did not end")
		}
	}
	if !seen[1] || !seen[2] {
		t.Errorf("results for %v, want jobs 1 and 2", seen)
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
		err  string
	}{
		{"start 42", 1, 42, ""},
		{"close", 0, 0, ""},
		{"close", 1, 0, "bad request"},
		{"start 42", 0, 0, "bad request"},
		{"start 42", 2, 0, "bad request"},
		{"start -1", 1, 0, "bad job id"},
		{"start 0", 1, 0, "bad job id"},
		{"start +7", 1, 0, "bad job id"},
		{"start 007", 1, 0, "bad job id"},
		{"start 1 2", 1, 0, "bad job id"},
		{"stop 1", 1, 0, "bad request"},
		{"", 0, 0, "bad request"},
	} {
		id, err := parseRequest(c.msg, c.nfds)
		if id != c.id || (err == nil) != (c.err == "") || err != nil && !strings.Contains(err.Error(), c.err) {
			t.Errorf("parseRequest(%q, %d) = %d, %v; want %d, %q", c.msg, c.nfds, id, err, c.id, c.err)
		}
	}
}

// FuzzParseRequest checks that any request is read without a panic, and
// that a job id read is positive and written as in the request.
func FuzzParseRequest(f *testing.F) {
	for _, s := range []string{"start 1", "close", "start 9223372036854775807", "start 9223372036854775808", "start \x00"} {
		f.Add(s, 1)
	}
	f.Fuzz(func(t *testing.T, msg string, nfds int) {
		id, err := parseRequest(msg, nfds)
		if err != nil {
			if id != 0 {
				t.Errorf("parseRequest(%q, %d) = %d with error %v", msg, nfds, id, err)
			}
			return
		}
		if id < 0 || id > 0 && msg != "start "+strconv.FormatInt(id, 10) || id == 0 && msg != "close" {
			t.Errorf("parseRequest(%q, %d) = %d", msg, nfds, id)
		}
	})
}
