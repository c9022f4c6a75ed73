package lang_test

import (
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/lang"
)

// TestDepCondValid parses expressions of the forms LSF documents and
// checks the canonical form, which must parse back to the same tree.
func TestDepCondValid(t *testing.T) {
	tests := []struct{ in, want string }{
		{`done(123)`, `done(123)`},
		{`123`, `done(123)`},
		{`"prep"`, `done("prep")`},
		{`prep`, `done("prep")`},
		{`done(123) && ended(124)`, `done(123) && ended(124)`},
		{`done(1)||done(2)&&done(3)`, `done(1) || done(2) && done(3)`},
		{`(done(1) || done(2)) && done(3)`, `(done(1) || done(2)) && done(3)`},
		{`!done(1)`, `!done(1)`},
		{`!(done(1) && done(2))`, `!(done(1) && done(2))`},
		{`! ! started(7)`, `!!started(7)`},
		{`exit(12)`, `exit(12)`},
		{`exit(12, 3)`, `exit(12, == 3)`},
		{`exit("step1", > 1)`, `exit("step1", > 1)`},
		{`exit(step1, != 0)`, `exit("step1", != 0)`},
		{`post_done(5) || post_err(5)`, `post_done(5) || post_err(5)`},
		{`external(5, "ready")`, `external(5, "ready")`},
		{`numdone(100, *)`, `numdone(100, *)`},
		{`numended(100, >= 5) && numexit(100, == 0)`, `numended(100, >= 5) && numexit(100, == 0)`},
		{`numhold(1,<2)||numpend(1,<=2)||numrun(1,>0)||numstart(1,!=0)`, `numhold(1, < 2) || numpend(1, <= 2) || numrun(1, > 0) || numstart(1, != 0)`},
		{`done(100[3])`, `done(100[3])`},
		{`done("array[2]")`, `done("array[2]")`},
		{`done(arr[2])`, `done("arr"[2])`},
		{`done("run*")`, `done("run*")`},
		{`ended(my-job.v2)`, `ended("my-job.v2")`},
		{`done("2021_run")`, `done("2021_run")`},
		{`DONE(4)`, `done(4)`},
		{`done('say "hi"')`, `done('say "hi"')`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			d, ds := lang.ParseDepCond(lang.NewSource("-w", tt.in))
			if len(ds) > 0 {
				t.Fatalf("ParseDepCond(%q): %v", tt.in, ds.Err())
			}
			if got := d.String(); got != tt.want {
				t.Fatalf("ParseDepCond(%q).String() = %q, want %q", tt.in, got, tt.want)
			}
			checkDepRoundTrip(t, tt.in, d)
		})
	}
}

// TestDepCondTree checks what the parser records.
func TestDepCondTree(t *testing.T) {
	d, ds := lang.ParseDepCond(lang.NewSource("-w", `exit("prep*", > 2) || !numdone(7[3], *)`))
	if len(ds) > 0 {
		t.Fatal(ds.Err())
	}
	or, ok := d.Expr.(*lang.DepLogic)
	if !ok || or.Op != "||" || len(or.Terms) != 2 {
		t.Fatalf("top = %#v", d.Expr)
	}
	ex := or.Terms[0].(*lang.DepTest)
	if ex.Func != "exit" || ex.Job.Name != "prep*" || ex.Op != ">" || ex.Value != 2 || ex.Job.ID != 0 {
		t.Errorf("exit test = %+v", ex)
	}
	if !ex.Job.Matches("prep1") || !ex.Job.Matches("prep") || ex.Job.Matches("pre") {
		t.Error("prep* matches wrongly")
	}
	if sp := ex.Job.Span; sp.Start != 5 || sp.End != 12 {
		t.Errorf("job span = %d-%d, want 5-12", sp.Start, sp.End)
	}
	not := or.Terms[1].(*lang.DepNot)
	nd := not.X.(*lang.DepTest)
	if nd.Func != "numdone" || !nd.All || nd.Job.ID != 7 || nd.Job.Index != 3 || !nd.IsCount() {
		t.Errorf("numdone test = %+v", nd)
	}
	bare, _ := lang.ParseDepCond(lang.NewSource("-w", `42`))
	if b := bare.Expr.(*lang.DepTest); !b.Bare || b.Func != "done" || b.Job.ID != 42 {
		t.Errorf("bare = %+v", b)
	}
}

