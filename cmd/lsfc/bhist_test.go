package main

import (
	"testing"

	"github.com/lsfc/lsfc/runtime/api"
)

// TestTimeInStates sums the seconds of a history in each state: pending
// until dispatch, suspended, running again, requeued, and to now for a
// job that has not ended.
func TestTimeInStates(t *testing.T) {
	h := &api.JobHistory{Submit: 100, Events: []api.HistoryEvent{
		{At: 100, Kind: api.EventSubmit},
		{At: 110, Kind: api.EventSuspend, State: "PSUSP"},
		{At: 130, Kind: api.EventResume, State: "PEND"},
		{At: 140, Kind: api.EventStart},
		{At: 150, Kind: api.EventSuspend, State: "SSUSP"},
		{At: 155, Kind: api.EventResume, State: "RUN"},
		{At: 175, Kind: api.EventRequeue},
		{At: 180, Kind: api.EventStart},
		{At: 190, Kind: api.EventUnknown},
		{At: 192, Kind: api.EventResume, State: "RUN"},
	}}
	secs, total := timeInStates(h, 200)
	want := [6]int64{10 + 10 + 5, 20, 10 + 20 + 10 + 8, 0, 5, 2}
	if secs != want || total != 100 {
		t.Errorf("running job: %v total %d, want %v total 100", secs, total, want)
	}
	h.Events = append(h.Events, api.HistoryEvent{At: 195, Kind: api.EventExit, Code: 1})
	secs, total = timeInStates(h, 1000)
	want[2] -= 5
	if secs != want || total != 95 {
		t.Errorf("ended job: %v total %d, want %v total 95", secs, total, want)
	}
}

// TestMatchJobName matches -J's patterns: "*" for any text, brackets
// as they are.
func TestMatchJobName(t *testing.T) {
	for _, c := range []struct {
		pattern, name string
		want          bool
	}{
		{"sim", "sim", true}, {"sim", "sim2", false}, {"s*", "sim", true}, {"*m", "sim", true},
		{"*", "", true}, {"a*b*c", "axxbyyc", true}, {"a*b*c", "acb", false}, {"ab*ba", "aba", false},
		{"arr[1]", "arr[1]", true}, {"arr[*]", "arr[12]", true}, {"arr[1]", "arr1", false},
	} {
		if got := matchJobName(c.pattern, c.name); got != c.want {
			t.Errorf("matchJobName(%q, %q) = %v, want %v", c.pattern, c.name, got, c.want)
		}
	}
}
