package daemon_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/daemon"
	"github.com/lsfc/lsfc/runtime/localexec"
)

// cleanPeriod is the CLEAN_PERIOD of TestCleanPeriod, in seconds.
const cleanPeriod = 4

// TestCleanPeriod follows a finished job through CLEAN_PERIOD: it can be
// asked for by id before the period ends, also after a restart, is gone
// once it has ended, stays gone after another restart, and its number is
// not given again.
func TestCleanPeriod(t *testing.T) {
	conf := strings.Replace(testConf, "JOB_ACCEPT_INTERVAL = 0\n",
		fmt.Sprintf("JOB_ACCEPT_INTERVAL = 0\nCLEAN_PERIOD = %d\n", cleanPeriod), 1)
	p, err := compileTree(testkit.WriteArchive(t, conf))
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	start := func() *daemon.Daemon {
		d, err := daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: state, WrapperPath: []string{os.Args[0], localexec.WrapperArg},
			MinInterval: 5 * time.Millisecond, Logf: t.Logf})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	d := start()
	c := unixClient(state)
	finished := c.submit(t, api.SubmitRequest{Command: "true", Cwd: state, Stdout: "/dev/null"}).ID
	held := c.submit(t, api.SubmitRequest{Command: "true", Hold: true}).ID
	j := c.waitState(t, finished, "DONE")
	// The job ended at End or later (End is in whole seconds), so it is
	// kept at least until this.
	keptUntil := time.Unix(j.End+cleanPeriod, 0)

	// shown reports whether the finished job is found by id and in the
	// list of every job, finished ones included, and checks both agree.
	shown := func(when string) bool {
		t.Helper()
		code, err := c.call("GET", fmt.Sprintf("/v1/jobs/%d", finished), nil, nil)
		if err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		var list []api.Job
		if lc, err := c.call("GET", "/v1/jobs?user=all&all=1", nil, &list); err != nil || lc != http.StatusOK {
			t.Fatalf("%s: list: %d %v", when, lc, err)
		}
		listed := false
		for _, l := range list {
			listed = listed || l.ID == finished
		}
		if listed != (code == http.StatusOK) {
			t.Errorf("%s: the job by id answers %d, but listed = %v", when, code, listed)
		}
		return code == http.StatusOK
	}
	// checkKept checks the job is shown, unless CLEAN_PERIOD ended while
	// the machine was too slow to ask in time.
	checkKept := func(when string) {
		t.Helper()
		asked := time.Now()
		if !shown(when) && asked.Before(keptUntil) {
			t.Errorf("%s, %v after its end and within CLEAN_PERIOD (%d s): job %d is gone", when,
				asked.Sub(time.Unix(j.End, 0)).Round(time.Millisecond), cleanPeriod, finished)
		}
	}

	checkKept("just finished")
	d.Close()
	d = start()
	checkKept("after a restart")

	deadline := keptUntil.Add(15 * time.Second)
	for shown("waiting for CLEAN_PERIOD") {
		if time.Now().After(deadline) {
			t.Fatalf("job %d still shown %d s after it ended, with CLEAN_PERIOD = %d", finished,
				time.Now().Unix()-j.End, cleanPeriod)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if gone := time.Now(); gone.Before(keptUntil) {
		t.Errorf("job %d gone %v before CLEAN_PERIOD ended", finished, keptUntil.Sub(gone))
	}
	if hj := c.job(t, held); hj.State != "PSUSP" {
		t.Errorf("the held job is %s, want PSUSP: only finished jobs are cleaned", hj.State)
	}

	d.Close()
	d = start()
	defer d.Close()
	if shown("after another restart") {
		t.Errorf("job %d is back after a restart", finished)
	}
	if next := c.submit(t, api.SubmitRequest{Command: "true", Hold: true}).ID; next <= held {
		t.Errorf("the next job got number %d, after %d and %d", next, finished, held)
	}
}
