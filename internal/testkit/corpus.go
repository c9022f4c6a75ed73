package testkit

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
)

// A CorpusTree is a set of real files that belong together: the files of
// one directory of one repository, in one naming family (lsf.* and lsb.*,
// LavaLite's ll.* and llb.*, or autoconf templates *.in).
type CorpusTree struct {
	Name string
	Tree *compile.Tree
}

// RealTrees groups the real corpus into trees. Chef templates are left
// out: their ERB tags are not LSF syntax. A kind that appears twice in a
// group (two lsf.cluster files) puts the second file in a tree of its own.
func RealTrees(t testing.TB) []CorpusTree {
	dir := CorpusDir(t, "real")
	groups := map[string][]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		name := d.Name()
		if strings.HasSuffix(name, ".md") || strings.HasSuffix(name, ".erb") {
			return nil
		}
		base := fileName(name)
		family := "lsf"
		switch {
		case strings.HasSuffix(base, ".in"):
			family = "in"
		case strings.HasPrefix(base, "ll"):
			family = "ll"
		}
		rel, _ := filepath.Rel(dir, filepath.Dir(path))
		key := filepath.ToSlash(rel) + " " + family
		groups[key] = append(groups[key], path)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for k := range groups {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []CorpusTree
	for _, k := range keys {
		paths := groups[k]
		sort.Strings(paths)
		tree := &compile.Tree{}
		var extra []*lang.File
		for _, p := range paths {
			f := parseCorpusFile(t, dir, p)
			if tree.File(f.Kind) != nil {
				extra = append(extra, f)
				continue
			}
			if f.Kind == lang.KindLSFCluster {
				tree.Cluster = clusterName(fileName(filepath.Base(p)))
			}
			tree.Files = append(tree.Files, f)
		}
		out = append(out, CorpusTree{Name: k, Tree: tree})
		for _, f := range extra {
			one := &compile.Tree{Files: []*lang.File{f}}
			out = append(out, CorpusTree{Name: f.Src.Name, Tree: one})
		}
	}
	return out
}

// fileName strips the corpus's "<dir>__" prefixes from a file name.
func fileName(name string) string {
	if i := strings.LastIndex(name, "__"); i >= 0 {
		return name[i+2:]
	}
	return name
}

// clusterName returns NAME of lsf.cluster.NAME (or ll.cluster.NAME, with
// any .in suffix removed).
func clusterName(base string) string {
	base = strings.TrimSuffix(base, ".in")
	_, name, _ := strings.Cut(base, ".cluster.")
	return name
}

func parseCorpusFile(t testing.TB, dir, path string) *lang.File {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	rel, _ := filepath.Rel(dir, path)
	kind := lang.KindOf(fileName(filepath.Base(path)))
	if kind == lang.KindUnknown {
		kind = lang.SniffKind(string(b))
	}
	f, _ := lang.ParseConfig(lang.NewSource(filepath.ToSlash(rel), string(b)), kind)
	return f
}

// CorpusErrors returns the errors the real corpus may hold, keyed by
// "path:line:col CODE", each with the reason the file is wrong for LSF
// too. Any other error on the corpus is a false positive.
func CorpusErrors() map[string]string {
	return map[string]string{
		"LavaLite-Compute__lavalite/at-b472328/etc__lsf.shared:22:1 LSF206": "the HostModel header is commented out, so LSF reads the first model as column names",
		"LavaLite-Compute__lavalite/etc__llb.queues:14:16 LSF306":           "HOSTS names myhosts; the cluster has host myhost and no host group",
		"shaoboyang__jhlava/config__lsf.cluster.jhlava:16:34 LSF314":        "an installer placeholder (__OS__) left in place of the host type",
	}
}

// CorpusFindings runs check on every real tree for LSF 10.1 and openlava,
// fails the test on an error CorpusErrors does not allow, and returns
// every finding as "dialect path:line:col: severity: message [CODE]"
// lines, for a reviewed golden file.
func CorpusFindings(t *testing.T, check func(*compile.Tree, compile.Dialect) lang.Diagnostics) string {
	t.Helper()
	var b strings.Builder
	allowed := CorpusErrors()
	for _, ct := range RealTrees(t) {
		for _, d := range []compile.Dialect{compile.LSF10, compile.Openlava} {
			for _, x := range check(ct.Tree, d) {
				if x.Severity == lang.Error {
					p := x.Span.StartPos()
					if _, ok := allowed[fmt.Sprintf("%s:%d:%d %s", x.Span.Path(), p.Line, p.Col, x.Code)]; !ok {
						t.Errorf("%s: unexpected error on real configuration: %v", d, x)
					}
				}
				fmt.Fprintf(&b, "%s %s\n", d, x.Error())
			}
		}
	}
	return b.String()
}
