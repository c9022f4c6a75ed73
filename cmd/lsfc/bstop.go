package main

import (
	"context"

	"github.com/spf13/cobra"
)

func newBstopCmd(e env) *cobra.Command {
	s := lsfSpec{
		name:     "bstop",
		refused:  bstopRefusedOptions(),
		short:    "Suspend jobs of lsfc serve",
		operands: "JOBID ... | 0",
		long: `bstop suspends jobs: a pending job is held (PSUSP), a running one is stopped
(USUSP, SIGSTOP). It prints "Job <ID> is being stopped" for each, or why
it cannot on standard error, and exits 255 when any job failed. 0 stands
for all the caller's unfinished jobs.` + lsfStateHelp,
		example: `  lsfc bstop 1001`,
	}
	return newLSFCmd(e, s, func(ctx context.Context, a *lsfArgs) error {
		return runJobAction(ctx, e, a, "bstop", "stop", nil, a.operands)
	})
}

// bstopRefusedOptions returns the options LSF 10.1 documents for bstop that lsfc does
// not implement, each with the shape of its argument ("" for a switch).
func bstopRefusedOptions() []lsfOption {
	return []lsfOption{
		{"a", ""}, {"app", "application_profile"}, {"C", "suspend_reason"}, {"g", "job_group"},
		{"J", "job_name"}, {"m", "host"}, {"q", "queue"}, {"sla", "service_class"}, {"u", "user"}, {"V", ""},
	}
}
