package main

import (
	"testing"
	"time"

	"github.com/lsfc/lsfc/runtime/api"
)

// TestParseTimeRange reads bhist's time intervals, each end in one of
// LSF's forms, against a fixed now.
func TestParseTimeRange(t *testing.T) {
	now := time.Date(2026, 11, 25, 17, 30, 45, 0, time.UTC)
	at := func(y int, mo time.Month, d, h, m, s int) int64 {
		return time.Date(y, mo, d, h, m, s, 0, time.UTC).Unix()
	}
	for _, c := range []struct {
		in       string
		from, to int64
	}{
		{"2026/11/24/10:00,2026/11/24/12:30", at(2026, 11, 24, 10, 0, 0), at(2026, 11, 24, 12, 30, 59)},
		{"11/24/10:00,.", at(2026, 11, 24, 10, 0, 0), now.Unix()},
		{"24/10:00,", at(2026, 11, 24, 10, 0, 0), now.Unix()},
		{",9:05", 0, at(2026, 11, 25, 9, 5, 59)},
		{"2026/11/20,2026/11/21", at(2026, 11, 20, 0, 0, 0), at(2026, 11, 21, 23, 59, 59)},
		{"8:00", at(2026, 11, 25, 8, 0, 0), at(2026, 11, 25, 8, 0, 59)},
	} {
		r, err := parseTimeRange(c.in, now)
		if err != nil || r.from != c.from || r.to != c.to {
			t.Errorf("parseTimeRange(%q) = %+v, %v; want {%d %d}", c.in, r, err, c.from, c.to)
		}
	}
	for _, in := range []string{"", "x", "25:00", "13/01/1:00", "1/2/3/4/5:00", "2026/11/25/10:00,2026/11/24/10:00", "10:60"} {
		if r, err := parseTimeRange(in, now); err == nil {
			t.Errorf("parseTimeRange(%q) = %+v, want an error", in, r)
		}
	}
}

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
