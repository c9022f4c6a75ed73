// Command lsfc reads, checks and runs IBM Spectrum LSF and openlava
// configuration: lsfc lint checks a configuration tree for CI, lsfc fmt
// prints it in canonical form. See lsfc --help.
package main

import "os"

func main() { os.Exit(Main()) }
