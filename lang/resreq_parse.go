package lang

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// ResReqParser parses resource requirement strings. Its zero value uses the
// default limits and LSF 10.1's rule that a section may appear once.
type ResReqParser struct {
	Limits ResReqLimits
	// AllowRepeats accepts a section given twice in one simple
	// requirement (openlava takes the first and ignores the rest); the
	// repeat is then a warning instead of an error.
	AllowRepeats bool
}

// ParseResReq parses src as a resource requirement with the default
// parser. See ResReqParser.Parse.
func ParseResReq(src *Source) (*ResReq, Diagnostics) { return ResReqParser{}.Parse(src) }

// Parse reads src (a -R string, or the value of RES_REQ, STOP_COND or
// RESUME_COND, whose derived Source maps positions into its file) and
// returns its syntax tree and the syntax diagnostics (LSF40x). On a syntax
// error the tree is nil. Names and types are not checked here: that is
// package compile's job.
func (p ResReqParser) Parse(src *Source) (*ResReq, Diagnostics) {
	var ds Diagnostics
	lim := p.Limits.withDefaults()
	toks, lerr := lexResReq(src.Text, lim)
	if lerr != nil {
		ds.Add(Error, lerr.code, src.SpanOf(lerr.off, max(lerr.off, lerr.end)), "%s", lerr.msg)
		return nil, ds
	}
	pl, err := lexer.Upgrade(&tokenStream{toks: toks})
	if err != nil {
		panic(err) // the token stream never fails
	}
	g, err := resreqParser().ParseFromLexer(pl)
	if err != nil {
		d := sectionError(src, toks)
		if d == nil {
			d = syntaxError(src, toks, err)
		}
		ds = append(ds, d)
		return nil, ds
	}
	b := &rrBuilder{src: src}
	r := b.resreq(g)
	p.checkRepeats(r, &ds)
	checkCounts(r, &ds)
	if ds.HasErrors() {
		return nil, ds
	}
	return r, ds
}

// syntaxError turns a participle error into a diagnostic at the token that
// broke the parse, naming the section when a word that is not one is
// followed by "[".
func syntaxError(src *Source, toks []lexer.Token, err error) *Diagnostic {
	i, ok := errorToken(toks, err)
	if !ok {
		return &Diagnostic{Severity: Error, Code: CodeRRSyntax, Span: src.SpanOf(0, 0), Message: err.Error()}
	}
	t := toks[i]
	// A word followed by "[" that is not a section name.
	for _, k := range []int{i, i - 1} {
		if k >= 0 && k+1 < len(toks) && toks[k].Type == rtIdent && toks[k+1].Value == "[" && !isSectionName(toks[k].Value) {
			d := &Diagnostic{Severity: Error, Code: CodeRRSection, Span: src.SpanOf(toks[k].Pos.Offset, toks[k].Pos.Offset+len(toks[k].Value))}
			d.Message = fmt.Sprintf("unknown section %q", toks[k].Value)
			if s := Suggest(toks[k].Value, SectionNames()); s != "" {
				d.Message += fmt.Sprintf(" (did you mean %q?)", s)
			} else {
				d.Message += fmt.Sprintf(" (sections are %s)", strings.Join(SectionNames(), ", "))
			}
			return d
		}
	}
	d := &Diagnostic{Severity: Error, Code: CodeRRSyntax, Span: src.SpanOf(t.Pos.Offset, t.Pos.Offset+len(t.Value))}
	what := fmt.Sprintf("%q", t.Value)
	if t.EOF() {
		what = "end of the requirement"
	}
	d.Message = "unexpected " + what
	if i > 0 && isOperator(toks[i-1].Value) {
		prev := toks[i-1].Value
		if (prev == "||" || prev == "+") && bracketDepth(toks[:i]) == 0 {
			d.Message += fmt.Sprintf(" (expected a requirement after %q)", prev)
		} else {
			d.Message += fmt.Sprintf(" (expected a value after %q)", prev)
		}
		return d
	}
	var ute *participle.UnexpectedTokenError
	if errors.As(err, &ute) {
		if exp := friendlyExpect(ute.Message()); exp != "" {
			d.Message += " (expected " + exp + ")"
		}
	}
	return d
}

