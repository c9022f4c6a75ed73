package compile_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/lang"
	"golang.org/x/tools/txtar"
)

// loadSynthetic writes testkit.Synthetic(queues, hosts) to a directory and loads it.
func loadSynthetic(tb testing.TB, queues, hosts int) *compile.Tree {
	tb.Helper()
	return loadFiles(tb, testkit.Synthetic(queues, hosts))
}

// loadFiles writes files (paths relative to the tree's root) to a
// directory and loads it.
func loadFiles(tb testing.TB, files map[string]string) *compile.Tree {
	tb.Helper()
	dir := tb.TempDir()
	if err := testkit.WriteTree(dir, files); err != nil {
		tb.Fatal(err)
	}
	tree, _, err := compile.Load([]string{dir}, compile.LoadOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	return tree
}

// TestCompileDemo compiles the bundled demo tree: no diagnostic, the
// policy holds what the files say, and its JSON form is the golden's.
func TestCompileDemo(t *testing.T) {
	tree, _, err := compile.Load([]string{filepath.Join("..", "testdata", "clusters", "demo")}, compile.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p, diags := compile.Compile(tree, compile.Options{})
	for _, d := range diags {
		t.Errorf("demo: %v", d)
	}
	if p.Cluster != "demo" || len(p.Queues) == 0 || len(p.Hosts) == 0 || len(p.HostGroups) == 0 {
		t.Fatalf("demo policy is missing parts: cluster %q, %d queues, %d hosts, %d groups", p.Cluster, len(p.Queues), len(p.Hosts), len(p.HostGroups))
	}
	normal := p.Queue("normal")
	if normal == nil || normal.Priority != 30 || normal.ResReq == nil || normal.Thresholds["r1m"].Sched == nil || *normal.Thresholds["r1m"].Sched != 0.7 {
		t.Errorf("queue normal: %+v", normal)
	}
	if idle := p.Queue("idle"); idle == nil || idle.Preemption == nil || !idle.Preemption.Preemptable || len(idle.RunWindow) != 1 {
		t.Errorf("queue idle: %+v", idle)
	}
	for _, q := range p.Queues {
		if len(q.HostNames) == 0 {
			t.Errorf("queue %s resolves to no host", q.Name)
		}
	}
	chem, phys := p.Queue("chem"), p.Queue("phys")
	if chem == nil || phys == nil || chem.SlotPool != "science" || strings.Join(chem.HostNames, " ") != strings.Join(phys.HostNames, " ") {
		t.Errorf("slot pool science: chem %+v phys %+v", chem, phys)
	}
	for _, h := range p.Hosts {
		if h.BatchRow == "" {
			t.Errorf("host %s has no lsb.hosts row", h.Name)
		}
	}
	// The whole policy, as lsfc compile writes it, against its golden
	// (go test -update rewrites it; review the diff).
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	testkit.CheckFile(t, filepath.Join("testdata", "demo.policy.json"), string(b)+"\n")
}

// TestCompileSynthetic compiles a generated tree: it must be clean, and
// every queue's hosts resolved.
func TestCompileSynthetic(t *testing.T) {
	tree := loadSynthetic(t, 200, 2000)
	p, diags := compile.Compile(tree, compile.Options{})
	for _, d := range diags {
		t.Errorf("synthetic: %v", d)
	}
	if len(p.Queues) != 200 || len(p.Hosts) != 2000 || len(p.HostGroups) != 20 {
		t.Fatalf("%d queues, %d hosts, %d groups", len(p.Queues), len(p.Hosts), len(p.HostGroups))
	}
	for _, q := range p.Queues {
		if len(q.HostNames) != 200 {
			t.Errorf("queue %s: %d hosts, want 200", q.Name, len(q.HostNames))
		}
	}
}

// TestCompileDeterministic compiles the same tree twice: the diagnostics
// and the JSON form are byte-identical.
func TestCompileDeterministic(t *testing.T) {
	tree := loadSynthetic(t, 50, 500)
	var outs []string
	for range 2 {
		p, diags := compile.Compile(tree, compile.Options{Dialect: compile.Openlava})
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		var w strings.Builder
		diags.WriteText(&w)
		outs = append(outs, w.String()+string(b))
	}
	if outs[0] != outs[1] {
		t.Error("two compilations of one tree differ")
	}
}

// TestCompileDiagnosticsInFiles checks that every diagnostic of a broken
// tree lies inside one of its files.
func TestCompileDiagnosticsInFiles(t *testing.T) {
	files := testkit.Synthetic(5, 20)
	files["lsbatch/synth/configdir/lsb.queues"] += "Begin Queue\nQUEUE_NAME = q0001\nEnd Queue\n" +
		"Begin Queue\nQUEUE_NAME = extra\nHOSTS = nohost\nPREEMPTION = PREEMPTIVE[x]\nRES_REQ = select[nores > 1]\nEnd Queue\n"
	tree := loadFiles(t, files)
	_, diags := compile.Compile(tree, compile.Options{})
	if len(diags) < 4 {
		t.Fatalf("want the duplicate, the host, the queue and the resource reported, got %v", diags)
	}
	checkInFiles(t, tree, diags)
}

// checkInFiles fails when a diagnostic (or a related note) does not lie
// inside one of the tree's files.
func checkInFiles(t *testing.T, tree *compile.Tree, diags lang.Diagnostics) {
	t.Helper()
	sources := map[*lang.Source]bool{}
	for _, f := range tree.Files {
		sources[f.Src] = true
	}
	in := func(sp lang.Span) bool {
		r := sp.Root()
		return r.Src != nil && sources[r.Src] && 0 <= r.Start && r.Start <= r.End && r.End <= len(r.Src.Text)
	}
	for _, d := range diags {
		if !in(d.Span) {
			t.Errorf("diagnostic outside the files: %v", d)
		}
		for _, r := range d.Related {
			if !in(r.Span) {
				t.Errorf("related note outside the files: %v: %s", d, r.Message)
			}
		}
		if d.Fix != nil {
			for _, e := range d.Fix.Edits {
				if !in(e.Span) {
					t.Errorf("fix outside the files: %v", d)
				}
			}
		}
	}
}

// BenchmarkCompileSynthetic compiles a loaded tree of 2,000 queues and
// 20,000 hosts (Load excluded).
func BenchmarkCompileSynthetic(b *testing.B) {
	tree := loadSynthetic(b, 2000, 20000)
	b.ReportAllocs()
	for b.Loop() {
		_, diags := compile.Compile(tree, compile.Options{})
		if len(diags) != 0 {
			b.Fatal(diags[0])
		}
	}
}

// BenchmarkLoadCompileSynthetic finds, parses and compiles the same tree
// from disk: what lsfc check does.
func BenchmarkLoadCompileSynthetic(b *testing.B) {
	dir := b.TempDir()
	if err := testkit.WriteTree(dir, testkit.Synthetic(2000, 20000)); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		tree, _, err := compile.Load([]string{dir}, compile.LoadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if _, diags := compile.Compile(tree, compile.Options{}); len(diags) != 0 {
			b.Fatal(diags[0])
		}
	}
}

// TestHostilePatterns gives host groups members whose naive expansion
// would take exponential time or billions of steps: a wildcard of many
// stars that fails late, and a range of a billion numbers. Both resolve
// to the hosts that match.
func TestHostilePatterns(t *testing.T) {
	files := testkit.Synthetic(2, 2000)
	files["lsbatch/synth/configdir/lsb.hosts"] += "Begin HostGroup\nGROUP_NAME GROUP_MEMBER\n" +
		"stars (h*0*0*0*0*0*0*0*0*0*0*0*0*0*0*0*0*0*0*0*0*0*0*x)\n" +
		"huge (h[0-999999999])\n" +
		"padded (h[00005-00007,01999])\n" +
		"digits (h[0-99999][0-99999][0-99999][0-99999][0-99999][0-99999][0-99999][0-99999]x)\n" +
		"End HostGroup\n"
	var b strings.Builder
	b.WriteString("Begin HostGroup\nGROUP_NAME GROUP_MEMBER\n")
	for i := range 500 {
		fmt.Fprintf(&b, "allbut%d (all ~h%05d)\n", i, i)
	}
	b.WriteString("End HostGroup\n\nBegin Host\nHOST_NAME MXJ\n")
	for i := range 300 {
		fmt.Fprintf(&b, "nohost%d 1\n", i)
	}
	b.WriteString("allbut1 2\nEnd Host\n")
	files["lsbatch/synth/configdir/lsb.hosts"] += b.String()
	tree := loadFiles(t, files)
	p, diags := compile.Compile(tree, compile.Options{})
	got := map[string]int{}
	for _, g := range p.HostGroups {
		got[g.Name] = len(g.Hosts)
	}
	if got["stars"] != 0 || got["huge"] != 0 || got["padded"] != 4 || got["digits"] != 0 || got["allbut7"] != 1999 {
		t.Errorf("group sizes %v; want stars 0, huge 0 (names are zero-padded), padded 4, digits 0, allbut7 1999", got)
	}
	counts := map[lang.Code]int{}
	for _, d := range diags {
		counts[d.Code]++
	}
	if counts[compile.CodeUnknownHost] != 303 || len(diags) != 303 {
		t.Errorf("want a finding for each pattern matching no host and each unknown row (303), got %v", counts)
	}
}

// compileArchive compiles the files of a txtar text, named as LSF names
// them.
func compileArchive(t *testing.T, text string) (*compile.Policy, lang.Diagnostics) {
	t.Helper()
	tree, opts := testkit.ArchiveTree(t, txtar.Parse([]byte(text)), true)
	return compile.Compile(tree, opts)
}

// TestBatchRowPrecedence gives each host the lsb.hosts row LSF applies:
// its own row, else a range or wildcard row, else a group row, else its
// model's or type's, else default — whatever the order of the rows.
func TestBatchRowPrecedence(t *testing.T) {
	p, diags := compileArchive(t, `
-- lsf.shared --
Begin HostModel
MODELNAME  CPUFACTOR  ARCHITECTURE
Xeon       100        (x86_64)
End HostModel
-- lsf.cluster.test --
Begin Host
HOSTNAME  model  type  server  RESOURCES
hostA     Xeon   !     1       ()
hostB     Xeon   !     1       ()
node1     Xeon   !     1       ()
node2     Xeon   !     1       ()
other     Xeon   !     1       ()
End Host
-- lsb.hosts --
Begin Host
HOST_NAME  MXJ
host*      2
hostB      3
node[1-2]  4
grp        5
Xeon       6
default    7
End Host

Begin HostGroup
GROUP_NAME  GROUP_MEMBER
grp         (node2 other)
End HostGroup
`)
	for _, d := range diags {
		t.Errorf("unexpected: %v", d)
	}
	want := map[string]string{"hostA": "host*", "hostB": "hostB", "node1": "node[1-2]", "node2": "node[1-2]", "other": "grp"}
	for _, h := range p.Hosts {
		if h.BatchRow != want[h.Name] {
			t.Errorf("host %s: row %q, want %q", h.Name, h.BatchRow, want[h.Name])
		}
	}
}

// TestIfAlternatives keeps the value outside #if as the setting and the
// #if arms as alternatives, each with its condition.
func TestIfAlternatives(t *testing.T) {
	p, _ := compileArchive(t, `
-- lsb.queues --
Begin Queue
QUEUE_NAME = night
#if time(18:00-8:00)
PRIORITY   = 40
#else
PRIORITY   = 30
#endif
PRIORITY   = 20
End Queue
`)
	q := p.Queue("night")
	st := q.Settings["PRIORITY"]
	if q.Priority != 20 || st.When != "" || len(st.Alternatives) != 2 {
		t.Fatalf("priority %d, setting %+v", q.Priority, st)
	}
	for _, alt := range st.Alternatives {
		if !strings.HasPrefix(alt.When, "#if time(18:00-8:00)") && !strings.HasPrefix(alt.When, "#else") {
			t.Errorf("alternative %v has condition %q", alt.Value, alt.When)
		}
	}
}

// TestPoolHostsSorted compares the hosts of pool queues written as a
// range and as a group: the same hosts, whatever the order of expansion.
func TestPoolHostsSorted(t *testing.T) {
	p, diags := compileArchive(t, `
-- lsf.cluster.test --
Begin Host
HOSTNAME  model  type  server  RESOURCES
h9        !      !     1       ()
h10       !      !     1       ()
h11       !      !     1       ()
End Host
-- lsb.hosts --
Begin HostGroup
GROUP_NAME  GROUP_MEMBER
grp         (h[9-11])
End HostGroup
-- lsb.queues --
Begin Queue
QUEUE_NAME = a
HOSTS      = h[9-11]
SLOT_POOL  = p
SLOT_SHARE = 50
End Queue

Begin Queue
QUEUE_NAME = b
HOSTS      = grp
SLOT_POOL  = p
SLOT_SHARE = 50
End Queue
`)
	for _, d := range diags {
		t.Errorf("unexpected: %v", d)
	}
	if got := strings.Join(p.Queue("a").HostNames, " "); got != "h10 h11 h9" {
		t.Errorf("hostNames %q are not sorted", got)
	}
}
