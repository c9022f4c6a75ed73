package sim

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/lsfc/lsfc/runtime"
	"github.com/lsfc/lsfc/runtime/lsbacct"
)

func TestAcctWorkload(t *testing.T) {
	recs := []lsbacct.Record{
		{JobID: 7, SubmitTime: 200, StartTime: 210, EventTime: 310, UserName: "bob", Queue: "old", NumProcessors: 4,
			ResReq: "select[mem>1]", EffectiveResReq: "select[mem>1] order[r15s:pg]", RunLimit: 600, Options: lsbacct.SubExclusive,
			AskedHosts: []string{"hostA"}, JStatus: lsbacct.StatusExit, ExitStatus: 3 << 8, JobName: "b", ProjectName: "chem", Rusage: lsbacct.Rusage{Utime: 5, Stime: 1}},
		{JobID: 5, SubmitTime: 100, StartTime: 100, EventTime: 160, UserName: "ann", Queue: "normal", NumProcessors: 1,
			JStatus: lsbacct.StatusDone, RunLimit: -1, Rusage: lsbacct.Rusage{Utime: -1, Stime: -1}},
		{JobID: 6, SubmitTime: 150, EventTime: 170, UserName: "ann", Queue: "gone", JStatus: lsbacct.StatusExit},
		{JobID: 8, SubmitTime: 300, StartTime: 300, EventTime: 300, UserName: "cy", Queue: "gone", NumProcessors: 64},
		{JobID: 9, SubmitTime: 300, StartTime: 301, EventTime: 305, UserName: "cy", Queue: "gone", JStatus: lsbacct.StatusExit,
			ResReq: "span[hosts=1]"},
		{JobID: 10, SubmitTime: 400, StartTime: 400, EventTime: 410, UserName: "cy", Queue: "night", JStatus: lsbacct.StatusDone},
	}
	known := func(q string) bool { return q == "normal" || q == "short" }
	work, skipped := AcctWorkload(recs, known, WorkloadOptions{QueueMap: map[string]string{"old": "short", "night": "nightly"}, TotalSlots: 16})
	want := []Job{
		{At: 100, Submission: runtime.Submission{User: "ann", Queue: "normal", Slots: 1, Runtime: 60, TraceID: 5}},
		{At: 200, Submission: runtime.Submission{Name: "b", User: "bob", Queue: "short", Slots: 4, Runtime: 100, TraceID: 7,
			ResReq: "select[mem>1] order[r15s:pg]", RunLimit: 600, Exclusive: true, Hosts: []string{"hostA"}, ExitCode: 3, CPUTime: 6, Project: "chem"}},
		{At: 300, Submission: runtime.Submission{User: "cy", Slots: 1, Runtime: 4, TraceID: 9, ResReq: "span[hosts=1]", ExitCode: 1}},
	}
	if diff := cmp.Diff(want, work); diff != "" {
		t.Errorf("AcctWorkload mismatch (-want +got):\n%s", diff)
	}
	var reasons []string
	for _, s := range skipped {
		reasons = append(reasons, s.Reason)
	}
	if diff := cmp.Diff([]string{"the job never started: it ended while pending",
		"it asks for 64 processors and the cluster has 16 job slots",
		"its queue night maps to nightly, which the configuration does not define"}, reasons); diff != "" {
		t.Errorf("skipped mismatch (-want +got):\n%s", diff)
	}
}
