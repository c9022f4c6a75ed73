package daemon_test

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/daemon"
	"github.com/lsfc/lsfc/runtime/localexec"
)

// jobGroups returns the daemon's job groups by path.
func (c *client) jobGroups(t *testing.T) map[string]api.JobGroup {
	t.Helper()
	var gs []api.JobGroup
	if code, err := c.call("GET", "/v1/jobgroups", nil, &gs); err != nil || code != 200 {
		t.Fatalf("job groups: %d %v", code, err)
	}
	out := map[string]api.JobGroup{}
	for _, g := range gs {
		out[g.Path] = g
	}
	return out
}

// TestJobGroupsDurable checks that job groups (bgadd, bgmod, bgdel, and
// those a job's -g made) survive a restart that replays the log, and one
// that reads a snapshot; and that a group's limit holds its jobs.
func TestJobGroupsDurable(t *testing.T) {
	for _, every := range []int{0, 3} {
		t.Run(fmt.Sprintf("compact=%d", every), func(t *testing.T) {
			p, err := compileTree(writeConf(t))
			if err != nil {
				t.Fatal(err)
			}
			state := t.TempDir()
			start := func() *daemon.Daemon {
				d, err := daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: state,
					WrapperPath: []string{os.Args[0], localexec.WrapperArg}, MinInterval: 5 * time.Millisecond,
					CompactEvery: every, Logf: t.Logf})
				if err != nil {
					t.Fatal(err)
				}
				return d
			}
			d := start()
			c := unixClient(state)
			change := func(req api.JobGroupRequest, want int) {
				t.Helper()
				var out api.ActionResponse
				if code, err := c.call("POST", "/v1/jobgroups", req, &out); err != nil || code != want {
					t.Fatalf("%+v: %d %v, want %d", req, code, err, want)
				}
			}
			n := func(v int) *int { return &v }
			change(api.JobGroupRequest{Op: "add", Path: "/risk/daily", Limit: n(1)}, 200)
			change(api.JobGroupRequest{Op: "add", Path: "/risk/daily"}, 409)
			change(api.JobGroupRequest{Op: "add", Path: "/gone"}, 200)
			change(api.JobGroupRequest{Op: "add", Path: "bad"}, 400)
			change(api.JobGroupRequest{Op: "add", Path: "/neg", Limit: n(-1)}, 400)
			change(api.JobGroupRequest{Op: "mod", Path: "/risk", Limit: n(5)}, 200)
			change(api.JobGroupRequest{Op: "mod", Path: "/risk/daily", Limit: n(6)}, 400)
			change(api.JobGroupRequest{Op: "del", Path: "/gone"}, 200)
			run := c.submit(t, api.SubmitRequest{Command: "sleep 30", JobGroup: "/risk/daily", Stdout: "/dev/null"})
			c.waitState(t, run.ID, "RUN")
			wait := c.submit(t, api.SubmitRequest{Command: "true", JobGroup: "/risk/daily/"})
			other := c.submit(t, api.SubmitRequest{Command: "true", Hold: true, JobGroup: "/adhoc/x"})
			change(api.JobGroupRequest{Op: "del", Path: "/adhoc"}, 409)
			time.Sleep(50 * time.Millisecond)
			if j := c.job(t, wait.ID); j.State != "PEND" || j.JobGroup != "/risk/daily" {
				t.Fatalf("job %d is %s in %q, want PEND in /risk/daily (its group's limit is 1)", wait.ID, j.State, j.JobGroup)
			}
			check := func() {
				t.Helper()
				gs := c.jobGroups(t)
				if len(gs) != 4 {
					t.Errorf("groups %v, want /risk, /risk/daily, /adhoc, /adhoc/x", gs)
				}
				risk, daily, x := gs["/risk"], gs["/risk/daily"], gs["/adhoc/x"]
				if risk.Limit != 5 || risk.Implicit || daily.Limit != 1 || daily.Jobs.Run != 1 || daily.Jobs.Pend != 1 || risk.Jobs.Total != 2 {
					t.Errorf("/risk %+v, /risk/daily %+v", risk, daily)
				}
				if !x.Implicit || x.Limit != -1 || x.Jobs.Pend != 1 || x.Owner == "" {
					t.Errorf("/adhoc/x %+v", x)
				}
				if _, ok := gs["/gone"]; ok {
					t.Errorf("deleted group /gone is back")
				}
			}
			check()
			if err := d.Close(); err != nil {
				t.Fatal(err)
			}
			d = start()
			defer d.Close()
			check()
			if j := c.job(t, other.ID); j.JobGroup != "/adhoc/x" {
				t.Errorf("job %d in %q after restart", other.ID, j.JobGroup)
			}
			c.call("POST", fmt.Sprintf("/v1/jobs/%d/kill", other.ID), nil, nil)
			change(api.JobGroupRequest{Op: "del", Empty: true}, 200)
			if gs := c.jobGroups(t); len(gs) != 2 {
				t.Errorf("after bgdel 0: %v, want /risk and /risk/daily", gs)
			}
			c.call("POST", fmt.Sprintf("/v1/jobs/%d/kill", run.ID), nil, nil)
			// Both jobs end before the test does, so that no wrapper
			// still writes in the state directory when it goes.
			c.waitState(t, run.ID, "EXIT")
			c.waitState(t, wait.ID, "DONE")
		})
	}
}
