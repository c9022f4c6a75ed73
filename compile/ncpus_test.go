package compile_test

import (
	"path/filepath"
	"testing"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/internal/testkit"
	"golang.org/x/tools/txtar"
)

// TestNcpusCount reads how ncpus is counted from the define_ncpus_*
// golden: EGO_DEFINE_NCPUS=procs for the cluster, define_ncpus_threads on
// hostA.
func TestNcpusCount(t *testing.T) {
	ar, err := txtar.ParseFile(filepath.Join("testdata", "check", "define_ncpus.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	tree, opts := testkit.ArchiveTree(t, ar, true)
	p, _ := compile.Compile(tree, opts)
	for host, want := range map[string]string{"hostA": compile.NcpusThreads, "hostB": compile.NcpusProcs, "": compile.NcpusProcs} {
		if got := p.NcpusCount(host); got != want {
			t.Errorf("NcpusCount(%q) = %q, want %q", host, got, want)
		}
	}
	if got := p.NcpusCountOf([]string{"fs", "define_ncpus_cores"}); got != compile.NcpusCores {
		t.Errorf("NcpusCountOf(define_ncpus_cores) = %q, want cores", got)
	}
	var none *compile.Policy
	if got := none.NcpusCount("hostA"); got != compile.NcpusCores {
		t.Errorf("nil policy: NcpusCount = %q, want cores (LSF's default)", got)
	}
}

func TestCountNcpus(t *testing.T) {
	for _, c := range []struct {
		count                    string
		nprocs, ncores, nthreads float64
		want                     float64
	}{
		{compile.NcpusProcs, 2, 8, 2, 2},
		{compile.NcpusCores, 2, 8, 2, 16},
		{compile.NcpusThreads, 2, 8, 2, 32},
		{compile.NcpusThreads, 2, 0, 0, 2},
		{compile.NcpusCores, 0, 8, 2, 0},
	} {
		if got := compile.CountNcpus(c.count, c.nprocs, c.ncores, c.nthreads); got != c.want {
			t.Errorf("CountNcpus(%s, %v, %v, %v) = %v, want %v", c.count, c.nprocs, c.ncores, c.nthreads, got, c.want)
		}
	}
}

// TestHostNcpus counts from the topology as the host's count says, up to
// the CPUs usable, and falls back to them when the topology is unknown.
func TestHostNcpus(t *testing.T) {
	ar, err := txtar.ParseFile(filepath.Join("testdata", "check", "define_ncpus.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	tree, opts := testkit.ArchiveTree(t, ar, true)
	p, _ := compile.Compile(tree, opts)
	for _, c := range []struct {
		host                             string
		usable, nprocs, ncores, nthreads float64
		want                             float64
	}{
		{"hostA", 32, 2, 4, 2, 16}, // define_ncpus_threads
		{"hostB", 32, 2, 4, 2, 2},  // EGO_DEFINE_NCPUS=procs
		{"hostA", 8, 2, 4, 2, 8},   // no more than usable
		{"hostB", 6, 0, 0, 0, 6},   // topology unknown
	} {
		if got := p.HostNcpus(c.host, c.usable, c.nprocs, c.ncores, c.nthreads); got != c.want {
			t.Errorf("HostNcpus(%s, %v, %v, %v, %v) = %v, want %v", c.host, c.usable, c.nprocs, c.ncores, c.nthreads, got, c.want)
		}
	}
}
