package lang_test

import (
	"testing"

	"github.com/lsfc/lsfc/lang"
)

func TestSourcePos(t *testing.T) {
	src := lang.NewSource("f", "ab\ncé\r\n\nxyz")
	tests := []struct {
		off        int
		line, col  int
		wantOffset int
	}{
		{0, 1, 1, 0},
		{2, 1, 3, 2},
		{3, 2, 1, 3},
		{6, 2, 3, 6}, // after the two-byte é
		{8, 3, 1, 8},
		{9, 4, 1, 9},
		{12, 4, 4, 12},
		{99, 4, 4, 12}, // clamped
	}
	for _, tt := range tests {
		p := src.Pos(tt.off)
		if p.Line != tt.line || p.Col != tt.col || p.Offset != tt.wantOffset {
			t.Errorf("Pos(%d) = %+v, want line %d col %d offset %d", tt.off, p, tt.line, tt.col, tt.wantOffset)
		}
	}
	if got := src.Line(2); got != "cé" {
		t.Errorf("Line(2) = %q, want %q", got, "cé")
	}
	if got := src.Line(5); got != "" {
		t.Errorf("Line(5) = %q, want empty", got)
	}
}

func TestDeriveMapsToRoot(t *testing.T) {
	// "ab\" + newline + "cd" joined as "abcd": offsets 0-1 map to 0-1, 2-3
	// to 4-5.
	root := lang.NewSource("f", "ab\\\ncd")
	d := root.Derive("abcd", []lang.Segment{{Off: 0, ParentOff: 0}, {Off: 2, ParentOff: 4}})
	tests := []struct {
		start, end         int
		rootStart, rootEnd int
	}{
		{0, 2, 0, 2},
		{2, 4, 4, 6},
		{1, 3, 1, 5},
		{3, 3, 5, 5},
	}
	for _, tt := range tests {
		r := d.SpanOf(tt.start, tt.end).Root()
		if r.Src != root || r.Start != tt.rootStart || r.End != tt.rootEnd {
			t.Errorf("Root(%d,%d) = %d,%d, want %d,%d", tt.start, tt.end, r.Start, r.End, tt.rootStart, tt.rootEnd)
		}
	}
}

// TestValueSourceMapsIntoFile checks that an offset inside a value read
// over continued lines resolves to the right line and column of the file:
// this is how an error inside a RES_REQ points at file:line:col.
func TestValueSourceMapsIntoFile(t *testing.T) {
	text := "Begin Queue\nQUEUE_NAME = q\nRES_REQ = select[mem>1] \\\n    order[r15s]\nEnd Queue\n"
	f, diags := lang.ParseConfig(lang.NewSource("lsb.queues", text), lang.KindLSBQueues)
	if len(diags) != 0 {
		t.Fatalf("unexpected diagnostics: %v", diags)
	}
	sec := f.Items[0].(*lang.Section)
	v := sec.Assigns[1].Value
	if want := "select[mem>1]     order[r15s]"; v.Text != want {
		t.Fatalf("value = %q, want %q", v.Text, want)
	}
	i := len("select[mem>1]     ")
	p := v.Src.SpanOf(i, i+5).StartPos()
	if p.Line != 4 || p.Col != 5 {
		t.Errorf("order[ resolves to %d:%d, want 4:5", p.Line, p.Col)
	}
	if p := v.Src.SpanOf(7, 10).StartPos(); p.Line != 3 || p.Col != 18 {
		t.Errorf("mem resolves to %d:%d, want 3:18", p.Line, p.Col)
	}
}

