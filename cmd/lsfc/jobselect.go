package main

import (
	"context"
	"fmt"
	"slices"

	"github.com/lsfc/lsfc/runtime/api"
)

// jobSelectOptions returns the options with which bstop and bresume, as
// bkill, select jobs: by user, name, queue, host, job group, application
// profile and service class.
func jobSelectOptions() []lsfOption {
	return []lsfOption{
		{"u", "user_name|all"}, {"J", "job_name"}, {"q", "queue_name"}, {"m", "host_name|host_group"},
		{"g", "job_group_name"}, {"app", "application_profile_name"}, {"sla", "service_class_name"},
	}
}

// runSelectedJobAction applies an action to the jobs the operands and
// the selection options name, as bkill selects them: 0 stands for every
// unfinished job selected (the caller's, unless -u says otherwise); with
// options and no job id, the last job submitted of those selected; job ids
// given with -g, -app or -sla are left alone when not of the group,
// profile or class.
//
// -C gives the reason kept with the action; bstop -a stands for 0. req,
// when not nil, is the request of every job (bswitch's queue); the
// operands are the job ids.
func runSelectedJobAction(ctx context.Context, e env, a *lsfArgs, name, action string, req *api.ActionRequest, operands []string) error {
	sel := jobSelection{user: a.value("u"), name: a.value("J"), queue: a.value("q"), host: a.value("m"),
		group: trimGroupPath(a.value("g")), app: a.value("app"), sla: a.value("sla")}
	reason, err := actionReason(name, a)
	if err != nil {
		return err
	}
	if reason != nil {
		if req == nil {
			req = &api.ActionRequest{}
		}
		req.Reason = reason.Reason
	}
	if a.has("a") && !slices.Contains(operands, "0") {
		operands = append(slices.Clone(operands), "0")
	}
	selecting := sel.user != "" || sel.name != "" || sel.queue != "" || sel.host != "" || sel.narrows()
	if !selecting {
		return runJobAction(ctx, e, a, name, action, req, operands)
	}
	c, err := dialDaemon(e, a)
	if err != nil {
		return lsfFailed(e, name, err)
	}
	if err := sel.resolveHosts(ctx, c); err != nil {
		return lsfFailed(e, name, err)
	}
	failed := false
	var ids []jobTarget
	selected := func(last bool) error {
		jobs, err := c.Jobs(ctx, api.JobQuery{User: sel.user, Queue: sel.queue})
		if err != nil {
			return err
		}
		jobs = sel.filter(jobs)
		if len(jobs) == 0 {
			fmt.Fprintln(e.stderr, sel.none())
			failed = true
			return nil
		}
		if last {
			jobs = jobs[len(jobs)-1:]
		}
		ids = append(ids, targetsOf(jobs)...)
		return nil
	}
	if len(operands) == 0 {
		if err := selected(true); err != nil {
			return lsfFailed(e, name, err)
		}
	}
	var given []jobTarget
	for _, s := range operands {
		if s == "0" {
			if err := selected(false); err != nil {
				return lsfFailed(e, name, err)
			}
			continue
		}
		t, err := parseJobTarget(s)
		if err != nil {
			fmt.Fprintln(e.stderr, err)
			failed = true
			continue
		}
		given = append(given, t)
	}
	if sel.narrows() {
		given, err = sel.keepTargets(ctx, c, given, func(id int64) {
			fmt.Fprintf(e.stderr, "Job <%d>: No matching job found\n", id)
			failed = true
		})
		if err != nil {
			return lsfFailed(e, name, err)
		}
	}
	for _, t := range append(ids, given...) {
		if !applyAction(ctx, e, c, name, t, action, req, false) {
			failed = true
		}
	}
	if failed {
		return exit(exitLSF, nil)
	}
	return nil
}

// trimGroupPath returns a job group path without a trailing "/".
func trimGroupPath(p string) string {
	if len(p) > 1 && p[len(p)-1] == '/' {
		return p[:len(p)-1]
	}
	return p
}

// actionReason returns the request carrying the reason -C gives (nil
// without one), or a usage error for one longer than LSF takes.
func actionReason(name string, a *lsfArgs) (*api.ActionRequest, error) {
	if !a.has("C") {
		return nil, nil
	}
	reason := a.value("C")
	if len(reason) > api.MaxActionReason {
		return nil, usageError("%s: the reason of -C is longer than %d characters", name, api.MaxActionReason)
	}
	return &api.ActionRequest{Reason: reason}, nil
}
