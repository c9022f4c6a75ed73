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

// corpusFindings are the diagnostics compilation reports on the real
// corpus, each reviewed: testdata/corpus.txt lists them with their
// messages. Errors are allowed only where the file is wrong for LSF too,
// and each has its reason here.
var corpusErrors = map[string]string{
	"LavaLite-Compute__lavalite/at-b472328/etc__lsf.shared:22:1 LSF206": "the HostModel header is commented out, so LSF reads the first model as column names",
	"LavaLite-Compute__lavalite/etc__llb.queues:14:16 LSF306":           "HOSTS names myhosts; the cluster has host myhost and no host group",
	"shaoboyang__jhlava/config__lsf.cluster.jhlava:16:34 LSF314":        "an installer placeholder (__OS__) left in place of the host type",
}

// TestCompileCorpus compiles every real tree and compares the findings
// with the reviewed list in testdata/corpus.txt.
func TestCompileCorpus(t *testing.T) {
	var b strings.Builder
	for _, ct := range testkit.RealTrees(t) {
		for _, d := range []compile.Dialect{compile.LSF10, compile.Openlava} {
			_, diags := compile.Compile(ct.Tree, compile.Options{Dialect: d})
			for _, x := range diags {
				if x.Severity == lang.Error {
					p := x.Span.StartPos()
					key := fmt.Sprintf("%s:%d:%d %s", x.Span.Path(), p.Line, p.Col, x.Code)
					if _, ok := corpusErrors[key]; !ok {
						t.Errorf("%s: unexpected error on real configuration: %v", d, x)
					}
				}
				fmt.Fprintf(&b, "%s %s\n", d, x.Error())
			}
		}
	}
	testkit.CheckFile(t, filepath.Join("testdata", "corpus.txt"), b.String())
}
