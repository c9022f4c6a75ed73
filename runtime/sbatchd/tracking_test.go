package sbatchd_test

import (
	"context"
	"fmt"
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
	"github.com/lsfc/lsfc/runtime/localexec"
	"github.com/lsfc/lsfc/runtime/sbatchd"
)

// TestProcessTracking: a job the master orders with ProcessTracking
// (lsf.conf LSF_PROCESS_TRACKING=Y) runs under the agent in a cgroup of
// its own, so that a process it leaves behind in a session of its own
// goes with the job's end; ordered without it, the same process
// outlives the job, as a process group cannot hold it. Skipped where the
// agent finds no cgroup v2 it can write.
func TestProcessTracking(t *testing.T) {
	for _, tracked := range []bool{true, false} {
		t.Run(fmt.Sprintf("tracked=%v", tracked), func(t *testing.T) {
			cwd := t.TempDir()
			o := jobOrder(5, 100, "setsid sleep 300 & echo $! > esc.pid")
			o.Spec.Cwd, o.Spec.Stdout, o.Spec.ProcessTracking = cwd, "/dev/null", tracked
			_, logs := runOrder(t, o)
			data, err := os.ReadFile(filepath.Join(cwd, "esc.pid"))
			if err != nil {
				t.Fatal(err)
			}
			esc, err := strconv.Atoi(strings.TrimSpace(string(data)))
			if err != nil || esc <= 1 {
				t.Fatalf("esc.pid holds %q", data)
			}
			defer syscall.Kill(esc, syscall.SIGKILL)
			if tracked {
				logs.needCgroup(t)
				waitFor(t, "the process the job left to go", func() bool { return syscall.Kill(esc, 0) == syscall.ESRCH })
				return
			}
			time.Sleep(200 * time.Millisecond)
			if err := syscall.Kill(esc, 0); err != nil {
				t.Fatalf("untracked, the process the job left is gone (%v): the test shows nothing", err)
			}
		})
	}
}

// TestCgroupAcct: a job the master orders with CgroupAcct (lsf.conf
// LSF_LINUX_CGROUP_ACCT=Y) beside ProcessTracking ends with the CPU time
// of a process it left behind, which another process reaped, counted.
func TestCgroupAcct(t *testing.T) {
	cwd := t.TempDir()
	o := jobOrder(6, 100, testkit.BurnCommand+"; while [ ! -e burnt ]; do sleep 0.05; done")
	o.Spec.Cwd, o.Spec.Stdout, o.Spec.ProcessTracking, o.Spec.CgroupAcct = cwd, "/dev/null", true, true
	m, logs := runOrder(t, o)
	logs.needCgroup(t)
	data, err := os.ReadFile(filepath.Join(cwd, "burnt"))
	if err != nil {
		t.Fatal(err)
	}
	burnt, err := testkit.ShellTimes(string(data))
	if err != nil {
		t.Fatal(err)
	}
	// The two counts are in ticks of their own: a tick apart.
	if end := m.endsOf(6)[0]; time.Duration(end.CPU*float64(time.Second)) < burnt-20*time.Millisecond {
		t.Errorf("job 6 ended with %v s of CPU, want at least the %v of the process it left behind", end.CPU, burnt)
	}
}

// runOrder has an agent of a fake master carry out the order o and
// waits for the job's end; the agent is closed at the test's end.
func runOrder(t *testing.T, o api.AgentOrder) (*fakeMaster, *agentLog) {
	t.Helper()
	logs := &agentLog{}
	m, client := newFakeMaster(t)
	m.give("s1", []api.AgentOrder{o})
	a, err := sbatchd.Start(context.Background(), sbatchd.Config{Master: client, Host: "hostA", StateDir: t.TempDir(), Interval: 100 * time.Millisecond,
		WrapperPath: []string{os.Args[0], localexec.WrapperArg}, Logf: logs.logf})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	waitFor(t, fmt.Sprintf("the end of job %d", o.Job), func() bool { return len(m.endsOf(o.Job)) > 0 })
	return m, logs
}

// agentLog keeps an agent's notices: not passed to t.Logf, as the
// agent's goroutines may log after the test has ended.
type agentLog struct {
	mu    sync.Mutex
	lines []string
}

func (l *agentLog) logf(format string, args ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.lines = append(l.lines, fmt.Sprintf(format, args...))
}

// needCgroup skips the test when the agent said it tracks its jobs by
// process group, and otherwise removes at the test's end the base cgroup
// it made (kept for the agent's life).
func (l *agentLog) needCgroup(t *testing.T) {
	t.Helper()
	l.mu.Lock()
	defer l.mu.Unlock()
	if strings.Contains(strings.Join(l.lines, "\n"), "not by cgroup") {
		t.Skip("no cgroup v2 the agent can write on this host")
	}
	for _, line := range l.lines {
		if _, base, ok := strings.Cut(line, "a cgroup of its own under "); ok {
			t.Cleanup(func() {
				os.Remove(base)
				os.Remove(filepath.Dir(base)) // the lsfc cgroup, when no other is left in it
			})
		}
	}
}
