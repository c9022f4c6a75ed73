package main

import (
	"context"
)

func newLsadminCmd(e env) *lsfCommand {
	s := lsfSpec{
		name:     "lsadmin",
		refused:  lsadminRefusedOptions(),
		short:    "Show the lsf.conf settings lsfc serve runs with",
		operands: "showconf lim",
		long: `lsadmin showconf lim prints the settings of the daemon's lsf.conf as
KEY = VALUE lines, sorted by key, values as written in the file (tools
that look for LSF_UNIT_FOR_LIMITS or other lsf.conf keys read them from
here). lsfc has no separate LIM: the one daemon reads lsf.conf, so
"lim" and "mbd" show the same settings.` + lsfStateHelp,
		example: `  lsadmin showconf lim`,
	}
	return newLSFCmd(e, s, func(ctx context.Context, a *lsfArgs) error {
		if len(a.operands) != 2 || a.operands[0] != "showconf" || (a.operands[1] != "lim" && a.operands[1] != "mbd") {
			return usageError("lsadmin: only showconf lim is offered")
		}
		c, err := dialDaemon(e, a)
		if err != nil {
			return lsfFailed(e, "lsadmin", err)
		}
		conf, err := c.Conf(ctx)
		if err != nil {
			return lsfFailed(e, "lsadmin", err)
		}
		writeParamsAll(e.stdout, conf)
		return nil
	})
}

// lsadminRefusedOptions returns the options LSF 10.1 documents for lsadmin that lsfc does
// not implement, each with the shape of its argument ("" for a switch).
func lsadminRefusedOptions() []lsfOption {
	return []lsfOption{
		{"V", ""},
	}
}
