package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lsfc/lsfc/runtime/api"
)

// Advance reservations: brsvadd makes them, brsvmod changes them,
// brsvdel deletes them, brsvs shows them; bsub -U runs a job in one.

const rsvTimeHelp = `
Times: -b and -e take [[year:][month:]day:]hour:minute, as bsub -b does (a
time without its year is the next to come); -t takes a recurring window,
[day:]hour[:minute]-[day:]hour[:minute], both ends written alike: daily
without days ("8:0-18:0"), weekly with them, days 0 (Sunday) to 6
("5:18:0-1:8:0", Friday evening to Monday morning). The cluster's times
are UTC. Reservations are held in periods of ten minutes: one that
begins or ends within a period holds all of it, and one lasts at least
ten minutes.`

func newBrsvaddCmd(e env) *lsfCommand {
	s := lsfSpec{
		name: "brsvadd",
		options: []lsfOption{{"n", "job_slots"}, {"m", `"host_name ... | host_group ..."`}, {"R", "res_req"},
			{"u", `"user_name ... | user_group ..."`}, {"g", `"user_group ..."`}, {"b", "begin_time"}, {"e", "end_time"},
			{"t", "time_window"}, {"N", "reservation_name"}, {"o", ""}, {"s", ""}, {"d", "description"}, {"unit", "slot|host"}},
		refused: []lsfOption{{"f", ""}, {"nosusp", ""}, {"q", `"queue_name ..."`}, {"E", "pre_ar_script"},
			{"Et", "pre_ar_time"}, {"Ep", "post_ar_script"}, {"Ept", "post_ar_time"}, {"p", ""}, {"V", ""}},
		short: "Add an advance reservation to lsfc serve",
		long: `brsvadd reserves job slots on hosts, for some users, over a time: once
(-b and -e) or again and again (-t). It prints

  Reservation "user1#0" is created

  -n N        the job slots to reserve (with -unit host, the hosts)
  -m "HOSTS"  the hosts and host groups to take them from, in order
  -R RES_REQ  the hosts that satisfy the requirement's select (with -m,
              those of -m that do)
  -u "USERS"  the users and user groups whose jobs may use it (-g names
              user groups, as older LSF releases did)
  -s          a system reservation: no job uses it, every slot of its hosts
              stays empty while it is active (no -u, no -n)
  -o          an open reservation: its jobs run on as ordinary jobs when
              it ends; a closed one (the default) kills them then
  -N NAME     the reservation's ID (else the first user's name and #N)
  -d TEXT     a description
  -unit slot|host  what -n counts: slots (default) or whole hosts

While a reservation is active, its slots are for the jobs submitted to it
(bsub -U) alone; before it begins they are lent only to jobs whose run
limit (or estimated run time) ends by then. A reservation that would
take, on a host, more slots than the host has beside the other
reservations of the same times is refused ("Not enough processors to be
reserved"), as is a time in the past. Administrators make reservations;
so do the users a ResourceReservation policy of lsb.resources names, on
its HOSTS and in its TIME_WINDOW.` + rsvTimeHelp + lsfStateHelp,
		example: `  lsfc brsvadd -n 4 -m "hostA hostB" -u user1 -b 13:0 -e 18:0
  brsvadd -n 8 -R "select[mem>4000]" -u "groupA" -t "5:18:0-1:8:0"
  brsvadd -s -m hostC -b 2026:12:24:0:0 -e 2026:12:26:0:0`,
	}
	return newLSFCmd(e, s, func(ctx context.Context, a *lsfArgs) error {
		req, err := brsvaddRequest(a, time.Now())
		if err != nil {
			fmt.Fprintf(e.stderr, "brsvadd: %v\n", err)
			return exit(exitLSF, nil)
		}
		c, err := dialDaemon(e, a)
		if err != nil {
			return lsfFailed(e, "brsvadd", err)
		}
		if req.ResReq != "" {
			if req.Hosts, err = rsvSelectHosts(ctx, c, req.ResReq, req.Hosts); err != nil {
				printLSFError(e, "brsvadd", err)
				return exit(exitLSF, nil)
			}
		}
		resp, err := c.ChangeReservations(ctx, req)
		if err != nil {
			printLSFError(e, "brsvadd", err)
			return exit(exitLSF, nil)
		}
		id := strings.TrimSuffix(strings.TrimPrefix(resp.Message, "Reservation "), " is created")
		fmt.Fprintf(e.stdout, "Reservation %q is created\n", id)
		return nil
	})
}

