package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// Exit codes shared by every command.
const (
	exitOK       = 0 // success
	exitFindings = 1 // findings at or above --fail-level, or invalid user input
	exitUsage    = 2 // usage or I/O error
	exitInternal = 3 // a bug in lsfc
)

// exitError carries an exit code out of a command. A nil err means the
// command already said everything it had to say.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

// exit returns an exitError with the given code; err may be nil.
func exit(code int, err error) error { return &exitError{code: code, err: err} }

// usageError marks an error in how lsfc was called.
func usageError(format string, args ...any) error {
	return exit(exitUsage, fmt.Errorf(format, args...))
}

// plural returns n and what, with an s unless n is 1: "1 file", "2 files".
func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// env is what commands may take from the process: its streams and
// environment.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	getenv         func(string) string
}

// Main runs lsfc with the process's arguments and returns its exit code.
// It prints errors once, on standard error.
func Main() int {
	return run(commandLine(os.Args), env{stdin: os.Stdin, stdout: os.Stdout, stderr: os.Stderr, getenv: os.Getenv})
}

// run runs lsfc with args and returns the exit code; a panic is reported
// as an internal error.
func run(args []string, e env) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(e.stderr, "lsfc: internal error: %v\n%s", r, debug.Stack())
			code = exitInternal
		}
	}()
	var only string
	if len(args) > 0 {
		only = args[0]
	}
	root := newRootCmdFor(e, only)
	root.SetArgs(args)
	root.SetIn(e.stdin)
	root.SetOut(e.stdout)
	root.SetErr(e.stderr)
	err := root.Execute()
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintf(e.stderr, "lsfc: %v\n", ee.err)
		}
		return ee.code
	}
	// Errors from cobra itself: unknown commands and flags, wrong
	// argument counts.
	fmt.Fprintf(e.stderr, "lsfc: %v\nRun 'lsfc --help' for usage.\n", err)
	return exitUsage
}

func newRootCmd(e env) *cobra.Command { return newRootCmdFor(e, "") }

// newRootCmdFor returns lsfc's root command. When only names an LSF
// command (the first word of a command line, or the name lsfc was invoked
// under), the root holds that command alone, besides version: a bsub or
// bjobs run builds no other command's options and help, which the LSF
// commands, started thousands of times, would pay for at each start.
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
	lsf := []struct {
		name   string
		newCmd func(env) *cobra.Command
	}{
		{"bacct", newBacctCmd},
		{"bhist", newBhistCmd},
		{"bsub", newBsubCmd},
		{"bjobs", newBjobsCmd},
		{"bkill", newBkillCmd},
		{"bstop", newBstopCmd},
		{"brequeue", newBrequeueCmd},
		{"bpeek", newBpeekCmd},
		{"bresume", newBresumeCmd},
		{"bresize", newBresizeCmd},
		{"btop", newBtopCmd},
		{"bbot", newBbotCmd},
		{"bswitch", newBswitchCmd},
		{"bmod", newBmodCmd},
		{"bqueues", newBqueuesCmd},
		{"bhosts", newBhostsCmd},
		{"lshosts", newLshostsCmd},
		{"lsload", newLsloadCmd},
		{"badmin", newBadminCmd},
		{"bparams", newBparamsCmd},
		{"lsadmin", newLsadminCmd},
		{"bsla", newBslaCmd},
		{"bslots", newBslotsCmd},
		{"busers", newBusersCmd},
		{"bugroup", newBugroupCmd},
		{"bmgroup", newBmgroupCmd},
		{"bgadd", newBgaddCmd},
		{"bgdel", newBgdelCmd},
		{"bgmod", newBgmodCmd},
		{"bjgroup", newBjgroupCmd},
		{"brsvadd", newBrsvaddCmd},
		{"brsvdel", newBrsvdelCmd},
		{"brsvmod", newBrsvmodCmd},
		{"brsvs", newBrsvsCmd},
		{"lsid", newLsidCmd},
	}
	root.AddCommand(newVersionCmd(e))
	if only == "version" {
		// Like an LSF command, version needs none of the others built.
		return root
	}
	root.AddGroup(&cobra.Group{ID: lsfGroup, Title: "LSF commands (clients of lsfc serve):"})
	for _, c := range lsf {
		if c.name == only {
			root.AddCommand(c.newCmd(e))
			return root
		}
	}
	root.AddCommand(toolCommands(e)...)
	for _, c := range lsf {
		root.AddCommand(c.newCmd(e))
	}
	return root
}
