package main

import (
	"context"

	"github.com/lsfc/lsfc/runtime/api"
	"github.com/spf13/cobra"
)

func newBswitchCmd(e env) *cobra.Command {
	s := lsfSpec{
		name:     "bswitch",
		refused:  bswitchRefusedOptions(),
		short:    "Move jobs to another queue",
		operands: "QUEUE JOBID ...",
		long: `bswitch moves jobs to another queue, which must accept them as it would a
submission. It prints "Job <ID> is switched to queue <QUEUE>" for each, or
why it cannot on standard error, and exits 255 when any job failed.` + lsfStateHelp,
		example: `  lsfc bswitch short 1001 1002`,
	}
	return newLSFCmd(e, s, func(ctx context.Context, a *lsfArgs) error {
		if len(a.operands) < 2 {
			return usageError("bswitch: give the queue, then job ids")
		}
		req := &api.ActionRequest{Queue: a.operands[0]}
		return runJobAction(ctx, e, a, "bswitch", "switch", req, a.operands[1:])
	})
}

// bswitchRefusedOptions returns the options LSF 10.1 documents for bswitch that lsfc does
// not implement, each with the shape of its argument ("" for a switch).
func bswitchRefusedOptions() []lsfOption {
	return []lsfOption{
		{"a", "application"}, {"J", "job_name"}, {"m", "host"}, {"q", "queue"}, {"u", "user"}, {"V", ""},
	}
}
