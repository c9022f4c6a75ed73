package lint_test

import (
	"path/filepath"
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
	got := testkit.CorpusFindings(t, func(tree *compile.Tree, d compile.Dialect) lang.Diagnostics {
		return lint.Check(tree, lint.Options{Compile: compile.Options{Dialect: d}}).Diagnostics
	})
	testkit.CheckFile(t, filepath.Join("testdata", "corpus.txt"), got)
}