// brsvaddRequest reads brsvadd's options.
func brsvaddRequest(a *lsfArgs, now time.Time) (api.RsvRequest, error) {
	req := api.RsvRequest{Op: "add", Name: a.value("N"), Open: a.has("o"), System: a.has("s"), Desc: a.value("d")}
	if len(a.operands) > 0 {
		return req, fmt.Errorf("unexpected argument %q", a.operands[0])
	}
	switch u := a.value("unit"); u {
	case "", "slot":
	case "host":
		req.UnitHost = true
	default:
		return req, fmt.Errorf("-unit %q: Bad unit (want slot or host)", u)
	}
	if a.has("n") {
		n, err := strconv.Atoi(strings.TrimSpace(a.value("n")))
		if err != nil || n <= 0 || n > 1<<30 {
			return req, fmt.Errorf("-n %q: Bad number of job slots (want a positive number)", a.value("n"))
		}
		req.Slots = n
	}
	for _, m := range a.values("m") {
		req.Hosts = append(req.Hosts, strings.Fields(m)...)
	}
	req.ResReq = a.value("R")
	for _, o := range []string{"u", "g"} {
		for _, u := range a.values(o) {
			req.Users = append(req.Users, strings.Fields(u)...)
		}
	}
	switch {
	case req.System && (a.has("u") || a.has("g")):
		return req, fmt.Errorf("a system reservation (-s) is for no user: -u and -g cannot be given")
	case req.System && a.has("n"):
		return req, fmt.Errorf("a system reservation (-s) holds every slot of its hosts: -n cannot be given")
	case req.System && req.Open:
		return req, fmt.Errorf("-o does not apply to a system reservation (-s)")
	case !req.System && len(req.Users) == 0:
		return req, fmt.Errorf("specify the users of the reservation (-u) or a system reservation (-s)")
	case !req.System && req.Slots == 0:
		return req, fmt.Errorf("specify the job slots to reserve (-n)")
	case len(req.Hosts) == 0 && req.ResReq == "":
		return req, fmt.Errorf("specify the hosts to reserve (-m or -R)")
	}
	if err := rsvTimes(a, &req, now); err != nil {
		return req, err
	}
	if !a.has("b") && !a.has("t") {
		return req, fmt.Errorf("specify the reservation's time: -b and -e, or -t")
	}
	return req, nil
}

// rsvTimes reads -b, -e and -t into a request; for brsvadd, -b and -e
// go together.
func rsvTimes(a *lsfArgs, req *api.RsvRequest, now time.Time) error {
	if a.has("t") && (a.has("b") || a.has("e")) {
		return fmt.Errorf("specify either -b and -e or -t, not both")
	}
	if a.has("t") {
		if _, _, err := api.ParseRsvWindow(a.value("t")); err != nil {
			return fmt.Errorf("-t %v", err)
		}
		req.Window = strings.TrimSpace(a.value("t"))
		return nil
	}
	if req.Op == "add" && a.has("b") != a.has("e") {
		return fmt.Errorf("-b and -e go together")
	}
	for _, o := range []string{"b", "e"} {
		if !a.has(o) {
			continue
		}
		t, err := parseTimeSpec("-"+o, a.value(o), now, "")
		if err != nil {
			return err
		}
		if o == "b" {
			req.Begin = t.Unix()
		} else {
			req.End = t.Unix()
		}
	}
	return nil
}

// rsvSelectHosts returns the hosts that satisfy a requirement, those of
// hosts only when it names some, in their order.
func rsvSelectHosts(ctx context.Context, c *api.Client, resreq string, hosts []string) ([]string, error) {
	sel, err := c.HostsSelected(ctx, resreq)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, h := range sel {
		out = append(out, h.Name)
	}
	if len(hosts) > 0 {
		// -m names hosts (or groups, which the daemon resolves): keep
		// those the requirement selects.
		var kept []string
		for _, h := range hosts {
			if slices.Contains(out, h) {
				kept = append(kept, h)
			}
		}
		out = kept
	}
	if len(out) == 0 {
		//lint:ignore ST1005 LSF's own message, word for word
		return nil, fmt.Errorf("There are no qualified hosts found in the cluster")
	}
	return out, nil
}

