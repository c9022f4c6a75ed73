package compile_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/internal/testkit"
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
			tree, opts := testkit.ArchiveTree(t, ar, true)
			_, diags := compile.Compile(tree, opts)
			var b strings.Builder
			if err := diags.WriteText(&b); err != nil {
				t.Fatal(err)
			}
			testkit.CheckWant(t, path, ar, b.String())
		})
	}
}
