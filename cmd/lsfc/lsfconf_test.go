package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
)

// loadShareDir is treeShareDir as compile.Load with ConfOnly answers it,
// the reference the compiler-free reading must agree with.
func loadShareDir(envDir string) (share, cluster string) {
	t, _, err := compile.Load(nil, compile.LoadOptions{EnvDir: envDir, ConfOnly: true})
	if err != nil {
		return "", ""
	}
	if f := t.File(lang.KindLSFConf); f != nil {
		for _, it := range f.Items {
			if as, ok := it.(*lang.Assignment); ok && as.Key.Text == "LSB_SHAREDIR" {
				share = as.Value.Text
			}
		}
	}
	return share, t.Cluster
}

// TestTreeShareDirAgreesWithLoad compares the LSF commands' reading of an
// LSF_ENVDIR with compile.Load's over every directory of the bundled
// trees and of the corpus of real configurations: directories with an
// lsf.conf, directories of lsb.* files, and directories with neither.
func TestTreeShareDirAgreesWithLoad(t *testing.T) {
	roots := []string{filepath.Join("..", "..", "testdata", "clusters")}
	if corpus := filepath.Join("..", "..", "..", "shared", "corpus", "real"); dirExists(corpus) {
		roots = append(roots, corpus)
	} else {
		t.Logf("corpus %s absent: only the bundled trees are compared", corpus)
	}
	// Trees made here: LSF_CONFDIR elsewhere, two clusters, no lsf.conf.
	tmp := t.TempDir()
	write := func(path, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	shared := "Begin Cluster\nClusterName\nalpha\nbeta\nEnd Cluster\n"
	write(filepath.Join(tmp, "split", "env", "lsf.conf"), "LSB_SHAREDIR=/nowhere/work\nLSF_CONFDIR="+filepath.Join(tmp, "split", "conf")+"\n")
	write(filepath.Join(tmp, "split", "conf", "lsf.shared"), shared)
	write(filepath.Join(tmp, "split", "conf", "lsf.cluster.beta"), "")
	write(filepath.Join(tmp, "two", "lsf.conf"), "LSB_SHAREDIR=/a\nLSB_SHAREDIR=/b\n")
	write(filepath.Join(tmp, "two", "lsf.shared"), shared)
	write(filepath.Join(tmp, "noconf", "lsf.shared"), shared)
	write(filepath.Join(tmp, "noconf", "lsf.cluster.alpha"), "")
	write(filepath.Join(tmp, "missingconfdir", "lsf.conf"), "LSF_CONFDIR=/does/not/exist\n")
	write(filepath.Join(tmp, "missingconfdir", "lsf.cluster.gamma"), "")
	roots = append(roots, tmp)

	n := 0
	for _, root := range roots {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || !d.IsDir() {
				return err
			}
			n++
			wantShare, wantCluster := loadShareDir(path)
			gotShare, gotCluster := treeShareDir(path)
			if gotShare != wantShare || gotCluster != wantCluster {
				t.Errorf("treeShareDir(%s) = %q, %q; compile.Load says %q, %q", path, gotShare, gotCluster, wantShare, wantCluster)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d directories compared", n)
}

func dirExists(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.IsDir()
}
