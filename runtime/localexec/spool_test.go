package localexec

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestRemoveFile checks removeFile against os.Remove's contract for a
// job's files: a file goes, a missing one is fs.ErrNotExist with its
// path, and a directory is an error and stays.
func TestRemoveFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "1.sh")
	if err := os.WriteFile(file, []byte("true\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := removeFile(file); err != nil {
		t.Fatalf("removeFile(%s): %v", file, err)
	}
	if _, err := os.Lstat(file); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("%s is still there: %v", file, err)
	}
	err := removeFile(file)
	var pe *os.PathError
	if !errors.Is(err, os.ErrNotExist) || !errors.As(err, &pe) || pe.Path != file {
		t.Fatalf("removeFile of a missing file: %v, want a not-exist error naming %s", err, file)
	}
	sub := filepath.Join(dir, "2.out")
	if err := os.Mkdir(sub, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := removeFile(sub); err == nil || errors.Is(err, os.ErrNotExist) {
		t.Fatalf("removeFile of a directory: %v, want an error", err)
	}
	if _, err := os.Stat(sub); err != nil {
		t.Fatalf("the directory went: %v", err)
	}
}
