package compile

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"cel.dev/cel-go/common"
	celast "cel.dev/cel-go/common/ast"
	"cel.dev/cel-go/common/operators"
	"cel.dev/cel-go/common/types"

	"github.com/lsfc/lsfc/lang"
)

// The codes reported while checking resource requirements (LSF41x).
const (
	CodeUnknownResource lang.Code = "LSF410" // a name that is no resource
	CodeResReqType      lang.Code = "LSF411" // a type error in a select expression
	CodeRusage          lang.Code = "LSF412" // an invalid rusage section
	CodeSpan            lang.Code = "LSF413" // an invalid span section
	CodeOrder           lang.Code = "LSF414" // an invalid order key
	CodeSame            lang.Code = "LSF415" // an invalid same section
	CodeCuAffinity      lang.Code = "LSF416" // an invalid cu or affinity section
	CodeUnit            lang.Code = "LSF417" // a unit suffix that does not fit
	CodeLocalType       lang.Code = "LSF418" // type==local with no submission host type
	CodeMerge           lang.Code = "LSF419" // a job requirement the queue's forbids
)

// SelectOptions are the facts of a submission that a select expression may
// refer to.
type SelectOptions struct {
	// FromType and FromModel are the type and model of the submission
	// host, for type==local and model==local. Empty means unknown: local
	// then matches any value, with a warning.
	FromType, FromModel string
	// LocalTypeDefault applies bsub's default: a requirement whose select
	// names no String or Boolean resource (or that has no select) runs
	// on hosts of the submission host's type, type==local. Without it the
	// type defaults to any, as for lshosts -R and lsload -R.
	LocalTypeDefault bool
	// InConfig compiles a requirement written in a configuration file
	// (RES_REQ, STOP_COND ...): there type==local and model==local stand
	// for each job's submission host, so they are accepted without a
	// warning and match any host here; the runtime compiles each job's
	// merged requirement with its submission host.
	InConfig bool
}

// ty is the type the lowering infers for a node.
type ty uint8

const (
	tyBad ty = iota // an error was reported; keep going quietly
	tyBool
	tyNum
	tyStr
)

// srcNode records which piece of the requirement a CEL node came from, so
// that an issue CEL reports at the node is shown at the right byte of the
// requirement.
type srcNode struct {
	span lang.Span
	expr lang.Expr
	x, y ty // operand types of an operator node
}

// lowerer builds the CEL AST of a select expression directly from the
// requirement's AST, inferring types to insert LSF's conversions: any
// non-zero number is true, booleans are 0 or 1 in arithmetic, a bare word
// compared with a string resource is a string, type==any always matches.
// CEL node ids are handed out in order, so the nodes built for one
// requirement node are a contiguous range of ids.
type lowerer struct {
	env   *Env
	opts  SelectOptions
	fac   celast.ExprFactory
	next  int64 // the next CEL node id
	nodes []srcNode
	// cur is the requirement node being lowered; origin maps each CEL
	// node id to the one it was built for, so that every node leads
	// back to its bytes of the requirement.
	cur    lang.Expr
	origin []lang.Expr
	// owner maps a CEL node id to the index in nodes of the smallest
	// requirement node it belongs to (-1: none).
	owner []int32
	diags lang.Diagnostics
	refs  map[int]bool
	// wild are the ids of constants that a static verdict leaves open:
	// a comparison with a "local" that stands for each job's submission
	// host, and one with "any" that never matches (type!=any).
	wild map[int64]bool
}

func newLowerer(e *Env, opts SelectOptions) *lowerer {
	return &lowerer{env: e, opts: opts, fac: celast.NewExprFactory(), next: 1, owner: []int32{-1}, origin: []lang.Expr{nil}, refs: map[int]bool{}}
}

// celName is the CEL variable holding the value of the resource in slot
// i; celDefined the one telling whether the host defines it.
func celName(i int) string    { return "r" + strconv.Itoa(i) }
func celDefined(i int) string { return "d" + strconv.Itoa(i) }

