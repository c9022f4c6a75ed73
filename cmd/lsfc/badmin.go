package main

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/lsfc/lsfc/runtime/api"
	"github.com/spf13/cobra"
)

func newBadminCmd(e env) *cobra.Command {
	s := lsfSpec{
		name:     "badmin",
		short:    "Administer lsfc serve: open and close queues and hosts, show its status",
		operands: "SUBCOMMAND [NAME ...]",
		long: `badmin administers the daemon, as LSF's badmin does for mbatchd:

  qopen QUEUE ...    open queues: they accept jobs again
  qclose QUEUE ...   close queues: they accept no new job
  qact QUEUE ...     activate queues: their jobs are dispatched again
  qinact QUEUE ...   inactivate queues: their pending jobs stay pending
  hopen HOST ...     open hosts
  hclose HOST ...    close hosts: no new job is dispatched to them
  showstatus         the daemon's cluster, state directory, configuration
                     generation and job counts

Each change prints the daemon's answer ("Queue <normal> is closed"), or
why it cannot be made on standard error (QUEUE: No such queue,
Queue <normal>: User permission denied), and badmin exits 255 when any
failed. Queue operations need a cluster or queue administrator, host
operations a cluster administrator.` + lsfStateHelp,
		example: `  lsfc badmin qclose night
  badmin hclose hostA hostB
  badmin showstatus`,
	}
	return newLSFCmd(s, func(ctx context.Context, a *lsfArgs) error {
		if len(a.operands) == 0 {
			return usageError("badmin: give a subcommand: qopen, qclose, qact, qinact, hopen, hclose or showstatus")
		}
		sub, names := a.operands[0], a.operands[1:]
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
		op, onQueue, ok := badminOp(sub)
		if !ok {
			return usageError("badmin: unknown subcommand %q (want qopen, qclose, qact, qinact, hopen, hclose or showstatus)", sub)
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
	fmt.Fprintln(w, "lsfc serve runtime information")
	row := func(k, v string) { fmt.Fprintf(w, "  %-28s%s\n", k+":", v) }
	row("Cluster name", st.Cluster)
	row("Master host", st.Master)
	row("State directory", st.StateDir)
	row("Daemon version", st.Version)
	if st.Started != 0 {
		row("Latest daemon start", time.Unix(st.Started, 0).In(loc).Format("Mon Jan _2 15:04:05 2006"))
	}
	row("Configuration generation", fmt.Sprint(st.Generation))
	if st.LogRecovered != "" {
		row("Event log recovery", st.LogRecovered)
	}
	fmt.Fprintln(w)
	row("Number of jobs", fmt.Sprint(st.Jobs))
	row("  Running", fmt.Sprint(st.Running))
	row("  Pending", fmt.Sprint(st.Pending))
}
