package daemon_test

import (
	"testing"
	"time"

	testclock "k8s.io/utils/clock/testing"
)

// waitLimit bounds, in real time, how long a test waits for a condition.
const waitLimit = 20 * time.Second

// eventually polls until cond holds and reports whether it did before
// waitLimit. What it waits for is outside the daemon's clock: a real
// process, a file, the daemon's goroutines getting to it.
func eventually(cond func() bool) bool {
	deadline := time.Now().Add(waitLimit)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		// A real wait: the condition depends on other processes and
		// goroutines, which need real time to get there.
		time.Sleep(10 * time.Millisecond)
	}
	return true
}

// waitFor polls until cond holds, and fails the test when it does not
// in time.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	if !eventually(cond) {
		t.Fatalf("timed out waiting for %s", what)
	}
}

// stepUntil steps a daemon's testing clock by step until cond holds,
// letting the daemon act on each step, and fails the test when it does
// not within waitLimit of real time.
func stepUntil(t testing.TB, clk *testclock.FakeClock, step time.Duration, what string, cond func() bool) {
	t.Helper()
	waitFor(t, what, func() bool {
		if cond() {
			return true
		}
		clk.Step(step)
		return false
	})
}
