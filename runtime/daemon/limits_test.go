package daemon_test

import (
	"context"
	"fmt"
	"os"
	"os/user"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/daemon"
	"github.com/lsfc/lsfc/runtime/localexec"
)

// TestLimitsEndpoint checks GET /v1/limits (blimits): the Limit sections
// with their keys as written and the limits lsfc enforces, what a running
// job uses of a per-user and of a cluster-wide limit, and the filters.
func TestLimitsEndpoint(t *testing.T) {
	conf := testkit.WriteArchive(t, testConf+`-- lsb.resources --
Begin Limit
NAME     = per_user
PER_USER = all
SLOTS    = 4
End Limit
Begin Limit
NAME   = owned_cap
QUEUES = owned
JOBS   = 2
End Limit
`)
	p, err := compileTree(conf)
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	d, err := daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: state,
		WrapperPath: []string{os.Args[0], localexec.WrapperArg}, MinInterval: 5 * time.Millisecond,
		Listen: "127.0.0.1:0", Secret: "s3cret", Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { d.Close(); <-d.Done() }()
	me, err := user.Current()
	if err != nil {
		t.Skip(err)
	}
	mine := tcpClient(d.Addr(), "s3cret", me.Username)
	sub := mine.submit(t, api.SubmitRequest{Command: "sleep 60", Cwd: t.TempDir(), Env: []string{"PATH=" + os.Getenv("PATH")},
		Slots: 3, ResReq: "span[hosts=1]", Queue: "owned"})
	defer func() {
		// The job ends before the daemon closes: its supervisor writes
		// into the state directory until it has.
		mine.call("POST", fmt.Sprintf("/v1/jobs/%d/kill", sub.ID), api.ActionRequest{}, nil)
		mine.waitState(t, sub.ID, "EXIT")
	}()
	mine.waitState(t, sub.ID, "RUN")

	c := api.Dial(state)
	ctx := context.Background()
	got, err := c.Limits(ctx, api.LimitQuery{})
	if err != nil {
		t.Fatal(err)
	}
	four, two := 4.0, 2.0
	want := []api.Limit{
		{Name: "per_user", Enforced: true, Settings: []api.LimitSetting{{Key: "PER_USER", Value: "all"}, {Key: "SLOTS", Value: "4"}},
			Slots: &four, Use: []api.LimitUse{{User: me.Username, Slots: 3, Jobs: 1}}},
		{Name: "owned_cap", Enforced: true, Settings: []api.LimitSetting{{Key: "QUEUES", Value: "owned"}, {Key: "JOBS", Value: "2"}},
			Jobs: &two, Use: []api.LimitUse{{Slots: 3, Jobs: 1}}},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("limits (-want +got):\n%s", diff)
	}

	for _, tc := range []struct {
		q    api.LimitQuery
		want []string // section: number of rows
	}{
		{api.LimitQuery{Users: []string{"bob-" + me.Username}}, []string{"per_user:0", "owned_cap:1"}},
		{api.LimitQuery{Queues: []string{"normal"}}, []string{"per_user:1"}},
		{api.LimitQuery{Names: []string{"owned_cap"}}, []string{"owned_cap:1"}},
		{api.LimitQuery{Names: []string{"nosuch"}}, nil},
	} {
		ls, err := c.Limits(ctx, tc.q)
		if err != nil {
			t.Fatal(err)
		}
		var rows []string
		for _, l := range ls {
			rows = append(rows, fmt.Sprintf("%s:%d", l.Name, len(l.Use)))
		}
		if diff := cmp.Diff(tc.want, rows); diff != "" {
			t.Errorf("%+v (-want +got):\n%s", tc.q, diff)
		}
	}
}
