package daemon

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/runtime"
	"github.com/lsfc/lsfc/runtime/eventlog"
)

// TestReadHistoriesOverlap reads a log and the one its compaction
// replaced, which both hold the transaction appended while the
// compaction ran: the job's end is in its history once.
func TestReadHistoriesOverlap(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lsb.events")
	l, _, err := eventlog.Open(path, eventlog.Options{KeepPrevious: true})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	im := runtime.JobImage{ID: 1, Sub: runtime.Submission{User: "ann", Queue: "normal", Command: "true"}, Submit: 10, State: runtime.Pend}
	appendRecs := func(recs ...Record) {
		t.Helper()
		b, err := encode(recs)
		if err != nil {
			t.Fatal(err)
		}
		c, err := l.Append(b)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Wait(); err != nil {
			t.Fatal(err)
		}
	}
	appendRecs(Record{Type: "new", At: 10, Job: 1, Image: &im})
	appendRecs(Record{Type: "start", At: 20, Job: 1, Allocs: []runtime.AllocImage{{Host: "hostA", Slots: 2}}})
	m := l.Mark()
	appendRecs(Record{Type: "finish", At: 30, Job: 1, State: "DONE"})
	started := im
	started.Start, started.State, started.Allocs = 20, runtime.Run, []runtime.AllocImage{{Host: "hostA", Slots: 2}}
	snap, _ := encode([]Record{{Type: "job", Image: &started}})
	if err := l.CompactAt(m, snap); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		paths []string
		want  []string
	}{
		{[]string{path}, []string{"submit", "start", "done"}},
		{[]string{path + ".1", path}, []string{"submit", "start", "done"}},
		{[]string{path + ".2", path}, []string{"submit", "start", "done"}},
	} {
		b, err := readHistories(c.paths)
		if err != nil {
			t.Fatal(err)
		}
		h := b.jobs[1]
		var got []string
		for _, e := range h.Events {
			got = append(got, e.Kind)
		}
		if !slices.Equal(got, c.want) || h.State != "DONE" || h.Events[1].Slots != 2 {
			t.Errorf("%v: %v %s, want %v DONE on 2 slots", c.paths, got, h.State, c.want)
		}
	}
}

// TestReadHistoriesNewerFormat refuses a log whose records are of a
// format newer than this build reads, rather than misread them.
func TestReadHistoriesNewerFormat(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lsb.events")
	l, _, err := eventlog.Open(path, eventlog.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	b, _ := encode([]Record{{Type: KindFormat, Version: FormatVersion + 1}})
	c, err := l.Append(b)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := readHistories([]string{path}); err == nil || !strings.Contains(err.Error(), "format 2") {
		t.Errorf("readHistories of a newer format: %v, want an error naming format 2", err)
	}
}
