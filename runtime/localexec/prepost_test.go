package localexec

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

func TestExpandJobPath(t *testing.T) {
	s := &Spec{JobID: 42, Index: 3, User: "alice", Hosts: []string{"hostA", "hostB"},
		Env: []string{"LSB_PROJECT_NAME=proj", "LSB_USER_GROUP=grp"}}
	for in, want := range map[string]string{
		"out":                 "out",
		"%U/%J_%I":            "alice/42_3",
		"%EJ.%EI/%P/%G/%H%JG": "42.3/proj/grp/hostA",
		"%%J":                 "%42",
	} {
		if got := expandJobPath(in, s); got != want {
			t.Errorf("expandJobPath(%q) = %q, want %q", in, got, want)
		}
	}
	s.OutputID = 7
	if got := expandJobPath("%J", s); got != "7" {
		t.Errorf("a received job's %%J = %q, want its id at its submission cluster, 7", got)
	}
}

func TestLoginShellArgs(t *testing.T) {
	got := loginShellArgs("/bin/bash", "/spool/it's.job")
	want := []string{"-bash", "-c", `exec /bin/sh '/spool/it'\''s.job'`}
	if !slices.Equal(got, want) {
		t.Errorf("loginShellArgs = %q, want %q", got, want)
	}
}

func TestWithEnv(t *testing.T) {
	got := withEnv([]string{"PATH=/x", "A=1", "PATHX=2"}, "PATH", "/bin")
	if want := []string{"A=1", "PATHX=2", "PATH=/bin"}; !slices.Equal(got, want) {
		t.Errorf("withEnv = %q, want %q", got, want)
	}
}

func TestInDir(t *testing.T) {
	for _, c := range [][3]string{{"/o", "x.out", "/o/x.out"}, {"/o", "/abs/x", "/abs/x"}, {"/o", "", ""}} {
		if got := inDir(c[0], c[1]); got != c[2] {
			t.Errorf("inDir(%q, %q) = %q, want %q", c[0], c[1], got, c[2])
		}
	}
}

// TestPrePostSteps runs jobs with pre- and post-execution steps: the
// steps and the job run in order, the post-execution steps see the
// job's wait status; a failing pre-execution step stops the run before
// the job, and only the host-based post-execution steps run after it;
// a kill during the pre-execution step reaches it.
func TestPrePostSteps(t *testing.T) {
	h := newHarness(t, t.TempDir())
	dir := t.TempDir()
	log := filepath.Join(dir, "log")
	note := func(s string) string { return "echo " + s + " >> " + log }
	h.start(Spec{JobID: 1, Command: note("job") + "; exit 3", Cwd: dir, Umask: -1, Stdout: "/dev/null",
		PreExec:  []ExecStep{{Command: note("host-pre"), Host: true}, {Command: note("queue-pre")}, {Command: note("job-pre"), Job: true}},
		PostExec: []ExecStep{{Command: note("job-post-$LSB_JOBEXIT_STAT"), Job: true}, {Command: note("host-post"), Host: true}}})
	r := h.result(1)
	if r.ExitCode != 3 || r.PreExecFailed || r.PostExec != PostDone {
		t.Errorf("job 1: %+v, want exit code 3 and POST_DONE", r)
	}
	want := "host-pre\nqueue-pre\njob-pre\njob\njob-post-768\nhost-post\n"
	if b, _ := os.ReadFile(log); string(b) != want {
		t.Errorf("job 1 ran %q, want %q", b, want)
	}
	os.Remove(log)
	h.start(Spec{JobID: 2, Command: note("job"), Cwd: dir, Umask: -1, Stdout: "/dev/null",
		PreExec:  []ExecStep{{Command: "exit 5", Job: true}},
		PostExec: []ExecStep{{Command: note("job-post"), Job: true}, {Command: "exit 1", Host: true}}})
	r = h.result(2)
	if !r.PreExecFailed || r.PreExecCode != 5 || r.ExitCode != 5 || r.PostExec != PostErr {
		t.Errorf("job 2: %+v, want a pre-execution failure with 5, POST_ERR", r)
	}
	if b, _ := os.ReadFile(log); len(b) != 0 {
		t.Errorf("job 2 ran %q, want nothing but its host-based post-execution", b)
	}
	h.start(Spec{JobID: 3, Command: "true", Cwd: dir, Umask: -1, Stdout: "/dev/null",
		PreExec: []ExecStep{{Command: "sleep 30", Job: true}}})
	eventually(t, "the pre-execution step's start", func() bool { _, ok := h.e.JobPID(3); return ok })
	if err := h.e.Kill(3); err != nil {
		t.Fatal(err)
	}
	if r := h.result(3); !r.PreExecFailed || r.Signal == 0 && r.PreExecCode < 128 {
		t.Errorf("job 3, killed in its pre-execution step: %+v", r)
	}
}

