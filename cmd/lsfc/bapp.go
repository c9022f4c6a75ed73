package main

import (
	"context"
	"fmt"
	"io"

	"github.com/lsfc/lsfc/runtime/api"
)

func newBappCmd(e env) *lsfCommand {
	s := lsfSpec{
		name:     "bapp",
		refused:  bappRefusedOptions(),
		options:  []lsfOption{{"l", ""}, {"w", ""}},
		short:    "Show the application profiles of lsfc serve's configuration",
		operands: "[app_profile ...]",
		long: `bapp shows the application profiles of lsb.applications, or those named,
with their unfinished jobs counted in slots:

  APPLICATION_NAME   NJOBS     PEND      RUN     SUSP

SUSP counts the slots of suspended jobs, by the system or by their
user. -l shows one block a profile in LSF's long layout: APPLICATION
NAME: and the profile's DESCRIPTION; STATISTICS: NJOBS, PEND, RUN, SSUSP,
USUSP and RSV (the slots its pending jobs reserve); then PARAMETERS: the
resource usage limits of the profile (RUNLIMIT and CPULIMIT in minutes,
the memory limits in MB), RES_REQ, GPU_REQ, and every other parameter it
sets, one "KEY: value" line each, as written (PRE_EXEC, POST_EXEC,
JOB_STARTER, REQUEUE_EXIT_VALUES, RUNTIME ...). -w cuts no name.

A name that is no application profile is reported on standard error
("NAME: No such application profile") and bapp exits 255; with no
profile configured bapp says "No application profiles found".` + lsfStateHelp,
		example: `  lsfc bapp
  bapp -l fluent`,
	}
	return newLSFCmd(e, s, func(ctx context.Context, a *lsfArgs) error {
		c, err := dialDaemon(e, a)
		if err != nil {
			return lsfFailed(e, "bapp", err)
		}
		all, err := c.Apps(ctx)
		if err != nil {
			return lsfFailed(e, "bapp", err)
		}
		if len(all) == 0 && len(a.operands) == 0 {
			fmt.Fprintln(e.stderr, "No application profiles found")
			return nil
		}
		apps, missing := pickNamed(all, a.operands, func(p api.App) string { return p.Name })
		switch {
		case len(apps) == 0:
		case a.has("l"):
			writeAppsLong(e.stdout, apps)
		default:
			writeApps(e.stdout, apps, a.has("w"))
		}
		for _, n := range missing {
			fmt.Fprintf(e.stderr, "%s: No such application profile\n", n)
		}
		if len(missing) > 0 {
			return exit(exitLSF, nil)
		}
		return nil
	})
}

const (
	appsHeader = "APPLICATION_NAME   NJOBS     PEND      RUN     SUSP"
	appsRow    = "%-18s %5d %8d %8d %8d\n"
)

// writeApps prints bapp's table; names longer than 18 are cut unless
// wide.
func writeApps(w io.Writer, apps []api.App, wide bool) {
	apps = textSafe(apps)
	fmt.Fprintln(w, appsHeader)
	for _, p := range apps {
		name := p.Name
		if !wide {
			name = cutEnd(name, 18)
		}
		fmt.Fprintf(w, appsRow, name, p.NJobs, p.Pend, p.Run, p.SSusp+p.USusp)
	}
}

// writeAppsLong prints bapp -l: for each profile its name and
// description, its job counts, then the parameters it sets.
func writeAppsLong(w io.Writer, apps []api.App) {
	apps = textSafe(apps)
	for i, p := range apps {
		if i > 0 {
			fmt.Fprintln(w, "-------------------------------------------------------------------------------")
		}
		fmt.Fprintf(w, "\nAPPLICATION NAME: %s\n", p.Name)
		if p.Description != "" {
			fmt.Fprintf(w, " -- %s\n", p.Description)
		}
		fmt.Fprintf(w, "\nSTATISTICS:\n")
		fmt.Fprintf(w, "%8s %8s %8s %8s %8s %8s\n", "NJOBS", "PEND", "RUN", "SSUSP", "USUSP", "RSV")
		fmt.Fprintf(w, "%8d %8d %8d %8d %8d %8d\n\n", p.NJobs, p.Pend, p.Run, p.SSusp, p.USusp, p.Rsv)
		if len(p.Limits) == 0 && p.ResReq == "" && p.GPUReq == "" && len(p.Params) == 0 {
			continue
		}
		fmt.Fprintf(w, "PARAMETERS:\n\n")
		writeLimitRows(w, p.Limits)
		if p.ResReq != "" {
			fmt.Fprintf(w, "RES_REQ: %s\n", p.ResReq)
		}
		if p.GPUReq != "" {
			fmt.Fprintf(w, "GPU_REQ: %s\n", p.GPUReq)
		}
		for _, kv := range p.Params {
			fmt.Fprintf(w, "%s: %s\n", kv.Name, kv.Value)
		}
		fmt.Fprintln(w)
	}
}

// bappRefusedOptions returns the options LSF 10.1 documents for bapp
// that lsfc does not implement.
func bappRefusedOptions() []lsfOption {
	return []lsfOption{{"alloc", ""}, {"V", ""}}
}
