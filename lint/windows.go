package lint

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"

	"github.com/lsfc/lsfc/compile"
)

// Time windows are compared minute by minute over one week: LSF writes
// windows to the minute, and a window with days repeats weekly, one
// without every day. Minute 0 is Sunday 00:00.
const (
	minutesPerDay  = 24 * 60
	minutesPerWeek = 7 * minutesPerDay
	weekWords      = (minutesPerWeek + 63) / 64
)

// A weekSet is a set of minutes of the week: the minutes a list of time
// windows holds open.
type weekSet [weekWords]uint64

// fullWeek returns the set of every minute: an unset window is always
// open.
func fullWeek() *weekSet {
	var s weekSet
	s.addRange(0, minutesPerWeek)
	return &s
}

// windowSet returns the minutes the windows hold open. A window whose end
// comes before its start runs overnight (or over the week's end); one
// whose end equals its start holds no minute.
func windowSet(ws []compile.Window) *weekSet {
	var s weekSet
	for _, w := range ws {
		from := w.From.Hour*60 + w.From.Minute
		to := w.To.Hour*60 + w.To.Minute
		if w.From.Day < 0 || w.To.Day < 0 {
			// A daily window: the same minutes every day.
			if to == from {
				continue
			}
			if to < from {
				to += minutesPerDay
			}
			for d := 0; d < 7; d++ {
				s.addRange(d*minutesPerDay+from, d*minutesPerDay+to)
			}
			continue
		}
		from += w.From.Day * minutesPerDay
		to += w.To.Day * minutesPerDay
		if to == from {
			continue
		}
		if to < from {
			to += minutesPerWeek
		}
		s.addRange(from, to)
	}
	return &s
}

// addRange adds the minutes [from, to), wrapping at the week's end.
func (s *weekSet) addRange(from, to int) {
	for m := from; m < to; m++ {
		i := m % minutesPerWeek
		s[i/64] |= 1 << (i % 64)
	}
}

// has reports whether minute m is in the set.
func (s *weekSet) has(m int) bool {
	m %= minutesPerWeek
	return s[m/64]&(1<<(m%64)) != 0
}

// minus returns the minutes of s that are not in o.
func (s *weekSet) minus(o *weekSet) *weekSet {
	var r weekSet
	for i := range s {
		r[i] = s[i] &^ o[i]
	}
	return &r
}

// and returns the minutes in both s and o.
func (s *weekSet) and(o *weekSet) *weekSet {
	var r weekSet
	for i := range s {
		r[i] = s[i] & o[i]
	}
	return &r
}

// count returns the number of minutes in the set.
func (s *weekSet) count() int {
	n := 0
	for _, w := range s {
		n += bits.OnesCount64(w)
	}
	return n
}

// empty reports whether the set holds no minute.
func (s *weekSet) empty() bool { return s.count() == 0 }

// full reports whether the set holds every minute of the week.
func (s *weekSet) full() bool { return s.count() == minutesPerWeek }

// daily reports whether the set holds the same minutes every day.
func (s *weekSet) daily() bool {
	for m := 0; m < minutesPerDay; m++ {
		in := s.has(m)
		for d := 1; d < 7; d++ {
			if s.has(d*minutesPerDay+m) != in {
				return false
			}
		}
	}
	return true
}

// A minuteRun is the minutes [from, to) of a set, to possibly past the end of
// the period when the run wraps around.
type minuteRun struct{ from, to int }

// runs returns the maximal runs of the set within a period of n minutes
// (a day or the week), a run that wraps around the period's end counting
// once.
func (s *weekSet) runs(n int) []minuteRun {
	// Start at a minute outside the set, so that no run is cut in two.
	start := -1
	for m := 0; m < n; m++ {
		if !s.has(m) {
			start = m
			break
		}
	}
	if start < 0 {
		return []minuteRun{{0, n}}
	}
	var out []minuteRun
	in := false
	for i := 1; i <= n; i++ {
		m := start + i
		switch {
		case !s.has(m % n):
			in = false
		case in:
			out[len(out)-1].to = m + 1
		default:
			out = append(out, minuteRun{m, m + 1})
			in = true
		}
	}
	for i := range out {
		if out[i].from >= n {
			out[i].from -= n
			out[i].to -= n
		}
	}
	slices.SortFunc(out, func(a, b minuteRun) int { return a.from - b.from })
	return out
}

// dayNames holds the days' short names, three letters each, Sunday
// first.
const dayNames = "SunMonTueWedThuFriSat"

// clockText prints a minute of the day as hh:mm.
func clockText(m int) string {
	m %= minutesPerDay
	return fmt.Sprintf("%02d:%02d", m/60, m%60)
}

// weekClockText prints a minute of the week as "Mon 07:00".
func weekClockText(m int) string {
	m %= minutesPerWeek
	d := m / minutesPerDay
	return dayNames[3*d:3*d+3] + " " + clockText(m)
}

// describe says when a non-empty set is open, for a message: "every day
// 07:00-19:00", "Sat 00:00-Mon 00:00", with the first few runs only.
func (s *weekSet) describe() string {
	const most = 2
	if s.full() {
		return "at all times"
	}
	var parts []string
	var rs []minuteRun
	if s.daily() {
		rs = s.runs(minutesPerDay)
		for _, r := range rs {
			parts = append(parts, clockText(r.from)+"-"+clockText(r.to))
		}
	} else {
		rs = s.runs(minutesPerWeek)
		for _, r := range rs {
			end := weekClockText(r.to)
			if r.from/minutesPerDay == r.to/minutesPerDay {
				end = clockText(r.to)
			}
			parts = append(parts, weekClockText(r.from)+"-"+end)
		}
	}
	text := strings.Join(parts[:min(len(parts), most)], ", ")
	if len(parts) > most {
		text += fmt.Sprintf(" and %d more periods", len(parts)-most)
	}
	if s.daily() {
		return "every day " + text
	}
	return text
}
