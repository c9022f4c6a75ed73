package daemon_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/daemon"
	"github.com/lsfc/lsfc/runtime/localexec"
)

// TestHostReservedAndThresholds: the hosts' listing (bhosts -l) carries
// what a running job's rusage[] reserves on its host and the host's
// loadSched/loadStop thresholds of lsb.hosts.
func TestHostReservedAndThresholds(t *testing.T) {
	conf := strings.Replace(testConf, "HOST_NAME  MXJ\ndefault    8\n", "HOST_NAME  MXJ  r1m\nhostA      8    3.5/5\ndefault    8    ()\n", 1)
	p, err := compileTree(testkit.WriteArchive(t, conf))
	if err != nil {
		t.Fatal(err)
	}
	state, work := t.TempDir(), t.TempDir()
	d, err := daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: state,
		WrapperPath: []string{os.Args[0], localexec.WrapperArg}, MinInterval: 5 * time.Millisecond, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	c := unixClient(state)
	sub := c.submit(t, api.SubmitRequest{Command: "sleep 30", Cwd: work, ResReq: "rusage[mem=300]", Hosts: []string{"hostA"},
		Env: []string{"PATH=/usr/bin:/bin"}})
	c.waitState(t, sub.ID, "RUN")
	defer func() {
		// The job ends before the daemon closes: its supervisor writes
		// into the state directory until it has.
		c.call("POST", fmt.Sprintf("/v1/jobs/%d/kill", sub.ID), nil, nil)
		c.waitState(t, sub.ID, "EXIT")
	}()
	var hosts []api.Host
	if code, err := c.call("GET", "/v1/hosts", nil, &hosts); err != nil || code != http.StatusOK {
		t.Fatalf("hosts: %d %v", code, err)
	}
	seen := 0
	for _, h := range hosts {
		switch h.Name {
		case "hostA":
			seen++
			if h.Reserved["mem"] != 300 {
				t.Errorf("hostA reserves %v of mem, want 300", h.Reserved)
			}
			th := h.Thresholds["r1m"]
			if th.Sched == nil || *th.Sched != 3.5 || th.Stop == nil || *th.Stop != 5 {
				t.Errorf("hostA's r1m thresholds %+v, want 3.5/5", th)
			}
		case "hostB":
			seen++
			if len(h.Reserved) != 0 || len(h.Thresholds) != 0 {
				t.Errorf("hostB reserves %v and has thresholds %v, want none", h.Reserved, h.Thresholds)
			}
		}
	}
	if seen != 2 {
		t.Errorf("the listing has %d of hostA and hostB: %+v", seen, hosts)
	}
}

// TestNewJobReasonAlone: a job no scheduling cycle has looked at yet says
// "New job is waiting for scheduling" alone, as LSF's bjobs -p does, with
// no host's reason.
func TestNewJobReasonAlone(t *testing.T) {
	p, err := compileTree(writeConf(t))
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	// Cycles an hour apart: the one at the start, then none in the test.
	d, err := daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: state,
		WrapperPath: []string{os.Args[0], localexec.WrapperArg}, MinInterval: time.Hour, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	c := unixClient(state)
	sub := c.submit(t, api.SubmitRequest{Command: "true", Hosts: []string{"hostA"}, Env: []string{"PATH=/usr/bin:/bin"}})
	var j api.Job
	if code, err := c.call("GET", fmt.Sprintf("/v1/jobs/%d?explain=1", sub.ID), nil, &j); err != nil || code != http.StatusOK {
		t.Fatalf("job: %d %v", code, err)
	}
	if j.State != "PEND" || j.Reason != "New job is waiting for scheduling" || len(j.HostReasons) != 0 {
		t.Errorf("%s with reason %q and host reasons %v, want PEND with LSF's new job reason alone", j.State, j.Reason, j.HostReasons)
	}
}
