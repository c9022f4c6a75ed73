package lint_test

import (
	"bytes"
	"fmt"
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
	rules, _ := filepath.Glob(filepath.Join("testdata", "rules", "*.txtar"))
	seeds, _ := filepath.Glob(filepath.Join("testdata", "fuzzseed", "*.txtar"))
	for _, p := range append(rules, seeds...) {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	for _, b := range preemptionRings() {
		f.Add(b)
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

// preemptionRings returns trees of three queues a, b and c (in falling
// priority), each with one of the PREEMPTION forms real lsb.queues files
// use, naming its neighbours around the ring a, b, c: none, PREEMPTIVE[next],
// PREEMPTABLE[previous], or both. Links between queues come from either
// end, so a queue may sit in a loop without a PREEMPTION of its own.
func preemptionRings() [][]byte {
	names := []string{"a", "b", "c"}
	forms := []func(prev, next string) string{
		func(prev, next string) string { return "" },
		func(prev, next string) string { return "PREEMPTIVE[" + next + "]" },
		func(prev, next string) string { return "PREEMPTABLE[" + prev + "]" },
		func(prev, next string) string { return "PREEMPTABLE[" + prev + "] PREEMPTIVE[" + next + "]" },
	}
	var out [][]byte
	for pick := 0; pick < len(forms)*len(forms)*len(forms); pick++ {
		var b bytes.Buffer
		b.WriteString("-- lsb.queues --\n")
		for i, n := range names {
			form := forms[pick/[]int{1, 4, 16}[i]%len(forms)]
			fmt.Fprintf(&b, "Begin Queue\nQUEUE_NAME = %s\nPRIORITY = %d\n", n, 30-10*i)
			if v := form(names[(i+2)%3], names[(i+1)%3]); v != "" {
				fmt.Fprintf(&b, "PREEMPTION = %s\n", v)
			}
			b.WriteString("End Queue\n\n")
		}
		out = append(out, b.Bytes())
	}
	return out
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
