package lang

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// The participle grammar of job dependency expressions (bsub -w). The dg*
// types are the parse tree; ParseDepCond turns them into the AST of
// depcond_ast.go.
//
//	Cond  = Or ;
//	Or    = And { "||" And } ;
//	And   = Unary { "&&" Unary } ;
//	Unary = "!" Unary | "(" Or ")" | Test | Ref ;
//	Test  = Name "(" Ref [ "," Arg ] ")" ;
//	Arg   = [ "==" | "!=" | ">" | ">=" | "<" | "<=" ] Number | "*" | String ;
//	Ref   = ( Number | String | Name ) [ "[" Number "]" ] ;
//
// ! binds tighter than &&, which binds tighter than ||.

type dgOr struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Terms  []*dgAnd `parser:"@@ ( '||' @@ )*"`
}

type dgAnd struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Terms  []*dgUnary `parser:"@@ ( '&&' @@ )*"`
}

type dgUnary struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Not    *dgUnary `parser:"  '!' @@"`
	Group  *dgOr    `parser:"| '(' @@ ')'"`
	Test   *dgTest  `parser:"| @@"`
	Ref    *dgRef   `parser:"| @@"`
}

type dgTest struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Func   lexer.Token `parser:"@Name '('"`
	Ref    *dgRef      `parser:"@@"`
	Arg    *dgArg      `parser:"( ',' @@ )? ')'"`
}

type dgArg struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Op     *lexer.Token `parser:"@( '==' | '!=' | '>=' | '<=' | '>' | '<' )?"`
	Num    *lexer.Token `parser:"( @Number"`
	All    bool         `parser:"| @'*'"`
	Str    *lexer.Token `parser:"| @String )"`
}

type dgRef struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Num    *lexer.Token `parser:"( @Number"`
	Str    *lexer.Token `parser:"| @String"`
	Name   *lexer.Token `parser:"| @Name )"`
	Index  *lexer.Token `parser:"( '[' @Number ']' )?"`
}

// Token types of the dependency language.
const (
	dtName lexer.TokenType = iota + 1
	dtNumber
	dtString
	dtPunct
)

var depSymbols = map[string]lexer.TokenType{
	"EOF":    lexer.EOF,
	"Name":   dtName,
	"Number": dtNumber,
	"String": dtString,
	"Punct":  dtPunct,
}

// depLexerDef is the participle lexer definition of the language; the
// tokens come from lexDepCond, so Lex only reports misuse.
type depLexerDef struct{}

func (depLexerDef) Symbols() map[string]lexer.TokenType { return depSymbols }

func (depLexerDef) Lex(filename string, _ io.Reader) (lexer.Lexer, error) {
	return nil, fmt.Errorf("%s: dependency expressions are tokenised by lang.ParseDepCond", filename)
}

var depParser = sync.OnceValue(func() *participle.Parser[dgOr] {
	return participle.MustBuild[dgOr](
		participle.Lexer(depLexerDef{}),
		participle.UseLookahead(2),
	)
})

// The limits on dependency expressions: longer, larger or deeper ones are
// refused with CodeDepTooLarge.
const (
	DepMaxLen    = 16384 // bytes
	DepMaxTokens = 4096
	DepMaxDepth  = 64 // nested parentheses and ! operators
)

// ParseDepCond parses src as a job dependency expression (bsub -w) and
// returns its tree and the diagnostics (LSF405, LSF406). On an error the
// tree is nil. Whether the jobs exist is not checked here: that is the
// scheduler's job at submission.
func ParseDepCond(src *Source) (*DepCond, Diagnostics) {
	var ds Diagnostics
	toks, lerr := lexDepCond(src.Text)
	if lerr != nil {
		ds.Add(Error, lerr.code, src.SpanOf(lerr.off, max(lerr.off, lerr.end)), "%s", lerr.msg)
		return nil, ds
	}
	if len(toks) == 1 {
		ds.Add(Error, CodeDepSyntax, src.SpanOf(0, len(src.Text)), "empty dependency expression")
		return nil, ds
	}
	pl, err := lexer.Upgrade(&tokenStream{toks: toks})
	if err != nil {
		panic(err) // the token stream never fails
	}
	g, err := depParser().ParseFromLexer(pl)
	if err != nil {
		ds = append(ds, depSyntaxError(src, toks, err))
		return nil, ds
	}
	b := &depBuilder{src: src, ds: &ds}
	d := &DepCond{Expr: b.or(g)}
	if ds.HasErrors() {
		return nil, ds
	}
	return d, ds
}

