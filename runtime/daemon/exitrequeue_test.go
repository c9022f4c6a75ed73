package daemon

import (
	"testing"

	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/lint"
	"github.com/lsfc/lsfc/runtime"
)

// TestExitRequeueRecordHolds: an exit-requeue record with state PSUSP (a
// job that exited with a requeue exit value past its MAX_JOB_REQUEUE)
// replays as a hold, with the requeue limit as the job's pending reason
// and its requeue count unchanged, which a release record lifts; one
// without a state, as logs written before the hold was kept have, still
// replays as a requeue to PEND that counts.
func TestExitRequeueRecordHolds(t *testing.T) {
	res, err := lint.Run([]string{testkit.WriteArchive(t, releaseConf)}, lint.Options{})
	if err != nil || res.Diagnostics.HasErrors() {
		t.Fatalf("configuration: %v %v", err, res.Diagnostics.Err())
	}
	c, err := runtime.NewCluster(res.Policy, runtime.ClusterOptions{SlotsPerHost: 8})
	if err != nil {
		t.Fatal(err)
	}
	j, err := c.Submit(runtime.Submission{User: "u", Queue: "normal", Command: "exit 3", Slots: 1}, 0)
	if err != nil {
		t.Fatal(err)
	}
	replay := func(lines ...string) {
		t.Helper()
		for _, line := range lines {
			r, err := decode([]byte(line))
			if err != nil {
				t.Fatalf("%s: %v", line, err)
			}
			if _, err := apply(c, r); err != nil {
				t.Fatalf("%s: %v", line, err)
			}
		}
	}
	start := `{"t":"start","job":1,"at":1,"allocs":[{"Host":"hostA","Slots":1}]}`
	replay(start, `{"t":"exit-requeue","job":1,"at":2,"code":3}`)
	if j.State != runtime.Pend || j.ExitRequeues != 1 {
		t.Fatalf("after an exit-requeue without state: %s, %d requeues; want PEND, 1", j.State, j.ExitRequeues)
	}
	replay(start, `{"t":"exit-requeue","job":1,"at":3,"code":3,"state":"PSUSP"}`)
	if j.State != runtime.PSusp || j.Reason != runtime.ReasonRequeueLimit || j.ExitRequeues != 1 {
		t.Fatalf("after an exit-requeue with state PSUSP: %s (%s), %d requeues; want PSUSP (%s), 1",
			j.State, j.Reason, j.ExitRequeues, runtime.ReasonRequeueLimit)
	}
	replay(`{"t":"release","job":1}`)
	if j.State != runtime.Pend {
		t.Fatalf("after the release: %s, want PEND", j.State)
	}
}
