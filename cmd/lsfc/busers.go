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

func newBusersCmd(e env) *lsfCommand {
	s := lsfSpec{
		name:     "busers",
		refused:  busersRefusedOptions(),
		options:  []lsfOption{{"w", ""}, {"alloc", ""}, {"o", `"field[:width] ... [delimiter='c']"`}, {"json", ""}},
		short:    "Show users' job counts and limits in lsfc serve",
		operands: "[user_name ... | all]",
		long: `busers shows, for the caller or the users named (all: every user with an
unfinished job or a row of their own in lsb.users), one line:

  USER/GROUP          JL/P    MAX  NJOBS   PEND    RUN  SSUSP  USUSP    RSV

JL/P and MAX are the user's JL/P and MAX_JOBS of lsb.users (their own
row, else the first group@ row that holds them, else default; "-" for
none); the rest count the slots of the user's unfinished jobs: all of
them, pending (PEND and PSUSP), running, suspended by the system and by
the user, and reserved by pending jobs (SLOT_RESERVE, RESOURCE_RESERVE).

A user group named (a group of lsb.users) counts the jobs of all its
members, against the group's own row of lsb.users.

  -w       add the pending job thresholds: MPEND (MAX_PEND_SLOTS, the
           slots the pending jobs may ask for), PJOBS (pending jobs) and
           MPJOBS (MAX_PEND_JOBS), from the row of lsb.users or, when
           lower, lsb.params; "-" for none
  -alloc   count only the slots jobs hold: NJOBS is RUN + SSUSP + USUSP +
           RSV, and PEND is 0
  -o "FIELDS"
           the fields given, in that order, each NAME[:[-]WIDTH] (- to
           right-align), and delimiter='C' between them: user, jl/p, max,
           njobs, pend, run, ssusp, ususp, rsv, pjobs (pending jobs, not
           slots), mpend, mpjobs, or all
  -json    one record a user, with -o's fields (else the default ones),
           every value a string` + lsfStateHelp,
		example: `  lsfc busers
  busers all
  busers -w all`,
	}
	return newLSFCmd(e, s, func(ctx context.Context, a *lsfArgs) error {
		c, err := dialDaemon(e, a)
		if err != nil {
			return lsfFailed(e, "busers", err)
		}
		var cols []userColumn
		delim := " "
		if a.has("o") {
			if cols, delim, err = parseUserColumns(a.value("o")); err != nil {
				return usageError("busers: -o: %v", err)
			}
		}
		users, err := c.Users(ctx, a.operands)
		if err != nil {
			return lsfFailed(e, "busers", err)
		}
		if a.has("alloc") {
			for i := range users {
				u := &users[i]
				u.NJobs, u.Pend = u.Run+u.SSusp+u.USusp+u.Rsv, 0
			}
		}
		switch {
		case a.has("json"):
			if cols == nil {
				cols = defaultUserColumns()
			}
			var recs []lsfRecord
			for _, u := range users {
				var r lsfRecord
				for _, c := range cols {
					r = append(r, lsfField{strings.ToUpper(c.name), userField(u, c.name)})
				}
				recs = append(recs, r)
			}
			if err := writeLSFJSON(e.stdout, "busers", "USERS", recs); err != nil {
				return exit(exitUsage, err)
			}
		case cols != nil:
			writeUserColumns(e.stdout, cols, delim, textSafe(users))
		case a.has("w"):
			writeUsersPend(e.stdout, users)
		default:
			writeUsers(e.stdout, users)
		}
		return nil
	})
}

// busersRow is the layout of busers's lines.
const busersRow = "%-19s %4s %6s %6s %6s %6s %6s %6s %6s\n"

// writeUsers prints busers's table.
func writeUsers(w io.Writer, users []api.User) {
	users = textSafe(users)
	fmt.Fprintf(w, busersRow, "USER/GROUP", "JL/P", "MAX", "NJOBS", "PEND", "RUN", "SSUSP", "USUSP", "RSV")
	dash := func(s string, set bool) string {
		if !set {
			return "-"
		}
		return s
	}
	for _, u := range users {
		fmt.Fprintf(w, busersRow, u.Name, dash(strconv.FormatFloat(u.JLP, 'f', -1, 64), u.JLP > 0),
			dash(strconv.Itoa(u.Max), u.Max > 0), strconv.Itoa(u.NJobs), strconv.Itoa(u.Pend), strconv.Itoa(u.Run),
			strconv.Itoa(u.SSusp), strconv.Itoa(u.USusp), strconv.Itoa(u.Rsv))
	}
}

// busersRefusedOptions returns the options LSF 10.1 documents for busers
// that lsfc does not implement, each with the shape of its argument (""
// for a switch).
func busersRefusedOptions() []lsfOption {
	return []lsfOption{{"V", ""}}
}

// A userColumn is one field of busers -o.
type userColumn struct {
	name  string
	width int // 0: as wide as the widest value
	right bool
}

// userFieldNames are the fields busers -o knows, in the order "all"
// gives them.
var userFieldNames = []string{"user", "jl/p", "max", "njobs", "pend", "run", "ssusp", "ususp", "rsv", "pjobs", "mpend", "mpjobs"}

