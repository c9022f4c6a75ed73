package lsp

import (
	"context"
	"testing"

	"go.lsp.dev/protocol"
)

// FuzzRequests answers the requests that read one document (hover,
// completion, symbols, folding, semantic tokens, formatting) for any text
// and any position: an answer or an error, never a panic or a position
// outside the text.
func FuzzRequests(f *testing.F) {
	f.Add("Begin Queue\nQUEUE_NAME = a\nHOSTS = \nEnd Queue\n", "lsb.queues", uint32(2), uint32(8))
	f.Add("Begin Que\nPRIO", "lsb.queues", uint32(1), uint32(2))
	f.Add("LSF_LOGDIR=/x\nLSB_", "lsf.conf", uint32(1), uint32(4))
	f.Add("Begin Host\nHOST_NAME MXJ\nh1 (\xff\nEnd Host", "lsb.hosts", uint32(2), uint32(3))
	f.Fuzz(func(t *testing.T, text, name string, line, char uint32) {
		if !validName(name) {
			name = "lsb.queues"
		}
		u := uriOf("/fuzz/" + name)
		s := &Server{opts: Options{MaxDocumentSize: DefaultMaxDocumentSize}, docs: map[protocol.DocumentURI]*document{}}
		s.opts.Load.Limits.MaxFileSize = DefaultMaxDocumentSize
		d := newDocument(u, "/fuzz/"+name, 1, text)
		s.docs[u] = d
		ctx := context.Background()
		at := textDoc(u, protocol.Position{Line: line, Character: char})
		ident := protocol.TextDocumentIdentifier{URI: u}
		if h, err := s.hover(ctx, protocol.HoverParams{TextDocumentPositionParams: at}); err == nil && h != nil {
			checkRange(t, d, *h.(protocol.Hover).Range)
		}
		if _, err := s.completion(ctx, protocol.CompletionParams{TextDocumentPositionParams: at}); err != nil {
			t.Fatalf("completion: %v", err)
		}
		syms, err := s.documentSymbol(ctx, protocol.DocumentSymbolParams{TextDocument: ident})
		if err != nil {
			t.Fatalf("documentSymbol: %v", err)
		}
		for _, sym := range syms.([]protocol.DocumentSymbol) {
			checkRange(t, d, sym.Range)
		}
		if _, err := s.foldingRange(ctx, protocol.FoldingRangeParams{TextDocumentPositionParams: at}); err != nil {
			t.Fatalf("foldingRange: %v", err)
		}
		if _, err := s.semanticTokens(ctx, protocol.SemanticTokensParams{TextDocument: ident}); err != nil {
			t.Fatalf("semanticTokens: %v", err)
		}
		if edits, err := s.formatting(ctx, protocol.DocumentFormattingParams{TextDocument: ident}); err == nil {
			for _, e := range edits.([]protocol.TextEdit) {
				checkRange(t, d, e.Range)
			}
		}
		rng := protocol.Range{Start: protocol.Position{Line: line / 2}, End: protocol.Position{Line: line, Character: char}}
		if edits, err := s.rangeFormatting(ctx, protocol.DocumentRangeFormattingParams{TextDocument: ident, Range: rng}); err == nil {
			for _, e := range edits.([]protocol.TextEdit) {
				checkRange(t, d, e.Range)
			}
		}
	})
}

// checkRange fails when r lies outside d's text or ends before it starts.
func checkRange(t *testing.T, d *document, r protocol.Range) {
	t.Helper()
	end := d.position(len(d.text))
	after := func(a, b protocol.Position) bool {
		return a.Line > b.Line || a.Line == b.Line && a.Character > b.Character
	}
	if after(r.Start, r.End) || after(r.End, end) {
		t.Fatalf("range %+v outside the text (end %+v)", r, end)
	}
}
