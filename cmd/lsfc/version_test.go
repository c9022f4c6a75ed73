package main

import (
	"bytes"
	"runtime/debug"
	"strings"
	"testing"
)

// TestVersionBuildInfo checks that the version names the module version
// and the commit the build recorded, and only what it recorded.
func TestVersionBuildInfo(t *testing.T) {
	for _, tc := range []struct {
		name string
		bi   *debug.BuildInfo
		want string
	}{
		{"none", nil, "lsfc (devel)\n"},
		{"working copy", &debug.BuildInfo{GoVersion: "go1.26.1", Main: debug.Module{Version: "(devel)"},
			Settings: []debug.BuildSetting{{Key: "-compiler", Value: "gc"}, {Key: "vcs", Value: "git"},
				{Key: "vcs.time", Value: "2026-11-02T10:11:12Z"}, {Key: "vcs.modified", Value: "true"},
				{Key: "vcs.revision", Value: "4f2a9c0e1d"}}},
			"lsfc (devel)\nvcs.revision: 4f2a9c0e1d\nvcs.time:     2026-11-02T10:11:12Z\nvcs.modified: true\ngo:           go1.26.1\n"},
		{"release", &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Version: "v1.4.0"}},
			"lsfc v1.4.0\ngo:           go1.26.0\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			writeVersion(&b, tc.bi)
			if b.String() != tc.want {
				t.Errorf("writeVersion mismatch\nwant %q\n got %q", tc.want, b.String())
			}
		})
	}
}

// TestVersionFlag checks that lsfc --version prints what lsfc version
// does, and that the root command still refuses an unknown command.
func TestVersionFlag(t *testing.T) {
	do := func(args ...string) (int, string, string) {
		var stdout, stderr bytes.Buffer
		code := run(args, env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr,
			getenv: func(string) string { return "" }})
		return code, stdout.String(), stderr.String()
	}
	code, flag, stderr := do("--version")
	if code != exitOK || !strings.HasPrefix(flag, "lsfc ") {
		t.Fatalf("lsfc --version: exit %d, stdout %q, stderr %q", code, flag, stderr)
	}
	if _, cmd, _ := do("version"); cmd != flag {
		t.Errorf("lsfc version printed %q, lsfc --version %q", cmd, flag)
	}
	if code, _, stderr := do("no-such-command"); code != exitUsage || !strings.Contains(stderr, `unknown command "no-such-command"`) {
		t.Errorf("lsfc no-such-command: exit %d, stderr %q", code, stderr)
	}
}