// rrLexError serves both languages: a lexical error at a byte offset.
func lexDepCond(text string) ([]lexer.Token, *rrLexError) {
	if len(text) > DepMaxLen {
		return nil, &rrLexError{CodeDepTooLarge, 0, 0, fmt.Sprintf("dependency expression is %d bytes, more than the %d lsfc accepts", len(text), DepMaxLen)}
	}
	var toks []lexer.Token
	tok := func(typ lexer.TokenType, start, end int) {
		toks = append(toks, lexer.Token{Type: typ, Value: text[start:end], Pos: lexer.Position{Offset: start, Line: 1, Column: start + 1}})
	}
	var open []int // offsets of open parentheses and brackets
	nots := 0      // ! operators in a row
	i := 0
	for i < len(text) {
		if len(toks) >= DepMaxTokens {
			return nil, &rrLexError{CodeDepTooLarge, i, i, fmt.Sprintf("dependency expression has more than %d tokens", DepMaxTokens)}
		}
		c := text[i]
		if c != '!' && c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '(' {
			nots = 0
		}
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c >= '0' && c <= '9':
			j := i
			for j < len(text) && text[j] >= '0' && text[j] <= '9' {
				j++
			}
			if j < len(text) && isDepNameChar(text[j]) {
				k := j
				for k < len(text) && isDepNameChar(text[k]) {
					k++
				}
				return nil, &rrLexError{CodeDepSyntax, i, k, fmt.Sprintf("job name %s begins with a digit: put it in double quotes", text[i:k])}
			}
			tok(dtNumber, i, j)
			i = j
		case isDepNameChar(c) && c != '*' && c != '-':
			j := i + 1
			for j < len(text) && isDepNameChar(text[j]) {
				j++
			}
			tok(dtName, i, j)
			i = j
		case c == '"' || c == '\'':
			j := strings.IndexByte(text[i+1:], c)
			if j < 0 {
				return nil, &rrLexError{CodeDepSyntax, i, i + 1, fmt.Sprintf("string starting with %c is not closed", c)}
			}
			if !utf8.ValidString(text[i+1 : i+1+j]) {
				return nil, &rrLexError{CodeDepSyntax, i, i + j + 2, "invalid UTF-8 in a quoted string"}
			}
			tok(dtString, i, i+j+2)
			i += j + 2
		default:
			n, lerr := scanOperator(text, i, CodeDepSyntax)
			if lerr != nil {
				return nil, lerr
			}
			if n > 0 {
				tok(dtPunct, i, i+n)
				i += n
				continue
			}
			switch c {
			case '!':
				nots++
				if nots+len(open) > DepMaxDepth {
					return nil, &rrLexError{CodeDepTooLarge, i, i + 1, fmt.Sprintf("operators nest deeper than %d", DepMaxDepth)}
				}
			case '(', '[':
				if len(open)+nots >= DepMaxDepth {
					return nil, &rrLexError{CodeDepTooLarge, i, i + 1, fmt.Sprintf("parentheses nest deeper than %d", DepMaxDepth)}
				}
				open = append(open, i)
			case ')', ']':
				want := byte('(')
				if c == ']' {
					want = '['
				}
				if len(open) == 0 {
					return nil, &rrLexError{CodeDepSyntax, i, i + 1, fmt.Sprintf("%q has no matching %q", string(c), string(want))}
				}
				if top := open[len(open)-1]; text[top] != want {
					return nil, &rrLexError{CodeDepSyntax, top, top + 1, fmt.Sprintf("%q is not closed before %q", string(text[top]), string(c))}
				}
				open = open[:len(open)-1]
			case '<', '>', ',', '*':
			default:
				r, size := utf8.DecodeRuneInString(text[i:])
				if r == utf8.RuneError && size == 1 {
					return nil, &rrLexError{CodeDepSyntax, i, i + 1, fmt.Sprintf("invalid UTF-8 byte 0x%02x", text[i])}
				}
				return nil, &rrLexError{CodeDepSyntax, i, i + size, fmt.Sprintf("unexpected character %q", r)}
			}
			tok(dtPunct, i, i+1)
			i++
		}
	}
	if n := len(open); n > 0 {
		at := open[n-1]
		want := map[byte]string{'(': ")", '[': "]"}[text[at]]
		return nil, &rrLexError{CodeDepSyntax, at, at + 1, fmt.Sprintf("%q is not closed (missing %q)", string(text[at]), want)}
	}
	toks = append(toks, lexer.Token{Type: lexer.EOF, Pos: lexer.Position{Offset: len(text), Line: 1, Column: len(text) + 1}})
	return toks, nil
}

