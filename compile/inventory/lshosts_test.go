package inventory_test

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/compile/inventory"
	"github.com/lsfc/lsfc/lang"
)

func invReadLS(t *testing.T, lshosts, lsload string) (*inventory.Inventory, lang.Diagnostics) {
	t.Helper()
	var load *lang.Source
	if lsload != "" {
		load = lang.NewSource("lsload", lsload)
	}
	inv, ds := inventory.ReadLSHosts(lang.NewSource("lshosts", lshosts), load, compile.MB)
	invCheckSpans(t, inv, ds)
	return inv, ds
}

func TestReadLSHostsSample(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "hosts", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	inv, ds := invReadLS(t, read("lshosts.txt"), read("lsload.txt"))
	if len(ds) > 0 {
		t.Fatalf("diagnostics:\n%s", strings.Join(invRenderPaths(ds), "\n"))
	}
	want := []string{
		"master01 type=X86_64 model=XeonGold6248 ncpus=40 maxmem=196300.8 maxswp=16384 cpuf=60 resources=fs load=it:0,ls:3,mem:175308.8,pg:0,r15m:0.5,r15s:0.3,r1m:0.4,swp:16384,tmp:90112,ut:0.02",
		"master02 type=X86_64 model=XeonGold6248 ncpus=40 maxmem=196300.8 maxswp=16384 cpuf=60 resources=fs load=it:42,ls:1,mem:184832,pg:0,r15m:0.1,r15s:0,r1m:0.1,swp:16384,tmp:93184,ut:0.01",
		"cn01 type=X86_64 model=XeonGold6248 ncpus=40 maxmem=385536 maxswp=32768 cpuf=60 resources=ssd load=it:1440,ls:0,mem:122880,pg:35,r15m:31.5,r15s:32,r1m:32,swp:32256,tmp:153600,ut:0.8 status=busy",
		"cn02 type=X86_64 model=XeonGold6248 ncpus=40 maxmem=385536 maxswp=32768 cpuf=60 resources=ssd load=it:2880,ls:0,mem:380313.6,pg:0,r15m:0.2,r15s:0,r1m:0,swp:32768,tmp:200704,ut:0 status=-ok",
		"gpu01 type=X86_64 model=EPYC7543 ncpus=64 maxmem=515276.8 maxswp=32768 cpuf=70 resources=gpu,ssd load=it:300,ls:0,mem:307200,pg:0.1,r15m:7.9,r15s:8,r1m:8.1,swp:32768,tmp:358400,ut:0.13",
		"big01 type=X86_64 model=XeonPlat8380 ncpus=80 maxmem=2.097152e+06 maxswp=65536 cpuf=75 resources=bigmem,ssd load=it:900,ls:0,mem:1.2582912e+06,pg:0,r15m:4,r15s:4,r1m:4.2,swp:65536,tmp:921600,ut:0.05 status=lockU",
		"pwr01 type=LINUXPPC64 model=POWER9 cpuf=50 status=unavail",
		"arm01 type=AARCH64 model=NeoverseN1 ncpus=80 maxmem=257331.2 cpuf=40 resources=ssd exclusive=ssd load=it:4000,ls:0,mem:256102.4,pg:0,r15m:0,r15s:0,r1m:0,swp:0,tmp:194560,ut:0",
		"login01 type=X86_64 model=XeonGold6248 ncpus=16 maxmem=64000 maxswp=8192 cpuf=60 server=false load=it:0,ls:5,mem:42700.8,pg:0,r15m:0.2,r15s:0.1,r1m:0.2,swp:8089.6,tmp:2391,ut:0.03",
	}
	if d := invDiff(want, invSummaries(inv)); d != "" {
		t.Errorf("hosts mismatch (-want +got):\n%s", d)
	}
	if h := inv.Host("gpu01"); h.Span.Text() != "gpu01" || h.Span.Path() != "lshosts" || h.Span.StartPos().Line != 6 {
		t.Errorf("gpu01 span = %q in %s at line %d", h.Span.Text(), h.Span.Path(), h.Span.StartPos().Line)
	}

	// Without lsload every host is ok with no load.
	inv, ds = invReadLS(t, read("lshosts.txt"), "")
	if len(ds) > 0 || len(inv.Hosts) != 9 {
		t.Fatalf("%d hosts, diagnostics:\n%s", len(inv.Hosts), strings.Join(invRenderPaths(ds), "\n"))
	}
	for _, h := range inv.Hosts {
		if h.Status != "ok" || len(h.Load) != 0 || h.Slots != -1 || h.MaxSlots != -1 {
			t.Errorf("without lsload: %s", invSummary(h))
		}
	}
}

