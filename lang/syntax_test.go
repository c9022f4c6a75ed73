package lang_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/lang"
	"golang.org/x/tools/txtar"
)

// TestSyntaxGolden runs testdata/syntax/*.txtar. Each archive holds input
// files, read with the kind their names give, and "want": the diagnostics
// they produce, rendered as text with carets. Run with -update (or
// LSFC_UPDATE=1) to rewrite "want".
func TestSyntaxGolden(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "syntax", "*.txtar"))
	if len(paths) == 0 {
		t.Fatal("no syntax goldens")
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			ar, err := txtar.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var all lang.Diagnostics
			for _, f := range ar.Files {
				if f.Name == "want" {
					continue
				}
				kind := lang.KindOf(f.Name)
				if kind == lang.KindUnknown {
					t.Fatalf("%s: file name says no kind", f.Name)
				}
				_, diags := lang.ParseConfig(lang.NewSource(f.Name, string(f.Data)), kind)
				all = append(all, diags...)
			}
			var b strings.Builder
			if err := all.WriteText(&b); err != nil {
				t.Fatal(err)
			}
			checkWant(t, path, ar, b.String())
		})
	}
}
