package localexec

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestExpandOutDir(t *testing.T) {
	s := &Spec{JobID: 42, Index: 3, User: "alice", Hosts: []string{"hostA", "hostB"},
		Env: []string{"LSB_PROJECT_NAME=proj", "LSB_USER_GROUP=grp"}}
	for in, want := range map[string]string{
		"out":                 "out",
		"%U/%J_%I":            "alice/42_3",
		"%EJ.%EI/%P/%G/%H%JG": "42.3/proj/grp/hostA",
		"%%J":                 "%42",
	} {
		if got := expandOutDir(in, s); got != want {
			t.Errorf("expandOutDir(%q) = %q, want %q", in, got, want)
		}
	}
	s.OutputID = 7
	if got := expandOutDir("%J", s); got != "7" {
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
