//go:build !lsfclient

package main

import (
	"runtime/debug"

	"github.com/spf13/cobra"
)

// lsfGroup is the help group of the LSF commands.
const lsfGroup = "lsf"

// runTree runs a command line that names no LSF command: one of lsfc's
// own commands, version, help or completion, read by the tree of lsfc's
// commands.
func runTree(args []string, e env) error {
	var only string
	if len(args) > 0 {
		only = args[0]
	}
	root := newRootCmdFor(e, only)
	root.SetArgs(args)
	root.SetIn(e.stdin)
	root.SetOut(e.stdout)
	root.SetErr(e.stderr)
	return root.Execute()
}

func newRootCmd(e env) *cobra.Command { return newRootCmdFor(e, "") }

// newRootCmdFor returns lsfc's root command: every command, or, when only
// is "version" or one of lsfc's own commands but man (lint, resreq ...),
// that command alone, which needs none of the others built.
func newRootCmdFor(e env, only string) *cobra.Command {
	root := &cobra.Command{
		Use:   "lsfc",
		Short: "Check, format and run IBM Spectrum LSF configuration",
		Long: `lsfc reads IBM Spectrum LSF and openlava configuration trees (lsf.conf,
lsf.shared, lsf.cluster.<name>, lsb.*), reports every mistake with its
position and a stable code, and prints files in canonical form.

lsfc serve runs the configuration as a batch system, and the LSF commands
(bsub, bjobs, bkill ...) talk to it; invoked through a link named after
one of them, lsfc acts as that command.

Exit codes: 0 success; 1 findings at or above --fail-level, or invalid
input; 2 usage or I/O error; 3 internal error. The LSF commands exit 255
where LSF's do.`,
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	// --version reads the build information only when given: lsfc
	// starts for every LSF command a client runs.
	showVersion := root.Flags().Bool("version", false, "print the version of lsfc (as lsfc version does)")
	root.Args = cobra.NoArgs
	root.RunE = func(cmd *cobra.Command, _ []string) error {
		if *showVersion {
			bi, _ := debug.ReadBuildInfo()
			writeVersion(e.stdout, bi)
			return nil
		}
		return cmd.Help()
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usageError("%v", err) })
	root.AddCommand(newVersionCmd(e))
	if only == "version" {
		return root
	}
	if newCmd := toolNamed(only); newCmd != nil {
		root.AddCommand(newCmd(e))
		return root
	}
	root.AddGroup(&cobra.Group{ID: lsfGroup, Title: "LSF commands (clients of lsfc serve):"})
	root.AddCommand(toolCommands(e)...)
	for _, c := range lsfCommands() {
		root.AddCommand(cobraLSFCmd(c.newCmd(e)))
	}
	return root
}

// cobraLSFCmd returns an LSF command as a command of lsfc's tree, for
// lsfc's help, its man pages and shell completion, which offers the
// command's options and the queue and host names it takes
// (lsfCompletion). Its options are read by the command itself
// (execute), never by cobra.
func cobraLSFCmd(c *lsfCommand) *cobra.Command {
	cmd := &cobra.Command{
		Use:                c.use(),
		Short:              c.spec.short,
		Long:               c.long(),
		Example:            c.spec.example,
		GroupID:            lsfGroup,
		DisableFlagParsing: true,
		ValidArgsFunction:  lsfCompletion(c.e, c.spec),
	}
	cmd.RunE = func(cmd *cobra.Command, argv []string) error { return c.execute(cmd.Context(), argv) }
	return cmd
}

func newVersionCmd(e env) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print the version of lsfc and the commit it was built from",
		Long: `version prints the module version lsfc was built as ("(devel)" for a
build of a working copy), then what the Go toolchain recorded of the
commit it was built from: vcs.revision, vcs.time and vcs.modified (true
when the working copy had uncommitted changes), and the Go version. A
build made without version control information (go build -buildvcs=false,
or outside a repository) has no vcs lines. lsfc --version prints the same.`,
		Args: cobra.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			bi, _ := debug.ReadBuildInfo()
			writeVersion(e.stdout, bi)
			return nil
		},
	}
}
