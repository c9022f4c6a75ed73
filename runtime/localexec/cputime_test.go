package localexec

import (
	"math"
	"testing"
	"time"
)

func TestParseProcCPU(t *testing.T) {
	// A command name with blanks and parentheses; utime 250, stime 50,
	// cutime 100, cstime 0.
	stat := "4242 (a (b) c) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 100 0 20 0 1 0 12345 0 0"
	pgrp, ticks, err := parseProcCPU(stat)
	if err != nil {
		t.Fatal(err)
	}
	if pgrp != 4242 || ticks != 400 {
		t.Errorf("parseProcCPU = %d, %d; want 4242, 400", pgrp, ticks)
	}
	if _, _, err := parseProcCPU("4242 (sh) S 1"); err == nil {
		t.Error("parseProcCPU of a short stat: no error")
	}
}

func TestTicksDuration(t *testing.T) {
	for _, tc := range []struct {
		n    uint64
		want time.Duration
	}{
		{0, 0},
		{1, 10 * time.Millisecond},
		{250, 2500 * time.Millisecond},
		{math.MaxUint64, math.MaxInt64},
		{uint64(math.MaxInt64/int64(time.Second)) * userHZ, math.MaxInt64},
	} {
		if got := ticksDuration(tc.n); got != tc.want {
			t.Errorf("ticksDuration(%d) = %v, want %v", tc.n, got, tc.want)
		}
	}
}