func isOperator(s string) bool {
	switch s {
	case "==", "!=", "<", "<=", ">", ">=", "+", "-", "*", "/", "&&", "||", "!", "=":
		return true
	}
	return false
}

// bracketDepth returns how many ( [ { are open after toks.
func bracketDepth(toks []lexer.Token) int {
	d := 0
	for _, t := range toks {
		switch t.Value {
		case "(", "[", "{":
			d++
		case ")", "]", "}":
			d--
		}
	}
	return d
}

// sectionError parses each section body on its own and returns the error
// of the first body that does not parse, or nil. Parsing the whole string
// reports an error where participle last backtracked, often the section's
// "["; parsing the body alone finds the token that is really wrong.
func sectionError(src *Source, toks []lexer.Token) *Diagnostic {
	for i := 0; i+1 < len(toks); i++ {
		t := toks[i]
		if t.Type != rtIdent || !isSectionName(t.Value) || toks[i+1].Value != "[" {
			continue
		}
		depth, j := 0, i+1
		for ; j < len(toks); j++ {
			switch toks[j].Value {
			case "[":
				depth++
			case "]":
				depth--
			}
			if depth == 0 {
				break
			}
		}
		if j >= len(toks) {
			return nil
		}
		body := append(slices.Clone(toks[i+2:j]), lexer.Token{Type: lexer.EOF, Pos: toks[j].Pos})
		var err error
		switch t.Value {
		case "select":
			err = parseBody[rrSelect](body)
		case "filter":
			err = parseBody[rrExpr](body)
		case "order":
			err = parseBody[rrOrder](body)
		case "rusage":
			err = parseBody[rrRusage](body)
		case "span":
			err = parseBody[rrSpan](body)
		case "same", "cu":
			err = parseBody[rrNames](body)
		case "affinity":
			err = parseBody[rrAffinity](body)
		}
		if err != nil {
			// The body's end is the section's "]".
			body[len(body)-1] = toks[j]
			d := syntaxError(src, body, err)
			if len(body) == 1 {
				d.Message = fmt.Sprintf("empty %s section", t.Value)
			}
			return d
		}
		i = j
	}
	return nil
}

// parseBody parses tokens (ending with EOF) as production P.
func parseBody[P any](toks []lexer.Token) error {
	p, err := participle.ParserForProduction[P](resreqParser())
	if err != nil {
		panic(err) // every production named above is in the grammar
	}
	pl, err := lexer.Upgrade(&tokenStream{toks: toks})
	if err != nil {
		return err
	}
	_, err = p.ParseFromLexer(pl)
	return err
}

// friendlyExpect extracts what participle expected from its message when
// it is a plain list of tokens; a leading token of a sequence is kept
// alone; anything naming grammar rules gives "".
func friendlyExpect(msg string) string {
	i := strings.Index(msg, "(expected ")
	if i < 0 {
		return ""
	}
	exp := strings.TrimSuffix(msg[i+len("(expected "):], ")")
	if m := leadingToken().FindString(exp); m != "" {
		return strings.TrimSpace(m)
	}
	var parts []string
	for _, p := range strings.Split(exp, " | ") {
		p = strings.Trim(p, "()")
		switch {
		case quotedToken().MatchString(p):
			parts = append(parts, p)
		case p == "<ident>" || p == "<Ident>":
			parts = append(parts, "a name")
		case p == "<number>" || p == "<Number>":
			parts = append(parts, "a number")
		case p == "<string>" || p == "<String>":
			parts = append(parts, "a quoted string")
		default:
			return ""
		}
	}
	return strings.Join(parts, " or ")
}

// The patterns of a parse error's expected tokens, compiled at their
// first use: a command that parses no bad requirement never builds them.
var (
	quotedToken  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^"[^"]+"$`) })
	leadingToken = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^"[^"]+" `) })
)

func isSectionName(s string) bool {
	for _, n := range sectionNames[1:] {
		if n == s {
			return true
		}
	}
	return false
}

