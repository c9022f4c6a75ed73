package main

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/internal/testkit"
)

// BenchmarkLintCorpusProcess runs "lsfc lint" on every file of the real
// corpus as a whole process, the way CI runs it: one op is one process,
// from start to exit. The binary is built once, outside the timing.
func BenchmarkLintCorpusProcess(b *testing.B) {
	dir := testkit.CorpusDir(b, "real")
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && !strings.HasSuffix(p, ".md") {
			files = append(files, p)
		}
		return err
	})
	if err != nil || len(files) == 0 {
		b.Fatalf("corpus files: %v (%d)", err, len(files))
	}
	bin := filepath.Join(b.TempDir(), "lsfc")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	args := append([]string{"lint", "--format", "json"}, files...)
	for b.Loop() {
		cmd := exec.Command(bin, args...)
		cmd.Stdout, cmd.Stderr = nil, nil
		err := cmd.Run()
		var ee *exec.ExitError
		if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == exitFindings) {
			b.Fatalf("lsfc lint: %v", err)
		}
	}
	b.ReportMetric(float64(len(files)), "files")
	_ = os.Remove(bin)
}

// BenchmarkSimulateLANLProcess runs "lsfc simulate" on the LANL CM-5 trace
// (122,060 jobs) with 32 hosts of 32 slots, as a whole process.
func BenchmarkSimulateLANLProcess(b *testing.B) {
	trace := filepath.Join(testkit.CorpusDir(b, "swf"), "LANL-CM5-1994-4.1-cln.swf.gz")
	dir := b.TempDir()
	conf := filepath.Join(dir, "lsb.params")
	if err := os.WriteFile(conf, []byte("Begin Parameters\nJOB_ACCEPT_INTERVAL = 0\nEnd Parameters\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	bin := filepath.Join(dir, "lsfc")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	for b.Loop() {
		cmd := exec.Command(bin, "simulate", "--conf", conf, "--workload", trace, "--host-count", "32", "--slots-per-host", "32", "--format", "json")
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("lsfc simulate: %v\n%s", err, out)
		}
	}
}
