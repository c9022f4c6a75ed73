package daemon_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/daemon"
	"github.com/lsfc/lsfc/runtime/localexec"
)

// trackingDaemon starts a daemon on memConf with the lsf.conf lines
// conf in place of its LSB_JOB_MEMLIMIT, its notices kept.
func trackingDaemon(t *testing.T, conf string) (*client, *notices) {
	t.Helper()
	p, err := compileTree(testkit.WriteArchive(t, strings.Replace(memConf, "LSB_JOB_MEMLIMIT=y\n", conf, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if !p.LSFConf.ProcessTracking {
		t.Fatal("LSF_PROCESS_TRACKING=Y did not reach the policy")
	}
	n := &notices{}
	state := t.TempDir()
	d, err := daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: state, WrapperPath: []string{os.Args[0], localexec.WrapperArg},
		MinInterval: 5 * time.Millisecond, Logf: n.logf})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return unixClient(state), n
}

// notices keeps a daemon's notices.
type notices struct {
	mu    sync.Mutex
	lines []string
}

func (n *notices) logf(format string, args ...any) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.lines = append(n.lines, fmt.Sprintf(format, args...))
}

// cgroupBase returns the base cgroup of the jobs the notices name, once
// a tracked job has started, and removes it at the test's end; it skips
// the test when the daemon said its jobs are tracked by process group.
func (n *notices) cgroupBase(t *testing.T) string {
	t.Helper()
	n.mu.Lock()
	defer n.mu.Unlock()
	base := ""
	for _, l := range n.lines {
		if strings.Contains(l, "not by cgroup") {
			t.Skipf("no cgroup v2 hierarchy for process tracking: %s", l)
		}
		if _, dir, ok := strings.Cut(l, "a cgroup of its own under "); ok {
			base = dir
		}
	}
	if base == "" {
		t.Fatalf("the daemon did not say where its jobs' cgroups are: %q", n.lines)
	}
	t.Cleanup(func() {
		os.Remove(base)
		os.Remove(filepath.Dir(base)) // the lsfc cgroup, when no other is left in it
	})
	return base
}

// TestProcessTracking: with LSF_PROCESS_TRACKING=Y in lsf.conf, bkill
// reaches a process the job started in a session of its own.
func TestProcessTracking(t *testing.T) {
	c, n := trackingDaemon(t, "LSF_PROCESS_TRACKING=Y\n")
	work := t.TempDir()
	id := c.submit(t, api.SubmitRequest{Command: "setsid sleep 300 & echo $! > esc.pid; sleep 300", Cwd: work,
		Stdout: "/dev/null", Env: []string{"PATH=" + os.Getenv("PATH")}}).ID
	c.waitState(t, id, "RUN")
	var esc int
	if !eventually(func() bool {
		data, err := os.ReadFile(filepath.Join(work, "esc.pid"))
		if err == nil {
			esc, err = strconv.Atoi(strings.TrimSpace(string(data)))
		}
		return err == nil
	}) {
		t.Fatal("the job did not start its process")
	}
	defer syscall.Kill(esc, syscall.SIGKILL)
	base := n.cgroupBase(t)
	cg := filepath.Join(base, "job."+strconv.FormatInt(id, 10))
	if _, err := os.Stat(cg); err != nil {
		t.Errorf("job %d has no cgroup: %v", id, err)
	}
	if code, err := c.call("POST", fmt.Sprintf("/v1/jobs/%d/kill", id), nil, nil); err != nil || code != http.StatusOK {
		t.Fatalf("kill: %d %v", code, err)
	}
	c.waitState(t, id, "EXIT")
	if !eventually(func() bool { return processGone(esc) }) {
		t.Errorf("process %d of killed job %d still runs", esc, id)
	}
	if !eventually(func() bool { _, err := os.Stat(cg); return os.IsNotExist(err) }) {
		t.Errorf("the cgroup of killed job %d is still there", id)
	}
}

// TestCgroupAcct: with LSF_LINUX_CGROUP_ACCT=Y beside
// LSF_PROCESS_TRACKING=Y, a job's CPU time, as bjobs and bacct show it,
// counts a process that left the job's tree and was reaped by another.
func TestCgroupAcct(t *testing.T) {
	c, n := trackingDaemon(t, "LSF_PROCESS_TRACKING=Y\nLSF_LINUX_CGROUP_ACCT=Y\n")
	work := t.TempDir()
	id := c.submit(t, api.SubmitRequest{Command: testkit.BurnCommand + "; while [ ! -e burnt ]; do sleep 0.05; done", Cwd: work,
		Stdout: "/dev/null", Env: []string{"PATH=" + os.Getenv("PATH")}}).ID
	c.waitState(t, id, "DONE")
	n.cgroupBase(t)
	data, err := os.ReadFile(filepath.Join(work, "burnt"))
	if err != nil {
		t.Fatal(err)
	}
	burnt, err := testkit.ShellTimes(string(data))
	if err != nil {
		t.Fatal(err)
	}
	var j api.Job
	if code, err := c.call("GET", fmt.Sprintf("/v1/jobs/%d", id), nil, &j); err != nil || code != http.StatusOK {
		t.Fatalf("job %d: %d %v", id, code, err)
	}
	// The two counts are in ticks of their own: a tick apart.
	if got := time.Duration(j.CPUTime * float64(time.Second)); got < burnt-20*time.Millisecond {
		t.Errorf("job %d used %v of CPU, want at least the %v of the process it left behind", id, got, burnt)
	}
}

// processGone reports whether process pid has ended; a zombie no one
// reaps yet counts as ended.
func processGone(pid int) bool {
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	s := string(data)
	i := strings.LastIndexByte(s, ')')
	return i < 0 || i+2 >= len(s) || s[i+2] == 'Z' || s[i+2] == 'X'
}
