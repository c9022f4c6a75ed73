package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/lsfc/lsfc/internal/testkit"
)

// BenchmarkSimulateLANLBackfillProcess is BenchmarkSimulateLANLProcess
// with slot reservation and backfill on: one queue with SLOT_RESERVE and
// BACKFILL = Y, every job's run limit its requested time.
func BenchmarkSimulateLANLBackfillProcess(b *testing.B) {
	trace := filepath.Join(testkit.CorpusDir(b, "swf"), "LANL-CM5-1994-4.1-cln.swf.gz")
	dir := b.TempDir()
	params := filepath.Join(dir, "lsb.params")
	queues := filepath.Join(dir, "lsb.queues")
	if err := os.WriteFile(params, []byte("Begin Parameters\nJOB_ACCEPT_INTERVAL = 0\nDEFAULT_QUEUE = normal\nEnd Parameters\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.WriteFile(queues, []byte("Begin Queue\nQUEUE_NAME = normal\nPRIORITY = 30\nSLOT_RESERVE = MAX_RESERVE_TIME[1000000]\nBACKFILL = Y\nEnd Queue\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	bin := filepath.Join(dir, "lsfc")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	for b.Loop() {
		cmd := exec.Command(bin, "simulate", "--conf", params+","+queues, "--workload", trace, "--host-count", "32", "--slots-per-host", "32", "--format", "json")
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("lsfc simulate: %v\n%s", err, out)
		}
	}
}