func TestReadLSHostsColumns(t *testing.T) {
	// A header with the nprocs, ncores, nthreads and maxtmp columns, in
	// another order and case, and lsload -l with io and a site index.
	lshosts := "HOST_NAME  type   model  cpuf  ncpus nprocs ncores nthreads maxmem maxswp maxtmp server RESOURCES\n" +
		"hostA      X86_64 PC6000 116.1     32      2      8        2 251.7G     4G   120G    Dyn (mg fs)\n" +
		"hostB      X86_64 PC6000 116.1      -      -      -        -      -      -      -     No ()\n" +
		"\n" +
		"HOST_NAME RESOURCES server type\n" +
		"hostC     (rack=r02 ngpus=4 !cs) yes LINUX\n"
	lsload := "HOST_NAME status  r15s   r1m  r15m   ut    pg    io  ls    it   tmp   swp   mem  scratch\n" +
		"hostA         ok   0.0   0.1   0.2  12%   0.0   148   2     3 4231M  698M  233M     900\n" +
		"hostC     unlicensed\n"
	inv, ds := invReadLS(t, lshosts, lsload)
	if len(ds) > 0 {
		t.Fatalf("diagnostics:\n%s", strings.Join(invRenderPaths(ds), "\n"))
	}
	want := []string{
		"hostA type=X86_64 model=PC6000 ncpus=32 ncores=8 nthreads=2 nprocs=2 maxmem=257740.8 maxswp=4096 maxtmp=122880 cpuf=116.1 resources=fs,mg load=io:148,it:3,ls:2,mem:233,pg:0,r15m:0.2,r15s:0,r1m:0.1,scratch:900,swp:698,tmp:4231,ut:0.12",
		"hostB model=PC6000 cpuf=116.1 server=false type=X86_64",
		"hostC type=LINUX resources=cs exclusive=cs numbers=ngpus:4 strings=rack:r02 status=unlicensed",
	}
	// invSummary prints type before model; hostB has both.
	want[1] = "hostB type=X86_64 model=PC6000 cpuf=116.1 server=false"
	if d := invDiff(want, invSummaries(inv)); d != "" {
		t.Errorf("hosts mismatch (-want +got):\n%s", d)
	}
}

