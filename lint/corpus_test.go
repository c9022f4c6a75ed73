package lint_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/lang"
	"github.com/lsfc/lsfc/lint"
)

// TestLintCorpus lints every tree of the real corpus, for LSF 10.1 and for
// openlava, and compares every finding with the reviewed list in
// testdata/corpus.txt; errors only where testkit.CorpusErrors allows.
func TestLintCorpus(t *testing.T) {
	var b strings.Builder
	allowed := testkit.CorpusErrors()
	for _, ct := range testkit.RealTrees(t) {
		for _, d := range []compile.Dialect{compile.LSF10, compile.Openlava} {
			res := lint.Check(ct.Tree, lint.Options{Compile: compile.Options{Dialect: d}})
			for _, x := range res.Diagnostics {
				if x.Severity == lang.Error {
					p := x.Span.StartPos()
					if _, ok := allowed[fmt.Sprintf("%s:%d:%d %s", x.Span.Path(), p.Line, p.Col, x.Code)]; !ok {
						t.Errorf("%s: unexpected error on real configuration: %v", d, x)
					}
				}
				fmt.Fprintf(&b, "%s %s\n", d, x.Error())
			}
		}
	}
	testkit.CheckFile(t, filepath.Join("testdata", "corpus.txt"), b.String())
}
