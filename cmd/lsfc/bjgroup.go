package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/lsfc/lsfc/runtime/api"
)

// Job groups: bgadd, bgmod and bgdel change them, bjgroup shows them.

func newBgaddCmd(e env) *lsfCommand {
	s := lsfSpec{
		name:     "bgadd",
		options:  []lsfOption{{"L", "limit"}, {"sla", "service_class_name"}},
		refused:  bgaddRefusedOptions(),
		short:    "Create a job group of lsfc serve",
		operands: "job_group_name",
		long: `bgadd creates a job group, given by its full path (/risk/daily), and the
groups above it that do not exist yet; the caller owns them. It prints

  Job group </risk/daily> was added.

  -L LIMIT   the most started jobs (RUN, SSUSP, USUSP) of the group and all
             its subgroups together, 0 to 2147483647; not more than the
             limit of a group above it. A job counts once, whatever its
             slots. Without -L the group has no limit of its own
  -sla NAME  attach the group to a service class of lsb.serviceclasses:
             jobs submitted to the group (or a group under it) without
             -sla join that class

bsub -g makes the groups it names when they do not exist (implicit groups).` + lsfStateHelp,
		example: `  lsfc bgadd -L 10 /risk
  bgadd /risk/daily`,
	}
	return newLSFCmd(e, s, func(ctx context.Context, a *lsfArgs) error {
		if len(a.operands) != 1 {
			return usageError("bgadd: give one job group name")
		}
		limit, err := jobGroupLimit(a)
		if err != nil {
			return usageError("bgadd: %v", err)
		}
		return changeJobGroups(ctx, e, a, "bgadd", api.JobGroupRequest{Op: "add", Path: a.operands[0], Limit: limit, SLA: a.value("sla")})
	})
}

func newBgmodCmd(e env) *lsfCommand {
	s := lsfSpec{
		name:     "bgmod",
		options:  []lsfOption{{"L", "limit"}, {"Ln", ""}, {"u", "job_group_owner"}},
		refused:  bgmodRefusedOptions(),
		short:    "Change the job limit or the owner of a job group of lsfc serve",
		operands: "job_group_name",
		long: `bgmod changes a job group's limit: -L LIMIT sets it (not more than the
limit of a group above, nor less than that of a group under it), -Ln
removes it (the group is then bound only by the groups above it). The
group's owner, the owner of a group above it, or an administrator may
change it. -u USER makes USER the group's owner (with or without -L or
-Ln), who may then change and delete it; the same users may give it. It
prints

  Job group /risk is modified.` + lsfStateHelp,
		example: `  lsfc bgmod -L 6 /risk
  bgmod -Ln /risk/daily
  bgmod -u bob /risk/weekly`,
	}
	return newLSFCmd(e, s, func(ctx context.Context, a *lsfArgs) error {
		switch {
		case len(a.operands) != 1:
			return usageError("bgmod: give one job group name")
		case a.has("L") && a.has("Ln"):
			return usageError("bgmod: give one of -L limit and -Ln")
		case !a.has("L") && !a.has("Ln") && !a.has("u"):
			return usageError("bgmod: give -L limit, -Ln or -u owner")
		case a.has("u") && a.value("u") == "":
			return usageError("bgmod: -u takes a user name")
		}
		limit, err := jobGroupLimit(a)
		if err != nil {
			return usageError("bgmod: %v", err)
		}
		return changeJobGroups(ctx, e, a, "bgmod", api.JobGroupRequest{Op: "mod", Path: a.operands[0], Limit: limit,
			Owner: a.value("u"), KeepLimit: !a.has("L") && !a.has("Ln")})
	})
}

