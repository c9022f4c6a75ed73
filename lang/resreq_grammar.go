package lang

import (
	"sync"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// The participle grammar of resource requirement strings. The g* types are
// the parse tree; resreq_parse.go turns them into the AST of resreq_ast.go.
//
//	ResReq    = [ Alt { "||" Alt } ] ;
//	Alt       = "{" Compound "}" | Compound | Simple ;
//	Compound  = Term { "+" Term } ;
//	Term      = [ Number "*" ] "{" Simple "}" ;
//	Simple    = [ Legacy | Expr ] { Section } ;
//	Section   = "select" "[" ( Legacy | Expr ) "]" | "order" "[" Order "]"
//	          | "rusage" "[" Rusage "]" | "span" "[" Span "]"
//	          | "same" "[" Same "]" | "cu" "[" Cu "]"
//	          | "affinity" "[" Affinity "]" | "filter" "[" Expr "]" ;
//	Expr      = And { "||" And } ;  And = Eq { "&&" Eq } ;
//	Eq        = Rel { ("==" | "!=") Rel } ;  Rel = Sum { ("<" | "<=" | ">" | ">=") Sum } ;
//	Sum       = Prod { ("+" | "-") Prod } ;  Prod = Unary { ("*" | "/") Unary } ;
//	Unary     = ("!" | "-") Unary | Primary ;
//	Primary   = Number | String | "defined" "(" Ident ")" | Ident | "(" Expr ")" ;
//	Legacy    = the colon syntax of LSF base: r1m=0.5:swp=20:-ultrix, "-".
//
// Operator precedence follows LSF's table (unary highest; then * /, + -,
// relations, equality, &&, ||).

type rrResReq struct {
	Pos  lexer.Position
	Alts []*rrAlt `parser:"( @@ ( '||' @@ )* )?"`
}

type rrAlt struct {
	Pos      lexer.Position
	EndPos   lexer.Position
	Braced   *rrCompound `parser:"  '{' @@ '}'"`
	Compound *rrCompound `parser:"| @@"`
	Simple   *rrSimple   `parser:"| @@"`
}

type rrCompound struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Terms  []*rrTerm `parser:"@@ ( '+' @@ )*"`
}

type rrTerm struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Count  *lexer.Token `parser:"( @Number '*' )?"`
	Simple *rrSimple    `parser:"'{' @@ '}'"`
}

type rrSimple struct {
	Pos      lexer.Position
	EndPos   lexer.Position
	Legacy   *rrLegacy    `parser:"( ( @@"`
	Bare     *rrExpr      `parser:"    | @@ )"`
	Sections []*rrSection `parser:"  @@* | @@+ )"`
}

type rrSection struct {
	Pos      lexer.Position
	EndPos   lexer.Position
	Select   *rrSelect   `parser:"  'select' '[' @@ ']'"`
	Order    *rrOrder    `parser:"| 'order' '[' @@ ']'"`
	Rusage   *rrRusage   `parser:"| 'rusage' '[' @@ ']'"`
	Span     *rrSpan     `parser:"| 'span' '[' @@ ']'"`
	Same     *rrNames    `parser:"| 'same' '[' @@ ']'"`
	Cu       *rrNames    `parser:"| 'cu' '[' @@ ']'"`
	Affinity *rrAffinity `parser:"| 'affinity' '[' @@ ']'"`
	Filter   *rrExpr     `parser:"| 'filter' '[' @@ ']'"`
}

type rrSelect struct {
	Legacy *rrLegacy `parser:"  @@"`
	Expr   *rrExpr   `parser:"| @@"`
}

// Legacy syntax: colon-separated terms; a single term only in the forms an
// expression cannot take ("-", "-name", "name=value").
type rrLegacy struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Terms  []*rrLegacyTerm `parser:"  @@ ( ':' @@ )+"`
	One    *rrLegacyOne    `parser:"| @@ (?= ']' | '}' | EOF | Ident '[' )"`
}

type rrLegacyTerm struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Minus  bool         `parser:"( @'-'"`
	Not    *lexer.Token `parser:"  @Ident? )"`
	Name   *lexer.Token `parser:"| @Ident"`
	Value  *lexer.Token `parser:"  ( '=' @(Ident | Number | String) )?"`
}

type rrLegacyOne struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Minus  bool         `parser:"( @'-'"`
	Not    *lexer.Token `parser:"  @Ident? )"`
	Name   *lexer.Token `parser:"| @Ident '='"`
	Value  *lexer.Token `parser:"  @(Ident | Number | String)"`
}

type rrExpr struct {
	Left *rrAnd      `parser:"@@"`
	Rest []*rrOrTail `parser:"@@*"`
}

type rrOrTail struct {
	Op    lexer.Token `parser:"@'||'"`
	Right *rrAnd      `parser:"@@"`
}

type rrAnd struct {
	Left *rrEq        `parser:"@@"`
	Rest []*rrAndTail `parser:"@@*"`
}

type rrAndTail struct {
	Op    lexer.Token `parser:"@'&&'"`
	Right *rrEq       `parser:"@@"`
}

type rrEq struct {
	Left *rrRel      `parser:"@@"`
	Rest []*rrEqTail `parser:"@@*"`
}