// defaultUserColumns are busers's default fields.
func defaultUserColumns() []userColumn {
	var out []userColumn
	for _, n := range userFieldNames[:9] {
		out = append(out, userColumn{name: n})
	}
	return out
}

// writeUsersPend prints busers -w's table: busers's columns, then the
// pending job thresholds.
func writeUsersPend(w io.Writer, users []api.User) {
	users = textSafe(users)
	row := strings.TrimSuffix(busersRow, "\n") + " %6s %6s %6s\n"
	fmt.Fprintf(w, row, "USER/GROUP", "JL/P", "MAX", "NJOBS", "PEND", "RUN", "SSUSP", "USUSP", "RSV", "MPEND", "PJOBS", "MPJOBS")
	for _, u := range users {
		f := func(name string) any { return userField(u, name) }
		fmt.Fprintf(w, row, f("user"), f("jl/p"), f("max"), f("njobs"), f("pend"), f("run"), f("ssusp"), f("ususp"), f("rsv"),
			f("mpend"), f("pjobs"), f("mpjobs"))
	}
}

// parseUserColumns reads busers -o: fields NAME[:[-][WIDTH]], separated
// by blanks, "all" for every field, and delimiter='C' (or "C"). Names
// are matched without regard to case.
func parseUserColumns(spec string) ([]userColumn, string, error) {
	delim := " "
	var cols []userColumn
	for _, f := range strings.Fields(spec) {
		if v, ok := strings.CutPrefix(strings.ToLower(f), "delimiter="); ok {
			if len(v) < 2 || (v[0] != '\'' && v[0] != '"') || v[len(v)-1] != v[0] {
				return nil, "", fmt.Errorf("delimiter %q: want delimiter='C'", f[len("delimiter="):])
			}
			delim = f[len("delimiter=")+1 : len(f)-1]
			continue
		}
		name, width, hasWidth := strings.Cut(f, ":")
		c := userColumn{name: strings.ToLower(name)}
		if hasWidth && width != "" {
			w, right := strings.CutPrefix(width, "-")
			n, err := strconv.Atoi(w)
			if err != nil || n <= 0 || n > 4096 {
				return nil, "", fmt.Errorf("field %q: the width is a number from 1 to 4096", f)
			}
			c.width, c.right = n, right
		}
		if c.name == "all" {
			for _, n := range userFieldNames {
				cols = append(cols, userColumn{name: n, width: c.width, right: c.right})
			}
			continue
		}
		if !slices.Contains(userFieldNames, c.name) {
			return nil, "", fmt.Errorf("unknown field %q (fields: %s)", name, strings.Join(userFieldNames, " "))
		}
		cols = append(cols, c)
	}
	if len(cols) == 0 {
		return nil, "", fmt.Errorf("no field given")
	}
	return cols, delim, nil
}

// userField returns one field of a user's row, as busers prints it.
func userField(u api.User, name string) string {
	switch name {
	case "user":
		return u.Name
	case "jl/p":
		if u.JLP > 0 {
			return strconv.FormatFloat(u.JLP, 'f', -1, 64)
		}
		return "-"
	case "max":
		if u.Max > 0 {
			return strconv.Itoa(u.Max)
		}
		return "-"
	case "njobs":
		return strconv.Itoa(u.NJobs)
	case "pend":
		return strconv.Itoa(u.Pend)
	case "run":
		return strconv.Itoa(u.Run)
	case "ssusp":
		return strconv.Itoa(u.SSusp)
	case "ususp":
		return strconv.Itoa(u.USusp)
	case "rsv":
		return strconv.Itoa(u.Rsv)
	case "pjobs":
		return strconv.Itoa(u.PJobs)
	case "mpend":
		return threshold(u.MPend)
	case "mpjobs":
		return threshold(u.MPJobs)
	}
	return ""
}

// threshold returns a pending job threshold as busers prints it.
func threshold(n *int) string {
	if n == nil {
		return "-"
	}
	return strconv.Itoa(*n)
}

// writeUserColumns prints busers -o's table: a header of the fields'
// names in capitals, then a line a user.
func writeUserColumns(w io.Writer, cols []userColumn, delim string, users []api.User) {
	rows := [][]string{{}}
	for _, c := range cols {
		rows[0] = append(rows[0], strings.ToUpper(c.name))
	}
	for _, u := range users {
		var r []string
		for _, c := range cols {
			r = append(r, userField(u, c.name))
		}
		rows = append(rows, r)
	}
	widths := make([]int, len(cols))
	for i, c := range cols {
		widths[i] = c.width
		if c.width == 0 {
			for _, r := range rows {
				widths[i] = max(widths[i], len(r[i]))
			}
		}
	}
	for _, r := range rows {
		var b strings.Builder
		for i, v := range r {
			if i > 0 {
				b.WriteString(delim)
			}
			if len(v) > widths[i] {
				v = v[:widths[i]]
			}
			switch {
			case i == len(r)-1 && !cols[i].right:
				b.WriteString(v)
			case cols[i].right:
				fmt.Fprintf(&b, "%*s", widths[i], v)
			default:
				fmt.Fprintf(&b, "%-*s", widths[i], v)
			}
		}
		fmt.Fprintln(w, b.String())
	}
}
