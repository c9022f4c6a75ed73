package main

import (
	"context"
	"fmt"

	"github.com/lsfc/lsfc/runtime/api"
)

// runJobAction applies an action (kill, stop, resume ...) to the jobs the
// operands name and prints the daemon's answer for each: its message on
// standard output, or why it failed on standard error. The operand 0
// stands for all the caller's unfinished jobs, as in LSF. It fails (exit
// 255) when any job failed.
func runJobAction(ctx context.Context, e env, a *lsfArgs, name, action string, req *api.ActionRequest, operands []string) error {
	if len(operands) == 0 {
		return usageError("%s: no job id given", name)
	}
	c, err := dialDaemon(e, a)
	if err != nil {
		return lsfFailed(e, name, err)
	}
	var ids []jobTarget
	failed := false
	for _, s := range operands {
		if s == "0" {
			jobs, err := c.Jobs(ctx, api.JobQuery{})
			if err != nil {
				return lsfFailed(e, name, err)
			}
			if len(jobs) == 0 {
				fmt.Fprintln(e.stderr, "No unfinished job found")
				failed = true
			}
			ids = append(ids, targetsOf(jobs)...)
			continue
		}
		t, err := parseJobTarget(s)
		if err != nil {
			fmt.Fprintln(e.stderr, err)
			failed = true
			continue
		}
		ids = append(ids, t)
	}
	for _, t := range ids {
		if !applyAction(ctx, e, c, name, t, action, req, false) {
			failed = true
		}
	}
	if failed {
		return exit(exitLSF, nil)
	}
	return nil
}
