package main

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/lsfc/lsfc/lang"
)

// treeShareDir returns LSB_SHAREDIR of the lsf.conf in envDir and the
// local cluster's name, or "" for what cannot be found. Only lsf.conf and
// lsf.shared are read, and only parsed: a tree with mistakes still names
// its cluster. The answer is compile.Load's with ConfOnly, found without
// the compiler, which the LSF commands' own build does not link.
func treeShareDir(envDir string) (share, cluster string) {
	if envDir == "" {
		return "", ""
	}
	var conf *lang.File
	for _, name := range []string{"lsf.conf", "ll.conf"} {
		if p := filepath.Join(envDir, name); fileExists(p) {
			var ok bool
			if conf, ok = parseConfFile(p, lang.KindLSFConf); !ok {
				return "", ""
			}
			break
		}
	}
	if conf == nil {
		// A directory of configuration files: the cluster its lsf.cluster
		// and lsf.shared files name.
		entries, err := os.ReadDir(envDir)
		if err != nil {
			return "", ""
		}
		var present, declared []string
		for _, e := range entries {
			if !e.Type().IsRegular() && e.Type()&fs.ModeSymlink == 0 {
				continue
			}
			present = appendName(present, lang.ClusterFileName(e.Name()))
			if lang.KindOf(e.Name()) == lang.KindLSFShared {
				f, ok := parseConfFile(filepath.Join(envDir, e.Name()), lang.KindLSFShared)
				if !ok {
					return "", ""
				}
				declared = append(declared, lang.SharedClusterNames(f)...)
			}
		}
		return "", lang.ChooseCluster(present, declared)
	}
	confDir := envDir
	for _, it := range conf.Items {
		if as, ok := it.(*lang.Assignment); ok {
			switch as.Key.Text {
			case "LSB_SHAREDIR":
				share = as.Value.Text
			case "LSF_CONFDIR":
				confDir = envDir
				if !sameDir(as.Value.Text, envDir) && isDirectory(as.Value.Text) {
					confDir = as.Value.Text
				}
			}
		}
	}
	var shared *lang.File
	if p := filepath.Join(confDir, "lsf.shared"); fileExists(p) {
		var ok bool
		if shared, ok = parseConfFile(p, lang.KindLSFShared); !ok {
			return "", ""
		}
	}
	entries, err := os.ReadDir(confDir)
	if err != nil {
		return "", ""
	}
	var present []string
	for _, e := range entries {
		present = appendName(present, lang.ClusterFileName(e.Name()))
	}
	return share, lang.ChooseCluster(present, lang.SharedClusterNames(shared))
}

// appendName appends name to names unless it is "".
func appendName(names []string, name string) []string {
	if name == "" {
		return names
	}
	return append(names, name)
}

// parseConfFile parses a configuration file of kind as compile.Load
// reads it, within the parser's default size limit; ok is false when it
// cannot be read.
func parseConfFile(path string, kind lang.FileKind) (f *lang.File, ok bool) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, false
	}
	defer fh.Close()
	if st, err := fh.Stat(); err != nil || st.IsDir() {
		return nil, false
	}
	buf, err := io.ReadAll(io.LimitReader(fh, int64(lang.DefaultMaxFileSize)+1))
	if err != nil {
		return nil, false
	}
	f, _ = lang.ParseConfig(lang.NewSource(path, string(buf)), kind)
	return f, f != nil
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func isDirectory(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}

// sameDir reports whether a and b name one directory.
func sameDir(a, b string) bool {
	if a == b {
		return true
	}
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}
