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
	testclock "k8s.io/utils/clock/testing"
)

// cleanPeriod is the CLEAN_PERIOD of TestCleanPeriod, in seconds.
const cleanPeriod = 4

// TestCleanPeriod follows a finished job through CLEAN_PERIOD, on a
// testing clock: it can be asked for by id until the period ends, also
// after a restart, is gone once it has ended, stays gone after another
// restart, and its number is not given again.
func TestCleanPeriod(t *testing.T) {
	conf := strings.Replace(testConf, "JOB_ACCEPT_INTERVAL = 0\n",
		fmt.Sprintf("JOB_ACCEPT_INTERVAL = 0\nCLEAN_PERIOD = %d\n", cleanPeriod), 1)
	p, err := compileTree(testkit.WriteArchive(t, conf))
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	clk := testclock.NewFakeClock(time.Unix(1_700_000_000, 0))
	start := func() *daemon.Daemon {
		d, err := daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: state, WrapperPath: []string{os.Args[0], localexec.WrapperArg},
			MinInterval: 5 * time.Millisecond, Logf: t.Logf, Clock: clk})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	d := start()
	c := unixClient(state)
	finished := c.submit(t, api.SubmitRequest{Command: "true", Cwd: state, Stdout: "/dev/null"}).ID
	held := c.submit(t, api.SubmitRequest{Command: "true", Hold: true}).ID
	// The job's process is real; the cycles that start it and record its
	// end need the clock to move.
	var j api.Job
	stepUntil(t, clk, time.Millisecond, "the job to end", func() bool {
		j = c.job(t, finished)
		return j.State == "DONE"
	})
	// End is in whole seconds: the job ended at End or later, so it is
	// kept at least until keptUntil, and gone a second later at most
	// (housekeeping looks every second).
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
	// checkKept checks the job is shown.
	checkKept := func(when string) {
		t.Helper()
		if !shown(when) {
			t.Errorf("%s, %v after its end and within CLEAN_PERIOD (%d s): job %d is gone", when,
				clk.Since(time.Unix(j.End, 0)), cleanPeriod, finished)
		}
	}

	checkKept("just finished")
	d.Close()
	d = start()
	checkKept("after a restart")

	// Up to the end of CLEAN_PERIOD, second by second (each second a
	// housekeeping), the job is kept.
	for clk.Now().Add(time.Second).Before(keptUntil) {
		clk.Step(time.Second)
		checkKept(fmt.Sprintf("at %v", clk.Now().Format(time.TimeOnly)))
	}
	stepUntil(t, clk, time.Second, "CLEAN_PERIOD to forget the job", func() bool {
		return !shown("waiting for CLEAN_PERIOD")
	})
	if gone := clk.Now(); gone.Before(keptUntil) || gone.After(keptUntil.Add(2*time.Second)) {
		t.Errorf("job %d gone at %v, want at the end of CLEAN_PERIOD, %v", finished, gone, keptUntil)
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