// TestPostLater runs a job whose end is reported before its
// post-execution commands end (JOB_INCLUDE_POSTPROC=N): the job's Result
// comes while they run, theirs next; a post-execution command past
// PostTimeout is killed and fails; a new Executor on the same directory
// takes back the post-execution commands still running.
func TestPostLater(t *testing.T) {
	dir := t.TempDir()
	h := newHarness(t, dir)
	work := t.TempDir()
	gate := filepath.Join(work, "gate")
	h.start(Spec{JobID: 1, Command: "exit 2", Cwd: work, Umask: -1, Stdout: "/dev/null", PostLater: true,
		PostExec: []ExecStep{{Command: "while [ ! -e " + gate + " ]; do sleep 0.05; done", Job: true}}})
	r := h.result(1)
	if !r.PostPending || r.PostReport || r.ExitCode != 2 || r.PostExec != "" {
		t.Fatalf("job 1's end: %+v, want exit code 2 with its post-execution pending", r)
	}
	if err := h.e.Cleanup(1); err == nil {
		t.Error("Cleanup of a job whose post-execution runs succeeded")
	}
	if run := h.e.Running(); len(run) != 0 {
		t.Errorf("Running() = %v while only the post-execution of job 1 runs, want none", run)
	}
	os.WriteFile(gate, nil, 0o600)
	if p := h.result(1); !p.PostReport || p.PostExec != PostDone {
		t.Errorf("job 1's post-execution: %+v, want POST_DONE", p)
	}

	// Included (not PostLater): the post-execution's CPU time is the
	// job's; not so with PostLater.
	spin := "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done"
	h.start(Spec{JobID: 4, Command: "true", Cwd: work, Umask: -1, Stdout: "/dev/null",
		PostExec: []ExecStep{{Command: spin, Job: true}}})
	if r := h.result(4); r.PostExec != PostDone || r.CPUTime < 100*time.Millisecond {
		t.Errorf("job 4, its post-execution included: %+v, want its CPU time in the job's", r)
	}
	h.start(Spec{JobID: 5, Command: "true", Cwd: work, Umask: -1, Stdout: "/dev/null", PostLater: true,
		PostExec: []ExecStep{{Command: spin, Job: true}}})
	if r := h.result(5); !r.PostPending || r.CPUTime >= 100*time.Millisecond {
		t.Errorf("job 5, its post-execution after it: %+v, want the job's CPU time alone", r)
	}
	h.result(5)

	h.start(Spec{JobID: 2, Command: "true", Cwd: work, Umask: -1, Stdout: "/dev/null", PostLater: true, PostTimeout: 1,
		PostExec: []ExecStep{{Command: "sleep 30", Job: true}, {Command: "touch " + filepath.Join(work, "after")}}})
	if r := h.result(2); !r.PostPending || r.ExitCode != 0 {
		t.Fatalf("job 2's end: %+v", r)
	}
	start := time.Now()
	if p := h.result(2); !p.PostReport || p.PostExec != PostErr {
		t.Errorf("job 2's post-execution past its timeout: %+v, want POST_ERR", p)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("the timed-out post-execution took %v", d)
	}
	if _, err := os.Stat(filepath.Join(work, "after")); err == nil {
		t.Error("a post-execution command ran after the timeout")
	}

	// The executor goes while job 3's post-execution runs; a new one
	// gets the job's end from its files, adopts it and reports theirs.
	gate3 := filepath.Join(work, "gate3")
	h.start(Spec{JobID: 3, Command: "exit 0", Cwd: work, Umask: -1, Stdout: "/dev/null", PostLater: true,
		PostExec: []ExecStep{{Command: "while [ ! -e " + gate3 + " ]; do sleep 0.05; done; exit 4"}}})
	if r := h.result(3); !r.PostPending {
		t.Fatalf("job 3's end: %+v", r)
	}
	h.e.Close()
	h2 := newHarness(t, dir)
	ended := h2.e.Recover([]int64{3})
	if len(ended) != 1 || !ended[0].PostPending {
		t.Fatalf("Recover(3) = %+v, want the job's end alone", ended)
	}
	os.WriteFile(gate3, nil, 0o600)
	if p := h2.result(3); !p.PostReport || p.PostExec != PostErr {
		t.Errorf("job 3's post-execution, adopted: %+v, want POST_ERR", p)
	}
	h2.e.Close()
	h3 := newHarness(t, dir)
	if got := h3.e.Recover([]int64{3}); len(got) != 2 || !got[0].PostPending || !got[1].PostReport || got[1].PostExec != PostErr {
		t.Errorf("Recover(3) once all ended = %+v, want the job's end then its post-execution's", got)
	}
}

