package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/lsfc/lsfc/runtime/api"
)

func newBslaCmd(e env) *lsfCommand {
	s := lsfSpec{
		name:     "bsla",
		refused:  bslaRefusedOptions(),
		short:    "Show the service classes of lsfc serve and their goals",
		operands: "[service_class_name ...]",
		options:  []lsfOption{{"json", ""}},
		long: `bsla shows the service classes of lsb.serviceclasses, or those named: the
description, PRIORITY and USER_GROUP, then each goal with its active
windows ("Always Open" without), its status (Active:On time,
Active:Delayed, or Inactive when its windows are closed), the jobs the
class finished over the last hour (SLA THROUGHPUT, in jobs per hour
rather than per CLEAN_PERIOD), for a deadline the estimated finish time,
and the optimum number of running jobs; then the class's jobs by state.
-json prints one record per class.` + lsfStateHelp,
		example: `  lsfc bsla
  bsla nightly`,
	}
	return newLSFCmd(e, s, func(ctx context.Context, a *lsfArgs) error {
		c, err := dialDaemon(e, a)
		if err != nil {
			return lsfFailed(e, "bsla", err)
		}
		all, err := c.ServiceClasses(ctx)
		if err != nil {
			return lsfFailed(e, "bsla", err)
		}
		classes, missing := pickNamed(all, a.operands, func(s api.ServiceClass) string { return s.Name })
		if a.has("json") {
			if err := writeLSFJSON(e.stdout, "bsla", "SERVICE_CLASSES", slaRecords(classes)); err != nil {
				return exit(exitUsage, err)
			}
		} else {
			writeServiceClasses(e.stdout, classes)
		}
		for _, name := range missing {
			fmt.Fprintf(e.stderr, "%s: No such service class\n", name)
		}
		if len(missing) > 0 {
			return exit(exitLSF, nil)
		}
		return nil
	})
}

// writeServiceClasses prints bsla's long form, one class after another.
func writeServiceClasses(w io.Writer, classes []api.ServiceClass) {
	classes = textSafe(classes)
	if len(classes) == 0 {
		fmt.Fprintln(w, "No service class found")
		return
	}
	for i, s := range classes {
		if i > 0 {
			fmt.Fprintln(w, strings.Repeat("-", 78))
		}
		fmt.Fprintf(w, "SERVICE CLASS NAME:  %s\n", s.Name)
		fmt.Fprintf(w, " -- %s\n", s.Description)
		if s.Guarantee {
			fmt.Fprintf(w, "\nGOAL:  GUARANTEE\n\n")
		} else {
			fmt.Fprintf(w, "PRIORITY:  %d\n", s.Priority)
			if len(s.UserGroup) > 0 {
				fmt.Fprintf(w, "USER_GROUP:  %s\n", strings.Join(s.UserGroup, " "))
			}
			if s.ControlAction != "" {
				fmt.Fprintf(w, "CONTROL_ACTION:  %s\n", s.ControlAction)
			}
		}
		for _, g := range s.Goals {
			fmt.Fprintln(w)
			goal := g.Kind
			if g.Kind != "DEADLINE" {
				goal += " " + strconv.FormatFloat(g.Target, 'g', -1, 64)
			}
			fmt.Fprintf(w, "GOAL:  %s\n", goal)
			window := "Always Open"
			if len(g.Windows) > 0 {
				window = "(" + strings.Join(g.Windows, " ") + ")"
			}
			fmt.Fprintf(w, "ACTIVE WINDOW:  %s\n", window)
			fmt.Fprintf(w, "STATUS:  %s\n", g.Status)
			if g.Kind == "THROUGHPUT" || g.Kind == "VELOCITY" {
				fmt.Fprintf(w, "SLA THROUGHPUT:  %.2f JOBS/HOUR\n", float64(s.FinishedLastHour))
			}
			if g.Kind == "DEADLINE" && g.Finish > 0 {
				fmt.Fprintf(w, "ESTIMATED FINISH TIME:  (%s)\n", time.Unix(int64(g.Finish), 0).Format("Mon Jan _2 15:04"))
			}
			if g.Status != "Inactive" {
				fmt.Fprintf(w, "OPTIMUM NUMBER OF RUNNING JOBS:  %d\n", g.Optimum)
			}
		}
		fmt.Fprintln(w)
		fmt.Fprintf(w, "%-7s %-7s %-7s %-7s %-7s %s\n", "NJOBS", "PEND", "RUN", "SSUSP", "USUSP", "FINISH")
		fmt.Fprintf(w, "%-7d %-7d %-7d %-7d %-7d %d\n", s.NJobs, s.Pend, s.Run, s.SSusp, s.USusp, s.Finish)
	}
}

// slaRecords returns the classes as bsla -json's records.
func slaRecords(classes []api.ServiceClass) []lsfRecord {
	out := make([]lsfRecord, 0, len(classes))
	for _, s := range classes {
		var goals, statuses []string
		for _, g := range s.Goals {
			goal := g.Kind
			if g.Kind != "DEADLINE" {
				goal += " " + strconv.FormatFloat(g.Target, 'g', -1, 64)
			}
			goals = append(goals, goal)
			statuses = append(statuses, g.Status)
		}
		if s.Guarantee {
			goals = []string{"GUARANTEE"}
		}
		out = append(out, lsfRecord{
			{"SERVICE_CLASS_NAME", s.Name}, {"PRIORITY", strconv.Itoa(s.Priority)},
			{"GOALS", strings.Join(goals, "; ")}, {"STATUS", strings.Join(statuses, "; ")},
			{"OPTIMUM", strconv.Itoa(s.Optimum)}, {"NJOBS", strconv.Itoa(s.NJobs)}, {"PEND", strconv.Itoa(s.Pend)},
			{"RUN", strconv.Itoa(s.Run)}, {"SSUSP", strconv.Itoa(s.SSusp)}, {"USUSP", strconv.Itoa(s.USusp)},
			{"FINISH", strconv.Itoa(s.Finish)},
		})
	}
	return out
}

// bslaRefusedOptions returns the options LSF 10.1 documents for bsla that lsfc does
// not implement, each with the shape of its argument ("" for a switch).
func bslaRefusedOptions() []lsfOption {
	return []lsfOption{
		{"N", ""}, {"V", ""},
	}
}
