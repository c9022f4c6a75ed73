package daemon_test

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/daemon"
	"github.com/lsfc/lsfc/runtime/localexec"
)

// windowJournal is the daemon's event log, with the finishes appended
// deferred, the first left to wait a minute for a sync unless something
// calls for one: it notes a requeue logged while its job's finish was not yet
// durable.
type windowJournal struct {
	daemon.Journal
	mu       sync.Mutex
	finishes map[int64]daemon.Committed
	problems []string
}

func (j *windowJournal) AppendDeferred(records [][]byte, within time.Duration) (daemon.Committed, error) {
	dj := j.Journal.(interface {
		AppendDeferred([][]byte, time.Duration) (daemon.Committed, error)
	})
	j.mu.Lock()
	defer j.mu.Unlock()
	if len(j.finishes) == 0 {
		// The first finish waits: the requeue comes inside its window.
		within = time.Minute
	}
	c, err := dj.AppendDeferred(records, within)
	for _, b := range records {
		if r, derr := daemon.DecodeRecord(b); derr == nil && r.Type == daemon.KindFinish {
			j.finishes[r.Job] = c
		}
	}
	return c, err
}

func (j *windowJournal) Append(records [][]byte) (daemon.Committed, error) {
	j.mu.Lock()
	for _, b := range records {
		r, err := daemon.DecodeRecord(b)
		if err != nil || r.Type != daemon.KindBrequeue {
			continue
		}
		if c, ok := j.finishes[r.Job].(interface{ Done() <-chan struct{} }); ok {
			select {
			case <-c.Done():
			default:
				j.problems = append(j.problems, fmt.Sprintf("job %d was requeued, its files gone, before its finish was durable", r.Job))
			}
		}
	}
	j.mu.Unlock()
	return j.Journal.Append(records)
}

func (j *windowJournal) Flush() daemon.Committed {
	return j.Journal.(interface{ Flush() daemon.Committed }).Flush()
}

func (j *windowJournal) Stalled() error {
	return j.Journal.(interface{ Stalled() error }).Stalled()
}

// TestRequeueFinishWindow requeues a job (brequeue -e) while its finish
// waits for a sync: the finish is made durable before the job's status
// file goes, so that a crash cannot replay the job as running with no
// exit status to finish it from; the requeued job runs again.
func TestRequeueFinishWindow(t *testing.T) {
	p, err := compileTree(writeConf(t))
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	wj := &windowJournal{finishes: map[int64]daemon.Committed{}}
	cfg := daemon.WithJournal(daemon.Config{Policy: p, StateDir: state, MinInterval: 5 * time.Millisecond,
		WrapperPath: []string{os.Args[0], localexec.WrapperArg}, Logf: t.Logf}, func(j daemon.Journal) daemon.Journal {
		wj.Journal = j
		return wj
	})
	d, err := daemon.Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	c := unixClient(state)
	id := c.submit(t, api.SubmitRequest{Command: "exit 3", Cwd: state, Stdout: "/dev/null"}).ID
	c.waitState(t, id, "EXIT")
	if code, err := c.call("POST", fmt.Sprintf("/v1/jobs/%d/requeue", id), api.ActionRequest{States: []string{"EXIT"}}, nil); err != nil || code != http.StatusOK {
		t.Fatalf("brequeue -e: %d %v", code, err)
	}
	wj.mu.Lock()
	for _, p := range wj.problems {
		t.Error(p)
	}
	wj.mu.Unlock()
	if !eventually(func() bool {
		j := c.job(t, id)
		return j.State == "EXIT" && j.ExitCode == 3 && j.Start > 0
	}) {
		t.Errorf("the requeued job did not run again to EXIT 3: %+v", c.job(t, id))
	}
}
