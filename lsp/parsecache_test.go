package lsp

import (
	"testing"

	"github.com/lsfc/lsfc/lang"
)

// TestParseCache: a file parsed again with the same text is the same
// tree, with diagnostics that changing does not change the cache's; new
// text is parsed anew.
func TestParseCache(t *testing.T) {
	c := &parseCache{}
	text := "Begin Queue\nQUEUE_NAME = a\n" // unclosed: one diagnostic
	f1, d1 := c.parse("/t/lsb.queues", text, lang.KindLSBQueues)
	if len(d1) == 0 {
		t.Fatal("no diagnostic for an unclosed section")
	}
	d1[0].Severity = lang.Info
	f2, d2 := c.parse("/t/lsb.queues", text, lang.KindLSBQueues)
	if f2 != f1 {
		t.Errorf("the same text was parsed again")
	}
	if d2[0].Severity != lang.Error {
		t.Errorf("a change to the diagnostics returned reached the cache: severity %v", d2[0].Severity)
	}
	f3, d3 := c.parse("/t/lsb.queues", text+"End Queue\n", lang.KindLSBQueues)
	if f3 == f1 || len(d3) != 0 {
		t.Errorf("new text: same tree %v, diagnostics %v", f3 == f1, d3)
	}
}
