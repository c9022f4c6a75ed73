package lint_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
	"github.com/lsfc/lsfc/lint"
	"golang.org/x/tools/txtar"
)

// fuzzKinds are the kinds given, in turn, to fuzzed files whose names do
// not tell their kind.
var fuzzKinds = []lang.FileKind{
	lang.KindLSFShared, lang.KindLSFCluster, lang.KindLSBQueues, lang.KindLSBHosts, lang.KindLSBUsers,
	lang.KindLSBParams, lang.KindLSBResources, lang.KindLSBApplications, lang.KindLSFConf,
}

// FuzzLint lints generated trees (txtar archives): no panic in any
// analyzer, every finding and fix inside the tree's files, and every
// output format renders.
func FuzzLint(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "rules", "*.txtar"))
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ar := txtar.Parse(data)
		tree := &compile.Tree{Cluster: "test"}
		for i, file := range ar.Files {
			if i >= 12 {
				break
			}
			kind := lang.KindOf(file.Name)
			if kind == lang.KindUnknown {
				kind = fuzzKinds[i%len(fuzzKinds)]
			}
			parsed, _ := lang.ParseConfig(lang.NewSource(file.Name, string(file.Data)), kind)
			tree.Files = append(tree.Files, parsed)
		}
		for _, d := range []compile.Dialect{compile.LSF10, compile.Openlava} {
			res := lint.Check(tree, lint.Options{Compile: compile.Options{Dialect: d}})
			sources := map[*lang.Source]bool{}
			for _, f := range tree.Files {
				sources[f.Src] = true
			}
			for _, x := range res.Diagnostics {
				if r := x.Span.Root(); r.Src == nil || !sources[r.Src] || r.End > len(r.Src.Text) || r.Start > r.End {
					t.Fatalf("finding outside the files: %v", x)
				}
			}
			lint.Fixes(res.Diagnostics)
			for _, format := range lint.Formats() {
				if err := lint.Write(&bytes.Buffer{}, format, res.Diagnostics, lint.WriteOptions{}); err != nil {
					t.Fatalf("%s: %v", format, err)
				}
			}
		}
	})
}

// FuzzLintConfig reads any .lsfc.yaml: no panic, and every finding inside
// the file.
func FuzzLintConfig(f *testing.F) {
	f.Add([]byte("rules:\n  LSF520: off\n  LSF512: error\npaths:\n  - path: \"**/lsb.queues\"\n    rules:\n      LSF509: off\n"))
	f.Add([]byte("rules: [1, 2]\n"))
	f.Add([]byte(": : :\n\t- x"))
	f.Fuzz(func(t *testing.T, data []byte) {
		src := lang.NewSource(".lsfc.yaml", string(data))
		_, diags := lint.ParseConfig(src)
		for _, d := range diags {
			if d.Span.Src != src || d.Span.Start < 0 || d.Span.End > len(src.Text) || d.Span.Start > d.Span.End {
				t.Fatalf("finding outside the file: %v", d)
			}
		}
	})
}
