package compile

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"cel.dev/cel-go/cel"

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

// srcNode records where a piece of CEL text came from, so that an issue
// CEL reports inside it is shown at the right byte of the requirement.
type srcNode struct {
	start, end int // CEL text range
	span       lang.Span
	expr       lang.Expr
	x, y       ty // operand types of an operator node
}

// lowerer turns a select expression into CEL text, inferring types to
// insert LSF's conversions: any non-zero number is true, booleans are 0
// or 1 in arithmetic, a bare word compared with a string resource is a
// string, type==any always matches.
type lowerer struct {
	env   *Env
	opts  SelectOptions
	b     strings.Builder
	nodes []srcNode
	diags lang.Diagnostics
	refs  map[int]bool
}

// celName is the CEL variable holding the value of the resource in slot
// i; celDefined the one telling whether the host defines it.
func celName(i int) string    { return "r" + strconv.Itoa(i) }
func celDefined(i int) string { return "d" + strconv.Itoa(i) }

func (l *lowerer) write(s string) { l.b.WriteString(s) }

// record remembers that CEL text from start to the current end came from e.
func (l *lowerer) record(start int, e lang.Expr, x, y ty) {
	l.nodes = append(l.nodes, srcNode{start: start, end: l.b.Len(), span: lang.ExprSpan(e), expr: e, x: x, y: y})
}

// cond emits e as a CEL bool.
func (l *lowerer) cond(e lang.Expr) ty {
	start := l.b.Len()
	l.write("(")
	t := l.expr(e)
	switch t {
	case tyNum:
		l.write(" != 0.0")
	case tyStr:
		// Left for CEL to reject: a string is no condition.
		l.write(" && true")
	}
	l.write(")")
	if t == tyStr {
		l.record(start, e, tyStr, tyBool)
	}
	return tyBool
}

