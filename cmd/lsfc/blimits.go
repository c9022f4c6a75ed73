package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/lsfc/lsfc/runtime/api"
)

func newBlimitsCmd(e env) *lsfCommand {
	s := lsfSpec{
		name:    "blimits",
		refused: blimitsRefusedOptions(),
		options: []lsfOption{{"a", ""}, {"c", ""}, {"w", ""}, {"n", "limit_name"}, {"u", "user_name | user_group"},
			{"q", "queue_name"}, {"m", "host_name | host_group"}, {"P", "project_name"}, {"A", "application_name"}, {"json", ""}},
		short: "Show the lsb.resources limits and what running jobs use of them",
		long: `blimits shows the resource allocation limits of the Limit sections of
lsb.resources that running jobs use, one line for each consumer that uses
some:

  INTERNAL RESOURCE LIMITS:

  NAME      USERS     QUEUES    HOSTS     PROJECTS  SLOTS     MEM       JOBS

A consumer column holds the consumer's name along a PER_ key (PER_USER,
PER_QUEUE, PER_HOST, PER_PROJECT), else the section's list as written
(USERS = ..., QUEUES = ...), "-" when the section does not name that kind
of consumer; APPS is added when a section names application profiles.
SLOTS, MEM (in MB) and JOBS are USED/LIMIT, "-" when the section sets no
such limit. These are the limits lsfc enforces: a section's TMP, SWP,
RESOURCE and other limits, and a MEM given as a percentage, are read but
not counted, and are shown only by -c. With no usage to show, blimits
prints "No resource usage found.".

  -a        every section that limits slots, memory or jobs, used or not;
            one that nothing uses has one line, its usage "-" (-/LIMIT)
  -c        the Limit sections as configured, each Begin Limit ... End
            Limit with its keys as written, TMP, SWP and the others too
  -w        names in full; without it a name longer than its column
            keeps its end, after "*"
  -n NAMES  only the sections named
  -u USERS  only the sections that apply to these users, and of a
            PER_USER section their lines; a user group stands for its
            members
  -q QUEUES, -m HOSTS, -P PROJECTS, -A APPLICATIONS
            the same for queues, hosts (a host group stands for its
            hosts), projects and application profiles
  -json     one record a line of the table, every value a string

Each list is one argument, its names separated by blanks (-u "ann bob"),
or the option given again (-u ann -u bob); a list that holds "all" picks
all.` + lsfStateHelp,
		example: `  lsfc blimits
  blimits -a -w
  blimits -u ann -q night
  blimits -c -n per_user`,
	}
	return newLSFCmd(e, s, func(ctx context.Context, a *lsfArgs) error {
		if len(a.operands) > 0 {
			return usageError("blimits: unexpected argument %q (give several names as one argument: -n \"name1 name2\")", a.operands[0])
		}
		switch {
		case a.has("c") && a.has("a"):
			return usageError("blimits: -a and -c exclude each other")
		case a.has("c") && a.has("json"):
			return usageError("blimits: -json shows the usage table, not -c's configuration")
		}
		list := func(name string) []string {
			var out []string
			for _, v := range a.values(name) {
				out = append(out, strings.Fields(v)...)
			}
			return out
		}
		c, err := dialDaemon(e, a)
		if err != nil {
			return lsfFailed(e, "blimits", err)
		}
		limits, err := c.Limits(ctx, api.LimitQuery{Names: list("n"), Users: list("u"), Queues: list("q"),
			Hosts: list("m"), Projects: list("P"), Apps: list("A")})
		if err != nil {
			return lsfFailed(e, "blimits", err)
		}
		if a.has("c") {
			if len(limits) == 0 {
				fmt.Fprintln(e.stdout, "No resource configuration found.")
				return nil
			}
			writeLimitConfig(e.stdout, textSafe(limits))
			return nil
		}
		rows := limitRows(textSafe(limits), a.has("a"))
		if a.has("json") {
			var recs []lsfRecord
			for _, r := range rows {
				var rec lsfRecord
				for i, col := range limitColumns {
					rec = append(rec, lsfField{col, r[i]})
				}
				recs = append(recs, rec)
			}
			if err := writeLSFJSON(e.stdout, "blimits", "LIMITS", recs); err != nil {
				return exit(exitUsage, err)
			}
			return nil
		}
		if len(rows) == 0 {
			if a.has("a") {
				fmt.Fprintln(e.stdout, "No resource configuration found.")
			} else {
				fmt.Fprintln(e.stdout, "No resource usage found.")
			}
			return nil
		}
		writeLimitTable(e.stdout, rows, a.has("w"))
		return nil
	})
}

// limitColumns are the columns of blimits's table, in order.
var limitColumns = []string{"NAME", "USERS", "QUEUES", "HOSTS", "PROJECTS", "APPS", "SLOTS", "MEM", "JOBS"}

