package lang_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/lang"
	"golang.org/x/tools/txtar"
)

// shape prints a tree without positions, with blanks inside values
// collapsed: two trees with the same shape mean the same to LSF.
func shape(f *lang.File) string {
	var b strings.Builder
	var items func(its []lang.Item, depth int)
	items = func(its []lang.Item, depth int) {
		ind := strings.Repeat("  ", depth)
		for _, it := range its {
			trailing := ""
			if c := it.Line().Trailing; c != nil {
				trailing = " " + c.Text
			}
			switch it := it.(type) {
			case *lang.Section:
				fmt.Fprintf(&b, "%ssection %s (%s)%s\n", ind, it.Name.Text, it.Form, trailing)
				items(it.Body, depth+1)
				if it.End != nil {
					fmt.Fprintf(&b, "%send %s\n", ind, it.End.Name.Text)
				}
			case *lang.Assignment:
				fmt.Fprintf(&b, "%s%s = %q quote=%q%s\n", ind, it.Key.Text, strings.Join(strings.Fields(it.Value.Text), " "), it.Value.Quote, trailing)
			case *lang.Row:
				cells := make([]string, len(it.Cells))
				for i, c := range it.Cells {
					cells[i] = c.Text
				}
				fmt.Fprintf(&b, "%srow %q%s\n", ind, cells, trailing)
			case *lang.Comment:
				fmt.Fprintf(&b, "%s%s\n", ind, it.Text)
			case *lang.Directive:
				fmt.Fprintf(&b, "%s%s name=%q arg=%q%s\n", ind, it.Kind, it.Name.Text, it.Arg.Text, trailing)
			case *lang.Stray:
				fmt.Fprintf(&b, "%sstray %q\n", ind, strings.Join(strings.Fields(it.Text), " "))
			}
		}
	}
	items(f.Items, 0)
	return b.String()
}

// checkFormat checks that formatting src keeps its meaning and is
// idempotent.
func checkFormat(t *testing.T, name string, kind lang.FileKind, text string) []byte {
	t.Helper()
	f, diags := lang.ParseConfig(lang.NewSource(name, text), kind)
	if diags.HasErrors() {
		return nil
	}
	out := lang.Format(f)
	f2, diags2 := lang.ParseConfig(lang.NewSource(name, string(out)), kind)
	if diags2.HasErrors() {
		var b strings.Builder
		diags2.WriteText(&b)
		t.Fatalf("formatted output does not parse:\n%s\n%s", b.String(), out)
	}
	if got, want := shape(f2), shape(f); got != want {
		t.Fatalf("formatting changed the tree\n--- want\n%s\n--- got\n%s\n--- output\n%s", want, got, out)
	}
	if again := lang.Format(f2); string(again) != string(out) {
		t.Fatalf("format is not idempotent\n--- first\n%q\n--- second\n%q", out, again)
	}
	return out
}

func TestFormatCorpus(t *testing.T) {
	for _, f := range realCorpus(t) {
		t.Run(f.rel, func(t *testing.T) {
			checkFormat(t, f.rel, f.kind, f.text)
		})
	}
}

// TestFormatGolden runs testdata/format/*.txtar: each holds one input file
// (named for its kind) and "want", the canonical form.
func TestFormatGolden(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "format", "*.txtar"))
	if len(paths) == 0 {
		t.Fatal("no format goldens")
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			ar, err := txtar.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var in txtar.File
			for _, f := range ar.Files {
				if f.Name != "want" {
					in = f
				}
			}
			got := checkFormat(t, in.Name, lang.KindOf(in.Name), string(in.Data))
			if got == nil {
				t.Fatalf("input has syntax errors")
			}
			checkWant(t, path, ar, string(got))
		})
	}
}
