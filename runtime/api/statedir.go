package api

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// StateDir resolves the state directory of a cluster, as the daemon and
// its clients both do: flag, else LSFC_STATE, else LSB_SHAREDIR/<cluster>
// (from lsf.conf) when that directory can be written, else
// $XDG_STATE_HOME/lsfc/<cluster> (~/.local/state/lsfc/<cluster>).
func StateDir(flag, shareDir, cluster string) (string, error) {
	if flag != "" {
		return filepath.Abs(flag)
	}
	if env := os.Getenv("LSFC_STATE"); env != "" {
		return filepath.Abs(env)
	}
	if cluster == "" {
		cluster = "lsfc"
	}
	if shareDir != "" && writable(shareDir) {
		return filepath.Join(shareDir, cluster), nil
	}
	base := os.Getenv("XDG_STATE_HOME")
	if base == "" {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("no state directory: give --state, or set LSFC_STATE or HOME")
		}
		base = filepath.Join(home, ".local", "state")
	}
	return filepath.Join(base, "lsfc", cluster), nil
}

// writable reports whether a directory exists and this process may
// create files in it.
func writable(dir string) bool {
	st, err := os.Stat(dir)
	if err != nil || !st.IsDir() {
		return false
	}
	return syscall.Access(dir, 2 /* W_OK */) == nil
}
