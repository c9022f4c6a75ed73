package main

import (
	"context"
)

func newBresumeCmd(e env) *lsfCommand {
	s := lsfSpec{
		name:     "bresume",
		refused:  bresumeRefusedOptions(),
		options:  append(jobSelectOptions(), lsfOption{"C", "resume_reason"}),
		short:    "Resume jobs of lsfc serve that bstop suspended",
		operands: "JOBID ... | 0",
		long: `bresume resumes jobs that bstop suspended or bsub -H held: a held job pends
again, a stopped one runs on (SIGCONT). It prints "Job <ID> is being
resumed" for each, or why it cannot on standard error, and exits 255 when
any job failed. 0 stands for all the caller's unfinished jobs.

As in bkill, -u USER|all, -J NAME, -q QUEUE, -m HOST, -g JOB_GROUP (that
group's jobs, not its subgroups'), -app PROFILE and -sla CLASS select
jobs: with 0, every unfinished one selected; without a job id, the last
one submitted; with job ids, -g, -app and -sla leave the others alone.

-C REASON keeps the reason (up to 4095 characters) with the resumption in
the event log; bhist -l shows it.` + lsfStateHelp,
		example: `  lsfc bresume 1001
  bresume -g /risk 0`,
	}
	return newLSFCmd(e, s, func(ctx context.Context, a *lsfArgs) error {
		return runSelectedJobAction(ctx, e, a, "bresume", "resume", nil, a.operands)
	})
}

// bresumeRefusedOptions returns the options LSF 10.1 documents for bresume that lsfc does
// not implement, each with the shape of its argument ("" for a switch).
func bresumeRefusedOptions() []lsfOption {
	return []lsfOption{
		{"V", ""},
	}
}
