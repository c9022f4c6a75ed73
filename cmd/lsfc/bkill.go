package main

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/lsfc/lsfc/runtime/api"
)

func newBkillCmd(e env) *lsfCommand {
	s := lsfSpec{
		name:     "bkill",
		options:  bkillOptions(),
		refused:  bkillRefusedOptions(),
		short:    "Kill jobs of lsfc serve",
		operands: "JOBID ... | 0",
		long: `bkill kills jobs: a pending job ends at once (EXIT), a running one is sent
SIGTERM and ends as EXIT with TERM_OWNER. For each job it prints

  Job <ID> is being terminated

or why it cannot on standard error (Job <ID>: No matching job found,
Job <ID>: User permission denied, Job <ID>: Job has already finished), and
exits 255 when any job failed. A whole "Job <ID> is submitted ..." line,
as bsub prints it, is taken for its job id.

  -r          end the job at once as EXIT (TERM_FORCE_OWNER), without
              waiting for its processes, which are killed
  -s SIGNAL   send the signal (a name, with or without SIG, or a number)
              instead of killing: "Job <ID> is being signaled". A pending
              job takes only KILL, TERM and INT (it is killed), STOP (it
              is held) and CONT (a held job is released); STOP and TSTP
              suspend a running job and CONT resumes it
  -u USER     jobs of that user (all: everyone's)
  -J NAME     jobs of that name (a job without -J is named by its
              command; * matches any characters)
  -q QUEUE    jobs of that queue
  -m HOST     jobs running on that host, or on a host group's hosts
  -stat run|pend|susp
              every job in that state (RUN; PEND; PSUSP, USUSP, SSUSP)
              that the other options select, as -b does
  -b          kill many jobs: with 0, the jobs that cannot be killed are
              skipped in silence (ignored with -r and -s)
  -d          record a started job as DONE (exit code 0) once killed; a
              pending job is killed as without it (ignored with -r, -s)
  -g GROUP    jobs of that job group (not of the groups under it)
  -app NAME   jobs of that application profile
  -sla NAME   jobs of that service class
  -l          list the signal names -s takes
  -C REASON   keep the reason (up to 4095 characters) with the kill in
              the event log; bhist -l shows it

Job ids given name the jobs, and -u -J -q -m are then ignored, as in LSF.
0 stands for every unfinished job the options select (the caller's, unless
-u says otherwise); with -u, -J, -q or -m and no job id, bkill acts on the
last job submitted of those they select.` + lsfStateHelp,
		example: `  lsfc bkill 1001
  bkill 0
  bkill -s USR1 1001
  bkill -q normal -u all 0
  bkill -r 1001`,
	}
	return newLSFCmd(e, s, func(ctx context.Context, a *lsfArgs) error {
		return runBkill(ctx, e, a)
	})
}

// bkillOptions returns the options of bkill lsfc implements.
func bkillOptions() []lsfOption {
	return []lsfOption{
		{"b", ""}, {"J", "job_name"}, {"m", "host_name|host_group"}, {"q", "queue_name"}, {"r", ""},
		{"s", "signal"}, {"stat", "run|pend|susp"}, {"u", "user_name|all"}, {"g", "job_group_name"},
		{"app", "application_profile_name"}, {"sla", "service_class_name"}, {"l", ""}, {"d", ""},
		{"C", "kill_reason"},
	}
}

// bkillRefusedOptions returns the options LSF 10.1 documents for bkill that lsfc does
// not implement, each with the shape of its argument ("" for a switch).
func bkillRefusedOptions() []lsfOption {
	return []lsfOption{
		{"V", ""},
	}
}

