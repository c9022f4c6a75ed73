//go:build !lsfclient

package main

import (
	"strings"

	"github.com/lsfc/lsfc/compile"
	"github.com/spf13/cobra"
)

// treeNames returns the queue or host names of the configuration tree at
// conf (an LSF_ENVDIR, a directory of lsb.* files, or files separated by
// commas), or of $LSF_ENVDIR when conf is empty, in file order; nil when
// there is no tree or it cannot be read. Errors are not reported: a
// completion offers what it finds.
func treeNames(e env, conf string, kind treeNameKind) []string {
	var paths []string
	if conf != "" {
		paths = strings.Split(conf, ",")
	}
	envDir := e.getenv("LSF_ENVDIR")
	if len(paths) == 0 && envDir == "" {
		return nil
	}
	t, _, err := compile.Load(paths, compile.LoadOptions{EnvDir: envDir})
	if err != nil || t == nil {
		return nil
	}
	p, _ := compile.Compile(t, compile.Options{})
	if p == nil {
		return nil
	}
	var out []string
	switch kind {
	case queueNames:
		for _, q := range p.Queues {
			out = append(out, q.Name)
		}
	case hostNames:
		for _, h := range p.Hosts {
			out = append(out, h.Name)
		}
	}
	return out
}

// completeWords returns a completion function that offers fixed words.
func completeWords(words ...string) cobra.CompletionFunc {
	return func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return words, cobra.ShellCompDirectiveNoFileComp
	}
}

// completeTreeNames returns a completion function that offers the queue
// or host names of the tree the command's --conf flag names (of
// $LSF_ENVDIR when the command has no such flag or it is not given).
func completeTreeNames(e env, kind treeNameKind) cobra.CompletionFunc {
	return func(cmd *cobra.Command, _ []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
		conf := ""
		if f := cmd.Flags().Lookup("conf"); f != nil {
			conf = f.Value.String()
			// A repeatable --conf (simulate) shows as "[a,b]".
			conf = strings.Trim(conf, "[]")
		}
		return treeNames(e, conf, kind), cobra.ShellCompDirectiveNoFileComp
	}
}
