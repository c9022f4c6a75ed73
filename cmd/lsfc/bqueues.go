package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/lsfc/lsfc/runtime/api"
)

func newBqueuesCmd(e env) *lsfCommand {
	s := lsfSpec{
		name:     "bqueues",
		refused:  bqueuesRefusedOptions(),
		short:    "List the queues of lsfc serve",
		operands: "[QUEUE ...]",
		options:  []lsfOption{{"l", ""}, {"r", ""}, {"w", ""}, {"json", ""}},
		long: `bqueues lists the queues, or those named, in LSF's layout:

  QUEUE_NAME      PRIO STATUS          MAX JL/U JL/P JL/H NJOBS  PEND   RUN  SUSP

MAX, JL/U, JL/P and JL/H are QJOB_LIMIT, UJOB_LIMIT, PJOB_LIMIT and
HJOB_LIMIT, "-" for none; the job counts are in slots. -l shows each queue
as the running configuration defines it, in LSF's long layout: its
description; PARAMETERS/STATISTICS with NICE, the suspended slots split
into SSUSP and USUSP, RSV (the slots its pending jobs reserve) and
JOB_ACCEPT_INTERVAL; DEFAULT LIMITS and MAXIMUM LIMITS (RUNLIMIT and
CPULIMIT in minutes, the memory limits in MB); SCHEDULING PARAMETERS, the
loadSched and loadStop thresholds of every load index; SCHEDULING
POLICIES (FAIRSHARE, PREEMPTIVE, EXCLUSIVE, BACKFILL ...) and the
maximum slot or resource reservation time (SLOT_RESERVE, RESOURCE_RESERVE);
then USERS, HOSTS
(groups end in "/"), ADMINISTRATORS, RES_REQ, RUN_WINDOW,
DISPATCH_WINDOW, "RERUNNABLE :  yes" and the other parameters the queue
sets, one a line as written (SLOT_POOL, SLOT_SHARE, PRE_EXEC, POST_EXEC,
HOST_PRE_EXEC, HOST_POST_EXEC, REQUEUE_EXIT_VALUES, SUCCESS_EXIT_VALUES,
JOB_STARTER, CHKPNT, JOB_CONTROLS, TERMINATE_WHEN, STOP_COND, RESUME_COND,
JOB_IDLE, JOB_OVERRUN, JOB_UNDERRUN ...). For a fairshare queue it shows its USER_SHARES and the
accounts of the top level of its share tree (SHARE_INFO_FOR: queue/) with
SHARES, dynamic PRIORITY, STARTED (slots of running and suspended jobs),
RESERVED (always 0), CPU_TIME (decayed, seconds) and RUN_TIME (of
started jobs, seconds); a group with a share tree of its own is shown as
"group/". -r shows the same, and every level of the tree
below (SHARE_INFO_FOR: queue/group/ ...), depth first. -w cuts no name; -json prints
{"COMMAND":"bqueues","QUEUES":N,"RECORDS":[...]} with the columns as keys
(QUEUE_NAME, PRIORITY, STATUS, MAX, JL_U, JL_P, JL_H, NJOBS, PEND, RUN,
SUSP) and string values. A queue that does not exist is reported as
"QUEUE: No such queue", and bqueues exits 255.` + lsfStateHelp,
		example: `  lsfc bqueues
  bqueues -l normal`,
	}
	return newLSFCmd(e, s, func(ctx context.Context, a *lsfArgs) error {
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
	qs = textSafe(qs)
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

// writeQueuesLong prints bqueues -l in LSF 10.1's layout: the queue's
// statistics, limits, load thresholds, policies and share tree (every
// level of it when recursive, -r), then its users, hosts and
// requirements.
func writeQueuesLong(w io.Writer, qs []api.Queue, recursive bool) {
	qs = textSafe(qs)
	for i, q := range qs {
		if i > 0 {
			fmt.Fprintln(w, "-------------------------------------------------------------------------------")
		}
		fmt.Fprintf(w, "\nQUEUE: %s\n", q.Name)
		if q.Description != "" {
			fmt.Fprintf(w, "  -- %s\n", q.Description)
		}
		fmt.Fprintf(w, "\nPARAMETERS/STATISTICS\n")
		fmt.Fprintln(w, "PRIO NICE STATUS          MAX JL/U JL/P JL/H NJOBS  PEND   RUN SSUSP USUSP  RSV")
		fmt.Fprintf(w, "%4d %4d %-16s%3s %4s %4s %4s %5d %5d %5d %5d %5d %4d\n", q.Priority, q.Nice, q.Status,
			limit(q.Max), limit(q.JLU), floatLimit(q.JLP), limit(q.JLH), q.NJobs, q.Pend, q.Run, q.SSusp, q.USusp, q.Rsv)
		fmt.Fprintf(w, "Interval for a host to accept two jobs is %s seconds\n\n",
			strconv.FormatFloat(q.AcceptInterval, 'f', -1, 64))
		writeQueueLimits(w, q.Limits)
		writeThresholds(w, q.Thresholds)
		writeShareInfo(w, q, recursive)
		fmt.Fprintf(w, "USERS: %s\n", allOr(q.Users))
		fmt.Fprintf(w, "HOSTS:  %s\n", allOr(q.Hosts))
		if len(q.Administrators) > 0 {
			fmt.Fprintf(w, "ADMINISTRATORS:  %s\n", strings.Join(q.Administrators, " "))
		}
		if q.ResReq != "" {
			fmt.Fprintf(w, "RES_REQ:  %s\n", q.ResReq)
		}
		if q.RunWindow != "" {
			fmt.Fprintf(w, "RUN_WINDOW:  %s\n", q.RunWindow)
		}
		if q.DispatchWindow != "" {
			fmt.Fprintf(w, "DISPATCH_WINDOW:  %s\n", q.DispatchWindow)
		}
		for _, p := range q.Params {
			if p.Name == "RERUNNABLE" {
				// LSF's own spacing.
				fmt.Fprintf(w, "RERUNNABLE :  %s\n", p.Value)
				continue
			}
			fmt.Fprintf(w, "%s:  %s\n", p.Name, p.Value)
		}
		fmt.Fprintln(w)
	}
}

// allOr joins a list of names, "all" when it is empty.
func allOr(names []string) string {
	if len(names) == 0 {
		return "all"
	}
	return strings.Join(names, " ")
}

// writeQueueLimits prints a queue's resource usage limits: those with a
// default under DEFAULT LIMITS, every one under MAXIMUM LIMITS. A time
// limit or TASKLIMIT is a heading line and a value line; the size and
// count limits share one row of headings and one of values.
func writeQueueLimits(w io.Writer, ls []api.QueueLimit) {
	var defaults []api.QueueLimit
	for _, l := range ls {
		if l.Default > 0 {
			defaults = append(defaults, api.QueueLimit{Name: l.Name, Max: l.Default, Unit: l.Unit, Spec: l.Spec})
		}
	}
	if len(defaults) > 0 {
		fmt.Fprintln(w, " DEFAULT LIMITS:")
		writeLimitRows(w, defaults)
	}
	if len(ls) > 0 {
		fmt.Fprintln(w, " MAXIMUM LIMITS:")
		writeLimitRows(w, ls)
	}
}

// writeLimitRows prints limits by their Max, in their order.
func writeLimitRows(w io.Writer, ls []api.QueueLimit) {
	var heads, vals []string
	for _, l := range ls {
		v := strconv.FormatFloat(l.Max, 'f', -1, 64)
		switch l.Unit {
		case "min":
			v = strconv.FormatFloat(l.Max, 'f', 1, 64) + " min"
			if l.Spec != "" {
				v += " of " + l.Spec
			}
		case "M":
			v += " M"
		}
		switch l.Name {
		case "RUNLIMIT", "CPULIMIT", "TASKLIMIT", "PROCLIMIT":
			fmt.Fprintf(w, " %s\n %s\n\n", l.Name, v)
		default:
			width := max(len(l.Name), len(v))
			heads = append(heads, fmt.Sprintf("%-*s", width, l.Name))
			vals = append(vals, fmt.Sprintf("%-*s", width, v))
		}
	}
	if len(heads) > 0 {
		fmt.Fprintf(w, " %s\n %s\n\n", strings.TrimRight(strings.Join(heads, " "), " "),
			strings.TrimRight(strings.Join(vals, " "), " "))
	}
}

// loadIndexNames are LSF's built-in load indices, in the order of the
// SCHEDULING PARAMETERS table.
var loadIndexNames = [...]string{"r15s", "r1m", "r15m", "ut", "pg", "io", "ls", "it", "tmp", "swp", "mem"}

// writeThresholds prints SCHEDULING PARAMETERS: a loadSched and a
// loadStop row under every built-in load index ("-" where the queue
// sets none), and a second table for the other indices the queue sets a
// threshold on, in name order.
func writeThresholds(w io.Writer, ths map[string]api.Threshold) {
	fmt.Fprintln(w, "SCHEDULING PARAMETERS")
	writeThresholdTable(w, loadIndexNames[:], ths)
	var others []string
	for name := range ths {
		if !slices.Contains(loadIndexNames[:], name) {
			others = append(others, name)
		}
	}
	if len(others) > 0 {
		slices.Sort(others)
		writeThresholdTable(w, others, ths)
	}
}

// writeThresholdTable prints one table of thresholds for the named load
// indices, each column as wide as its name or widest value.
func writeThresholdTable(w io.Writer, names []string, ths map[string]api.Threshold) {
	show := func(x *float64) string {
		if x == nil {
			return "-"
		}
		return strconv.FormatFloat(*x, 'f', -1, 64)
	}
	head, sched, stop := fmt.Sprintf("%-10s", ""), fmt.Sprintf(" %-9s", "loadSched"), fmt.Sprintf(" %-9s", "loadStop")
	for _, name := range names {
		th := ths[name]
		a, b := show(th.Sched), show(th.Stop)
		width := max(6, len(name)+1, len(a)+1, len(b)+1)
		head += fmt.Sprintf(" %*s", width, name)
		sched += fmt.Sprintf(" %*s", width, a)
		stop += fmt.Sprintf(" %*s", width, b)
	}
	fmt.Fprintf(w, "%s\n%s\n%s\n\n", head, sched, stop)
}

// writeShareInfo prints a queue's scheduling policies and, for a
// fairshare queue, its USER_SHARES and its share tree: the top level, or
// every level when recursive.
func writeShareInfo(w io.Writer, q api.Queue, recursive bool) {
	if len(q.Policies) == 0 && len(q.Shares) == 0 && q.UserShares == "" && q.ReserveTime == 0 {
		return
	}
	if len(q.Policies) > 0 {
		fmt.Fprintf(w, "SCHEDULING POLICIES:  %s\n", strings.Join(q.Policies, "  "))
	}
	if q.ReserveTime > 0 {
		kind := "slot"
		if q.ReserveResources {
			kind = "resource"
		}
		fmt.Fprintf(w, "Maximum %s reservation time: %s seconds\n", kind, strconv.FormatFloat(q.ReserveTime, 'f', -1, 64))
	}
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

// bqueuesRefusedOptions returns the options LSF 10.1 documents for bqueues that lsfc does
// not implement, each with the shape of its argument ("" for a switch).
func bqueuesRefusedOptions() []lsfOption {
	return []lsfOption{
		{"alloc", ""}, {"lr", ""}, {"m", "host"}, {"noheader", ""}, {"o", "format"}, {"u", "user"}, {"V", ""},
	}
}
