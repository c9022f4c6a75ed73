package main

import (
	"path/filepath"
	"strings"
)

// commandLine returns lsfc's arguments for a process's argv: argv[1:], or,
// when lsfc was invoked under the name of an LSF command (a link named
// bsub, bjobs ... to lsfc), that name followed by argv[1:], so that "bsub
// -q normal job" runs "lsfc bsub -q normal job".
func commandLine(argv []string) []string {
	if len(argv) == 0 {
		return nil
	}
	name := strings.TrimSuffix(filepath.Base(argv[0]), ".exe")
	if isLSFCommand(name) {
		return append([]string{name}, argv[1:]...)
	}
	return argv[1:]
}
