//go:build lsfclient

package main

import "github.com/spf13/cobra"

// toolCommands returns lsfc's own commands, of which the LSF commands'
// build (tag lsfclient) has none: it holds the LSF commands, version and
// completion, and links neither the compiler nor the daemon.
func toolCommands(env) []*cobra.Command { return nil }