func TestValueRules(t *testing.T) {
	tests := []struct {
		name, kind, text string
		want             string
	}{
		{"batch joins continued lines directly", "lsb.queues", "Begin Queue\nD = a\\\nb\nEnd Queue\n", "ab"},
		{"base joins continued lines with a blank", "lsf.cluster.x", "Begin Parameters\nD = a\\\nb\nEnd Parameters\n", "a b"},
		{"batch cuts at # inside quotes", "lsb.queues", "Begin Queue\nD = echo \"a#b\"\nEnd Queue\n", `echo "a`},
		{"base keeps # inside quotes", "lsf.cluster.x", "Begin Parameters\nD = \"a#b\" # c\nEnd Parameters\n", `"a#b"`},
		{"batch drops backslash and blank", "lsb.queues", "Begin Queue\nD = a\\ b\nEnd Queue\n", "ab"},
		{"base drops only the backslash", "lsf.cluster.x", "Begin Parameters\nD = a\\ b\nEnd Parameters\n", "a b"},
		{"backslash before a letter stays", "lsb.queues", "Begin Queue\nD = C:\\dir\nEnd Queue\n", `C:\dir`},
		{"tabs read as blanks", "lsb.queues", "Begin Queue\nD =\ta\tb\nEnd Queue\n", "a b"},
		{"comment on a continued line ends it", "lsb.queues", "Begin Queue\nD = a # c \\\nE = b\nEnd Queue\n", "a"},
		{"CRLF line endings", "lsb.queues", "Begin Queue\r\nD = a b\r\nEnd Queue\r\n", "a b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, diags := lang.ParseConfig(lang.NewSource(tt.kind, tt.text), lang.KindOf(tt.kind))
			if diags.HasErrors() {
				t.Fatalf("unexpected errors: %v", diags.Err())
			}
			sec := f.Items[0].(*lang.Section)
			if got := sec.Assigns[0].Value.Text; got != tt.want {
				t.Errorf("value = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestConfValues(t *testing.T) {
	text := "A=plain\nB=\"quoted value\"\nC=\nD='single'\n"
	f, diags := lang.ParseConfig(lang.NewSource("lsf.conf", text), lang.KindLSFConf)
	if len(diags) != 0 {
		t.Fatalf("unexpected diagnostics: %v", diags)
	}
	want := []struct {
		key, text string
		quote     byte
	}{{"A", "plain", 0}, {"B", "quoted value", '"'}, {"C", "", 0}, {"D", "'single'", 0}}
	for i, w := range want {
		a := f.Items[i].(*lang.Assignment)
		if a.Key.Text != w.key || a.Value.Text != w.text || a.Value.Quote != w.quote {
			t.Errorf("item %d = %s=%q (quote %q), want %s=%q (quote %q)", i, a.Key.Text, a.Value.Text, a.Value.Quote, w.key, w.text, w.quote)
		}
	}
}

func TestCells(t *testing.T) {
	text := "Begin ResourceMap\nRESOURCENAME LOCATION\nngpus (4@[h1 h2] 2@[h3])\nscratch [default]\nlic -\nEnd ResourceMap\n"
	f, diags := lang.ParseConfig(lang.NewSource("lsf.cluster.x", text), lang.KindLSFCluster)
	if len(diags) != 0 {
		t.Fatalf("unexpected diagnostics: %v", diags)
	}
	sec := f.Items[0].(*lang.Section)
	if sec.Form != lang.FormTable || len(sec.Rows) != 3 {
		t.Fatalf("form %v with %d rows, want a table of 3 rows", sec.Form, len(sec.Rows))
	}
	if c := sec.Rows[0].Cells[1]; c.Text != "(4@[h1 h2] 2@[h3])" || c.Inner() != "4@[h1 h2] 2@[h3]" {
		t.Errorf("cell = %q inner %q", c.Text, c.Inner())
	}
	if !sec.Rows[2].Cells[1].IsEmpty() || sec.Rows[1].Cells[1].IsEmpty() {
		t.Errorf("IsEmpty wrong for %q / %q", sec.Rows[2].Cells[1].Text, sec.Rows[1].Cells[1].Text)
	}
}

func TestBranches(t *testing.T) {
	text := "Begin Queue\nQUEUE_NAME = night\n#if time(18:00-8:00)\nPRIORITY = 50\n#else\nPRIORITY = 20\n#endif\nNICE = 5\nEnd Queue\n"
	f, diags := lang.ParseConfig(lang.NewSource("lsb.queues", text), lang.KindLSBQueues)
	if len(diags) != 0 {
		t.Fatalf("unexpected diagnostics: %v", diags)
	}
	a := f.Items[0].(*lang.Section).Assigns
	if a[0].Branch != nil || a[3].Branch != nil {
		t.Errorf("lines outside #if have a branch")
	}
	b1, b2 := a[1].Branch, a[2].Branch
	if b1 == nil || b2 == nil || b1.If != b2.If || b1.Open.Kind != lang.DirIf || b2.Open.Kind != lang.DirElse {
		t.Fatalf("branches wrong: %+v %+v", b1, b2)
	}
	if b1.If.Arg.Text != "time(18:00-8:00)" {
		t.Errorf("condition = %q", b1.If.Arg.Text)
	}
}

func TestKindOf(t *testing.T) {
	tests := map[string]lang.FileKind{
		"/etc/lsf/lsf.conf":          lang.KindLSFConf,
		"lsf.cluster.demo":           lang.KindLSFCluster,
		"config/lsf.cluster.in":      lang.KindLSFCluster,
		"lsb.queues.in":              lang.KindLSBQueues,
		"lsb.hosts.erb":              lang.KindLSBHosts,
		"llb.queues":                 lang.KindLSBQueues,
		"ll.conf":                    lang.KindLSFConf,
		"lsb.serviceclasses":         lang.KindLSBServiceClasses,
		"lsb.globalpolicies":         lang.KindLSBOther,
		"lsb.events":                 lang.KindUnknown,
		"README":                     lang.KindUnknown,
		"lsf.task":                   lang.KindLSFTask,
		"lsf.shared":                 lang.KindLSFShared,
		"x/lsb.applications":         lang.KindLSBApplications,
		"lsb.resources.sample":       lang.KindLSBResources,
		"/opt/lsf/conf/lsb.users.in": lang.KindLSBUsers,
	}
	for name, want := range tests {
		if got := lang.KindOf(name); got != want {
			t.Errorf("KindOf(%q) = %v, want %v", name, got, want)
		}
	}
	if got := lang.SniffKind("# x\nBegin Queue\n"); got != lang.KindLSBQueues {
		t.Errorf("SniffKind(queue) = %v", got)
	}
	if got := lang.SniffKind("\nLSF_CONFDIR=/x\n"); got != lang.KindLSFConf {
		t.Errorf("SniffKind(conf) = %v", got)
	}
}

func TestDiagnosticsErr(t *testing.T) {
	var ds lang.Diagnostics
	if ds.Err() != nil {
		t.Error("Err of an empty list is not nil")
	}
	src := lang.NewSource("f", "x")
	ds.Add(lang.Warning, "LSF111", src.SpanOf(0, 1), "w")
	if ds.Err() != nil {
		t.Error("Err with only warnings is not nil")
	}
	ds.Add(lang.Error, "LSF109", src.SpanOf(0, 1), "first")
	ds.Add(lang.Error, "LSF109", src.SpanOf(0, 1), "second")
	if got, want := ds.Err().Error(), "f:1:1: error: first [LSF109] (and 1 more errors)"; got != want {
		t.Errorf("Err() = %q, want %q", got, want)
	}
}
