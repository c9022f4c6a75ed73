package daemon

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lsfc/lsfc/lint"
	"github.com/lsfc/lsfc/runtime"
)

// exceptionCluster returns a cluster whose queue detects job exceptions
// and whose hosts have an exit rate threshold.
func exceptionCluster(t *testing.T) *runtime.Cluster {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"lsf.cluster.test": "Begin Host\nHOSTNAME model type server RESOURCES\nhostA ! ! 1 ()\nhostB ! ! 1 ()\nEnd Host\n",
		"lsb.hosts":        "Begin Host\nHOST_NAME MXJ EXIT_RATE\ndefault 4 2\nEnd Host\n",
		"lsb.queues":       "Begin Queue\nQUEUE_NAME = normal\nPRIORITY = 30\nJOB_OVERRUN = 1\nJOB_UNDERRUN = 5\nEnd Queue\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res, err := lint.Run([]string{dir}, lint.Options{})
	if err != nil || res.Diagnostics.HasErrors() {
		t.Fatalf("configuration: %v %v", err, res.Diagnostics.Err())
	}
	c, err := runtime.NewCluster(res.Policy, runtime.ClusterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestExceptionRecords checks that the exceptions a cycle detects become
// records which, replayed on a fresh cluster, give back the same job
// exceptions and the host closed for its exit rate; and that a snapshot
// of that state (a job image, a host record and its exception record)
// gives it back too.
func TestExceptionRecords(t *testing.T) {
	c := exceptionCluster(t)
	e := runtime.NewEngine(c, &runtime.VirtualClock{T: 10}, nil)
	j, err := c.Submit(runtime.Submission{User: "u", Queue: "normal"}, 10)
	if err != nil {
		t.Fatal(err)
	}
	newImage := j.Image()
	e.Schedule()
	if !j.State.Started() {
		t.Fatalf("job %d is %s, want started", j.ID, j.State)
	}
	host := j.Allocs[0].Host
	e.Clock.(*runtime.VirtualClock).T = 75
	p := e.Schedule()
	if len(p.Exceptions) != 1 || p.Exceptions[0].Kind != runtime.ExcOverrun {
		t.Fatalf("exceptions after 65 s of a JOB_OVERRUN = 1 job: %v, want one overrun", p.Exceptions)
	}
	recs := []Record{
		{Type: "new", At: 10, Job: j.ID, Image: &newImage},
		{Type: "start", At: 10, Job: j.ID, Allocs: []runtime.AllocImage{{Host: host.Name, Slots: 1}}},
		exceptionRecord(p.Exceptions[0], 75),
		{Type: "finish", At: 80, Job: j.ID, State: "EXIT", Code: 1},
		exceptionRecord(runtime.ExceptionEvent{Host: host, Value: 3, Threshold: 2}, 80),
	}
	payloads, err := encode(recs)
	if err != nil {
		t.Fatal(err)
	}
	r := exceptionCluster(t)
	for _, b := range payloads {
		rec, err := decode(b)
		if err != nil {
			t.Fatal(err)
		}
		if w, err := apply(r, rec); err != nil || w != "" {
			t.Fatalf("apply %s: warning %q, error %v", b, w, err)
		}
	}
	rj, rh := r.Job(j.ID), r.Host(host.Name)
	if want := runtime.ExcOverrun | runtime.ExcUnderrun; rj.Exceptions != want {
		t.Errorf("replayed job exceptions = %q, want %q", rj.Exceptions, want)
	}
	if !rh.ExitClosed || rh.Status != runtime.HostClosedAdm {
		t.Errorf("replayed host %s: status %s, closed for its exit rate %v; want closed_Adm, true", rh.Name, rh.Status, rh.ExitClosed)
	}

	// A snapshot of the replayed state.
	snap := []Record{{Type: "job", Image: ptr(rj.Image())}, {Type: "host", Host: rh.Name, Text: rh.Status.String()},
		{Type: "exception", Host: rh.Name, Text: exitRateText}}
	payloads, err = encode(snap)
	if err != nil {
		t.Fatal(err)
	}
	s := exceptionCluster(t)
	for _, b := range payloads {
		rec, _ := decode(b)
		if _, err := apply(s, rec); err != nil {
			t.Fatalf("apply %s: %v", b, err)
		}
	}
	if got := s.Job(j.ID).Exceptions; got != rj.Exceptions {
		t.Errorf("job exceptions from a snapshot = %q, want %q", got, rj.Exceptions)
	}
	if h := s.Host(host.Name); !h.ExitClosed {
		t.Errorf("host %s from a snapshot is not closed for its exit rate", h.Name)
	}
	// hopen opens it and forgets why it was closed.
	s.SetHostStatus(s.Host(host.Name), runtime.HostOK)
	if s.Host(host.Name).ExitClosed {
		t.Errorf("host %s opened is still marked closed for its exit rate", host.Name)
	}

	// Bad exception records are refused.
	for _, bad := range []Record{{Type: "exception", Job: j.ID, Text: "slow"}, {Type: "exception", Host: host.Name, Text: "idle"}} {
		if _, err := apply(s, bad); err == nil {
			t.Errorf("apply %+v: no error", bad)
		}
	}
}

func ptr[T any](v T) *T { return &v }
