package localexec

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestOpenFDErrors checks that openFD fails as os.OpenFile does, with
// the same error, for a missing directory, a path under a file and an
// O_EXCL create of a file that is there.
func TestOpenFDErrors(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name  string
		path  string
		flags int
		want  error
	}{
		{"missing directory", filepath.Join(dir, "none", "f"), syscall.O_WRONLY | syscall.O_CREAT, syscall.ENOENT},
		{"under a file", filepath.Join(file, "f"), syscall.O_WRONLY | syscall.O_CREAT, syscall.ENOTDIR},
		{"exclusive", file, syscall.O_WRONLY | syscall.O_CREAT | syscall.O_EXCL, syscall.EEXIST},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fd, err := openFD(c.path, c.flags, 0o600)
			if err == nil {
				syscall.Close(fd)
				t.Fatalf("openFD(%q) = %d, want error %v", c.path, fd, c.want)
			}
			var pe *os.PathError
			if !errors.As(err, &pe) || pe.Op != "open" || pe.Path != c.path || !errors.Is(err, c.want) {
				t.Errorf("openFD(%q) error = %#v, want a PathError open %q: %v", c.path, err, c.path, c.want)
			}
			_, oserr := os.OpenFile(c.path, c.flags, 0o600)
			if oserr == nil || err.Error() != oserr.Error() {
				t.Errorf("openFD(%q) error = %q, want os.OpenFile's %q", c.path, err, oserr)
			}
			if c.want == syscall.ENOENT && !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("openFD(%q) error %v is not fs.ErrNotExist", c.path, err)
			}
		})
	}
}

// TestOpenFileCloseOnExec checks that openFile's file is close-on-exec,
// creates with the mode asked (less the umask) and appends.
func TestOpenFileCloseOnExec(t *testing.T) {
	path := filepath.Join(t.TempDir(), "out")
	old := syscall.Umask(0o022)
	defer syscall.Umask(old)
	for _, line := range []string{"one\n", "two\n"} {
		f, err := openFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o666)
		if err != nil {
			t.Fatal(err)
		}
		flags, _, e := syscall.Syscall(syscall.SYS_FCNTL, f.Fd(), syscall.F_GETFD, 0)
		if e != 0 || flags&syscall.FD_CLOEXEC == 0 {
			t.Errorf("openFile: descriptor flags %#x (%v), want FD_CLOEXEC", flags, e)
		}
		if _, err := f.WriteString(line); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(data), "one\ntwo\n"; got != want {
		t.Errorf("appended file holds %q, want %q", got, want)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := fi.Mode().Perm(); got != 0o644 {
		t.Errorf("created with mode %v, want 0644 (0666 less umask 022)", got)
	}
}

// TestReadFile reads an empty file, one shorter than the first read and
// files longer than it, a file of /proc whose size stat does not give,
// and fails as os.ReadFile does on a missing file and a directory.
func TestReadFile(t *testing.T) {
	dir := t.TempDir()
	for _, n := range []int{0, 10, readBufSize - 1, readBufSize, readBufSize + 1, 5*readBufSize + 7, 1 << 20} {
		want := bytes.Repeat([]byte("0123456789abcdef"), n/16+1)[:n]
		path := filepath.Join(dir, "f")
		if err := os.WriteFile(path, want, 0o600); err != nil {
			t.Fatal(err)
		}
		got, err := readFile(path)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("readFile of %d bytes = %d bytes, %v; want them all", n, len(got), err)
		}
	}
	stat, err := readFile("/proc/self/stat")
	if err != nil {
		t.Fatal(err)
	}
	if st, err := parseProcStat(string(stat)); err != nil || st.Start == 0 {
		t.Errorf("readFile(/proc/self/stat) = %q: %v", stat, err)
	}
	missing := filepath.Join(dir, "none")
	if _, err := readFile(missing); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("readFile(%q) error = %v, want not exist", missing, err)
	}
	if _, err := readFile(filepath.Join(dir, "f", "g")); !errors.Is(err, syscall.ENOTDIR) {
		t.Errorf("readFile under a file: error = %v, want ENOTDIR", err)
	}
	_, err = readFile(dir)
	_, oserr := os.ReadFile(dir)
	if err == nil || oserr == nil || err.Error() != oserr.Error() {
		t.Errorf("readFile of a directory: error %v, want os.ReadFile's %v", err, oserr)
	}
}