func newBrsvdelCmd(e env) *lsfCommand {
	s := lsfSpec{
		name:     "brsvdel",
		refused:  []lsfOption{{"f", ""}, {"V", ""}},
		short:    "Delete advance reservations of lsfc serve",
		operands: "reservation_ID ...",
		long: `brsvdel deletes advance reservations. It prints, for each,

  Reservation user1#0 is being deleted

Their jobs are detached from them: the pending ones wait as ordinary jobs,
the started ones run on. Administrators delete any reservation; other
users those they made.` + lsfStateHelp,
		example: `  lsfc brsvdel user1#0
  brsvdel user1#0 user2#1`,
	}
	return newLSFCmd(e, s, func(ctx context.Context, a *lsfArgs) error {
		if len(a.operands) == 0 {
			return usageError("brsvdel: give the IDs of the reservations to delete")
		}
		return changeReservations(ctx, e, a, "brsvdel", api.RsvRequest{Op: "del", IDs: a.operands})
	})
}

// changeReservations sends a change of reservations and prints the
// answer.
func changeReservations(ctx context.Context, e env, a *lsfArgs, name string, req api.RsvRequest) error {
	c, err := dialDaemon(e, a)
	if err != nil {
		return lsfFailed(e, name, err)
	}
	resp, err := c.ChangeReservations(ctx, req)
	if err != nil {
		printLSFError(e, name, err)
		return exit(exitLSF, nil)
	}
	fmt.Fprintln(e.stdout, resp.Message)
	return nil
}