// id hands out the next CEL node id.
func (l *lowerer) id() int64 {
	id := l.next
	l.next++
	l.owner = append(l.owner, -1)
	l.origin = append(l.origin, l.cur)
	return id
}

func (l *lowerer) call(fn string, args ...celast.Expr) celast.Expr {
	return l.fac.NewCall(l.id(), fn, args...)
}

func (l *lowerer) ident(name string) celast.Expr { return l.fac.NewIdent(l.id(), name) }

func (l *lowerer) boolLit(b bool) celast.Expr { return l.fac.NewLiteral(l.id(), types.Bool(b)) }

func (l *lowerer) numLit(v float64) celast.Expr { return l.fac.NewLiteral(l.id(), types.Double(v)) }

func (l *lowerer) strLit(s string) celast.Expr { return l.fac.NewLiteral(l.id(), types.String(s)) }

// record remembers that the CEL nodes from id start on came from e: those
// not already claimed by a smaller node of the requirement.
func (l *lowerer) record(start int64, e lang.Expr, x, y ty) {
	n := int32(len(l.nodes))
	l.nodes = append(l.nodes, srcNode{span: lang.ExprSpan(e), expr: e, x: x, y: y})
	for id := start; id < l.next; id++ {
		if l.owner[id] < 0 {
			l.owner[id] = n
		}
	}
}

// at makes e the node the CEL nodes built next are for, until the
// returned function restores the previous one.
func (l *lowerer) at(e lang.Expr) func() {
	outer := l.cur
	l.cur = e
	return func() { l.cur = outer }
}

// cond lowers e as a CEL bool.
func (l *lowerer) cond(e lang.Expr) celast.Expr {
	defer l.at(e)()
	start := l.next
	x, t := l.expr(e)
	switch t {
	case tyNum:
		return l.call(operators.NotEquals, x, l.numLit(0))
	case tyStr:
		// Left for CEL to reject: a string is no condition.
		out := l.call(operators.LogicalAnd, x, l.boolLit(true))
		l.record(start, e, tyStr, tyBool)
		return out
	}
	return x
}

// num lowers e as a CEL double.
func (l *lowerer) num(e lang.Expr) (celast.Expr, ty) {
	defer l.at(e)()
	if l.peekType(e) == tyBool {
		x, _ := l.expr(e)
		return l.call(operators.Conditional, x, l.numLit(1), l.numLit(0)), tyNum
	}
	return l.expr(e)
}

// peekType infers the type of e without emitting anything.
// TypeOf returns the type the compiler gives a select expression without
// evaluating it — Boolean, Numeric or String — and false for one it
// rejects (an unknown name, for instance).
func (e *Env) TypeOf(x lang.Expr) (ResType, bool) {
	switch (&lowerer{env: e}).peekType(x) {
	case tyBool:
		return Boolean, true
	case tyNum:
		return Numeric, true
	case tyStr:
		return String, true
	}
	return 0, false
}

func (l *lowerer) peekType(e lang.Expr) ty {
	switch e := e.(type) {
	case *lang.Ident:
		if r, _, ok := l.env.Lookup(e.Name); ok {
			return resTy(r.Type)
		}
		return tyBad
	case *lang.Literal:
		if e.Kind == lang.LitNumber {
			return tyNum
		}
		return tyStr
	case *lang.Defined:
		return tyBool
	case *lang.Paren:
		return l.peekType(e.X)
	case *lang.Unary:
		if e.Op == "!" {
			return tyBool
		}
		return tyNum
	case *lang.Binary:
		switch e.Op {
		case "+", "-", "*", "/":
			return tyNum
		}
		return tyBool
	}
	return tyBad
}

func resTy(t ResType) ty {
	switch t {
	case Boolean:
		return tyBool
	case Numeric:
		return tyNum
	case String:
		return tyStr
	}
	return tyBad
}

