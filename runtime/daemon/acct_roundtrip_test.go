package daemon_test

import (
	"cmp"
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/daemon"
	"github.com/lsfc/lsfc/runtime/localexec"
	"github.com/lsfc/lsfc/runtime/lsbacct"
	"github.com/lsfc/lsfc/runtime/sim"
	"github.com/lsfc/lsfc/runtime/simstats"
)

// roundTripConf is one host of one slot and two queues of different
// priorities: the order jobs run in is the scheduler's alone.
const roundTripConf = `-- lsf.shared --
Begin Cluster
ClusterName
rt
End Cluster
-- lsf.cluster.rt --
Begin Host
HOSTNAME  model  type  server  RESOURCES
hostA     !      !     1       ()
End Host
-- lsb.hosts --
Begin Host
HOST_NAME  MXJ
default    1
End Host
-- lsb.params --
Begin Parameters
DEFAULT_QUEUE = low
JOB_ACCEPT_INTERVAL = 0
End Parameters
-- lsb.queues --
Begin Queue
QUEUE_NAME = high
PRIORITY   = 40
End Queue

Begin Queue
QUEUE_NAME = low
PRIORITY   = 10
End Queue
`

// TestAcctRoundTrip runs jobs through the daemon, then replays the
// lsb.acct it wrote through the simulator on the same configuration: the
// jobs start in the same order, on the same hosts, and end as they did.
func TestAcctRoundTrip(t *testing.T) {
	p, err := compileTree(testkit.WriteArchive(t, roundTripConf))
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	d, err := daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: state, WrapperPath: []string{os.Args[0], localexec.WrapperArg},
		MinInterval: 5 * time.Millisecond, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	c := unixClient(state)
	work := t.TempDir()
	// A first job holds the slot while the others queue behind it, so
	// that they are dispatched by priority, then submission order.
	first := c.submit(t, api.SubmitRequest{Command: "sleep 1", Cwd: work, Queue: "low"})
	c.waitState(t, first.ID, "RUN")
	// lsb.acct keeps times in seconds: the others are submitted in a later
	// second than the first, as the replay then sees them.
	time.Sleep(time.Until(time.Now().Truncate(time.Second).Add(time.Second)))
	ids := []int64{first.ID}
	for i, q := range []string{"low", "high", "low", "high"} {
		cmd := "sleep 1"
		if i == 2 {
			cmd = "sleep 1; exit 2"
		}
		ids = append(ids, c.submit(t, api.SubmitRequest{Command: cmd, Cwd: work, Queue: q}).ID)
	}
	for _, id := range ids {
		c.waitState(t, id, "DONE", "EXIT")
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}
	recs := acctRecords(t, state)
	byStart := slices.Clone(recs)
	slices.SortStableFunc(byStart, func(a, b lsbacct.Record) int { return int(a.StartTime - b.StartTime) })
	var ran []int64
	for _, r := range byStart {
		ran = append(ran, r.JobID)
	}
	if want := []int64{ids[0], ids[2], ids[4], ids[1], ids[3]}; !slices.Equal(ran, want) {
		t.Fatalf("the daemon ran jobs %v, want %v (the first, then high, then low)", ran, want)
	}

	res, err := sim.ReplayAcct(p, recs, sim.ReplayOptions{})
	if err != nil {
		t.Fatal(err)
	}
	out := slices.Clone(res.Records)
	slices.SortStableFunc(out, func(a, b simstats.Record) int { return cmp.Or(cmp.Compare(a.Start, b.Start), a.ID-b.ID) })
	var replayed []int64
	for i, r := range out {
		replayed = append(replayed, int64(r.ID))
		real := byStart[i]
		state := "EXIT"
		if real.Done() {
			state = "DONE"
		}
		if r.State != state || !slices.Equal(r.Hosts, real.ExecHosts) {
			t.Errorf("job %d: replayed %s on %v, ran %s on %v", r.ID, r.State, r.Hosts, state, real.ExecHosts)
		}
	}
	if !slices.Equal(replayed, ran) {
		t.Errorf("the replay ran jobs %v, the daemon %v", replayed, ran)
	}
	if _, err := os.Stat(filepath.Join(daemon.AcctDir(state), lsbacct.FileName)); err != nil {
		t.Error(err)
	}
}
