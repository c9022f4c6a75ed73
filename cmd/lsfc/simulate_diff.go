//go:build !lsfclient

package main

import (
	"fmt"
	"io"
	"strconv"

	"github.com/lsfc/lsfc/runtime/sim"
	"github.com/lsfc/lsfc/runtime/simstats"
)

// A startDiff is a job whose start differs between the two
// configurations of --compare: its starts in seconds from the start of
// the workload (nil when it did not start), and B's minus A's.
type startDiff struct {
	ID    int      `json:"id"`
	Job   string   `json:"job"`
	Queue string   `json:"queue"`
	A     *float64 `json:"startA"`
	B     *float64 `json:"startB"`
	Delta *float64 `json:"delta"`
}

// startDiffs returns the jobs whose start differs between two replays of
// one workload, in the order of their trace IDs.
func startDiffs(a, b *sim.ReplayResult) []startDiff {
	started := func(r simstats.Record) *float64 {
		if r.State == simstats.StateDone || r.State == simstats.StateExit {
			v := r.Start
			return &v
		}
		return nil
	}
	byID := make(map[int]simstats.Record, len(b.Records))
	for _, r := range b.Records {
		byID[r.ID] = r
	}
	out := []startDiff{}
	for _, ra := range a.Records {
		rb, ok := byID[ra.ID]
		if !ok {
			continue
		}
		sa, sb := started(ra), started(rb)
		if sa == nil && sb == nil || sa != nil && sb != nil && *sa == *sb {
			continue
		}
		d := startDiff{ID: ra.ID, Job: jobLabel(a, ra.ID), Queue: ra.Queue, A: sa, B: sb}
		if sa != nil && sb != nil {
			delta := *sb - *sa
			d.Delta = &delta
		}
		out = append(out, d)
	}
	return out
}

// jobLabel names a job of a replay as its workload does.
func jobLabel(res *sim.ReplayResult, id int) string {
	if l, ok := res.Labels[id]; ok {
		return l
	}
	return strconv.Itoa(id)
}

// writeStartDiffs prints the jobs whose start differs, after the
// comparison's metrics.
func writeStartDiffs(w io.Writer, names [2]string, jobs int, diffs []startDiff) {
	fmt.Fprintf(w, "\nStart times that differ (seconds from the start of the workload): %d of %s\n", len(diffs), plural(jobs, "job"))
	if len(diffs) == 0 {
		return
	}
	row := "%-12s %-12s %12s %12s %12s\n"
	fmt.Fprintf(w, row, "JOB", "QUEUE", "START(A)", "START(B)", "B-A")
	num := func(v *float64) string {
		if v == nil {
			return "-"
		}
		return strconv.FormatFloat(*v, 'f', -1, 64)
	}
	for _, d := range diffs {
		delta := num(d.Delta)
		if d.Delta != nil && *d.Delta > 0 {
			delta = "+" + delta
		}
		fmt.Fprintf(w, row, d.Job, d.Queue, num(d.A), num(d.B), delta)
	}
	fmt.Fprintf(w, "(A: %s, B: %s; \"-\": did not start)\n", oneLine(names[0]), oneLine(names[1]))
}
