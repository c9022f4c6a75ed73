package daemon_test

import (
	"context"
	"fmt"
	"os"
	"slices"
	"testing"
	"time"

	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/daemon"
	"github.com/lsfc/lsfc/runtime/localexec"
)

// kinds returns the kinds of a history's events.
func kinds(h api.JobHistory) []string {
	var out []string
	for _, e := range h.Events {
		out = append(out, e.Kind)
	}
	return out
}

// TestHistory asks for jobs' histories while the log is compacted every
// few transactions: the current log gives a compacted job's submission,
// dispatch and end, logs=2 adds the steps lsb.events.1 kept, a user sees
// their own jobs by default, and the jobs of others asked for by ID or
// with user=all.
func TestHistory(t *testing.T) {
	p, err := compileTree(writeConf(t))
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	d, err := daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: state, WrapperPath: []string{os.Args[0], localexec.WrapperArg},
		MinInterval: 5 * time.Millisecond, CompactEvery: 8, Listen: "127.0.0.1:0", Secret: "s3cret", Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	c := unixClient(state)
	held := c.submit(t, api.SubmitRequest{Command: "true", Hold: true})
	c.call("POST", fmt.Sprintf("/v1/jobs/%d/switch", held.ID), api.ActionRequest{Queue: "owned"}, nil)
	c.call("POST", fmt.Sprintf("/v1/jobs/%d/resume", held.ID), nil, nil)
	c.waitState(t, held.ID, "DONE")
	history := func(c *client, query string) map[int64]api.JobHistory {
		t.Helper()
		var hs []api.JobHistory
		if code, err := c.call("GET", "/v1/history"+query, nil, &hs); err != nil || code != 200 {
			t.Fatalf("GET /v1/history%s: %d %v", query, code, err)
		}
		out := map[int64]api.JobHistory{}
		for _, h := range hs {
			out[h.ID] = h
		}
		return out
	}
	// Jobs come and go until the log is compacted once: lsb.events.1 is
	// then the log that holds every step of the held job.
	for i := 0; ; i++ {
		if _, err := os.Stat(state + "/lsb.events.1"); err == nil {
			break
		}
		if i == 50 {
			t.Fatal("no compaction after 50 jobs")
		}
		j := c.submit(t, api.SubmitRequest{Command: "true", Hold: true})
		c.call("POST", fmt.Sprintf("/v1/jobs/%d/kill", j.ID), nil, nil)
	}
	h, ok := history(c, "?user=all")[held.ID]
	if !ok || h.State != "DONE" || !slices.Equal(kinds(h), []string{"submit", "start", "done"}) {
		t.Errorf("current log: job %d %s %v, want DONE [submit start done]", held.ID, h.State, kinds(h))
	}
	h = history(c, "?user=all&logs=-1")[held.ID]
	want := []string{"submit", "suspend", "switch", "resume", "start", "done"}
	if h.State != "DONE" || !slices.Equal(kinds(h), want) {
		t.Errorf("logs=-1: job %d %s %v, want DONE %v", held.ID, h.State, kinds(h), want)
	}
	other := tcpClient(d.Addr(), "s3cret", "mallory")
	if got := history(other, ""); len(got) != 0 {
		t.Errorf("another user's default history: %d jobs, want none", len(got))
	}
	if got := history(other, fmt.Sprintf("?id=%d", held.ID)); len(got) != 1 {
		t.Errorf("another user asking for job %d: %d jobs, want 1", held.ID, len(got))
	}
	if code, _ := c.call("GET", "/v1/history?logs=x", nil, nil); code != 400 {
		t.Errorf("logs=x: status %d, want 400", code)
	}
}
