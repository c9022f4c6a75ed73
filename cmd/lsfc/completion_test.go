package main

import (
	"bytes"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// runWith runs lsfc with args and the environment vars, and returns its
// exit code, standard output and standard error.
func runWith(t *testing.T, vars map[string]string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(args, env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr,
		getenv: func(k string) string { return vars[k] }})
	return code, stdout.String(), stderr.String()
}

// completions returns the words lsfc's completion offers for args, the
// last being the word being completed, and its directive line.
func completions(t *testing.T, vars map[string]string, args ...string) ([]string, string) {
	t.Helper()
	code, out, stderr := runWith(t, vars, append([]string{"__complete"}, args...)...)
	if code != exitOK {
		t.Fatalf("lsfc __complete %q: exit %d, stderr %q", args, code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	return lines[:len(lines)-1], lines[len(lines)-1]
}

// TestCompletion checks the values the shell completion offers: fixed
// words for --format, --dialect and --fail-level, and the queue and host
// names of the configuration tree (--conf, else $LSF_ENVDIR) where a
// flag or an LSF command's option or operand takes one.
func TestCompletion(t *testing.T) {
	demo, err := filepath.Abs(filepath.Join("..", "..", "testdata", "clusters", "demo"))
	if err != nil {
		t.Fatal(err)
	}
	queues := []string{"short", "gpu", "chem", "phys", "fair", "normal", "remote", "recv", "idle"}
	hosts := []string{"master01", "master02", "cn01", "cn02", "cn03", "cn04", "gpu01", "gpu02", "big01", "pwr01", "arm01"}
	withTree := map[string]string{"LSF_ENVDIR": demo}
	for _, tc := range []struct {
		name string
		vars map[string]string
		args []string
		want []string
	}{
		{"lint --format", nil, []string{"lint", "--format", ""}, []string{"text", "json", "sarif", "github", "rdjsonl"}},
		{"lint --fail-level", nil, []string{"lint", "--fail-level", ""}, []string{"error", "warning", "info"}},
		{"check --dialect", nil, []string{"check", "--dialect", ""}, []string{"lsf10", "openlava"}},
		{"resreq parse --format", nil, []string{"resreq", "parse", "--format", ""}, []string{"text", "json"}},
		{"resreq match --queue", nil, []string{"resreq", "match", "--conf", demo, "--queue", ""}, queues},
		{"serve --host", nil, []string{"serve", "--conf", demo, "--host", ""}, hosts},
		{"sbatchd --host", withTree, []string{"sbatchd", "--host", ""}, hosts},
		{"bsub -q", withTree, []string{"bsub", "-q", ""}, queues},
		{"bjobs -q", withTree, []string{"bjobs", "-a", "-q", ""}, queues},
		{"bsub -m", withTree, []string{"bsub", "-m", ""}, hosts},
		{"bqueues", withTree, []string{"bqueues", "-l", ""}, queues},
		{"bhosts", withTree, []string{"bhosts", ""}, hosts},
		{"bswitch queue", withTree, []string{"bswitch", ""}, queues},
		{"bswitch job", withTree, []string{"bswitch", "normal", ""}, nil},
		{"badmin", withTree, []string{"badmin", ""}, []string{"qopen", "qclose", "qact", "qinact", "hopen", "hclose", "reconfig", "showstatus", "perfmon"}},
		{"badmin qclose", withTree, []string{"badmin", "qclose", ""}, queues},
		{"badmin hopen", withTree, []string{"badmin", "hopen", ""}, hosts},
		{"bqueues options", withTree, []string{"bqueues", "-"}, []string{"-l", "-r", "-w", "-json", "--state", "-h"}},
		{"no tree", nil, []string{"bsub", "-q", ""}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, directive := completions(t, tc.vars, tc.args...)
			if !slices.Equal(got, tc.want) {
				t.Errorf("completions of %q:\nwant %q\n got %q", tc.args, tc.want, got)
			}
			if directive != ":4" {
				t.Errorf("directive of %q = %q, want :4 (no file completion)", tc.args, directive)
			}
		})
	}
}

// TestStartReadsNoTree checks that building the commands reads no
// configuration: a command that needs none does not even look up
// $LSF_ENVDIR, which only completions and the commands that read a tree
// do.
func TestStartReadsNoTree(t *testing.T) {
	var asked []string
	var stdout, stderr bytes.Buffer
	e := env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr,
		getenv: func(k string) string { asked = append(asked, k); return "" }}
	if code := run([]string{"version"}, e); code != exitOK {
		t.Fatalf("lsfc version: exit %d, stderr %q", code, stderr.String())
	}
	if len(asked) > 0 {
		t.Errorf("lsfc version read the environment %q; building the commands must read nothing", asked)
	}
}
