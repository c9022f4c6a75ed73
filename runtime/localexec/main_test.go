package localexec

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// daemonEnv, when set to DIR:ID:COMMAND, makes the test binary a short-lived
// daemon: it starts job ID running COMMAND with an Executor on DIR and
// exits at once, leaving the job to a later Recover.
const daemonEnv = "LOCALEXEC_TEST_DAEMON"

// TestMain lets the test binary serve as the job wrapper: Executors in
// these tests run it with WrapperArg, or through a link named
// StarterName, run as the job starter is.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 && os.Args[1] == WrapperArg {
		os.Exit(WrapperMain(os.Args[2:]))
	}
	if filepath.Base(os.Args[0]) == StarterName {
		os.Exit(WrapperMain(os.Args[1:]))
	}
	if v := os.Getenv(daemonEnv); v != "" {
		os.Exit(shortDaemon(v))
	}
	// A wrapper built with the race detector would otherwise pause a
	// second before it exits, delaying every Result.
	if os.Getenv("GORACE") == "" {
		os.Setenv("GORACE", "atexit_sleep_ms=0")
	}
	os.Exit(m.Run())
}

// shortDaemon is the test binary as a daemon that starts a job and dies;
// see daemonEnv.
func shortDaemon(v string) int {
	parts := strings.SplitN(v, ":", 3)
	if len(parts) != 3 {
		fmt.Fprintf(os.Stderr, "bad %s %q\n", daemonEnv, v)
		return 2
	}
	id, err := strconv.ParseInt(parts[1], 10, 64)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	e, err := New(parts[0], nil)
	if err == nil {
		var self string
		self, err = os.Executable()
		e.WrapperPath = []string{self, WrapperArg}
	}
	if err == nil {
		err = e.Start(Spec{JobID: id, Command: parts[2], Umask: -1})
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	return 0
}
