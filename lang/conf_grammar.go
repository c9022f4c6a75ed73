package lang

import (
	"fmt"
	"io"
	"sort"
	"sync"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
)

// The block structure of a configuration file is a participle grammar over
// line tokens: the scanner (conf_lexer.go) reads each logical line into an
// item and gives it one token; the grammar groups the tokens into sections.
//
//	File    = Item* ;
//	Item    = Section | Assign | Comment | Directive | Stray ;
//	Section = Begin (Assign | Row | Comment | Directive)* (End | SyntheticEnd) ;
//
// Before the grammar runs, balance() makes every token stream parse: it
// closes a section left open (at the next Begin or at the end of the file)
// with a SyntheticEnd token, turns an End with no open section and a line
// outside any section into Stray tokens, and reports each repair as a
// diagnostic. So one mistake never hides the next, and the grammar states
// the structure every file ends up with.

// Token types of the line tokens.
const (
	tokBegin lexer.TokenType = iota + 1
	tokEnd
	tokSyntheticEnd
	tokAssign
	tokRow
	tokComment
	tokDirective
	tokStray
)

var lineSymbols = map[string]lexer.TokenType{
	"EOF":          lexer.EOF,
	"Begin":        tokBegin,
	"End":          tokEnd,
	"SyntheticEnd": tokSyntheticEnd,
	"Assign":       tokAssign,
	"Row":          tokRow,
	"Comment":      tokComment,
	"Directive":    tokDirective,
	"Stray":        tokStray,
}

// lineLexerDef is the participle lexer definition of line tokens. The
// tokens come from the scanner, never from text, so Lex only reports
// misuse.
type lineLexerDef struct{}

func (lineLexerDef) Symbols() map[string]lexer.TokenType { return lineSymbols }

func (lineLexerDef) Lex(filename string, _ io.Reader) (lexer.Lexer, error) {
	return nil, fmt.Errorf("%s: configuration files are tokenised by lang.ParseConfig", filename)
}

// tokenStream feeds scanned tokens to participle.
type tokenStream struct {
	toks []lexer.Token
	i    int
}

func (s *tokenStream) Next() (lexer.Token, error) {
	t := s.toks[s.i]
	if s.i < len(s.toks)-1 {
		s.i++
	}
	return t, nil
}

type gFile struct {
	Items []*gItem `parser:"@@*"`
}

type gItem struct {
	Section *gSection `parser:"  @@"`
	Line    *gLine    `parser:"| @@"`
}

type gLine struct {
	Pos  lexer.Position
	Kind string `parser:"@(Assign | Comment | Directive | Stray)"`
}

type gSection struct {
	Begin lexer.Token  `parser:"@Begin"`
	Body  []*gBodyLine `parser:"@@*"`
	End   lexer.Token  `parser:"@(End | SyntheticEnd)"`
}

type gBodyLine struct {
	Pos  lexer.Position
	Kind string `parser:"@(Assign | Row | Comment | Directive)"`
}

var lineParser = sync.OnceValue(func() *participle.Parser[gFile] {
	return participle.MustBuild[gFile](participle.Lexer(lineLexerDef{}))
})

// tokenType returns the token type of a scanned item.
func tokenType(it Item) lexer.TokenType {
	switch it.(type) {
	case *Section:
		return tokBegin
	case *EndLine:
		return tokEnd
	case *Assignment:
		return tokAssign
	case *Row:
		return tokRow
	case *Comment:
		return tokComment
	case *Directive:
		return tokDirective
	}
	return tokStray
}

