package compile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/lsfc/lsfc/lang"
)

// A Tree is the set of configuration files of one cluster, as Load found
// and parsed them.
type Tree struct {
	// EnvDir is the directory holding lsf.conf, or "" when none was read.
	EnvDir string
	// ConfDir is where lsf.shared and lsf.cluster.<name> were read, or "".
	ConfDir string
	// BatchDir is where the lsb.* files were read, or "".
	BatchDir string
	// Cluster is the name of the local cluster, or "" when unknown.
	Cluster string
	// Files are the parsed files in a stable order: lsf.conf, lsf.shared,
	// lsf.cluster, then the others by kind and path.
	Files []*lang.File
}

// File returns the first file of the given kind, or nil.
func (t *Tree) File(kind lang.FileKind) *lang.File {
	for _, f := range t.Files {
		if f.Kind == kind {
			return f
		}
	}
	return nil
}

// LoadOptions configure Load. The zero value is ready to use.
type LoadOptions struct {
	// EnvDir is used when Load is given no path; the command line passes
	// $LSF_ENVDIR here.
	EnvDir string
	// Cluster names the local cluster when lsf.shared lists several and
	// the files do not tell which one is local.
	Cluster string
	// Limits bound what the parser accepts.
	Limits lang.Limits
	// ConfOnly stops an LSF_ENVDIR's reading once the local cluster is
	// named: only lsf.conf and lsf.shared are read. Clients that need no
	// more than lsf.conf's settings and the cluster's name use it.
	ConfOnly bool
	// Overlay holds the text of files by clean absolute path, read
	// instead of what the disk holds: an editor's unsaved buffers. A file
	// is still found only where it exists on disk.
	Overlay map[string]string
	// Parse, when not nil, parses the text of each file instead of
	// lang.ConfigParser with Limits: a caller that loads the same tree
	// again can keep the files that did not change. It is called from
	// several goroutines at once.
	Parse func(path, text string, kind lang.FileKind) (*lang.File, lang.Diagnostics)
}

// ErrNoConfig is returned (wrapped) when a directory holds no LSF
// configuration file.
var ErrNoConfig = errors.New("no LSF configuration files")

// Load finds and parses the configuration files of a cluster. Each path is
// one of:
//
//   - an LSF_ENVDIR (a directory holding lsf.conf): lsf.shared and
//     lsf.cluster.<name> are read from LSF_CONFDIR, or from the directory
//     itself when LSF_CONFDIR does not exist on this machine; the lsb.*
//     files from LSB_CONFDIR/<cluster>/configdir, or, when LSB_CONFDIR does
//     not exist here, from lsbatch/<cluster>/configdir next to lsf.conf
//     (an info diagnostic says so), or from the directory itself;
//   - a directory of lsb.* files (and any lsf.* files beside them);
//   - a configuration file, whose kind comes from its name or, failing
//     that, from its content.
//
// With no path, Load reads opts.EnvDir. Files are read and parsed in
// parallel. The diagnostics are the syntax diagnostics of every file and
// what discovery found (LSF3xx); the error is for I/O failures and paths
// that hold no configuration at all.
func Load(paths []string, opts LoadOptions) (*Tree, lang.Diagnostics, error) {
	if len(paths) == 0 {
		if opts.EnvDir == "" {
			return nil, nil, errors.New("no configuration path given and LSF_ENVDIR is not set")
		}
		paths = []string{opts.EnvDir}
	}
	l := &loader{opts: opts, tree: &Tree{}}
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil {
			return nil, nil, err
		}
		if st.IsDir() {
			err = l.dir(p)
		} else {
			err = l.files([]string{p}, lang.KindUnknown)
		}
		if err != nil {
			return nil, nil, err
		}
	}
	l.tree.Files = sortFiles(l.tree.Files)
	if l.tree.Cluster == "" {
		l.tree.Cluster = clusterOfFiles(l.tree.Files, opts.Cluster)
	}
	l.unchecked()
	l.diags.Sort()
	return l.tree, l.diags, nil
}

// clusterOfFiles names the local cluster of files read without an
// lsf.conf, as pickCluster does but without its diagnostics: the named
// cluster, else chooseCluster's choice, else none.
func clusterOfFiles(files []*lang.File, named string) string {
	if named != "" {
		return named
	}
	var present, declared []string
	for _, f := range files {
		switch f.Kind {
		case lang.KindLSFCluster:
			if name := clusterFileName(filepath.Base(f.Src.Name)); name != "" {
				present = append(present, name)
			}
		case lang.KindLSFShared:
			declared = append(declared, clusterNames(f)...)
		}
	}
	return chooseCluster(present, declared)
}

