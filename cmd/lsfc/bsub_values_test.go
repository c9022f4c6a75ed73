package main

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lsfc/lsfc/compile/units"
)

func TestParseJobTime(t *testing.T) {
	loc := time.UTC
	now := time.Date(2026, 3, 15, 12, 30, 20, 0, loc)
	at := func(y int, m time.Month, d, h, min int) time.Time { return time.Date(y, m, d, h, min, 0, 0, loc) }
	for _, c := range []struct {
		in   string
		want time.Time
	}{
		{"20:00", at(2026, 3, 15, 20, 0)},
		{"12:30", at(2026, 3, 15, 12, 30)}, // this minute has not passed
		{"8:05", at(2026, 3, 16, 8, 5)},    // tomorrow
		{"16:8:05", at(2026, 3, 16, 8, 5)}, // day:hour:minute
		{"14:8:05", at(2026, 4, 14, 8, 5)}, // next month
		{"31:0:0", at(2026, 3, 31, 0, 0)},
		{"3:1:0:0", at(2027, 3, 1, 0, 0)}, // month:day:hour:minute, next year
		{"2:29:0:0", at(2028, 2, 29, 0, 0)},
		{"2001:1:1:0:0", at(2001, 1, 1, 0, 0)}, // with its year: as written
		{"2099:12:31:23:59", at(2099, 12, 31, 23, 59)},
	} {
		got, err := parseJobTime("-b", c.in, now)
		if err != nil || !got.Equal(c.want) {
			t.Errorf("parseJobTime(%q) = %v, %v; want %v", c.in, got, err, c.want)
		}
	}
	for _, c := range []struct{ in, msg string }{
		{"25:99", `-b "25:99": Bad time specification (minute must be 0-59). Job not submitted`},
		{"24:00", `-b "24:00": Bad time specification (hour must be 0-23). Job not submitted`},
		{"yesterday", `-b "yesterday": Bad time specification (want [[year:][month:]day:]hour:minute). Job not submitted`},
		{"10", `Bad time specification (want`},
		{"1:2:3:4:5:6", `Bad time specification (want`},
		{"0:10:00", `(day must be 1-31)`},
		{"13:1:10:00", `(month must be 1-12)`},
		{"1969:1:1:0:0", `(year must be after 1970)`},
		{"2027:4:31:0:0", `(month 4 has no day 31)`},
		{"-1:00", `"-1" is not a number`},
		{"+1:00", `"+1" is not a number`},
		{"1: 00", `" 00" is not a number`},
	} {
		_, err := parseJobTime("-b", c.in, now)
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("parseJobTime(%q): error %v, want one with %q", c.in, err, c.msg)
		}
	}
}

func TestParseCPULimit(t *testing.T) {
	for _, c := range []struct {
		in   string
		secs float64
		spec string
	}{
		{"10", 600, ""},
		{"1:30", 5400, ""},
		{"0:01", 60, ""},
		{"90/hostA", 5400, "hostA"},
		{"1:00/Intel_Xeon", 3600, "Intel_Xeon"},
	} {
		got, err := parseCPULimit(c.in)
		if err != nil || got.seconds != c.secs || got.spec != c.spec {
			t.Errorf("parseCPULimit(%q) = %+v, %v; want %g s on %q", c.in, got, err, c.secs, c.spec)
		}
	}
	for _, c := range []struct{ in, msg string }{
		{"0", `-c "0": Bad CPU limit specification (the limit must be more than zero). Job not submitted`},
		{"1:75", `(minute must be 0-59)`},
		{"ten", `(want [hour:]minute)`},
		{"-5", `(want [hour:]minute)`},
		{"10/", `(want a host name or host model after /)`},
		{"10/a/b", `(want a host name or host model after /)`},
		{"", `(want [hour:]minute)`},
	} {
		_, err := parseCPULimit(c.in)
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("parseCPULimit(%q): error %v, want one with %q", c.in, err, c.msg)
		}
	}
}

