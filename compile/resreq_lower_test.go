package compile

import (
	"strings"
	"testing"

	celast "cel.dev/cel-go/common/ast"

	"github.com/lsfc/lsfc/lang"
)

// TestCELNodesMapToRequirement lowers selects and checks that every CEL
// node leads back to bytes of the requirement: a variable to the name it
// reads, a string from a bare word to that word.
func TestCELNodesMapToRequirement(t *testing.T) {
	env := NewEnv(EnvConfig{Site: []Resource{{Name: "rack", Type: String}, {Name: "gpu", Type: Boolean}}})
	for _, text := range []string{
		"select[(mem > 4G || !ut) && type==any && server && r1m/ncpus < 2]",
		"select[rack == r1 && defined(gpu) && -cpu*2 + (gpu == server) != 3]",
		"select[!gpu || rack != \"r2\" || swp]",
		"select[gpu:rack=r1:mem=100]",
	} {
		src := lang.NewSource("-R", text)
		r, ds := lang.ParseResReq(src)
		if ds.HasErrors() {
			t.Fatalf("%q: %v", text, ds)
		}
		sel := r.Alts[0].Terms[0].Simple.Section(lang.SecSelect).Select
		expr := sel.Expr
		if expr == nil {
			expr, _ = env.legacyExpr(sel.Legacy)
		}
		l := newLowerer(env, SelectOptions{})
		root := l.cond(expr)
		if l.diags.HasErrors() {
			t.Fatalf("%q: %v", text, l.diags)
		}
		var walk func(x celast.Expr)
		walk = func(x celast.Expr) {
			o := l.origin[x.ID()]
			if o == nil {
				t.Fatalf("%q: CEL node %d comes from no node of the requirement", text, x.ID())
			}
			sp := lang.ExprSpan(o)
			if sp.Src != src || sp.Start < 0 || sp.End > len(text) || sp.End <= sp.Start {
				t.Fatalf("%q: CEL node %d maps to [%d,%d), outside the requirement", text, x.ID(), sp.Start, sp.End)
			}
			got := text[sp.Start:sp.End]
			switch x.Kind() {
			case celast.IdentKind:
				if name := identName(o); name == "?" || got != name && !strings.HasPrefix(got, "defined(") {
					t.Errorf("%q: variable %s maps to %q", text, x.AsIdent(), got)
				}
			case celast.CallKind:
				for _, a := range x.AsCall().Args() {
					walk(a)
				}
			}
		}
		walk(root)
	}
}

// identName is the resource a variable's node names.
func identName(e lang.Expr) string {
	switch e := e.(type) {
	case *lang.Ident:
		return e.Name
	case *lang.Defined:
		return e.Name.Text
	}
	return "?"
}
