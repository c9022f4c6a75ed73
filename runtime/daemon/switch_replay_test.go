package daemon_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/daemon"
	"github.com/lsfc/lsfc/runtime/localexec"
)

// TestReplayChangeRefused: a job switched to a queue (bswitch) and
// changed (bmod) whose configuration, by the next start, no longer takes
// it. The daemon starts all the same: the job stays where it was, keeps
// what it had, and the start says why, rather than the whole cluster
// failing to start on one record of its log.
func TestReplayChangeRefused(t *testing.T) {
	short := "\nBegin Queue\nQUEUE_NAME = short\nPRIORITY = 40\nRUNLIMIT = %s\nEnd Queue\n"
	before, err := compileTree(testkit.WriteArchive(t, testConf+fmt.Sprintf(short, "30 60")))
	if err != nil {
		t.Fatal(err)
	}
	after, err := compileTree(testkit.WriteArchive(t, testConf+fmt.Sprintf(short, "10 20")))
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	var mu sync.Mutex
	var logged []string
	start := func(cfg daemon.Config) *daemon.Daemon {
		t.Helper()
		cfg.StateDir, cfg.WrapperPath, cfg.MinInterval = state, []string{os.Args[0], localexec.WrapperArg}, 5*time.Millisecond
		cfg.Logf = func(format string, args ...any) {
			mu.Lock()
			logged = append(logged, fmt.Sprintf(format, args...))
			mu.Unlock()
		}
		d, err := daemon.Start(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	d := start(daemon.Config{Policy: before})
	c := unixClient(state)
	env := []string{"PATH=/usr/bin:/bin"}
	// Job 1 is switched to short with its 50 minutes; job 2, in short with
	// 15, is given 50.
	moved := c.submit(t, api.SubmitRequest{Command: "true", Hold: true, RunLimit: 50 * 60, Env: env})
	if code, err := c.call("POST", fmt.Sprintf("/v1/jobs/%d/switch", moved.ID), api.ActionRequest{Queue: "short"}, nil); err != nil || code != http.StatusOK {
		t.Fatalf("switch: %d %v", code, err)
	}
	changed := c.submit(t, api.SubmitRequest{Command: "true", Hold: true, Queue: "short", RunLimit: 15 * 60, Env: env})
	if code, err := c.call("POST", fmt.Sprintf("/v1/jobs/%d/modify", changed.ID), api.ActionRequest{Modify: &api.SubmitRequest{RunLimit: 50 * 60}}, nil); err != nil || code != http.StatusOK {
		t.Fatalf("modify: %d %v", code, err)
	}
	if j := c.job(t, moved.ID); j.Queue != "short" {
		t.Fatalf("before the restart: job %d in %s, want short", moved.ID, j.Queue)
	}
	if j := c.job(t, changed.ID); j.RunLimit != 50*60 {
		t.Fatalf("before the restart: job %d's run limit %v, want %d", changed.ID, j.RunLimit, 50*60)
	}
	d.Close()

	// short now allows at most 20 minutes: neither change is accepted.
	d = start(daemon.Config{Policy: after})
	defer d.Close()
	if j := c.job(t, moved.ID); j.Queue != "normal" || j.RunLimit != 50*60 || j.State != "PSUSP" {
		t.Errorf("after the restart: job %d in %s, run limit %v, %s; want normal, %d, PSUSP", moved.ID, j.Queue, j.RunLimit, j.State, 50*60)
	}
	if j := c.job(t, changed.ID); j.Queue != "short" || j.RunLimit != 15*60 || j.State != "PSUSP" {
		t.Errorf("after the restart: job %d in %s, run limit %v, %s; want short, %d, PSUSP", changed.ID, j.Queue, j.RunLimit, j.State, 15*60)
	}
	mu.Lock()
	all := strings.Join(logged, "\n")
	mu.Unlock()
	for _, want := range []string{
		fmt.Sprintf("job %d stays in queue normal: its switch to short (bswitch) is not accepted now", moved.ID),
		fmt.Sprintf("job %d keeps its parameters: a change made by bmod (-W 50) is not accepted now", changed.ID),
	} {
		if !strings.Contains(all, want) {
			t.Errorf("the start does not say %q; it logged:\n%s", want, all)
		}
	}
}