// checkRepeats reports a section given twice in one simple requirement.
func (p ResReqParser) checkRepeats(r *ResReq, ds *Diagnostics) {
	for _, alt := range r.Alts {
		for _, t := range alt.Terms {
			seen := map[SectionKind]*ReqSection{}
			for _, sec := range t.Simple.Sections {
				if first, ok := seen[sec.Kind]; ok {
					if p.AllowRepeats {
						ds.Add(Warning, CodeRRRepeat, sec.Keyword, "second %s section is ignored: openlava uses the first", sec.Kind).
							Note(first.Keyword, "the first %s section", sec.Kind)
					} else {
						ds.Add(Error, CodeRRRepeat, sec.Keyword, "%s section given twice; write one %s[] (or several -R options)", sec.Kind, sec.Kind).
							Note(first.Keyword, "the first %s section", sec.Kind)
					}
					continue
				}
				seen[sec.Kind] = sec
			}
		}
	}
}

// checkCounts reports a compound term whose slot count is not a positive
// whole number.
func checkCounts(r *ResReq, ds *Diagnostics) {
	for _, alt := range r.Alts {
		for _, t := range alt.Terms {
			if !t.CountSpan.IsValid() {
				continue
			}
			if text := t.CountSpan.Text(); t.Count < 1 || strings.Trim(text, "0123456789") != "" {
				ds.Add(Error, CodeRRSyntax, t.CountSpan, "slot count %q of a compound term must be a positive whole number", text)
			}
		}
	}
}

// rrBuilder turns the parse tree into the AST.
type rrBuilder struct {
	src *Source
}

// span returns the span from pos to endPos with the blanks before endPos
// trimmed (participle's end positions are the start of the next token).
func (b *rrBuilder) span(pos, end lexer.Position) Span {
	e := end.Offset
	for e > pos.Offset && (b.src.Text[e-1] == ' ' || b.src.Text[e-1] == '\t' || b.src.Text[e-1] == '\n' || b.src.Text[e-1] == '\r') {
		e--
	}
	return b.src.SpanOf(pos.Offset, e)
}

func (b *rrBuilder) tok(t lexer.Token) Span {
	return b.src.SpanOf(t.Pos.Offset, t.Pos.Offset+len(t.Value))
}

func (b *rrBuilder) word(t lexer.Token) Word { return Word{Text: t.Value, Span: b.tok(t)} }

func (b *rrBuilder) lit(t lexer.Token) *Literal { return parseLiteral(t.Value, b.tok(t)) }

func (b *rrBuilder) resreq(g *rrResReq) *ResReq {
	r := &ResReq{Span: b.src.SpanOf(0, len(b.src.Text))}
	for _, a := range g.Alts {
		var comp *Compound
		switch {
		case a.Braced != nil:
			comp = b.compound(a.Braced)
			comp.Braced = true
			comp.Span = b.span(a.Pos, a.EndPos)
		case a.Compound != nil:
			comp = b.compound(a.Compound)
		default:
			s := b.simple(a.Simple)
			comp = &Compound{Terms: []*Term{{Simple: s, Span: s.Span}}, Span: s.Span}
		}
		r.Alts = append(r.Alts, comp)
	}
	return r
}

func (b *rrBuilder) compound(g *rrCompound) *Compound {
	c := &Compound{Span: b.span(g.Pos, g.EndPos)}
	for _, gt := range g.Terms {
		t := &Term{Span: b.span(gt.Pos, gt.EndPos), Braced: true, Simple: b.simple(gt.Simple)}
		if gt.Count != nil {
			l := b.lit(*gt.Count)
			t.Count = int(l.Num)
			t.CountSpan = l.Span
		}
		c.Terms = append(c.Terms, t)
	}
	return c
}

func (b *rrBuilder) simple(g *rrSimple) *Simple {
	s := &Simple{Span: b.span(g.Pos, g.EndPos)}
	if g.Legacy != nil || g.Bare != nil {
		sec := &ReqSection{Kind: SecSelect, Bare: true, Select: b.selectBody(g.Legacy, g.Bare)}
		sec.Span = sec.Select.Span
		sec.Keyword = b.src.SpanOf(sec.Span.Start, sec.Span.Start)
		s.Sections = append(s.Sections, sec)
	}
	for _, gs := range g.Sections {
		s.Sections = append(s.Sections, b.section(gs))
	}
	return s
}

