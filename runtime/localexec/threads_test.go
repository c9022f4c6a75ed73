package localexec

import (
	"os"
	"runtime/debug"
	"strings"
	"testing"
)

func TestThreadLimit(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
	}{
		{"126886\n", 126886},
		{"4194304", 1 << 22},
		{"99999999", 1 << 22},
		{"500\n", minThreads},
		{"", minThreads},
		{"lots", minThreads},
		{"-1", minThreads},
	} {
		if got := threadLimit(tc.in); got != tc.want {
			t.Errorf("threadLimit(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
}

// TestRaiseThreadLimit checks that the process's limit is the kernel's
// after raiseThreadLimit, and leaves it so: raiseThreadLimit raises it
// once a process, and the test may run again (go test -count).
func TestRaiseThreadLimit(t *testing.T) {
	data, err := os.ReadFile("/proc/sys/kernel/threads-max")
	if err != nil {
		t.Skipf("no kernel thread limit to read: %v", err)
	}
	raiseThreadLimit()
	got := debug.SetMaxThreads(minThreads)
	debug.SetMaxThreads(got)
	if want := threadLimit(string(data)); got != want {
		t.Errorf("thread limit %d after raiseThreadLimit, want the kernel's %s", got, strings.TrimSpace(string(data)))
	}
}