func TestParseEnvSpec(t *testing.T) {
	environ := []string{"A=1", "B=2", "C=3"}
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"all", []string{"A=1", "B=2", "C=3"}},
		{"ALL", []string{"A=1", "B=2", "C=3"}},
		{"none", nil},
		{"all, ~B", []string{"A=1", "C=3"}},
		{"all, B=x, D=y", []string{"A=1", "B=x", "C=3", "D=y"}},
		{`all, D="a, b"`, []string{"A=1", "B=2", "C=3", "D=a, b"}},
		{"A, D=4", []string{"A=1", "D=4"}},
		{"B", []string{"B=2"}},
		{"E=", []string{"E="}},
	} {
		e, err := parseEnvSpec(c.in)
		if err != nil {
			t.Errorf("parseEnvSpec(%q): %v", c.in, err)
			continue
		}
		if got := e.apply(slices.Clone(environ)); !slices.Equal(got, c.want) {
			t.Errorf("-env %q gives %q, want %q", c.in, got, c.want)
		}
	}
	for _, c := range []struct{ in, msg string }{
		{"all, =x", `-env "all, =x": "" is not a variable name. Job not submitted`},
		{"", `empty variable`},
		{"all,", `empty variable`},
		{"none, A=1", `"none" must be given alone`},
		{"A, all", `"all" must come first`},
		{"~A", `excludes a variable only after "all"`},
		{"all, B", `needs a value`},
		{"1A=2", `"1A" is not a variable name`},
		{`all, A="x`, `unterminated " quote`},
	} {
		_, err := parseEnvSpec(c.in)
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("parseEnvSpec(%q): error %v, want one with %q", c.in, err, c.msg)
		}
	}
}

// FuzzBsubValues feeds the readers of -b/-t, -c and -env arbitrary
// values: each answers or refuses, never panics; a time read is one of
// the fields given, a CPU limit is positive, and -env's result holds
// KEY=VALUE entries only.
func FuzzBsubValues(f *testing.F) {
	for _, s := range []string{"20:00", "2099:12:31:23:59", "25:99", "yesterday", "1:30/hostA", "all, ~B, C=x",
		`A, D="a, b"`, "all, =x", "2:29:0:0", "::", "/", "none",
		"0", "1024", "-1", "9223372036854775807", " 12 ", "1e3", "0x10"} {
		f.Add(s)
	}
	now := time.Date(2026, 3, 15, 12, 30, 20, 0, time.UTC)
	f.Fuzz(func(t *testing.T, s string) {
		if tm, err := parseJobTime("-b", s, now); err == nil {
			fields := strings.Split(strings.TrimSpace(s), ":")
			if got := tm.Format("4"); len(fields) >= 2 && strings.TrimLeft(fields[len(fields)-1], "0") != strings.TrimLeft(got, "0") {
				t.Errorf("parseJobTime(%q) = %v: minute %s", s, tm, got)
			}
		}
		if l, err := parseCPULimit(s); err == nil && l.seconds <= 0 {
			t.Errorf("parseCPULimit(%q) = %+v", s, l)
		}
		if n, err := parseProcLimit("S", s); err == nil {
			if n < 0 {
				t.Errorf("parseProcLimit(%q) = %d", s, n)
			}
			for _, u := range []units.Unit{units.KB, units.MB, units.GB, units.EB} {
				kb, err := procLimitsKB(map[string]int64{"STACKLIMIT": n}, u)
				if err == nil && (kb["STACKLIMIT"] < n || kb["STACKLIMIT"] < 0) {
					t.Errorf("procLimitsKB(%d %v) = %d", n, u, kb["STACKLIMIT"])
				}
			}
		} else if !strings.Contains(err.Error(), "Bad stack segment size limit") {
			t.Errorf("parseProcLimit(%q): %v", s, err)
		}
		if n, err := parseProcLimit("p", s); err == nil && n < 1 {
			t.Errorf("parseProcLimit(p, %q) = %d", s, n)
		}
		if e, err := parseEnvSpec(s); err == nil {
			for _, kv := range e.apply([]string{"A=1", "B=2"}) {
				if !strings.Contains(kv, "=") || strings.HasPrefix(kv, "=") {
					t.Errorf("-env %q gives entry %q", s, kv)
				}
			}
		}
	})
}
