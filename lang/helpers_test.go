package lang_test

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite golden files")

// updating reports whether goldens should be rewritten (-update or
// LSFC_UPDATE=1).
func updating() bool { return *update || os.Getenv("LSFC_UPDATE") == "1" }

// corpusDir returns ../shared/corpus/<sub> next to the module root, or skips
// the test when it is absent. LSFC_CORPUS overrides the corpus location.
func corpusDir(t testing.TB, sub string) string {
	t.Helper()
	root := os.Getenv("LSFC_CORPUS")
	if root == "" {
		dir, err := os.Getwd()
		if err != nil {
			t.Fatal(err)
		}
		for ; ; dir = filepath.Dir(dir) {
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
				break
			}
			if filepath.Dir(dir) == dir {
				t.Skip("module root not found")
			}
		}
		root = filepath.Join(dir, "..", "shared", "corpus")
	}
	path := filepath.Join(root, sub)
	if _, err := os.Stat(path); err != nil {
		t.Skipf("corpus %s is absent (set LSFC_CORPUS to its location): %v", path, err)
	}
	return path
}
