//go:build !lsfclient

package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/lsfc/lsfc/compile"
)

// The environment cache of lsfc resreq match --conf: what a configuration
// tree gives the matching (lsf.conf's memory unit, lsf.shared's resources,
// types and models), kept in the user's cache directory so that the next
// match on the same tree reads no configuration file's syntax again. An
// entry names every file the tree was read from and every directory whose
// listing decided which files those were, each with a hash of its content;
// it is used only when all of them still hash the same, and it was written
// by this very binary. Only trees without errors are kept. An entry that
// cannot be read, does not decode or does not match is ignored (and
// replaced by the run that reads the tree); writers replace an entry by
// renaming a complete file over it, so that concurrent runs never see a
// half-written one. Nothing about the cache is ever an error.

// envCacheFormat changes whenever the layout of envCacheEntry does.
const envCacheFormat = 1

type envCacheEntry struct {
	Format int    `json:"format"`
	Binary string `json:"binary"` // binaryIdentity of the writer
	// Conf and Cluster are the --conf and --cluster the entry is for.
	Conf    string       `json:"conf"`
	Cluster string       `json:"cluster"`
	Files   []cachedPath `json:"files"`
	Dirs    []cachedPath `json:"dirs"`
	Env     cachedEnv    `json:"env"`
}

// cachedPath is a file and the hash of its content, or a directory and
// the hash of its sorted entry names.
type cachedPath struct {
	Path string `json:"path"`
	Hash string `json:"hash"`
}

// cachedEnv is a compile.EnvConfig as plain data.
type cachedEnv struct {
	Unit    compile.Unit     `json:"unit"`
	TmpUnit bool             `json:"tmp_unit"`
	Types   []string         `json:"types"`
	Models  []string         `json:"models"`
	Site    []cachedResource `json:"site"`
}

type cachedResource struct {
	Name       string          `json:"name"`
	Type       compile.ResType `json:"type"`
	Dynamic    bool            `json:"dynamic,omitempty"`
	Increasing bool            `json:"increasing,omitempty"`
	Memory     bool            `json:"memory,omitempty"`
	Consumable bool            `json:"consumable,omitempty"`
	Builtin    bool            `json:"builtin,omitempty"`
	Doc        string          `json:"doc,omitempty"`
}

// envCacheDir returns lsfc's directory in the user's cache directory
// ($XDG_CACHE_HOME/lsfc, else ~/.cache/lsfc), as os.UserCacheDir finds it
// but from the command's environment; "" when there is none.
func envCacheDir(e env) string {
	if d := e.getenv("XDG_CACHE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "lsfc")
	}
	if h := e.getenv("HOME"); filepath.IsAbs(h) {
		return filepath.Join(h, ".cache", "lsfc")
	}
	return ""
}

// envCachePath returns the file of the entry for a tree and cluster.
func envCachePath(e env, conf, cluster string) string {
	dir := envCacheDir(e)
	if dir == "" {
		return ""
	}
	abs, err := filepath.Abs(conf)
	if err != nil {
		return ""
	}
	sum := sha256.Sum256([]byte(abs + "\x00" + cluster))
	return filepath.Join(dir, "resreq-env", hex.EncodeToString(sum[:16])+".json")
}

// binaryIdentity names the running binary by its path, size and
// modification time: an entry written by another build is not used.
func binaryIdentity() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	st, err := os.Stat(exe)
	if err != nil {
		return ""
	}
	return exe + "\x00" + strconv.FormatInt(st.Size(), 10) + "\x00" + strconv.FormatInt(st.ModTime().UnixNano(), 10)
}

