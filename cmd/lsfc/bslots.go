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

func newBslotsCmd(e env) *lsfCommand {
	s := lsfSpec{
		name:    "bslots",
		options: []lsfOption{{"l", ""}, {"n", "slots"}, {"R", "res_req"}, {"W", "[hour:]minutes"}},
		short:   "Show the backfill windows of lsfc serve",
		long: `bslots shows the job slots free now that a backfill job could use, and
how long each stays free: a slot no pending job reserves stays free for
as long as a job wants (UNLIMITED); a slot reserved by a pending job
(SLOT_RESERVE) until that job is predicted to start. Each line counts the
slots free for at least its run time:

  SLOTS          RUNTIME
  48             UNLIMITED
  64             6 minutes 40 seconds

A job of a BACKFILL queue whose run limit (-W, RUNLIMIT) or estimated run
time (-We, the profile's RUNTIME) fits in a window may start in it at
once. -n shows only the windows with at least that many slots, -W only
those at least that long, -R only the slots of hosts that satisfy a
resource requirement; -l shows each window's hosts and slots. "No
backfill window exists at this time" when none is left.` + lsfStateHelp,
		example: `  bslots
  bslots -n 16 -W 30
  bslots -l -R "select[type==X86_64]"`,
	}
	return newLSFCmd(e, s, func(ctx context.Context, a *lsfArgs) error {
		minSlots, minRun := 0, 0.0
		var err error
		if a.has("n") {
			if minSlots, err = positiveInt("-n", a.value("n")); err != nil {
				return lsfFailed(e, "bslots", err)
			}
		}
		if a.has("W") {
			if minRun, err = parseRunLimitAs("-W", a.value("W")); err != nil {
				return lsfFailed(e, "bslots", err)
			}
		}
		c, err := dialDaemon(e, a)
		if err != nil {
			return lsfFailed(e, "bslots", err)
		}
		var hosts []api.Host
		if a.has("R") {
			hosts, err = c.HostsSelected(ctx, a.value("R"))
		} else {
			hosts, err = c.Hosts(ctx)
		}
		if err != nil {
			return lsfFailed(e, "bslots", err)
		}
		ws := backfillWindows(hosts, time.Now().Unix())
		ws = slices.DeleteFunc(ws, func(w api.BackfillWindow) bool {
			return w.Slots < minSlots || minRun > 0 && w.Runtime >= 0 && w.Runtime < minRun
		})
		writeBackfillWindows(e.stdout, ws, a.has("l"))
		return nil
	})
}

// backfillWindows works out, from the hosts as lsfc serve reports them,
// the slots a backfill job could use now: for each distinct length of
// time slots stay free (unreserved slots without limit, reserved ones
// until their job's predicted start), the slots free at least that
// long, the longest windows first.
func backfillWindows(hosts []api.Host, now int64) []api.BackfillWindow {
	type share struct {
		host  string
		slots int
		run   float64 // -1: no limit
	}
	var shares []share
	for _, h := range hosts {
		if h.Max < 0 || (h.Status != "ok" && h.Status != "closed_Full") {
			continue
		}
		free := max(0, h.Max-h.NJobs)
		rsv := min(h.Rsv, free)
		if n := free - rsv; n > 0 {
			shares = append(shares, share{h.Name, n, -1})
		}
		if rsv > 0 && h.RsvStart > now {
			shares = append(shares, share{h.Name, rsv, float64(h.RsvStart - now)})
		}
	}
	longer := func(a, b float64) bool { return a < 0 && b >= 0 || a >= 0 && b >= 0 && a > b }
	var runs []float64
	for _, s := range shares {
		if !slices.Contains(runs, s.run) {
			runs = append(runs, s.run)
		}
	}
	slices.SortFunc(runs, func(a, b float64) int {
		switch {
		case longer(a, b):
			return -1
		case longer(b, a):
			return 1
		}
		return 0
	})
	var out []api.BackfillWindow
	for _, r := range runs {
		w := api.BackfillWindow{Runtime: r}
		at := map[string]int{}
		for _, s := range shares {
			if s.run == r || longer(s.run, r) {
				w.Slots += s.slots
				if i, ok := at[s.host]; ok {
					w.Hosts[i].Slots += s.slots
					continue
				}
				at[s.host] = len(w.Hosts)
				w.Hosts = append(w.Hosts, api.HostSlots{Host: s.host, Slots: s.slots})
			}
		}
		out = append(out, w)
	}
	return out
}

// writeBackfillWindows prints bslots's table, or with long each window
// as a block with its hosts.
func writeBackfillWindows(w io.Writer, ws []api.BackfillWindow, long bool) {
	if len(ws) == 0 {
		fmt.Fprintln(w, "No backfill window exists at this time")
		return
	}
	if !long {
		fmt.Fprintf(w, "%-14s %s\n", "SLOTS", "RUNTIME")
		for _, x := range ws {
			fmt.Fprintf(w, "%-14d %s\n", x.Slots, windowLength(x.Runtime))
		}
		return
	}
	for i, x := range ws {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "SLOTS: %d\n", x.Slots)
		fmt.Fprintf(w, "RUNTIME: %s\n", windowLength(x.Runtime))
		parts := make([]string, len(x.Hosts))
		for k, h := range x.Hosts {
			parts[k] = strconv.Itoa(h.Slots) + "*" + textSafe(h.Host)
		}
		fmt.Fprintf(w, "HOSTS: %s\n", strings.Join(parts, " "))
	}
}

// windowLength writes a window's length as bslots does: UNLIMITED, or
// hours, minutes and seconds.
func windowLength(sec float64) string {
	if sec < 0 {
		return "UNLIMITED"
	}
	s := int64(sec)
	var parts []string
	unit := func(n int64, name string) {
		if n == 1 {
			parts = append(parts, "1 "+name)
		} else if n > 1 {
			parts = append(parts, strconv.FormatInt(n, 10)+" "+name+"s")
		}
	}
	unit(s/3600, "hour")
	unit(s/60%60, "minute")
	unit(s%60, "second")
	if len(parts) == 0 {
		return "0 seconds"
	}
	return strings.Join(parts, " ")
}
