package lang

import (
	"strconv"
	"strings"
)

// A ResReq is a parsed resource requirement string: one or more
// alternatives ({...} || {...}), each a compound requirement (n*{...} +
// m*{...}) or a simple one.
type ResReq struct {
	// Alts are the alternatives, tried left to right. An empty string has
	// none.
	Alts []*Compound
	Span Span
}

// Simple returns the requirement when it is a single simple one (no
// alternatives, no compound terms), else nil.
func (r *ResReq) Simple() *Simple {
	if len(r.Alts) == 1 && len(r.Alts[0].Terms) == 1 && r.Alts[0].Terms[0].Count == 0 {
		return r.Alts[0].Terms[0].Simple
	}
	return nil
}

// A Compound is a list of terms each applying to a number of slots; a
// simple requirement is a Compound of one term with no count.
type Compound struct {
	Terms []*Term
	// Braced is true when the compound was written inside { } as an
	// alternative.
	Braced bool
	Span   Span
}

// A Term is one part of a compound requirement: Count slots with the
// requirement Simple ("2*{span[ptile=1]}"). Count is 0 when none was
// written.
type Term struct {
	Count     int
	CountSpan Span
	// Braced is true when the requirement was written inside { }.
	Braced bool
	Simple *Simple
	Span   Span
}

// SectionKind names a section of a simple requirement.
type SectionKind uint8

// The sections, in canonical order.
const (
	SecSelect SectionKind = iota + 1
	SecOrder
	SecRusage
	SecSpan
	SecSame
	SecCu
	SecAffinity
	SecFilter // openlava only
)

var sectionNames = [...]string{
	SecSelect: "select", SecOrder: "order", SecRusage: "rusage", SecSpan: "span",
	SecSame: "same", SecCu: "cu", SecAffinity: "affinity", SecFilter: "filter",
}

func (k SectionKind) String() string {
	if int(k) < len(sectionNames) {
		return sectionNames[k]
	}
	return "section"
}

// SectionNames returns the section keywords, in canonical order.
func SectionNames() []string { return append([]string(nil), sectionNames[1:]...) }

// A Simple is a simple requirement: a list of sections. A leading select
// written without its keyword (the legacy form "mem>100 order[ut]") is a
// SecSelect section with Bare set.
type Simple struct {
	Sections []*ReqSection
	Span     Span
}

// Section returns the first section of kind k, or nil.
func (s *Simple) Section(k SectionKind) *ReqSection {
	for _, sec := range s.Sections {
		if sec.Kind == k {
			return sec
		}
	}
	return nil
}

// A ReqSection is one section of a simple requirement. Exactly one of its
// body fields is set, according to Kind.
type ReqSection struct {
	Kind SectionKind
	// Bare is true for a select written without "select[...]".
	Bare bool
	// Keyword spans the section name; Span the whole section.
	Keyword Span
	Span    Span

	Select   *Select     // select, filter
	Order    []*OrderKey // order
	Rusage   [][]*Usage  // rusage: alternatives (||) of comma-separated usage strings
	Items    []*ReqItem  // span, same, cu
	Affinity []*AffTerm  // affinity
}

// A Select is the body of a select section: an expression, or a list of
// terms in LSF base's legacy colon syntax.
type Select struct {
	Expr   Expr
	Legacy []*LegacyTerm
	Span   Span
}

// A LegacyTerm is one term of the legacy colon syntax: "name" (non-zero or
// present), "-name" (boolean absent), "-" (any host type) or
// "name=value" (at most value for increasing indices, at least value for
// decreasing ones, equal for strings).
type LegacyTerm struct {
	Not   bool
	Name  Word
	Value *Literal
	Span  Span
}

// Expr is a node of a select expression: *Binary, *Unary, *Ident,
// *Literal, *Defined or *Paren.
type Expr interface {
	exprSpan() Span
}

// ExprSpan returns the span of an expression node.
func ExprSpan(e Expr) Span { return e.exprSpan() }

// A Binary is X Op Y. Op is one of || && == != < <= > >= + - * /.
type Binary struct {
	Op     string
	OpSpan Span
	X, Y   Expr
}

// A Unary is Op X with Op "!" or "-".
type Unary struct {
	Op     string
	OpSpan Span
	X      Expr
}

// An Ident is a resource name, or a bare word compared with a string
// resource (type==X86_64).
type Ident struct {
	Name string
	Span Span
}

// LiteralKind tells a number from a string.
type LiteralKind uint8

// The literal kinds.
const (
	LitNumber LiteralKind = iota + 1
	LitString
	LitWord // an unquoted word used as a value (rusage, legacy syntax)
)