// invLSCases are lshosts and lsload outputs with mistakes and the
// diagnostics they give.
var invLSCases = []struct {
	name            string
	lshosts, lsload string
	want            []string
}{
	{"empty lshosts", "", "", []string{
		"lshosts:1:1: error: lshosts does not start with the lshosts header line \"HOST_NAME type model cpuf ...\" [LSF420] «»",
	}},
	{"no lshosts header", "hostA X86_64 PC6000 60.0 4 8G 2G Yes ()\n", "", []string{
		"lshosts:1:1: error: lshosts does not start with the lshosts header line \"HOST_NAME type model cpuf ...\" [LSF420] «hostA X86_64 PC6000 60.0 4 8G 2G Yes ()»",
	}},
	{"unknown and repeated columns", "HOST_NAME type ndisks TYPE RESOURCES\nhostA X86_64 2 LINUX (fs)\n", "", []string{
		"lshosts:1:16: warning: unknown column \"ndisks\" in lshosts output; its values are ignored [LSF421] «ndisks»",
		"lshosts:1:23: error: column \"TYPE\" appears twice in the lshosts header; the second is ignored [LSF420] «TYPE»",
		"  note lshosts:1:11: \"type\" is first here",
	}},
	{"row too short", "HOST_NAME type model cpuf ncpus maxmem maxswp server RESOURCES\nhostA X86_64 PC6000 60.0 4 8G\n", "", []string{
		"lshosts:2:1: error: lshosts row has 6 values but the header has 9 columns; the row is ignored [LSF420] «hostA X86_64 PC6000 60.0 4 8G»",
	}},
	{"row too long without RESOURCES", "HOST_NAME type model\nhostA X86_64 PC6000 extra\n", "", []string{
		"lshosts:2:1: error: lshosts row has 4 values but the header has 3 columns; the row is ignored [LSF420] «hostA X86_64 PC6000 extra»",
	}},
	{"bad cells", "HOST_NAME type model cpuf ncpus maxmem maxswp server RESOURCES\nhostA X86_64 PC6000 fast 4x 8Q -2G maybe fs\n", "", []string{
		"lshosts:2:21: error: cpuf of host \"hostA\" must be a number, not \"fast\" [LSF420] «fast»",
		"lshosts:2:26: error: ncpus of host \"hostA\" must be a number, not \"4x\" [LSF420] «4x»",
		"lshosts:2:29: error: maxmem of host \"hostA\": unknown unit \"Q\" in memory amount \"8Q\" (want K, M, G, T, P, E or Z, optionally followed by B) [LSF420] «8Q»",
		"lshosts:2:32: error: maxswp of host \"hostA\": negative memory amount \"-2G\" [LSF420] «-2G»",
		"lshosts:2:36: error: server of host \"hostA\" must be Yes, No or Dyn, not \"maybe\" [LSF420] «maybe»",
		"lshosts:2:42: error: RESOURCES of host \"hostA\" must be in parentheses, like \"(fs ssd)\", not \"fs\" [LSF420] «fs»",
	}},
	{"bad resources", "HOST_NAME type RESOURCES\nhostA X86_64 (fs 9x a-b ok)\nhostB X86_64 (\nhostC X86_64 fs)\nhostD (a b) ()\n", "", []string{
		"lshosts:2:18: warning: resource \"9x\" of host \"hostA\" starts with a digit; it is ignored [LSF421] «9x»",
		"lshosts:2:21: warning: resource \"a-b\" of host \"hostA\" holds a character LSF does not allow in resource names; it is ignored [LSF421] «a-b»",
		"lshosts:3:14: error: RESOURCES of host \"hostB\" must be in parentheses, like \"(fs ssd)\", not \"(\" [LSF420] «(»",
		"lshosts:4:14: error: RESOURCES of host \"hostC\" must be in parentheses, like \"(fs ssd)\", not \"fs)\" [LSF420] «fs)»",
		"lshosts:5:7: error: type of host \"hostD\" must be one word, not \"(a b)\" [LSF420] «(a b)»",
	}},
	{"duplicate host", "HOST_NAME type\nhostA X86_64\nhostB X86_64\nhostA LINUX\n", "", []string{
		"lshosts:4:1: error: host \"hostA\" is defined twice; the second definition is ignored [LSF420] «hostA»",
		"  note lshosts:2:1: host \"hostA\" is first defined here",
	}},
	{"no lsload header", "HOST_NAME type\nhostA X86_64\n", "hostA ok 0.0\n", []string{
		"lsload:1:1: error: lsload does not start with the lsload header line \"HOST_NAME status r15s ...\" [LSF420] «hostA ok 0.0»",
	}},
	{"lsload without status", "HOST_NAME type\nhostA X86_64\n", "HOST_NAME r15s status\nhostA 0.0 ok\n", []string{
		"lsload:1:1: error: lsload does not start with the lsload header line \"HOST_NAME status r15s ...\" [LSF420] «HOST_NAME r15s status»",
	}},
	{"lsload host not in lshosts", "HOST_NAME type\nhostA X86_64\n", "HOST_NAME status r1m\nhostA ok 0.5\nhostZ ok 0.1\n", []string{
		"lsload:3:1: warning: host \"hostZ\" is in lsload but not in the lshosts output; its load is ignored [LSF421] «hostZ»",
	}},
	{"lsload duplicate row", "HOST_NAME type\nhostA X86_64\n", "HOST_NAME status r1m\nhostA ok 0.5\nhostA busy 0.1\n", []string{
		"lsload:3:1: error: host \"hostA\" appears twice in lsload; the second row is ignored [LSF420] «hostA»",
		"  note lsload:2:1: host \"hostA\" is first here",
	}},
	{"lsload bad cells", "HOST_NAME type\nhostA X86_64\n", "HOST_NAME status r15s r1m ut mem swp it io\nhostA down -1.5 -0.0 x% 6Q - 1.2.3 *7\n", []string{
		"lsload:2:7: warning: unknown status \"down\" of host \"hostA\" [LSF421] «down»",
		"lsload:2:12: error: load index r15s of host \"hostA\" must not be negative, not \"-1.5\" [LSF420] «-1.5»",
		"lsload:2:22: error: load index ut of host \"hostA\" must be a percentage like 35%, not \"x%\" [LSF420] «x%»",
		"lsload:2:25: error: load index mem of host \"hostA\": unknown unit \"Q\" in memory amount \"6Q\" (want K, M, G, T, P, E or Z, optionally followed by B) [LSF420] «6Q»",
		"lsload:2:30: error: load index it of host \"hostA\" must be a number, not \"1.2.3\" [LSF420] «1.2.3»",
	}},
	{"lsload row length", "HOST_NAME type\nhostA X86_64\nhostB X86_64\n", "HOST_NAME status r15s r1m\nhostA ok 0.1\nhostB ok 0.1 0.2 0.3\n", []string{
		"lsload:2:1: error: lsload row has 3 values but the header has 4 columns; the row is ignored [LSF420] «hostA ok 0.1»",
		"lsload:3:1: error: lsload row has 5 values but the header has 4 columns; the row is ignored [LSF420] «hostB ok 0.1 0.2 0.3»",
	}},
	{"lsload columns", "HOST_NAME type\nhostA X86_64\n", "HOST_NAME status swap CPU 2x status\nhostA ok 1G 0.5 3 ok\n", []string{
		"lsload:1:27: warning: unknown column \"2x\" in lsload output; its values are ignored [LSF421] «2x»",
		"lsload:1:30: error: column \"status\" appears twice in the lsload header; the second is ignored [LSF420] «status»",
		"  note lsload:1:11: \"status\" is first here",
	}},
	{"free more than max", "HOST_NAME maxmem maxswp\nhostA 8G 1G\n", "HOST_NAME status mem swp\nhostA ok 9G 1G\n", []string{
		"lsload:2:10: warning: free mem of host \"hostA\" (9G) is more than its maxmem (8G) [LSF421] «9G»",
		"  note lshosts:2:7: maxmem of host \"hostA\" is given here",
	}},
}

