package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
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
// as an internal error. An LSF command (the first word of a command line,
// or the name lsfc was invoked under) runs on its own, without the tree
// of lsfc's commands: bsub or bjobs, started thousands of times, build no
// other command's options and help. The rest goes to runTree.
func run(args []string, e env) (code int) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(e.stderr, "lsfc: internal error: %v\n%s", r, debug.Stack())
			code = exitInternal
		}
	}()
	if len(args) > 0 {
		if newCmd := lsfCommandNamed(args[0]); newCmd != nil {
			return commandExit(e, newCmd(e).execute(context.Background(), args[1:]))
		}
	}
	return commandExit(e, runTree(args, e))
}

// commandExit returns the exit code of a command's error, and prints the
// error once, on standard error.
func commandExit(e env, err error) int {
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
	// Errors from the command line itself: unknown commands and flags,
	// wrong argument counts.
	fmt.Fprintf(e.stderr, "lsfc: %v\nRun 'lsfc --help' for usage.\n", err)
	return exitUsage
}