func newBgdelCmd(e env) *lsfCommand {
	s := lsfSpec{
		name:     "bgdel",
		options:  []lsfOption{{"u", "user_name|all"}, {"c", "job_group_name"}, {"d", "idle_time"}},
		refused:  bgdelRefusedOptions(),
		short:    "Delete job groups of lsfc serve",
		operands: "job_group_name | 0",
		long: `bgdel deletes a job group and every group under it. A group that holds
unfinished jobs (its own or its subgroups') is not deleted; finished jobs
keep the group's name. A user deletes their own groups; an administrator
any. It prints

  Job group /risk is deleted.

0 deletes every empty job group of the caller; with -u USER those of that
user, with -u all everyone's (-u is an administrator's, and is ignored
when a group is named). -c GROUP deletes the empty groups of GROUP's
subtree, GROUP included, and leaves those holding unfinished jobs.
-d SECONDS deletes the caller's groups (an administrator's: anyone's)
idle for more than that many seconds: holding no unfinished job, theirs
or their subgroups', since they were made or their last job ended.` + lsfStateHelp,
		example: `  lsfc bgdel /risk/daily
  bgdel 0
  bgdel -d 86400`,
	}
	return newLSFCmd(e, s, func(ctx context.Context, a *lsfArgs) error {
		if a.has("d") {
			if len(a.operands) != 0 || a.has("u") || a.has("c") {
				return usageError("bgdel: -d goes alone, with its idle time")
			}
			n, err := strconv.ParseInt(a.value("d"), 10, 64)
			if err != nil || n < 0 {
				return usageError("bgdel: -d %q: the idle time is a number of seconds", a.value("d"))
			}
			return changeJobGroups(ctx, e, a, "bgdel", api.JobGroupRequest{Op: "del", Idle: &n})
		}
		if a.has("c") {
			if len(a.operands) != 0 || a.has("u") {
				return usageError("bgdel: -c goes alone, with its job group name")
			}
			return changeJobGroups(ctx, e, a, "bgdel", api.JobGroupRequest{Op: "del", Path: a.value("c"), Empty: true})
		}
		if len(a.operands) != 1 {
			return usageError("bgdel: give one job group name, or 0")
		}
		req := api.JobGroupRequest{Op: "del", Path: a.operands[0]}
		if req.Path == "0" {
			req.Path, req.Empty, req.User = "", true, a.value("u")
		}
		return changeJobGroups(ctx, e, a, "bgdel", req)
	})
}

// jobGroupLimit reads -L (nil without it, or with -Ln).
func jobGroupLimit(a *lsfArgs) (*int, error) {
	if !a.has("L") || a.has("Ln") {
		return nil, nil
	}
	n, err := strconv.ParseInt(a.value("L"), 10, 64)
	if err != nil || n < 0 || n > 2147483647 {
		return nil, fmt.Errorf("-L %q: the limit is a number from 0 to 2147483647", a.value("L"))
	}
	limit := int(n)
	return &limit, nil
}

// changeJobGroups sends a change of job groups and prints the answer.
func changeJobGroups(ctx context.Context, e env, a *lsfArgs, name string, req api.JobGroupRequest) error {
	c, err := dialDaemon(e, a)
	if err != nil {
		return lsfFailed(e, name, err)
	}
	resp, err := c.ChangeJobGroups(ctx, req)
	if err != nil {
		printLSFError(e, name, err)
		return exit(exitLSF, nil)
	}
	fmt.Fprintln(e.stdout, resp.Message)
	return nil
}

func newBjgroupCmd(e env) *lsfCommand {
	s := lsfSpec{
		name:     "bjgroup",
		options:  []lsfOption{{"N", ""}, {"s", ""}},
		refused:  bjgroupRefusedOptions(),
		short:    "Show the job groups of lsfc serve",
		operands: "[-s [job_group_name]]",
		long: `bjgroup shows every job group, parents before their subgroups:

  GROUP_NAME  NJOBS  PEND  RUN  SSUSP  USUSP  FINISH  SLA  JLIMIT  OWNER

with the jobs of the group and all its subgroups by state (PEND counts
PSUSP jobs too, FINISH the finished jobs the daemon still holds), the
service class it is attached to ("()" for none), JLIMIT the started jobs
against the group's limit ("-" for none), and the owner.

  -s [GROUP]  sort by hierarchy: each group followed by its subgroups;
              with GROUP, that group and those under it; with GROUP/
              (a trailing slash), that group alone
  -N          count job slots rather than jobs: GROUP_NAME NSLOTS PEND
              RUN SSUSP USUSP RSV SLA OWNER (RSV, slots reserved for
              pending jobs, is not kept by group and shows 0)

With no job group it prints "No job group found" and exits 255.` + lsfStateHelp,
		example: `  lsfc bjgroup
  bjgroup -s /risk
  bjgroup -N`,
	}
	return newLSFCmd(e, s, func(ctx context.Context, a *lsfArgs) error {
		if len(a.operands) > 1 || len(a.operands) == 1 && !a.has("s") {
			return usageError("bjgroup: a job group name goes after -s, and only one")
		}
		c, err := dialDaemon(e, a)
		if err != nil {
			return lsfFailed(e, "bjgroup", err)
		}
		groups, err := c.JobGroups(ctx)
		if err != nil {
			return lsfFailed(e, "bjgroup", err)
		}
		if a.has("s") {
			name := ""
			if len(a.operands) == 1 {
				name = a.operands[0]
			}
			groups = jobGroupTree(groups, name)
		}
		if len(groups) == 0 {
			fmt.Fprintln(e.stderr, "No job group found")
			return exit(exitLSF, nil)
		}
		writeJobGroups(e.stdout, groups, a.has("N"))
		return nil
	})
}

