package sim_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/lang"
	"github.com/lsfc/lsfc/runtime/sim"
	"github.com/lsfc/lsfc/runtime/swf"
)

// BenchmarkSimulateLANL replays the LANL CM-5 trace (122,060 jobs) on 32
// hosts of 32 slots and reports placement decisions per second: every
// job placed, counting the whole simulation (submissions, cycles, ends).
func BenchmarkSimulateLANL(b *testing.B) {
	fh, err := os.Open(filepath.Join(testkit.CorpusDir(b, "swf"), "LANL-CM5-1994-4.1-cln.swf.gz"))
	if err != nil {
		b.Fatal(err)
	}
	defer fh.Close()
	r, err := swf.NewReader(fh)
	if err != nil {
		b.Fatal(err)
	}
	jobs, err := r.ReadAll()
	if err != nil {
		b.Fatal(err)
	}
	params, _ := lang.ParseConfig(lang.NewSource("lsb.params", "Begin Parameters\nJOB_ACCEPT_INTERVAL = 0\nEnd Parameters\n"), lang.KindLSBParams)
	p, ds := compile.Compile(&compile.Tree{Files: []*lang.File{params}}, compile.Options{})
	if ds.HasErrors() {
		b.Fatal(ds.Err())
	}
	placements := 0
	b.ReportAllocs()
	for b.Loop() {
		res, err := sim.Replay(p, r.Header(), jobs, sim.ReplayOptions{Hosts: sim.SyntheticHosts(32, 32)})
		if err != nil {
			b.Fatal(err)
		}
		placements += res.Sim.Placements
	}
	b.ReportMetric(float64(placements)/b.Elapsed().Seconds(), "placements/s")
}