// clusterFileName returns the cluster an lsf.cluster.<name> (or
// ll.cluster.<name>) file is named for, "" for another file.
func clusterFileName(base string) string { return lang.ClusterFileName(base) }

// chooseCluster picks the local cluster (see lang.ChooseCluster).
func chooseCluster(present, declared []string) string { return lang.ChooseCluster(present, declared) }

type loader struct {
	opts  LoadOptions
	tree  *Tree
	diags lang.Diagnostics
	seen  map[string]bool
}

// unchecked says, as an info on the first lsb.* file, which checks of the
// lsb.* files could not run because lsf.cluster.<name> or lsf.shared is not
// in the tree (a directory of lsb.* files read on its own, or single
// files). Nothing is said when the tree has no lsb.* file, has both
// files, or when discovery already reported a missing one (LSF302).
func (l *loader) unchecked() {
	var batch *lang.File
	has := map[lang.FileKind]bool{}
	for _, f := range l.tree.Files {
		has[f.Kind] = true
		if batch == nil && f.Kind.Family() == lang.FamilyBatch {
			batch = f
		}
	}
	if batch == nil || has[lang.KindLSFCluster] && has[lang.KindLSFShared] {
		return
	}
	for _, d := range l.diags {
		if d.Code == CodeMissingFile {
			return
		}
	}
	var missing, checks []string
	if !has[lang.KindLSFCluster] {
		missing = append(missing, "lsf.cluster.<cluster>")
		checks = append(checks, "host names (in HOSTS, host group members, lsb.hosts rows, limits and DEFAULT_HOST_SPEC)")
	}
	if !has[lang.KindLSFShared] {
		missing = append(missing, "lsf.shared")
		checks = append(checks, "host models and types, site resource names (in resource requirements, thresholds and limits) and cluster names")
	}
	verb := "is"
	if len(missing) > 1 {
		verb = "are"
	}
	l.diags.Add(lang.Info, CodeUncheckedRefs, batch.Src.SpanOf(0, 0),
		"%s %s not among the files read, so these were not checked: %s; lint the LSF_ENVDIR (the directory of lsf.conf) to check them",
		strings.Join(missing, " and "), verb, strings.Join(checks, "; "))
}

// dir reads a directory: an LSF_ENVDIR, or a directory of lsb.* files.
func (l *loader) dir(dir string) error {
	if exists(filepath.Join(dir, "lsf.conf")) {
		return l.envDir(dir, "lsf.conf")
	}
	if exists(filepath.Join(dir, "ll.conf")) {
		return l.envDir(dir, "ll.conf")
	}
	names, err := configNames(dir)
	if err != nil {
		return err
	}
	if len(names) == 0 {
		return fmt.Errorf("%s: %w (no lsf.conf, lsf.shared, lsf.cluster.* or lsb.* files)", dir, ErrNoConfig)
	}
	l.tree.BatchDir = dir
	return l.files(names, lang.KindUnknown)
}

// configNames lists the configuration files of a directory by name, in
// name order.
func configNames(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if e.Type().IsRegular() || e.Type()&fs.ModeSymlink != 0 {
			if lang.KindOf(e.Name()) != lang.KindUnknown {
				out = append(out, filepath.Join(dir, e.Name()))
			}
		}
	}
	return out, nil
}

// batchNames lists the lsb.* files of a directory.
func batchNames(dir string) ([]string, error) {
	names, err := configNames(dir)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(names, func(n string) bool {
		return lang.KindOf(n).Family() != lang.FamilyBatch
	}), nil
}

