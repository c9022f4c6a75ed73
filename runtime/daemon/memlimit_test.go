package daemon_test

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/daemon"
	"github.com/lsfc/lsfc/runtime/localexec"
)

// memConf has limits in MB (LSF_UNIT_FOR_LIMITS): a queue whose MEMLIMIT
// is every job's limit, and one whose first value is the limit of jobs
// that give no -M. LSF enforces job memory limits with LSB_JOB_MEMLIMIT
// (and LSB_MEMLIMIT_ENFORCE); without either, only hard ones (-M N!).
const memConf = `-- lsf.conf --
LSF_UNIT_FOR_LIMITS=MB
LSB_JOB_MEMLIMIT=y
-- lsf.shared --
Begin Cluster
ClusterName
test
End Cluster
-- lsf.cluster.test --
Begin Host
HOSTNAME  model  type  server  RESOURCES
hostA     !      !     1       ()
End Host
-- lsb.hosts --
Begin Host
HOST_NAME  MXJ
default    8
End Host
-- lsb.params --
Begin Parameters
DEFAULT_QUEUE = normal
JOB_ACCEPT_INTERVAL = 0
End Parameters
-- lsb.queues --
Begin Queue
QUEUE_NAME = normal
PRIORITY   = 30
End Queue

Begin Queue
QUEUE_NAME = small
PRIORITY   = 30
MEMLIMIT   = 16
End Queue

Begin Queue
QUEUE_NAME = defaulted
PRIORITY   = 30
MEMLIMIT   = 16 512
End Queue
`

// holdMemory is a job that holds mb megabytes for a while: dd fills a
// buffer of that size, then waits, blocked writing it to a pipe that
// sleep never reads.
func holdMemory(mb, seconds string) string {
	return "dd if=/dev/zero bs=" + mb + "M count=1 iflag=fullblock status=none | sleep " + seconds
}

// TestMemLimit runs jobs holding 64 MB under limits from -M and from
// their queue's MEMLIMIT: those over their limit are killed and end EXIT
// with TERM_MEMLIMIT, also after a restart; one whose -M allows it ends
// DONE.
func TestMemLimit(t *testing.T) {
	p, err := compileTree(testkit.WriteArchive(t, memConf))
	if err != nil {
		t.Fatal(err)
	}
	testMemLimitEnforced(t, p)
	// Without LSB_JOB_MEMLIMIT, a job over its -M runs on (LSF gives the
	// limit to the OS, which on Linux does not hold a process to it),
	// and a hard limit is held.
	p, err = compileTree(testkit.WriteArchive(t, strings.Replace(memConf, "LSB_JOB_MEMLIMIT=y\n", "", 1)))
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	d, err := daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: state, WrapperPath: []string{os.Args[0], localexec.WrapperArg},
		MinInterval: 5 * time.Millisecond, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	c := unixClient(state)
	req := api.SubmitRequest{Command: holdMemory("64", "2"), MemLimit: 16, Cwd: t.TempDir(), Stdout: "/dev/null",
		Env: []string{"PATH=" + os.Getenv("PATH")}}
	soft := c.submit(t, req).ID
	req.MemHard = true
	hard := c.submit(t, req).ID
	if j := c.waitState(t, soft, "DONE", "EXIT"); j.State != "DONE" || j.MaxMem < 64 {
		t.Errorf("job %d (-M 16 MB, not enforced) ended %s %q with MAX MEM %g MB, want DONE having held 64 MB", soft, j.State, j.Term, j.MaxMem)
	}
	if j := c.waitState(t, hard, "DONE", "EXIT"); j.State != "EXIT" || j.Term != "TERM_MEMLIMIT" {
		t.Errorf("job %d (-M 16MB!) ended %s %q, want EXIT TERM_MEMLIMIT", hard, j.State, j.Term)
	}
}

// testMemLimitEnforced runs the jobs of TestMemLimit on a cluster that
// enforces memory limits.
func testMemLimitEnforced(t *testing.T, p *compile.Policy) {
	state := t.TempDir()
	start := func() *daemon.Daemon {
		d, err := daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: state, WrapperPath: []string{os.Args[0], localexec.WrapperArg},
			MinInterval: 5 * time.Millisecond, Logf: t.Logf})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	d := start()
	c := unixClient(state)
	work := t.TempDir()
	sub := func(queue string, memLimit float64, command string) int64 {
		return c.submit(t, api.SubmitRequest{Command: command, Queue: queue, MemLimit: memLimit, Cwd: work,
			Stdout: "/dev/null", Env: []string{"PATH=" + os.Getenv("PATH")}}).ID
	}
	over := map[int64]string{
		sub("normal", 16, holdMemory("64", "60")):   "-M 16 MB",
		sub("small", 0, holdMemory("64", "60")):     "queue small's MEMLIMIT = 16",
		sub("defaulted", 0, holdMemory("64", "60")): "queue defaulted's default MEMLIMIT of 16",
	}
	under := sub("defaulted", 256, holdMemory("64", "3"))
	for id, why := range over {
		j := c.waitState(t, id, "DONE", "EXIT")
		if j.State != "EXIT" || j.Term != "TERM_MEMLIMIT" || j.ExitCode == 0 {
			t.Errorf("job %d (%s) ended %s %q with exit code %d, want EXIT TERM_MEMLIMIT, non-zero", id, why, j.State, j.Term, j.ExitCode)
		}
		if j.MaxMem <= 16 {
			t.Errorf("job %d (%s): MAX MEM %g MB, want more than its limit of 16 MB", id, why, j.MaxMem)
		}
	}
	if j := c.waitState(t, under, "DONE", "EXIT"); j.State != "DONE" || j.Term != "" || j.MaxMem < 64 {
		t.Errorf("job %d (-M 256 over a default of 16) ended %s %q with MAX MEM %g MB, want DONE having held 64 MB",
			under, j.State, j.Term, j.MaxMem)
	}
	d.Close()
	d = start()
	defer d.Close()
	for id, why := range over {
		if j := c.job(t, id); j.State != "EXIT" || j.Term != "TERM_MEMLIMIT" {
			t.Errorf("after a restart job %d (%s) is %s %q, want EXIT TERM_MEMLIMIT", id, why, j.State, j.Term)
		}
	}
}