func newBrsvmodCmd(e env) *lsfCommand {
	s := lsfSpec{
		name: "brsvmod",
		options: []lsfOption{{"o", ""}, {"on", ""}, {"d", "description"}, {"u", `"user_name ... | user_group ..."`},
			{"b", "begin_time|[+|-]minutes"}, {"e", "end_time|[+|-]minutes"}, {"t", "time_window"},
			{"n", "job_slots"}, {"m", `"host_name ... | host_group ..."`}, {"R", "res_req"}},
		refused: []lsfOption{{"f", ""}, {"td", "begin_date-end_date"}, {"tn", ""}, {"q", `"queue_name ..."`}, {"qn", ""},
			{"nosusp", ""}, {"nonsuspn", ""}, {"E", "pre_ar_script"}, {"En", ""}, {"Et", "pre_ar_time"}, {"Etn", ""},
			{"Ep", "post_ar_script"}, {"Epn", ""}, {"Ept", "post_ar_time"}, {"Eptn", ""}, {"V", ""}},
		short:    "Change an advance reservation of lsfc serve",
		operands: "[addhost | rmhost] reservation_ID",
		long: `brsvmod changes an advance reservation. It prints

  Reservation user1#0 is modified

  -b TIME|[+|-]MIN  a new begin (not of an active reservation), or the
                    begin moved by minutes
  -e TIME|[+|-]MIN  a new end, or the end moved by minutes
  -t WINDOW         a new window (of a recurring reservation)
  -u "USERS"        new users and user groups
  -o, -on           make it open, or closed
  -d TEXT           a new description

  brsvmod addhost -n N {-m "HOSTS" | -R RES_REQ} ID
                    add N slots, taken from the hosts given
  brsvmod rmhost -m "HOSTS" ID
                    remove hosts from the reservation

The reservation after the change is checked as brsvadd checks a new one:
a change that would take more slots than a host has beside the other
reservations is refused, and the reservation stays as it was.
Administrators change any reservation; other users those they made.
brsvmod disable (of recurring periods), adduser and rmuser are not
supported by lsfc and are refused.` + rsvTimeHelp + lsfStateHelp,
		example: `  lsfc brsvmod -e +60 user1#0
  brsvmod addhost -n 2 -m hostB user1#0
  brsvmod rmhost -m hostB user1#0`,
	}
	return newLSFCmd(e, s, func(ctx context.Context, a *lsfArgs) error {
		sub := ""
		ops := a.operands
		if len(ops) == 2 {
			sub, ops = ops[0], ops[1:]
		}
		if len(ops) != 1 {
			return usageError("brsvmod: give one reservation ID (after addhost or rmhost, if any)")
		}
		fail := func(format string, args ...any) error {
			fmt.Fprintf(e.stderr, "brsvmod: "+format+"\n", args...)
			return exit(exitLSF, nil)
		}
		req := api.RsvRequest{Op: "mod", IDs: ops, Desc: a.value("d")}
		switch sub {
		case "":
			if a.has("n") || a.has("m") || a.has("R") {
				return fail("-n, -m and -R go with addhost or rmhost")
			}
		case "addhost":
			if !a.has("n") || !a.has("m") && !a.has("R") {
				return fail("addhost: give -n and -m or -R")
			}
			n, err := strconv.Atoi(strings.TrimSpace(a.value("n")))
			if err != nil || n <= 0 || n > 1<<30 {
				return fail("-n %q: Bad number of job slots (want a positive number)", a.value("n"))
			}
			req.AddSlots = n
			for _, m := range a.values("m") {
				req.Hosts = append(req.Hosts, strings.Fields(m)...)
			}
		case "rmhost":
			if a.has("n") || a.has("R") || !a.has("m") {
				return fail("rmhost: give the hosts with -m (rmhost -n is not supported by lsfc)")
			}
			for _, m := range a.values("m") {
				req.RemoveHosts = append(req.RemoveHosts, strings.Fields(m)...)
			}
		case "disable", "adduser", "rmuser":
			return fail("%s is not supported by lsfc", sub)
		default:
			return usageError("brsvmod: %q is not a subcommand (addhost, rmhost)", sub)
		}
		if a.has("o") && a.has("on") {
			return fail("give one of -o and -on")
		}
		req.SetOpen, req.Open = a.has("o") || a.has("on"), a.has("o")
		for _, u := range a.values("u") {
			req.Users = append(req.Users, strings.Fields(u)...)
		}
		c, err := dialDaemon(e, a)
		if err != nil {
			return lsfFailed(e, "brsvmod", err)
		}
		if a.has("b") || a.has("e") || a.has("t") {
			var cur *api.Rsv
			if rs, err := c.Reservations(ctx); err == nil {
				for i := range rs {
					if rs[i].ID == ops[0] {
						cur = &rs[i]
					}
				}
			}
			if err := rsvModTimes(a, &req, cur, time.Now()); err != nil {
				return fail("%v", err)
			}
		}
		if a.has("R") {
			if req.Hosts, err = rsvSelectHosts(ctx, c, a.value("R"), req.Hosts); err != nil {
				printLSFError(e, "brsvmod", err)
				return exit(exitLSF, nil)
			}
		}
		resp, err := c.ChangeReservations(ctx, req)
		if err != nil {
			printLSFError(e, "brsvmod", err)
			return exit(exitLSF, nil)
		}
		fmt.Fprintln(e.stdout, resp.Message)
		return nil
	})
}

// rsvModTimes reads brsvmod's -b, -e (a time, or minutes to move the
// current one by) and -t.
func rsvModTimes(a *lsfArgs, req *api.RsvRequest, cur *api.Rsv, now time.Time) error {
	if a.has("t") {
		return rsvTimes(a, req, now)
	}
	for _, o := range []string{"b", "e"} {
		if !a.has(o) {
			continue
		}
		v := strings.TrimSpace(a.value(o))
		var t int64
		if v != "" && (v[0] == '+' || v[0] == '-') {
			m, err := strconv.Atoi(v[1:])
			if err != nil || m < 0 || m > 1<<20 || v[1:] == "" || v[1] == '+' || v[1] == '-' {
				return fmt.Errorf("-%s %q: Bad time specification (want a time or [+|-]minutes)", o, v)
			}
			if cur == nil || cur.Window != "" {
				return fmt.Errorf("-%s %q: the reservation has no %s time to move", o, v, map[string]string{"b": "begin", "e": "end"}[o])
			}
			base := cur.Begin
			if o == "e" {
				base = cur.End
			}
			if v[0] == '-' {
				m = -m
			}
			t = base + int64(m)*60
		} else {
			at, err := parseTimeSpec("-"+o, v, now, "")
			if err != nil {
				return err
			}
			t = at.Unix()
		}
		if o == "b" {
			req.Begin = t
		} else {
			req.End = t
		}
	}
	return nil
}

