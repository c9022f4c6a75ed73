//go:build lsfclient

package main

import (
	"os"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// toolCommands returns lsfc's own commands, of which the LSF commands'
// build (tag lsfclient) has none: it holds the LSF commands, version and
// completion, and links neither the compiler nor the daemon.
func toolCommands(env) []*cobra.Command { return nil }

// An LSF command lives for a moment: it lets its heap grow to three times
// what it holds (GOGC=200) before it collects, so that a listing of a
// thousand jobs ends before the first collection would. $GOGC, when
// set, decides instead.
func init() {
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(200)
	}
}
