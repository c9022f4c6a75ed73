//go:build !lsfclient

package main

import (
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/lsfc/lsfc/lang"
	"github.com/lsfc/lsfc/lint"
	"github.com/spf13/cobra"
)

func newCheckCmd(e env) *cobra.Command {
	var (
		tf        treeFlags
		watchTree bool
	)
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
the files cannot be read. The keys the tree sets that lsfc reads and
checks but does not act on are named on standard error, one line per
file. With --watch, check runs again each time a file
of the tree changes, until interrupted; the exit code is then that of the
last run.`,
		Example: `  lsfc check testdata/clusters/demo
  lsfc check --dialect openlava /opt/openlava/etc
  lsfc check --watch /etc/lsf`,
		RunE: func(cmd *cobra.Command, args []string) error {
			opts, err := tf.options(e)
			if err != nil {
				return err
			}
			if !watchTree {
				_, code, err := checkOnce(e, args, opts)
				if err != nil || code == exitOK {
					return err
				}
				return exit(code, nil)
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			code := exitOK
			err = watch(ctx, e, func() ([]string, error) {
				var dirs []string
				var err error
				dirs, code, err = checkOnce(e, args, opts)
				if err != nil {
					// A tree that cannot be read now may be readable
					// after the next edit: report and keep watching.
					fmt.Fprintf(e.stderr, "lsfc: %v\n", err)
					code = exitUsage
				}
				return append(dirs, watchRoots(args, e)...), nil
			})
			if err != nil {
				return exit(exitUsage, err)
			}
			if code != exitOK {
				return exit(code, nil)
			}
			return nil
		},
	}
	tf.register(cmd)
	cmd.Flags().BoolVar(&watchTree, "watch", false, "check again whenever a file of the tree changes, until interrupted")
	return cmd
}

// checkOnce compiles the tree and prints its errors, warnings and summary.
// It returns the directories of the files read and the exit code.
func checkOnce(e env, args []string, opts lint.Options) ([]string, int, error) {
	res, err := lint.Run(args, opts)
	if err != nil {
		return nil, exitUsage, err
	}
	var shown lang.Diagnostics
	for _, d := range res.Diagnostics {
		if d.Severity >= lang.Warning {
			shown = append(shown, d)
		}
	}
	if err := shown.WriteText(e.stdout); err != nil {
		return nil, exitUsage, err
	}
	noteNotActedOn(e, "check", res.Policy)
	ds := res.Diagnostics
	fmt.Fprintf(e.stdout, "%s, %s in %s\n", plural(ds.Count(lang.Error), "error"),
		plural(ds.Count(lang.Warning), "warning"), plural(len(res.Tree.Files), "file"))
	var dirs []string
	for _, f := range res.Tree.Files {
		dirs = append(dirs, filepath.Dir(f.Src.Name))
	}
	if ds.HasErrors() {
		return dirs, exitFindings, nil
	}
	return dirs, exitOK, nil
}

// watchRoots returns the directories named on the command line (or
// $LSF_ENVDIR), and those of the files named, so that new files are seen.
func watchRoots(args []string, e env) []string {
	if len(args) == 0 {
		if d := e.getenv("LSF_ENVDIR"); d != "" {
			args = []string{d}
		}
	}
	var out []string
	for _, a := range args {
		if st, err := os.Stat(a); err == nil && st.IsDir() {
			out = append(out, a)
		} else {
			out = append(out, filepath.Dir(a))
		}
	}
	return out
}
