package daemon

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/lsfc/lsfc/lint"
	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/localexec"
)

// TestCleanForgetsKills checks that a job killed while it ran leaves
// nothing in the daemon once CLEAN_PERIOD has made it forget the job:
// the kill it remembered goes with it, or a long run of killed jobs
// would grow the daemon without end.
func TestCleanForgetsKills(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"lsf.shared":       "Begin Cluster\nClusterName\ntest\nEnd Cluster\n",
		"lsf.cluster.test": "Begin Host\nHOSTNAME model type server RESOURCES\nhostA ! ! 1 ()\nEnd Host\n",
		"lsb.params":       "Begin Parameters\nJOB_ACCEPT_INTERVAL = 0\nCLEAN_PERIOD = 1\nEnd Parameters\n",
		"lsb.queues":       "Begin Queue\nQUEUE_NAME = normal\nPRIORITY = 30\nEnd Queue\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, err := lint.Run([]string{dir}, lint.Options{})
	if err != nil || res.Diagnostics.HasErrors() {
		t.Fatalf("configuration: %v %v", err, res.Diagnostics.Err())
	}
	state := t.TempDir()
	d, err := Start(context.Background(), Config{Policy: res.Policy, StateDir: state, MinInterval: 5 * time.Millisecond,
		WrapperPath: []string{os.Args[0], localexec.WrapperArg}, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	ctx := context.Background()
	c := api.Dial(state)
	sub, err := c.Submit(ctx, &api.SubmitRequest{Command: "sleep 30", Stdout: "/dev/null", Queue: "normal",
		Env: []string{"PATH=" + os.Getenv("PATH")}})
	if err != nil {
		t.Fatal(err)
	}
	until := func(what string, cond func() bool) {
		t.Helper()
		for deadline := time.Now().Add(20 * time.Second); !cond(); time.Sleep(20 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("timed out waiting for %s", what)
			}
		}
	}
	until("the job to run", func() bool {
		j, err := c.Job(ctx, sub.ID)
		return err == nil && j.State == "RUN"
	})
	if _, err := c.JobAction(ctx, sub.ID, "kill", nil); err != nil {
		t.Fatal(err)
	}
	until("the kill to reach the job", func() bool { return d.wasKilled(sub.ID) })
	until("the job to be forgotten", func() bool {
		list, err := c.Jobs(ctx, api.JobQuery{User: "all", All: true})
		return err == nil && len(list) == 0
	})
	until("the kill to be forgotten with the job", func() bool {
		d.killedMu.Lock()
		defer d.killedMu.Unlock()
		return len(d.killed) == 0
	})
}
