//go:build lsfclient

package main

import (
	"context"
	"time"
)

// treeNames returns the queue or host names of the running daemon, in its
// order, for the LSF commands' own build, which links no compiler to read
// a tree with; conf is not used (no LSF command has --conf). nil when no
// daemon answers within a second: a completion offers what it finds.
func treeNames(e env, _ string, kind treeNameKind) []string {
	c, err := dialDaemon(e, &lsfArgs{})
	if err != nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	var out []string
	switch kind {
	case queueNames:
		qs, err := c.Queues(ctx)
		if err != nil {
			return nil
		}
		for _, q := range qs {
			out = append(out, q.Name)
		}
	case hostNames:
		hs, err := c.Hosts(ctx)
		if err != nil {
			return nil
		}
		for _, h := range hs {
			out = append(out, h.Name)
		}
	}
	return out
}
