// Command lsfc-job starts and supervises one batch job for lsfc serve and
// lsfc sbatchd: "lsfc-job DIR JOBID" runs the job whose files the
// daemon's executor wrote in DIR, waits for it and records its end there
// (see package localexec). It is installed next to the lsfc binary, or
// anywhere on PATH, and links nothing but the executor, so that starting
// a job costs a small process rather than another lsfc.
package main

import (
	"os"

	"github.com/lsfc/lsfc/runtime/localexec"
)

func main() {
	os.Exit(localexec.WrapperMain(os.Args[1:]))
}
