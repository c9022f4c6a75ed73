package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lsfc/lsfc/runtime/localexec"
)

// TestLean checks that the job starter links the standard library and
// the executor only: a job costs the start of this program, which must
// not grow with what the rest of lsfc imports.
func TestLean(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, pkg := range strings.Fields(string(out)) {
		first, _, _ := strings.Cut(pkg, "/")
		if strings.Contains(first, ".") && !strings.HasPrefix(pkg, "github.com/lsfc/lsfc/runtime/localexec") &&
			pkg != "github.com/lsfc/lsfc/cmd/lsfc-job" {
			t.Errorf("lsfc-job links %s", pkg)
		}
	}
}

// TestStarterRunsJob builds the starter and runs jobs under it, as the
// host's supervisor and as a job's own starter: the jobs' exit status
// comes back as the Executor's Result.
func TestStarterRunsJob(t *testing.T) {
	bin := filepath.Join(t.TempDir(), localexec.StarterName)
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, perJob := range []bool{false, true} {
		results := make(chan localexec.Result, 1)
		dir := t.TempDir()
		e, err := localexec.New(dir, func(r localexec.Result) { results <- r })
		if err != nil {
			t.Fatal(err)
		}
		e.WrapperPath, e.PerJob = []string{bin}, perJob
		if err := e.Start(localexec.Spec{JobID: 7, Command: "exit 3", Umask: -1}); err != nil {
			t.Fatal(err)
		}
		select {
		case r := <-results:
			if r.JobID != 7 || r.ExitCode != 3 || r.Lost || r.Err != "" {
				t.Errorf("per-job %v: job 7 ended %+v, want exit code 3", perJob, r)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("per-job %v: no result for job 7 within 30 s", perJob)
		}
		// The supervisor leaves its process id while it runs.
		_, err = os.Stat(filepath.Join(dir, "supervisor.pid"))
		if supervised := err == nil; supervised == perJob {
			t.Errorf("per-job %v: a supervisor runs: %v", perJob, supervised)
		}
		e.Close()
	}
}
