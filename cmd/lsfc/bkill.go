package main

import (
	"context"

	"github.com/spf13/cobra"
)

func newBkillCmd(e env) *cobra.Command {
	s := lsfSpec{
		name:     "bkill",
		refused:  bkillRefusedOptions(),
		short:    "Kill jobs of lsfc serve",
		operands: "JOBID ... | 0",
		long: `bkill kills jobs: a pending job ends at once (EXIT), a running one is sent
SIGTERM and ends as EXIT with TERM_OWNER. For each job it prints

  Job <ID> is being terminated

or why it cannot on standard error (Job <ID>: No matching job found,
Job <ID>: User permission denied, Job <ID>: Job has already finished), and
exits 255 when any job failed. 0 stands for all the caller's unfinished
jobs. A whole "Job <ID> is submitted ..." line, as bsub prints it, is
taken for its job id.` + lsfStateHelp,
		example: `  lsfc bkill 1001
  bkill 0`,
	}
	return newLSFCmd(e, s, func(ctx context.Context, a *lsfArgs) error {
		return runJobAction(ctx, e, a, "bkill", "kill", nil, a.operands)
	})
}

// bkillRefusedOptions returns the options LSF 10.1 documents for bkill that lsfc does
// not implement, each with the shape of its argument ("" for a switch).
func bkillRefusedOptions() []lsfOption {
	return []lsfOption{
		{"app", "application_profile"}, {"b", ""}, {"C", "kill_reason"}, {"d", ""}, {"g", "job_group"},
		{"J", "job_name"}, {"l", ""}, {"m", "host"}, {"q", "queue"}, {"r", ""}, {"s", "signal"},
		{"sla", "service_class"}, {"stat", "run|pend|susp"}, {"u", "user"}, {"V", ""},
	}
}