// A Literal is a number (with an optional unit suffix, "8G", "2h"), a
// quoted string, or a bare word value.
type Literal struct {
	Kind LiteralKind
	// Text is the literal as written, quotes included.
	Text string
	// Num is the number's value without its unit; Unit its suffix as
	// written ("G", "MB", "h") or "".
	Num  float64
	Unit string
	// Str is the string's value without quotes, or the word.
	Str  string
	Span Span
}

// A Defined is defined(name).
type Defined struct {
	Name Word
	Span Span
}

// A Paren is ( X ), kept so that printing keeps the user's grouping.
type Paren struct {
	X    Expr
	Span Span
}

func (e *Binary) exprSpan() Span  { return ExprSpan(e.X).Cover(ExprSpan(e.Y)) }
func (e *Unary) exprSpan() Span   { return e.OpSpan.Cover(ExprSpan(e.X)) }
func (e *Ident) exprSpan() Span   { return e.Span }
func (e *Literal) exprSpan() Span { return e.Span }
func (e *Defined) exprSpan() Span { return e.Span }
func (e *Paren) exprSpan() Span   { return e.Span }

// An OrderKey is one key of order[]: a resource, "-" reversing its
// direction.
type OrderKey struct {
	Minus bool
	Name  Word
	Span  Span
}

// A Usage is one comma-separated usage string of rusage[]: resources to
// reserve and their duration and decay.
type Usage struct {
	Items []*UsageItem
	Span  Span
}

// A UsageItem is name=value in a usage string; duration= and decay= are
// items too. Phases holds a multi-phase list "(v1 v2 ...)" instead of
// Value.
type UsageItem struct {
	Name   Word
	Value  *Literal
	Phases []*Literal
	// Per is "job", "task" or "host" for a value written "10/job", else "".
	Per     string
	PerSpan Span
	Span    Span
}

// Find returns the item of a usage string named name (case-sensitive), or
// nil.
func (u *Usage) Find(name string) *UsageItem {
	for _, it := range u.Items {
		if it.Name.Text == name {
			return it
		}
	}
	return nil
}

// An ReqItem is one item of span[], same[] or cu[]: a name, "name=value", or
// in span[] a ptile "TYPE:N" pair (Pair set).
type ReqItem struct {
	Name  Word
	Value *Literal
	// Minus is true for a negative value ("hosts=-1").
	Minus bool
	// Count is N in "ptile=TYPE:N" or a "TYPE:N" pair.
	Count *Literal
	// Pair is true for a "TYPE:N" item continuing a ptile list.
	Pair bool
	Span Span
}

// An AffTerm is one colon-separated term of affinity[]:
// name[(args)][*count][=value].
type AffTerm struct {
	Name  Word
	Args  []*AffArg
	Count *Literal
	Value *AffValue
	Span  Span
}

// An AffArg is an argument of a processor unit or distribute value:
// a number, a word, or key=value.
type AffArg struct {
	Number *Literal
	Name   Word
	Value  *AffValue
	Span   Span
}

// An AffValue is the value after "=" in affinity[]: a word with optional
// arguments ("pack(socket=1)"), a number, or a parenthesised list.
type AffValue struct {
	Name   Word
	Number *Literal
	List   []*AffArg
	Args   []*AffArg
	IsList bool
	Span   Span
}

// parseLiteral builds a literal from a token's text.
func parseLiteral(text string, sp Span) *Literal {
	l := &Literal{Text: text, Span: sp}
	switch {
	case strings.HasPrefix(text, "'") || strings.HasPrefix(text, `"`):
		l.Kind = LitString
		l.Str = text[1 : len(text)-1]
	case len(text) > 0 && (text[0] >= '0' && text[0] <= '9' || text[0] == '.'):
		l.Kind = LitNumber
		i := len(text)
		for i > 0 && (text[i-1] >= 'a' && text[i-1] <= 'z' || text[i-1] >= 'A' && text[i-1] <= 'Z') {
			i--
		}
		l.Num, _ = strconv.ParseFloat(text[:i], 64)
		l.Unit = text[i:]
	default:
		l.Kind = LitWord
		l.Str = text
	}
	return l
}

// Mirror returns the comparison operator that compares its operands the
// other way round: "<" for ">", "<=" for ">=", and the others unchanged.
func Mirror(op string) string {
	switch op {
	case "<":
		return ">"
	case ">":
		return "<"
	case "<=":
		return ">="
	case ">=":
		return "<="
	}
	return op
}
