package main

import (
	"fmt"
	"runtime/debug"

	"github.com/spf13/cobra"
)

func newVersionCmd(e env) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version of lsfc",
		Args:  cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			v := "(devel)"
			if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
				v = bi.Main.Version
			}
			fmt.Fprintf(e.stdout, "lsfc %s\n", v)
			return nil
		},
	}
}
