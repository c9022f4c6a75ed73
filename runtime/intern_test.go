package runtime

import (
	"strings"
	"testing"
	"unsafe"
)

// TestInternSubmission checks that jobs submitted with equal
// environments share one, that an environment which differs still
// shares the variables it has in common with the others, and that the
// values are those given.
func TestInternSubmission(t *testing.T) {
	// Each submission decodes its own copies, as the API does.
	envOf := func(vars ...string) []string {
		out := make([]string, len(vars))
		for i, v := range vars {
			out[i] = strings.Clone(v)
		}
		return out
	}
	var last []string
	a := Submission{Command: strings.Clone("true"), Env: envOf("HOME=/home/u", "PATH=/bin")}
	b := Submission{Command: strings.Clone("true"), Env: envOf("HOME=/home/u", "PATH=/bin")}
	c := Submission{Command: strings.Clone("true"), Env: envOf("HOME=/home/u", "PATH=/usr/bin")}
	for _, s := range []*Submission{&a, &b, &c} {
		internSubmission(s, &last)
	}
	if unsafe.SliceData(a.Env) != unsafe.SliceData(b.Env) {
		t.Errorf("equal environments are not shared: %p and %p", unsafe.SliceData(a.Env), unsafe.SliceData(b.Env))
	}
	if unsafe.StringData(a.Env[0]) != unsafe.StringData(c.Env[0]) {
		t.Errorf("HOME of two environments is held twice")
	}
	if unsafe.StringData(a.Command) != unsafe.StringData(c.Command) {
		t.Errorf("the command of two jobs is held twice")
	}
	if got := strings.Join(c.Env, " "); got != "HOME=/home/u PATH=/usr/bin" {
		t.Errorf("environment = %q, want %q", got, "HOME=/home/u PATH=/usr/bin")
	}
	if unsafe.SliceData(last) != unsafe.SliceData(c.Env) {
		t.Errorf("the last environment is not the last job's")
	}
}
