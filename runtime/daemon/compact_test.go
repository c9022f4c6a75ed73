package daemon_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/daemon"
	"github.com/lsfc/lsfc/runtime/localexec"
)

// TestCompactionUnderSubmissions compacts the log every 40 transactions
// while 8 clients submit and kill jobs without pause, so that
// compactions write their snapshots while transactions keep coming: a
// restarted daemon finds every acknowledged job in the state it was
// acknowledged in, none twice, and the job numbers go on.
func TestCompactionUnderSubmissions(t *testing.T) {
	p, err := compileTree(writeConf(t))
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	start := func() *daemon.Daemon {
		d, err := daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: state, WrapperPath: []string{os.Args[0], localexec.WrapperArg},
			MinInterval: time.Millisecond, CompactEvery: 40, Logf: t.Logf})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	d := start()
	const clients, each = 8, 150
	var mu sync.Mutex
	want := map[int64]string{}
	var wg sync.WaitGroup
	for i := range clients {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			c := unixClient(state)
			for k := range each {
				var out api.SubmitResponse
				code, err := c.call("POST", "/v1/jobs", api.SubmitRequest{Command: "true", Hold: true, Name: fmt.Sprintf("c%d-%d", i, k)}, &out)
				if err != nil || code != http.StatusOK {
					t.Errorf("submit: %d %v", code, err)
					return
				}
				st := "PSUSP"
				if k%5 == 4 {
					if code, err := c.call("POST", fmt.Sprintf("/v1/jobs/%d/kill", out.ID), nil, nil); err != nil || code != http.StatusOK {
						t.Errorf("kill %d: %d %v", out.ID, code, err)
						return
					}
					st = "EXIT"
				}
				mu.Lock()
				if _, dup := want[out.ID]; dup {
					t.Errorf("job %d acknowledged twice", out.ID)
				}
				want[out.ID] = st
				mu.Unlock()
			}
		}(i)
	}
	wg.Wait()
	if t.Failed() {
		d.Close()
		return
	}
	d.Close()
	// The previous file is kept at each compaction: there were some.
	if _, err := os.Stat(filepath.Join(state, "lsb.events.1")); err != nil {
		t.Fatalf("no compaction ran: %v", err)
	}
	d = start()
	defer d.Close()
	c := unixClient(state)
	var jobs []api.Job
	if code, err := c.call("GET", "/v1/jobs?all=1", nil, &jobs); err != nil || code != http.StatusOK {
		t.Fatalf("jobs: %d %v", code, err)
	}
	got := map[int64]string{}
	for _, j := range jobs {
		got[j.ID] = j.State
	}
	for id, w := range want {
		if got[id] != w {
			t.Errorf("job %d: %q after restart, want %s", id, got[id], w)
		}
	}
	if len(got) != len(want) {
		t.Errorf("%d jobs after restart, %d acknowledged", len(got), len(want))
	}
	if next := c.submit(t, api.SubmitRequest{Command: "true", Hold: true}); next.ID != int64(len(want)+1) {
		t.Errorf("next job number %d, want %d", next.ID, len(want)+1)
	}
}