// TestDepCondErrors checks that each mistake gives its code, a message
// that explains it, and the column where it is.
func TestDepCondErrors(t *testing.T) {
	tests := []struct {
		in   string
		code lang.Code
		col  int
		msg  string
	}{
		{``, lang.CodeDepSyntax, 1, "empty dependency expression"},
		{`   `, lang.CodeDepSyntax, 1, "empty dependency expression"},
		{`done(1) & done(2)`, lang.CodeDepSyntax, 9, `single "&" is not an operator: write "&&"`},
		{`done(1) | done(2)`, lang.CodeDepSyntax, 9, `single "|"`},
		{`done(1) done(2)`, lang.CodeDepSyntax, 9, "expected && or || between two conditions"},
		{`done(1) &&`, lang.CodeDepSyntax, 11, `expected a condition after "&&"`},
		{`done(1`, lang.CodeDepSyntax, 5, `"(" is not closed`},
		{`done(1))`, lang.CodeDepSyntax, 8, `")" has no matching "("`},
		{`done()`, lang.CodeDepSyntax, 6, `unexpected ")"`},
		{`finished(1)`, lang.CodeDepSyntax, 1, `unknown dependency condition "finished"`},
		{`exited(1)`, lang.CodeDepSyntax, 1, `did you mean "exit"?`},
		{`done(1, 2)`, lang.CodeDepSyntax, 9, "done() takes only a job"},
		{`exit(1, *)`, lang.CodeDepSyntax, 9, "exit() takes an exit code"},
		{`exit(1, 300)`, lang.CodeDepSyntax, 9, "300 is out of range (at most 255)"},
		{`numdone(1)`, lang.CodeDepSyntax, 1, "numdone() needs a count"},
		{`numdone(1, 3)`, lang.CodeDepSyntax, 12, "compares the count with an operator"},
		{`numrun(1, "x")`, lang.CodeDepSyntax, 11, "takes an operator and a count, or *"},
		{`external(1)`, lang.CodeDepSyntax, 1, "external() needs a status text"},
		{`external(1, 3)`, lang.CodeDepSyntax, 1, "external() needs a status text"},
		{`done(2021_run)`, lang.CodeDepSyntax, 6, "job name 2021_run begins with a digit: put it in double quotes"},
		{`done("a*b")`, lang.CodeDepSyntax, 6, "the wildcard * may only end a job name"},
		{`done("")`, lang.CodeDepSyntax, 6, "empty job name"},
		{`done(0)`, lang.CodeDepSyntax, 6, "job ID 0 is out of range"},
		{`done(99999999999999999999)`, lang.CodeDepSyntax, 6, "out of range"},
		{`done(1[0])`, lang.CodeDepSyntax, 8, "array index 0 is out of range"},
		{`done("abc)`, lang.CodeDepSyntax, 6, "string starting with \" is not closed"},
		{`done(1) ; done(2)`, lang.CodeDepSyntax, 9, `unexpected character ';'`},
		{"done(\xff)", lang.CodeDepSyntax, 6, "invalid UTF-8 byte 0xff"},
		{"done(\"\xff\")", lang.CodeDepSyntax, 6, "invalid UTF-8 in a quoted string"},
		{strings.Repeat("(", 80) + "done(1)" + strings.Repeat(")", 80), lang.CodeDepTooLarge, 65, "nest deeper than 64"},
		{strings.Repeat("!", 80) + "done(1)", lang.CodeDepTooLarge, 65, "nest deeper than 64"},
		{strings.Repeat("done(1) && ", 2000) + "done(1)", lang.CodeDepTooLarge, 1, "more than the 16384 lsfc accepts"},
		{strings.Repeat("1&&", 2100) + "1", lang.CodeDepTooLarge, 0, "more than 4096 tokens"},
	}
	for _, tt := range tests {
		name := tt.in
		if len(name) > 40 {
			name = name[:40]
		}
		t.Run(name, func(t *testing.T) {
			d, ds := lang.ParseDepCond(lang.NewSource("-w", tt.in))
			if d != nil || len(ds) == 0 {
				t.Fatalf("ParseDepCond(%q) = %v, %v; want an error", name, d, ds)
			}
			e := ds[0]
			if e.Code != tt.code || !strings.Contains(e.Message, tt.msg) {
				t.Fatalf("ParseDepCond(%q) = %s %q, want %s containing %q", name, e.Code, e.Message, tt.code, tt.msg)
			}
			if tt.col > 0 {
				if col := e.Span.Src.Pos(e.Span.Start).Col; col != tt.col {
					t.Errorf("ParseDepCond(%q): column %d, want %d", name, col, tt.col)
				}
			}
		})
	}
}

func checkDepRoundTrip(t *testing.T, in string, d *lang.DepCond) {
	t.Helper()
	out := d.String()
	d2, ds := lang.ParseDepCond(lang.NewSource("-w", out))
	if ds.HasErrors() {
		t.Fatalf("canonical form %q of %q does not parse: %v", out, in, ds.Err())
	}
	if !reflect.DeepEqual(depShape(d.Expr), depShape(d2.Expr)) {
		t.Fatalf("canonical form %q of %q parses to another tree", out, in)
	}
	if again := d2.String(); again != out {
		t.Fatalf("printing is not stable: %q then %q", out, again)
	}
}

// depShape renders a tree without its spans, for comparison.
func depShape(e lang.DepExpr) any {
	switch e := e.(type) {
	case *lang.DepLogic:
		var terms []any
		for _, t := range e.Terms {
			terms = append(terms, depShape(t))
		}
		return []any{e.Op, terms}
	case *lang.DepNot:
		return []any{"!", depShape(e.X)}
	case *lang.DepTest:
		c := *e
		c.Span, c.Job.Span, c.Bare = lang.Span{}, lang.Span{}, false
		return c
	}
	return nil
}

// FuzzParseDepCond checks the dependency parser on any input: no panic,
// spans inside the input, rendering never fails, and the canonical form
// parses back to the same tree.
func FuzzParseDepCond(f *testing.F) {
	for _, s := range []string{`done(123) && ended("prep*")`, `!(exit(5, > 1) || numdone(9[2], *))`,
		`external(3, "ok") && post_done(3) || started(4)`, `numrun(1, >= 2)`, `"12" && a.b-c`, `done(1[2])`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		src := lang.NewSource("-w", s)
		d, ds := lang.ParseDepCond(src)
		for _, e := range ds {
			checkSpan(t, "diagnostic", e.Span)
		}
		if err := ds.WriteText(io.Discard); err != nil {
			t.Fatal(err)
		}
		if d == nil {
			if !ds.HasErrors() {
				t.Fatal("no tree and no error")
			}
			return
		}
		checkDepRoundTrip(t, s, d)
	})
}
