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
		options:  []lsfOption{{"l", ""}, {"r", ""}, {"w", ""}, {"json", ""}},
		long: `bqueues lists the queues, or those named, in LSF's layout:

  QUEUE_NAME      PRIO STATUS          MAX JL/U JL/P JL/H NJOBS  PEND   RUN  SUSP

MAX, JL/U, JL/P and JL/H are QJOB_LIMIT, UJOB_LIMIT, PJOB_LIMIT and
HJOB_LIMIT, "-" for none; the job counts are in slots. -l shows each queue
with its description and, for a fairshare queue, its USER_SHARES and the
accounts of the top level of its share tree (SHARE_INFO_FOR: queue/) with
SHARES, dynamic PRIORITY, STARTED (slots of running and suspended jobs),
RESERVED (always 0: lsfc reserves no slots), CPU_TIME (decayed, seconds)
and RUN_TIME (of started jobs, seconds); a group with a share tree of its
own is shown as "group/". -r shows the same, and every level of the tree
below (SHARE_INFO_FOR: queue/group/ ...), depth first. -w cuts no name; -json prints
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
		case a.has("l") || a.has("r"):
			writeQueuesLong(e.stdout, qs, a.has("r"))
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

// writeQueuesLong prints bqueues -l, with every level of the share trees
// when recursive (-r).
func writeQueuesLong(w io.Writer, qs []api.Queue, recursive bool) {
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
		writeShareInfo(w, q, recursive)
	}
}

// writeShareInfo prints a fairshare queue's scheduling policy, its
// USER_SHARES and its share tree: the top level, or every level when
// recursive.
func writeShareInfo(w io.Writer, q api.Queue, recursive bool) {
	if len(q.Shares) == 0 && q.UserShares == "" {
		return
	}
	fmt.Fprintln(w, "SCHEDULING POLICIES:  FAIRSHARE")
	if q.UserShares != "" {
		fmt.Fprintf(w, "USER_SHARES:  %s\n", q.UserShares)
	}
	fmt.Fprintln(w)
	for _, l := range q.Shares {
		if l.Path != "" && !recursive {
			break
		}
		path := q.Name + "/"
		if l.Path != "" {
			path += l.Path + "/"
		}
		fmt.Fprintf(w, "SHARE_INFO_FOR: %s\n", path)
		fmt.Fprintln(w, shareHeader)
		for _, a := range l.Accounts {
			name := a.Name
			if a.Group {
				name += "/"
			}
			fmt.Fprintf(w, shareRow, name, strconv.FormatFloat(a.Shares, 'f', -1, 64), a.Priority, a.Started,
				a.Reserved, a.CPUTime, a.RunTime)
		}
		fmt.Fprintln(w)
	}
}

const (
	shareHeader = " USER/GROUP   SHARES  PRIORITY  STARTED  RESERVED  CPU_TIME  RUN_TIME"
	shareRow    = " %-12s %6s %9.3f %8d %9d %9.1f %9.0f\n"
)

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