// balance turns the scanned items into a token stream the grammar always
// accepts, reporting every repair. It may replace items by *Stray.
func balance(items []Item, kind FileKind, diags *diagSink, src *Source) []lexer.Token {
	toks := make([]lexer.Token, 0, len(items)+8)
	tok := func(typ lexer.TokenType, off int) {
		toks = append(toks, lexer.Token{Type: typ, Pos: lexer.Position{Offset: off}})
	}
	var open *Section
	closeOpen := func(at Span, why string) {
		d := diags.add(Error, CodeUnclosedSection, at, "section %q has no End %s", open.Name.Text, why)
		d.Note(open.Begin.Span.Cover(open.Name.Span), "section %q begins here", open.Name.Text)
		tok(tokSyntheticEnd, at.Start)
		open = nil
	}
	// Lines outside any section are reported once per run of them.
	var run []Item
	flush := func() {
		if len(run) == 0 {
			return
		}
		first, last := run[0].Line().Whole, run[len(run)-1].Line().Whole
		if len(run) == 1 {
			diags.add(Warning, CodeOutside, first, "%s is outside any section; LSF ignores it", lineWhat(run[0]))
		} else {
			diags.add(Warning, CodeOutside, first, "%d lines (%d to %d) are outside any section; LSF ignores them",
				len(run), first.StartPos().Line, last.StartPos().Line).
				Note(last, "the last of them")
		}
		run = run[:0]
	}
	for i, it := range items {
		off := it.Line().Whole.Start
		switch it := it.(type) {
		case *Section:
			flush()
			if open != nil {
				closeOpen(it.Begin.Span, "before this Begin")
			}
			open = it
			tok(tokBegin, off)
		case *EndLine:
			flush()
			if open == nil {
				diags.add(Warning, CodeStrayEnd, it.End.Span.Cover(it.Name.Span), "End %s has no matching Begin", it.Name.Text)
				items[i] = &Stray{LineInfo: it.LineInfo, Text: it.Whole.Text()}
				tok(tokStray, off)
				continue
			}
			open = nil
			tok(tokEnd, off)
		case *Row, *Assignment:
			if open == nil && (kind.Family() != FamilyConf) {
				run = append(run, it)
				items[i] = &Stray{LineInfo: *it.Line(), Text: it.Line().Whole.Text()}
				tok(tokStray, off)
				continue
			}
			tok(tokenType(it), off)
		case *Comment:
			tok(tokComment, off)
		default:
			flush()
			tok(tokenType(it), off)
		}
	}
	flush()
	if open != nil {
		diags.add(Error, CodeUnclosedSection, open.Begin.Span.Cover(open.Name.Span),
			"section %q has no End before the end of the file", open.Name.Text)
		tok(tokSyntheticEnd, len(src.Text))
	}
	tok(lexer.EOF, len(src.Text))
	return toks
}

func lineWhat(it Item) string {
	if a, ok := it.(*Assignment); ok {
		return fmt.Sprintf("%q", a.Key.Text+" = ...")
	}
	return fmt.Sprintf("%q", clip(it.Line().Whole.Text()))
}

// assemble runs the grammar over the balanced tokens and builds the File's
// items and sections from it.
func assemble(f *File, items []Item, toks []lexer.Token, diags *diagSink) error {
	pl, err := lexer.Upgrade(&tokenStream{toks: toks})
	if err != nil {
		return err
	}
	g, err := lineParser().ParseFromLexer(pl)
	if err != nil {
		// balance guarantees the grammar accepts the stream.
		return fmt.Errorf("%s: line grammar rejected a balanced stream: %w", f.Src.Name, err)
	}
	byOffset := func(off int) Item {
		i := sort.Search(len(items), func(i int) bool { return items[i].Line().Whole.Start >= off })
		return items[i]
	}
	f.Items = make([]Item, 0, len(g.Items))
	for _, gi := range g.Items {
		if gi.Line != nil {
			f.Items = append(f.Items, byOffset(gi.Line.Pos.Offset))
			continue
		}
		gs := gi.Section
		sec := byOffset(gs.Begin.Pos.Offset).(*Section)
		sec.Body = make([]Item, 0, len(gs.Body))
		for _, t := range gs.Body {
			sec.Body = append(sec.Body, byOffset(t.Pos.Offset))
		}
		if gs.End.Type == tokEnd {
			sec.End = byOffset(gs.End.Pos.Offset).(*EndLine)
		}
		shapeSection(sec, diags)
		f.Items = append(f.Items, sec)
	}
	return nil
}
