package main

import (
	"context"
	"fmt"
	"time"

	"github.com/lsfc/lsfc/runtime/api"
	"github.com/spf13/cobra"
)

func newBpeekCmd(e env) *cobra.Command {
	s := lsfSpec{
		name:     "bpeek",
		options:  bpeekOptions(),
		refused:  bpeekRefusedOptions(),
		short:    "Show the output of an unfinished job of lsfc serve",
		operands: "[JOBID | \"JOBID[INDEX]\"]",
		long: `bpeek shows the output a running job has written so far, after the line

  << output from stdout >>

It is the job's standard output (and its standard error when it has no
-e file of its own): by default the file it is spooled to until the job
ends, or its -o file when lsf.conf sets LSB_STDOUT_DIRECT=Y. It works for
jobs on any host, local or run by an agent (lsfc sbatchd). A job that has
not started, or has finished, has nothing to show: bpeek says so on
standard error and exits 255.

  -f          follow the output as it grows, as tail -f does, until the
              job ends (or goes back to pending)
  -q QUEUE    the caller's most recently submitted unfinished job in QUEUE
  -m HOST     the caller's most recently submitted job running on HOST
  -J NAME     the caller's most recently submitted unfinished job of that
              name (* matches any characters)

Without a job id, bpeek shows the caller's most recently submitted
unfinished job that the options select.` + lsfStateHelp,
		example: `  lsfc bpeek 1001
  bpeek -f 1001
  bpeek -J nightly`,
	}
	return newLSFCmd(e, s, func(ctx context.Context, a *lsfArgs) error {
		return runBpeek(ctx, e, a)
	})
}

// bpeekOptions returns the options of bpeek lsfc implements.
func bpeekOptions() []lsfOption {
	return []lsfOption{{"f", ""}, {"J", "job_name"}, {"m", "host_name"}, {"q", "queue_name"}}
}

// bpeekRefusedOptions returns the options LSF 10.1 documents for bpeek
// that lsfc does not implement.
func bpeekRefusedOptions() []lsfOption { return []lsfOption{{"V", ""}} }

// bpeekPoll is how often bpeek -f looks for more output.
const bpeekPoll = 200 * time.Millisecond

// runBpeek shows the output of the job bpeek's operand or options name.
func runBpeek(ctx context.Context, e env, a *lsfArgs) error {
	if len(a.operands) > 1 {
		return usageError("bpeek: one job id at most")
	}
	c, err := dialDaemon(e, a)
	if err != nil {
		return lsfFailed(e, "bpeek", err)
	}
	var id int64
	if len(a.operands) == 1 {
		t, err := parseJobTarget(a.operands[0])
		if err != nil {
			fmt.Fprintln(e.stderr, err)
			return exit(exitLSF, nil)
		}
		switch {
		case t.indices == nil:
			id = t.id
		case len(t.indices) == 1:
			id = api.ElementID(t.id, t.indices[0])
		default:
			return usageError("bpeek: one element of a job array at most")
		}
	} else {
		sel := jobSelection{name: a.value("J"), queue: a.value("q"), host: a.value("m")}
		jobs, err := c.Jobs(ctx, api.JobQuery{Queue: sel.queue})
		if err != nil {
			return lsfFailed(e, "bpeek", err)
		}
		jobs = sel.filter(jobs)
		if len(jobs) == 0 {
			fmt.Fprintln(e.stderr, sel.none())
			return exit(exitLSF, nil)
		}
		id = jobs[len(jobs)-1].ID
	}
	out, err := c.JobOutput(ctx, id, 0)
	if err != nil {
		printLSFError(e, "bpeek", err)
		return exit(exitLSF, nil)
	}
	switch {
	case out.Done:
		fmt.Fprintf(e.stderr, "Job <%s>: Job has already finished\n", api.FormatJobID(id))
		return exit(exitLSF, nil)
	case out.State == "PEND" || out.State == "PSUSP":
		fmt.Fprintf(e.stderr, "Job <%s>: Job has not started yet\n", api.FormatJobID(id))
		return exit(exitLSF, nil)
	}
	fmt.Fprintln(e.stdout, "<< output from stdout >>")
	follow := a.has("f")
	for {
		if _, err := e.stdout.Write(out.Data); err != nil {
			return err
		}
		switch {
		case len(out.Data) == api.MaxOutputChunk:
			// More is there already.
		case !follow || out.Done || out.State == "PEND" || out.State == "PSUSP":
			return nil
		default:
			select {
			case <-ctx.Done():
				return nil
			case <-time.After(bpeekPoll):
			}
		}
		next, err := c.JobOutput(ctx, id, out.Next)
		if err != nil {
			printLSFError(e, "bpeek", err)
			return exit(exitLSF, nil)
		}
		out = next
	}
}
