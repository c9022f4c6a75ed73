package lsp

import (
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/lsfc/lsfc/internal/testkit"
	"go.lsp.dev/protocol"
)

// openSynthetic opens lsb.queues of the synthetic tree of 2,000 queues
// and 20,000 hosts in a server and waits for the whole tree's
// diagnostics.
func openSynthetic(b *testing.B) (*client, protocol.DocumentURI, string) {
	b.Helper()
	dir := b.TempDir()
	if err := testkit.WriteTree(dir, testkit.Synthetic(2000, 20000)); err != nil {
		b.Fatal(err)
	}
	c := startClient(b, Options{})
	path := filepath.Join(dir, "lsbatch", "synth", "configdir", "lsb.queues")
	text := readFile(b, path)
	u := c.open(path, text)
	c.waitDiags(uriOf(filepath.Join(dir, "lsbatch", "synth", "configdir", "lsb.hosts")), "for lsb.hosts", func([]protocol.Diagnostic) bool { return true })
	return c, u, text
}

// BenchmarkKeystroke types one character into a value of lsb.queues of
// the synthetic tree and waits for the diagnostics of lsb.queues (ms/key)
// and for those of the whole tree (full-ms). heap-MB is the heap in use
// after the last check, sys-MB all the memory the process took from the
// system (the test's client included).
func BenchmarkKeystroke(b *testing.B) {
	// As lsfc lsp runs.
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(MemoryLimit))
	c, u, text := openSynthetic(b)
	defer c.shutdown()
	other := uriOf(filepath.Join(filepath.Dir(pathOf(u)), "lsb.hosts"))
	at := pos(b, text, "PRIORITY     = 1", 0, len("PRIORITY     = 1"))
	var first, full time.Duration
	b.ResetTimer()
	for i := range b.N {
		c.mu.Lock()
		delete(c.diags, u)
		delete(c.diags, other)
		c.mu.Unlock()
		start := time.Now()
		ch := map[string]any{"range": protocol.Range{Start: at, End: at}, "text": "0"}
		if i%2 == 1 {
			end := at
			end.Character++
			ch = map[string]any{"range": protocol.Range{Start: at, End: end}, "text": ""}
		}
		c.notify("textDocument/didChange", map[string]any{
			"textDocument":   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: u}, Version: int32(i + 2)},
			"contentChanges": []map[string]any{ch},
		})
		c.waitDiags(u, "after a keystroke", func([]protocol.Diagnostic) bool { return true })
		first += time.Since(start)
		c.waitDiags(other, "of the whole tree", func([]protocol.Diagnostic) bool { return true })
		full += time.Since(start)
	}
	b.ReportMetric(float64(first.Milliseconds())/float64(b.N), "ms/key")
	b.ReportMetric(float64(full.Milliseconds())/float64(b.N), "full-ms")
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "heap-MB")
	b.ReportMetric(float64(ms.Sys)/(1<<20), "sys-MB")
}

// BenchmarkHover asks for the hover of a host group in lsb.queues of the
// synthetic tree.
func BenchmarkHover(b *testing.B) {
	c, u, text := openSynthetic(b)
	defer c.shutdown()
	at := pos(b, text, "HOSTS        = hg", 0, 17)
	b.ResetTimer()
	for range b.N {
		var h *protocol.Hover
		c.mustCall("textDocument/hover", protocol.HoverParams{TextDocumentPositionParams: textDoc(u, at)}, &h)
		if h == nil || !strings.Contains(h.Contents.Value, "host group") {
			b.Fatalf("hover = %+v", h)
		}
	}
}

// BenchmarkCompletion asks for the completion of HOSTS (the first
// maxItems of the host groups and hosts of the synthetic tree).
func BenchmarkCompletion(b *testing.B) {
	c, u, text := openSynthetic(b)
	defer c.shutdown()
	at := pos(b, text, "HOSTS        = ", 0, len("HOSTS        = "))
	b.ResetTimer()
	for range b.N {
		var l protocol.CompletionList
		c.mustCall("textDocument/completion", protocol.CompletionParams{TextDocumentPositionParams: textDoc(u, at)}, &l)
		if len(l.Items) != maxItems || !l.IsIncomplete {
			b.Fatalf("completion: %d items", len(l.Items))
		}
	}
}
