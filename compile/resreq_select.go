package compile

import (
	"fmt"
	"strings"
	"sync"

	"cel.dev/cel-go/checker"
	celast "cel.dev/cel-go/common/ast"
	"cel.dev/cel-go/common/containers"
	"cel.dev/cel-go/common/decls"
	"cel.dev/cel-go/common/stdlib"
	"cel.dev/cel-go/common/types"

	"github.com/lsfc/lsfc/lang"
)

// A SelectProgram is a select expression whose CEL AST, built directly
// from the requirement's AST, passed CEL's type checker, compiled into Go
// closures over a host's value table (which allocate nothing per host).
// They follow LSF's semantics for values a host does not define: reading
// one fails the comparison, unless the other side of && or || decides.
type SelectProgram struct {
	// Expr is the expression, with the legacy colon syntax rewritten.
	Expr lang.Expr
	// Text is the expression in canonical form.
	Text string
	// Clauses are the top-level && operands, for explanations.
	Clauses []*Clause
	// Refs are the slots of the resources the expression reads.
	Refs []int
	// Static is true when every resource read is a static host fact, so
	// that a host failing the select can never pass it.
	Static bool

	ast    *celast.AST // checked
	wild   map[int64]bool
	fast   evalFunc
	static staticEval
}

// A Clause is one top-level && operand of a select expression.
type Clause struct {
	Expr   lang.Expr
	Text   string
	Refs   []int
	Static bool
	ast    *celast.AST // checked
	wild   map[int64]bool
	fast   evalFunc
	static staticEval
}

// programCache holds compiled programs by text and options: those of
// the last selectGeneration distinct selects compiled or met again, and
// of the generation before. A select met again moves to the current
// generation; when it is full, the one before is dropped. An Env that
// lives long (a daemon's, which compiles the -R of every job) thus keeps
// the selects in use, not every select it ever saw; one met again after
// it was dropped is compiled anew, to the same program.
type programCache struct {
	mu     sync.Mutex
	env    *checker.Env
	envErr error
	once   sync.Once
	// selects is the current generation, older the one before.
	selects, older map[string]*selectEntry
}

// selectGeneration is the number of selects in a generation of the
// program cache: room for those a configuration and the jobs of the
// moment share, few enough that two generations of programs (a few KB
// each) stay a few MB.
const selectGeneration = 1024

type selectEntry struct {
	prog  *SelectProgram
	diags lang.Diagnostics
}

func newProgramCache() *programCache { return &programCache{selects: map[string]*selectEntry{}} }

// checker returns the CEL type checker's environment declaring every
// resource of e: rN, the value of the resource in slot N (double, bool or
// string), and dN, whether the host defines it; with CEL's standard
// functions and lsf_div, a division that fails on zero.
func (e *Env) checker() (*checker.Env, error) {
	c := e.cache
	c.once.Do(func() {
		c.env, c.envErr = checker.NewEnv(containers.DefaultContainer, types.NewEmptyRegistry())
		if c.envErr != nil {
			return
		}
		fns := append(stdlib.Functions(), lsfDiv())
		if c.envErr = c.env.AddFunctions(fns...); c.envErr != nil {
			return
		}
		vars := make([]*decls.VariableDecl, 0, 2*len(e.res))
		for i, r := range e.res {
			vars = append(vars, decls.NewVariable(celName(i), celType(r.Type)), decls.NewVariable(celDefined(i), types.BoolType))
		}
		c.envErr = c.env.AddIdents(vars...)
	})
	return c.env, c.envErr
}

// lsfDiv declares lsf_div(double, double) double.
func lsfDiv() *decls.FunctionDecl {
	fn, err := decls.NewFunction("lsf_div", decls.Overload("lsf_div_double_double",
		[]*types.Type{types.DoubleType, types.DoubleType}, types.DoubleType))
	if err != nil {
		panic(fmt.Sprintf("compile: declaring lsf_div: %v", err)) // a bug, not input
	}
	return fn
}

