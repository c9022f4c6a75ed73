package lsp

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
)

// findingsOf checks the tree at root with text as the file at path and
// returns the findings in that file, rendered.
func findingsOf(t *testing.T, path, text string) (*snapshot, []string) {
	t.Helper()
	opts := compile.LoadOptions{Overlay: map[string]string{path: text}}
	tree, loaded, paths := loadTree(path, text, opts)
	snap := lintTree(tree, loaded, paths[0], Options{})
	var out []string
	for _, d := range snap.res.Diagnostics {
		if d.Span.Root().Src.Name == path {
			out = append(out, d.Error())
		}
	}
	return snap, out
}

// TestQuickFindings: the findings published at once after an edit are
// those the whole check gives, when the edit needs no other file.
func TestQuickFindings(t *testing.T) {
	_, conf := demoTree(t)
	path := filepath.Join(conf, "lsb.queues")
	orig := readFile(t, path)
	before := strings.Replace(orig, "QUEUE_NAME  = gpu\n", "QUEUE_NAME  = gpu\nPRIORTY = 40\n", 1)
	snap, _ := findingsOf(t, path, before)
	for _, edit := range []struct{ name, text string }{
		{"typo in another queue", strings.Replace(before, "QUEUE_NAME  = phys\n", "QUEUE_NAME  = phys\nMEMLIMT = 4\n", 1)},
		{"line added above", "# a new first line\n" + before},
		{"typo fixed", strings.Replace(before, "PRIORTY", "PRIORITY", 1)},
		{"section half typed at the end", before + "Begin Que\nQUEUE_NA"},
	} {
		t.Run(edit.name, func(t *testing.T) {
			_, want := findingsOf(t, path, edit.text)
			src := lang.NewSource(path, edit.text)
			var got []string
			for _, d := range quickFindings(snap.file(path), snap.res.Diagnostics, src, Options{}) {
				got = append(got, d.Error())
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("quick findings:\n%s\nwant (the whole check's):\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}
