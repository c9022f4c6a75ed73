package api

import (
	"strings"
	"testing"
)

func TestParseRsvWindow(t *testing.T) {
	for _, tc := range []struct {
		in, want, err string
	}{
		{"8:0-18:0", "8:0-18:0", ""},
		{"8-18", "8:0-18:0", ""},
		{"5:18:30-1:8:0", "5:18:30-1:8:0", ""},
		{" 22:0-2:0 ", "22:0-2:0", ""},
		{"8:0-9", "", "write both ends the same way"},
		{"8:0-8:0", "", "the window is empty"},
		{"7:8:0-1:9:0", "", "day must be 0-6"},
		{"24:0-1:0", "", "hour must be 0-23"},
		{"1:60-2:0", "", "minute must be 0-59"},
		{"8:0", "", "want [day:]hour[:minute]-[day:]hour[:minute]"},
		{"a-b", "", `"a" is not a number`},
		{"-1-2", "", "is not"},
		{"1:2:3:4-1:2:3:4", "", "is not [day:]hour[:minute]"},
	} {
		from, to, err := ParseRsvWindow(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), "Bad time specification") {
				t.Errorf("ParseRsvWindow(%q) = %v, want an error with %q", tc.in, err, tc.err)
			}
			continue
		}
		if err != nil || FormatRsvWindow(from, to) != tc.want {
			t.Errorf("ParseRsvWindow(%q) = %q, %v; want %q", tc.in, FormatRsvWindow(from, to), err, tc.want)
		}
	}
}

// FuzzParseRsvWindow checks that any brsvadd -t value is read without a
// panic, that a window read is in range and not empty, and that it
// writes back to a text read the same.
func FuzzParseRsvWindow(f *testing.F) {
	for _, s := range []string{"8:0-18:0", "8-18", "5:18:30-1:8:0", "22:0-2:0", "8:0-9", "7:8:0-1:9:0", "--", "1::2-3", "0:0:0-6:23:59"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		from, to, err := ParseRsvWindow(s)
		if err != nil {
			if !strings.Contains(err.Error(), "Bad time specification") {
				t.Fatalf("ParseRsvWindow(%q): error %v does not say it is a bad time", s, err)
			}
			return
		}
		for _, c := range []RsvClock{from, to} {
			if c.Day < -1 || c.Day > 6 || c.Hour < 0 || c.Hour > 23 || c.Minute < 0 || c.Minute > 59 {
				t.Fatalf("ParseRsvWindow(%q) = %+v, %+v: out of range", s, from, to)
			}
		}
		if from == to || (from.Day < 0) != (to.Day < 0) {
			t.Fatalf("ParseRsvWindow(%q) = %+v, %+v: empty or mixed", s, from, to)
		}
		text := FormatRsvWindow(from, to)
		f2, t2, err := ParseRsvWindow(text)
		if err != nil || f2 != from || t2 != to {
			t.Fatalf("ParseRsvWindow(%q) wrote %q, which reads back as %+v, %+v, %v", s, text, f2, t2, err)
		}
	})
}
