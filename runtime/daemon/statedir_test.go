package daemon_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/daemon"
	"github.com/lsfc/lsfc/runtime/localexec"
)

// TestLostLogRefused checks that a state directory a daemon ran in, whose
// event log is then emptied or removed, is refused rather than started as
// an empty cluster, unless the daemon is told to start a new one.
func TestLostLogRefused(t *testing.T) {
	p, err := compileTree(writeConf(t))
	if err != nil {
		t.Fatal(err)
	}
	start := func(dir string, fresh bool) (*daemon.Daemon, error) {
		return daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: dir, New: fresh,
			WrapperPath: []string{os.Args[0], localexec.WrapperArg}, Logf: func(string, ...any) {}})
	}
	state := t.TempDir()
	d, err := start(state, false)
	if err != nil {
		t.Fatalf("Start on an empty directory: %v", err)
	}
	unixClient(state).submit(t, api.SubmitRequest{Command: "true", Hold: true})
	d.Close()
	logPath := filepath.Join(state, "lsb.events")
	for _, damage := range []struct {
		name string
		do   func() error
	}{
		{"empty", func() error { return os.Truncate(logPath, 0) }},
		{"missing", func() error { return os.Remove(logPath) }},
	} {
		if err := damage.do(); err != nil {
			t.Fatal(err)
		}
		if d, err := start(state, false); err == nil {
			d.Close()
			t.Errorf("%s log: Start succeeded, want it refused", damage.name)
		} else if !strings.Contains(err.Error(), "--new") || !strings.Contains(err.Error(), "missing or empty") {
			t.Errorf("%s log: Start error %q, want one naming the missing or empty log and --new", damage.name, err)
		}
		if _, err := os.Stat(logPath); damage.name == "missing" && err == nil {
			t.Errorf("%s log: a refused Start made a log", damage.name)
		}
	}
	// A daemon told to start a new cluster does, with no jobs.
	d, err = start(state, true)
	if err != nil {
		t.Fatalf("Start with New: %v", err)
	}
	defer d.Close()
	var list []api.Job
	if _, err := unixClient(state).call("GET", "/v1/jobs?user=all&all=1", nil, &list); err != nil {
		t.Fatal(err)
	}
	if len(list) != 0 {
		t.Errorf("new cluster has %d jobs, want none", len(list))
	}
}
