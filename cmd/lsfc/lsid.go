package main

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"
)

func newLsidCmd(e env) *cobra.Command {
	s := lsfSpec{
		name:  "lsid",
		short: "Show the version of lsfc and the cluster and master of lsfc serve",
		long: `lsid prints the version of lsfc, then the cluster's name and the master
host's, as LSF's lsid does:

  lsfc VERSION

  My cluster name is CLUSTER
  My master name is HOST` + lsfStateHelp,
		example: `  lsfc lsid`,
	}
	return newLSFCmd(s, func(ctx context.Context, a *lsfArgs) error {
		if len(a.operands) > 0 {
			return usageError("lsid: unexpected argument %q", a.operands[0])
		}
		c, err := dialDaemon(e, a)
		if err != nil {
			return lsfFailed(e, "lsid", err)
		}
		st, err := c.Status(ctx)
		if err != nil {
			return lsfFailed(e, "lsid", err)
		}
		fmt.Fprintf(e.stdout, "lsfc %s\n\nMy cluster name is %s\nMy master name is %s\n", version(), st.Cluster, st.Master)
		return nil
	})
}
