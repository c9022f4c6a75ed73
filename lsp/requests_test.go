package lsp

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/compile/inventory"
	"github.com/lsfc/lsfc/lang"
	"go.lsp.dev/protocol"
)

func textDoc(u protocol.DocumentURI, p protocol.Position) protocol.TextDocumentPositionParams {
	return protocol.TextDocumentPositionParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}, Position: p}
}

func labels(l protocol.CompletionList) map[string]protocol.CompletionItem {
	m := map[string]protocol.CompletionItem{}
	for _, it := range l.Items {
		m[it.Label] = it
	}
	return m
}

func TestRequests(t *testing.T) {
	_, conf := demoTree(t)
	c := startClient(t, Options{})
	qpath := filepath.Join(conf, "lsb.queues")
	text := readFile(t, qpath)
	u := c.open(qpath, text)
	c.waitDiags(u, "", func([]protocol.Diagnostic) bool { return true })

	hover := func(p protocol.Position) string {
		t.Helper()
		var h *protocol.Hover
		c.mustCall("textDocument/hover", protocol.HoverParams{TextDocumentPositionParams: textDoc(u, p)}, &h)
		if h == nil {
			return ""
		}
		return h.Contents.Value
	}
	t.Run("hover", func(t *testing.T) {
		if got := hover(pos(t, text, "PRIORITY", 0, 2)); !strings.Contains(got, "**PRIORITY**") || !strings.Contains(got, "lsb.queues, section Queue") {
			t.Errorf("hover on PRIORITY = %q, want its schema documentation", got)
		}
		if got := hover(pos(t, text, "= gpu_hosts", 0, 3)); !strings.Contains(got, "**host group** `gpu_hosts`") || !strings.Contains(got, "2 hosts: gpu01 gpu02") {
			t.Errorf("hover on gpu_hosts = %q, want its definition and members", got)
		}
		if got := hover(pos(t, text, "select[gpu]", 0, 8)); !strings.Contains(got, "canonical form") {
			t.Errorf("hover in RES_REQ = %q, want its canonical form", got)
		}
		if got := hover(pos(t, text, "= chemists", 0, 3)); !strings.Contains(got, "**user group** `chemists`") || !strings.Contains(got, "members: ") {
			t.Errorf("hover on chemists = %q, want the user group and its members", got)
		}
		if got := hover(pos(t, text, "QUEUE_NAME  = short", 0, 15)); !strings.Contains(got, "**queue** `short`") || !strings.Contains(got, "priority") {
			t.Errorf("hover on a queue name = %q, want the queue's resolved settings", got)
		}
	})
	t.Run("completion", func(t *testing.T) {
		complete := func(p protocol.Position) map[string]protocol.CompletionItem {
			var l protocol.CompletionList
			c.mustCall("textDocument/completion", protocol.CompletionParams{TextDocumentPositionParams: textDoc(u, p)}, &l)
			return labels(l)
		}
		// Start of the line after QUEUE_NAME = short: a key.
		if got := complete(pos(t, text, "QUEUE_NAME  = short\n", 0, len("QUEUE_NAME  = short\n"))); got["PRIORITY"].Label == "" || got["End Queue"].Label == "" {
			t.Errorf("completion in a Queue section lacks PRIORITY or End Queue: %d items", len(got))
		}
		if got := complete(pos(t, text, "= gpu_hosts", 0, 2)); got["cn_hosts"].Label == "" || got["gpu01"].Label == "" || got["all"].Label == "" {
			t.Errorf("completion in HOSTS lacks host groups, hosts or all: %v", got)
		}
		if got := complete(pos(t, text, "select[gpu]", 0, 7)); got["ngpus"].Label == "" || got["mem"].Label == "" {
			t.Errorf("completion in RES_REQ lacks site or built-in resources")
		}
		got := complete(protocol.Position{Line: 0, Character: 0})
		if it := got["Begin Queue"]; it.InsertTextFormat != protocol.InsertTextFormatSnippet || !strings.Contains(it.InsertText, "End Queue") {
			t.Errorf("top-level completion Begin Queue = %+v, want a Begin/End snippet", it)
		}
	})
	hostsURI := uriOf(filepath.Join(conf, "lsb.hosts"))
	t.Run("definition", func(t *testing.T) {
		var locs []protocol.Location
		c.mustCall("textDocument/definition", protocol.DefinitionParams{TextDocumentPositionParams: textDoc(u, pos(t, text, "= gpu_hosts", 0, 3))}, &locs)
		if len(locs) != 1 || locs[0].URI != hostsURI {
			t.Errorf("definition of gpu_hosts = %+v, want one in lsb.hosts", locs)
		}
	})
	t.Run("references", func(t *testing.T) {
		var locs []protocol.Location
		c.mustCall("textDocument/references", protocol.ReferenceParams{
			TextDocumentPositionParams: textDoc(u, pos(t, text, "= cn_hosts", 0, 3)),
			Context:                    protocol.ReferenceContext{IncludeDeclaration: true},
		}, &locs)
		files := map[protocol.DocumentURI]int{}
		for _, l := range locs {
			files[l.URI]++
		}
		if files[u] < 4 || files[hostsURI] < 2 {
			t.Errorf("references of cn_hosts by file = %v, want uses in lsb.queues and lsb.hosts", files)
		}
	})
	t.Run("rename", func(t *testing.T) {
		var r protocol.Range
		c.mustCall("textDocument/prepareRename", protocol.PrepareRenameParams{TextDocumentPositionParams: textDoc(u, pos(t, text, "= cn_hosts", 0, 3))}, &r)
		if r.Start != pos(t, text, "= cn_hosts", 0, 2) {
			t.Errorf("prepareRename range = %+v", r)
		}
		var edit protocol.WorkspaceEdit
		c.mustCall("textDocument/rename", protocol.RenameParams{TextDocumentPositionParams: textDoc(u, pos(t, text, "= cn_hosts", 0, 3)), NewName: "compute"}, &edit)
		if len(edit.Changes[u]) < 4 || len(edit.Changes[hostsURI]) < 2 {
			t.Errorf("rename edits by file: lsb.queues %d, lsb.hosts %d; want every use in both", len(edit.Changes[u]), len(edit.Changes[hostsURI]))
		}
		if err := c.call("textDocument/rename", protocol.RenameParams{TextDocumentPositionParams: textDoc(u, pos(t, text, "= cn_hosts", 0, 3)), NewName: "a b"}, &edit); err == nil {
			t.Errorf("rename to %q succeeded, want an error", "a b")
		}
	})
	t.Run("symbols", func(t *testing.T) {
		var syms []protocol.DocumentSymbol
		c.mustCall("textDocument/documentSymbol", protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}, &syms)
		var names []string
		for _, s := range syms {
			names = append(names, s.Name)
		}
		if !strings.Contains(strings.Join(names, ","), "Queue short,Queue gpu") {
			t.Errorf("symbols = %v, want the queues by name", names)
		}
		var folds []protocol.FoldingRange
		c.mustCall("textDocument/foldingRange", protocol.FoldingRangeParams{TextDocumentPositionParams: textDoc(u, protocol.Position{})}, &folds)
		if len(folds) != strings.Count(text, "Begin Queue") {
			t.Errorf("%d folding ranges, want one per queue (%d)", len(folds), strings.Count(text, "Begin Queue"))
		}
		var toks protocol.SemanticTokens
		c.mustCall("textDocument/semanticTokens/full", protocol.SemanticTokensParams{TextDocument: protocol.TextDocumentIdentifier{URI: u}}, &toks)
		if len(toks.Data) == 0 || len(toks.Data)%5 != 0 {
			t.Errorf("semantic tokens: %d numbers", len(toks.Data))
		}
	})
	t.Run("formatting", func(t *testing.T) {
		messy := "Begin Queue\nQUEUE_NAME=x\nPRIORITY    =  3\nEnd Queue\n\n\n\nBegin Queue\nQUEUE_NAME=y\nEnd   Queue\n"
		fu := c.open(filepath.Join(t.TempDir(), "lsb.queues"), messy)
		var edits []protocol.TextEdit
		c.mustCall("textDocument/formatting", protocol.DocumentFormattingParams{TextDocument: protocol.TextDocumentIdentifier{URI: fu}}, &edits)
		want := "Begin Queue\nQUEUE_NAME = x\nPRIORITY   = 3\nEnd Queue\n\nBegin Queue\nQUEUE_NAME = y\nEnd Queue\n"
		if len(edits) != 1 || edits[0].NewText != want {
			t.Errorf("formatting = %+v, want the whole text as %q", edits, want)
		}
		c.mustCall("textDocument/rangeFormatting", protocol.DocumentRangeFormattingParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: fu},
			Range:        protocol.Range{Start: protocol.Position{Line: 8}, End: protocol.Position{Line: 9}},
		}, &edits)
		if len(edits) != 1 || edits[0].NewText != "Begin Queue\nQUEUE_NAME = y\nEnd Queue" || edits[0].Range.Start.Line != 7 {
			t.Errorf("range formatting = %+v, want the second section alone", edits)
		}
		bad := c.open(filepath.Join(t.TempDir(), "lsb.params"), "Begin Parameters\nX = 1\n")
		if err := c.call("textDocument/formatting", protocol.DocumentFormattingParams{TextDocument: protocol.TextDocumentIdentifier{URI: bad}}, &edits); err == nil || !strings.Contains(err.Error(), "syntax errors") {
			t.Errorf("formatting a broken file: err = %v, want a syntax error", err)
		}
	})
	c.shutdown()
}

