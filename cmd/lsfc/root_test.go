package main

import (
	"bytes"
	"io"
	"strings"
	"testing"
)

// TestInternalErrorExit checks that a panic becomes exit code 3 with a
// message, never a crash.
func TestInternalErrorExit(t *testing.T) {
	var stdout, stderr bytes.Buffer
	e := env{
		stdin:  strings.NewReader(""),
		stdout: &stdout,
		stderr: &stderr,
		getenv: func(string) string { panic("boom") },
	}
	if got := run([]string{"lint"}, e); got != exitInternal {
		t.Errorf("exit code = %d, want %d", got, exitInternal)
	}
	if !strings.Contains(stderr.String(), "lsfc: internal error: boom") {
		t.Errorf("stderr = %q, want the internal error", stderr.String())
	}
}

// TestRootForLSFCommand builds the root of each LSF command's own run: it
// holds that command, the same as in the whole root (usage, options, help),
// and no other LSF command.
func TestRootForLSFCommand(t *testing.T) {
	e := env{stdout: io.Discard, stderr: io.Discard, getenv: func(string) string { return "" }}
	full := newRootCmd(e)
	for _, name := range lsfCommandNames() {
		want, _, err := full.Find([]string{name})
		if err != nil || want.Name() != name {
			t.Errorf("the whole root has no %s: %v", name, err)
			continue
		}
		if name == "sbatchd" { // lsfc's own command, under an LSF name
			continue
		}
		lone := newRootCmdFor(e, name)
		got, _, err := lone.Find([]string{name})
		if err != nil || got.Name() != name {
			t.Errorf("the root for %s has no %s: %v", name, name, err)
			continue
		}
		if got.UsageString() != want.UsageString() || got.Long != want.Long {
			t.Errorf("%s alone differs from %s in the whole root:\n%s\n---\n%s", name, name, got.UsageString(), want.UsageString())
		}
		for _, other := range lone.Commands() {
			if other.GroupID == lsfGroup && other.Name() != name {
				t.Errorf("the root for %s also holds %s", name, other.Name())
			}
		}
	}
}
