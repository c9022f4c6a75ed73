package lang

import (
	"slices"
	"strconv"
	"strings"
)

// String prints r in canonical form: every section written with its name
// (a bare select becomes select[...]), sections in the order select,
// order, rusage, span, same, cu, affinity, single blanks around binary
// operators and between sections, ", " between usage strings, " || "
// between alternatives. Parsing the result gives the same tree.
func (r *ResReq) String() string {
	var b strings.Builder
	for i, alt := range r.Alts {
		if i > 0 {
			b.WriteString(" || ")
		}
		printCompound(&b, alt, len(r.Alts) > 1)
	}
	return b.String()
}

func printCompound(b *strings.Builder, c *Compound, alternative bool) {
	braced := c.Braced || (alternative && (len(c.Terms) > 1 || c.Terms[0].Count == 0))
	inner := len(c.Terms) > 1 || c.Terms[0].Count > 0
	if braced && inner {
		b.WriteString("{")
	}
	for i, t := range c.Terms {
		if i > 0 {
			b.WriteString(" + ")
		}
		if t.Count > 0 {
			b.WriteString(strconv.Itoa(t.Count))
			b.WriteString("*")
		}
		if t.Braced || t.Count > 0 || (braced && !inner) || len(c.Terms) > 1 {
			b.WriteString("{")
			printSimple(b, t.Simple)
			b.WriteString("}")
		} else {
			printSimple(b, t.Simple)
		}
	}
	if braced && inner {
		b.WriteString("}")
	}
}

// String prints a simple requirement in canonical form.
func (s *Simple) String() string {
	var b strings.Builder
	printSimple(&b, s)
	return b.String()
}

func printSimple(b *strings.Builder, s *Simple) {
	secs := slices.Clone(s.Sections)
	slices.SortStableFunc(secs, func(x, y *ReqSection) int { return int(x.Kind) - int(y.Kind) })
	// The empty requirement of compound terms: "{-}".
	if len(secs) == 1 && secs[0].Kind == SecSelect && isEmptyLegacy(secs[0].Select) {
		b.WriteString("-")
		return
	}
	for i, sec := range secs {
		if i > 0 {
			b.WriteString(" ")
		}
		b.WriteString(sec.String())
	}
}

func isEmptyLegacy(s *Select) bool {
	return len(s.Legacy) == 1 && s.Legacy[0].Not && s.Legacy[0].Name.Text == "" && s.Legacy[0].Value == nil
}

// String prints a section in canonical form, with its name.
func (sec *ReqSection) String() string {
	var b strings.Builder
	b.WriteString(sec.Kind.String())
	b.WriteString("[")
	switch sec.Kind {
	case SecSelect, SecFilter:
		b.WriteString(sec.Select.String())
	case SecOrder:
		for i, k := range sec.Order {
			if i > 0 {
				b.WriteString(":")
			}
			if k.Minus {
				b.WriteString("-")
			}
			b.WriteString(k.Name.Text)
		}
	case SecRusage:
		for i, alt := range sec.Rusage {
			if i > 0 {
				b.WriteString(" || ")
			}
			for j, u := range alt {
				if j > 0 {
					b.WriteString(", ")
				}
				printUsage(&b, u)
			}
		}
	case SecSpan:
		for i, it := range sec.Items {
			if i > 0 {
				b.WriteString(",")
			}
			printItem(&b, it)
		}
	case SecSame, SecCu:
		for i, it := range sec.Items {
			if i > 0 {
				b.WriteString(":")
			}
			printItem(&b, it)
		}
	case SecAffinity:
		for i, t := range sec.Affinity {
			if i > 0 {
				b.WriteString(":")
			}
			printAffTerm(&b, t)
		}
	}
	b.WriteString("]")
	return b.String()
}

// String prints the body of a select section.
func (s *Select) String() string {
	if s.Expr != nil {
		return ExprString(s.Expr)
	}
	var b strings.Builder
	for i, t := range s.Legacy {
		if i > 0 {
			b.WriteString(":")
		}
		if t.Not {
			b.WriteString("-")
		}
		b.WriteString(t.Name.Text)
		if t.Value != nil {
			b.WriteString("=")
			b.WriteString(t.Value.Text)
		}
	}
	return b.String()
}

// ExprString prints an expression with single blanks around binary
// operators and its parentheses as written.
func ExprString(e Expr) string {
	var b strings.Builder
	printExpr(&b, e)
	return b.String()
}

func printExpr(b *strings.Builder, e Expr) {
	switch e := e.(type) {
	case *Binary:
		printExpr(b, e.X)
		b.WriteString(" ")
		b.WriteString(e.Op)
		b.WriteString(" ")
		printExpr(b, e.Y)
	case *Unary:
		b.WriteString(e.Op)
		printExpr(b, e.X)
	case *Ident:
		b.WriteString(e.Name)
	case *Literal:
		b.WriteString(e.Text)
	case *Defined:
		b.WriteString("defined(")
		b.WriteString(e.Name.Text)
		b.WriteString(")")
	case *Paren:
		b.WriteString("(")
		printExpr(b, e.X)
		b.WriteString(")")
	}
}

func printUsage(b *strings.Builder, u *Usage) {
	for i, it := range u.Items {
		if i > 0 {
			b.WriteString(":")
		}
		b.WriteString(it.Name.Text)
		b.WriteString("=")
		if it.Phases != nil {
			b.WriteString("(")
			for j, ph := range it.Phases {
				if j > 0 {
					b.WriteString(" ")
				}
				b.WriteString(ph.Text)
			}
			b.WriteString(")")
			continue
		}
		b.WriteString(it.Value.Text)
		if it.Per != "" {
			b.WriteString("/")
			b.WriteString(it.Per)
		}
	}
}

func printItem(b *strings.Builder, it *ReqItem) {
	b.WriteString(it.Name.Text)
	if it.Pair {
		b.WriteString(":")
		b.WriteString(it.Count.Text)
		return
	}
	if it.Value != nil {
		b.WriteString("=")
		if it.Minus {
			b.WriteString("-")
		}
		b.WriteString(it.Value.Text)
		if it.Count != nil {
			b.WriteString(":")
			b.WriteString(it.Count.Text)
		}
	}
}

func printAffTerm(b *strings.Builder, t *AffTerm) {
	b.WriteString(t.Name.Text)
	if t.Args != nil {
		b.WriteString("(")
		printAffArgs(b, t.Args)
		b.WriteString(")")
	}
	if t.Count != nil {
		b.WriteString("*")
		b.WriteString(t.Count.Text)
	}
	if t.Value != nil {
		b.WriteString("=")
		printAffValue(b, t.Value)
	}
}

func printAffArgs(b *strings.Builder, args []*AffArg) {
	for i, a := range args {
		if i > 0 {
			b.WriteString(",")
		}
		if a.Number != nil {
			b.WriteString(a.Number.Text)
		} else {
			b.WriteString(a.Name.Text)
		}
		if a.Value != nil {
			b.WriteString("=")
			printAffValue(b, a.Value)
		}
	}
}

func printAffValue(b *strings.Builder, v *AffValue) {
	switch {
	case v.IsList:
		b.WriteString("(")
		printAffArgs(b, v.List)
		b.WriteString(")")
	case v.Number != nil:
		b.WriteString(v.Number.Text)
	default:
		b.WriteString(v.Name.Text)
		if v.Args != nil {
			b.WriteString("(")
			printAffArgs(b, v.Args)
			b.WriteString(")")
		}
	}
}