// TestHoverInventory: given an inventory, the hover of a resource
// requirement counts the hosts it matches.
func TestHoverInventory(t *testing.T) {
	_, conf := demoTree(t)
	src := lang.NewSource("demo.yaml", readFile(t, filepath.Join("..", "testdata", "hosts", "demo.yaml")))
	inv, ds := inventory.Read(src, compile.MB)
	if err := ds.Err(); err != nil {
		t.Fatal(err)
	}
	c := startClient(t, Options{Hosts: inv.Hosts})
	qpath := filepath.Join(conf, "lsb.queues")
	text := readFile(t, qpath)
	u := c.open(qpath, text)
	c.waitDiags(u, "", func([]protocol.Diagnostic) bool { return true })
	var h *protocol.Hover
	c.mustCall("textDocument/hover", protocol.HoverParams{TextDocumentPositionParams: textDoc(u, pos(t, text, "select[gpu]", 0, 8))}, &h)
	want := fmt.Sprintf("of the %d hosts of the inventory", len(inv.Hosts))
	if h == nil || !strings.Contains(h.Contents.Value, want) || strings.Contains(h.Contents.Value, "matches 0 ") {
		t.Errorf("hover of select[gpu] = %+v, want it to match some %s", h, want)
	}
	c.shutdown()
}
