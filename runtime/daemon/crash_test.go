package daemon_test

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/daemon"
	"github.com/lsfc/lsfc/runtime/eventlog"
)

// TestCrash kills the daemon (SIGKILL) at random moments while clients
// submit, stop, resume and kill jobs, and restarts it each time. Every
// submission a client was told about must be there exactly once, with
// the last change acknowledged; no job number may be given twice; and in
// the end every job ends with its real exit status, those that were
// running across the kills included.
func TestCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills daemons")
	}
	conf := writeConf(t)
	state := t.TempDir()
	c := unixClient(state)
	type acked struct {
		code   int  // the exit status its command ends with
		killed bool // a kill was sent
	}
	var mu sync.Mutex
	jobs := map[int64]*acked{}
	tags := map[string]int64{}
	rounds := 6
	if testkit.Short() {
		rounds = 1 // one crash under load, then the recovery (LSFC_LONG=1: six)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	seq := 0
	for round := range rounds {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "LSFC_TEST_SERVE_CONF="+conf, "LSFC_TEST_SERVE_STATE="+state)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		waitSocket(t, c, cmd, &stderr)
		stop := make(chan struct{})
		var wg sync.WaitGroup
		for w := range 8 {
			mu.Lock()
			seq++
			base := seq * 100000
			mu.Unlock()
			wg.Add(1)
			go func(w int) {
				defer wg.Done()
				for n := 0; n < 150; n++ {
					select {
					case <-stop:
						return
					default:
					}
					tag := fmt.Sprintf("t%d", base+n)
					code := (base + n) % 5
					command := fmt.Sprintf("exit %d # %s", code, tag)
					if n%10 == 0 {
						// Some jobs run across a crash.
						command = fmt.Sprintf("sleep 0.3; exit %d # %s", code, tag)
					}
					req := api.SubmitRequest{Command: command, Cwd: state, Stdout: "/dev/null"}
					var out api.SubmitResponse
					st, err := c.call("POST", "/v1/jobs", req, &out)
					if err != nil || st != http.StatusOK {
						return // the daemon died
					}
					mu.Lock()
					if jobs[out.ID] != nil {
						t.Errorf("job number %d given twice", out.ID)
					}
					jobs[out.ID] = &acked{code: code}
					tags[tag] = out.ID
					mu.Unlock()
					if n%7 == 3 {
						// A kill may take effect though its answer is lost
						// to a crash: it counts as tried either way.
						mu.Lock()
						jobs[out.ID].killed = true
						mu.Unlock()
						c.call("POST", fmt.Sprintf("/v1/jobs/%d/kill", out.ID), nil, nil)
					}
				}
			}(w)
		}
		// A real wait: the daemon is another process, killed at a
		// random moment of its real work.
		time.Sleep(time.Duration(50+rng.IntN(250)) * time.Millisecond)
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		close(stop)
		wg.Wait()
		t.Logf("round %d: %d jobs acknowledged so far", round, len(jobs))
	}
	// A last daemon runs every job to its end.
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "LSFC_TEST_SERVE_CONF="+conf, "LSFC_TEST_SERVE_STATE="+state)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	}()
	waitSocket(t, c, cmd, &stderr)
	// The jobs take what the machine takes to start thousands of
	// processes: the test gives up only when none ends for 30 s.
	deadline, left := time.Now().Add(30*time.Second), -1
	for {
		var list []api.Job
		if st, err := c.call("GET", "/v1/jobs?user=all&all=1", nil, &list); err != nil || st != http.StatusOK {
			t.Fatalf("list: %d %v", st, err)
		}
		seen := map[string]int{}
		unfinished := 0
		for _, j := range list {
			if i := strings.LastIndex(j.Command, "# "); i >= 0 {
				seen[j.Command[i+2:]]++
			}
			if j.State != "DONE" && j.State != "EXIT" {
				unfinished++
			}
		}
		for tag, id := range tags {
			if seen[tag] != 1 {
				t.Fatalf("acknowledged job %d (%s) is there %d times", id, tag, seen[tag])
			}
		}
		if unfinished == 0 {
			byID := map[int64]api.Job{}
			for _, j := range list {
				byID[j.ID] = j
			}
			for id, a := range jobs {
				j := byID[id]
				// A killed job exits, unless it ended on its own first.
				if j.ExitCode != a.code && !(a.killed && j.State == "EXIT") {
					t.Errorf("job %d ended %s with %d, want %d", id, j.State, j.ExitCode, a.code)
				}
			}
			t.Logf("%d jobs acknowledged over %d crashes, all there once, all ended right", len(jobs), rounds)
			return
		}
		if unfinished != left {
			deadline, left = time.Now().Add(30*time.Second), unfinished
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d jobs still unfinished, and none ended for 30 s", unfinished)
		}
		// A real wait: the jobs are real processes, and the deadline
		// is renewed each time one ends, which eventually does not do.
		time.Sleep(100 * time.Millisecond)
	}
}

