package testkit

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
	"golang.org/x/tools/txtar"
)

// ArchiveTree parses the files of a txtar archive into a tree: each file
// is named as LSF names it (lsf.conf, lsf.cluster.NAME, lsb.queues ...),
// and "want" files are skipped. A comment line "dialect: openlava" in the
// archive's header selects the dialect. With strict, a file with syntax
// errors fails the test.
func ArchiveTree(t *testing.T, ar *txtar.Archive, strict bool) (*compile.Tree, compile.Options) {
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
		if strict && ds.HasErrors() {
			t.Fatalf("%s does not parse: %v", f.Name, ds.Err())
		}
		if kind == lang.KindLSFCluster {
			_, tree.Cluster, _ = strings.Cut(f.Name, ".cluster.")
		}
		tree.Files = append(tree.Files, file)
	}
	return tree, opts
}

// WriteArchive writes the files of a txtar archive's text into a new
// temporary directory of the test and returns the directory.
func WriteArchive(t testing.TB, text string) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range txtar.Parse([]byte(text)).Files {
		path := filepath.Join(dir, filepath.FromSlash(f.Name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, f.Data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
