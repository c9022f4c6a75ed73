package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestManPages checks lsfc man: a page for lsfc and each of its
// commands, and one named after each LSF command, titled as it, with its
// help text as written.
func TestManPages(t *testing.T) {
	dir := t.TempDir()
	code, out, stderr := runWith(t, map[string]string{}, "man", dir)
	if code != exitOK {
		t.Fatalf("lsfc man: exit %d, stderr %q", code, stderr)
	}
	for _, name := range append([]string{"lsfc", "lsfc-lint", "lsfc-serve", "lsfc-resreq-match", "lsfc-bsub"}, lsfCommandNames()...) {
		path := filepath.Join(dir, name+".1")
		if !strings.Contains(out, path+"\n") {
			t.Errorf("lsfc man did not list %s", path)
		}
		if _, err := os.Stat(path); err != nil {
			t.Error(err)
		}
	}
	b, err := os.ReadFile(filepath.Join(dir, "bsub.1"))
	if err != nil {
		t.Fatal(err)
	}
	page := string(b)
	for _, want := range []string{`.TH "BSUB" "1"`, "bsub - Submit a job", "Job <ID> is submitted to queue <QUEUE>"} {
		if !strings.Contains(page, want) {
			t.Errorf("bsub.1 lacks %q:\n%s", want, page)
		}
	}
	if strings.Contains(page, "[flags]") || strings.Contains(page, "Auto generated") {
		t.Errorf("bsub.1 has text of the generator:\n%s", page)
	}
	if code, _, _ := runWith(t, nil, "man"); code != exitUsage {
		t.Errorf("lsfc man without DIR: exit %d, want %d", code, exitUsage)
	}
}