// runBkill kills, or signals, the jobs bkill's operands and options name.
func runBkill(ctx context.Context, e env, a *lsfArgs) error {
	if a.has("l") {
		// The signal names bkill -s takes, in the order of their numbers.
		names := slices.Collect(maps.Keys(signalNumbers()))
		slices.SortFunc(names, func(x, y string) int {
			return cmp.Or(cmp.Compare(signalNumbers()[x], signalNumbers()[y]), strings.Compare(x, y))
		})
		fmt.Fprintln(e.stdout, strings.Join(names, " "))
		return nil
	}
	action, req := "kill", &api.ActionRequest{}
	if r, err := actionReason("bkill", a); err != nil {
		return err
	} else if r != nil {
		req.Reason = r.Reason
	}
	switch {
	case a.has("r") && a.has("s"):
		return usageError("bkill: -r and -s cannot be used together")
	case a.has("b") && a.has("stat"):
		return usageError("bkill: -b and -stat cannot be used together")
	case a.has("r"):
		req.Remove = true
	case a.has("d"):
		// Ignored with -r and -s, as in LSF.
		req.Done = true
	case a.has("s"):
		n, err := parseSignal(a.value("s"))
		if err != nil {
			return usageError("bkill: %v", err)
		}
		action, req.Signal = "signal", n
	}
	sel := jobSelection{user: a.value("u"), name: a.value("J"), queue: a.value("q"), host: a.value("m"),
		stat: a.value("stat"), group: a.value("g"), app: a.value("app"), sla: a.value("sla")}
	if len(sel.group) > 1 {
		sel.group = strings.TrimSuffix(sel.group, "/")
	}
	if sel.stat != "" && !slices.Contains([]string{"run", "pend", "susp"}, sel.stat) {
		return usageError("bkill: -stat takes run, pend or susp, not %q", sel.stat)
	}
	quiet := (a.has("b") || a.has("stat")) && !a.has("r") && !a.has("s")
	operands := a.operands
	if len(operands) == 0 {
		switch {
		case sel.stat != "":
			operands = []string{"0"}
		case sel.user == "" && sel.name == "" && sel.queue == "" && sel.host == "" && !sel.narrows():
			return usageError("bkill: no job id given")
		}
	}
	c, err := dialDaemon(e, a)
	if err != nil {
		return lsfFailed(e, "bkill", err)
	}
	if err := sel.resolveHosts(ctx, c); err != nil {
		return lsfFailed(e, "bkill", err)
	}
	var ids []jobTarget
	failed := false
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
			// The last job submitted: a job, or every element of an
			// array.
			id, _ := api.SplitID(jobs[len(jobs)-1].ID)
			first := len(jobs) - 1
			for first > 0 && api.SplitIDJob(jobs[first-1].ID) == id && jobs[first-1].Index > 0 {
				first--
			}
			jobs = jobs[first:]
		}
		ids = append(ids, targetsOf(jobs)...)
		return nil
	}
	if len(operands) == 0 {
		if err := selected(true); err != nil {
			return lsfFailed(e, "bkill", err)
		}
	}
	for _, s := range operands {
		if s == "0" {
			if err := selected(false); err != nil {
				return lsfFailed(e, "bkill", err)
			}
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
	if sel.narrows() && len(a.operands) > 0 {
		// Job ids given with -g, -app or -sla: those not of the group,
		// profile or class are not touched.
		ids, err = sel.keepTargets(ctx, c, ids, func(id int64) {
			fmt.Fprintf(e.stderr, "Job <%d>: No matching job found\n", id)
			failed = true
		})
		if err != nil {
			return lsfFailed(e, "bkill", err)
		}
	}
	for _, t := range ids {
		// -b (quiet) skips the jobs it cannot kill.
		if !applyAction(ctx, e, c, "bkill", t, action, req, quiet) && !quiet {
			failed = true
		}
	}
	if failed {
		return exit(exitLSF, nil)
	}
	return nil
}

// A jobSelection is what -u, -J, -q, -m and -stat of bkill select.
// The user and the queue are asked of the daemon; the rest is kept by
// filter.
type jobSelection struct {
	user, name, queue, host, stat string
	// hosts, once resolved (resolveHosts), are the hosts -m names: a
	// host, or a host group's hosts.
	hosts map[string]bool
	// group, app and sla are -g (the jobs of that job group, not of the
	// groups under it, as LSF's bkill does), -app and -sla; they narrow
	// job ids given too.
	group, app, sla string
}

// narrows reports whether -g, -app or -sla was given.
func (s jobSelection) narrows() bool { return s.group != "" || s.app != "" || s.sla != "" }

// matches reports whether a job is of the selection's group, profile and
// service class.
func (s jobSelection) matches(j *api.Job) bool {
	return (s.group == "" || j.JobGroup == s.group) && (s.app == "" || j.App == s.app) && (s.sla == "" || j.Sla == s.sla)
}

// keepTargets returns the targets whose job is of the selection's group,
// profile and service class; no is called for each other one (and those
// not found).
func (s jobSelection) keepTargets(ctx context.Context, c *api.Client, ts []jobTarget, no func(int64)) ([]jobTarget, error) {
	if len(ts) == 0 {
		return nil, nil
	}
	ids := make([]int64, len(ts))
	for i, t := range ts {
		ids[i] = t.id
	}
	jobs, err := c.Jobs(ctx, api.JobQuery{IDs: ids})
	if err != nil {
		return nil, err
	}
	ok := map[int64]bool{}
	for _, j := range jobs {
		id := api.SplitIDJob(j.ID)
		ok[id] = ok[id] || s.matches(&j)
	}
	var out []jobTarget
	for _, t := range ts {
		if ok[t.id] {
			out = append(out, t)
		} else {
			no(t.id)
		}
	}
	return out, nil
}

// filter returns the jobs of the selection's name, host and state, in
// the order of their ids (submission order).
func (s jobSelection) filter(jobs []api.Job) []api.Job {
	var out []api.Job
	for _, j := range jobs {
		if s.name != "" && !matchJobName(s.name, jobName(&j)) && !matchArrayName(s.name, &j) {
			continue
		}
		if s.host != "" && !s.onHosts(j.ExecHosts) {
			continue
		}
		if s.stat != "" && jobStatClass(j.State) != s.stat || !s.matches(&j) {
			continue
		}
		out = append(out, j)
	}
	slices.SortFunc(out, compareJobIDs)
	return out
}

// resolveHosts reads -m as a host or a host group of the daemon's
// configuration.
func (s *jobSelection) resolveHosts(ctx context.Context, c *api.Client) error {
	if s.host == "" {
		return nil
	}
	hosts, err := hostSelection(ctx, c, s.host)
	s.hosts = hosts
	return err
}

// onHosts reports whether a job runs on a host -m names.
func (s jobSelection) onHosts(exec []string) bool {
	if s.hosts == nil {
		return slices.Contains(exec, s.host)
	}
	return slices.ContainsFunc(exec, func(h string) bool { return s.hosts[h] })
}

// none is the message for a selection that found no job, as LSF words it.
func (s jobSelection) none() string {
	if s.name != "" || s.host != "" || s.stat != "" || s.queue != "" || (s.user != "" && s.user != "all") || s.narrows() {
		return "No matching job found"
	}
	return "No unfinished job found"
}

// jobStatClass returns the class of a job state bkill -stat names: run,
// pend, susp, or "" for a state in none of them.
func jobStatClass(state string) string {
	switch state {
	case "RUN":
		return "run"
	case "PEND":
		return "pend"
	case "PSUSP", "USUSP", "SSUSP":
		return "susp"
	}
	return ""
}

// signalNumbers returns the signals bkill -s takes by name, as Linux
// numbers them.
func signalNumbers() map[string]int {
	return map[string]int{
		"HUP": 1, "INT": 2, "QUIT": 3, "ILL": 4, "TRAP": 5, "ABRT": 6, "IOT": 6, "BUS": 7, "FPE": 8, "KILL": 9,
		"USR1": 10, "SEGV": 11, "USR2": 12, "PIPE": 13, "ALRM": 14, "TERM": 15, "STKFLT": 16, "CHLD": 17,
		"CONT": 18, "STOP": 19, "TSTP": 20, "TTIN": 21, "TTOU": 22, "URG": 23, "XCPU": 24, "XFSZ": 25,
		"VTALRM": 26, "PROF": 27, "WINCH": 28, "IO": 29, "POLL": 29, "PWR": 30, "SYS": 31,
	}
}

// parseSignal reads the signal of bkill -s: a name (KILL, SIGKILL, in
// any case) or a number from 1 to 64.
func parseSignal(s string) (int, error) {
	if n, err := strconv.Atoi(s); err == nil {
		if n < 1 || n > 64 {
			return 0, fmt.Errorf("bad signal number %d (want 1 to 64)", n)
		}
		return n, nil
	}
	name := strings.TrimPrefix(strings.ToUpper(s), "SIG")
	if n, ok := signalNumbers()[name]; ok {
		return n, nil
	}
	return 0, fmt.Errorf("unknown signal %q", s)
}
