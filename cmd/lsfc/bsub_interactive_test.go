//go:build !lsfclient

package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/localexec/attach"
)

// startServe starts lsfc serve on the demo tree with a state directory
// of its own and returns a client of it and the environment that makes
// the LSF commands talk to it; the daemon stops with the test.
func startServe(t *testing.T) (*api.Client, []string) {
	t.Helper()
	state := filepath.Join(t.TempDir(), "state")
	stop := serveState(t, state)
	t.Cleanup(stop)
	return api.Dial(state), append(os.Environ(), "LSFC_STATE="+state, "LSF_ENVDIR=", "LSFC_MASTER=")
}

// serveState starts lsfc serve on the demo tree with the state directory
// state, waits until it answers, and returns what stops it (running jobs
// run on).
func serveState(t *testing.T, state string) (stop func()) {
	t.Helper()
	lsfc, err := exec.LookPath("lsfc")
	if err != nil {
		t.Skipf("lsfc is not on PATH: %v", err)
	}
	serve := exec.Command(lsfc, "serve", "--conf", filepath.Join("..", "..", "testdata", "clusters", "demo"), "--interval", "10ms")
	serve.Env = append(os.Environ(), "LSFC_STATE="+state, "LSF_ENVDIR=", "LSFC_MASTER=")
	var log screen
	serve.Stdout, serve.Stderr = &log, &log
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	stop = func() {
		serve.Process.Signal(syscall.SIGINT)
		serve.Wait()
	}
	c := api.Dial(state)
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, err := c.Status(context.Background()); err == nil {
			return stop
		} else if time.Now().After(deadline) {
			stop()
			t.Fatalf("lsfc serve does not answer: %v\n%s", err, log.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// screen collects what a terminal shows.
type screen struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *screen) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

func (s *screen) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

// waitFor waits until the screen shows want after offset from, and
// returns the offset past it.
func (s *screen) waitFor(t *testing.T, from int, want string) int {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		got := s.String()
		if i := strings.Index(got[min(from, len(got)):], want); i >= 0 {
			return from + i + len(want)
		}
		if time.Now().After(deadline) {
			t.Fatalf("the terminal does not show %q; it shows:\n%s", want, got)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// waitState waits until the daemon reports job id in state.
func waitState(t *testing.T, c *api.Client, id int64, state string) *api.Job {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		j, err := c.Job(context.Background(), id)
		if err == nil && j.State == state {
			return j
		}
		if time.Now().After(deadline) {
			t.Fatalf("job %d is not %s: %+v %v", id, state, j, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// exitStatus returns the exit code of a command that has run.
func exitStatus(t *testing.T, err error) int {
	t.Helper()
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	}
	t.Fatalf("the command did not run: %v", err)
	return -1
}

// TestBsubInteractiveShell drives bsub -Is /bin/sh on a real
// pseudo-terminal, as a user at a terminal would: commands typed reach
// the job's shell, the window size and its changes follow, ^C typed
// interrupts the job's foreground command, and bsub exits with the
// shell's exit code.
func TestBsubInteractiveShell(t *testing.T) {
	c, env := startServe(t)
	master, slave, err := attach.OpenPty()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer master.Close()
	if err := attach.SetWinsize(slave.Fd(), 30, 100); err != nil {
		t.Fatal(err)
	}
	bsub := exec.Command("lsfc", "bsub", "-Is", "/bin/sh")
	bsub.Env = append(env, "PS1=job$ ")
	bsub.Stdin, bsub.Stdout, bsub.Stderr = slave, slave, slave
	bsub.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := bsub.Start(); err != nil {
		t.Fatal(err)
	}
	slave.Close()
	defer bsub.Process.Kill()
	var scr screen
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := master.Read(buf)
			scr.Write(buf[:n])
			if err != nil {
				return
			}
		}
	}()
	type_ := func(s string) {
		if _, err := master.Write([]byte(s)); err != nil {
			t.Fatal(err)
		}
	}
	at := scr.waitFor(t, 0, "Job <1> is submitted to default queue <normal>.")
	at = scr.waitFor(t, at, "<<Waiting for dispatch ...>>")
	at = scr.waitFor(t, at, "<<Starting on ")
	at = scr.waitFor(t, at, "job$ ")

	type_("echo hi $((6*7))\r")
	at = scr.waitFor(t, at, "hi 42")
	type_("stty size; tty\r")
	at = scr.waitFor(t, at, "30 100")
	at = scr.waitFor(t, at, "/dev/pts/")

	// A new window size reaches the job's terminal.
	if err := attach.SetWinsize(master.Fd(), 40, 120); err != nil {
		t.Fatal(err)
	}
	bsub.Process.Signal(syscall.SIGWINCH)
	time.Sleep(200 * time.Millisecond)
	type_("stty size\r")
	at = scr.waitFor(t, at, "40 120")

	// ^C goes to the job's terminal: it interrupts the command the
	// shell runs, and the shell goes on.
	type_("sleep 60; echo slept\r")
	time.Sleep(300 * time.Millisecond)
	type_("\x03")
	type_("echo after $?\r")
	at = scr.waitFor(t, at, "after 130")
	if strings.Contains(scr.String()[at:], "slept") {
		t.Errorf("sleep was not interrupted:\n%s", scr.String())
	}

	type_("exit 3\r")
	done := make(chan error, 1)
	go func() { done <- bsub.Wait() }()
	select {
	case err := <-done:
		if code := exitStatus(t, err); code != 3 {
			t.Errorf("bsub -Is exited with %d, want 3; the terminal shows:\n%s", code, scr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("bsub -Is did not end after exit 3; the terminal shows:\n%s", scr.String())
	}
	j := waitState(t, c, 1, "EXIT")
	if j.ExitCode != 3 {
		t.Errorf("job 1 ended with exit code %d, want 3", j.ExitCode)
	}
}

// TestBsubInteractivePipes runs bsub -I with its standard input and
// output piped. The job runs on cn01, a host of the demo tree that is
// not this machine's name: bsub names it as it starts.
func TestBsubInteractivePipes(t *testing.T) {
	_, env := startServe(t)
	bsub := exec.Command("lsfc", "bsub", "-I", "-m", "cn01", "tr a-z A-Z; echo oops >&2; exit 5")
	bsub.Env = env
	bsub.Stdin = strings.NewReader("one\ntwo\n")
	var stdout, stderr bytes.Buffer
	bsub.Stdout, bsub.Stderr = &stdout, &stderr
	code := exitStatus(t, bsub.Run())
	if code != 5 {
		t.Errorf("bsub -I exited with %d, want 5; stderr:\n%s", code, stderr.String())
	}
	if got := stdout.String(); got != "ONE\nTWO\n" {
		t.Errorf("bsub -I wrote %q, want %q", got, "ONE\nTWO\n")
	}
	if !strings.Contains(stderr.String(), "oops\n") || !strings.Contains(stderr.String(), "Job <1> is submitted") {
		t.Errorf("bsub -I's standard error lacks the job's error or the submission:\n%s", stderr.String())
	}
	if !strings.Contains(stderr.String(), "<<Starting on cn01>>\n") {
		t.Errorf("bsub -I does not name the job's host:\n%s", stderr.String())
	}
}

// TestBsubInteractiveSignals checks ^C given to bsub -I (SIGINT), which
// it forwards to the job, and bsub killed, which kills its job.
func TestBsubInteractiveSignals(t *testing.T) {
	c, env := startServe(t)

	bsub := exec.Command("lsfc", "bsub", "-I", `trap 'echo got INT; exit 7' INT; echo ready; while :; do sleep 0.1; done`)
	bsub.Env = env
	var scr screen
	bsub.Stdout, bsub.Stderr = &scr, &scr
	if err := bsub.Start(); err != nil {
		t.Fatal(err)
	}
	scr.waitFor(t, 0, "ready\n")
	bsub.Process.Signal(syscall.SIGINT)
	if code := exitStatus(t, bsub.Wait()); code != 7 {
		t.Errorf("bsub -I given SIGINT exited with %d, want 7 from the job's trap:\n%s", code, scr.String())
	}
	if !strings.Contains(scr.String(), "got INT") {
		t.Errorf("the job did not get SIGINT:\n%s", scr.String())
	}

	bsub = exec.Command("lsfc", "bsub", "-I", "echo started; sleep 60")
	bsub.Env = env
	scr = screen{}
	bsub.Stdout, bsub.Stderr = &scr, &scr
	if err := bsub.Start(); err != nil {
		t.Fatal(err)
	}
	scr.waitFor(t, 0, "started\n")
	bsub.Process.Kill()
	bsub.Wait()
	j := waitState(t, c, 2, "EXIT")
	if j.ExitCode != 128+int(syscall.SIGHUP) && j.ExitCode != 128+int(syscall.SIGKILL) {
		t.Errorf("job 2, whose bsub was killed, ended with exit code %d, want a hang-up", j.ExitCode)
	}
}

// TestBsubInteractivePending checks an interactive job whose bsub goes
// before it starts: ^C (SIGINT) given to bsub kills the pending job, and
// a job whose bsub was killed outright ends without running when it is
// dispatched, since its terminal is gone.
func TestBsubInteractivePending(t *testing.T) {
	c, env := startServe(t)
	dir := t.TempDir()

	bsub := exec.Command("lsfc", "bsub", "-I", "-H", "-cwd", dir, "touch ran1")
	bsub.Env = env
	var scr screen
	bsub.Stdout, bsub.Stderr = &scr, &scr
	if err := bsub.Start(); err != nil {
		t.Fatal(err)
	}
	scr.waitFor(t, 0, "<<Waiting for dispatch ...>>")
	waitState(t, c, 1, "PSUSP")
	bsub.Process.Signal(syscall.SIGINT)
	if code := exitStatus(t, bsub.Wait()); code != 126 {
		t.Errorf("bsub -I given SIGINT while pending exited with %d, want 126:\n%s", code, scr.String())
	}
	for _, want := range []string{"<< Job <1> has been terminated by user or administrator >>", "<<Terminated while pending>>"} {
		if !strings.Contains(scr.String(), want) {
			t.Errorf("bsub -I does not say %q:\n%s", want, scr.String())
		}
	}
	waitState(t, c, 1, "EXIT")

	bsub = exec.Command("lsfc", "bsub", "-I", "-H", "-cwd", dir, "touch ran2")
	bsub.Env = env
	scr = screen{}
	bsub.Stdout, bsub.Stderr = &scr, &scr
	if err := bsub.Start(); err != nil {
		t.Fatal(err)
	}
	scr.waitFor(t, 0, "<<Waiting for dispatch ...>>")
	waitState(t, c, 2, "PSUSP")
	bsub.Process.Kill()
	bsub.Wait()
	if _, err := c.JobAction(context.Background(), 2, "resume", &api.ActionRequest{}); err != nil {
		t.Fatal(err)
	}
	j := waitState(t, c, 2, "EXIT")
	if j.ExitCode != 1 {
		t.Errorf("job 2, whose bsub was gone when it started, ended with exit code %d, want 1", j.ExitCode)
	}
	for _, f := range []string{"ran1", "ran2"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("a job whose bsub was gone ran (%s)", f)
		}
	}
}

// TestBsubInteractivePtySignals runs bsub -Ip on a pseudo-terminal: the
// job has a terminal of its own, and ^C typed at bsub's is a signal that
// bsub forwards to the job. ^Z stops the job, which the daemon shows
// USUSP, as after bstop; fg runs it again.
func TestBsubInteractivePtySignals(t *testing.T) {
	c, env := startServe(t)
	master, slave, err := attach.OpenPty()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer master.Close()
	bsub := exec.Command("lsfc", "bsub", "-Ip", `tty; trap 'echo got INT; exit 9' INT; echo "ready $$."; while :; do sleep 0.1; done`)
	bsub.Env = env
	bsub.Stdin, bsub.Stdout, bsub.Stderr = slave, slave, slave
	bsub.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := bsub.Start(); err != nil {
		t.Fatal(err)
	}
	slave.Close()
	defer bsub.Process.Kill()
	var scr screen
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := master.Read(buf)
			scr.Write(buf[:n])
			if err != nil {
				return
			}
		}
	}()
	at := scr.waitFor(t, 0, "/dev/pts/")
	at = scr.waitFor(t, at, "ready ")
	end := scr.waitFor(t, at, ".")
	jobPID := scr.String()[at : end-1]

	// ^Z stops bsub (and the job); SIGCONT, as fg sends it, continues
	// both: the job then still takes ^C.
	master.Write([]byte("\x1a"))
	stopped := func(pid string) bool {
		b, err := os.ReadFile("/proc/" + pid + "/stat")
		_, rest, _ := strings.Cut(string(b), ") ")
		return err == nil && strings.HasPrefix(rest, "T")
	}
	deadline := time.Now().Add(30 * time.Second)
	for !stopped(fmt.Sprint(bsub.Process.Pid)) || !stopped(jobPID) {
		if time.Now().After(deadline) {
			t.Fatalf("bsub -Ip and job process %s did not stop on ^Z; the terminal shows:\n%s", jobPID, scr.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	waitState(t, c, 1, "USUSP")
	bsub.Process.Signal(syscall.SIGCONT)
	waitState(t, c, 1, "RUN")
	running := func() {
		t.Helper()
		for stopped(jobPID) {
			if time.Now().After(deadline) {
				t.Fatalf("job process %s is still stopped", jobPID)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	running()

	// ^Z again, then bresume from elsewhere: the job runs while bsub
	// stays stopped; fg then finds it running, and says nothing of it.
	master.Write([]byte("\x1a"))
	waitState(t, c, 1, "USUSP")
	for !stopped(fmt.Sprint(bsub.Process.Pid)) {
		if time.Now().After(deadline) {
			t.Fatalf("bsub did not stop on the second ^Z")
		}
		time.Sleep(10 * time.Millisecond)
	}
	if _, err := c.JobAction(context.Background(), 1, "resume", &api.ActionRequest{}); err != nil {
		t.Fatal(err)
	}
	waitState(t, c, 1, "RUN")
	running()
	time.Sleep(100 * time.Millisecond)
	if !stopped(fmt.Sprint(bsub.Process.Pid)) {
		t.Errorf("bsub runs after bresume of its job; it should stay stopped until fg")
	}
	bsub.Process.Signal(syscall.SIGCONT)
	time.Sleep(300 * time.Millisecond)
	if strings.Contains(scr.String(), "bsub: job <1>") {
		t.Errorf("bsub complained at fg of a job bresume had resumed:\n%s", scr.String())
	}
	master.Write([]byte("\x03"))
	done := make(chan error, 1)
	go func() { done <- bsub.Wait() }()
	select {
	case err := <-done:
		if code := exitStatus(t, err); code != 9 {
			t.Errorf("bsub -Ip exited with %d after ^C, want 9; the terminal shows:\n%s", code, scr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("bsub -Ip did not end after ^C; the terminal shows:\n%s", scr.String())
	}
	if !strings.Contains(scr.String(), "got INT") {
		t.Errorf("the job did not get SIGINT:\n%s", scr.String())
	}
}

// TestBsubInteractiveDaemonRestart restarts the daemon while an
// interactive job runs: the job's terminal does not go through the
// daemon, so the job and its bsub go on, and the restarted daemon, which
// found the job in its event log, records its end.
func TestBsubInteractiveDaemonRestart(t *testing.T) {
	state := filepath.Join(t.TempDir(), "state")
	stop := serveState(t, state)
	env := append(os.Environ(), "LSFC_STATE="+state, "LSF_ENVDIR=", "LSFC_MASTER=")
	bsub := exec.Command("lsfc", "bsub", "-I", "read x; echo got $x; exit 2")
	bsub.Env = env
	in, err := bsub.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	var scr screen
	bsub.Stdout, bsub.Stderr = &scr, &scr
	if err := bsub.Start(); err != nil {
		t.Fatal(err)
	}
	defer bsub.Process.Kill()
	scr.waitFor(t, 0, "<<Starting on ")
	stop()
	stop = serveState(t, state)
	defer stop()
	in.Write([]byte("hello\n"))
	in.Close()
	if code := exitStatus(t, bsub.Wait()); code != 2 {
		t.Errorf("bsub -I exited with %d, want 2:\n%s", code, scr.String())
	}
	if !strings.Contains(scr.String(), "got hello\n") {
		t.Errorf("the job did not get its input after the restart:\n%s", scr.String())
	}
	if j := waitState(t, api.Dial(state), 1, "EXIT"); j.ExitCode != 2 {
		t.Errorf("the restarted daemon has job 1 end with exit code %d, want 2", j.ExitCode)
	}
}

// TestBsubInteractivePtyTty runs bsub -Ip -tty -o FILE on a
// pseudo-terminal: the job's output goes to its file and comes to bsub's
// terminal as well, while its input still comes from the terminal.
func TestBsubInteractivePtyTty(t *testing.T) {
	_, env := startServe(t)
	master, slave, err := attach.OpenPty()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer master.Close()
	out := filepath.Join(t.TempDir(), "job.out")
	bsub := exec.Command("lsfc", "bsub", "-Ip", "-tty", "-o", out, `echo "ready."; read x; echo "got $x"`)
	bsub.Env = env
	bsub.Stdin, bsub.Stdout, bsub.Stderr = slave, slave, slave
	bsub.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: true, Ctty: 0}
	if err := bsub.Start(); err != nil {
		t.Fatal(err)
	}
	slave.Close()
	defer bsub.Process.Kill()
	var scr screen
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := master.Read(buf)
			scr.Write(buf[:n])
			if err != nil {
				return
			}
		}
	}()
	at := scr.waitFor(t, 0, "ready.")
	master.Write([]byte("typed\r"))
	scr.waitFor(t, at, "got typed")
	done := make(chan error, 1)
	go func() { done <- bsub.Wait() }()
	select {
	case err := <-done:
		if code := exitStatus(t, err); code != 0 {
			t.Errorf("bsub -Ip -tty exited with %d; the terminal shows:\n%s", code, scr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("bsub -Ip -tty did not end; the terminal shows:\n%s", scr.String())
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(b); !strings.Contains(got, "ready.\n") || !strings.Contains(got, "got typed\n") {
		t.Errorf("the -o file holds %q, want the job's output", got)
	}
}
