package lang_test

import (
	"os"
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
			wantAt := -1
			for i, f := range ar.Files {
				if f.Name == "want" {
					wantAt = i
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
			got := b.String()
			if updating() {
				if wantAt < 0 {
					ar.Files = append(ar.Files, txtar.File{Name: "want"})
					wantAt = len(ar.Files) - 1
				}
				ar.Files[wantAt].Data = []byte(got)
				if err := os.WriteFile(path, txtar.Format(ar), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			if wantAt < 0 {
				t.Fatal("no want section (run with -update)")
			}
			if want := string(ar.Files[wantAt].Data); want != got {
				t.Errorf("diagnostics mismatch (-want +got)\n--- want\n%s\n--- got\n%s", want, got)
			}
		})
	}
}
