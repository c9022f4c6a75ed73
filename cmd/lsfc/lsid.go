package main

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"
	"time"
)

// lsfLevel is the LSF release whose commands and output lsfc follows, as
// lsid names it. Tools compare it with the release that brought a feature
// (Toil asks for 10.1.0.2 or later before it uses bjobs -json).
const lsfLevel = "10.1.0.13"

func newLsidCmd(e env) *lsfCommand {
	s := lsfSpec{
		name:    "lsid",
		refused: lsidRefusedOptions(),
		short:   "Show the LSF level lsfc follows, the cluster and the master of lsfc serve",
		long: `lsid prints what LSF's lsid prints: the LSF release whose commands lsfc
follows and the date of this lsfc build, the version of lsfc where LSF
prints its copyright, then the cluster's name and the master host's:

  IBM Spectrum LSF Standard ` + lsfLevel + `, Mon DD YYYY
  lsfc VERSION, an implementation of IBM Spectrum LSF's commands

  My cluster name is CLUSTER
  My master name is HOST

Tools that check the LSF version read the first line (Toil matches
"IBM Spectrum LSF Standard (.*),").` + lsfStateHelp,
		example: `  lsfc lsid`,
	}
	return newLSFCmd(e, s, func(ctx context.Context, a *lsfArgs) error {
		if len(a.operands) > 0 {
			return usageError("lsid: unexpected argument %q", a.operands[0])
		}
		c, err := dialDaemon(e, a)
		if err != nil {
			return lsfFailed(e, "lsid", err)
		}
		st, err := c.Status(ctx)
		if err != nil {
			return lsfFailed(e, "lsid", err)
		}
		fmt.Fprintf(e.stdout, "%s\n\nMy cluster name is %s\nMy master name is %s\n", lsidBanner(buildTime()), st.Cluster, st.Master)
		return nil
	})
}

// lsidBanner returns lsid's first two lines: the LSF release and the date
// of the build (as LSF writes it, "Apr 15 2022"), then lsfc's version.
func lsidBanner(built time.Time) string {
	return fmt.Sprintf("IBM Spectrum LSF Standard %s, %s\nlsfc %s, an implementation of IBM Spectrum LSF's commands",
		lsfLevel, built.UTC().Format("Jan 02 2006"), version())
}

// buildTime returns when this lsfc was built: the time of the commit it
// was built from, or, for a build without version control information,
// the modification time of the executable; the zero time when neither is
// known.
func buildTime() time.Time {
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.time" {
				if t, err := time.Parse(time.RFC3339, s.Value); err == nil {
					return t
				}
			}
		}
	}
	if exe, err := os.Executable(); err == nil {
		if fi, err := os.Stat(exe); err == nil {
			return fi.ModTime()
		}
	}
	return time.Time{}
}

// lsidRefusedOptions returns the options LSF 10.1 documents for lsid that lsfc does
// not implement, each with the shape of its argument ("" for a switch).
func lsidRefusedOptions() []lsfOption {
	return []lsfOption{
		{"V", ""},
	}
}
