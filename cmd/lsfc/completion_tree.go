//go:build !lsfclient

package main

import (
	"strings"

	"github.com/lsfc/lsfc/compile"
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