// envDir reads an LSF_ENVDIR whose lsf.conf is named conf.
func (l *loader) envDir(dir, conf string) error {
	t := l.tree
	t.EnvDir = dir
	lsfConf, err := l.read(filepath.Join(dir, conf), lang.KindLSFConf)
	if err != nil {
		return err
	}

	// lsf.shared and lsf.cluster.<name> live in LSF_CONFDIR.
	t.ConfDir = dir
	if a := lookup(lsfConf, "LSF_CONFDIR"); a != nil && !sameDir(a.Value.Text, dir) {
		if isDir(a.Value.Text) {
			t.ConfDir = a.Value.Text
		} else if !exists(filepath.Join(dir, "lsf.shared")) {
			l.diags.Add(lang.Warning, CodeConfDirMissing, a.Value.Span,
				"LSF_CONFDIR %q does not exist on this machine and lsf.shared is not next to lsf.conf", a.Value.Text)
		}
	}
	shared, err := l.readIf(filepath.Join(t.ConfDir, "lsf.shared"), lang.KindLSFShared)
	if err != nil {
		return err
	}
	if shared == nil {
		l.diags.Add(lang.Error, CodeMissingFile, lsfConf.Src.SpanOf(0, 0),
			"lsf.shared not found in %s; LIM cannot start without it", t.ConfDir)
	}
	if err := l.pickCluster(shared, lsfConf); err != nil {
		return err
	}
	if l.opts.ConfOnly {
		return nil
	}
	if t.Cluster != "" {
		path := filepath.Join(t.ConfDir, "lsf.cluster."+t.Cluster)
		if !exists(path) && exists(filepath.Join(t.ConfDir, "ll.cluster."+t.Cluster)) {
			path = filepath.Join(t.ConfDir, "ll.cluster."+t.Cluster)
		}
		f, err := l.readIf(path, lang.KindLSFCluster)
		if err != nil {
			return err
		}
		if f == nil {
			l.diags.Add(lang.Error, CodeMissingFile, lsfConf.Src.SpanOf(0, 0),
				"lsf.cluster.%s not found in %s; LIM cannot start without it", t.Cluster, t.ConfDir)
		}
	}
	batch, err := l.batchDir(lsfConf)
	if err != nil || batch == "" {
		return err
	}
	t.BatchDir = batch
	names, err := batchNames(batch)
	if err != nil {
		return err
	}
	return l.files(names, lang.KindUnknown)
}

// batchDir finds the directory of the lsb.* files of an LSF_ENVDIR.
func (l *loader) batchDir(lsfConf *lang.File) (string, error) {
	t := l.tree
	cluster := t.Cluster
	if cluster == "" {
		return "", nil
	}
	confDirSetting := lookup(lsfConf, "LSB_CONFDIR")
	lsbConfDir := filepath.Join(t.ConfDir, "lsbatch") // LSF's default
	if confDirSetting != nil {
		lsbConfDir = confDirSetting.Value.Text
	}
	want := filepath.Join(lsbConfDir, cluster, "configdir")
	if isDir(want) {
		return want, nil
	}
	local := filepath.Join(t.EnvDir, "lsbatch", cluster, "configdir")
	switch {
	case isDir(local):
		if confDirSetting != nil && !sameDir(want, local) {
			l.diags.Add(lang.Info, CodeBatchDirFallback, confDirSetting.Value.Span,
				"LSB_CONFDIR %q does not exist on this machine; reading %s next to lsf.conf instead",
				confDirSetting.Value.Text, filepath.Join("lsbatch", cluster, "configdir"))
		}
		return local, nil
	default:
		names, err := batchNames(t.EnvDir)
		if err != nil {
			return "", err
		}
		if len(names) > 0 {
			l.diags.Add(lang.Info, CodeBatchDirFallback, spanOf(lsfConf, confDirSetting),
				"%s does not exist; reading the lsb.* files next to lsf.conf", want)
			return t.EnvDir, nil
		}
	}
	l.diags.Add(lang.Warning, CodeNoBatchDir, spanOf(lsfConf, confDirSetting),
		"no batch configuration found in %s or %s; mbatchd would run with default queues and parameters", want, local)
	return "", nil
}

func spanOf(f *lang.File, a *lang.Assignment) lang.Span {
	if a != nil {
		return a.Value.Span
	}
	return f.Src.SpanOf(0, 0)
}

// pickCluster decides the local cluster name: opts.Cluster; else the one
// cluster of lsf.shared whose lsf.cluster.<name> file exists; else the only
// lsf.cluster.* file present; else the only cluster lsf.shared lists.
func (l *loader) pickCluster(shared, lsfConf *lang.File) error {
	t := l.tree
	if l.opts.Cluster != "" {
		t.Cluster = l.opts.Cluster
		return nil
	}
	declared := clusterNames(shared)
	entries, err := os.ReadDir(t.ConfDir)
	if err != nil {
		return err
	}
	var present []string
	for _, e := range entries {
		if name := clusterFileName(e.Name()); name != "" {
			present = append(present, name)
		}
	}
	t.Cluster = chooseCluster(present, declared)
	switch {
	case t.Cluster != "":
	case len(present) == 0 && len(declared) == 0:
		l.diags.Add(lang.Error, CodeMissingFile, lsfConf.Src.SpanOf(0, 0),
			"no lsf.cluster.<name> file in %s; LIM cannot start without one", t.ConfDir)
	default:
		sp := lsfConf.Src.SpanOf(0, 0)
		if shared != nil {
			sp = shared.Src.SpanOf(0, 0)
		}
		l.diags.Add(lang.Error, CodeWhichCluster, sp,
			"cannot tell which cluster is local: lsf.shared names %s and %s holds lsf.cluster files for %s; choose one with --cluster",
			listOr(declared), t.ConfDir, listOr(present))
	}
	return nil
}

