package lint

import (
	"testing"

	"github.com/lsfc/lsfc/compile"
)

// clockAt builds a window end: day -1 for every day.
func clockAt(day, hour, minute int) compile.Clock {
	return compile.Clock{Day: day, Hour: hour, Minute: minute}
}

func TestWindowSet(t *testing.T) {
	for _, tc := range []struct {
		name    string
		windows []compile.Window
		minutes int
		text    string
	}{
		{"daily overnight", []compile.Window{{From: clockAt(-1, 19, 0), To: clockAt(-1, 7, 0)}}, 7 * 12 * 60, "every day 19:00-07:00"},
		{"daily", []compile.Window{{From: clockAt(-1, 8, 0), To: clockAt(-1, 17, 30)}}, 7 * (9*60 + 30), "every day 08:00-17:30"},
		{"empty", []compile.Window{{From: clockAt(-1, 8, 0), To: clockAt(-1, 8, 0)}}, 0, ""},
		{"empty with days", []compile.Window{{From: clockAt(5, 18, 0), To: clockAt(5, 18, 0)}}, 0, ""},
		{"weekend", []compile.Window{{From: clockAt(5, 18, 0), To: clockAt(1, 8, 0)}}, 62 * 60, "Fri 18:00-Mon 08:00"},
		{"over the week's end", []compile.Window{{From: clockAt(6, 20, 0), To: clockAt(0, 20, 0)}}, 24 * 60, "Sat 20:00-Sun 20:00"},
		{"one day", []compile.Window{{From: clockAt(2, 9, 0), To: clockAt(2, 10, 0)}}, 60, "Tue 09:00-10:00"},
		{"to midnight", []compile.Window{{From: clockAt(3, 22, 0), To: clockAt(4, 0, 0)}}, 120, "Wed 22:00-Thu 00:00"},
		{"overlapping", []compile.Window{{From: clockAt(-1, 8, 0), To: clockAt(-1, 12, 0)}, {From: clockAt(-1, 11, 0), To: clockAt(-1, 13, 0)}}, 7 * 5 * 60, "every day 08:00-13:00"},
		{"several", []compile.Window{{From: clockAt(1, 1, 0), To: clockAt(1, 2, 0)}, {From: clockAt(2, 1, 0), To: clockAt(2, 2, 0)}, {From: clockAt(3, 1, 0), To: clockAt(3, 2, 0)}}, 180,
			"Mon 01:00-02:00, Tue 01:00-02:00 and 1 more periods"},
		{"all day", []compile.Window{{From: clockAt(-1, 0, 0), To: clockAt(-1, 23, 59)}, {From: clockAt(-1, 23, 59), To: clockAt(-1, 0, 0)}}, 7 * 24 * 60, "at all times"},
	} {
		s := windowSet(tc.windows)
		if got := s.count(); got != tc.minutes {
			t.Errorf("%s: %d minutes, want %d", tc.name, got, tc.minutes)
		}
		if tc.minutes == 0 {
			if !s.empty() {
				t.Errorf("%s: not empty", tc.name)
			}
			continue
		}
		if got := s.describe(); got != tc.text {
			t.Errorf("%s: described as %q, want %q", tc.name, got, tc.text)
		}
	}
}

func TestWeekSetOps(t *testing.T) {
	run := windowSet([]compile.Window{{From: clockAt(-1, 19, 0), To: clockAt(-1, 7, 0)}})
	disp := windowSet([]compile.Window{{From: clockAt(-1, 18, 0), To: clockAt(-1, 6, 0)}})
	if got := disp.minus(run).describe(); got != "every day 18:00-19:00" {
		t.Errorf("dispatch outside run: %q", got)
	}
	if got := disp.and(run).describe(); got != "every day 19:00-06:00" {
		t.Errorf("dispatch and run: %q", got)
	}
	if !run.minus(fullWeek()).empty() || !fullWeek().full() {
		t.Error("full week")
	}
	// A daily window against one with days: the days outside differ.
	weekend := windowSet([]compile.Window{{From: clockAt(6, 0, 0), To: clockAt(1, 0, 0)}})
	if got := weekend.minus(run).describe(); got != "Sun 07:00-19:00, Sat 07:00-19:00" {
		t.Errorf("weekend outside night: %q", got)
	}
}