type rrEqTail struct {
	Op    lexer.Token `parser:"@('==' | '!=')"`
	Right *rrRel      `parser:"@@"`
}

type rrRel struct {
	Left *rrSum       `parser:"@@"`
	Rest []*rrRelTail `parser:"@@*"`
}

type rrRelTail struct {
	Op    lexer.Token `parser:"@('<=' | '>=' | '<' | '>')"`
	Right *rrSum      `parser:"@@"`
}

type rrSum struct {
	Left *rrProd      `parser:"@@"`
	Rest []*rrSumTail `parser:"@@*"`
}

type rrSumTail struct {
	Op    lexer.Token `parser:"@('+' | '-')"`
	Right *rrProd     `parser:"@@"`
}

type rrProd struct {
	Left *rrUnary      `parser:"@@"`
	Rest []*rrProdTail `parser:"@@*"`
}

type rrProdTail struct {
	Op    lexer.Token `parser:"@('*' | '/')"`
	Right *rrUnary    `parser:"@@"`
}

type rrUnary struct {
	Op      *lexer.Token `parser:"( @('!' | '-')"`
	Operand *rrUnary     `parser:"  @@ )"`
	Primary *rrPrimary   `parser:"| @@"`
}

type rrPrimary struct {
	Pos     lexer.Position
	EndPos  lexer.Position
	Number  *lexer.Token `parser:"  @Number"`
	String  *lexer.Token `parser:"| @String"`
	Defined *lexer.Token `parser:"| 'defined' '(' @Ident ')'"`
	Ident   *lexer.Token `parser:"| (?! Ident '[' ) @Ident"`
	Paren   *rrExpr      `parser:"| '(' @@ ')'"`
}

// order[[-]name:[-]name...]
type rrOrder struct {
	Keys []*rrOrderKey `parser:"@@ ( ':' @@ )*"`
}

type rrOrderKey struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Minus  bool        `parser:"@'-'?"`
	Name   lexer.Token `parser:"@Ident"`
}

// rusage[usage, usage || usage]
type rrRusage struct {
	Groups []*rrUsageGroup `parser:"@@ ( '||' @@ )*"`
}

type rrUsageGroup struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Usages []*rrUsage `parser:"@@ ( ',' @@ )*"`
}

type rrUsage struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Items  []*rrUsageItem `parser:"@@ ( ':' @@ )*"`
}

type rrUsageItem struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Name   lexer.Token  `parser:"@Ident '='"`
	Phases []*rrPhase   `parser:"( '(' @@+ ')'"`
	Value  *lexer.Token `parser:"| @(Number | Ident | String)"`
	Per    *lexer.Token `parser:"  ( '/' @Ident )? )"`
}

type rrPhase struct {
	Value lexer.Token `parser:"@(Number | Ident | String)"`
}

// span[key=value,...]; a ptile list continues with TYPE:N items.
type rrSpan struct {
	Items []*rrSpanItem `parser:"@@ ( ',' @@ )*"`
}

type rrSpanItem struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Key    lexer.Token  `parser:"@Ident"`
	Minus  bool         `parser:"( '=' @'-'?"`
	Value  *lexer.Token `parser:"  @(Number | String | Ident)"`
	Count  *lexer.Token `parser:"  ( ':' @Number )?"`
	Pair   *lexer.Token `parser:"| ':' @Number )?"`
}

// same[a:b], cu[key=value:word]
type rrNames struct {
	Items []*rrNameItem `parser:"@@ ( ':' @@ )*"`
}

type rrNameItem struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Name   lexer.Token  `parser:"@Ident"`
	Value  *lexer.Token `parser:"( '=' @(Ident | Number | String) )?"`
}

// affinity[pu(args)*n:key=value(args)...]
type rrAffinity struct {
	Terms []*rrAffTerm `parser:"@@ ( ':' @@ )*"`
}

type rrAffTerm struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Name   lexer.Token  `parser:"@Ident"`
	Args   *rrAffArgs   `parser:"( '(' @@ ')' )?"`
	Count  *lexer.Token `parser:"( '*' @Number )?"`
	Value  *rrAffValue  `parser:"( '=' @@ )?"`
}

type rrAffArgs struct {
	Args []*rrAffArg `parser:"@@ ( ',' @@ )*"`
}

type rrAffArg struct {
	Pos    lexer.Position
	EndPos lexer.Position
	Number *lexer.Token `parser:"  @Number"`
	Name   *lexer.Token `parser:"| @Ident"`
	Value  *rrAffValue  `parser:"  ( '=' @@ )?"`
}

type rrAffValue struct {
	Pos    lexer.Position
	EndPos lexer.Position
	List   *rrAffArgs   `parser:"  '(' @@ ')'"`
	Number *lexer.Token `parser:"| @Number"`
	Name   *lexer.Token `parser:"| @Ident"`
	Args   *rrAffArgs   `parser:"  ( '(' @@ ')' )?"`
}

var resreqParser = sync.OnceValue(func() *participle.Parser[rrResReq] {
	return participle.MustBuild[rrResReq](
		participle.Lexer(resreqLexerDef{}),
		participle.UseLookahead(4),
	)
})
