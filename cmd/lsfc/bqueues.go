package main

import (
	"context"
	"fmt"
	"io"
	"strconv"

	"github.com/lsfc/lsfc/runtime/api"
	"github.com/spf13/cobra"
)

func newBqueuesCmd(e env) *cobra.Command {
	s := lsfSpec{
		name:     "bqueues",
		short:    "List the queues of lsfc serve",
		operands: "[QUEUE ...]",
		options:  []lsfOption{{"l", ""}, {"w", ""}, {"json", ""}},
		long: `bqueues lists the queues, or those named, in LSF's layout:

  QUEUE_NAME      PRIO STATUS          MAX JL/U JL/P JL/H NJOBS  PEND   RUN  SUSP

MAX, JL/U, JL/P and JL/H are QJOB_LIMIT, UJOB_LIMIT, PJOB_LIMIT and
HJOB_LIMIT, "-" for none; the job counts are in slots. -l shows each queue
with its description; -w cuts no name; -json prints
{"COMMAND":"bqueues","QUEUES":N,"RECORDS":[...]} with the columns as keys
(QUEUE_NAME, PRIORITY, STATUS, MAX, JL_U, JL_P, JL_H, NJOBS, PEND, RUN,
SUSP) and string values. A queue that does not exist is reported as
"QUEUE: No such queue", and bqueues exits 255.` + lsfStateHelp,
		example: `  lsfc bqueues
  bqueues -l normal`,
	}
	return newLSFCmd(s, func(ctx context.Context, a *lsfArgs) error {
		c, err := dialDaemon(e, a)
		if err != nil {
			return lsfFailed(e, "bqueues", err)
		}
		all, err := c.Queues(ctx)
		if err != nil {
			return lsfFailed(e, "bqueues", err)
		}
		qs, missing := pickNamed(all, a.operands, func(q api.Queue) string { return q.Name })
		switch {
		case a.has("json"):
			if err := writeLSFJSON(e.stdout, "bqueues", "QUEUES", queueRecords(qs)); err != nil {
				return exit(exitUsage, err)
			}
		case len(qs) == 0:
		case a.has("l"):
			writeQueuesLong(e.stdout, qs)
		default:
			writeQueues(e.stdout, qs, a.has("w"))
		}
		for _, name := range missing {
			fmt.Fprintf(e.stderr, "%s: No such queue\n", name)
		}
		if len(missing) > 0 {
			return exit(exitLSF, nil)
		}
		return nil
	})
}

const (
	queuesHeader = "QUEUE_NAME      PRIO STATUS          MAX JL/U JL/P JL/H NJOBS  PEND   RUN  SUSP"
	queuesRow    = "%-15s %3d  %-16s%3s %4s %4s %4s %5d %5d %5d %5d\n"
)

// writeQueues prints bqueues's table; names longer than 15 are cut unless
// wide.
func writeQueues(w io.Writer, qs []api.Queue, wide bool) {
	fmt.Fprintln(w, queuesHeader)
	for _, q := range qs {
		name := q.Name
		if !wide {
			name = cutEnd(name, 15)
		}
		fmt.Fprintf(w, queuesRow, name, q.Priority, q.Status, limit(q.Max), limit(q.JLU),
			floatLimit(q.JLP), limit(q.JLH), q.NJobs, q.Pend, q.Run, q.Susp)
	}
}

// writeQueuesLong prints bqueues -l.
func writeQueuesLong(w io.Writer, qs []api.Queue) {
	for i, q := range qs {
		if i > 0 {
			fmt.Fprintln(w, "-------------------------------------------------------------------------------")
		}
		fmt.Fprintf(w, "\nQUEUE: %s\n", q.Name)
		if q.Description != "" {
			fmt.Fprintf(w, "  -- %s\n", q.Description)
		}
		fmt.Fprintf(w, "\nPARAMETERS/STATISTICS\n")
		fmt.Fprintln(w, "PRIO STATUS          MAX JL/U JL/P JL/H NJOBS  PEND   RUN  SUSP")
		fmt.Fprintf(w, "%4d %-16s%3s %4s %4s %4s %5d %5d %5d %5d\n\n", q.Priority, q.Status, limit(q.Max),
			limit(q.JLU), floatLimit(q.JLP), limit(q.JLH), q.NJobs, q.Pend, q.Run, q.Susp)
	}
}

// queueRecords returns the queues as bqueues -json's records.
func queueRecords(qs []api.Queue) []lsfRecord {
	out := make([]lsfRecord, 0, len(qs))
	for _, q := range qs {
		out = append(out, lsfRecord{
			{"QUEUE_NAME", q.Name}, {"PRIORITY", strconv.Itoa(q.Priority)}, {"STATUS", q.Status},
			{"MAX", noLimit(limit(q.Max))}, {"JL_U", noLimit(limit(q.JLU))},
			{"JL_P", noLimit(floatLimit(q.JLP))}, {"JL_H", noLimit(limit(q.JLH))},
			{"NJOBS", strconv.Itoa(q.NJobs)}, {"PEND", strconv.Itoa(q.Pend)},
			{"RUN", strconv.Itoa(q.Run)}, {"SUSP", strconv.Itoa(q.Susp)},
		})
	}
	return out
}

// limit shows a limit, "-" when there is none (zero or less).
func limit(n int) string {
	if n <= 0 {
		return "-"
	}
	return strconv.Itoa(n)
}

// floatLimit shows a limit that may be fractional (JL/P), "-" when there
// is none.
func floatLimit(f float64) string {
	if f <= 0 {
		return "-"
	}
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// noLimit turns the "-" of a table into the "" of JSON.
func noLimit(s string) string {
	if s == "-" {
		return ""
	}
	return s
}
