package compile

import (
	"fmt"
	"testing"

	"github.com/lsfc/lsfc/lang"
)

// TestProgramCacheBounded compiles three generations' worth of distinct
// selects, one of them met again all along, and checks that the cache
// keeps at most two generations, that the select met again keeps its
// program, and that a select dropped long ago compiles anew to the same
// text.
func TestProgramCacheBounded(t *testing.T) {
	e := NewEnv(EnvConfig{Unit: MB})
	program := func(text string) *SelectProgram {
		t.Helper()
		r, diags := lang.ParseResReq(lang.NewSource("-R", "select["+text+"]"))
		if diags.HasErrors() {
			t.Fatal(diags.Err())
		}
		req, diags := e.CompileResReq(r, SelectOptions{})
		if diags.HasErrors() {
			t.Fatal(diags.Err())
		}
		return req.Alts[0][0].Simple.Select
	}
	hot := program("mem > 1")
	first := program("mem > 10")
	for i := range 3 * selectGeneration {
		program(fmt.Sprintf("mem > %d", 11+i))
		if i%100 == 0 {
			if p := program("mem > 1"); p != hot {
				t.Fatalf("after %d selects: the select met every 100 was compiled again", i+1)
			}
		}
	}
	if n := len(e.cache.selects) + len(e.cache.older); n > 2*selectGeneration {
		t.Errorf("after %d distinct selects the cache holds %d, want at most %d", 3*selectGeneration+2, n, 2*selectGeneration)
	}
	again := program("mem > 10")
	if again == first || again.Text != first.Text {
		t.Errorf("select dropped long ago: program %p %q, want a new one of text %q (first %p)", again, again.Text, first.Text, first)
	}
}
