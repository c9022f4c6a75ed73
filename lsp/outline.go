package lsp

import (
	"context"
	"slices"
	"strings"

	"github.com/lsfc/lsfc/lang"
	"go.lsp.dev/protocol"
)

// parse parses an open document alone; it returns a copy of the document
// whose positions the tree's offsets refer to.
func (s *Server) parse(u protocol.DocumentURI) (*document, *lang.File, lang.Diagnostics, error) {
	d, err := s.doc(u)
	if err != nil {
		return nil, nil, nil, err
	}
	s.mu.Lock()
	cp := &document{uri: d.uri, path: d.path, version: d.version, text: d.text, lines: d.lines}
	s.mu.Unlock()
	f, diags := lang.ConfigParser{Limits: s.opts.Load.Limits}.Parse(lang.NewSource(cp.path, cp.text), kindOf(cp.path, cp.text))
	return cp, f, diags, nil
}

func (s *Server) documentSymbol(_ context.Context, p protocol.DocumentSymbolParams) (any, error) {
	d, f, _, err := s.parse(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	out := []protocol.DocumentSymbol{}
	rng := func(sp lang.Span) protocol.Range { return d.rangeOf(sp.Start, sp.End) }
	for _, it := range f.Items {
		switch it := it.(type) {
		case *lang.Assignment:
			out = append(out, protocol.DocumentSymbol{Name: it.Key.Text, Kind: protocol.SymbolKindProperty, Range: rng(it.Span()), SelectionRange: rng(it.Key.Span)})
		case *lang.Section:
			name := it.Name.Text
			if name == "" {
				name = "Begin"
			}
			sym := protocol.DocumentSymbol{Name: name, Kind: protocol.SymbolKindNamespace, Range: rng(it.Span()), SelectionRange: rng(it.Name.Span)}
			if it.Name.Text == "" {
				sym.SelectionRange = rng(it.Begin.Span)
			}
			for _, a := range it.Assigns {
				child := protocol.DocumentSymbol{Name: a.Key.Text, Detail: a.Value.Text, Kind: protocol.SymbolKindProperty, Range: rng(a.Span()), SelectionRange: rng(a.Key.Span)}
				if _, ok := definerOf(f.Kind, it.Name.Text, a.Key.Text); ok && sym.Detail == "" {
					sym.Detail = a.Value.Text
				}
				sym.Children = append(sym.Children, child)
			}
			if it.Header != nil {
				for i, h := range it.Header.Cells {
					kind, ok := definerOf(f.Kind, it.Name.Text, h.Text)
					if !ok && i > 0 {
						continue
					}
					for _, r := range it.Rows {
						if i >= len(r.Cells) {
							continue
						}
						sk := protocol.SymbolKindField
						if kind != 0 {
							sk = protocol.SymbolKindConstant
						}
						sym.Children = append(sym.Children, protocol.DocumentSymbol{Name: r.Cells[i].Text, Kind: sk, Range: rng(r.Span()), SelectionRange: rng(r.Cells[i].Span)})
					}
					break
				}
			}
			if sym.Detail != "" {
				sym.Name += " " + sym.Detail
				sym.Detail = ""
			}
			out = append(out, sym)
		}
	}
	return out, nil
}

func (s *Server) foldingRange(_ context.Context, p protocol.FoldingRangeParams) (any, error) {
	d, f, _, err := s.parse(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	out := []protocol.FoldingRange{}
	for _, it := range f.Items {
		sec, ok := it.(*lang.Section)
		if !ok {
			continue
		}
		sp := sec.Span()
		start, end := d.position(sp.Start).Line, d.position(sp.End).Line
		if end > start {
			out = append(out, protocol.FoldingRange{StartLine: start, EndLine: end, Kind: protocol.RegionFoldingRange})
		}
	}
	return out, nil
}

// tokenTypes is the legend of the semantic tokens: their index is the
// token type the data gives.
var tokenTypes = []protocol.SemanticTokenTypes{
	protocol.SemanticTokenKeyword, protocol.SemanticTokenNamespace, protocol.SemanticTokenProperty,
	protocol.SemanticTokenComment, protocol.SemanticTokenVariable, protocol.SemanticTokenMacro,
}

const (
	tokKeyword = iota
	tokSection
	tokKey
	tokComment
	tokName
	tokDirective
)

func (s *Server) semanticTokens(_ context.Context, p protocol.SemanticTokensParams) (any, error) {
	d, f, _, err := s.parse(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	type tok struct{ start, end, typ int }
	var toks []tok
	add := func(sp lang.Span, typ int) {
		if sp.IsValid() && sp.End > sp.Start {
			toks = append(toks, tok{sp.Start, sp.End, typ})
		}
	}
	comment := func(c *lang.Comment) {
		if c != nil {
			add(c.TextSpan, tokComment)
		}
	}
	var item func(it lang.Item)
	item = func(it lang.Item) {
		comment(it.Line().Trailing)
		switch it := it.(type) {
		case *lang.Comment:
			add(it.TextSpan, tokComment)
		case *lang.Directive:
			add(it.Line().Whole, tokDirective)
		case *lang.Assignment:
			add(it.Key.Span, tokKey)
		case *lang.Section:
			add(it.Begin.Span, tokKeyword)
			add(it.Name.Span, tokSection)
			for _, b := range it.Body {
				item(b)
			}
			if it.Header != nil {
				for _, c := range it.Header.Cells {
					add(c.Span, tokKey)
				}
				for i, h := range it.Header.Cells {
					if _, ok := definerOf(f.Kind, it.Name.Text, h.Text); ok {
						for _, r := range it.Rows {
							if i < len(r.Cells) {
								add(r.Cells[i].Span, tokName)
							}
						}
					}
				}
			}
			if it.End != nil {
				comment(it.End.Trailing)
				add(it.End.End.Span, tokKeyword)
				add(it.End.Name.Span, tokSection)
			}
		}
	}
	for _, it := range f.Items {
		item(it)
	}
	slices.SortFunc(toks, func(a, b tok) int { return a.start - b.start })
	data := []uint32{}
	var prevLine, prevChar uint32
	prevEnd := 0
	for _, t := range toks {
		if t.start < prevEnd {
			continue // tokens never overlap
		}
		prevEnd = t.end
		// A token never spans lines in the protocol: keep its first line.
		end := t.end
		if i := strings.IndexAny(d.text[t.start:end], "\r\n"); i >= 0 {
			end = t.start + i
		}
		ps, pe := d.position(t.start), d.position(end)
		if pe.Character <= ps.Character {
			continue
		}
		dl := ps.Line - prevLine
		dc := ps.Character
		if dl == 0 {
			dc -= prevChar
		}
		data = append(data, dl, dc, pe.Character-ps.Character, uint32(t.typ), 0)
		prevLine, prevChar = ps.Line, ps.Character
	}
	return protocol.SemanticTokens{Data: data}, nil
}
