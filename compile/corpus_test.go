package compile_test

import (
	"fmt"
	"path/filepath"
	"strings"
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
	var b strings.Builder
	allowed := testkit.CorpusErrors()
	for _, ct := range testkit.RealTrees(t) {
		for _, d := range []compile.Dialect{compile.LSF10, compile.Openlava} {
			_, diags := compile.Compile(ct.Tree, compile.Options{Dialect: d})
			for _, x := range diags {
				if x.Severity == lang.Error {
					p := x.Span.StartPos()
					key := fmt.Sprintf("%s:%d:%d %s", x.Span.Path(), p.Line, p.Col, x.Code)
					if _, ok := allowed[key]; !ok {
						t.Errorf("%s: unexpected error on real configuration: %v", d, x)
					}
				}
				fmt.Fprintf(&b, "%s %s\n", d, x.Error())
			}
		}
	}
	testkit.CheckFile(t, filepath.Join("testdata", "corpus.txt"), b.String())
}