// cachedMatchEnv returns the environment of the entry for conf and
// cluster, or nil when there is no usable one.
func cachedMatchEnv(e env, conf, cluster string) *compile.Env {
	path := envCachePath(e, conf, cluster)
	if path == "" {
		return nil
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	var ent envCacheEntry
	if json.Unmarshal(b, &ent) != nil || ent.Format != envCacheFormat || ent.Conf != absPath(conf) ||
		ent.Cluster != cluster || ent.Binary == "" || ent.Binary != binaryIdentity() || len(ent.Files) == 0 {
		return nil
	}
	for _, f := range ent.Files {
		if h, ok := fileHash(f.Path); !ok || h != f.Hash {
			return nil
		}
	}
	for _, d := range ent.Dirs {
		if h, ok := dirHash(d.Path); !ok || h != d.Hash {
			return nil
		}
	}
	if _, err := compile.ParseUnit(ent.Env.Unit.String()); err != nil {
		return nil // not a unit: a damaged entry
	}
	cfg := compile.EnvConfig{Unit: ent.Env.Unit, TmpUnit: ent.Env.TmpUnit, Types: ent.Env.Types, Models: ent.Env.Models}
	for _, r := range ent.Env.Site {
		if r.Type != compile.Boolean && r.Type != compile.Numeric && r.Type != compile.String {
			return nil
		}
		cfg.Site = append(cfg.Site, compile.Resource{Name: r.Name, Type: r.Type, Dynamic: r.Dynamic, Increasing: r.Increasing,
			Memory: r.Memory, Consumable: r.Consumable, Builtin: r.Builtin, Doc: r.Doc})
	}
	return compile.NewEnv(cfg)
}

// storeMatchEnv writes the entry of a tree read without errors. Failures
// are ignored: the next run reads the tree again.
func storeMatchEnv(e env, conf, cluster string, tree *compile.Tree, cfg compile.EnvConfig) {
	path := envCachePath(e, conf, cluster)
	id := binaryIdentity()
	if path == "" || id == "" {
		return
	}
	ent := envCacheEntry{Format: envCacheFormat, Binary: id, Conf: absPath(conf), Cluster: cluster,
		Env: cachedEnv{Unit: cfg.Unit, TmpUnit: cfg.TmpUnit, Types: cfg.Types, Models: cfg.Models}}
	for _, f := range tree.Files {
		h, ok := fileHash(f.Src.Name)
		if !ok {
			return
		}
		ent.Files = append(ent.Files, cachedPath{Path: absPath(f.Src.Name), Hash: h})
	}
	// The directories whose listings chose the files: --conf itself when
	// it is one, and those the tree was read from.
	var dirs []string
	for _, d := range []string{conf, tree.EnvDir, tree.ConfDir, tree.BatchDir} {
		if d != "" && isDirectory(d) && !slices.Contains(dirs, absPath(d)) {
			dirs = append(dirs, absPath(d))
		}
	}
	for _, d := range dirs {
		h, ok := dirHash(d)
		if !ok {
			return
		}
		ent.Dirs = append(ent.Dirs, cachedPath{Path: d, Hash: h})
	}
	for _, r := range cfg.Site {
		ent.Env.Site = append(ent.Env.Site, cachedResource{Name: r.Name, Type: r.Type, Dynamic: r.Dynamic,
			Increasing: r.Increasing, Memory: r.Memory, Consumable: r.Consumable, Builtin: r.Builtin, Doc: r.Doc})
	}
	b, err := json.Marshal(&ent)
	if err != nil {
		return
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".entry-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(b)
	if cerr := tmp.Close(); werr != nil || cerr != nil || os.Rename(tmp.Name(), path) != nil {
		os.Remove(tmp.Name())
	}
}

func absPath(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}

// fileHash returns the SHA-256 of a file's content, in hex.
func fileHash(path string) (string, bool) {
	b, err := os.ReadFile(path)
	if err != nil {
		return "", false
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), true
}

// dirHash returns the SHA-256 of a directory's entry names, sorted, with
// their kinds (file or directory), in hex.
func dirHash(dir string) (string, bool) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return "", false
	}
	var b strings.Builder
	for _, en := range entries { // os.ReadDir sorts by name
		b.WriteString(en.Name())
		if en.IsDir() {
			b.WriteString("/")
		}
		b.WriteString("\n")
	}
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:]), true
}
