package compile_test

import (
	"path/filepath"
	"testing"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/lang"
)

// TestCompileCorpus compiles every real tree and compares the findings
// with the reviewed list in testdata/corpus.txt. Errors are allowed only
// where the file is wrong for LSF too (testkit.CorpusErrors gives each
// one's reason).
func TestCompileCorpus(t *testing.T) {
	got := testkit.CorpusFindings(t, func(tree *compile.Tree, d compile.Dialect) lang.Diagnostics {
		_, diags := compile.Compile(tree, compile.Options{Dialect: d})
		return diags
	})
	testkit.CheckFile(t, filepath.Join("testdata", "corpus.txt"), got)
}
