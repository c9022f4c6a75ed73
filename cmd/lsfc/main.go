// Command lsfc reads, checks and runs IBM Spectrum LSF and openlava
// configuration: lsfc lint checks a configuration tree for CI, lsfc fmt
// prints it in canonical form, lsfc serve runs it as a batch system and
// lsfc bsub, bjobs ... are its commands (also as links named bsub,
// bjobs ...). See lsfc --help.
package main

import (
	"os"

	"github.com/lsfc/lsfc/runtime/localexec"
)

func main() {
	// lsfc serve starts each job under this binary as its wrapper: the
	// hidden first word comes before anything else is read.
	if len(os.Args) > 1 && os.Args[1] == localexec.WrapperArg {
		os.Exit(localexec.WrapperMain(os.Args[2:]))
	}
	os.Exit(Main())
}
