package main

import (
	"context"
)

func newBtopCmd(e env) *lsfCommand {
	s := lsfSpec{
		name:     "btop",
		refused:  btopRefusedOptions(),
		short:    "Move a pending job to the top of its queue",
		operands: "JOBID [1]",
		long: `btop moves a pending job ahead of the other pending jobs of its queue and
prints "Job <ID> has been moved to position 1 from top.". Only position 1
is supported.` + lsfStateHelp,
		example: `  lsfc btop 1001`,
	}
	return newLSFCmd(e, s, func(ctx context.Context, a *lsfArgs) error {
		ids, err := positionOperands("btop", a.operands)
		if err != nil {
			return err
		}
		return runJobAction(ctx, e, a, "btop", "top", nil, ids)
	})
}

// positionOperands checks the operands of btop and bbot, JOBID [POSITION],
// and returns the job id.
func positionOperands(name string, operands []string) ([]string, error) {
	switch {
	case len(operands) == 0:
		return nil, usageError("%s: no job id given", name)
	case len(operands) > 2:
		return nil, usageError("%s: give one job id and at most a position", name)
	case len(operands) == 2 && operands[1] != "1":
		return nil, usageError("%s: position %q: only position 1 is supported", name, operands[1])
	}
	return operands[:1], nil
}

// btopRefusedOptions returns the options LSF 10.1 documents for btop that lsfc does
// not implement, each with the shape of its argument ("" for a switch).
func btopRefusedOptions() []lsfOption {
	return []lsfOption{
		{"u", ""}, {"V", ""},
	}
}
