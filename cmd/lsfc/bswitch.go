package main

import (
	"context"

	"github.com/lsfc/lsfc/runtime/api"
)

func newBswitchCmd(e env) *lsfCommand {
	s := lsfSpec{
		name:    "bswitch",
		refused: bswitchRefusedOptions(),
		options: []lsfOption{{"u", "user_name|all"}, {"J", "job_name"}, {"q", "queue_name"},
			{"m", "host_name|host_group"}},
		short:    "Move jobs to another queue",
		operands: "QUEUE JOBID ... | QUEUE 0",
		long: `bswitch moves jobs to another queue, which must accept them as it would a
submission. It prints "Job <ID> is switched to queue <QUEUE>" for each, or
why it cannot on standard error, and exits 255 when any job failed.

As in bkill, -u USER|all, -J NAME, -q QUEUE (the queue the jobs are in)
and -m HOST select jobs: with 0, every unfinished one selected; without a
job id, the last one submitted.` + lsfStateHelp,
		example: `  lsfc bswitch short 1001 1002
  bswitch -q normal short 0`,
	}
	return newLSFCmd(e, s, func(ctx context.Context, a *lsfArgs) error {
		if len(a.operands) == 0 {
			return usageError("bswitch: give the queue, then job ids")
		}
		req := &api.ActionRequest{Queue: a.operands[0]}
		return runSelectedJobAction(ctx, e, a, "bswitch", "switch", req, a.operands[1:])
	})
}

// bswitchRefusedOptions returns the options LSF 10.1 documents for bswitch that lsfc does
// not implement, each with the shape of its argument ("" for a switch).
func bswitchRefusedOptions() []lsfOption {
	return []lsfOption{
		{"a", "application"}, {"V", ""},
	}
}
