package main

import (
	"bytes"
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