// num emits e as a CEL double.
func (l *lowerer) num(e lang.Expr) ty {
	switch t := l.peekType(e); t {
	case tyBool:
		l.write("(")
		l.expr(e)
		l.write(" ? 1.0 : 0.0)")
		return tyNum
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

// expr emits e and returns its type.
func (l *lowerer) expr(e lang.Expr) ty {
	start := l.b.Len()
	switch e := e.(type) {
	case *lang.Paren:
		l.write("(")
		t := l.expr(e.X)
		l.write(")")
		return t
	case *lang.Ident:
		r, slot, ok := l.env.Lookup(e.Name)
		if !ok {
			l.unknown(e.Name, e.Span)
			l.write("0.0")
			return tyBad
		}
		l.refs[slot] = true
		l.write(celName(slot))
		return resTy(r.Type)
	case *lang.Defined:
		_, slot, ok := l.env.Lookup(e.Name.Text)
		if !ok {
			l.unknown(e.Name.Text, e.Name.Span)
			l.write("false")
			return tyBool
		}
		l.refs[slot] = true
		l.write(celDefined(slot))
		return tyBool
	case *lang.Literal:
		return l.literal(e, nil)
	case *lang.Unary:
		if e.Op == "!" {
			switch t := l.peekType(e.X); t {
			case tyNum:
				// !x is 1 when x is 0.
				l.write("(")
				l.expr(e.X)
				l.write(" == 0.0)")
			case tyStr:
				l.write("!(")
				l.expr(e.X)
				l.write(")")
				l.record(start, e, tyStr, tyBad)
			default:
				l.write("!(")
				l.expr(e.X)
				l.write(")")
			}
			return tyBool
		}
		l.write("-(")
		t := l.num(e.X)
		l.write(")")
		if t == tyStr {
			l.record(start, e, tyStr, tyBad)
		}
		return tyNum
	case *lang.Binary:
		return l.binary(e, start)
	}
	l.write("0.0")
	return tyBad
}

func (l *lowerer) binary(e *lang.Binary, start int) ty {
	switch e.Op {
	case "&&", "||":
		l.write("(")
		l.cond(e.X)
		l.write(" " + e.Op + " ")
		l.cond(e.Y)
		l.write(")")
		return tyBool
	case "+", "-", "*", "/":
		l.write("(")
		var x, y ty
		if e.Op == "/" {
			// LSF fails a host on division by zero; lsf_div errors then.
			l.write("lsf_div(")
			x = l.num(e.X)
			l.write(", ")
			y = l.num(e.Y)
			l.write(")")
		} else {
			x = l.num(e.X)
			l.write(" " + e.Op + " ")
			y = l.num(e.Y)
		}
		l.write(")")
		l.record(start, e, x, y)
		return tyNum
	}
	return l.compare(e, start)
}

// compare emits a comparison. A bare word facing a string resource is a
// string; "any" matches every type or model, "local" the submission
// host's.
func (l *lowerer) compare(e *lang.Binary, start int) ty {
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
	l.write("(")
	var x, y ty
	switch {
	case xt == tyStr || yt == tyStr:
		// Strings compare as strings; a mismatch is left to CEL.
		x = l.expr(e.X)
		l.write(" " + op + " ")
		y = l.operand(e.Y, e.X)
	case xt == tyBool && yt == tyBool && (op == "==" || op == "!="):
		x = l.expr(e.X)
		l.write(" " + op + " ")
		y = l.expr(e.Y)
	default:
		x = l.numOperand(e.X, e.Y)
		l.write(" " + op + " ")
		y = l.numOperand(e.Y, e.X)
	}
	l.write(")")
	l.record(start, e, x, y)
	return tyBool
}

// operand emits a literal with its unit converted for the resource it is
// compared with.
func (l *lowerer) operand(e, other lang.Expr) ty {
	if lit, ok := e.(*lang.Literal); ok {
		return l.literal(lit, other)
	}
	return l.expr(e)
}

func (l *lowerer) numOperand(e, other lang.Expr) ty {
	if lit, ok := e.(*lang.Literal); ok {
		return l.literal(lit, other)
	}
	return l.num(e)
}

// compareWord emits str op "word".
func (l *lowerer) compareWord(e *lang.Binary, str lang.Expr, word *lang.Ident, op string, start int) ty {
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
			l.anyLocal(e, op)
			return tyBool
		case value == "local" && local == "" && l.opts.InConfig:
			l.anyLocal(e, op)
			return tyBool
		case value == "local" && local == "":
			l.diags.Add(lang.Warning, CodeLocalType, word.Span,
				"%s==local: the submission host's %s is not known here; every %s matches (give it with --from-type)", res, res, res)
			l.anyLocal(e, op)
			return tyBool
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
	l.write("(")
	x := l.expr(str)
	l.write(" " + op + " " + strconv.Quote(value) + ")")
	l.record(start, e, x, tyStr)
	return tyBool
}

// anyLocal emits the constant a comparison with "any" has.
func (l *lowerer) anyLocal(e *lang.Binary, op string) {
	switch op {
	case "==", "<=", ">=":
		l.write("true")
	default:
		l.write("false")
	}
}

// literal emits a number or string; a memory unit is converted to the unit
// of the resource the literal is compared with (or of bare numbers).
func (l *lowerer) literal(e *lang.Literal, other lang.Expr) ty {
	if e.Kind != lang.LitNumber {
		l.write(strconv.Quote(e.Str))
		return tyStr
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
	l.write(celDouble(v))
	return tyNum
}

func keysOf(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}

func isTmp(name string) bool { return name == "tmp" || name == "maxtmp" }

// celDouble formats v as a CEL double literal.
func celDouble(v float64) string {
	s := strconv.FormatFloat(v, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eEn") {
		s += ".0"
	}
	return s
}

// unknown reports a name that is no resource, suggesting the closest one.
func (l *lowerer) unknown(name string, sp lang.Span) {
	msg := fmt.Sprintf("unknown resource %q", name)
	if s := lang.Suggest(name, l.env.Names()); s != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", s)
	}
	l.diags = append(l.diags, &lang.Diagnostic{Severity: lang.Error, Code: CodeUnknownResource, Span: sp, Message: msg})
}

// celIssue turns an issue CEL reported into a diagnostic at the node of
// the requirement that produced the offending CEL text.
func (l *lowerer) celIssue(text string, e *cel.Error) *lang.Diagnostic {
	// CEL columns count code points from 0.
	off := 0
	for col := 0; off < len(text) && col < e.Location.Column(); col++ {
		_, size := utf8.DecodeRuneInString(text[off:])
		off += size
	}
	var best *srcNode
	for i := range l.nodes {
		n := &l.nodes[i]
		if n.start <= off && off < n.end && (best == nil || n.end-n.start < best.end-best.start) {
			best = n
		}
	}
	if best == nil {
		return &lang.Diagnostic{Severity: lang.Error, Code: CodeResReqType, Message: "the select expression does not type-check"}
	}
	sp, msg := l.typeMessage(best)
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
