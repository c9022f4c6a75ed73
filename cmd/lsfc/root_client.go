//go:build lsfclient

// An LSF command lives for a moment: the runtime does not start the
// goroutine that would follow changes of the CPUs it may use while it
// runs. $GODEBUG, when it says otherwise, decides instead.
//
//go:debug updatemaxprocs=0

package main

import (
	"fmt"
	"os"
	"runtime/debug"
	"strings"
	"syscall"
)

// runTree runs, in the LSF commands' build (lsfc-client), a command line
// that names no LSF command. version and --version it answers itself;
// everything else (lsfc's help, completion, lint, serve ...) is lsfc's,
// and is handed, whole, to the lsfc installed beside lsfc-client, else
// the first on $PATH. This build holds no tree of commands, so that an
// LSF command starts with nothing but itself.
func runTree(args []string, e env) error {
	if len(args) == 1 && (args[0] == "version" || args[0] == "--version") {
		bi, _ := debug.ReadBuildInfo()
		writeVersion(e.stdout, bi)
		return nil
	}
	if invokedAs(os.Args) == masterName {
		// lsfc handed serve --etcd to this program as lsfc-master:
		// handing it back would start the circle again.
		return exit(exitUsage, fmt.Errorf("this lsfc-master is the build of the LSF commands alone (lsfc-client); build lsfc-master with: go build -tags lsfcmaster -o lsfc-master ./cmd/lsfc"))
	}
	self, err := os.Executable()
	if err != nil {
		return exit(exitUsage, err)
	}
	path, tried, err := handOff(e, self, "lsfc", args, true, syscall.Exec)
	if path != "" {
		return exit(exitUsage, fmt.Errorf("running %s: %w", path, err))
	}
	what := "lsfc's help"
	if len(args) > 0 {
		what = fmt.Sprintf("%q", strings.Join(args, " "))
	}
	return exit(exitUsage, fmt.Errorf("this build of lsfc holds the LSF commands and version alone; %s is lsfc's, and no lsfc is found (tried %s)",
		what, strings.Join(tried, ", ")))
}

// An LSF command lives for a moment: it lets its heap grow to three times
// what it holds (GOGC=200) before it collects, so that a listing of a
// thousand jobs ends before the first collection would. $GOGC, when
// set, decides instead.
func init() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(200)
	}
}
