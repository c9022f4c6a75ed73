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

func newBadminCmd(e env) *lsfCommand {
	s := lsfSpec{
		name:     "badmin",
		refused:  badminRefusedOptions(),
		short:    "Administer lsfc serve: open and close queues and hosts, show its status",
		operands: "SUBCOMMAND [NAME ...]",
		long: `badmin administers the daemon, as LSF's badmin does for mbatchd:

  qopen QUEUE ...    open queues: they accept jobs again
  qclose QUEUE ...   close queues: they accept no new job
  qact QUEUE ...     activate queues: their jobs are dispatched again
  qinact QUEUE ...   inactivate queues: their pending jobs stay pending
  hopen HOST ...     open hosts
  hclose HOST ...    close hosts: no new job is dispatched to them
  reconfig [-v]      read the configuration again, with the checks of
                     lsfc check, and adopt it only if it has no error;
                     print the errors (-v: the warnings too) and what
                     changed; exit 255 when it is refused
  showstatus         the daemon's cluster, state directory, configuration
                     generation, last reconfiguration and job counts
  perfmon view       the requests the daemon has served since it started,
                     by kind (submit, job query, job list ...): how many,
                     and their response times (median, 90th and 99th
                     percentiles over the latest 10000 of each kind, and
                     the longest); the daemon always counts, so there is
                     no perfmon start or stop

Each change prints the daemon's answer ("Queue <normal> is closed"), or
why it cannot be made on standard error (QUEUE: No such queue,
Queue <normal>: User permission denied), and badmin exits 255 when any
failed. Queue operations need a cluster or queue administrator, host
operations a cluster administrator.` + lsfStateHelp,
		example: `  lsfc badmin qclose night
  badmin hclose hostA hostB
  badmin showstatus`,
	}
	s.options = []lsfOption{{"v", ""}}
	return newLSFCmd(e, s, func(ctx context.Context, a *lsfArgs) error {
		if len(a.operands) == 0 {
			return usageError("badmin: give a subcommand: qopen, qclose, qact, qinact, hopen, hclose, reconfig or showstatus")
		}
		sub, names := a.operands[0], a.operands[1:]
		if sub == "reconfig" {
			if len(names) > 0 {
				return usageError("badmin reconfig: unexpected argument %q", names[0])
			}
			c, err := dialDaemon(e, a)
			if err != nil {
				return lsfFailed(e, "badmin", err)
			}
			r, err := c.Reconfig(ctx)
			if err != nil {
				return lsfFailed(e, "badmin", err)
			}
			if !writeReconfig(e.stdout, e.stderr, r, a.has("v")) {
				return exit(exitLSF, nil)
			}
			return nil
		}
		if sub == "showstatus" {
			if len(names) > 0 {
				return usageError("badmin showstatus: unexpected argument %q", names[0])
			}
			c, err := dialDaemon(e, a)
			if err != nil {
				return lsfFailed(e, "badmin", err)
			}
			st, err := c.Status(ctx)
			if err != nil {
				return lsfFailed(e, "badmin", err)
			}
			writeShowStatus(e.stdout, st, time.Local)
			return nil
		}
		if sub == "perfmon" {
			if len(names) != 1 || names[0] != "view" {
				return usageError("badmin perfmon: only perfmon view is offered (the daemon always counts)")
			}
			c, err := dialDaemon(e, a)
			if err != nil {
				return lsfFailed(e, "badmin", err)
			}
			p, err := c.Perf(ctx)
			if err != nil {
				return lsfFailed(e, "badmin", err)
			}
			writePerfmon(e.stdout, p, time.Local)
			return nil
		}
		op, onQueue, ok := badminOp(sub)
		if !ok {
			return usageError("badmin: unknown subcommand %q (want qopen, qclose, qact, qinact, hopen, hclose, reconfig, showstatus or perfmon)", sub)
		}
		if len(names) == 0 {
			what := "host"
			if onQueue {
				what = "queue"
			}
			return usageError("badmin %s: give the %s names", sub, what)
		}
		c, err := dialDaemon(e, a)
		if err != nil {
			return lsfFailed(e, "badmin", err)
		}
		failed := false
		for _, n := range names {
			var resp *api.ActionResponse
			if onQueue {
				resp, err = c.QueueOp(ctx, n, op)
			} else {
				resp, err = c.HostOp(ctx, n, op)
			}
			if err != nil {
				printLSFError(e, "badmin", err)
				failed = true
				continue
			}
			fmt.Fprintln(e.stdout, resp.Message)
		}
		if failed {
			return exit(exitLSF, nil)
		}
		return nil
	})
}