// isDepNameChar reports whether c may appear in an unquoted job name:
// letters, digits and _ . - / : @ ~ # + %, and the wildcard *.
func isDepNameChar(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	return strings.IndexByte("_.-/:@~#+%*", c) >= 0
}

// depSyntaxError turns a participle error into a diagnostic at the token
// that broke the parse.
func depSyntaxError(src *Source, toks []lexer.Token, err error) *Diagnostic {
	i, ok := errorToken(toks, err)
	if !ok {
		return &Diagnostic{Severity: Error, Code: CodeDepSyntax, Span: src.SpanOf(0, 0), Message: err.Error()}
	}
	t := toks[i]
	d := &Diagnostic{Severity: Error, Code: CodeDepSyntax, Span: src.SpanOf(t.Pos.Offset, t.Pos.Offset+len(t.Value))}
	what := fmt.Sprintf("%q", t.Value)
	if t.EOF() {
		what = "end of the expression"
	}
	d.Message = "unexpected " + what
	if i > 0 {
		switch prev := toks[i-1].Value; prev {
		case "&&", "||", "!", "(":
			d.Message += fmt.Sprintf(" (expected a condition after %q)", prev)
			return d
		case ",":
			d.Message += " (expected an exit code, a count, * or a quoted text after \",\")"
			return d
		}
		if ends := toks[i-1].Type != dtPunct || toks[i-1].Value == ")"; ends && (t.Type == dtName || t.Type == dtNumber || t.Type == dtString || t.Value == "(" || t.Value == "!") {
			d.Message += " (expected && or || between two conditions)"
			return d
		}
	}
	var ute *participle.UnexpectedTokenError
	if errors.As(err, &ute) {
		if exp := friendlyExpect(ute.Message()); exp != "" {
			d.Message += " (expected " + exp + ")"
		}
	}
	return d
}

// depBuilder turns the parse tree into the AST, checking each condition's
// name and arguments.
type depBuilder struct {
	src *Source
	ds  *Diagnostics
}

func (b *depBuilder) span(pos, end lexer.Position) Span { return b.src.SpanOf(pos.Offset, end.Offset) }

func (b *depBuilder) tokSpan(t lexer.Token) Span {
	return b.src.SpanOf(t.Pos.Offset, t.Pos.Offset+len(t.Value))
}

func (b *depBuilder) or(g *dgOr) DepExpr {
	if len(g.Terms) == 1 {
		return b.and(g.Terms[0])
	}
	e := &DepLogic{Op: "||", Span: b.span(g.Pos, g.EndPos)}
	for _, t := range g.Terms {
		e.Terms = appendTerm(e.Terms, e.Op, b.and(t))
	}
	return e
}

// appendTerm adds a term to the terms of an op group; a parenthesised
// group of the same op is merged in, as && and || associate, so that a
// condition has one tree however it is bracketed (and its canonical form
// parses back to it).
func appendTerm(terms []DepExpr, op string, x DepExpr) []DepExpr {
	if l, ok := x.(*DepLogic); ok && l.Op == op {
		return append(terms, l.Terms...)
	}
	return append(terms, x)
}

func (b *depBuilder) and(g *dgAnd) DepExpr {
	if len(g.Terms) == 1 {
		return b.unary(g.Terms[0])
	}
	e := &DepLogic{Op: "&&", Span: b.span(g.Pos, g.EndPos)}
	for _, t := range g.Terms {
		e.Terms = appendTerm(e.Terms, e.Op, b.unary(t))
	}
	return e
}

func (b *depBuilder) unary(g *dgUnary) DepExpr {
	switch {
	case g.Not != nil:
		return &DepNot{X: b.unary(g.Not), Span: b.span(g.Pos, g.EndPos)}
	case g.Group != nil:
		return b.or(g.Group)
	case g.Test != nil:
		return b.test(g.Test)
	}
	return &DepTest{Func: "done", Bare: true, Job: b.ref(g.Ref), Span: b.span(g.Pos, g.EndPos)}
}

