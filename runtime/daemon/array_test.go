package daemon_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/daemon"
	"github.com/lsfc/lsfc/runtime/localexec"
)

// TestArrayRestart stops the daemon while a job array is half run: two
// elements are done, two run, two wait for the %2 limit. The array is one
// submission record in the log; the next daemon (and the one after a
// compaction) finds every element in its own state, the running ones
// end with their own exit codes, and the waiting ones run after them.
func TestArrayRestart(t *testing.T) {
	p, err := compileTree(writeConf(t))
	if err != nil {
		t.Fatal(err)
	}
	state, work := t.TempDir(), t.TempDir()
	start := func(compactEvery int) *daemon.Daemon {
		d, err := daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: state,
			WrapperPath: []string{os.Args[0], localexec.WrapperArg}, MinInterval: 5 * time.Millisecond,
			CompactEvery: compactEvery, Logf: t.Logf})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	d := start(0)
	c := unixClient(state)
	// Elements 1 and 2 end at once; 3 and 4 end once the file "go" is
	// there, each with its index as exit code; 5 and 6 wait for them.
	sub := c.submit(t, api.SubmitRequest{Name: "half[1-6]%2", Cwd: work, Stdout: "out.%J.%I",
		Command: `if [ $LSB_JOBINDEX -gt 2 ]; then while [ ! -e go ]; do sleep 0.05; done; exit $LSB_JOBINDEX; fi`})
	elem := func(i int) int64 { return api.ElementID(sub.ID, i) }
	c.waitState(t, elem(1), "DONE")
	c.waitState(t, elem(2), "DONE")
	c.waitState(t, elem(3), "RUN")
	c.waitState(t, elem(4), "RUN")
	if j := c.job(t, elem(5)); j.State != "PEND" || !strings.Contains(j.Reason, "running element limit") {
		t.Errorf("element 5 is %s (%s), want PEND for the array's limit", j.State, j.Reason)
	}
	var news, arrays int
	for _, r := range logRecords(t, state) {
		switch r["t"] {
		case "new":
			news++
		case "array":
			arrays++
		}
	}
	if news != 0 || arrays != 1 {
		t.Errorf("the log holds %d new and %d array records, want one array record", news, arrays)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}

	d = start(1)
	if j := c.job(t, elem(3)); j.State != "RUN" || j.Index != 3 || j.Name != "half[3]" {
		t.Errorf("after a restart element 3 is %s, index %d, name %q; want RUN, 3, half[3]", j.State, j.Index, j.Name)
	}
	if j := c.job(t, elem(1)); j.State != "DONE" {
		t.Errorf("after a restart element 1 is %s, want DONE", j.State)
	}
	if err := os.WriteFile(filepath.Join(work, "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for i := 3; i <= 6; i++ {
		if j := c.waitState(t, elem(i), "EXIT"); j.ExitCode != i {
			t.Errorf("element %d exited %d, want %d", i, j.ExitCode, i)
		}
	}
	if _, err := os.Stat(filepath.Join(work, fmt.Sprintf("out.%d.6", sub.ID))); err != nil {
		t.Errorf("element 6's output file: %v", err)
	}
	// A limit changed by bmod is kept across a compaction and a restart.
	code, err := c.call("POST", fmt.Sprintf("/v1/jobs/%d/modify", sub.ID), api.ActionRequest{Modify: &api.SubmitRequest{Name: "%5"}}, nil)
	if err != nil || code != http.StatusOK {
		t.Fatalf("bmod -J %%5: %d %v", code, err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}

	d = start(0)
	defer d.Close()
	var jobs []api.Job
	if code, err := c.call("GET", fmt.Sprintf("/v1/jobs?id=%d", sub.ID), nil, &jobs); err != nil || code != http.StatusOK {
		t.Fatalf("jobs of the array: %d %v", code, err)
	}
	var states []string
	for _, j := range jobs {
		states = append(states, fmt.Sprintf("%d:%s", j.Index, j.State))
		if j.Array != "half[1-6]%5" {
			t.Errorf("element %d is of array %q, want half[1-6]%%5", j.Index, j.Array)
		}
	}
	if got, want := strings.Join(states, " "), "1:DONE 2:DONE 3:EXIT 4:EXIT 5:EXIT 6:EXIT"; got != want {
		t.Errorf("after a compaction and a restart the elements are %s, want %s", got, want)
	}
	next := c.submit(t, api.SubmitRequest{Command: "true", Hold: true})
	if next.ID != sub.ID+1 {
		t.Errorf("the job after the array got number %d, want %d", next.ID, sub.ID+1)
	}
}

// TestElementsOfPlainJob: bkill ID[INDEX] (and any action on elements)
// of a job that is no array finds no job, and leaves the job alone: it
// used to fall on the whole job.
func TestElementsOfPlainJob(t *testing.T) {
	d, state := startDaemon(t, "")
	defer d.Close()
	c := unixClient(state)
	sub := c.submit(t, api.SubmitRequest{Command: "sleep 60", Cwd: t.TempDir(), Stdout: "/dev/null"})
	c.waitState(t, sub.ID, "RUN")
	ac := api.Dial(state)
	for _, action := range []string{"kill", "stop", "signal"} {
		_, err := ac.JobAction(context.Background(), sub.ID, action, &api.ActionRequest{Indices: []int{2, 3}, Signal: 15})
		want := fmt.Sprintf("Job <%d[2]>: No matching job found\nJob <%d[3]>: No matching job found", sub.ID, sub.ID)
		ae, ok := errors.AsType[*api.APIError](err)
		if !ok || ae.Status != http.StatusNotFound || ae.Message != want {
			t.Errorf("%s of %d[2,3]: %v, want 404 %q", action, sub.ID, err, want)
		}
	}
	if j := c.job(t, sub.ID); j.State != "RUN" {
		t.Errorf("job %d is %s after actions on elements it does not have, want RUN", sub.ID, j.State)
	}
	if code, err := c.call("POST", fmt.Sprintf("/v1/jobs/%d/kill", sub.ID), nil, nil); err != nil || code != http.StatusOK {
		t.Fatalf("kill: %d %v", code, err)
	}
	c.waitState(t, sub.ID, "EXIT") // its files gone before the directory is
}
