package runtime_test

import (
	"testing"

	"github.com/lsfc/lsfc/runtime"
	"golang.org/x/tools/txtar"
)

// TestFairshareUserGroupCharge checks bsub -G: u1 is in both groups of
// the queue's FAIRSHARE; without -G its jobs go to the first group that
// holds it (alpha), with -G beta to beta's account, and a job's slots
// are charged there. CheckUserGroup refuses a group the user is not a
// direct member of, and one lsb.users does not define.
func TestFairshareUserGroupCharge(t *testing.T) {
	ar := txtar.Parse([]byte(`-- lsf.cluster.test --
Begin Host
HOSTNAME  model  type  server  RESOURCES
hostA     !      !     1       ()
End Host
-- lsb.hosts --
Begin Host
HOST_NAME  MXJ
default    4
End Host
-- lsb.params --
Begin Parameters
JOB_ACCEPT_INTERVAL = 0
HIST_HOURS = 0
End Parameters
-- lsb.users --
Begin UserGroup
GROUP_NAME  GROUP_MEMBER
alpha       (u1 u2)
beta        (u1 u3)
outer       (beta)
End UserGroup
-- lsb.queues --
Begin Queue
QUEUE_NAME = fair
PRIORITY   = 30
FAIRSHARE  = USER_SHARES[[alpha, 2] [beta, 1]]
End Queue
`))
	c := compileCluster(t, ar)
	clock := &runtime.VirtualClock{T: 1000}
	e := runtime.NewEngine(c, clock, nil)
	if _, err := e.Submit(runtime.Submission{User: "u1", Queue: "fair", Runtime: 7200}); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := e.Submit(runtime.Submission{User: "u1", Group: "beta", Queue: "fair", Runtime: 7200}); err != nil {
			t.Fatal(err)
		}
	}
	e.Schedule()
	slots := map[string]int{}
	for _, a := range c.ShareAccounts(c.Queue("fair"), clock.T) {
		slots[a.Name] = a.Slots
	}
	if slots["alpha"] != 1 || slots["beta"] != 2 {
		t.Errorf("slots by account %v, want alpha 1 (no -G) and beta 2 (-G beta)", slots)
	}

	for _, tc := range []struct {
		group, user, want string
	}{
		{"beta", "u1", ""},
		{"beta", "u2", runtime.NotInGroup},
		{"outer", "u1", runtime.NotInGroup}, // a member through a subgroup only
		{"nosuch", "u1", runtime.BadUserGroup},
	} {
		err := c.CheckUserGroup(tc.group, tc.user)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("CheckUserGroup(%q, %q) = %q, want %q", tc.group, tc.user, got, tc.want)
		}
	}
}
