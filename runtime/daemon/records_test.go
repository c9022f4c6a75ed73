package daemon

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/lint"
	"github.com/lsfc/lsfc/runtime"
	"github.com/lsfc/lsfc/runtime/api"
)

// exceptionCluster returns a cluster whose queue detects job exceptions
// and whose hosts have an exit rate threshold.
func exceptionCluster(t *testing.T) *runtime.Cluster {
	t.Helper()
	return clusterOf(t, map[string]string{
		"lsf.cluster.test": "Begin Host\nHOSTNAME model type server RESOURCES\nhostA ! ! 1 ()\nhostB ! ! 1 ()\nEnd Host\n",
		"lsb.hosts":        "Begin Host\nHOST_NAME MXJ EXIT_RATE\ndefault 4 2\nEnd Host\n",
		"lsb.queues":       "Begin Queue\nQUEUE_NAME = normal\nPRIORITY = 30\nJOB_OVERRUN = 1\nJOB_UNDERRUN = 5\nEnd Queue\n",
	})
}

// clusterOf returns the cluster of a configuration given as files.
func clusterOf(t *testing.T, files map[string]string) *runtime.Cluster {
	t.Helper()
	dir := t.TempDir()
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

// TestUnderrunRecord checks the record of an underrun: the exception
// record of a job that exited before JOB_UNDERRUN, which replayed gives
// the job its exception even where the queue no longer has the
// threshold; and that the daemon writes it in the transaction of the
// job's finish, after it.
func TestUnderrunRecord(t *testing.T) {
	c := exceptionCluster(t)
	e := runtime.NewEngine(c, &runtime.VirtualClock{T: 10}, nil)
	j, err := c.Submit(runtime.Submission{User: "u", Queue: "normal"}, 10)
	if err != nil {
		t.Fatal(err)
	}
	newImage := j.Image()
	e.Schedule()
	host := j.Allocs[0].Host
	if err := c.Finish(j, runtime.Exit, 1, "", 40); err != nil {
		t.Fatal(err)
	}
	if j.Exceptions != runtime.ExcUnderrun {
		t.Fatalf("job exceptions after an exit at 30 s under JOB_UNDERRUN = 5: %q, want underrun", j.Exceptions)
	}
	rec := exceptionRecord(runtime.ExceptionEvent{Job: j, Kind: runtime.ExcUnderrun, Value: 0.5, Threshold: 5}, 40)
	if want := (Record{Type: "exception", At: 40, Job: j.ID, Text: "underrun"}); !reflect.DeepEqual(rec, want) {
		t.Errorf("underrun record = %+v, want %+v", rec, want)
	}

	// The daemon's next transaction carries the record after its own.
	log := &memJournal{}
	d := &Daemon{log: log, notices: []Record{rec}}
	finish := Record{Type: "finish", At: 40, Job: j.ID, State: "EXIT", Code: 1}
	if _, err := d.append([]Record{finish}); err != nil {
		t.Fatal(err)
	}
	if _, err := d.append([]Record{{Type: "hold", Job: j.ID}}); err != nil {
		t.Fatal(err)
	}
	var got [][]Record
	for _, tx := range log.txs {
		var recs []Record
		for _, b := range tx {
			r, err := decode(b)
			if err != nil {
				t.Fatal(err)
			}
			recs = append(recs, r)
		}
		got = append(got, recs)
	}
	if want := [][]Record{{finish, rec}, {{Type: "hold", Job: j.ID}}}; !reflect.DeepEqual(got, want) {
		t.Errorf("transactions = %+v, want %+v", got, want)
	}

	// Replayed where the queue has no JOB_UNDERRUN, the record alone
	// gives the exception.
	r := plainCluster(t)
	for _, rec := range []Record{{Type: "new", At: 10, Job: j.ID, Image: &newImage},
		{Type: "start", At: 10, Job: j.ID, Allocs: []runtime.AllocImage{{Host: host.Name, Slots: 1}}}, finish, rec} {
		if w, err := apply(r, rec); err != nil || w != "" {
			t.Fatalf("apply %+v: warning %q, error %v", rec, w, err)
		}
		if rec.Type == "finish" && r.Job(j.ID).Exceptions != 0 {
			t.Fatalf("the finish alone gave exceptions %q without JOB_UNDERRUN", r.Job(j.ID).Exceptions)
		}
	}
	if got := r.Job(j.ID).Exceptions; got != runtime.ExcUnderrun {
		t.Errorf("replayed job exceptions = %q, want underrun", got)
	}
}

// plainCluster is exceptionCluster without job exception thresholds.
func plainCluster(t *testing.T) *runtime.Cluster {
	t.Helper()
	return clusterOf(t, map[string]string{
		"lsf.cluster.test": "Begin Host\nHOSTNAME model type server RESOURCES\nhostA ! ! 1 ()\nhostB ! ! 1 ()\nEnd Host\n",
		"lsb.queues":       "Begin Queue\nQUEUE_NAME = normal\nPRIORITY = 30\nEnd Queue\n",
	})
}

// TestForwardRecords replays the records of a forwarded job's life on
// the submission cluster, and checks that the state they give, and a
// snapshot of it, are the same.
func TestForwardRecords(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"lsf.shared":       "Begin Cluster\nClusterName Servers\ntest (hostA)\npeer (peerhost)\nEnd Cluster\n",
		"lsf.cluster.test": "Begin Host\nHOSTNAME model type server RESOURCES\nhostA ! ! 1 ()\nEnd Host\n",
		"lsb.queues":       "Begin Queue\nQUEUE_NAME = send\nPRIORITY = 30\nSNDJOBS_TO = recv@peer\nEnd Queue\n",
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
	im := runtime.JobImage{ID: 1, Sub: runtime.Submission{User: "u", Queue: "send", Slots: 1, Command: "true"}, Submit: 1, State: runtime.Pend}
	recs := []Record{
		{Type: "new", At: 1, Job: 1, Image: &im},
		{Type: "forward", At: 2, Job: 1, Cluster: "peer", Queue: "recv"},
		{Type: "return", At: 3, Job: 1, Text: "recalled", Reason: runtime.ReasonMCRecalled, State: "PEND"},
		{Type: "forward", At: 4, Job: 1, Cluster: "peer", Queue: "recv"},
		{Type: "accept", At: 5, Job: 1, Remote: 12},
		{Type: "remote-start", At: 6, Job: 1, Hosts: []string{"p1@peer"}},
	}
	payloads, err := encode(recs)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range payloads {
		r, err := decode(p)
		if err != nil {
			t.Fatal(err)
		}
		if w, err := apply(c, r); err != nil || w != "" {
			t.Fatalf("apply %s: %v %q", r.Type, err, w)
		}
	}
	j := c.Job(1)
	if j.State != runtime.Run || j.Remote == nil || j.Remote.ID != 12 || j.MCFailures != 1 ||
		!slices.Equal(j.HostNames(), []string{"p1@peer"}) || j.Queue.Used != 0 {
		t.Fatalf("job 1: %s %+v failures %d hosts %v used %d", j.State, j.Remote, j.MCFailures, j.HostNames(), j.Queue.Used)
	}
	snap := j.Image()
	c2, _ := runtime.NewCluster(res.Policy, runtime.ClusterOptions{})
	if _, err := apply(c2, Record{Type: "job", Image: &snap}); err != nil {
		t.Fatal(err)
	}
	if got := c2.Job(1).Image(); !reflect.DeepEqual(got, snap) {
		t.Errorf("snapshot replay:\ngot  %+v\nwant %+v", got, snap)
	}
	if _, err := apply(c, Record{Type: "remote-finish", At: 9, Job: 1, State: "EXIT", Code: 3}); err != nil {
		t.Fatal(err)
	}
	if j.State != runtime.Exit || j.ExitCode != 3 || j.End != 9 {
		t.Errorf("after remote-finish: %s code %d end %v", j.State, j.ExitCode, j.End)
	}
	if _, err := apply(c, Record{Type: "remote-finish", At: 9, Job: 1, State: "DONE"}); err == nil {
		t.Error("a second remote-finish: no error")
	}
}

// TestReconcile feeds the submission cluster's side of the exchange what
// a peer answers, and checks what it records: a delivery that could not
// reach the peer returns the job, one whose answer was lost keeps it
// sent (and a later failure to reach the peer does not return it), the
// finished copy of an earlier sending is not taken for the job's, a copy
// of a sending home took back is adopted rather than sent again, remote
// starts, requeues and losses come home, a withdrawn copy counts as
// recalled, a copy home does not expect is to be killed, and the records
// give the same state again.
func TestReconcile(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"lsf.shared":       "Begin Cluster\nClusterName Servers\ntest (hostA)\npeer (peerhost)\nEnd Cluster\n",
		"lsf.cluster.test": "Begin Host\nHOSTNAME model type server RESOURCES\nhostA ! ! 1 ()\nEnd Host\n",
		"lsb.queues":       "Begin Queue\nQUEUE_NAME = send\nPRIORITY = 30\nHOSTS = none\nSNDJOBS_TO = recv@peer\nEnd Queue\n",
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
	// A daemon that has run a while: no delivery is in doubt.
	d := &Daemon{cfg: Config{Policy: res.Policy, Logf: t.Logf}, cluster: c, mcPeers: map[string]*mcPeerState{}, mcUncertain: map[int64]bool{}}
	var images []runtime.JobImage
	for range 3 {
		j, err := c.Submit(runtime.Submission{User: "u", Queue: "send", Command: "true"}, 1)
		if err != nil {
			t.Fatal(err)
		}
		images = append(images, j.Image())
	}
	j1, j2, j3 := c.Job(1), c.Job(2), c.Job(3)
	var all []Record
	step := func(name string, res mcResult, wantKills []int64, check func() bool) {
		t.Helper()
		kills, recs := d.mcReconcile(res)
		all = append(all, recs...)
		if !slices.Equal(kills, wantKills) || !check() {
			t.Errorf("%s: kills %v; job 1 %s %q %+v; job 2 %s %+v; job 3 %s %q %+v", name, kills, j1.State, j1.Reason, j1.Remote,
				j2.State, j2.Remote, j3.State, j3.Reason, j3.Remote)
		}
	}
	forward := func(j *runtime.Job, at runtime.Time) {
		t.Helper()
		if err := c.Forward(j, "peer", "recv", at); err != nil {
			t.Fatal(err)
		}
		all = append(all, Record{Type: "forward", At: at, Job: j.ID, Cluster: "peer", Queue: "recv"})
	}
	for _, j := range []*runtime.Job{j1, j2, j3} {
		forward(j, 2)
	}
	poll := func(jobs ...api.MCJob) *api.MCPoll {
		return &api.MCPoll{Queues: []api.MCQueue{{Queue: "recv", Backlog: 50}}, Jobs: jobs}
	}
	step("unreachable", mcResult{cluster: "peer", delivered: []mcDelivery{{job: 1, unreachable: true}, {job: 2, id: 8}, {job: 3, unreachable: true}}}, nil, func() bool {
		return j1.State == runtime.Pend && j1.Remote == nil && j1.Reason == runtime.ReasonMCUnreachable &&
			j2.Remote != nil && j2.Remote.ID == 8 && j3.Remote == nil && !d.mcPeers["peer"].up
	})
	forward(j1, 3)
	step("answer lost", mcResult{cluster: "peer", delivered: []mcDelivery{{job: 1, lost: true}}}, nil, func() bool {
		return j1.Remote != nil && j1.Remote.ID == 0 && d.mcUncertain[1]
	})
	step("unreachable after a lost answer", mcResult{cluster: "peer", delivered: []mcDelivery{{job: 1, unreachable: true}}}, nil, func() bool {
		return j1.Remote != nil && j1.Remote.ID == 0 && j1.State == runtime.Pend
	})
	step("finished copy of an earlier sending", mcResult{cluster: "peer", poll: poll(
		api.MCJob{FromJob: 1, ID: 5, Sent: 2, State: "EXIT", ExitCode: 130, Term: "TERM_OWNER", Withdrawn: true},
		api.MCJob{FromJob: 2, ID: 8, Sent: 2, State: "PEND"})}, nil, func() bool {
		return j1.State == runtime.Pend && j1.Remote != nil && j1.Remote.ID == 0 && d.mcPeers["peer"].up
	})
	step("copy found", mcResult{cluster: "peer", poll: poll(api.MCJob{FromJob: 1, ID: 7, Sent: 3, State: "PEND"},
		api.MCJob{FromJob: 2, ID: 8, Sent: 2, State: "PEND"}, api.MCJob{FromJob: 3, ID: 9, Sent: 2, State: "PEND"})}, nil, func() bool {
		return j1.Remote != nil && j1.Remote.ID == 7 && j1.Reason == runtime.ReasonMCRemotePend && !d.mcUncertain[1] &&
			j3.Remote != nil && j3.Remote.ID == 9 && j3.Remote.SentAt == 2
	})
	step("started", mcResult{cluster: "peer", poll: poll(api.MCJob{FromJob: 1, ID: 7, Sent: 3, State: "RUN", Start: 5, Hosts: []string{"p1@peer"}},
		api.MCJob{FromJob: 2, ID: 8, Sent: 2, State: "RUN", Start: 5}, api.MCJob{FromJob: 3, ID: 9, Sent: 2, State: "PEND"})}, nil, func() bool {
		return j1.State == runtime.Run && j1.Start == 5 && slices.Equal(j1.HostNames(), []string{"p1@peer"})
	})
	step("suspended there", mcResult{cluster: "peer", poll: poll(api.MCJob{FromJob: 1, ID: 7, Sent: 3, State: "USUSP", Start: 5},
		api.MCJob{FromJob: 2, ID: 8, Sent: 2, State: "RUN", Start: 5}, api.MCJob{FromJob: 3, ID: 9, Sent: 2, State: "PEND"})}, nil, func() bool {
		return j1.State == runtime.USusp
	})
	step("requeued there", mcResult{cluster: "peer", poll: poll(api.MCJob{FromJob: 1, ID: 7, Sent: 3, State: "PEND"},
		api.MCJob{FromJob: 2, ID: 8, Sent: 2, State: "RUN", Start: 5}, api.MCJob{FromJob: 3, ID: 9, Sent: 2, State: "PEND"})}, nil, func() bool {
		return j1.State == runtime.Pend && j1.Remote != nil && j1.HostNames() == nil
	})
	step("withdrawn, the recall's answer lost", mcResult{cluster: "peer", poll: poll(api.MCJob{FromJob: 1, ID: 7, Sent: 3, State: "PEND"},
		api.MCJob{FromJob: 2, ID: 8, Sent: 2, State: "RUN", Start: 5},
		api.MCJob{FromJob: 3, ID: 9, Sent: 2, State: "EXIT", ExitCode: 130, Term: "TERM_OWNER", Withdrawn: true})}, nil, func() bool {
		return j3.State == runtime.Pend && j3.Remote == nil && j3.Reason == runtime.ReasonMCRecalled && j3.MCFailures == 1
	})
	if err := c.Kill(j2, 6); err != nil {
		t.Fatal(err)
	}
	all = append(all, Record{Type: "finish", At: 6, Job: 2, State: "EXIT", Code: j2.ExitCode, Term: j2.Term})
	step("lost there, killed here", mcResult{cluster: "peer", poll: poll(api.MCJob{FromJob: 2, ID: 8, Sent: 2, State: "RUN", Start: 5})}, []int64{2}, func() bool {
		return j1.State == runtime.Pend && j1.Remote == nil && j1.Reason == runtime.ReasonMCUnreachable && j2.State == runtime.Exit
	})
	// A daemon that starts again doubts every delivery not answered.
	forward(j1, 10)
	d.mcUncertain = nil
	step("unreachable after a restart", mcResult{cluster: "peer", delivered: []mcDelivery{{job: 1, unreachable: true}}}, nil, func() bool {
		return j1.Remote != nil && j1.Remote.ID == 0 && d.mcUncertain[1]
	})
	// The records give the same state on a cluster of the same jobs.
	c2, _ := runtime.NewCluster(res.Policy, runtime.ClusterOptions{})
	for i := range images {
		if _, _, err := c2.Restore(images[i]); err != nil {
			t.Fatal(err)
		}
	}
	for _, r := range all {
		if _, err := apply(c2, r); err != nil {
			t.Fatalf("replay %s of job %d: %v", r.Type, r.Job, err)
		}
	}
	for _, id := range []int64{1, 2, 3} {
		if got, want := c2.Job(id).Image(), c.Job(id).Image(); !reflect.DeepEqual(got, want) {
			t.Errorf("job %d replayed:\ngot  %+v\nwant %+v", id, got, want)
		}
	}
}

// memJournal keeps the transactions appended to it in memory.
type memJournal struct{ txs [][][]byte }

func (m *memJournal) Append(records [][]byte) (Committed, error) {
	// A copy, as a Journal makes: the daemon reuses the records' memory.
	m.txs = append(m.txs, cloneRecords(records))
	return committed{}, nil
}

func (m *memJournal) Compact([][]byte) error { return nil }
func (m *memJournal) Close() error           { return nil }

type committed struct{}

func (committed) Wait() error { return nil }

// TestLostRecords replays the log of a queue removed while it had a
// pending and a running job: on a configuration without the queue, as on
// one that has it again, the pending job is in lost_and_found, where the
// live daemon moved it (lost), and the running one in its queue; the
// snapshot's record of an empty lost_and_found says nothing.
func TestLostRecords(t *testing.T) {
	hosts := "Begin Host\nHOSTNAME model type server RESOURCES\nhostA ! ! 1 ()\nEnd Host\n"
	normal := "Begin Queue\nQUEUE_NAME = normal\nPRIORITY = 30\nEnd Queue\n"
	old := "Begin Queue\nQUEUE_NAME = old\nPRIORITY = 20\nEnd Queue\n"
	image := func(id int64) *runtime.JobImage {
		return &runtime.JobImage{ID: id, Sub: runtime.Submission{User: "u", Queue: "old", Slots: 1, Command: "true"}, Submit: 1, State: runtime.Pend}
	}
	recs := []Record{
		{Type: "new", At: 1, Job: 1, Image: image(1)},
		{Type: "new", At: 1, Job: 2, Image: image(2)},
		{Type: "start", At: 2, Job: 2, Allocs: []runtime.AllocImage{{Host: "hostA", Slots: 1}}},
		{Type: "lost", At: 3, Job: 1},
		{Type: "queue", Queue: runtime.LostAndFound},
	}
	for name, queues := range map[string]string{"without old": normal, "with old again": normal + "\n" + old} {
		c := clusterOf(t, map[string]string{"lsf.cluster.test": hosts, "lsb.queues": queues})
		for _, r := range recs {
			if w, err := apply(c, r); err != nil || w != "" {
				t.Fatalf("%s: apply %s: %v %q", name, r.Type, err, w)
			}
		}
		if moved := c.MoveLost(); len(moved) > 0 {
			t.Errorf("%s: jobs left to move after the replay: %v", name, moved)
		}
		if j := c.Job(1); j.State != runtime.Pend || j.Queue.Name != runtime.LostAndFound {
			t.Errorf("%s: pending job: %s in %s, want PEND in lost_and_found", name, j.State, j.Queue.Name)
		}
		if j := c.Job(2); j.State != runtime.Run || j.Queue.Name != "old" {
			t.Errorf("%s: running job: %s in %s, want RUN in old", name, j.State, j.Queue.Name)
		}
	}
	c := clusterOf(t, map[string]string{"lsf.cluster.test": hosts, "lsb.queues": normal})
	if w, err := apply(c, Record{Type: "queue", Queue: runtime.LostAndFound}); err != nil || w != "" {
		t.Errorf("an empty lost_and_found's record: %v %q", err, w)
	}
}

// TestRecordEncoder checks that the owning goroutine's encoder, which
// reuses its buffer, gives each record as json.Marshal does, and that a
// large transaction's buffer is not kept.
func TestRecordEncoder(t *testing.T) {
	var e recordEncoder
	big := strings.Repeat("x <&> ", 300<<10)
	for _, recs := range [][]Record{
		{{Type: KindNew, At: 12.5, Job: 7, Token: "t<1>", Image: &runtime.JobImage{ID: 7, Sub: runtime.Submission{Command: "echo \"a\" && b", Env: []string{"A=1"}}}}},
		{{Type: KindStart, Job: 7, Allocs: []runtime.AllocImage{{Host: "hostA", Slots: 2}}}, {Type: KindFinish, Job: 7, State: "DONE", CPU: 0.25}},
		{{Type: KindFinish, Job: 8, Text: big}},
		{},
		{{Type: KindHold, Job: 9, Comment: "\u2028 line"}},
	} {
		got, err := e.encode(recs)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(recs) {
			t.Fatalf("%d records encoded, want %d", len(got), len(recs))
		}
		for i, r := range recs {
			want, _ := json.Marshal(r)
			if !bytes.Equal(got[i], want) {
				t.Errorf("record %d: %.200s, want %.200s", i, got[i], want)
			}
		}
	}
	if e.buf.Cap() > 1<<20 {
		t.Errorf("the encoder keeps a buffer of %d bytes", e.buf.Cap())
	}
}

// cloneRecords copies a transaction's records.
func cloneRecords(records [][]byte) [][]byte {
	out := make([][]byte, len(records))
	for i, r := range records {
		out[i] = slices.Clone(r)
	}
	return out
}
