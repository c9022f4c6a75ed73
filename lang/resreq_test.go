package lang_test

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/lang"
	"golang.org/x/tools/txtar"
)

// resreqCorpus returns the strings of ../shared/corpus/resreq: real.txt
// (one per line) and documented.tsv (first column), with their line.
func resreqCorpus(t testing.TB) map[string]string {
	dir := corpusDir(t, "resreq")
	out := map[string]string{}
	for _, name := range []string{"real.txt", "documented.tsv"} {
		f, err := os.Open(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		n := 0
		for sc.Scan() {
			n++
			line := sc.Text()
			if strings.HasPrefix(line, "#") || strings.TrimSpace(line) == "" {
				continue
			}
			kind := ""
			if i := strings.IndexByte(line, '\t'); i >= 0 {
				kind = strings.SplitN(line[i+1:], "\t", 2)[0]
				line = line[:i]
			}
			out[name+":"+fmtInt(n)+":"+kind] = line
		}
		f.Close()
	}
	return out
}

func fmtInt(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// syntaxInvalid lists the corpus strings that are not well formed: the
// malformed line 62 of real.txt (a single "&"), and a select given twice,
// which LSF 10.1 rejects. The other strings documented as invalid break
// rules about names and types, checked by package compile.
var syntaxInvalid = map[string]string{
	"real.txt:62:":                       "LSF401",
	"documented.tsv:138:DERIVED-INVALID": "LSF403",
}

// TestResReqCorpus parses every corpus string, prints it canonically and
// checks that the printed form parses to the same tree and prints the same.
func TestResReqCorpus(t *testing.T) {
	for key, s := range resreqCorpus(t) {
		t.Run(key, func(t *testing.T) {
			r, ds := lang.ParseResReq(lang.NewSource("-R", s))
			if want, bad := syntaxInvalid[key]; bad {
				if len(ds) == 0 || string(ds[0].Code) != want {
					t.Fatalf("ParseResReq(%q) = %v, want %s", s, ds, want)
				}
				return
			}
			if len(ds) != 0 {
				t.Fatalf("ParseResReq(%q): %v", s, ds.Err())
			}
			checkResReqRoundTrip(t, s, r)
		})
	}
}

func checkResReqRoundTrip(t *testing.T, s string, r *lang.ResReq) {
	t.Helper()
	out := r.String()
	r2, ds := lang.ParseResReq(lang.NewSource("-R", out))
	if len(ds) != 0 {
		t.Fatalf("canonical form %q of %q does not parse: %v", out, s, ds.Err())
	}
	if again := r2.String(); again != out {
		t.Fatalf("canonical form is not stable: %q -> %q -> %q", s, out, again)
	}
	if got, want := rrShape(r2), rrShape(r); got != want {
		t.Fatalf("round trip changed the tree of %q\nwant %s\ngot  %s", s, want, got)
	}
}

// rrShape describes a tree without positions and without the order of
// sections (the printer puts them in canonical order).
func rrShape(r *lang.ResReq) string {
	var b strings.Builder
	for _, alt := range r.Alts {
		b.WriteString("alt{")
		for _, term := range alt.Terms {
			b.WriteString(fmtInt(term.Count) + "*(")
			secs := map[string]string{}
			for _, sec := range term.Simple.Sections {
				secs[sec.Kind.String()] += sec.String()
			}
			for _, k := range lang.SectionNames() {
				b.WriteString(secs[k])
			}
			b.WriteString(")")
		}
		b.WriteString("}")
	}
	return b.String()
}

// TestResReqSyntaxGolden runs testdata/resreq/*.txtar: "input" holds one
// string per line; "want" the diagnostics they give, rendered as text.
func TestResReqSyntaxGolden(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "resreq", "*.txtar"))
	if len(paths) == 0 {
		t.Fatal("no goldens")
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			ar, err := txtar.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var in []byte
			for _, f := range ar.Files {
				if f.Name == "input" {
					in = f.Data
				}
			}
			var b strings.Builder
			for _, line := range strings.Split(strings.TrimRight(string(in), "\n"), "\n") {
				_, ds := lang.ParseResReq(lang.NewSource("-R", line))
				ds.WriteText(&b)
			}
			checkWant(t, path, ar, b.String())
		})
	}
}

func TestResReqStructure(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"type==linux order[ut] rusage[mem=100]", "select[type == linux] order[ut] rusage[mem=100]"},
		{"rusage[mem=100] order[r15s:pg] select[mem>1]", "select[mem > 1] order[r15s:pg] rusage[mem=100]"},
		{"!fs && -r1m > -4 * 2", "select[!fs && -r1m > -4 * 2]"},
		{"a || b && c", "select[a || b && c]"},
		{"{select[a]} || {select[b] rusage[x=1]}", "{select[a]} || {select[b] rusage[x=1]}"},
		{"2*{select[a]} + 3*{-}", "2*{select[a]} + 3*{-}"},
		{"{2*{a} + 1*{b}} || {c}", "{2*{select[a]} + 1*{select[b]}} || {select[c]}"},
		{"rusage[mem=(100 50):duration=(10 20):decay=(0 1)]", "rusage[mem=(100 50):duration=(10 20):decay=(0 1)]"},
		{"rusage[mem=10/job:duration=10:decay=0]", "rusage[mem=10/job:duration=10:decay=0]"},
		{"span[hosts=-1]", "span[hosts=-1]"},
		{"cu[type=enclosure:maxcus=2:balance]", "cu[type=enclosure:maxcus=2:balance]"},
		{"", ""},
		{"-", "-"},
		{"type=MIPS", "select[type=MIPS]"},
		{"-ultrix", "select[-ultrix]"},
	}
	for _, tt := range tests {
		r, ds := lang.ParseResReq(lang.NewSource("-R", tt.in))
		if len(ds) != 0 {
			t.Errorf("ParseResReq(%q): %v", tt.in, ds.Err())
			continue
		}
		if got := r.String(); got != tt.want {
			t.Errorf("ParseResReq(%q).String() = %q, want %q", tt.in, got, tt.want)
		}
		checkResReqRoundTrip(t, tt.in, r)
	}
}

