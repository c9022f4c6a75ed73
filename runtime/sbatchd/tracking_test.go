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
			var mu sync.Mutex
			var logs []string
			logf := func(format string, args ...any) {
				mu.Lock()
				defer mu.Unlock()
				// Kept, not passed to t.Logf: the agent's goroutines may
				// log after the test has ended.
				logs = append(logs, fmt.Sprintf(format, args...))
			}
			m, client := newFakeMaster(t)
			cwd := t.TempDir()
			o := jobOrder(5, 100, "setsid sleep 300 & echo $! > esc.pid")
			o.Spec.Cwd, o.Spec.Stdout, o.Spec.ProcessTracking = cwd, "/dev/null", tracked
			m.give("s1", []api.AgentOrder{o})
			a, err := sbatchd.Start(context.Background(), sbatchd.Config{Master: client, Host: "hostA", StateDir: t.TempDir(), Interval: 100 * time.Millisecond,
				WrapperPath: []string{os.Args[0], localexec.WrapperArg}, Logf: logf})
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			waitFor(t, "the end of job 5", func() bool { return len(m.endsOf(5)) > 0 })
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
				mu.Lock()
				untracked := strings.Contains(strings.Join(logs, "\n"), "not by cgroup")
				mu.Unlock()
				if untracked {
					t.Skip("no cgroup v2 the agent can write on this host")
				}
				// The base cgroup the agent's executor made is kept for
				// its life: the test's goes with the test.
				mu.Lock()
				for _, l := range logs {
					if _, base, ok := strings.Cut(l, "a cgroup of its own under "); ok {
						t.Cleanup(func() {
							os.Remove(base)
							os.Remove(filepath.Dir(base)) // the lsfc cgroup, when no other is left in it
						})
					}
				}
				mu.Unlock()
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
