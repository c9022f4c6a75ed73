package localexec

import (
	"errors"
	"os"
	"testing"
)

// TestEnterDir: the directory a job runs in when its working directory
// can or cannot be entered, and with LSB_EXIT_IF_CWD_NOTEXIST.
func TestEnterDir(t *testing.T) {
	ok := map[string]bool{"/home/ann": true, "/home/ann/work": true, "/tmp": true, "/": true}
	chdir := func(d string) error {
		if ok[d] {
			return nil
		}
		return os.ErrNotExist
	}
	for _, tc := range []struct {
		cwd, home string
		strict    bool
		want      string
		err       error
	}{
		{"/home/ann/work", "/home/ann", false, "/home/ann/work", nil},
		{"work", "/home/ann", false, "/home/ann/work", nil},
		{"/gone", "/home/ann", false, "/tmp", nil},
		{"", "/home/ann", false, "/home/ann", nil},
		{"", "/gone", false, "/", nil},
		{"/home/ann/work", "/home/ann", true, "/home/ann/work", nil},
		{"/gone", "/home/ann", true, "", errNoCwd},
	} {
		got, err := enterDir(tc.cwd, tc.home, tc.strict, chdir)
		if got != tc.want || !errors.Is(err, tc.err) {
			t.Errorf("enterDir(%q, %q, %v) = %q, %v; want %q, %v", tc.cwd, tc.home, tc.strict, got, err, tc.want, tc.err)
		}
	}
	for env, want := range map[string]bool{"LSB_EXIT_IF_CWD_NOTEXIST=Y": true, "LSB_EXIT_IF_CWD_NOTEXIST=y": true,
		"LSB_EXIT_IF_CWD_NOTEXIST=N": false, "LSB_EXIT_IF_CWD_NOTEXISTS=Y": false} {
		if got := exitIfCwdMissing([]string{"PATH=/bin", env}); got != want {
			t.Errorf("exitIfCwdMissing(%q) = %v, want %v", env, got, want)
		}
	}
}