func (b *rrBuilder) section(g *rrSection) *ReqSection {
	sec := &ReqSection{Span: b.span(g.Pos, g.EndPos)}
	switch {
	case g.Select != nil:
		sec.Kind = SecSelect
		sec.Select = b.selectBody(g.Select.Legacy, g.Select.Expr)
	case g.Filter != nil:
		sec.Kind = SecFilter
		sec.Select = b.selectBody(nil, g.Filter)
	case g.Order != nil:
		sec.Kind = SecOrder
		for _, k := range g.Order.Keys {
			sec.Order = append(sec.Order, &OrderKey{Minus: k.Minus, Name: b.word(k.Name), Span: b.span(k.Pos, k.EndPos)})
		}
	case g.Rusage != nil:
		sec.Kind = SecRusage
		for _, grp := range g.Rusage.Groups {
			var usages []*Usage
			for _, gu := range grp.Usages {
				u := &Usage{Span: b.span(gu.Pos, gu.EndPos)}
				for _, gi := range gu.Items {
					it := &UsageItem{Name: b.word(gi.Name), Span: b.span(gi.Pos, gi.EndPos)}
					if gi.Value != nil {
						it.Value = b.lit(*gi.Value)
					}
					for _, ph := range gi.Phases {
						it.Phases = append(it.Phases, b.lit(ph.Value))
					}
					if gi.Per != nil {
						it.Per = gi.Per.Value
						it.PerSpan = b.tok(*gi.Per)
					}
					u.Items = append(u.Items, it)
				}
				usages = append(usages, u)
			}
			sec.Rusage = append(sec.Rusage, usages)
		}
	case g.Span != nil:
		sec.Kind = SecSpan
		for _, gi := range g.Span.Items {
			it := &ReqItem{Name: b.word(gi.Key), Minus: gi.Minus, Span: b.span(gi.Pos, gi.EndPos)}
			if gi.Value != nil {
				it.Value = b.lit(*gi.Value)
			}
			if gi.Count != nil {
				it.Count = b.lit(*gi.Count)
			}
			if gi.Pair != nil {
				it.Pair = true
				it.Count = b.lit(*gi.Pair)
			}
			sec.Items = append(sec.Items, it)
		}
	case g.Same != nil, g.Cu != nil:
		names := g.Same
		sec.Kind = SecSame
		if g.Cu != nil {
			names, sec.Kind = g.Cu, SecCu
		}
		for _, gi := range names.Items {
			it := &ReqItem{Name: b.word(gi.Name), Span: b.span(gi.Pos, gi.EndPos)}
			if gi.Value != nil {
				it.Value = b.lit(*gi.Value)
			}
			sec.Items = append(sec.Items, it)
		}
	case g.Affinity != nil:
		sec.Kind = SecAffinity
		for _, gt := range g.Affinity.Terms {
			sec.Affinity = append(sec.Affinity, b.affTerm(gt))
		}
	}
	sec.Keyword = b.src.SpanOf(sec.Span.Start, sec.Span.Start+len(sec.Kind.String()))
	return sec
}

func (b *rrBuilder) selectBody(leg *rrLegacy, e *rrExpr) *Select {
	s := &Select{}
	if leg != nil {
		s.Span = b.span(leg.Pos, leg.EndPos)
		if leg.One != nil {
			s.Legacy = []*LegacyTerm{b.legacyTerm(leg.One.Pos, leg.One.EndPos, leg.One.Minus, leg.One.Not, leg.One.Name, leg.One.Value)}
		}
		for _, t := range leg.Terms {
			s.Legacy = append(s.Legacy, b.legacyTerm(t.Pos, t.EndPos, t.Minus, t.Not, t.Name, t.Value))
		}
		return s
	}
	s.Expr = b.expr(e)
	s.Span = ExprSpan(s.Expr)
	return s
}