func listOr(names []string) string {
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// clusterNames returns the cluster names of lsf.shared's Cluster section.
func clusterNames(shared *lang.File) []string { return lang.SharedClusterNames(shared) }

// lookup returns the last assignment of key in an lsf.conf file (LSF
// keeps the last), or nil.
func lookup(f *lang.File, key string) *lang.Assignment {
	var found *lang.Assignment
	for _, it := range f.Items {
		if a, ok := it.(*lang.Assignment); ok && a.Key.Text == key {
			found = a
		}
	}
	return found
}

// files reads and parses files in parallel, appending them to the tree.
func (l *loader) files(paths []string, kind lang.FileKind) error {
	type result struct {
		f     *lang.File
		diags lang.Diagnostics
		err   error
	}
	results := make([]result, len(paths))
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for i, p := range paths {
		if l.seen[p] {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			f, diags, err := parseFile(p, kind, l.opts)
			results[i] = result{f, diags, err}
		}()
	}
	wg.Wait()
	for i, r := range results {
		if r.err != nil {
			return r.err
		}
		if r.f == nil {
			continue
		}
		l.markSeen(paths[i])
		l.tree.Files = append(l.tree.Files, r.f)
		l.diags = append(l.diags, r.diags...)
	}
	return nil
}

func (l *loader) markSeen(p string) {
	if l.seen == nil {
		l.seen = map[string]bool{}
	}
	l.seen[p] = true
}

// read parses one file and adds it to the tree.
func (l *loader) read(path string, kind lang.FileKind) (*lang.File, error) {
	f, diags, err := parseFile(path, kind, l.opts)
	if err != nil {
		return nil, err
	}
	l.markSeen(path)
	l.tree.Files = append(l.tree.Files, f)
	l.diags = append(l.diags, diags...)
	return f, nil
}

// readIf is read for a file that may be absent: it returns nil then.
func (l *loader) readIf(path string, kind lang.FileKind) (*lang.File, error) {
	if !exists(path) {
		return nil, nil
	}
	return l.read(path, kind)
}

// parseFile reads and parses one file, from opts.Overlay when it holds
// the path. kind KindUnknown means: from the name, else from the content.
func parseFile(path string, kind lang.FileKind, opts LoadOptions) (*lang.File, lang.Diagnostics, error) {
	lim := opts.Limits
	if text, ok := opts.Overlay[path]; ok {
		f, diags := parseText(path, text, kind, opts)
		return f, diags, nil
	}
	max := lim.MaxFileSize
	if max <= 0 {
		max = lang.DefaultMaxFileSize
	}
	fh, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer fh.Close()
	if st, err := fh.Stat(); err != nil {
		return nil, nil, err
	} else if st.IsDir() {
		return nil, nil, fmt.Errorf("%s is a directory", path)
	}
	// Read at most one byte past the limit: the parser reports the size.
	buf, err := io.ReadAll(io.LimitReader(fh, int64(max)+1))
	if err != nil {
		return nil, nil, err
	}
	f, diags := parseText(path, string(buf), kind, opts)
	return f, diags, nil
}

// parseText parses the text of the file at path, with opts.Parse when
// set; kind as parseFile's.
func parseText(path, text string, kind lang.FileKind, opts LoadOptions) (*lang.File, lang.Diagnostics) {
	if kind == lang.KindUnknown {
		kind = lang.KindOf(path)
	}
	if kind == lang.KindUnknown {
		kind = lang.SniffKind(text[:min(len(text), 64<<10)])
	}
	if opts.Parse != nil {
		return opts.Parse(path, text, kind)
	}
	return lang.ConfigParser{Limits: opts.Limits}.Parse(lang.NewSource(path, text), kind)
}

// sortFiles orders files: lsf.conf, lsf.shared, lsf.cluster, lsf.task,
// then the lsb.* files by kind, then by path.
func sortFiles(files []*lang.File) []*lang.File {
	slices.SortStableFunc(files, func(a, b *lang.File) int {
		if a.Kind != b.Kind {
			return int(a.Kind) - int(b.Kind)
		}
		return strings.Compare(a.Src.Name, b.Src.Name)
	})
	return files
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func isDir(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

func sameDir(a, b string) bool {
	if a == b {
		return true
	}
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}
