// Command lsfc-job starts and supervises batch jobs for lsfc serve and
// lsfc sbatchd. Run by their executor with a hidden argument and the
// executor's directory, it is the host's supervisor: one long-lived
// process, in a session of its own, that starts every job whose files
// the executor wrote there (a goroutine and a fork each), waits for it,
// records its end there, and outlives restarts of the daemon or agent.
// "lsfc-job DIR JOBID" runs one job in a process of its own, as a job
// with per-process limits is run (see package localexec). It is installed
// next to the lsfc binary, or anywhere on PATH, and links nothing but
// the executor.
package main

import (
	"os"

	"github.com/lsfc/lsfc/runtime/localexec"
)

func main() {
	os.Exit(localexec.WrapperMain(os.Args[1:]))
}
