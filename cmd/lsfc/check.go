package main

import (
	"fmt"

	"github.com/lsfc/lsfc/lang"
	"github.com/lsfc/lsfc/lint"
	"github.com/spf13/cobra"
)

func newCheckCmd(e env) *cobra.Command {
	var tf treeFlags
	cmd := &cobra.Command{
		Use:   "check [PATH...]",
		Short: "Compile a configuration tree the way badmin ckconfig checks it",
		Long: `check compiles an LSF configuration tree without a running cluster, the
way badmin ckconfig and lsadmin ckconfig check it: every file is parsed,
every key and value typed, and the names each file uses in the others
resolved. It prints each error and warning with its position, then one line:

  N errors, M warnings in K files

PATH is an LSF_ENVDIR (a directory holding lsf.conf), a directory of lsb.*
files, or configuration files; without PATH, $LSF_ENVDIR is read.

The exit code is 0 when there is no error, 1 when there are errors, 2 when
the files cannot be read.`,
		Example: `  lsfc check testdata/clusters/demo
  lsfc check --dialect openlava /opt/openlava/etc`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts, err := tf.options(e)
			if err != nil {
				return err
			}
			res, err := lint.Run(args, opts)
			if err != nil {
				return exit(exitUsage, err)
			}
			var shown lang.Diagnostics
			for _, d := range res.Diagnostics {
				if d.Severity >= lang.Warning {
					shown = append(shown, d)
				}
			}
			if err := shown.WriteText(e.stdout); err != nil {
				return exit(exitUsage, err)
			}
			ds := res.Diagnostics
			fmt.Fprintf(e.stdout, "%s, %s in %s\n", plural(ds.Count(lang.Error), "error"),
				plural(ds.Count(lang.Warning), "warning"), plural(len(res.Tree.Files), "file"))
			if ds.HasErrors() {
				return exit(exitFindings, nil)
			}
			return nil
		},
	}
	tf.register(cmd)
	return cmd
}
