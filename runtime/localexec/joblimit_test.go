package localexec

import "testing"

func TestLimitUsageOver(t *testing.T) {
	u := limitUsage{vmKB: 5000, procs: 3, threads: 7}
	for _, tc := range []struct {
		l    map[string]int64
		want string
	}{
		{nil, ""},
		{map[string]int64{"PROCESSLIMIT": 3, "THREADLIMIT": 7, "SWAPLIMIT": 5000}, ""},
		{map[string]int64{"PROCESSLIMIT": 2}, "TERM_PROCESSLIMIT"},
		{map[string]int64{"THREADLIMIT": 6}, "TERM_THREADLIMIT"},
		{map[string]int64{"SWAPLIMIT": 4999, "THREADLIMIT": 1}, "TERM_SWAP"},
	} {
		if got := u.over(tc.l); got != tc.want {
			t.Errorf("over(%v) = %q, want %q", tc.l, got, tc.want)
		}
	}
}

func TestParseProcGroupUsage(t *testing.T) {
	stat := "42 (a (b) c) S 1 42 42 0 -1 4194560 100 0 0 0 1 2 0 0 20 0 3 0 100 8192000 200 18446744073709551615"
	pgrp, vsize, threads, err := parseProcGroupUsage(stat)
	if err != nil || pgrp != 42 || vsize != 8192000 || threads != 3 {
		t.Errorf("got %d %d %d %v", pgrp, vsize, threads, err)
	}
	if _, _, _, err := parseProcGroupUsage("42 (x) S 1 42"); err == nil {
		t.Error("a short stat was read")
	}
	for _, l := range []map[string]int64{{"PROCESSLIMIT": 0}, {"CORELIMIT": 1}} {
		if badJobLimits(l) == "" {
			t.Errorf("%v: accepted", l)
		}
	}
}
