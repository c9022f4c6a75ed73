package compile_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
	"golang.org/x/tools/txtar"
)

// fuzzKinds are the kinds given, in turn, to fuzzed files whose names do
// not tell their kind.
var fuzzKinds = []lang.FileKind{
	lang.KindLSFShared, lang.KindLSFCluster, lang.KindLSBQueues, lang.KindLSBHosts, lang.KindLSBUsers,
	lang.KindLSBParams, lang.KindLSBResources, lang.KindLSBApplications, lang.KindLSFConf,
}

// fuzzTree reads a txtar archive as a tree: each file a configuration
// file, its kind from its name or, failing that, from its place.
func fuzzTree(data []byte) *compile.Tree {
	ar := txtar.Parse(data)
	tree := &compile.Tree{Cluster: "fuzz"}
	for i, f := range ar.Files {
		if i >= 12 {
			break
		}
		kind := lang.KindOf(f.Name)
		if kind == lang.KindUnknown {
			kind = fuzzKinds[i%len(fuzzKinds)]
		}
		file, _ := lang.ParseConfig(lang.NewSource(f.Name, string(f.Data)), kind)
		tree.Files = append(tree.Files, file)
	}
	return tree
}

// FuzzCompile compiles generated trees: no panic, every diagnostic and
// note inside the tree's files, the Policy encodes as JSON, and the same
// tree compiles to the same bytes twice.
func FuzzCompile(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "check", "*.txtar"))
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	demo := &txtar.Archive{}
	tree, _, err := compile.Load([]string{filepath.Join("..", "testdata", "clusters", "demo")}, compile.LoadOptions{})
	if err != nil {
		f.Fatal(err)
	}
	for _, file := range tree.Files {
		demo.Files = append(demo.Files, txtar.File{Name: filepath.Base(file.Src.Name), Data: []byte(file.Src.Text)})
	}
	f.Add(txtar.Format(demo))
	f.Fuzz(func(t *testing.T, data []byte) {
		tree := fuzzTree(data)
		for _, d := range []compile.Dialect{compile.LSF10, compile.Openlava} {
			p, diags := compile.Compile(tree, compile.Options{Dialect: d})
			checkInFiles(t, tree, diags)
			b1, err := json.Marshal(p)
			if err != nil {
				t.Fatalf("%s: the policy does not encode: %v", d, err)
			}
			p2, _ := compile.Compile(tree, compile.Options{Dialect: d})
			if b2, _ := json.Marshal(p2); string(b1) != string(b2) {
				t.Fatalf("%s: two compilations differ", d)
			}
		}
	})
}
