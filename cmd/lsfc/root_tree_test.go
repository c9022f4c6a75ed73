//go:build !lsfclient

package main

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// TestLSFHelpAsTree checks that each LSF command's help, which the command
// writes itself (lsfc-client has no tree of commands), is byte for byte
// what lsfc's tree shows for it (lsfc help bsub), and that -h, --help and
// help give the same; and that the tree holds every LSF command and
// sbatchd.
func TestLSFHelpAsTree(t *testing.T) {
	e := env{stdout: io.Discard, stderr: io.Discard, getenv: func(string) string { return "" }}
	root := newRootCmd(e)
	for _, name := range lsfCommandNames() {
		cmd, _, err := root.Find([]string{name})
		if err != nil || cmd.Name() != name {
			t.Errorf("the tree has no %s: %v", name, err)
			continue
		}
		if name == "sbatchd" { // lsfc's own command, under an LSF name
			continue
		}
		var tree bytes.Buffer
		cmd.SetOut(&tree)
		cmd.InitDefaultHelpFlag() // as a run of the command does
		if err := cmd.Help(); err != nil {
			t.Fatal(err)
		}
		own := lsfCommandNamed(name)(e).help()
		if own != tree.String() {
			t.Errorf("%s's own help differs from the tree's:\n%s\n---\n%s", name, own, tree.String())
		}
		for _, argv := range [][]string{{name, "-h"}, {name, "--help"}, {"help", name}} {
			var out, errs bytes.Buffer
			code := run(argv, env{stdin: strings.NewReader(""), stdout: &out, stderr: &errs, getenv: func(string) string { return "" }})
			if code != exitOK || out.String() != own || errs.Len() != 0 {
				t.Errorf("lsfc %s: exit %d, stderr %q, help as the tree's: %v", strings.Join(argv, " "), code, errs.String(), out.String() == own)
			}
		}
	}
}

// TestLSFCommandErrors runs LSF commands with bad options, through the
// command itself and through lsfc's tree, and expects the same exit codes
// and messages either way: an option lsfc does not implement exits 255
// with LSF's words, an unknown one is a usage error.
func TestLSFCommandErrors(t *testing.T) {
	for _, tc := range []struct {
		argv   []string
		code   int
		stderr string
	}{
		{[]string{"bjobs", "-zz"}, exitUsage, "lsfc: bjobs: unknown option \"-zz\" (lsfc bjobs -h lists the options)\n"},
		{[]string{"bkill", "-V"}, exitLSF, "bkill: option -V is not supported by lsfc\n"},
		{[]string{"bsub", "-q"}, exitUsage, "lsfc: bsub: -q needs an argument (queue) (lsfc bsub -h lists the options)\n"},
		{[]string{"lsid", "--state"}, exitUsage, "lsfc: lsid: --state needs a directory (lsfc lsid -h lists the options)\n"},
	} {
		var out, errs bytes.Buffer
		e := env{stdin: strings.NewReader(""), stdout: &out, stderr: &errs, getenv: func(string) string { return "" }}
		if code := run(tc.argv, e); code != tc.code || errs.String() != tc.stderr || out.Len() != 0 {
			t.Errorf("lsfc %s: exit %d, stderr %q, stdout %q; want exit %d, stderr %q", strings.Join(tc.argv, " "), code, errs.String(), out.String(), tc.code, tc.stderr)
		}
		errs.Reset()
		root := newRootCmd(e)
		root.SetArgs(tc.argv)
		root.SetOut(&out)
		root.SetErr(&errs)
		if code := commandExit(e, root.Execute()); code != tc.code || errs.String() != tc.stderr {
			t.Errorf("lsfc %s through the tree: exit %d, stderr %q; want exit %d, stderr %q", strings.Join(tc.argv, " "), code, errs.String(), tc.code, tc.stderr)
		}
	}
}

// TestToolAlone checks that a tool command built alone (the tree lsfc
// builds when the command line names it) is the one of the whole tree:
// its name, and its help byte for byte.
func TestToolAlone(t *testing.T) {
	for _, tl := range tools() {
		if got := tl.newCmd(env{getenv: func(string) string { return "" }}).Name(); got != tl.name {
			t.Errorf("tool %q builds the command %q", tl.name, got)
		}
		if toolNamed(tl.name) == nil {
			continue
		}
		help := func(root func(env) *cobra.Command) string {
			var out strings.Builder
			e := env{stdin: strings.NewReader(""), stdout: &out, stderr: &out, getenv: func(string) string { return "" }}
			r := root(e)
			r.SetArgs([]string{tl.name, "--help"})
			r.SetOut(&out)
			r.SetErr(&out)
			if err := r.Execute(); err != nil {
				t.Fatalf("%s --help: %v", tl.name, err)
			}
			return out.String()
		}
		whole := help(newRootCmd)
		alone := help(func(e env) *cobra.Command { return newRootCmdFor(e, tl.name) })
		if whole != alone {
			t.Errorf("%s --help differs when the command is built alone:\n--- whole tree\n%s\n--- alone\n%s", tl.name, whole, alone)
		}
	}
}
