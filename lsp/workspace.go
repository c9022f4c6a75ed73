package lsp

import (
	"errors"
	"os"
	"path/filepath"
	"slices"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
	"github.com/lsfc/lsfc/lint"
)

// A snapshot is one tree, loaded with the open documents' text, compiled
// and linted.
type snapshot struct {
	// paths are what the tree was loaded from: an LSF_ENVDIR, a directory
	// of lsb.* files, or one file.
	paths []string
	res   *lint.Result
	// config are the findings about the .lsfc.yaml that applied.
	config lang.Diagnostics
	index  *index
	// files maps each file's clean path to its syntax tree.
	files map[string]*lang.File
}

// contains reports whether the snapshot read the file at path.
func (s *snapshot) contains(path string) bool { return s.files[path] != nil }

// file returns the syntax tree of the file at path, or nil.
func (s *snapshot) file(path string) *lang.File { return s.files[path] }

// rootCandidates returns, nearest first, the LSF_ENVDIRs that may hold
// the file at path: every directory above it, up to four levels, holding
// lsf.conf, then envDir. The lsb.* files of a cluster lie in
// lsbatch/<cluster>/configdir below the LSF_ENVDIR, three levels down.
func rootCandidates(path, envDir string) []string {
	var out []string
	dir := filepath.Dir(path)
	for range 5 {
		if exists(filepath.Join(dir, "lsf.conf")) || exists(filepath.Join(dir, "ll.conf")) {
			out = append(out, dir)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	if envDir != "" {
		if abs, err := filepath.Abs(envDir); err == nil && !slices.Contains(out, abs) {
			out = append(out, abs)
		}
	}
	return out
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// loadTree loads the tree the file at path belongs to, as lint finds a
// tree: the first candidate LSF_ENVDIR whose configuration includes the
// file, else the file's directory when it holds configuration files and
// the file among them, else the file alone. text is the document's text,
// used when the file is not on disk.
func loadTree(path, text string, opts compile.LoadOptions) (*compile.Tree, lang.Diagnostics, []string) {
	for _, root := range rootCandidates(path, opts.EnvDir) {
		tree, diags, err := compile.Load([]string{root}, opts)
		if err == nil && treeHas(tree, path) {
			return tree, diags, []string{root}
		}
	}
	if dir := filepath.Dir(path); lang.KindOf(path) != lang.KindUnknown {
		tree, diags, err := compile.Load([]string{dir}, opts)
		if err == nil && treeHas(tree, path) {
			return tree, diags, []string{dir}
		}
	}
	tree, diags, err := compile.Load([]string{path}, opts)
	if err == nil {
		return tree, diags, []string{path}
	}
	// Not on disk, or not readable: the document alone.
	kind := lang.KindOf(path)
	if kind == lang.KindUnknown {
		kind = lang.SniffKind(text[:min(len(text), 64<<10)])
	}
	f, diags := lang.ConfigParser{Limits: opts.Limits}.Parse(lang.NewSource(path, text), kind)
	return &compile.Tree{Files: []*lang.File{f}}, diags, []string{path}
}

func treeHas(t *compile.Tree, path string) bool {
	for _, f := range t.Files {
		if f.Src.Name == path {
			return true
		}
	}
	return false
}

// reloadTree loads the tree at paths again, as loadTree found it.
func reloadTree(paths []string, path, text string, opts compile.LoadOptions) (*compile.Tree, lang.Diagnostics, error) {
	tree, diags, err := compile.Load(paths, opts)
	if err == nil {
		return tree, diags, nil
	}
	if len(paths) == 1 && paths[0] == path {
		t, d, _ := loadTree(path, text, opts)
		return t, d, nil
	}
	return nil, nil, err
}

// lintTree compiles and lints a loaded tree with the rule settings of the
// nearest .lsfc.yaml above start, as lint does.
func lintTree(tree *compile.Tree, loaded lang.Diagnostics, start string, opts Options) *snapshot {
	lo := lint.Options{Load: opts.Load, Compile: opts.Compile}
	var cfgDiags lang.Diagnostics
	if st, err := os.Stat(start); err == nil && !st.IsDir() {
		start = filepath.Dir(start)
	}
	if p := lint.FindConfig(start); p != "" {
		cfg, diags, err := lint.LoadConfig(p)
		if err == nil {
			lo.Config = cfg
			cfgDiags = diags
		}
	}
	res := lint.CheckLoaded(tree, loaded, lo)
	s := &snapshot{res: res, config: cfgDiags, files: map[string]*lang.File{}}
	for _, f := range tree.Files {
		s.files[f.Src.Name] = f
	}
	s.index = buildIndex(tree)
	return s
}

var errClosed = errors.New("document is not open")