// TestResReqPrecedence checks that operators bind as LSF's table says:
// unary first, then * /, + -, relations, equality, &&, ||.
func TestResReqPrecedence(t *testing.T) {
	tests := map[string]string{
		"a || b && c":       "(a || (b && c))",
		"a && b || c":       "((a && b) || c)",
		"!a && b":           "((!a) && b)",
		"a + b * c > d":     "((a + (b * c)) > d)",
		"a < b == c < d":    "((a < b) == (c < d))",
		"-a * b":            "((-a) * b)",
		"a - b - c":         "((a - b) - c)",
		"!(a > 1)":          "(!(a > 1))",
		"a == 1 && b != 2":  "((a == 1) && (b != 2))",
		"2*r15s + 3*r1m/6":  "((2 * r15s) + ((3 * r1m) / 6))",
		"defined(x) || y>1": "(defined(x) || (y > 1))",
	}
	for in, want := range tests {
		r, ds := lang.ParseResReq(lang.NewSource("-R", in))
		if len(ds) != 0 {
			t.Fatalf("%q: %v", in, ds.Err())
		}
		if got := group(r.Simple().Section(lang.SecSelect).Select.Expr); got != want {
			t.Errorf("%q groups as %s, want %s", in, got, want)
		}
	}
}

func group(e lang.Expr) string {
	switch e := e.(type) {
	case *lang.Binary:
		return "(" + group(e.X) + " " + e.Op + " " + group(e.Y) + ")"
	case *lang.Unary:
		return "(" + e.Op + group(e.X) + ")"
	case *lang.Paren:
		return group(e.X)
	}
	return lang.ExprString(e)
}

// TestResReqSpans checks that positions point into a value of a
// configuration file, continuation lines included.
func TestResReqSpans(t *testing.T) {
	text := "Begin Queue\nQUEUE_NAME = q\nRES_REQ = select[mem>1 && \\\n   typo[1]]\nEnd Queue\n"
	f, _ := lang.ParseConfig(lang.NewSource("lsb.queues", text), lang.KindLSBQueues)
	v := f.Items[0].(*lang.Section).Assigns[1].Value
	_, ds := lang.ParseResReq(v.Src)
	if len(ds) != 1 {
		t.Fatalf("want one diagnostic, got %v", ds)
	}
	if p := ds[0].Span.StartPos(); p.Line != 4 || p.Col != 4 {
		t.Errorf("error at %d:%d, want 4:4 (%v)", p.Line, p.Col, ds[0])
	}
}

func TestResReqLimits(t *testing.T) {
	tests := map[string]string{
		strings.Repeat("(", 40) + "a" + strings.Repeat(")", 40): "nest deeper than 32",
		strings.Repeat("a && ", 3000) + "a":                     "more than 4096 tokens",
		strings.Repeat("x", 20000):                              "more than the 16384",
	}
	for in, want := range tests {
		_, ds := lang.ParseResReq(lang.NewSource("-R", in))
		if len(ds) != 1 || ds[0].Code != lang.CodeRRTooLarge || !strings.Contains(ds[0].Message, want) {
			t.Errorf("ParseResReq(%.20q...) = %v, want %q", in, ds, want)
		}
	}
}

// TestJoinResReqsGolden runs testdata/join/*.txtar: each line of "input"
// is the -R options of one command line, separated by " ;; "; "want"
// holds, line by line, the joined requirement or the diagnostics.
func TestJoinResReqsGolden(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "join", "*.txtar"))
	if len(paths) == 0 {
		t.Fatal("no goldens")
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			ar, err := txtar.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var in []byte
			for _, f := range ar.Files {
				if f.Name == "input" {
					in = f.Data
				}
			}
			var b strings.Builder
			for _, line := range strings.Split(strings.TrimRight(string(in), "\n"), "\n") {
				r, ds := lang.ParseResReqOptions(strings.Split(line, " ;; "))
				ds.WriteText(&b)
				if r == nil {
					continue
				}
				b.WriteString(r.String() + "\n")
				// The joined requirement is a valid requirement of its own.
				if _, ds := lang.ParseResReq(lang.NewSource("joined", r.String())); ds.HasErrors() {
					t.Errorf("joined %q does not parse: %v", r.String(), ds)
				}
			}
			checkWant(t, path, ar, b.String())
		})
	}
}