// celType is the CEL type of a resource's value.
func celType(t ResType) *types.Type {
	switch t {
	case Boolean:
		return types.BoolType
	case String:
		return types.StringType
	}
	return types.DoubleType
}

// CompileSelect checks and compiles a select section body. Programs are
// cached by the expression's canonical text and opts, so each distinct
// select in use is compiled once per Env (see programCache). The
// diagnostics point into the Source the body was parsed from. The
// program is nil when there are errors.
func (e *Env) CompileSelect(sel *lang.Select, opts SelectOptions) (*SelectProgram, lang.Diagnostics) {
	expr := sel.Expr
	var diags lang.Diagnostics
	if expr == nil {
		expr, diags = e.legacyExpr(sel.Legacy)
	}
	key := lang.ExprString(expr) + "\x00" + opts.FromType + "\x00" + opts.FromModel
	c := e.cache
	c.mu.Lock()
	ent, ok := c.lookup(key)
	c.mu.Unlock()
	if ok && !diags.HasErrors() {
		// Diagnostics hold spans of the first text compiled; report this
		// text's own by compiling again when there are any.
		if len(ent.diags) == 0 {
			return ent.prog, diags
		}
	}
	prog, more := e.compileSelect(expr, opts)
	diags = append(diags, more...)
	if diags.HasErrors() {
		prog = nil
	}
	c.mu.Lock()
	c.store(key, &selectEntry{prog: prog, diags: diags})
	c.mu.Unlock()
	return prog, diags
}

// lookup returns the entry of a select, moving it to the current
// generation when it is of the one before. The caller holds mu.
func (c *programCache) lookup(key string) (*selectEntry, bool) {
	if ent, ok := c.selects[key]; ok {
		return ent, true
	}
	ent, ok := c.older[key]
	if ok {
		delete(c.older, key)
		c.store(key, ent)
	}
	return ent, ok
}

// store puts an entry in the current generation, which becomes the one
// before when full. The caller holds mu.
func (c *programCache) store(key string, ent *selectEntry) {
	if _, ok := c.selects[key]; !ok && len(c.selects) >= selectGeneration {
		c.older, c.selects = c.selects, map[string]*selectEntry{}
	}
	c.selects[key] = ent
}

func (e *Env) compileSelect(expr lang.Expr, opts SelectOptions) (*SelectProgram, lang.Diagnostics) {
	env, err := e.checker()
	if err != nil {
		panic(fmt.Sprintf("compile: building the CEL environment: %v", err)) // a bug, not input
	}
	l := newLowerer(e, opts)
	parsed := celast.NewAST(l.cond(expr), nil)
	if l.diags.HasErrors() {
		return nil, l.diags
	}
	checked, errs := checker.Check(parsed, nil, env)
	if errs := errs.GetErrors(); len(errs) > 0 {
		diags := l.diags
		for _, ce := range errs {
			diags = append(diags, l.celIssue(ce))
		}
		return nil, dedupe(diags)
	}
	if t := checked.GetType(checked.Expr().ID()); !t.IsExactType(types.BoolType) {
		panic(fmt.Sprintf("compile: select %q lowered to %v, not bool", lang.ExprString(expr), t))
	}
	fast, err := compileClosure(checked, e)
	if err != nil {
		panic(fmt.Sprintf("compile: closures for %q: %v", lang.ExprString(expr), err))
	}
	p := &SelectProgram{Expr: expr, Text: lang.ExprString(expr), ast: checked, wild: l.wild, fast: fast}
	p.Refs = sortedKeys(l.refs)
	p.Static = e.allStatic(p.Refs)
	parts := Conjuncts(expr)
	if len(parts) == 1 {
		p.Clauses = []*Clause{{Expr: expr, Text: p.Text, Refs: p.Refs, Static: p.Static, ast: checked, wild: l.wild, fast: fast}}
		return p, l.diags
	}
	for _, c := range parts {
		cl := newLowerer(e, opts)
		cchecked, errs := checker.Check(celast.NewAST(cl.cond(c), nil), nil, env)
		if errs := errs.GetErrors(); len(errs) > 0 {
			panic(fmt.Sprintf("compile: a clause of a checked select does not check: %v", errs[0].Message))
		}
		cfast, err := compileClosure(cchecked, e)
		if err != nil {
			panic(fmt.Sprintf("compile: closures for clause %q: %v", lang.ExprString(c), err))
		}
		refs := sortedKeys(cl.refs)
		p.Clauses = append(p.Clauses, &Clause{Expr: c, Text: lang.ExprString(c), Refs: refs, Static: e.allStatic(refs), ast: cchecked, wild: cl.wild, fast: cfast})
	}
	return p, l.diags
}

