// Command lsfc reads, checks and runs IBM Spectrum LSF and openlava
// configuration: lsfc lint checks a configuration tree for CI, lsfc fmt
// prints it in canonical form, lsfc serve runs it as a batch system and
// lsfc bsub, bjobs ... are its commands (also as links named bsub,
// bjobs ...). See lsfc --help. Jobs run under the job starter,
// lsfc-job, installed beside it, as the host's job supervisor.
package main

import "os"

func main() {
	os.Exit(Main())
}
