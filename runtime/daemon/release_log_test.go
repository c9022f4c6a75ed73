package daemon_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/daemon"
	"github.com/lsfc/lsfc/runtime/localexec"
)

// TestMakeReleaseLog writes testdata/release.events: the event log of a
// short session of this release's daemon, on the test configuration, with
// jobs that run, fail, are suspended, resumed, killed, held, released,
// switched, modified, and queues and hosts that are closed, and a
// compaction after the first jobs. TestReplayReleaseLog replays it. It runs only
// when asked, to add the log of a new release (never to make a failing
// replay pass):
//
//	LSFC_MAKE_RELEASE_LOG=1 go test -count=1 -run TestMakeReleaseLog ./runtime/daemon
//	LSFC_UPDATE=1 go test -count=1 -run TestReplayReleaseLog ./runtime/daemon
func TestMakeReleaseLog(t *testing.T) {
	if os.Getenv("LSFC_MAKE_RELEASE_LOG") != "1" {
		t.Skip("writes testdata/release.events; set LSFC_MAKE_RELEASE_LOG=1 to make it again")
	}
	p, err := compileTree(writeConf(t))
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	start := func(compactEvery int) *daemon.Daemon {
		d, err := daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: state, MinInterval: 5 * time.Millisecond,
			CompactEvery: compactEvery, WrapperPath: []string{os.Args[0], localexec.WrapperArg}, Logf: t.Logf})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	// The first daemon compacts the log; the second, after a restart,
	// does not.
	d := start(4)
	c := unixClient(state)
	// Nothing of the machine that writes the log goes into it.
	cwd := "/"
	act := func(id int64, action string, req any) {
		t.Helper()
		if code, err := c.call("POST", fmt.Sprintf("/v1/jobs/%d/%s", id, action), req, nil); err != nil || code != 200 {
			t.Fatalf("%s of job %d: %d %v", action, id, code, err)
		}
	}
	op := func(path string) {
		t.Helper()
		if code, err := c.call("POST", path, nil, nil); err != nil || code != 200 {
			t.Fatalf("%s: %d %v", path, code, err)
		}
	}
	done := c.submit(t, api.SubmitRequest{Command: "exit 0", Name: "done", Cwd: cwd, Stdout: "/dev/null", FromHost: "hostA"}).ID
	c.waitState(t, done, "DONE")
	failed := c.submit(t, api.SubmitRequest{Command: "exit 3", Name: "failed", Cwd: cwd, Stdout: "/dev/null", FromHost: "hostA"}).ID
	c.waitState(t, failed, "EXIT")
	time.Sleep(50 * time.Millisecond)
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	d = start(1000)
	killed := c.submit(t, api.SubmitRequest{Command: "sleep 30", Name: "killed", Cwd: cwd, Stdout: "/dev/null", FromHost: "hostA"}).ID
	c.waitState(t, killed, "RUN")
	act(killed, "stop", nil)
	c.waitState(t, killed, "USUSP")
	act(killed, "resume", nil)
	c.waitState(t, killed, "RUN")
	act(killed, "kill", nil)
	c.waitState(t, killed, "EXIT")
	held := c.submit(t, api.SubmitRequest{Command: "exit 0", Name: "held", Cwd: cwd, Stdout: "/dev/null", FromHost: "hostA", Hold: true}).ID
	act(held, "switch", api.ActionRequest{Queue: "owned"})
	act(held, "modify", api.ActionRequest{Modify: &api.SubmitRequest{Name: "renamed"}})
	released := c.submit(t, api.SubmitRequest{Command: "exit 0", Name: "released", Cwd: cwd, Stdout: "/dev/null", FromHost: "hostA", Hold: true}).ID
	act(released, "resume", nil)
	c.waitState(t, released, "DONE")
	gone := c.submit(t, api.SubmitRequest{Command: "exit 0", Name: "gone", Cwd: cwd, FromHost: "hostA", Hold: true}).ID
	act(gone, "kill", nil)
	waiting := c.submit(t, api.SubmitRequest{Command: "exit 0", Name: "waiting", Queue: "owned", Cwd: cwd, FromHost: "hostA", Hold: true}).ID
	op("/v1/queues/owned/inactivate")
	act(waiting, "resume", nil)
	op("/v1/queues/owned/close")
	op("/v1/hosts/hostB/close")
	time.Sleep(50 * time.Millisecond)
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(state, "lsb.events"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join("testdata", "release.events"), data, 0o644); err != nil {
		t.Fatal(err)
	}
}
