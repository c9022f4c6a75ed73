package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/lsfc/lsfc/runtime/api"
	"github.com/spf13/cobra"
)

func newBacctCmd(e env) *cobra.Command {
	s := lsfSpec{
		name:     "bacct",
		refused:  bacctRefusedOptions(),
		short:    "Show the accounting of finished jobs of lsfc serve",
		operands: "JOBID ...",
		options:  []lsfOption{{"l", ""}},
		long: `bacct shows what the daemon knows of finished jobs (kept for CLEAN_PERIOD,
an hour by default): with -l, each job's submission, dispatch and end,
"Completed <done>." or "Completed <exit>." as LSF's bacct -l writes them,
then its wait, turnaround and run times. A job that has not finished is
shown without its completion. An unknown job is reported on standard
error and bacct exits 255.` + lsfStateHelp,
		example: `  lsfc bacct -l 1001`,
	}
	return newLSFCmd(e, s, func(ctx context.Context, a *lsfArgs) error {
		if len(a.operands) == 0 {
			return usageError("bacct: give the job ids")
		}
		c, err := dialDaemon(e, a)
		if err != nil {
			return lsfFailed(e, "bacct", err)
		}
		failed := false
		for i, op := range a.operands {
			id, err := parseJobID(op)
			if err != nil {
				return usageError("bacct: %v", err)
			}
			j, err := c.Job(ctx, id)
			var ae *api.APIError
			switch {
			case errors.As(err, &ae) && ae.Status == 404:
				fmt.Fprintf(e.stderr, "Job <%d>: No matching job found\n", id)
				failed = true
				continue
			case err != nil:
				return lsfFailed(e, "bacct", err)
			}
			if i > 0 {
				fmt.Fprintln(e.stdout, strings.Repeat("-", 78))
			}
			writeAccounting(e.stdout, j, a.has("l"), time.Local)
		}
		if failed {
			return exit(exitLSF, nil)
		}
		return nil
	})
}

// writeAccounting prints one job as bacct does: with long, its history
// and completion, then its times.
func writeAccounting(w io.Writer, j *api.Job, long bool, loc *time.Location) {
	j = &textJobs([]api.Job{*j})[0]
	fmt.Fprintf(w, "\nJob <%d>, Job Name <%s>, User <%s>, Project <default>, Status <%s>, Queue <%s>, Command <%s>\n",
		j.ID, jobName(j), j.User, j.State, j.Queue, oneLine(j.Command))
	if !long {
		return
	}
	fmt.Fprintf(w, "%s: Submitted from host <%s>, CWD <%s>;\n", lsfLongTime(j.Submit, loc), j.FromHost, j.Cwd)
	if j.Start != 0 {
		fmt.Fprintf(w, "%s: Dispatched %d Task(s) on Host(s) <%s>;\n", lsfLongTime(j.Start, loc), j.Slots,
			strings.Join(execGroups(j.ExecHosts), "> <"))
	}
	switch j.State {
	case "DONE":
		fmt.Fprintf(w, "%s: Completed <done>.\n", lsfLongTime(j.End, loc))
	case "EXIT":
		if j.Term != "" {
			fmt.Fprintf(w, "%s: Completed <exit>; %s.\n", lsfLongTime(j.End, loc), termReason(j.Term))
		} else {
			fmt.Fprintf(w, "%s: Completed <exit>.\n", lsfLongTime(j.End, loc))
		}
	default:
		return
	}
	wait, run := float64(0), float64(0)
	if j.Start != 0 {
		wait, run = float64(j.Start-j.Submit), float64(j.End-j.Start)
	} else {
		wait = float64(j.End - j.Submit)
	}
	fmt.Fprintf(w, "\nSummary of time in seconds spent in various states:\n")
	mem := "-"
	if j.MaxMem > 0 {
		mem = lsfMbytes(j.MaxMem)
	}
	fmt.Fprintf(w, "  %-10s %-10s %-10s %-10s %-10s %s\n", "CPU_T", "WAIT", "TURNAROUND", "RUN", "EXIT_CODE", "MAX_MEM")
	fmt.Fprintf(w, "  %-10.2f %-10.0f %-10.0f %-10.0f %-10d %s\n", j.CPUTime, wait, float64(j.End-j.Submit), run, j.ExitCode, mem)
}

// bacctRefusedOptions returns the options LSF 10.1 documents for bacct that lsfc does
// not implement, each with the shape of its argument ("" for a switch).
func bacctRefusedOptions() []lsfOption {
	return []lsfOption{
		{"aff", ""}, {"app", "application_profile"}, {"b", ""}, {"C", "time0,time1"}, {"cname", ""},
		{"D", "time0,time1"}, {"d", ""}, {"E", ""}, {"e", ""}, {"f", "logfile"}, {"gpu", ""}, {"Lp", "license_project"},
		{"M", "host_group"}, {"m", "host"}, {"N", "host_spec"}, {"P", "project"}, {"q", "queue"}, {"rcacct", "accounts"}, {"rcalloc", "accounts"},
		{"S", "time0,time1"}, {"sla", "service_class"}, {"U", "reservation_id"}, {"UF", ""}, {"u", "user"},
		{"V", ""}, {"w", ""}, {"x", ""},
	}
}
