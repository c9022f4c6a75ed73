//go:build !lsfclient

package main

import (
	"slices"
	"strings"

	"github.com/spf13/cobra"
)

// Shell completion of flag values and operands. Everything here runs
// only when the shell asks for completions (lsfc __complete ...), never
// when a command runs: the functions are registered on the commands and
// read the configuration tree only when called.

// A treeNameKind says which names of a configuration tree to complete.
type treeNameKind int

const (
	queueNames treeNameKind = iota
	hostNames
)

// lsfCompletion returns the completion function of an LSF command, whose
// options cobra does not parse: after an option that takes a queue (-q)
// or hosts (-m), the names of the tree of $LSF_ENVDIR; a word that
// starts with "-", the command's options; an operand, the queue or host
// names its usage line asks for (bqueues QUEUE, bhosts HOST, bswitch's
// first operand, badmin's subcommands and their names).
func lsfCompletion(e env, s lsfSpec) cobra.CompletionFunc {
	// The badmin subcommands that take queue and host names.
	badminQueueOps := []string{"qopen", "qclose", "qact", "qinact"}
	badminHostOps := []string{"hopen", "hclose"}
	return func(_ *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
		none := cobra.ShellCompDirectiveNoFileComp
		if n := len(args); n > 0 && strings.HasPrefix(args[n-1], "-") {
			for _, o := range s.options {
				if "-"+o.name != args[n-1] || o.arg == "" {
					continue
				}
				switch {
				case o.arg == "queue":
					return treeNames(e, "", queueNames), none
				case strings.Contains(o.arg, "host"):
					return treeNames(e, "", hostNames), none
				}
				// Another option's argument: a file, a number, a string.
				return nil, cobra.ShellCompDirectiveDefault
			}
		}
		if strings.HasPrefix(toComplete, "-") {
			var out []cobra.Completion
			for _, o := range s.options {
				out = append(out, "-"+o.name)
			}
			return append(out, "--state", "-h"), none
		}
		operands := 0
		for _, a := range args {
			if !strings.HasPrefix(a, "-") {
				operands++
			}
		}
		switch {
		case s.name == "badmin" && operands == 0:
			return append(append(slices.Clone(badminQueueOps), badminHostOps...), "reconfig", "showstatus", "perfmon"), none
		case s.name == "badmin" && slices.Contains(badminQueueOps, firstOperand(args)):
			return treeNames(e, "", queueNames), none
		case s.name == "badmin" && slices.Contains(badminHostOps, firstOperand(args)):
			return treeNames(e, "", hostNames), none
		case strings.HasPrefix(s.operands, "[QUEUE") || strings.HasPrefix(s.operands, "QUEUE") && operands == 0:
			return treeNames(e, "", queueNames), none
		case strings.HasPrefix(s.operands, "[HOST"):
			return treeNames(e, "", hostNames), none
		case s.stopAtOperand:
			// bsub's command: files and programs.
			return nil, cobra.ShellCompDirectiveDefault
		}
		return nil, none
	}
}

// firstOperand returns the first word of args that is not an option.
func firstOperand(args []string) string {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			return a
		}
	}
	return ""
}
