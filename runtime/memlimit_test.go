package runtime_test

import (
	"strings"
	"testing"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/runtime"
	"github.com/lsfc/lsfc/runtime/sim"
	"golang.org/x/tools/txtar"
)

// TestMemLimitUnits checks a job's -M (in MB) against its queue's
// MEMLIMIT, written in the cluster's LSF_UNIT_FOR_LIMITS (KB when unset).
func TestMemLimitUnits(t *testing.T) {
	for _, c := range []struct {
		conf, memlimit string
		ok, over       float64
		want           string
	}{
		{"", "102400", 100, 101, "MEMLIMIT of 100M"},
		{"LSF_UNIT_FOR_LIMITS=MB", "100", 100, 101, "MEMLIMIT of 100M"},
		{"LSF_UNIT_FOR_LIMITS=GB", "2", 2048, 2049, "MEMLIMIT of 2048M"},
		{"LSF_UNIT_FOR_LIMITS=GB", "512MB", 512, 513, "MEMLIMIT of 512M"},
		// The queue's side in the unit of the job's.
		{"LSF_UNIT_FOR_LIMITS=MB", "1000", 1000, 4096, "memory limit 4G (-M) exceeds the queue's MEMLIMIT of 0.977G"},
	} {
		ar := txtar.Parse([]byte("-- lsf.conf --\n" + c.conf + "\n-- lsb.queues --\nBegin Queue\nQUEUE_NAME = normal\nMEMLIMIT = " + c.memlimit + "\nEnd Queue\n"))
		tree, opts := testkit.ArchiveTree(t, ar, true)
		p, diags := compile.Compile(tree, opts)
		if diags.HasErrors() {
			t.Fatalf("%s MEMLIMIT=%s: %v", c.conf, c.memlimit, diags.Err())
		}
		cl, err := runtime.NewCluster(p, runtime.ClusterOptions{Hosts: sim.SyntheticHosts(1, 1)})
		if err != nil {
			t.Fatal(err)
		}
		sub := runtime.Submission{User: "u", Queue: "normal", Slots: 1, MemLimit: c.ok}
		if _, err := cl.Submit(sub, 0); err != nil {
			t.Errorf("%s MEMLIMIT=%s: -M %g MB refused: %v", c.conf, c.memlimit, c.ok, err)
		}
		sub.MemLimit = c.over
		if _, err := cl.Submit(sub, 0); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s MEMLIMIT=%s: -M %g MB: %v, want a rejection naming the %s", c.conf, c.memlimit, c.over, err, c.want)
		}
	}
}
