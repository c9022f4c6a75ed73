package daemon_test

import (
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/lsfc/lsfc/runtime/api"
)

// TestKillRunning kills a job running on this machine, as bkill does: the
// answer is LSF's, the job ends EXIT with TERM_OWNER and a non-zero exit
// code, its processes are gone, and a second kill is refused.
func TestKillRunning(t *testing.T) {
	d, state := startDaemon(t, "")
	defer d.Close()
	c := unixClient(state)
	work := t.TempDir()
	pidFile := filepath.Join(work, "pid")
	id := c.submit(t, api.SubmitRequest{Command: "echo $$ > pid.tmp && mv pid.tmp pid && exec sleep 60", Cwd: work,
		Stdout: "/dev/null", Env: []string{"PATH=" + os.Getenv("PATH")}}).ID
	c.waitState(t, id, "RUN")
	var pid int
	waitFor(t, "the job to start its process", func() bool {
		b, err := os.ReadFile(pidFile)
		if err != nil {
			return false
		}
		if pid, err = strconv.Atoi(strings.TrimSpace(string(b))); err != nil {
			t.Fatalf("the job wrote %q as its pid", b)
		}
		return true
	})

	var resp api.ActionResponse
	code, err := c.call("POST", fmt.Sprintf("/v1/jobs/%d/kill", id), nil, &resp)
	if err != nil || code != http.StatusOK || resp.Message != fmt.Sprintf("Job <%d> is being terminated", id) {
		t.Fatalf("kill: %d %v %q, want 200 and \"Job <%d> is being terminated\"", code, err, resp.Message, id)
	}
	j := c.waitState(t, id, "DONE", "EXIT")
	if j.State != "EXIT" || j.Term != "TERM_OWNER" || j.ExitCode == 0 {
		t.Errorf("killed job ended %s %q with exit code %d, want EXIT TERM_OWNER with a non-zero code", j.State, j.Term, j.ExitCode)
	}
	if err := syscall.Kill(pid, 0); err != syscall.ESRCH {
		// A zombie no one reaps has ended too.
		if b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); !strings.Contains(string(b), ") Z ") {
			t.Errorf("the job's process %d is still there after the job ended", pid)
		}
	}
	if code, _ := c.call("POST", fmt.Sprintf("/v1/jobs/%d/kill", id), nil, nil); code != http.StatusConflict {
		t.Errorf("killing the ended job again: %d, want 409", code)
	}
}
