package lsp

import (
	"context"

	"github.com/lsfc/lsfc/lang"
	"github.com/lsfc/lsfc/lint"
	"go.lsp.dev/jsonrpc2"
	"go.lsp.dev/protocol"
)

// codeAction offers the fix of every finding whose span meets the
// requested range, the safe ones preferred, and, as source.fixAll, every
// safe fix of the document at once (what lsfc lint --fix writes).
func (s *Server) codeAction(_ context.Context, p protocol.CodeActionParams) (any, error) {
	d, err := s.doc(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	snap := s.fresh(d)
	out := []protocol.CodeAction{}
	if snap == nil {
		return out, nil
	}
	s.mu.Lock()
	f := snap.file(d.path)
	if f == nil || f.Src.Text != d.text {
		s.mu.Unlock()
		return out, nil
	}
	start, end := d.offset(p.Range.Start), d.offset(p.Range.End)
	s.mu.Unlock()
	want := func(k protocol.CodeActionKind) bool {
		if len(p.Context.Only) == 0 {
			return true
		}
		for _, o := range p.Context.Only {
			if k == o || len(k) > len(o) && k[:len(o)] == o && k[len(o)] == '.' {
				return true
			}
		}
		return false
	}
	conv := newConverter(s)
	var own lang.Diagnostics
	for _, x := range snap.res.Diagnostics {
		r := x.Span.Root()
		if r.Src != f.Src {
			continue
		}
		own = append(own, x)
		if x.Fix == nil || len(x.Fix.Edits) == 0 || r.End < start || r.Start > end || !want(protocol.QuickFix) {
			continue
		}
		edit, ok := fixEdit(conv, x.Fix.Edits)
		if !ok {
			continue
		}
		out = append(out, protocol.CodeAction{
			Title:       x.Fix.Message,
			Kind:        protocol.QuickFix,
			Diagnostics: []protocol.Diagnostic{conv.diagnostic(x)},
			IsPreferred: x.Fix.Safe,
			Edit:        &edit,
		})
	}
	if want(sourceFixAll) {
		for _, ff := range lint.Fixes(own) {
			if ff.Path != d.path {
				continue
			}
			whole := protocol.Range{Start: protocol.Position{}, End: position(f.Src.Text, lineStarts(f.Src.Text), len(f.Src.Text))}
			out = append(out, protocol.CodeAction{
				Title: "apply every safe fix of lsfc lint",
				Kind:  sourceFixAll,
				Edit: &protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{
					d.uri: {{Range: whole, NewText: string(ff.Text)}},
				}},
			})
		}
	}
	return out, nil
}

// fixEdit converts the edits of a fix; false when one cannot be placed.
func fixEdit(conv *converter, edits []lang.Edit) (protocol.WorkspaceEdit, bool) {
	we := protocol.WorkspaceEdit{Changes: map[protocol.DocumentURI][]protocol.TextEdit{}}
	for _, e := range edits {
		u, r, ok := conv.rangeOf(e.Span)
		if !ok {
			return we, false
		}
		we.Changes[u] = append(we.Changes[u], protocol.TextEdit{Range: r, NewText: e.NewText})
	}
	return we, true
}

// errSyntax is the answer to formatting a document that does not parse.
func errSyntax(diags lang.Diagnostics) error {
	return jsonrpc2.Errorf(jsonrpc2.Code(-32803), "not formatted: the document has syntax errors (%v)", diags.Err())
}

// formatting returns the edit giving the document lsfc fmt's layout.
func (s *Server) formatting(_ context.Context, p protocol.DocumentFormattingParams) (any, error) {
	d, f, diags, err := s.parse(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() {
		return nil, errSyntax(diags)
	}
	out := string(lang.Format(f))
	if out == d.text {
		return []protocol.TextEdit{}, nil
	}
	return []protocol.TextEdit{{Range: d.rangeOf(0, len(d.text)), NewText: out}}, nil
}

// rangeFormatting gives lsfc fmt's layout to the top-level sections and
// lines the range touches, whole.
func (s *Server) rangeFormatting(_ context.Context, p protocol.DocumentRangeFormattingParams) (any, error) {
	d, f, diags, err := s.parse(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	if diags.HasErrors() {
		return nil, errSyntax(diags)
	}
	start, end := d.offset(p.Range.Start), d.offset(p.Range.End)
	var items []lang.Item
	first, last := -1, -1
	for _, it := range f.Items {
		sp := it.Span()
		if whole := it.Line().Whole; whole.End > sp.End {
			sp.End = whole.End
		}
		if sp.End < start || sp.Start > end {
			continue
		}
		if first < 0 {
			first = sp.Start
		}
		last = max(last, sp.End)
		items = append(items, it)
	}
	if len(items) == 0 {
		return []protocol.TextEdit{}, nil
	}
	// Whole lines: from the first item's line start to its last line end.
	for first > 0 && d.text[first-1] != '\n' {
		first--
	}
	for last < len(d.text) && d.text[last] != '\n' && d.text[last] != '\r' {
		last++
	}
	part := &lang.File{Src: f.Src, Kind: f.Kind, Items: items}
	out := string(lang.Format(part))
	out = trimFinalNewline(out)
	if out == d.text[first:last] {
		return []protocol.TextEdit{}, nil
	}
	return []protocol.TextEdit{{Range: d.rangeOf(first, last), NewText: out}}, nil
}

func trimFinalNewline(s string) string {
	if n := len(s); n > 0 && s[n-1] == '\n' {
		return s[:n-1]
	}
	return s
}

// sourceFixAll is the protocol's kind of an action fixing every problem
// of a document that can be fixed safely (LSP 3.15 and later).
const sourceFixAll protocol.CodeActionKind = "source.fixAll"
