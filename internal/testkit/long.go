package testkit

import (
	"os"
	"testing"
)

// LongEnv names the environment variable that turns the long tests on:
// with LSFC_LONG=1, `go test ./...` runs the crash, failover and
// multi-daemon tests, the whole-trace replays and the full-size property
// runs as well (CI does, .ci/run). Without it each package's tests take
// well under a minute.
const LongEnv = "LSFC_LONG"

// Short reports whether the long tests are off: LSFC_LONG is not "1", or
// go test runs with -short. A test that has a smaller version of itself
// runs that one then.
func Short() bool { return testing.Short() || os.Getenv(LongEnv) != "1" }

// Long skips the calling test unless the long tests are on (see Short),
// saying what makes it long and how to run it.
func Long(t testing.TB, why string) {
	t.Helper()
	if Short() {
		t.Skipf("long test (%s): run it with %s=1", why, LongEnv)
	}
}
