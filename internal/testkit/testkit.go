// Package testkit holds what the tests of several packages share: the
// location of the shared corpus, golden files that -update rewrites, and
// generated LSF trees for benchmarks and load tests.
package testkit

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/tools/txtar"
)

var update = flag.Bool("update", false, "rewrite golden files")

// Updating reports whether goldens should be rewritten (-update or
// LSFC_UPDATE=1).
func Updating() bool { return *update || os.Getenv("LSFC_UPDATE") == "1" }

// CorpusDir returns ../shared/corpus/<sub> next to the module root, or
// skips the test when it is absent. LSFC_CORPUS overrides the corpus
// location.
func CorpusDir(t testing.TB, sub string) string {
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

// CheckWant compares got with the "want" file of the archive at path, or
// rewrites it when updating.
func CheckWant(t *testing.T, path string, ar *txtar.Archive, got string) {
	t.Helper()
	wantAt := -1
	for i, f := range ar.Files {
		if f.Name == "want" {
			wantAt = i
		}
	}
	if Updating() {
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
	if diff := cmp.Diff(string(ar.Files[wantAt].Data), got); diff != "" {
		t.Errorf("%s: want section differs (-want +got; go test -update rewrites it):\n%s", path, diff)
	}
}

// CheckFile compares got with the file at path, or rewrites the file when
// updating.
func CheckFile(t *testing.T, path, got string) {
	t.Helper()
	if Updating() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("%s differs (-want +got; go test -update rewrites it, then review the change):\n%s", path, diff)
	}
}
