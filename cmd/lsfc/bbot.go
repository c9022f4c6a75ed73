package main

import (
	"context"
)

func newBbotCmd(e env) *lsfCommand {
	s := lsfSpec{
		name:     "bbot",
		refused:  bbotRefusedOptions(),
		short:    "Move a pending job to the bottom of its queue",
		operands: "JOBID [1]",
		long: `bbot moves a pending job behind the other pending jobs of its queue and
prints "Job <ID> has been moved to position 1 from bottom.". Only position
1 is supported.` + lsfStateHelp,
		example: `  lsfc bbot 1001`,
	}
	return newLSFCmd(e, s, func(ctx context.Context, a *lsfArgs) error {
		ids, err := positionOperands("bbot", a.operands)
		if err != nil {
			return err
		}
		return runJobAction(ctx, e, a, "bbot", "bottom", nil, ids)
	})
}

// bbotRefusedOptions returns the options LSF 10.1 documents for bbot that lsfc does
// not implement, each with the shape of its argument ("" for a switch).
func bbotRefusedOptions() []lsfOption {
	return []lsfOption{
		{"u", ""}, {"V", ""},
	}
}
