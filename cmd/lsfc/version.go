package main

import (
	"fmt"
	"io"
	"runtime/debug"
)

// version returns the module version lsfc was built as, or "(devel)".
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

// writeVersion prints lsfc's version from its build information (nil
// when the binary carries none): the module version, the vcs.revision,
// vcs.time and vcs.modified settings the build recorded, and the Go
// version.
func writeVersion(w io.Writer, bi *debug.BuildInfo) {
	if bi == nil {
		fmt.Fprintln(w, "lsfc (devel)")
		return
	}
	v := bi.Main.Version
	if v == "" {
		v = "(devel)"
	}
	fmt.Fprintf(w, "lsfc %s\n", v)
	for _, key := range []string{"vcs.revision", "vcs.time", "vcs.modified"} {
		for _, s := range bi.Settings {
			if s.Key == key {
				fmt.Fprintf(w, "%-13s %s\n", key+":", s.Value)
			}
		}
	}
	if bi.GoVersion != "" {
		fmt.Fprintf(w, "%-13s %s\n", "go:", bi.GoVersion)
	}
}
