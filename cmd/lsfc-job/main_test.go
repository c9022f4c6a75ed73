package main

import (
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

// TestStarterRunsJob builds the starter and runs a job under it: the
// job's exit status comes back as the Executor's Result.
func TestStarterRunsJob(t *testing.T) {
	bin := filepath.Join(t.TempDir(), localexec.StarterName)
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	results := make(chan localexec.Result, 1)
	e, err := localexec.New(t.TempDir(), func(r localexec.Result) { results <- r })
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	e.WrapperPath = []string{bin}
	if err := e.Start(localexec.Spec{JobID: 7, Command: "exit 3", Umask: -1}); err != nil {
		t.Fatal(err)
	}
	select {
	case r := <-results:
		if r.JobID != 7 || r.ExitCode != 3 || r.Lost || r.Err != "" {
			t.Errorf("job 7 ended %+v, want exit code 3", r)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("no result for job 7 within 30 s")
	}
}
