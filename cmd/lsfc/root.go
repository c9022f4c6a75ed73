package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lint"
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
	root := newRootCmd(e)
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

func newRootCmd(e env) *cobra.Command {
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
	root.AddCommand(
		newLintCmd(e),
		newCheckCmd(e),
		newCompileCmd(e),
		newFmtCmd(e),
		newResReqCmd(e),
		newSimulateCmd(e),
		newServeCmd(e),
		newSbatchdCmd(e),
		newVersionCmd(e),
		newManCmd(e),
	)
	root.AddGroup(&cobra.Group{ID: lsfGroup, Title: "LSF commands (clients of lsfc serve):"})
	root.AddCommand(
		newBacctCmd(e),
		newBhistCmd(e),
		newBsubCmd(e),
		newBjobsCmd(e),
		newBkillCmd(e),
		newBstopCmd(e),
		newBresumeCmd(e),
		newBtopCmd(e),
		newBbotCmd(e),
		newBswitchCmd(e),
		newBmodCmd(e),
		newBqueuesCmd(e),
		newBhostsCmd(e),
		newLshostsCmd(e),
		newLsloadCmd(e),
		newBadminCmd(e),
		newBparamsCmd(e),
		newLsadminCmd(e),
		newBslaCmd(e),
		newLsidCmd(e),
	)
	return root
}

// treeFlags are the flags of the commands that read a whole tree.
type treeFlags struct {
	cluster, dialect string
}

func (tf *treeFlags) register(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&tf.cluster, "cluster", "", "name of the local cluster, when lsf.shared lists several (default: the one lsf.cluster.<name> and lsf.shared tell)")
	f.StringVar(&tf.dialect, "dialect", "lsf10", "LSF version whose documented behaviour applies: lsf10 or openlava")
	_ = cmd.RegisterFlagCompletionFunc("dialect", completeWords("lsf10", "openlava"))
	_ = cmd.RegisterFlagCompletionFunc("cluster", cobra.NoFileCompletions)
}

// options returns the lint options the flags describe.
func (tf *treeFlags) options(e env) (lint.Options, error) {
	d, err := compile.ParseDialect(tf.dialect)
	if err != nil {
		return lint.Options{}, usageError("--dialect: %v", err)
	}
	return lint.Options{
		Load:    compile.LoadOptions{EnvDir: e.getenv("LSF_ENVDIR"), Cluster: tf.cluster},
		Compile: compile.Options{Dialect: d},
	}, nil
}
