package main

import (
	"context"

	"github.com/spf13/cobra"
)

func newBresumeCmd(e env) *cobra.Command {
	s := lsfSpec{
		name:     "bresume",
		refused:  bresumeRefusedOptions(),
		short:    "Resume jobs of lsfc serve that bstop suspended",
		operands: "JOBID ... | 0",
		long: `bresume resumes jobs that bstop suspended or bsub -H held: a held job pends
again, a stopped one runs on (SIGCONT). It prints "Job <ID> is being
resumed" for each, or why it cannot on standard error, and exits 255 when
any job failed. 0 stands for all the caller's unfinished jobs.` + lsfStateHelp,
		example: `  lsfc bresume 1001`,
	}
	return newLSFCmd(e, s, func(ctx context.Context, a *lsfArgs) error {
		return runJobAction(ctx, e, a, "bresume", "resume", nil, a.operands)
	})
}

// bresumeRefusedOptions returns the options LSF 10.1 documents for bresume that lsfc does
// not implement, each with the shape of its argument ("" for a switch).
func bresumeRefusedOptions() []lsfOption {
	return []lsfOption{
		{"app", "application_profile"}, {"C", "resume_reason"}, {"g", "job_group"}, {"J", "job_name"},
		{"m", "host"}, {"q", "queue"}, {"sla", "service_class"}, {"u", "user"}, {"V", ""},
	}
}