func newBrsvsCmd(e env) *lsfCommand {
	s := lsfSpec{
		name:     "brsvs",
		options:  []lsfOption{{"l", ""}, {"w", ""}, {"p", `all | "host_name ..."`}, {"z", `all | "host_name ..."`}, {"c", `all | "policy_name ..."`}},
		refused:  []lsfOption{{"V", ""}},
		short:    "Show the advance reservations of lsfc serve",
		operands: "[reservation_ID]",
		long: `brsvs shows the advance reservations not yet ended:

  RSVID  TYPE  USER  NCPUS  RSV_HOSTS  TIME_WINDOW

TYPE is user or sys, USER the users and groups it is for, NCPUS the slots
its jobs use of those it holds (used/total), RSV_HOSTS the same by host
(host:used/total, a line each), TIME_WINDOW month/day/hour/minute-
month/day/hour/minute for a one-time reservation, the window for a
recurring one. The ID is cut to 11 characters unless -w or -l.

  -l          long form: besides, its state (Active or Inactive), type
              (OPEN or CLOSED), creator, description and jobs
  -w          wide: nothing cut
  -p HOSTS    the weekly planner of the hosts (all: every host a
              reservation holds): the slots reserved in each ten-minute
              period of this week, day by day
  -z HOSTS    as -p, leaving out the periods with nothing reserved
  -c POLICIES the ResourceReservation policies of lsb.resources (all:
              every one): who may make reservations, on which hosts,
              in which time windows` + lsfStateHelp,
		example: `  lsfc brsvs
  brsvs -l user1#0
  brsvs -z all`,
	}
	return newLSFCmd(e, s, func(ctx context.Context, a *lsfArgs) error {
		if len(a.operands) > 1 {
			return usageError("brsvs: give at most one reservation ID")
		}
		c, err := dialDaemon(e, a)
		if err != nil {
			return lsfFailed(e, "brsvs", err)
		}
		if a.has("c") {
			ps, err := c.ReservationPolicies(ctx)
			if err != nil {
				return lsfFailed(e, "brsvs", err)
			}
			return writeRsvPolicies(e, ps, strings.Fields(a.value("c")))
		}
		rs, err := c.Reservations(ctx)
		if err != nil {
			return lsfFailed(e, "brsvs", err)
		}
		if len(a.operands) == 1 {
			rs = slices.DeleteFunc(rs, func(r api.Rsv) bool { return r.ID != a.operands[0] })
		}
		if a.has("p") || a.has("z") {
			hosts, err := c.Hosts(ctx)
			if err != nil {
				return lsfFailed(e, "brsvs", err)
			}
			which := a.value("p")
			if a.has("z") {
				which = a.value("z")
			}
			return writeRsvPlanner(e, rs, hosts, strings.Fields(which), a.has("z"), time.Now())
		}
		if len(rs) == 0 {
			fmt.Fprintln(e.stderr, "No reservation found")
			return exit(exitLSF, nil)
		}
		writeRsvs(e.stdout, textSafe(rs), a.has("l"), a.has("w") || a.has("l"))
		return nil
	})
}

