package main

import (
	"context"
)

func newBstopCmd(e env) *lsfCommand {
	s := lsfSpec{
		name:     "bstop",
		refused:  bstopRefusedOptions(),
		options:  append(jobSelectOptions(), lsfOption{"C", "suspend_reason"}, lsfOption{"a", ""}),
		short:    "Suspend jobs of lsfc serve",
		operands: "JOBID ... | 0",
		long: `bstop suspends jobs: a pending job is held (PSUSP), a running one is stopped
(USUSP, SIGSTOP). It prints "Job <ID> is being stopped" for each, or why
it cannot on standard error, and exits 255 when any job failed. 0 stands
for all the caller's unfinished jobs.

As in bkill, -u USER|all, -J NAME, -q QUEUE, -m HOST, -g JOB_GROUP (that
group's jobs, not its subgroups'), -app PROFILE and -sla CLASS select
jobs: with 0, every unfinished one selected; without a job id, the last
one submitted; with job ids, -g, -app and -sla leave the others alone.
-a stands for 0: all the jobs selected.

-C REASON keeps the reason (up to 4095 characters) with the suspension in
the event log; bhist -l shows it.` + lsfStateHelp,
		example: `  lsfc bstop 1001
  bstop -C "disk maintenance" -a
  bstop -g /risk 0`,
	}
	return newLSFCmd(e, s, func(ctx context.Context, a *lsfArgs) error {
		return runSelectedJobAction(ctx, e, a, "bstop", "stop", nil, a.operands)
	})
}

// bstopRefusedOptions returns the options LSF 10.1 documents for bstop that lsfc does
// not implement, each with the shape of its argument ("" for a switch).
func bstopRefusedOptions() []lsfOption {
	return []lsfOption{
		{"V", ""},
	}
}
