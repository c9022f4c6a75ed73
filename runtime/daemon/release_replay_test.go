package daemon

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/lint"
	"github.com/lsfc/lsfc/runtime"
	"github.com/lsfc/lsfc/runtime/eventlog"
)

// releaseConf is the configuration testdata/release.events was written
// on (the daemon tests' own).
const releaseConf = `-- lsf.shared --
Begin Cluster
ClusterName
test
End Cluster
-- lsf.cluster.test --
Begin ClusterAdmins
Administrators = (boss)
End ClusterAdmins
Begin Host
HOSTNAME  model  type  server  RESOURCES
hostA     !      !     1       ()
hostB     !      !     1       ()
End Host
-- lsb.hosts --
Begin Host
HOST_NAME  MXJ
default    8
End Host
-- lsb.params --
Begin Parameters
DEFAULT_QUEUE = normal
JOB_ACCEPT_INTERVAL = 0
End Parameters
-- lsb.queues --
Begin Queue
QUEUE_NAME = normal
PRIORITY   = 30
End Queue

Begin Queue
QUEUE_NAME     = owned
PRIORITY       = 20
ADMINISTRATORS = qadmin
End Queue
`

// TestReplayReleaseLog replays testdata/release.events, a log written by
// an earlier release of the daemon (see TestMakeReleaseLog), and compares
// the cluster it gives with testdata/release.golden, written when the log
// was. A change of the records' format that this build cannot read fails
// here.
func TestReplayReleaseLog(t *testing.T) {
	c, kinds := replayRelease(t)
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(kinds)) {
		fmt.Fprintf(&b, "records %s %d\n", k, kinds[k])
	}
	for _, j := range c.Jobs() {
		im := j.Image()
		hosts, _ := json.Marshal(im.Allocs)
		fmt.Fprintf(&b, "job %d %s queue=%s name=%q user=%s command=%q exit=%d term=%q allocs=%s\n",
			j.ID, j.State, j.Queue.Name, j.Name, j.User, im.Sub.Command, j.ExitCode, j.Term, hosts)
	}
	queues, hosts := c.Control()
	for _, name := range slices.Sorted(maps.Keys(queues)) {
		fmt.Fprintf(&b, "queue %s open=%v active=%v\n", name, queues[name].Open, queues[name].Active)
	}
	for _, name := range slices.Sorted(maps.Keys(hosts)) {
		fmt.Fprintf(&b, "host %s %s\n", name, hosts[name])
	}
	fmt.Fprintf(&b, "next job %d\n", c.NextID())
	golden := filepath.Join("testdata", "release.golden")
	if testkit.Updating() {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(strings.Split(string(want), "\n"), strings.Split(b.String(), "\n")); diff != "" {
		t.Errorf("replay of testdata/release.events (-want +got):\n%s", diff)
	}
}

// replayRelease replays testdata/release.events on a cluster of
// releaseConf, and returns it and the count of each kind of record.
func replayRelease(t *testing.T) (*runtime.Cluster, map[Kind]int) {
	t.Helper()
	res, err := lint.Run([]string{testkit.WriteArchive(t, releaseConf)}, lint.Options{})
	if err != nil || res.Diagnostics.HasErrors() {
		t.Fatalf("configuration: %v %v", err, res.Diagnostics.Err())
	}
	c, err := runtime.NewCluster(res.Policy, runtime.ClusterOptions{SlotsPerHost: 8})
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join("testdata", "release.events"))
	if err != nil {
		t.Fatal(err)
	}
	// The event log repairs what it opens: replay a copy.
	path := filepath.Join(t.TempDir(), "lsb.events")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	kinds := map[Kind]int{}
	l, rec, err := eventlog.Open(path, eventlog.Options{Existing: true, Replay: func(seq uint64, payloads [][]byte) error {
		for _, p := range payloads {
			r, err := decode(p)
			if err != nil {
				return err
			}
			if _, err := apply(c, r); err != nil {
				return err
			}
			kinds[r.Type]++
		}
		return nil
	}})
	if err != nil {
		t.Fatalf("replay of a log of an earlier release: %v", err)
	}
	l.Close()
	if rec.Truncated {
		t.Errorf("the release log was repaired: %s", rec.Reason)
	}
	return c, kinds
}
