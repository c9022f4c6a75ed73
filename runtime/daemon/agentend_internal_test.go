package daemon

import (
	"testing"

	"github.com/lsfc/lsfc/runtime"
)

// TestAgentEndOfBounds checks the bounds of an agent's end time: a job
// started at 100, stopped and resumed at 900 by the master while the
// agent could not reach it, whose agent then reports it ended at 120,
// ends at 900, when it last began to run, so that its run time is not
// negative; within the bounds the agent's time holds; past now it is
// now; none is now.
func TestAgentEndOfBounds(t *testing.T) {
	j := &runtime.Job{Start: 100, RunSince: 900}
	for _, tc := range []struct {
		end  float64
		want runtime.Time
	}{{120, 900}, {50, 900}, {950, 950}, {2000, 1000}, {0, 1000}} {
		if got := agentEndOf(j, tc.end, 1000); got != tc.want {
			t.Errorf("end %v: %v, want %v", tc.end, got, tc.want)
		}
	}
}
