package main

import (
	"context"
	"fmt"
	"time"

	"github.com/lsfc/lsfc/runtime/api"
)

func newBpeekCmd(e env) *lsfCommand {
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
ends, or its -o file when lsf.conf sets LSB_STDOUT_DIRECT=Y. A job with a
-e file of its own has its standard error shown next, after the line

  << output from stderr >>

read from its own spool file (or, with LSB_STDOUT_DIRECT=Y, its -e file). It works for
jobs on any host, local or run by an agent (lsfc sbatchd). A job that has
not started, or has finished, has nothing to show: bpeek says so on
standard error and exits 255.

  -f          follow the output as it grows, as tail -f does, until the
              job ends (or goes back to pending); each time the other
              stream grows, its heading comes again
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
	p := &peeker{e: e, c: c, id: id}
	if err := p.drain(ctx, out, "stdout"); err != nil {
		return err
	}
	if p.apart {
		if err := p.drainErrors(ctx); err != nil {
			return err
		}
	}
	if !a.has("f") {
		return nil
	}
	// -f: follow both streams, a heading each time the other one grows.
	for !p.ended {
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(bpeekPoll):
		}
		next, err := c.JobOutput(ctx, id, p.next["stdout"])
		if err != nil {
			printLSFError(e, "bpeek", err)
			return exit(exitLSF, nil)
		}
		if err := p.drain(ctx, next, "stdout"); err != nil {
			return err
		}
		if p.apart {
			if err := p.drainErrors(ctx); err != nil {
				return err
			}
		}
	}
	return nil
}

// A peeker prints the streams of a running job, each under its heading
// ("<< output from stdout >>"), as bpeek does.
type peeker struct {
	e     env
	c     *api.Client
	id    int64
	next  map[string]int64 // where each stream is read from next
	shown string           // the stream whose heading came last
	last  byte             // the last byte printed
	apart bool             // the job's errors go apart from its output
	// errHeaded is set once stderr's heading is printed.
	errHeaded bool
	ended     bool // the job has ended, or gone back to pending
}

// drain prints a piece of a stream already read, and what follows it up
// to its end for now. The stream's heading is printed when another was
// printed last (stdout's always comes first).
func (p *peeker) drain(ctx context.Context, out *api.JobOutput, stream string) error {
	if p.next == nil {
		p.next = map[string]int64{}
	}
	for {
		p.apart = p.apart || out.Apart
		p.ended = out.Done || out.State == "PEND" || out.State == "PSUSP"
		if p.shown == "" || len(out.Data) > 0 && p.shown != stream {
			if p.shown != "" && p.last != '\n' {
				fmt.Fprintln(p.e.stdout)
			}
			fmt.Fprintf(p.e.stdout, "<< output from %s >>\n", stream)
			p.shown, p.last = stream, '\n'
		}
		if _, err := p.e.stdout.Write(out.Data); err != nil {
			return err
		}
		if len(out.Data) > 0 {
			p.last = out.Data[len(out.Data)-1]
		}
		p.next[stream] = out.Next
		if len(out.Data) < api.MaxOutputChunk {
			return nil
		}
		next, err := p.read(ctx, stream, out.Next)
		if err != nil {
			return err
		}
		out = next
	}
}

// drainErrors prints what the job's standard error has grown by; the
// first time, its heading even when it is empty, as bpeek shows both.
func (p *peeker) drainErrors(ctx context.Context) error {
	out, err := p.read(ctx, "stderr", p.next["stderr"])
	if err != nil {
		return err
	}
	if !p.errHeaded {
		if p.last != '\n' {
			fmt.Fprintln(p.e.stdout)
		}
		fmt.Fprintln(p.e.stdout, "<< output from stderr >>")
		p.shown, p.last, p.errHeaded = "stderr", '\n', true
	}
	return p.drain(ctx, out, "stderr")
}

// read reads a piece of a stream; an error is printed as bpeek prints
// it, and ends the command.
func (p *peeker) read(ctx context.Context, stream string, offset int64) (*api.JobOutput, error) {
	read := p.c.JobOutput
	if stream == "stderr" {
		read = p.c.JobErrors
	}
	out, err := read(ctx, p.id, offset)
	if err != nil {
		printLSFError(p.e, "bpeek", err)
		return nil, exit(exitLSF, nil)
	}
	return out, nil
}