// limitRows returns the lines of blimits's table, each with a cell for
// each of limitColumns: a line for each consumer that uses a section and,
// with all, one for each enforced section nothing uses.
func limitRows(limits []api.Limit, all bool) [][]string {
	var rows [][]string
	for _, l := range limits {
		if !l.Enforced {
			continue
		}
		conf := map[string]string{}
		for _, s := range l.Settings {
			conf[s.Key] = s.Value
		}
		// consumer returns the cell of one kind of consumer: the name along
		// a PER_ key, else the list as written, else "-".
		consumer := func(name, key string) string {
			switch {
			case name != "":
				return name
			case conf[key] != "":
				return conf[key]
			case conf["PER_"+key[:len(key)-1]] != "":
				return conf["PER_"+key[:len(key)-1]]
			}
			return "-"
		}
		row := func(u *api.LimitUse) []string {
			var n api.LimitUse
			if u != nil {
				n = *u
			}
			cell := func(limit *float64, used float64) string {
				switch {
				case limit == nil:
					return "-"
				case u == nil:
					return "-/" + limitNumber(*limit)
				}
				return limitNumber(used) + "/" + limitNumber(*limit)
			}
			return []string{orDash(l.Name), consumer(n.User, "USERS"), consumer(n.Queue, "QUEUES"), consumer(n.Host, "HOSTS"),
				consumer(n.Project, "PROJECTS"), consumer(n.App, "APPS"),
				cell(l.Slots, float64(n.Slots)), cell(l.Mem, n.Mem), cell(l.Jobs, float64(n.Jobs))}
		}
		for i := range l.Use {
			rows = append(rows, row(&l.Use[i]))
		}
		if len(l.Use) == 0 && all {
			rows = append(rows, row(nil))
		}
	}
	return rows
}

// limitNumber prints an amount of a limit: whole, else to one decimal.
func limitNumber(x float64) string {
	if x == math.Trunc(x) && math.Abs(x) < 1e15 {
		return strconv.FormatFloat(x, 'f', 0, 64)
	}
	return strconv.FormatFloat(x, 'f', 1, 64)
}

// Widths of blimits's columns when names are cut (without -w).
const (
	limitNameWidth = 15
	limitUseWidth  = 11
)

// writeLimitTable prints blimits's table: the APPS column only when a line
// names application profiles; with wide, every column as wide as its
// longest cell, else names cut to their column.
func writeLimitTable(w io.Writer, rows [][]string, wide bool) {
	apps := false
	for _, r := range rows {
		apps = apps || r[5] != "-"
	}
	keep := func(i int) bool { return i != 5 || apps }
	widths := make([]int, len(limitColumns))
	for i, col := range limitColumns {
		widths[i] = limitNameWidth
		if i >= 6 {
			widths[i] = limitUseWidth
		}
		if wide {
			widths[i] = len(col)
			for _, r := range rows {
				widths[i] = max(widths[i], len(r[i]))
			}
		}
	}
	line := func(cells []string) {
		var b strings.Builder
		last := len(cells) - 1
		for i, c := range cells {
			if !keep(i) {
				continue
			}
			if !wide {
				c = cutStart(c, widths[i])
			}
			if i == last {
				b.WriteString(c)
				break
			}
			fmt.Fprintf(&b, "%-*s ", widths[i], c)
		}
		fmt.Fprintln(w, b.String())
	}
	fmt.Fprint(w, "INTERNAL RESOURCE LIMITS:\n\n")
	line(limitColumns)
	for _, r := range rows {
		line(r)
	}
}

// writeLimitConfig prints the Limit sections as configured (blimits -c):
// each between Begin Limit and End Limit, its keys as written, aligned.
func writeLimitConfig(w io.Writer, limits []api.Limit) {
	for i, l := range limits {
		if i > 0 {
			fmt.Fprintln(w)
		}
		settings := l.Settings
		if l.Name != "" {
			settings = append([]api.LimitSetting{{Key: "NAME", Value: l.Name}}, settings...)
		}
		width := 0
		for _, s := range settings {
			width = max(width, len(s.Key))
		}
		fmt.Fprintln(w, "Begin Limit")
		for _, s := range settings {
			fmt.Fprintf(w, "%-*s = %s\n", width, s.Key, s.Value)
		}
		fmt.Fprintln(w, "End Limit")
	}
}

// blimitsRefusedOptions returns the options LSF 10.1 documents for
// blimits that lsfc does not implement.
func blimitsRefusedOptions() []lsfOption {
	return []lsfOption{{"o", "field_name ..."}, {"fwd", ""}, {"C", "cluster_name"}, {"Lp", "ls_license_project"}, {"gl", ""}, {"V", ""}}
}