func (b *rrBuilder) legacyTerm(pos, end lexer.Position, minus bool, not, name, value *lexer.Token) *LegacyTerm {
	t := &LegacyTerm{Not: minus, Span: b.span(pos, end)}
	switch {
	case not != nil:
		t.Name = b.word(*not)
	case name != nil:
		t.Name = b.word(*name)
	}
	if value != nil {
		t.Value = b.lit(*value)
	}
	return t
}

func (b *rrBuilder) binary(op lexer.Token, x, y Expr) Expr {
	return &Binary{Op: op.Value, OpSpan: b.tok(op), X: x, Y: y}
}

func (b *rrBuilder) expr(g *rrExpr) Expr {
	x := b.and(g.Left)
	for _, t := range g.Rest {
		x = b.binary(t.Op, x, b.and(t.Right))
	}
	return x
}

func (b *rrBuilder) and(g *rrAnd) Expr {
	x := b.eq(g.Left)
	for _, t := range g.Rest {
		x = b.binary(t.Op, x, b.eq(t.Right))
	}
	return x
}

func (b *rrBuilder) eq(g *rrEq) Expr {
	x := b.rel(g.Left)
	for _, t := range g.Rest {
		x = b.binary(t.Op, x, b.rel(t.Right))
	}
	return x
}

func (b *rrBuilder) rel(g *rrRel) Expr {
	x := b.sum(g.Left)
	for _, t := range g.Rest {
		x = b.binary(t.Op, x, b.sum(t.Right))
	}
	return x
}

func (b *rrBuilder) sum(g *rrSum) Expr {
	x := b.prod(g.Left)
	for _, t := range g.Rest {
		x = b.binary(t.Op, x, b.prod(t.Right))
	}
	return x
}

func (b *rrBuilder) prod(g *rrProd) Expr {
	x := b.unary(g.Left)
	for _, t := range g.Rest {
		x = b.binary(t.Op, x, b.unary(t.Right))
	}
	return x
}

func (b *rrBuilder) unary(g *rrUnary) Expr {
	if g.Op != nil {
		return &Unary{Op: g.Op.Value, OpSpan: b.tok(*g.Op), X: b.unary(g.Operand)}
	}
	p := g.Primary
	sp := b.span(p.Pos, p.EndPos)
	switch {
	case p.Number != nil:
		return b.lit(*p.Number)
	case p.String != nil:
		return b.lit(*p.String)
	case p.Defined != nil:
		return &Defined{Name: b.word(*p.Defined), Span: sp}
	case p.Ident != nil:
		return &Ident{Name: p.Ident.Value, Span: b.tok(*p.Ident)}
	}
	return &Paren{X: b.expr(p.Paren), Span: sp}
}

func (b *rrBuilder) affTerm(g *rrAffTerm) *AffTerm {
	t := &AffTerm{Name: b.word(g.Name), Span: b.span(g.Pos, g.EndPos)}
	if g.Args != nil {
		t.Args = b.affArgs(g.Args)
	}
	if g.Count != nil {
		t.Count = b.lit(*g.Count)
	}
	if g.Value != nil {
		t.Value = b.affValue(g.Value)
	}
	return t
}

func (b *rrBuilder) affArgs(g *rrAffArgs) []*AffArg {
	var out []*AffArg
	for _, ga := range g.Args {
		a := &AffArg{Span: b.span(ga.Pos, ga.EndPos)}
		if ga.Number != nil {
			a.Number = b.lit(*ga.Number)
		}
		if ga.Name != nil {
			a.Name = b.word(*ga.Name)
		}
		if ga.Value != nil {
			a.Value = b.affValue(ga.Value)
		}
		out = append(out, a)
	}
	return out
}

func (b *rrBuilder) affValue(g *rrAffValue) *AffValue {
	v := &AffValue{Span: b.span(g.Pos, g.EndPos)}
	switch {
	case g.List != nil:
		v.IsList = true
		v.List = b.affArgs(g.List)
	case g.Number != nil:
		v.Number = b.lit(*g.Number)
	case g.Name != nil:
		v.Name = b.word(*g.Name)
		if g.Args != nil {
			v.Args = b.affArgs(g.Args)
		}
	}
	return v
}
