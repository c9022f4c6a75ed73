package daemon_test

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lsfc/lsfc/runtime/api"
)

// peek reads a job's output from offset, as bpeek does.
func (c *client) peek(t *testing.T, id, offset int64) api.JobOutput {
	t.Helper()
	var out api.JobOutput
	if code, err := c.call("GET", fmt.Sprintf("/v1/jobs/%d/output?offset=%d", id, offset), nil, &out); err != nil || code != http.StatusOK {
		t.Fatalf("output of job %d: %d %v", id, code, err)
	}
	return out
}

// peekErrors reads a job's standard error from offset, as bpeek does for
// a job with a -e file of its own.
func (c *client) peekErrors(t *testing.T, id, offset int64) api.JobOutput {
	t.Helper()
	var out api.JobOutput
	if code, err := c.call("GET", fmt.Sprintf("/v1/jobs/%d/output?offset=%d&stream=stderr", id, offset), nil, &out); err != nil || code != http.StatusOK {
		t.Fatalf("errors of job %d: %d %v", id, code, err)
	}
	return out
}

// TestAgentPeekAndReport runs a job on an agent's host: bpeek reads its
// output there while it runs (the master asks the agent, which answers
// with its next exchange), and its -o file gets the report above its
// output once it ends. A requeue of the running job kills it there and
// runs it again.
func TestAgentPeekAndReport(t *testing.T) {
	state := t.TempDir()
	d := startMaster(t, state, "127.0.0.1:0", time.Hour)
	defer d.Close()
	a := startAgent(t, d.Addr(), "hostA", t.TempDir())
	defer a.Close()
	b := startAgent(t, d.Addr(), "hostB", t.TempDir())
	defer b.Close()
	c := unixClient(state)
	c.waitAgent(t, "hostA")
	c.waitAgent(t, "hostB")
	work := t.TempDir()
	goFile := filepath.Join(work, "go")
	id := c.submit(t, api.SubmitRequest{Command: "echo one; while ! test -e " + goFile + "; do sleep 0.05; done; echo two",
		Stdout: filepath.Join(work, "out"), Cwd: work, Umask: -1, Env: []string{"PATH=" + os.Getenv("PATH")}}).ID
	c.waitState(t, id, "RUN")
	var out api.JobOutput
	if !eventually(func() bool {
		out = c.peek(t, id, 0)
		return string(out.Data) == "one\n"
	}) {
		t.Fatalf("bpeek of job %d on an agent's host: %+v, want %q", id, out, "one\n")
	}
	if out.Next != 4 || out.Done || out.State != "RUN" || out.Apart {
		t.Errorf("bpeek of job %d: next %d, done %v, state %s, apart %v; want 4, false, RUN, false", id, out.Next, out.Done, out.State, out.Apart)
	}

	// A job with a -e file of its own: its errors are read apart.
	errGo := filepath.Join(work, "go-err")
	eid := c.submit(t, api.SubmitRequest{Command: "echo out; echo bad >&2; while ! test -e " + errGo + "; do sleep 0.05; done",
		Stdout: filepath.Join(work, "e.out"), Stderr: filepath.Join(work, "e.err"), Cwd: work, Umask: -1,
		Env: []string{"PATH=" + os.Getenv("PATH")}}).ID
	c.waitState(t, eid, "RUN")
	var errs api.JobOutput
	if !eventually(func() bool {
		errs = c.peekErrors(t, eid, 0)
		return string(errs.Data) == "bad\n"
	}) {
		t.Fatalf("bpeek of the errors of job %d on an agent's host: %+v, want %q", eid, errs, "bad\n")
	}
	if out := c.peek(t, eid, 0); string(out.Data) != "out\n" || !out.Apart || !errs.Apart {
		t.Errorf("bpeek of job %d: output %+v, errors %+v; want %q apart", eid, out, errs, "out\n")
	}
	if err := os.WriteFile(errGo, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	c.waitState(t, eid, "DONE")
	if err := os.WriteFile(goFile, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	c.waitState(t, id, "DONE")
	data, err := os.ReadFile(filepath.Join(work, "out"))
	if err != nil {
		t.Fatal(err)
	}
	got := string(data)
	if !strings.Contains(got, "\nSuccessfully completed.\n") || !strings.HasSuffix(got, "The output (if any) follows:\n\none\ntwo\n") {
		t.Errorf("the -o file of job %d:\n%s", id, got)
	}
	if out := c.peek(t, id, 0); !out.Done || len(out.Data) != 0 {
		t.Errorf("bpeek of finished job %d: %+v, want done and nothing", id, out)
	}

	// brequeue of a running job on an agent's host: killed there, with
	// its report saying why, then run again.
	os.Remove(goFile)
	id = c.submit(t, api.SubmitRequest{Command: "echo run; while ! test -e " + goFile + "; do sleep 0.05; done",
		Stdout: filepath.Join(work, "requeued"), Cwd: work, Umask: -1, Env: []string{"PATH=" + os.Getenv("PATH")}}).ID
	c.waitState(t, id, "RUN")
	var resp api.ActionResponse
	if code, err := c.call("POST", fmt.Sprintf("/v1/jobs/%d/requeue", id), api.ActionRequest{Hold: true}, &resp); err != nil || code != http.StatusOK {
		t.Fatalf("requeue: %d %v", code, err)
	}
	c.waitState(t, id, "PSUSP")
	data, _ = os.ReadFile(filepath.Join(work, "requeued"))
	if !strings.Contains(string(data), "\nTERM_REQUEUE_ADMIN: job killed and requeued by root or LSF administrator.\nExited with exit code") &&
		!strings.Contains(string(data), "\nTERM_REQUEUE_OWNER: job killed and requeued by owner.\nExited with exit code") {
		t.Errorf("the -o file of requeued job %d:\n%s", id, data)
	}
	if err := os.WriteFile(goFile, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if code, err := c.call("POST", fmt.Sprintf("/v1/jobs/%d/resume", id), nil, &resp); err != nil || code != http.StatusOK {
		t.Fatalf("resume: %d %v", code, err)
	}
	c.waitState(t, id, "DONE")
}

// reportedOutput returns the job's own output in an -o file, which the
// job report comes before (and the note naming its -e file after); it
// fails the test when the report is missing.
func reportedOutput(t *testing.T, data []byte) string {
	t.Helper()
	const follows = "\nThe output (if any) follows:\n\n"
	s := string(data)
	i := strings.Index(s, follows)
	if !strings.HasPrefix(s, "Sender: LSF System <") || i < 0 {
		t.Errorf("the -o file has no job report above the output:\n%s", s)
		return s
	}
	out := s[i+len(follows):]
	if j := strings.LastIndex(out, "\n\nPS:\n\nRead file <"); j >= 0 {
		out = out[:j]
	}
	return out
}