// writeRsvPolicies prints brsvs -c: the policies named (all for every
// one).
func writeRsvPolicies(e env, ps []api.RsvPolicy, names []string) error {
	ps = textSafe(ps)
	all := len(names) == 0 || slices.Contains(names, "all")
	var pick []api.RsvPolicy
	for _, n := range names {
		if n != "all" && !slices.ContainsFunc(ps, func(p api.RsvPolicy) bool { return p.Name == n }) {
			fmt.Fprintf(e.stderr, "%s: Bad reservation policy name\n", n)
			return exit(exitLSF, nil)
		}
	}
	for _, p := range ps {
		if all || slices.Contains(names, p.Name) {
			pick = append(pick, p)
		}
	}
	if len(pick) == 0 {
		fmt.Fprintln(e.stderr, "No reservation policy found")
		return exit(exitLSF, nil)
	}
	list := func(xs []string, none string) string {
		if len(xs) == 0 {
			return none
		}
		return strings.Join(xs, " ")
	}
	for i, p := range pick {
		if i > 0 {
			fmt.Fprintln(e.stdout)
		}
		fmt.Fprintf(e.stdout, "Policy Name: %s\n", p.Name)
		fmt.Fprintf(e.stdout, "Users: %s\n", list(p.Users, "-"))
		fmt.Fprintf(e.stdout, "Hosts: %s\n", list(p.Hosts, "all"))
		fmt.Fprintf(e.stdout, "Time Window: %s\n", list(p.Window, "-"))
	}
	return nil
}

// rsvTimeWindow writes a reservation's times as brsvs shows them.
func rsvTimeWindow(r api.Rsv) string {
	if r.Window != "" {
		return r.Window
	}
	f := func(s int64) string {
		t := time.Unix(s, 0).UTC()
		return fmt.Sprintf("%d/%d/%d/%d", t.Month(), t.Day(), t.Hour(), t.Minute())
	}
	return f(r.Begin) + "-" + f(r.End)
}

// writeRsvs prints brsvs's table, and with long each reservation's
// details.
func writeRsvs(w io.Writer, rs []api.Rsv, long, wide bool) {
	const row = "%-11s  %-4s  %-10s  %-9s  %-16s  %s\n"
	id := func(s string) string {
		if !wide && len(s) > 11 {
			return s[:11]
		}
		return s
	}
	if !long {
		fmt.Fprintf(w, row, "RSVID", "TYPE", "USER", "NCPUS", "RSV_HOSTS", "TIME_WINDOW")
	}
	for i, r := range rs {
		if long {
			if i > 0 {
				fmt.Fprintln(w)
			}
			fmt.Fprintf(w, row, "RSVID", "TYPE", "USER", "NCPUS", "RSV_HOSTS", "TIME_WINDOW")
		}
		used, total := 0, 0
		for _, h := range r.Hosts {
			used += h.Used
			total += h.Slots
		}
		users := strings.Join(r.Users, " ")
		if users == "" {
			users = "-"
		}
		first := "-"
		if len(r.Hosts) > 0 {
			h := r.Hosts[0]
			first = fmt.Sprintf("%s:%d/%d", h.Host, h.Used, h.Slots)
		}
		fmt.Fprintf(w, row, id(r.ID), r.Type, users, fmt.Sprintf("%d/%d", used, total), first, rsvTimeWindow(r))
		for _, h := range r.Hosts[min(1, len(r.Hosts)):] {
			fmt.Fprintf(w, row, "", "", "", "", fmt.Sprintf("%s:%d/%d", h.Host, h.Used, h.Slots), "")
		}
		if !long {
			continue
		}
		state, kind := "Inactive", "CLOSED"
		if r.Active {
			state = "Active"
		}
		if r.Open {
			kind = "OPEN"
		}
		fmt.Fprintf(w, "Reservation Status: %s\n", state)
		if r.Next > 0 {
			what := "Begins"
			if r.Active {
				what = "Ends"
			}
			fmt.Fprintf(w, "%s: %s\n", what, time.Unix(r.Next, 0).UTC().Format("Mon Jan _2 15:04:05 2006"))
		}
		fmt.Fprintf(w, "Creator: %s\n", r.Creator)
		fmt.Fprintf(w, "Reservation Type: %s\n", kind)
		if r.Desc != "" {
			fmt.Fprintf(w, "Description: %s\n", r.Desc)
		}
		if len(r.Jobs) > 0 {
			fmt.Fprintf(w, "Jobs: %s\n", strings.Join(r.Jobs, " "))
		}
	}
}

