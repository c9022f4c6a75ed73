package main

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestHandOffTLS checks that the LSF commands' build hands a run that
// asks for TLS to the lsfc beside it, else to the first on PATH, never
// to itself, and says where it looked when there is none.
func TestHandOffTLS(t *testing.T) {
	dir, other := t.TempDir(), t.TempDir()
	self := filepath.Join(dir, "lsfc-client")
	for _, p := range []string{self, filepath.Join(other, "lsfc")} {
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	ran := errors.New("ran")
	var got []string
	exec := func(path string, argv, _ []string) error {
		got = append([]string{path}, argv...)
		return ran
	}
	vars := map[string]string{"PATH": other, "LSFC_MASTER": "m:1", "LSFC_TLS_CA": "ca.pem"}
	e := env{getenv: func(k string) string { return vars[k] }}
	if !wantsTLS(e, &lsfArgs{}) || wantsTLS(e, &lsfArgs{state: "/s"}) {
		t.Errorf("wantsTLS: with LSFC_TLS_CA %v, with --state %v; want true, false", wantsTLS(e, &lsfArgs{}), wantsTLS(e, &lsfArgs{state: "/s"}))
	}
	// Only on PATH.
	err := handOffTLS(e, self, []string{"bjobs", "-u", "all"}, exec)
	if want := []string{filepath.Join(other, "lsfc"), "lsfc", "bjobs", "-u", "all"}; !errors.Is(err, ran) || !slices.Equal(got, want) {
		t.Errorf("handOffTLS ran %q (%v), want %q", got, err, want)
	}
	// Beside it first; a link to itself named lsfc is not lsfc.
	if err := os.Link(self, filepath.Join(dir, "lsfc")); err != nil {
		t.Fatal(err)
	}
	vars["PATH"] = dir + string(os.PathListSeparator) + other
	got = nil
	if err := handOffTLS(e, self, []string{"lsid"}, exec); !errors.Is(err, ran) || len(got) == 0 || got[0] != filepath.Join(other, "lsfc") {
		t.Errorf("with lsfc-client linked as lsfc beside it, handOffTLS ran %q (%v)", got, err)
	}
	os.Remove(filepath.Join(dir, "lsfc"))
	if err := os.WriteFile(filepath.Join(dir, "lsfc"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	got = nil
	if err := handOffTLS(e, self, []string{"lsid"}, exec); !errors.Is(err, ran) || len(got) == 0 || got[0] != filepath.Join(dir, "lsfc") {
		t.Errorf("with lsfc beside it, handOffTLS ran %q (%v)", got, err)
	}
	// None.
	vars["PATH"] = t.TempDir()
	os.Remove(filepath.Join(dir, "lsfc"))
	got = nil
	err = handOffTLS(e, self, []string{"lsid"}, exec)
	if err == nil || got != nil || !strings.Contains(err.Error(), "no lsfc is found") || !strings.Contains(err.Error(), filepath.Join(dir, "lsfc")) {
		t.Errorf("with no lsfc: ran %q, error %v", got, err)
	}
}
