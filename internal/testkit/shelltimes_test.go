package testkit

import (
	"testing"
	"time"
)

func TestShellTimes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"0m0.220000s 0m0.010000s\n0m0.000000s 0m0.000000s\n", 230 * time.Millisecond, true},
		{"1m2.5s 0m0s", 62500 * time.Millisecond, true},
		{"0m0.22s\n", 0, false},
		{"0.22s 0m0s\n", 0, false},
		{"0m-1s 0m0s\n", 0, false},
		{"", 0, false},
	} {
		got, err := ShellTimes(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ShellTimes(%q) = %v, %v; want %v, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}