// jobGroupTree orders job groups by hierarchy, each followed by its
// subgroups in path order. With name, only that group and those under
// it; with a trailing "/", that group alone.
func jobGroupTree(groups []api.JobGroup, name string) []api.JobGroup {
	children := map[string][]api.JobGroup{}
	have := map[string]bool{}
	for _, g := range groups {
		have[g.Path] = true
	}
	var roots []api.JobGroup
	for _, g := range groups {
		p := g.Path[:max(strings.LastIndexByte(g.Path, '/'), 0)]
		if p != "" && have[p] {
			children[p] = append(children[p], g)
		} else {
			roots = append(roots, g)
		}
	}
	var out []api.JobGroup
	var walk func(g api.JobGroup)
	walk = func(g api.JobGroup) {
		out = append(out, g)
		kids := children[g.Path]
		byPath(kids)
		for _, k := range kids {
			walk(k)
		}
	}
	alone := len(name) > 1 && strings.HasSuffix(name, "/")
	name = strings.TrimSuffix(name, "/")
	if name != "" {
		for _, g := range groups {
			if g.Path != name {
				continue
			}
			if alone {
				return []api.JobGroup{g}
			}
			walk(g)
		}
		return out
	}
	byPath(roots)
	for _, g := range roots {
		walk(g)
	}
	return out
}

// byPath sorts job groups by path, in place.
func byPath(gs []api.JobGroup) {
	slices.SortFunc(gs, func(a, b api.JobGroup) int { return strings.Compare(a.Path, b.Path) })
}

// writeJobGroups prints bjgroup's table, in jobs or (slots) in slots.
func writeJobGroups(w io.Writer, groups []api.JobGroup, slots bool) {
	groups = textSafe(groups)
	head := []string{"GROUP_NAME", "NJOBS", "PEND", "RUN", "SSUSP", "USUSP", "FINISH", "SLA", "JLIMIT", "OWNER"}
	if slots {
		head = []string{"GROUP_NAME", "NSLOTS", "PEND", "RUN", "SSUSP", "USUSP", "RSV", "SLA", "OWNER"}
	}
	rows := [][]string{head}
	for _, g := range groups {
		sla := "()"
		if g.SLA != "" {
			sla = g.SLA
		}
		limit := "-"
		if g.Limit >= 0 {
			limit = strconv.Itoa(g.Limit)
		}
		n := g.Jobs
		if slots {
			// NSLOTS: the slots of the unfinished jobs.
			n = g.Slots
			n.Total -= n.Finish
		}
		row := []string{g.Path, strconv.Itoa(n.Total), strconv.Itoa(n.Pend), strconv.Itoa(n.Run), strconv.Itoa(n.SSusp),
			strconv.Itoa(n.USusp)}
		if slots {
			row = append(row, "0", sla, g.Owner)
		} else {
			row = append(row, strconv.Itoa(n.Finish), sla, strconv.Itoa(g.Started)+"/"+limit, g.Owner)
		}
		rows = append(rows, row)
	}
	width := make([]int, len(head))
	for _, r := range rows {
		for i, c := range r {
			width[i] = max(width[i], len(c))
		}
	}
	for _, r := range rows {
		var b strings.Builder
		for i, c := range r {
			if i == 0 {
				fmt.Fprintf(&b, "%-*s", width[i], c)
			} else {
				fmt.Fprintf(&b, "  %*s", width[i], c)
			}
		}
		fmt.Fprintln(w, b.String())
	}
}

// bgaddRefusedOptions returns the options LSF 10.1 documents for bgadd
// that lsfc does not implement.
func bgaddRefusedOptions() []lsfOption { return []lsfOption{{"V", ""}} }

// bgmodRefusedOptions returns the options LSF 10.1 documents for bgmod
// that lsfc does not implement.
func bgmodRefusedOptions() []lsfOption { return []lsfOption{{"V", ""}} }

// bgdelRefusedOptions returns the options LSF 10.1 documents for bgdel
// that lsfc does not implement.
func bgdelRefusedOptions() []lsfOption {
	return []lsfOption{{"V", ""}}
}

// bjgroupRefusedOptions returns the options LSF 10.1 documents for
// bjgroup that lsfc does not implement.
func bjgroupRefusedOptions() []lsfOption { return []lsfOption{{"V", ""}} }
