package main

import (
	"context"
	"fmt"
	"slices"

	"github.com/lsfc/lsfc/runtime/api"
)

func newBrequeueCmd(e env) *lsfCommand {
	s := lsfSpec{
		name:     "brequeue",
		options:  brequeueOptions(),
		refused:  brequeueRefusedOptions(),
		short:    "Kill and requeue jobs of lsfc serve",
		operands: "[JOBID | \"JOBID[INDEX_LIST]\" ...]",
		long: `brequeue kills jobs and puts them back in their queue, pending (PEND), to run
again from the beginning under the same job ID and submit time. For each
job it prints

  Job <ID> is being requeued

or why it cannot on standard error (Job <ID>: Job has not started yet,
Job <ID>: Job has already finished ...), and exits 255 when any job
failed. A running job is killed first and pends once its processes have
ended; a finished one pends at once. The requeue is in the event log: a
restart of lsfc serve keeps it.

  -r          requeue running and suspended jobs (RUN, USUSP, SSUSP): the
              default
  -d          requeue finished jobs that are DONE
  -e          requeue finished jobs that are EXIT
  -a          requeue jobs in all of those states
  -H          requeue the jobs held (PSUSP) until bresume
  -u USER     with no job id: the last job of that user (all: anyone's)
  -J NAME     with no job id: the last job of that name (* matches any
              characters)

Job ids given name the jobs, and -u and -J are then ignored; a job
array's ID names its elements in the states the options take, and
"ID[1-5,9]" some of them. With none,
brequeue requeues the caller's most recently submitted job in a state
the options take.` + lsfStateHelp,
		example: `  lsfc brequeue 1001
  brequeue -e -H 1002
  brequeue -d -J nightly`,
	}
	return newLSFCmd(e, s, func(ctx context.Context, a *lsfArgs) error {
		return runBrequeue(ctx, e, a)
	})
}

// brequeueOptions returns the options of brequeue lsfc implements.
func brequeueOptions() []lsfOption {
	return []lsfOption{
		{"a", ""}, {"d", ""}, {"e", ""}, {"H", ""}, {"J", "job_name"}, {"r", ""}, {"u", "user_name|all"},
	}
}

// brequeueRefusedOptions returns the options LSF 10.1 documents for
// brequeue that lsfc does not implement.
func brequeueRefusedOptions() []lsfOption {
	return []lsfOption{{"p", ""}, {"V", ""}}
}

// requeueStates returns the states brequeue's options take jobs in:
// DONE (-d), EXIT (-e), RUN (-r, and the default), all three with -a.
func requeueStates(a *lsfArgs) []string {
	var states []string
	if a.has("a") || a.has("d") {
		states = append(states, "DONE")
	}
	if a.has("a") || a.has("e") {
		states = append(states, "EXIT")
	}
	if a.has("a") || a.has("r") || len(states) == 0 {
		states = append(states, "RUN")
	}
	return states
}

// requeueTakes reports whether a job in state is one the states take.
func requeueTakes(states []string, state string) bool {
	switch state {
	case "RUN", "USUSP", "SSUSP":
		return slices.Contains(states, "RUN")
	}
	return slices.Contains(states, state)
}

// runBrequeue requeues the jobs brequeue's operands and options name.
func runBrequeue(ctx context.Context, e env, a *lsfArgs) error {
	req := &api.ActionRequest{States: requeueStates(a), Hold: a.has("H")}
	c, err := dialDaemon(e, a)
	if err != nil {
		return lsfFailed(e, "brequeue", err)
	}
	var targets []jobTarget
	failed := false
	if len(a.operands) == 0 {
		// The last job submitted of those the options select.
		sel := jobSelection{user: a.value("u"), name: a.value("J")}
		jobs, err := c.Jobs(ctx, api.JobQuery{User: sel.user, All: true})
		if err != nil {
			return lsfFailed(e, "brequeue", err)
		}
		jobs = slices.DeleteFunc(sel.filter(jobs), func(j api.Job) bool { return !requeueTakes(req.States, j.State) })
		if len(jobs) == 0 {
			fmt.Fprintln(e.stderr, "No matching job found")
			return exit(exitLSF, nil)
		}
		targets = targetsOf(jobs[len(jobs)-1:])
	}
	for _, s := range a.operands {
		t, err := parseJobTarget(s)
		if err != nil {
			fmt.Fprintln(e.stderr, err)
			failed = true
			continue
		}
		targets = append(targets, t)
	}
	for _, t := range targets {
		if !applyAction(ctx, e, c, "brequeue", t, "requeue", req, false) {
			failed = true
		}
	}
	if failed {
		return exit(exitLSF, nil)
	}
	return nil
}