// celOps are the CEL functions of the requirement's operators.
var celOps = map[string]string{
	"&&": operators.LogicalAnd, "||": operators.LogicalOr,
	"+": operators.Add, "-": operators.Subtract, "*": operators.Multiply,
	"==": operators.Equals, "!=": operators.NotEquals,
	"<": operators.Less, "<=": operators.LessEquals, ">": operators.Greater, ">=": operators.GreaterEquals,
}

// expr lowers e and returns its type.
func (l *lowerer) expr(e lang.Expr) (celast.Expr, ty) {
	defer l.at(e)()
	start := l.next
	switch e := e.(type) {
	case *lang.Paren:
		return l.expr(e.X)
	case *lang.Ident:
		r, slot, ok := l.env.Lookup(e.Name)
		if !ok {
			l.unknown(e.Name, e.Span)
			return l.numLit(0), tyBad
		}
		l.refs[slot] = true
		return l.ident(celName(slot)), resTy(r.Type)
	case *lang.Defined:
		_, slot, ok := l.env.Lookup(e.Name.Text)
		if !ok {
			l.unknown(e.Name.Text, e.Name.Span)
			return l.boolLit(false), tyBool
		}
		l.refs[slot] = true
		return l.ident(celDefined(slot)), tyBool
	case *lang.Literal:
		return l.literal(e, nil)
	case *lang.Unary:
		if e.Op == "!" {
			x, t := l.expr(e.X)
			if t == tyNum {
				// !x is 1 when x is 0.
				return l.call(operators.Equals, x, l.numLit(0)), tyBool
			}
			out := l.call(operators.LogicalNot, x)
			if t == tyStr {
				l.record(start, e, tyStr, tyBad)
			}
			return out, tyBool
		}
		x, t := l.num(e.X)
		out := l.call(operators.Negate, x)
		if t == tyStr {
			l.record(start, e, tyStr, tyBad)
		}
		return out, tyNum
	case *lang.Binary:
		return l.binary(e, start)
	}
	return l.numLit(0), tyBad
}

func (l *lowerer) binary(e *lang.Binary, start int64) (celast.Expr, ty) {
	switch e.Op {
	case "&&", "||":
		return l.call(celOps[e.Op], l.cond(e.X), l.cond(e.Y)), tyBool
	case "+", "-", "*", "/":
		fn := celOps[e.Op]
		if e.Op == "/" {
			// LSF fails a host on division by zero; lsf_div errors then.
			fn = "lsf_div"
		}
		x, xt := l.num(e.X)
		y, yt := l.num(e.Y)
		out := l.call(fn, x, y)
		l.record(start, e, xt, yt)
		return out, tyNum
	}
	return l.compare(e, start)
}

// compare lowers a comparison. A bare word facing a string resource is a
// string; "any" matches every type or model, "local" the submission
// host's.
func (l *lowerer) compare(e *lang.Binary, start int64) (celast.Expr, ty) {
	op := e.Op
	if op == "=" {
		op = "=="
	}
	xt, yt := l.peekType(e.X), l.peekType(e.Y)
	xw, xIsWord := e.X.(*lang.Ident)
	yw, yIsWord := e.Y.(*lang.Ident)
	// A bare word is a value only opposite a string resource: facing a
	// quoted string, it must itself be a resource.
	switch {
	case xt == tyStr && xIsWord && yIsWord && yt != tyStr:
		return l.compareWord(e, e.X, yw, op, start)
	case yt == tyStr && yIsWord && xIsWord && xt != tyStr:
		return l.compareWord(e, e.Y, xw, lang.Mirror(op), start)
	}
	var x, y celast.Expr
	var xk, yk ty
	switch {
	case xt == tyStr || yt == tyStr:
		// Strings compare as strings; a mismatch is left to CEL.
		x, xk = l.expr(e.X)
		y, yk = l.operand(e.Y, e.X)
	case xt == tyBool && yt == tyBool && (op == "==" || op == "!="):
		x, xk = l.expr(e.X)
		y, yk = l.expr(e.Y)
	default:
		x, xk = l.numOperand(e.X, e.Y)
		y, yk = l.numOperand(e.Y, e.X)
	}
	out := l.call(celOps[op], x, y)
	l.record(start, e, xk, yk)
	return out, tyBool
}