// TestWriteFD writes more than one write may take at once, and fails on
// a descriptor not open for writing.
func TestWriteFD(t *testing.T) {
	path := filepath.Join(t.TempDir(), "f")
	fd, err := openFD(path, syscall.O_RDWR|syscall.O_CREAT, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	want := bytes.Repeat([]byte("x"), 3<<20)
	if err := writeFD(fd, path, want); err != nil {
		t.Fatal(err)
	}
	if err := syncFD(fd, path); err != nil {
		t.Fatal(err)
	}
	if err := closeFD(fd, path); err != nil {
		t.Fatal(err)
	}
	if got, err := readFile(path); err != nil || !bytes.Equal(got, want) {
		t.Errorf("written %d bytes, read back %d: %v", len(want), len(got), err)
	}
	ro, err := openFD(path, syscall.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(ro)
	if err := writeFD(ro, path, []byte("y")); !errors.Is(err, syscall.EBADF) {
		t.Errorf("writeFD on a read-only descriptor: error %v, want EBADF", err)
	}
}

// TestCreateTemp checks createTemp's names, mode and exclusive creation,
// and its errors.
func TestCreateTemp(t *testing.T) {
	dir := t.TempDir()
	seen := map[string]bool{}
	for i := 0; i < 20; i++ {
		fd, name, err := createTemp(dir, "lsfc.1.", ".out")
		if err != nil {
			t.Fatal(err)
		}
		syscall.Close(fd)
		base := filepath.Base(name)
		if filepath.Dir(name) != dir || !strings.HasPrefix(base, "lsfc.1.") || !strings.HasSuffix(base, ".out") || seen[name] {
			t.Errorf("createTemp made %q", name)
		}
		seen[name] = true
		if fi, err := os.Stat(name); err != nil || fi.Mode().Perm()&^0o600 != 0 {
			t.Errorf("createTemp made %q: %v, %v", name, fi.Mode(), err)
		}
	}
	if _, _, err := createTemp(filepath.Join(dir, "none"), "x", ""); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("createTemp in a missing directory: error %v, want not exist", err)
	}
	file := filepath.Join(dir, "file")
	os.WriteFile(file, nil, 0o600)
	if _, _, err := createTemp(file, "x", ""); !errors.Is(err, syscall.ENOTDIR) {
		t.Errorf("createTemp under a file: error %v, want ENOTDIR", err)
	}
}

// TestPlaceFile checks that placeFile replaces the file with the mode
// given whatever the umask, leaves no temporary file, keeps a descriptor
// of the new file only when asked, and fails cleanly.
func TestPlaceFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "1.pid")
	if err := os.WriteFile(path, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := syscall.Umask(0o277)
	fd, err := placeFile(path, []byte("new\n"), 0o600, false, true)
	syscall.Umask(old)
	if err != nil {
		t.Fatal(err)
	}
	if got, err := readFile(path); err != nil || string(got) != "new\n" {
		t.Errorf("placed file holds %q (%v), want %q", got, err, "new\n")
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("placed file mode %v (%v), want 0600", fi.Mode(), err)
	}
	var kept, named syscall.Stat_t
	if err := syscall.Fstat(fd, &kept); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Stat(path, &named); err != nil || kept.Ino != named.Ino {
		t.Errorf("kept descriptor is inode %d, the file %d (%v)", kept.Ino, named.Ino, err)
	}
	if err := syncPlaced(fd, path); err != nil {
		t.Errorf("syncPlaced: %v", err)
	}
	if fd, err := placeFile(path, []byte("again\n"), 0o600, true, false); err != nil || fd != -1 {
		t.Errorf("placeFile without keep = %d, %v; want -1, nil", fd, err)
	}
	if err := replaceFile(path, []byte("last\n"), 0o600, true); err != nil {
		t.Fatal(err)
	}
	if got, _ := readFile(path); string(got) != "last\n" {
		t.Errorf("replaced file holds %q", got)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*tmp*")); len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
	// A directory where the file goes: the rename fails, and the
	// temporary file goes.
	sub := filepath.Join(dir, "2.pid")
	if err := os.Mkdir(sub, 0o700); err != nil {
		t.Fatal(err)
	}
	open := openFDs(t)
	if fd, err := placeFile(sub, []byte("x"), 0o600, false, true); err == nil || fd != -1 {
		t.Errorf("placeFile over a directory = %d, %v; want an error", fd, err)
	}
	if now := openFDs(t); now != open {
		t.Errorf("%d descriptors open after a failed placeFile, %d before: the kept one leaked", now, open)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, ".*tmp*")); len(left) != 0 {
		t.Errorf("temporary files left after a failure: %v", left)
	}
	missing := filepath.Join(dir, "none", "1.status")
	if err := replaceFile(missing, []byte("x"), 0o600, true); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("replaceFile in a missing directory: error %v, want not exist", err)
	}
	if err := replaceFile(filepath.Join(path, "1.status"), []byte("x"), 0o600, true); !errors.Is(err, syscall.ENOTDIR) {
		t.Errorf("replaceFile under a file: error %v, want ENOTDIR", err)
	}
}

// TestSyncDir syncs a directory and fails on one that is missing.
func TestSyncDir(t *testing.T) {
	dir := t.TempDir()
	if err := syncDir(dir); err != nil {
		t.Errorf("syncDir(%q): %v", dir, err)
	}
	if err := syncDir(filepath.Join(dir, "none")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("syncDir of a missing directory: error %v, want not exist", err)
	}
}

// TestRenameFile renames over a file, and fails over a directory and
// from a missing file with a LinkError.
func TestRenameFile(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	os.WriteFile(a, []byte("a"), 0o600)
	os.WriteFile(b, []byte("b"), 0o600)
	if err := renameFile(a, b); err != nil {
		t.Fatal(err)
	}
	if got, _ := readFile(b); string(got) != "a" {
		t.Errorf("renamed over b: b holds %q, want %q", got, "a")
	}
	var le *os.LinkError
	if err := renameFile(a, b); !errors.As(err, &le) || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("renameFile of a missing file: error %#v, want a LinkError, not exist", err)
	}
	sub := filepath.Join(dir, "sub")
	os.Mkdir(sub, 0o700)
	if err := renameFile(b, sub); err == nil {
		t.Errorf("renameFile over a directory: no error")
	}
}

// BenchmarkReplaceFile measures the write of a pid record, not synced.
func BenchmarkReplaceFile(b *testing.B) {
	path := filepath.Join(b.TempDir(), "1.pid")
	data := []byte(`{"WrapperPID":100,"WrapperStart":1,"JobPID":101,"JobStart":2}` + "\n")
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if err := replaceFile(path, data, 0o600, false); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadFile measures the read of a small record.
func BenchmarkReadFile(b *testing.B) {
	path := filepath.Join(b.TempDir(), "1.status")
	os.WriteFile(path, bytes.Repeat([]byte("x"), 170), 0o600)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := readFile(path); err != nil {
			b.Fatal(err)
		}
	}
}

// openFDs counts this process's open descriptors.
func openFDs(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skipf("cannot count descriptors: %v", err)
	}
	return len(ents)
}
