//go:build !lsfclient

package main

import (
	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lint"
	"github.com/spf13/cobra"
)

// A tool is one of lsfc's own commands, by name.
type tool struct {
	name   string
	newCmd func(env) *cobra.Command
}

// tools returns lsfc's own commands: those that read, check and run
// configuration trees. The LSF commands' build (tag lsfclient) has none
// of them, and so links neither the compiler nor the daemon.
func tools() []tool {
	return []tool{
		{"lint", newLintCmd},
		{"check", newCheckCmd},
		{"compile", newCompileCmd},
		{"fmt", newFmtCmd},
		{"resreq", newResReqCmd},
		{"simulate", newSimulateCmd},
		{"serve", newServeCmd},
		{"lsp", newLSPCmd},
		{"sbatchd", newSbatchdCmd},
		{"man", newManCmd},
	}
}

// toolCommands returns lsfc's own commands.
func toolCommands(e env) []*cobra.Command {
	ts := tools()
	cmds := make([]*cobra.Command, len(ts))
	for i, t := range ts {
		cmds[i] = t.newCmd(e)
	}
	return cmds
}

// toolNamed returns the constructor of the tool command named name, nil
// for any other name. man is not one: it documents every command.
func toolNamed(name string) func(env) *cobra.Command {
	for _, t := range tools() {
		if t.name == name && name != "man" {
			return t.newCmd
		}
	}
	return nil
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