// operand lowers a literal with its unit converted for the resource it is
// compared with.
func (l *lowerer) operand(e, other lang.Expr) (celast.Expr, ty) {
	if lit, ok := e.(*lang.Literal); ok {
		return l.literal(lit, other)
	}
	return l.expr(e)
}

func (l *lowerer) numOperand(e, other lang.Expr) (celast.Expr, ty) {
	if lit, ok := e.(*lang.Literal); ok {
		return l.literal(lit, other)
	}
	return l.num(e)
}

// compareWord lowers str op "word".
func (l *lowerer) compareWord(e *lang.Binary, str lang.Expr, word *lang.Ident, op string, start int64) (celast.Expr, ty) {
	id, isIdent := str.(*lang.Ident)
	res := ""
	if isIdent {
		if r, _, ok := l.env.Lookup(id.Name); ok {
			res = r.Name
		}
	}
	value := word.Name
	if res == "type" || res == "model" {
		local := l.opts.FromType
		if res == "model" {
			local = l.opts.FromModel
		}
		switch {
		case value == "any":
			return l.anyLocal(op, false), tyBool
		case value == "local" && local == "" && l.opts.InConfig:
			return l.anyLocal(op, true), tyBool
		case value == "local" && local == "":
			l.diags.Add(lang.Warning, CodeLocalType, word.Span,
				"%s==local: the submission host's %s is not known here; every %s matches (give it with --from-type)", res, res, res)
			return l.anyLocal(op, true), tyBool
		case value == "local":
			value = local
		case res == "type" && !l.env.IsType(value), res == "model" && !l.env.IsModel(value):
			known := l.env.types
			if res == "model" {
				known = l.env.models
			}
			msg := fmt.Sprintf("unknown host %s %q", res, value)
			if s := lang.Suggest(value, keysOf(known)); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			} else if res == "type" && l.env.models[value] || res == "model" && l.env.types[value] {
				msg += fmt.Sprintf(" (%s is a host %s)", value, map[string]string{"type": "model", "model": "type"}[res])
			}
			l.diags = append(l.diags, &lang.Diagnostic{Severity: lang.Error, Code: CodeUnknownResource, Span: word.Span, Message: msg})
		}
	}
	x, xk := l.expr(str)
	restore := l.at(word)
	y := l.strLit(value)
	restore()
	out := l.call(celOps[op], x, y)
	l.record(start, e, xk, tyStr)
	return out, tyBool
}

// anyLocal lowers the constant a comparison with "any" has, or with a
// "local" that matches any host (local set).
func (l *lowerer) anyLocal(op string, local bool) celast.Expr {
	match := op == "==" || op == "<=" || op == ">="
	x := l.boolLit(match)
	if local || !match {
		if l.wild == nil {
			l.wild = map[int64]bool{}
		}
		l.wild[x.ID()] = true
	}
	return x
}

// literal lowers a number or string; a memory unit is converted to the
// unit of the resource the literal is compared with (or of bare numbers).
func (l *lowerer) literal(e *lang.Literal, other lang.Expr) (celast.Expr, ty) {
	defer l.at(e)()
	if e.Kind != lang.LitNumber {
		return l.strLit(e.Str), tyStr
	}
	v := e.Num
	if math.IsInf(v, 0) || math.IsNaN(v) {
		l.diags.Add(lang.Error, CodeUnit, e.Span, "number %q is out of range", e.Text)
		v = 0
	}
	if e.Unit != "" {
		mb, err := ParseMemory(e.Text, MB)
		if err != nil {
			l.diags.Add(lang.Error, CodeUnit, e.Span, "unknown unit in %q: memory units are K, M, G, T, P, E, Z (optionally followed by B)", e.Text)
		} else {
			target := l.env.Unit
			if id, ok := other.(*lang.Ident); ok {
				if r, _, ok := l.env.Lookup(id.Name); ok {
					if !r.Memory && !isTmp(r.Name) {
						l.diags.Add(lang.Warning, CodeUnit, e.Span,
							"%q has a memory unit but %s is not a memory resource", e.Text, r.Name)
					} else if isTmp(r.Name) && !l.env.TmpUnit {
						target = MB
					}
				}
			}
			v = mb / target.Megabytes()
		}
	}
	return l.numLit(v), tyNum
}