func (b *depBuilder) test(g *dgTest) DepExpr {
	t := &DepTest{Func: strings.ToLower(g.Func.Value), Job: b.ref(g.Ref), Span: b.span(g.Pos, g.EndPos)}
	fsp := b.tokSpan(g.Func)
	known := false
	for _, f := range DepFuncs() {
		known = known || f == t.Func
	}
	if !known {
		msg := fmt.Sprintf("unknown dependency condition %q", g.Func.Value)
		if s := Suggest(t.Func, DepFuncs()); s != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", s)
		} else {
			msg += " (conditions are " + strings.Join(DepFuncs(), ", ") + ")"
		}
		b.ds.Add(Error, CodeDepSyntax, fsp, "%s", msg)
		return t
	}
	a := g.Arg
	switch {
	case t.Func == "exit":
		if a == nil {
			break
		}
		if a.Num == nil {
			b.ds.Add(Error, CodeDepSyntax, b.span(a.Pos, a.EndPos), "exit() takes an exit code, optionally after a comparison: exit(job, > 2)")
			break
		}
		t.Op, t.Value = "==", b.number(*a.Num, 255)
		if a.Op != nil {
			t.Op = a.Op.Value
		}
	case t.IsCount():
		switch {
		case a == nil:
			b.ds.Add(Error, CodeDepSyntax, fsp, "%s() needs a count: %s(job, > 2) or %s(job, *) for every element", t.Func, t.Func, t.Func)
		case a.All && a.Op == nil:
			t.All = true
		case a.Num != nil && a.Op != nil:
			t.Op, t.Value = a.Op.Value, b.number(*a.Num, 1<<30)
		case a.Num != nil:
			b.ds.Add(Error, CodeDepSyntax, b.span(a.Pos, a.EndPos), "%s() compares the count with an operator: %s(job, == %s)", t.Func, t.Func, a.Num.Value)
		default:
			b.ds.Add(Error, CodeDepSyntax, b.span(a.Pos, a.EndPos), "%s() takes an operator and a count, or *", t.Func)
		}
	case t.Func == "external":
		if a == nil || a.Str == nil || a.Op != nil {
			b.ds.Add(Error, CodeDepSyntax, fsp, "external() needs a status text in double quotes: external(job, \"text\")")
			break
		}
		t.Text = a.Str.Value[1 : len(a.Str.Value)-1]
	case a != nil:
		b.ds.Add(Error, CodeDepSyntax, b.span(a.Pos, a.EndPos), "%s() takes only a job", t.Func)
	}
	return t
}

// number reads a whole number no larger than limit.
func (b *depBuilder) number(t lexer.Token, limit int) int {
	n, err := strconv.Atoi(t.Value)
	if err != nil || n > limit {
		b.ds.Add(Error, CodeDepSyntax, b.tokSpan(t), "%s is out of range (at most %d)", t.Value, limit)
		return 0
	}
	return n
}

func (b *depBuilder) ref(g *dgRef) JobRef {
	r := JobRef{Span: b.span(g.Pos, g.EndPos)}
	switch {
	case g.Num != nil:
		id, err := strconv.ParseInt(g.Num.Value, 10, 64)
		if err != nil || id <= 0 {
			b.ds.Add(Error, CodeDepSyntax, b.tokSpan(*g.Num), "job ID %s is out of range", g.Num.Value)
		}
		r.ID = id
	case g.Str != nil:
		r.Name = g.Str.Value[1 : len(g.Str.Value)-1]
		if r.Name == "" {
			b.ds.Add(Error, CodeDepSyntax, b.tokSpan(*g.Str), "empty job name")
		}
	default:
		r.Name = g.Name.Value
	}
	if i := strings.IndexByte(r.Name, '*'); i >= 0 && i < len(r.Name)-1 {
		b.ds.Add(Error, CodeDepSyntax, r.Span, "the wildcard * may only end a job name: %q", r.Name)
	}
	if g.Index != nil {
		n, err := strconv.Atoi(g.Index.Value)
		if err != nil || n <= 0 || n > 1<<30 {
			b.ds.Add(Error, CodeDepSyntax, b.tokSpan(*g.Index), "array index %s is out of range", g.Index.Value)
		}
		r.Index = n
	}
	return r
}