// badminOp returns the API operation of a badmin subcommand and whether it
// applies to queues (else hosts).
func badminOp(sub string) (op string, onQueue, ok bool) {
	switch sub {
	case "qopen":
		return "open", true, true
	case "qclose":
		return "close", true, true
	case "qact":
		return "activate", true, true
	case "qinact":
		return "inactivate", true, true
	case "hopen":
		return "open", false, true
	case "hclose":
		return "close", false, true
	}
	return "", false, false
}

// writeShowStatus prints badmin showstatus.
func writeShowStatus(w io.Writer, st *api.Status, loc *time.Location) {
	st = textSafe(st)
	fmt.Fprintln(w, "lsfc serve runtime information")
	row := func(k, v string) { fmt.Fprintf(w, "  %-28s%s\n", k+":", v) }
	row("Cluster name", st.Cluster)
	row("Master host", st.Master)
	row("State directory", st.StateDir)
	if st.EventLog != "" {
		row("Event log", st.EventLog)
	}
	row("Daemon version", st.Version)
	if st.Started != 0 {
		row("Latest daemon start", time.Unix(st.Started, 0).In(loc).Format("Mon Jan _2 15:04:05 2006"))
	}
	row("Configuration generation", fmt.Sprint(st.Generation))
	if st.LogRecovered != "" {
		row("Event log recovery", st.LogRecovered)
	}
	if r := st.LastReload; r != nil {
		outcome := "adopted"
		if !r.OK {
			outcome = fmt.Sprintf("refused (%d diagnostics; the previous configuration serves)", len(r.Diagnostics))
		}
		row("Latest reconfiguration", time.Unix(r.Time, 0).In(loc).Format("Mon Jan _2 15:04:05 2006")+", "+r.Trigger+": "+outcome)
		for _, d := range r.Diagnostics {
			fmt.Fprintf(w, "    %s\n", d)
		}
	}
	fmt.Fprintln(w)
	row("Number of jobs", fmt.Sprint(st.Jobs))
	row("  Running", fmt.Sprint(st.Running))
	row("  Pending", fmt.Sprint(st.Pending))
	if len(st.Peers) > 0 {
		fmt.Fprintln(w)
		for _, p := range st.Peers {
			state := "answers"
			if !p.Up {
				state = "does not answer"
			}
			row("MultiCluster peer "+p.Cluster, fmt.Sprintf("%s, %d job(s) forwarded there", state, p.Forwarded))
		}
	}
}

// writePerfmon prints badmin perfmon view.
func writePerfmon(w io.Writer, p *api.Perf, loc *time.Location) {
	p = textSafe(p)
	fmt.Fprintf(w, "Requests served since %s\n\n", time.Unix(p.Since, 0).In(loc).Format("Mon Jan _2 15:04:05 2006"))
	ms := func(s float64) string { return strconv.FormatFloat(s*1000, 'f', 2, 64) }
	const row = "%-14s %9s %9s %9s %9s %9s\n"
	fmt.Fprintf(w, row, "REQUEST", "COUNT", "P50_MS", "P90_MS", "P99_MS", "MAX_MS")
	for _, r := range p.Requests {
		fmt.Fprintf(w, row, r.Kind, strconv.FormatInt(r.Count, 10), ms(r.P50), ms(r.P90), ms(r.P99), ms(r.Max))
	}
}

// writeReconfig prints the outcome of badmin reconfig: the errors (and
// with verbose the warnings) on stderr, then the changes and the verdict;
// it reports whether the configuration was adopted.
func writeReconfig(stdout, stderr io.Writer, r *api.Reload, verbose bool) bool {
	r = textSafe(r)
	for _, d := range r.Diagnostics {
		if verbose || !strings.Contains(d, ": warning: ") {
			fmt.Fprintln(stderr, d)
		}
	}
	if !r.OK {
		fmt.Fprintf(stderr, "Reconfiguration refused: the configuration has errors; generation %d keeps serving.\n", r.Generation)
		return false
	}
	for _, c := range r.Changes {
		fmt.Fprintf(stdout, "  %s [%s]\n", c.What, c.Applies)
	}
	for _, w := range r.Warnings {
		fmt.Fprintf(stdout, "  %s\n", w)
	}
	fmt.Fprintf(stdout, "Reconfiguration initiated: generation %d, %d changes.\n", r.Generation, len(r.Changes))
	return true
}

// badminRefusedOptions returns the options LSF 10.1 documents for badmin and its subcommands that lsfc does
// not implement, each with the shape of its argument ("" for a switch).
func badminRefusedOptions() []lsfOption {
	return []lsfOption{
		{"C", "comment"}, {"f", ""}, {"V", ""},
	}
}