func keysOf(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

func isTmp(name string) bool { return name == "tmp" || name == "maxtmp" }

// unknown reports a name that is no resource, suggesting the closest one.
func (l *lowerer) unknown(name string, sp lang.Span) {
	msg := fmt.Sprintf("unknown resource %q", name)
	if s := lang.Suggest(name, l.env.Names()); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	l.diags = append(l.diags, &lang.Diagnostic{Severity: lang.Error, Code: CodeUnknownResource, Span: sp, Message: msg})
}

// celIssue turns an issue the CEL checker reported at a node into a
// diagnostic at the node of the requirement that produced it.
func (l *lowerer) celIssue(ce *common.Error) *lang.Diagnostic {
	if ce.ExprID <= 0 || ce.ExprID >= int64(len(l.owner)) {
		return &lang.Diagnostic{Severity: lang.Error, Code: CodeResReqType, Message: "the select expression does not type-check"}
	}
	if l.owner[ce.ExprID] < 0 {
		d := &lang.Diagnostic{Severity: lang.Error, Code: CodeResReqType, Message: "the select expression does not type-check"}
		if e := l.origin[ce.ExprID]; e != nil {
			d.Span = lang.ExprSpan(e)
		}
		return d
	}
	sp, msg := l.typeMessage(&l.nodes[l.owner[ce.ExprID]])
	return &lang.Diagnostic{Severity: lang.Error, Code: CodeResReqType, Span: sp, Message: msg}
}

// typeMessage explains a type error in LSF's terms and returns the span of
// the operand at fault.
func (l *lowerer) typeMessage(n *srcNode) (lang.Span, string) {
	switch e := n.expr.(type) {
	case *lang.Binary:
		bad := e.X
		if n.x != tyStr {
			bad = e.Y
		}
		switch e.Op {
		case "+", "-", "*", "/":
			return lang.ExprSpan(bad), fmt.Sprintf("%s cannot be used in arithmetic", l.describe(bad))
		case "&&", "||":
			return lang.ExprSpan(bad), fmt.Sprintf("%s is not a condition: compare it with a value", l.describe(bad))
		}
		return n.span, fmt.Sprintf("cannot compare %s with %s", l.describe(e.X), l.describe(e.Y))
	case *lang.Unary:
		if e.Op == "!" {
			return lang.ExprSpan(e.X), fmt.Sprintf("cannot negate %s: compare it with a value", l.describe(e.X))
		}
		return lang.ExprSpan(e.X), fmt.Sprintf("%s cannot be used in arithmetic", l.describe(e.X))
	}
	return n.span, fmt.Sprintf("%s is not a condition: compare it with a value", l.describe(n.expr))
}

// describe names an expression for a message.
func (l *lowerer) describe(e lang.Expr) string {
	switch e := e.(type) {
	case *lang.Ident:
		if r, _, ok := l.env.Lookup(e.Name); ok {
			return fmt.Sprintf("%s resource %q", strings.ToLower(r.Type.String()), e.Name)
		}
		return fmt.Sprintf("%q", e.Name)
	case *lang.Literal:
		if e.Kind == lang.LitNumber {
			return fmt.Sprintf("the number %s", e.Text)
		}
		return fmt.Sprintf("the string %s", e.Text)
	case *lang.Paren:
		return l.describe(e.X)
	}
	return fmt.Sprintf("%q", lang.ExprString(e))
}
