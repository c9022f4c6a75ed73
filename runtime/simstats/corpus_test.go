package simstats_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/runtime/simstats"
	"github.com/lsfc/lsfc/runtime/swf"
)

// traceRecords reads an SWF trace of the corpus as a run that replays it
// as recorded: each job starts after its recorded wait and holds its
// processors for its recorded run time.
func traceRecords(tb testing.TB, name string) ([]simstats.Record, int) {
	tb.Helper()
	path := filepath.Join(testkit.CorpusDir(tb, "swf"), name)
	f, err := os.Open(path)
	if err != nil {
		tb.Skipf("%s absent: %v", name, err)
	}
	defer f.Close()
	r, err := swf.NewReader(f)
	if err != nil {
		tb.Fatal(err)
	}
	jobs, err := r.ReadAll()
	if err != nil {
		tb.Fatal(err)
	}
	queues := r.Header().Queues()
	procs, _ := r.Header().MaxProcs()
	recs := make([]simstats.Record, 0, len(jobs))
	for _, j := range jobs {
		rec := simstats.Record{
			ID: j.Number, Queue: queues[j.Queue], User: "u" + strconv.Itoa(j.UserID),
			Submit: j.SubmitTime, Start: j.SubmitTime + max(j.WaitTime, 0), Slots: j.AllocProcs, State: simstats.StateExit,
		}
		rec.End = rec.Start + max(j.RunTime, 0)
		if j.Status == swf.StatusCompleted {
			rec.State = simstats.StateDone
		}
		if j.AllocProcs <= 0 {
			rec.State = simstats.StateSkipped
		}
		recs = append(recs, rec)
	}
	return recs, procs
}

func TestCorpusLANL(t *testing.T) {
	recs, procs := traceRecords(t, "LANL-CM5-1994-4.1-cln.swf.gz")
	s := simstats.Summarize(recs, procs)
	if s.Jobs != 122060 || s.TotalSlots != 1024 {
		t.Errorf("%d jobs on %d slots", s.Jobs, s.TotalSlots)
	}
	if s.Utilisation <= 0.2 || s.Utilisation > 1 {
		t.Errorf("utilisation %v of a machine the trace says was in use", s.Utilisation)
	}
	// The peak is well above the 1024 processors: the CM-5 ran many jobs
	// in non-dedicated mode (the trace's header says so), so the jobs'
	// processors overlap. It is at least the largest job.
	largest := 0
	for _, r := range recs {
		if r.State != simstats.StateSkipped {
			largest = max(largest, r.Slots)
		}
	}
	if s.PeakBusySlots < largest {
		t.Errorf("peak of %d busy processors, a job had %d", s.PeakBusySlots, largest)
	}
	if len(s.Queues) < 10 || len(s.Timeline.Busy) != simstats.MaxTimelinePoints {
		t.Errorf("%d queues, %d timeline points", len(s.Queues), len(s.Timeline.Busy))
	}
	var page bytes.Buffer
	if err := simstats.WriteHTML(&page, []simstats.Run{{Name: "LANL CM-5 as recorded", Summary: s}}); err != nil {
		t.Fatal(err)
	}
	checkHTML(t, page.Bytes())
	if page.Len() > 1<<20 {
		t.Errorf("page of %d bytes for one run", page.Len())
	}
}

// BenchmarkSummarizeLANL summarises the 122,060 jobs of the LANL CM-5
// trace, replayed as recorded.
func BenchmarkSummarizeLANL(b *testing.B) {
	recs, procs := traceRecords(b, "LANL-CM5-1994-4.1-cln.swf.gz")
	b.ReportAllocs()
	for b.Loop() {
		simstats.Summarize(recs, procs)
	}
}
