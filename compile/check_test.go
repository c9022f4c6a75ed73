package compile_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/lang"
	"golang.org/x/tools/txtar"
)

// TestCheckGoldens runs testdata/check/*.txtar. Each archive holds the
// files of a small tree, named as LSF names them, and "want": the
// diagnostics Compile reports, rendered as text with carets. A comment
// line "dialect: openlava" compiles for openlava.
func TestCheckGoldens(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "check", "*.txtar"))
	if len(paths) == 0 {
		t.Fatal("no goldens")
	}
	for _, path := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			tree, opts := archiveTree(t, ar)
			_, diags := compile.Compile(tree, opts)
			var b strings.Builder
			if err := diags.WriteText(&b); err != nil {
				t.Fatal(err)
			}
			testkit.CheckWant(t, path, ar, b.String())
		})
	}
}

// archiveTree parses the files of an archive into a tree. Syntax errors in
// them fail the test: the goldens are about compilation.
func archiveTree(t *testing.T, ar *txtar.Archive) (*compile.Tree, compile.Options) {
	t.Helper()
	var opts compile.Options
	for _, line := range strings.Split(string(ar.Comment), "\n") {
		if d, ok := strings.CutPrefix(line, "dialect: "); ok {
			var err error
			if opts.Dialect, err = compile.ParseDialect(strings.TrimSpace(d)); err != nil {
				t.Fatal(err)
			}
		}
	}
	tree := &compile.Tree{}
	for _, f := range ar.Files {
		if f.Name == "want" {
			continue
		}
		kind := lang.KindOf(f.Name)
		if kind == lang.KindUnknown {
			t.Fatalf("%s: not a configuration file name", f.Name)
		}
		file, ds := lang.ParseConfig(lang.NewSource(f.Name, string(f.Data)), kind)
		if ds.HasErrors() {
			t.Fatalf("%s does not parse: %v", f.Name, ds.Err())
		}
		if kind == lang.KindLSFCluster {
			_, tree.Cluster, _ = strings.Cut(f.Name, ".cluster.")
		}
		tree.Files = append(tree.Files, file)
	}
	return tree, opts
}
