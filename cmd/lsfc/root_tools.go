//go:build !lsfclient

package main

import (
	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lint"
	"github.com/spf13/cobra"
)

// toolCommands returns lsfc's own commands: those that read, check and
// run configuration trees. The LSF commands' build (tag lsfclient) has
// none of them, and so links neither the compiler nor the daemon.
func toolCommands(e env) []*cobra.Command {
	return []*cobra.Command{
		newLintCmd(e),
		newCheckCmd(e),
		newCompileCmd(e),
		newFmtCmd(e),
		newResReqCmd(e),
		newSimulateCmd(e),
		newServeCmd(e),
		newLSPCmd(e),
		newSbatchdCmd(e),
		newManCmd(e),
	}
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
