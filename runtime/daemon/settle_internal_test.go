package daemon

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/lsfc/lsfc/runtime/localexec"
)

// TestSettleAfterRequeue: the settle of a finished run comes once its
// finish is durable, off the owning goroutine, and may come after a
// requeue of the job dropped that run's files (unsettle). It must then do
// nothing: neither remove the files of the job's next run nor mark them
// for the next compaction to remove.
func TestSettleAfterRequeue(t *testing.T) {
	dir := t.TempDir()
	exec, err := localexec.New(dir, func(localexec.Result) {})
	if err != nil {
		t.Fatal(err)
	}
	defer exec.Close()
	d := &Daemon{exec: exec, cfg: Config{Logf: t.Logf}}
	const id = 7
	job := filepath.Join(dir, "7.sh")
	d.unsettle(id, 2)
	// The next run's files.
	if err := os.WriteFile(job, []byte("next run"), 0o600); err != nil {
		t.Fatal(err)
	}
	d.settleRun(id, 2)()
	if slices.Contains(d.settled, id) {
		t.Errorf("the settle of the run requeued marked job %d's files to go", id)
	}
	if _, err := os.Stat(job); err != nil {
		t.Errorf("the settle of the run requeued removed the next run's file: %v", err)
	}
	// The next run's own settle does its work.
	d.settleRun(id, 3)()
	if !slices.Contains(d.settled, id) {
		t.Errorf("the settle of the next run left job %d unsettled", id)
	}
	if _, err := os.Stat(job); !os.IsNotExist(err) {
		t.Errorf("the settle of the next run left its file: %v", err)
	}
}