func TestReadLSHostsDiagnostics(t *testing.T) {
	for _, tc := range invLSCases {
		t.Run(tc.name, func(t *testing.T) {
			_, ds := invReadLS(t, tc.lshosts, tc.lsload)
			got := invRenderPaths(ds)
			if d := invDiff(tc.want, got); d != "" {
				var b strings.Builder
				for _, l := range got {
					fmt.Fprintf(&b, "\t\t%q,\n", l)
				}
				t.Errorf("diagnostics mismatch (-want +got):\n%sgot:\n%s", d, b.String())
			}
		})
	}
}

func TestReadLSHostsLimits(t *testing.T) {
	inv, ds := inventory.ReadLSHosts(nil, lang.NewSource("lsload", "HOST_NAME status\n"), compile.MB)
	if inv == nil || len(inv.Hosts) != 0 || len(ds) != 0 {
		t.Errorf("nil lshosts: %v, %v", inv, ds)
	}
	big := lang.NewSource("lshosts", strings.Repeat(" ", inventory.MaxBytes+1))
	inv, ds = inventory.ReadLSHosts(big, lang.NewSource("lsload", "x"), compile.MB)
	want := []string{"lshosts:1:1: error: lshosts is 67108865 bytes, more than the limit of 64 MiB [LSF420] «»"}
	if d := invDiff(want, invRenderPaths(ds)); d != "" || len(inv.Hosts) != 0 {
		t.Errorf("diagnostics mismatch (-want +got):\n%s", d)
	}
	var b strings.Builder
	b.WriteString("HOST_NAME ncpus\n")
	for i := range inventory.MaxHosts + 2 {
		fmt.Fprintf(&b, "h%d 4\n", i)
	}
	inv, ds = invReadLS(t, b.String(), "")
	want = []string{"lshosts:100002:1: error: lshosts lists more than 100000 hosts; the rest are not read [LSF420] «h100000 4»"}
	if d := invDiff(want, invRenderPaths(ds)); d != "" || len(inv.Hosts) != inventory.MaxHosts {
		t.Errorf("%d hosts; diagnostics mismatch (-want +got):\n%s", len(inv.Hosts), d)
	}
}

// FuzzReadLSHosts checks ReadLSHosts on any pair of outputs: no panic,
// every span inside its input, rendering never fails.
func FuzzReadLSHosts(f *testing.F) {
	lshosts, _ := os.ReadFile(filepath.Join("..", "..", "testdata", "hosts", "lshosts.txt"))
	lsload, _ := os.ReadFile(filepath.Join("..", "..", "testdata", "hosts", "lsload.txt"))
	f.Add(string(lshosts), string(lsload))
	for _, tc := range invLSCases {
		f.Add(tc.lshosts, tc.lsload)
	}
	f.Fuzz(func(t *testing.T, lshosts, lsload string) {
		inv, ds := inventory.ReadLSHosts(lang.NewSource("lshosts", lshosts), lang.NewSource("lsload", lsload), compile.GB)
		invCheckSpans(t, inv, ds)
		if err := ds.WriteText(io.Discard); err != nil {
			t.Fatal(err)
		}
		for _, h := range inv.Hosts {
			if h.Name == "" || inv.Host(h.Name) != h {
				t.Fatalf("host %q empty or repeated", h.Name)
			}
		}
	})
}
