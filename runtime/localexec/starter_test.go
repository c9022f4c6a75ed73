package localexec

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStarterOnPath runs a job with no WrapperPath: the Executor finds
// the job starter on PATH, here a link to this test binary named
// StarterName, and the job runs under it (TestStarterMissing shows that
// without it nothing runs).
func TestStarterOnPath(t *testing.T) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	if err := os.Symlink(self, filepath.Join(bin, StarterName)); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin)
	h := newHarness(t, t.TempDir())
	h.e.WrapperPath = nil
	h.start(Spec{JobID: 1, Command: "echo $LSB_JOBID", Umask: -1})
	if r := h.result(1); !r.Done() {
		t.Fatalf("job 1 ended %+v, want DONE", r)
	}
	out, err := os.ReadFile(h.e.OutputPath(1))
	if err != nil || string(out) != "1\n" {
		t.Errorf("output of job 1 = %q, %v; want %q", out, err, "1\n")
	}
}

// TestStarterMissing checks that a job does not start, with an error
// naming the starter and where it was looked for, when the starter is
// neither next to this program nor on PATH; and that the same Executor
// starts jobs once the starter is installed.
func TestStarterMissing(t *testing.T) {
	bin := t.TempDir()
	t.Setenv("PATH", bin)
	h := newHarness(t, t.TempDir())
	h.e.WrapperPath = nil
	err := h.e.Start(Spec{JobID: 1, Command: "true", Umask: -1})
	if err == nil {
		t.Fatal("Start succeeded without a job starter")
	}
	for _, want := range []string{"cannot start job 1", `"` + StarterName + `"`, "nor on PATH"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("Start error %q does not say %q", err, want)
		}
	}
	if ids := h.e.Running(); len(ids) != 0 {
		t.Errorf("Running() = %v after a failed start, want none", ids)
	}
	h.noResult()

	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(self, filepath.Join(bin, StarterName)); err != nil {
		t.Fatal(err)
	}
	h.start(Spec{JobID: 2, Command: "exit 4", Umask: -1})
	if r := h.result(2); r.ExitCode != 4 || r.Lost {
		t.Errorf("job 2 ended %+v, want exit code 4", r)
	}
}
