package sim_test

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
	"github.com/lsfc/lsfc/runtime/sim"
	"github.com/lsfc/lsfc/runtime/swf"
)

// TestReplayDeterministic replays one trace twice: every record is the
// same, and every job of the trace has one.
func TestReplayDeterministic(t *testing.T) {
	fh, err := os.Open(filepath.Join("..", "..", "testdata", "workloads", "small.swf"))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	r, err := swf.NewReader(fh)
	if err != nil {
		t.Fatal(err)
	}
	jobs, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	queues, _ := lang.ParseConfig(lang.NewSource("lsb.queues", "Begin Queue\nQUEUE_NAME = normal\nPRIORITY = 30\nEnd Queue\n"), lang.KindLSBQueues)
	p, _ := compile.Compile(&compile.Tree{Files: []*lang.File{queues}}, compile.Options{})
	var runs []*sim.ReplayResult
	for range 2 {
		res, err := sim.Replay(p, r.Header(), jobs, sim.ReplayOptions{Hosts: sim.SyntheticHosts(2, 8)})
		if err != nil {
			t.Fatal(err)
		}
		runs = append(runs, res)
	}
	if len(runs[0].Records) != len(jobs) {
		t.Fatalf("%d records for %d jobs", len(runs[0].Records), len(jobs))
	}
	if !reflect.DeepEqual(runs[0].Records, runs[1].Records) {
		t.Error("two replays of one trace differ")
	}
}
