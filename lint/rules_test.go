package lint_test

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/lang"
	"github.com/lsfc/lsfc/lint"
	"golang.org/x/tools/txtar"
)

// wantRE reads an expectation comment: "# want LSF503 "cycle" LSF504 "..."".
var (
	wantLineRE = regexp.MustCompile(`^\s*#\s*want\s+(.*)$`)
	wantItemRE = regexp.MustCompile(`(LSF[0-9]{3})\s+"((?:[^"\\]|\\.)*)"`)
)

// A want is one expected finding: its file and line, code and a regular
// expression its message must match.
type want struct {
	file string
	line int
	code lang.Code
	re   *regexp.Regexp
	used bool
}

// TestRules runs testdata/rules/*.txtar. Each archive holds the files of a
// small tree (and, named peer/CLUSTER/FILE, those of other clusters); a comment line "# want CODE "regexp" ..." stands above the
// line each finding must be reported on. Every finding of the tree must
// be wanted and every want found, so each archive shows both the cases a
// rule reports and those it must leave alone. A comment line "dialect:
// openlava" in the archive's header compiles for openlava.
func TestRules(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "rules", "*.txtar"))
	if len(paths) == 0 {
		t.Fatal("no rule tests")
	}
	covered := map[lang.Code]bool{}
	for _, path := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			ar, peers := peerTrees(t, ar)
			tree, opts, wants := ruleTree(t, ar)
			res := lint.Check(tree, lint.Options{Compile: opts, Peers: peers})
			for _, d := range res.Diagnostics {
				p := d.Span.StartPos()
				if !match(wants, d.Span.Path(), p.Line, d) {
					t.Errorf("unexpected finding %v", d)
				}
			}
			for _, w := range wants {
				if !w.used {
					t.Errorf("%s:%d: no %s finding matching %q", w.file, w.line, w.code, w.re)
				}
				covered[w.code] = true
			}
		})
	}
	for _, a := range lint.Analyzers() {
		if !covered[a.Code] {
			t.Errorf("%s (%s) has no rule test that wants it", a.Code, a.Name)
		}
	}
}

func match(wants []*want, file string, line int, d *lang.Diagnostic) bool {
	for _, w := range wants {
		if !w.used && w.file == file && w.line == line && w.code == d.Code && w.re.MatchString(d.Message) {
			w.used = true
			return true
		}
	}
	return false
}

// peerTrees takes the files named peer/CLUSTER/FILE out of an archive and
// parses each cluster's into a tree of its own: the configurations of the
// other clusters, for the rules across clusters.
func peerTrees(t *testing.T, ar *txtar.Archive) (*txtar.Archive, []*compile.Tree) {
	t.Helper()
	local := &txtar.Archive{Comment: ar.Comment}
	byCluster := map[string]*txtar.Archive{}
	var names []string
	for _, f := range ar.Files {
		rest, ok := strings.CutPrefix(f.Name, "peer/")
		if !ok {
			local.Files = append(local.Files, f)
			continue
		}
		cluster, file, ok := strings.Cut(rest, "/")
		if !ok {
			t.Fatalf("%s: want peer/CLUSTER/FILE", f.Name)
		}
		if byCluster[cluster] == nil {
			byCluster[cluster] = &txtar.Archive{Comment: ar.Comment}
			names = append(names, cluster)
		}
		byCluster[cluster].Files = append(byCluster[cluster].Files, txtar.File{Name: file, Data: f.Data})
	}
	var trees []*compile.Tree
	for _, n := range names {
		tree, _ := testkit.ArchiveTree(t, byCluster[n], true)
		trees = append(trees, tree)
	}
	return local, trees
}

// ruleTree parses the archive's files and their expectations.
func ruleTree(t *testing.T, ar *txtar.Archive) (*compile.Tree, compile.Options, []*want) {
	t.Helper()
	tree, opts := testkit.ArchiveTree(t, ar, false)
	var wants []*want
	for _, f := range ar.Files {
		var pending []*want
		for i, line := range strings.Split(string(f.Data), "\n") {
			m := wantLineRE.FindStringSubmatch(line)
			if m == nil {
				for _, w := range pending {
					w.line = i + 1
				}
				wants = append(wants, pending...)
				pending = nil
				continue
			}
			items := wantItemRE.FindAllStringSubmatch(m[1], -1)
			if len(items) == 0 {
				t.Fatalf("%s:%d: want without CODE \"regexp\"", f.Name, i+1)
			}
			for _, it := range items {
				// The regexp is written as is; only \" stands for a quote.
				re, err := regexp.Compile(strings.ReplaceAll(it[2], `\"`, `"`))
				if err != nil {
					t.Fatalf("%s:%d: %v", f.Name, i+1, err)
				}
				pending = append(pending, &want{file: f.Name, code: lang.Code(it[1]), re: re})
			}
		}
		if len(pending) > 0 {
			t.Fatalf("%s: want at the end of the file", f.Name)
		}
	}
	return tree, opts, wants
}

// Example of the want syntax, checked so that the documentation above
// stays true.
func TestWantSyntax(t *testing.T) {
	m := wantItemRE.FindAllStringSubmatch(`LSF503 "a \"b\"" LSF504 "c"`, -1)
	if got := fmt.Sprintf("%d %s %s", len(m), m[0][1], m[1][2]); got != "2 LSF503 c" {
		t.Errorf("got %s", got)
	}
}