// writeRsvPlanner prints brsvs -p (or, with skipEmpty, -z): for each
// host, the slots reserved in each ten-minute period of the current week
// (Sunday to Saturday, UTC), by day.
func writeRsvPlanner(e env, rs []api.Rsv, hosts []api.Host, names []string, skipEmpty bool, now time.Time) error {
	held := map[string]bool{}
	for _, r := range rs {
		for _, h := range r.Hosts {
			held[h.Host] = true
		}
	}
	var pick []api.Host
	for _, h := range hosts {
		if len(names) == 0 || slices.Contains(names, "all") && held[h.Name] || slices.Contains(names, h.Name) {
			pick = append(pick, h)
		}
	}
	for _, n := range names {
		if n != "all" && !slices.ContainsFunc(hosts, func(h api.Host) bool { return h.Name == n }) {
			fmt.Fprintf(e.stderr, "%s: Bad host name, host group name or cluster name\n", n)
			return exit(exitLSF, nil)
		}
	}
	now = now.UTC()
	week := time.Date(now.Year(), now.Month(), now.Day()-int(now.Weekday()), 0, 0, 0, 0, time.UTC)
	for i, h := range pick {
		if i > 0 {
			fmt.Fprintln(e.stdout)
		}
		max := "-"
		if h.Max >= 0 {
			max = strconv.Itoa(h.Max)
		}
		fmt.Fprintf(e.stdout, "HOST: %s (MAX = %s)\n", h.Name, max)
		fmt.Fprintf(e.stdout, "Week: %s - %s\n", week.Format("01/02/2006"), week.AddDate(0, 0, 6).Format("01/02/2006"))
		fmt.Fprintf(e.stdout, "%8s", "Hour:Min")
		for _, d := range []string{"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"} {
			fmt.Fprintf(e.stdout, "%9s", d)
		}
		fmt.Fprintln(e.stdout)
		fmt.Fprintln(e.stdout, strings.Repeat("-", 8+7*9))
		for p := range 24 * 6 {
			var counts [7]int
			any := false
			for d := range 7 {
				at := week.AddDate(0, 0, d).Add(time.Duration(p) * 10 * time.Minute)
				counts[d] = rsvSlotsAt(rs, h.Name, at)
				any = any || counts[d] > 0
			}
			if skipEmpty && !any {
				continue
			}
			fmt.Fprintf(e.stdout, "%8s", fmt.Sprintf("%d:%d", p/6, p%6*10))
			for _, n := range counts {
				fmt.Fprintf(e.stdout, "%9d", n)
			}
			fmt.Fprintln(e.stdout)
		}
	}
	return nil
}

// rsvSlotsAt returns the slots the reservations hold on a host in the
// ten-minute period that begins at t.
func rsvSlotsAt(rs []api.Rsv, host string, t time.Time) int {
	n := 0
	for _, r := range rs {
		if !rsvHoldsPeriod(r, t) {
			continue
		}
		for _, h := range r.Hosts {
			if h.Host == host {
				n += h.Slots
			}
		}
	}
	return n
}

// rsvHoldsPeriod reports whether a reservation holds the ten-minute
// period that begins at t: whether it is active at any minute of it.
func rsvHoldsPeriod(r api.Rsv, t time.Time) bool {
	if r.Window == "" {
		s, e := t.Unix(), t.Unix()+600
		return r.Begin < e && s < r.End
	}
	from, to, err := api.ParseRsvWindow(r.Window)
	if err != nil {
		return false
	}
	for m := range 10 {
		if rsvWindowOpen(from, to, t.Add(time.Duration(m)*time.Minute)) {
			return true
		}
	}
	return false
}

// rsvWindowOpen reports whether a recurring window is open at t (UTC): a
// window without days recurs daily; one that ends before it begins wraps
// past midnight (or the week's end).
func rsvWindowOpen(from, to api.RsvClock, t time.Time) bool {
	t = t.UTC()
	minute := func(c api.RsvClock) int { return c.Hour*60 + c.Minute }
	if from.Day < 0 {
		now, f, e := t.Hour()*60+t.Minute(), minute(from), minute(to)
		if f <= e {
			return now >= f && now < e
		}
		return now >= f || now < e
	}
	now := int(t.Weekday())*1440 + t.Hour()*60 + t.Minute()
	f, e := from.Day*1440+minute(from), to.Day*1440+minute(to)
	if f <= e {
		return now >= f && now < e
	}
	return now >= f || now < e
}
