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
	name := invokedAs(argv)
	if isLSFCommand(name) {
		return append([]string{name}, argv[1:]...)
	}
	return argv[1:]
}

// invokedAs returns the name a process was invoked under: argv[0]'s base
// name, without .exe.
func invokedAs(argv []string) string {
	if len(argv) == 0 {
		return ""
	}
	return strings.TrimSuffix(filepath.Base(argv[0]), ".exe")
}

// masterName is the name of lsfc-master, the build of lsfc that runs
// master candidates (serve --etcd); the other builds hand serve --etcd to
// it and refuse to run under its name.
const masterName = "lsfc-master"
