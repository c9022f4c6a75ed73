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

// TestProcessTracking: with LSF_PROCESS_TRACKING=Y in lsf.conf, bkill
// reaches a process the job started in a session of its own.
func TestProcessTracking(t *testing.T) {
	conf := strings.Replace(memConf, "LSB_JOB_MEMLIMIT=y\n", "LSF_PROCESS_TRACKING=Y\n", 1)
	p, err := compileTree(testkit.WriteArchive(t, conf))
	if err != nil {
		t.Fatal(err)
	}
	if !p.LSFConf.ProcessTracking {
		t.Fatal("LSF_PROCESS_TRACKING=Y did not reach the policy")
	}
	var mu sync.Mutex
	var logs []string
	logf := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		logs = append(logs, fmt.Sprintf(format, args...))
	}
	state := t.TempDir()
	d, err := daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: state, WrapperPath: []string{os.Args[0], localexec.WrapperArg},
		MinInterval: 5 * time.Millisecond, Logf: logf})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	c := unixClient(state)
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
	base := ""
	mu.Lock()
	for _, l := range logs {
		if strings.Contains(l, "not by cgroup") {
			mu.Unlock()
			t.Skipf("no cgroup v2 hierarchy for process tracking: %s", l)
		}
		if _, dir, ok := strings.Cut(l, "a cgroup of its own under "); ok {
			base = dir
		}
	}
	mu.Unlock()
	if base == "" {
		t.Fatalf("the daemon did not say where its jobs' cgroups are: %q", logs)
	}
	defer os.Remove(filepath.Dir(base)) // the lsfc cgroup, when no other is left in it
	defer os.Remove(base)
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