// Conjuncts splits a select expression at its top-level && operators,
// looking through parentheses: the parts that must all hold.
func Conjuncts(e lang.Expr) []lang.Expr {
	for {
		p, ok := e.(*lang.Paren)
		if !ok {
			break
		}
		e = p.X
	}
	if b, ok := e.(*lang.Binary); ok && b.Op == "&&" {
		return append(Conjuncts(b.X), Conjuncts(b.Y)...)
	}
	return []lang.Expr{e}
}

func (e *Env) allStatic(slots []int) bool {
	for _, s := range slots {
		if e.res[s].Dynamic {
			return false
		}
	}
	return true
}

// dedupe drops diagnostics repeated at the same place with the same text.
func dedupe(ds lang.Diagnostics) lang.Diagnostics {
	seen := map[string]bool{}
	out := ds[:0]
	for _, d := range ds {
		k := fmt.Sprintf("%d:%d:%s", d.Span.Start, d.Span.End, d.Message)
		if !seen[k] {
			seen[k] = true
			out = append(out, d)
		}
	}
	return out
}

// legacyExpr rewrites LSF base's colon syntax into an expression: ":" is
// &&, "-name" is !name, "-" is type==any, "name=value" is == for strings,
// <= for increasing numeric indices and >= for the others.
func (e *Env) legacyExpr(terms []*lang.LegacyTerm) (lang.Expr, lang.Diagnostics) {
	var diags lang.Diagnostics
	var out lang.Expr
	for _, t := range terms {
		var x lang.Expr
		switch {
		case t.Not && t.Name.Text == "":
			x = &lang.Binary{Op: "==", OpSpan: t.Span, X: &lang.Ident{Name: "type", Span: t.Span}, Y: &lang.Ident{Name: "any", Span: t.Span}}
		case t.Not:
			x = &lang.Unary{Op: "!", OpSpan: t.Span, X: &lang.Ident{Name: t.Name.Text, Span: t.Name.Span}}
		case t.Value == nil:
			x = &lang.Ident{Name: t.Name.Text, Span: t.Name.Span}
		default:
			op := "=="
			if r, _, ok := e.Lookup(t.Name.Text); ok && r.Type == Numeric {
				op = ">="
				if r.Increasing {
					op = "<="
				}
			}
			var y lang.Expr = t.Value
			if t.Value.Kind == lang.LitWord {
				y = &lang.Ident{Name: t.Value.Str, Span: t.Value.Span}
			}
			x = &lang.Binary{Op: op, OpSpan: t.Span, X: &lang.Ident{Name: t.Name.Text, Span: t.Name.Span}, Y: y}
		}
		if out == nil {
			out = x
		} else {
			out = &lang.Binary{Op: "&&", OpSpan: t.Span, X: out, Y: x}
		}
	}
	return out, diags
}

// String returns the canonical text of the expression.
func (p *SelectProgram) String() string { return p.Text }

// explainNames returns the names of the resources of slots, for messages.
func (e *Env) explainNames(slots []int) string {
	names := make([]string, len(slots))
	for i, s := range slots {
		names[i] = e.res[s].Name
	}
	return strings.Join(names, ", ")
}
