package runtime_test

import (
	"errors"
	"testing"

	"github.com/lsfc/lsfc/runtime"
	"golang.org/x/tools/txtar"
)

// pendThresholdConf gives alice her own thresholds, the group eng (alice
// and bob) a pending job threshold for the group as a whole, each member
// of ops (carol, dave) their own, and lsb.params a cap of six pending
// slots for everyone.
const pendThresholdConf = `
-- lsf.shared --
Begin Cluster
ClusterName
test
End Cluster
-- lsf.cluster.test --
Begin Host
HOSTNAME  model  type  server  RESOURCES
hostA     !      !     1       ()
End Host
-- lsb.queues --
Begin Queue
QUEUE_NAME = normal
PRIORITY   = 30
End Queue
-- lsb.params --
Begin Parameters
DEFAULT_QUEUE = normal
MAX_PEND_SLOTS = 6
End Parameters
-- lsb.users --
Begin UserGroup
GROUP_NAME  GROUP_MEMBER
eng         (alice bob)
ops         (carol dave)
End UserGroup
Begin User
USER_NAME  MAX_JOBS  MAX_PEND_JOBS  MAX_PEND_SLOTS
alice      -         2              -
eng        -         3              -
ops@       -         1              -
End User
`

// TestPendThresholds checks MAX_PEND_JOBS and MAX_PEND_SLOTS at
// submission: a user's own row, a group's row counting all its members'
// pending jobs, a group@ row applying to each member, lsb.params's cap,
// and held jobs counting as pending while killed ones do not.
func TestPendThresholds(t *testing.T) {
	c := compileCluster(t, txtar.Parse([]byte(pendThresholdConf)))
	submit := func(user string, slots int, hold bool) {
		t.Helper()
		if err := c.CheckPendThresholds(user, 1, slots); err != nil {
			t.Fatalf("%s: %v", user, err)
		}
		if _, err := c.Submit(runtime.Submission{User: user, Slots: slots, Hold: hold, Command: "true"}, 0); err != nil {
			t.Fatal(err)
		}
	}
	refused := func(user string, jobs, slots int, want string, wantSlots bool) {
		t.Helper()
		err := c.CheckPendThresholds(user, jobs, slots)
		var pe *runtime.PendThresholdError
		if !errors.As(err, &pe) {
			t.Fatalf("%s %d jobs %d slots: %v, want a refusal", user, jobs, slots, err)
		}
		if pe.Error() != want || pe.Slots != wantSlots {
			t.Errorf("%s: %q (slots %v), want %q", user, pe.Error(), pe.Slots, want)
		}
	}

	submit("alice", 1, false)
	submit("alice", 1, true)
	// alice's own MAX_PEND_JOBS = 2.
	refused("alice", 1, 1, runtime.PendJobThreshold, false)
	submit("bob", 1, false)
	// eng as a whole has three pending jobs: bob may have no more.
	refused("bob", 1, 1, runtime.PendJobThreshold, false)
	// carol and dave each have one (ops@).
	submit("carol", 1, false)
	refused("carol", 1, 1, runtime.PendJobThreshold, false)
	submit("dave", 1, false)
	// erin has no row: lsb.params's six pending slots bound her.
	submit("erin", 4, false)
	refused("erin", 1, 3, runtime.PendSlotThreshold, true)
	if err := c.CheckPendThresholds("erin", 1, 2); err != nil {
		t.Errorf("erin, 2 more slots: %v", err)
	}
	// dave has his one pending job: nothing more, not even one element.
	refused("dave", 1, 1, runtime.PendJobThreshold, false)
	// A killed job counts no more.
	for _, j := range c.Jobs() {
		if j.User == "alice" && j.State == runtime.Pend {
			if err := c.Kill(j, 0); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := c.CheckPendThresholds("alice", 1, 1); err != nil {
		t.Errorf("alice after her pending job is killed: %v", err)
	}

	// What busers -w shows: a user's own row, a group's, lsb.params's cap.
	for _, tc := range []struct {
		name        string
		slots, jobs int
	}{{"alice", 6, 2}, {"eng", 6, 3}, {"carol", 6, 1}, {"erin", 6, -1}, {"ops", 6, -1}} {
		if slots, jobs := c.PendThresholds(tc.name); slots != tc.slots || jobs != tc.jobs {
			t.Errorf("PendThresholds(%s) = %d, %d; want %d, %d", tc.name, slots, jobs, tc.slots, tc.jobs)
		}
	}
}
