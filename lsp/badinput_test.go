package lsp

import (
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// TestBadInput sends what a confused or hostile editor may send: every
// request gets an answer (an error or an empty result) and the server
// keeps serving.
func TestBadInput(t *testing.T) {
	c := startClient(t, Options{})
	dir := t.TempDir()
	closed := uriOf(filepath.Join(dir, "lsb.queues"))
	var h *protocol.Hover
	if err := c.call("textDocument/hover", protocol.HoverParams{TextDocumentPositionParams: textDoc(closed, protocol.Position{})}, &h); err == nil || !strings.Contains(err.Error(), "not open") {
		t.Errorf("hover on a closed document: err = %v, want %q", err, "document is not open")
	}
	// Changes to a closed document are dropped.
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: closed}, Version: 2},
		"contentChanges": []map[string]any{{"text": "x"}},
	})
	if err := c.call("textDocument/unknownThing", struct{}{}, nil); err == nil || !strings.Contains(err.Error(), "not supported") {
		t.Errorf("unknown method: err = %v", err)
	}
	if err := c.call("textDocument/hover", []int{1, 2}, &h); err == nil || !strings.Contains(err.Error(), "invalid params") {
		t.Errorf("hover with params of the wrong shape: err = %v", err)
	}

	// A half-typed section, and positions far past the end.
	half := c.open(filepath.Join(dir, "lsb.queues"), "Begin Que\nQUEUE_NAME = a\nPRIO")
	c.waitDiags(half, "for a half-typed section", func(ds []protocol.Diagnostic) bool { return len(ds) > 0 })
	far := protocol.Position{Line: 1 << 30, Character: 1 << 30}
	var l protocol.CompletionList
	c.mustCall("textDocument/completion", protocol.CompletionParams{TextDocumentPositionParams: textDoc(half, far)}, &l)
	c.mustCall("textDocument/hover", protocol.HoverParams{TextDocumentPositionParams: textDoc(half, far)}, &h)
	var locs []protocol.Location
	c.mustCall("textDocument/definition", protocol.DefinitionParams{TextDocumentPositionParams: textDoc(half, far)}, &locs)
	// A change whose range ends before it starts is refused, the text kept.
	c.notify("textDocument/didChange", map[string]any{
		"textDocument":   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: half}, Version: 2},
		"contentChanges": []map[string]any{{"range": protocol.Range{Start: protocol.Position{Line: 2}, End: protocol.Position{Line: 0}}, "text": "x"}},
	})
	var syms []protocol.DocumentSymbol
	c.mustCall("textDocument/documentSymbol", protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: half}}, &syms)

	// Invalid UTF-8, and a file that is not LSF configuration at all.
	bad := c.open(filepath.Join(dir, "lsb.params"), "Begin Parameters\nMBD_SLEEP_TIME = 1\xff\xfe0\nEnd Parameters\n")
	c.waitDiags(bad, "with an error", func(ds []protocol.Diagnostic) bool {
		return len(ds) > 0 && ds[0].Severity == protocol.DiagnosticSeverityError
	})
	c.mustCall("textDocument/hover", protocol.HoverParams{TextDocumentPositionParams: textDoc(bad, protocol.Position{Line: 1, Character: 19})}, &h)
	notes := c.open(filepath.Join(dir, "notes.txt"), "Dear admin,\nplease { add } a queue.\n")
	c.waitDiags(notes, "for a text file", func([]protocol.Diagnostic) bool { return true })
	c.mustCall("textDocument/completion", protocol.CompletionParams{TextDocumentPositionParams: textDoc(notes, protocol.Position{Line: 1, Character: 3})}, &l)
	var edits []protocol.TextEdit
	c.call("textDocument/formatting", protocol.DocumentFormattingParams{TextDocument: protocol.TextDocumentIdentifier{URI: notes}}, &edits)

	// An unsaved buffer is checked alone, its findings under its own URI.
	untitled := protocol.DocumentURI("untitled:Untitled-1")
	c.notify("textDocument/didOpen", protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: untitled, LanguageID: "lsf", Version: 1, Text: "Begin Queue\nQUEUE_NAME = q\nPRIORTY = 1\nEnd Queue\n",
	}})
	c.waitDiags(untitled, "with LSF201", func(ds []protocol.Diagnostic) bool { return hasCode(ds, "LSF201") != nil })

	// A 50 MB document is refused with one finding (waitDiags bounds the
	// wait: a hang fails the test).
	huge := c.open(filepath.Join(dir, "lsb.hosts"), strings.Repeat("# padding of a very large file\n", 50<<20/31))
	ds := c.waitDiags(huge, "with LSF102", func(ds []protocol.Diagnostic) bool { return hasCode(ds, "LSF102") != nil })
	if len(ds) != 1 {
		t.Errorf("a 50 MB document got %d findings, want the one saying it is too large", len(ds))
	}
	c.mustCall("textDocument/foldingRange", protocol.FoldingRangeParams{TextDocumentPositionParams: textDoc(huge, protocol.Position{})}, &[]protocol.FoldingRange{})
	c.shutdown()
	// After shutdown, requests are refused.
}

// FuzzDocumentEdits applies an edit at any position to any text: it
// never panics, keeps positions and offsets consistent, and the text's
// length is what the edit says.
func FuzzDocumentEdits(f *testing.F) {
	f.Add("Begin Queue\r\nQUEUE_NAME = é😀\nEnd Queue", uint32(1), uint32(14), uint32(2), uint32(1), "x")
	f.Add("a\rb\n\xff\xfe", uint32(0), uint32(5), uint32(9), uint32(0), "")
	f.Fuzz(func(t *testing.T, text string, l1, c1, l2, c2 uint32, repl string) {
		d := newDocument("file:///x", "/x", 1, text)
		for off := 0; off <= len(text); off++ {
			p := d.position(off)
			back := d.offset(p)
			if back > off {
				t.Fatalf("offset(position(%d)) = %d", off, back)
			}
		}
		for _, s := range d.lines {
			if got := d.offset(d.position(s)); got != s {
				t.Fatalf("line start %d maps back to %d", s, got)
			}
		}
		r := protocol.Range{Start: protocol.Position{Line: l1, Character: c1}, End: protocol.Position{Line: l2, Character: c2}}
		start, end := d.offset(r.Start), d.offset(r.End)
		err := d.apply([]change{{Range: &r, Text: repl}}, 1<<20)
		if end < start {
			if err == nil {
				t.Fatalf("reversed range %v applied", r)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if want := len(text) - (end - start) + len(repl); len(d.text) != want {
			t.Fatalf("length after edit %d, want %d", len(d.text), want)
		}
	})
}