// waitSocket waits until the daemon answers.
func waitSocket(t *testing.T, c *client, cmd *exec.Cmd, stderr *strings.Builder) {
	t.Helper()
	if !eventually(func() bool {
		st, err := c.call("GET", "/v1/status", nil, nil)
		return err == nil && st == http.StatusOK
	}) {
		t.Fatalf("the daemon does not answer: %s", stderr.String())
	}
}

// TestFinishCrash kills the daemon (SIGKILL) as soon as a job is seen to
// have ended, before the deferred sync of its finish is likely to have
// run, and restarts it: the job ends once, with its real exit status, and
// lsb.acct holds one record of it.
func TestFinishCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("starts and kills daemons")
	}
	conf := writeConf(t)
	state := t.TempDir()
	c := unixClient(state)
	start := func() (*exec.Cmd, *strings.Builder) {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "LSFC_TEST_SERVE_CONF="+conf, "LSFC_TEST_SERVE_STATE="+state)
		stderr := &strings.Builder{}
		cmd.Stderr = stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		waitSocket(t, c, cmd, stderr)
		return cmd, stderr
	}
	cmd, _ := start()
	var out api.SubmitResponse
	if st, err := c.call("POST", "/v1/jobs", api.SubmitRequest{Command: "exit 3", Cwd: state, Stdout: "/dev/null"}, &out); err != nil || st != http.StatusOK {
		t.Fatalf("submit: %d %v", st, err)
	}
	var seen api.Job
	for deadline := time.Now().Add(20 * time.Second); ; {
		var j api.Job
		c.call("GET", fmt.Sprintf("/v1/jobs/%d", out.ID), nil, &j)
		if j.State == "EXIT" {
			seen = j
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("job %d is %s, not EXIT", out.ID, j.State)
		}
		// A real wait, short: the kill must come right after the end.
		time.Sleep(time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	finishes := 0
	eventlog.Read(filepath.Join(state, "lsb.events"), func(_ uint64, recs [][]byte) error {
		for _, b := range recs {
			if r, err := daemon.DecodeRecord(b); err == nil && r.Type == daemon.KindFinish {
				finishes++
			}
		}
		return nil
	})
	// Either way the outcome must be the same; the log says which case
	// this run was.
	t.Logf("finish records on disk when the daemon was killed: %d", finishes)

	// The daemon stays down a while: a finish written again at the
	// restart keeps the end the client saw.
	time.Sleep(2 * time.Second)
	cmd, _ = start()
	defer func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	}()
	var list []api.Job
	if !eventually(func() bool {
		list = nil
		c.call("GET", "/v1/jobs?user=all&all=1", nil, &list)
		return len(list) == 1 && list[0].State == "EXIT"
	}) {
		t.Fatalf("after the restart: %+v, want job %d EXIT", list, out.ID)
	}
	if j := list[0]; j.ID != out.ID || j.ExitCode != 3 {
		t.Errorf("after the restart: job %d exit code %d, want job %d exit code 3", j.ID, j.ExitCode, out.ID)
	}
	if j := list[0]; j.End != seen.End || j.End < j.Start {
		t.Errorf("after the restart: job %d ended at %d (started %d), want the end seen before, %d", j.ID, j.End, j.Start, seen.End)
	}
	acct := filepath.Join(daemon.AcctDir(state), "lsb.acct")
	var data []byte
	if !eventually(func() bool {
		data, _ = os.ReadFile(acct)
		return strings.Count(string(data), `"JOB_FINISH"`) >= 1
	}) {
		t.Fatalf("lsb.acct has no record of the job:\n%s", data)
	}
	if n := strings.Count(string(data), `"JOB_FINISH"`); n != 1 {
		t.Errorf("lsb.acct has %d records, want 1:\n%s", n, data)
	}
}
