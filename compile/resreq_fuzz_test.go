package compile_test

import (
	"io"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
)

// celLeak matches text that only CEL would write: its operator names,
// overload words, the lowered variable names and its types.
var celLeak = regexp.MustCompile(`_[<>=!&|+*/-]+_|overload|\b[rd][0-9]+\b|lsf_div|\bdouble\b|ERROR:|<input>`)

// FuzzCompileResReq checks the lowering and evaluation of any requirement:
// no panic; every diagnostic inside the input and free of CEL's own words;
// the closures agree with cel-go's interpreter on every test host; and a
// static verdict on part of a host's values never contradicts the match.
func FuzzCompileResReq(f *testing.F) {
	for _, s := range differentialSelects {
		f.Add("select[" + s + "]")
	}
	for _, s := range benchSelects {
		f.Add("select[" + s + "] order[r1m] rusage[mem=100:duration=10]")
	}
	dir := filepath.Join("..", "..", "shared", "corpus", "resreq")
	for _, name := range []string{"real.txt", "documented.tsv"} {
		b, _ := os.ReadFile(filepath.Join(dir, name))
		for _, line := range strings.Split(string(b), "\n") {
			line, _, _ = strings.Cut(line, "\t")
			f.Add(line)
		}
	}
	env := testEnv()
	table := env.Table(append(testHosts(), randomHosts(40, 7)...))
	f.Fuzz(func(t *testing.T, s string) {
		rng := rand.New(rand.NewSource(int64(len(s))))
		src := lang.NewSource("-R", s)
		r, ds := lang.ParseResReq(src)
		if ds.HasErrors() {
			return
		}
		req, ds := env.CompileResReq(r, compile.SelectOptions{FromType: "LINUX"})
		for _, d := range ds {
			if sp := d.Span.Root(); sp.Src != nil && (sp.Start < 0 || sp.End > len(s) || sp.End < sp.Start) {
				t.Fatalf("span [%d,%d) outside %q", sp.Start, sp.End, s)
			}
			for _, m := range celLeak.FindAllString(d.Message, -1) {
				if !strings.Contains(s, m) { // the user may have written it
					t.Fatalf("CEL's words reach the user: %q", d.Message)
				}
			}
		}
		ds.WriteText(io.Discard)
		if req == nil {
			return
		}
		for _, alt := range req.Alts {
			for _, term := range alt {
				sel := term.Simple.Select
				if sel == nil {
					continue
				}
				for _, v := range table.Values {
					// cel-go's strings are UTF-8: a requirement holding
					// other bytes has no reference program.
					if !utf8.ValidString(s) {
						checkStatic(t, env, sel, v, rng)
						continue
					}
					if fast, ref := sel.Match(v), sel.MatchCEL(env, v); fast != ref {
						t.Fatalf("%s on %s: closures %v, cel-go %v (CEL %s)", sel.Text, v.Name, fast, ref, sel.CELString())
					}
					checkStatic(t, env, sel, v, rng)
				}
			}
		}
		env.Match(req, table, compile.MatchOptions{Explain: true})
	})
}