// TestHostStepsEveryHost runs the host-based steps once for each host of
// StepHosts, with HOSTNAME set to it; one failing on a host stops the
// pre-execution there, and the host-based post-execution still runs on
// every host.
func TestHostStepsEveryHost(t *testing.T) {
	h := newHarness(t, t.TempDir())
	work := t.TempDir()
	log := filepath.Join(work, "log")
	note := func(s string) string { return "echo " + s + " >> " + log }
	h.start(Spec{JobID: 1, Command: note("job"), Cwd: work, Umask: -1, Stdout: "/dev/null",
		Hosts: []string{"hA", "hA", "hB"}, StepHosts: []string{"hA", "hB"},
		PreExec:  []ExecStep{{Command: note("qpre-$HOSTNAME"), Host: true}, {Command: note("apre-$HOSTNAME"), Host: true}, {Command: note("pre")}},
		PostExec: []ExecStep{{Command: note("post")}, {Command: note("post-$HOSTNAME"), Host: true}}})
	if r := h.result(1); r.ExitCode != 0 || r.PostExec != PostDone {
		t.Errorf("job 1: %+v", r)
	}
	want := "qpre-hA\napre-hA\nqpre-hB\napre-hB\npre\njob\npost\npost-hA\npost-hB\n"
	if b, _ := os.ReadFile(log); string(b) != want {
		t.Errorf("job 1 ran %q, want %q", b, want)
	}
	os.Remove(log)
	h.start(Spec{JobID: 2, Command: note("job"), Cwd: work, Umask: -1, Stdout: "/dev/null", StepHosts: []string{"hA", "hB"},
		PreExec:  []ExecStep{{Command: note("pre-$HOSTNAME") + `; [ "$HOSTNAME" != hB ]`, Host: true}, {Command: note("pre")}},
		PostExec: []ExecStep{{Command: note("post")}, {Command: note("post-$HOSTNAME"), Host: true}}})
	if r := h.result(2); !r.PreExecFailed || r.PostExec != PostDone {
		t.Errorf("job 2: %+v, want its pre-execution failed", r)
	}
	want = "pre-hA\npre-hB\npost-hA\npost-hB\n"
	if b, _ := os.ReadFile(log); string(b) != want {
		t.Errorf("job 2 ran %q, want %q", b, want)
	}
}
