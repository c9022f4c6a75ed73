package daemon_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/daemon"
	"github.com/lsfc/lsfc/runtime/localexec"
)

// TestNotActedOnNotice: a daemon whose tree sets keys lsfc reads but does
// not act on says so once per file when it starts and again when badmin
// reconfig adopts a tree, with the keys' lines, and not per job.
func TestNotActedOnNotice(t *testing.T) {
	conf := testkit.WriteArchive(t, strings.Replace(strings.Replace(testConf,
		"JOB_ACCEPT_INTERVAL = 0\n", "JOB_ACCEPT_INTERVAL = 0\nADVRSV_USER_LIMIT = 10\n", 1),
		"PRIORITY   = 30\n", "PRIORITY   = 30\nJOB_STARTER = /usr/bin/env\n", 1))
	p, err := compileTree(conf)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var notices []string
	state := t.TempDir()
	d, err := daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: state, WrapperPath: []string{os.Args[0], localexec.WrapperArg},
		MinInterval: 5 * time.Millisecond, Load: loader(conf), Logf: func(format string, args ...any) {
			line := fmt.Sprintf(format, args...)
			t.Log(line)
			if strings.Contains(line, "not acted on") {
				mu.Lock()
				notices = append(notices, line)
				mu.Unlock()
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	take := func() []string {
		mu.Lock()
		defer mu.Unlock()
		out := notices
		notices = nil
		return out
	}
	want := []string{
		"lsb.params: read and checked, not acted on by lsfc: ADVRSV_USER_LIMIT (line 4)",
		"lsb.queues: read and checked, not acted on by lsfc: JOB_STARTER (line 4)",
	}
	if got := take(); !slices.Equal(got, want) {
		t.Fatalf("at start: got %q, want %q", got, want)
	}

	c := unixClient(state)
	c.waitState(t, c.submit(t, api.SubmitRequest{Command: "true", Queue: "normal", Cwd: t.TempDir()}).ID, "DONE")
	if got := take(); got != nil {
		t.Errorf("a job's run logged %q", got)
	}

	queues, err := os.ReadFile(filepath.Join(conf, "lsb.queues"))
	if err != nil {
		t.Fatal(err)
	}
	queues = []byte(strings.Replace(string(queues), "ADMINISTRATORS = qadmin\n", "ADMINISTRATORS = qadmin\nNICE = 5\n", 1))
	if err := os.WriteFile(filepath.Join(conf, "lsb.queues"), queues, 0o644); err != nil {
		t.Fatal(err)
	}
	if r, code := c.reconfig(t); !r.OK {
		t.Fatalf("reconfig: %d %+v", code, r)
	}
	want[1] = "lsb.queues: read and checked, not acted on by lsfc: JOB_STARTER (line 4), NICE (line 11)"
	if got := take(); !slices.Equal(got, want) {
		t.Errorf("after reconfig: got %q, want %q", got, want)
	}
}
