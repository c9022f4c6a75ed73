package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/lsbevents"
)

func newBhistCmd(e env) *lsfCommand {
	s := lsfSpec{
		name:     "bhist",
		refused:  bhistRefusedOptions(),
		short:    "Show the history of jobs, from lsfc serve's event log or an LSF lsb.events file",
		operands: "[JOBID | \"JOBID[INDEX]\" ...]",
		options: []lsfOption{{"a", ""}, {"d", ""}, {"e", ""}, {"p", ""}, {"r", ""}, {"s", ""}, {"l", ""}, {"UF", ""}, {"w", ""},
			{"t", ""}, {"T", "time0,time1"}, {"C", "time0,time1"}, {"D", "time0,time1"}, {"S", "time0,time1"},
			{"f", "logfile"}, {"n", "number_logfiles"}, {"J", "job_name"}, {"m", "host_name"}, {"P", "project"},
			{"g", "job_group_name"}, {"G", "user_group"}, {"gpu", ""},
			{"q", "queue"}, {"u", "user"}},
		long: `bhist shows jobs' histories: by default, the caller's unfinished jobs as a
table of the seconds each spent pending, suspended and running; with -l,
each job's history line by line as LSF's bhist -l writes it ("Submitted
from host", "Dispatched", "Starting (Pid N)", "Done successfully", "Exited
with exit code N") and the same summary, lines wrapped at 80 columns as
LSF wraps them (-UF, with -l, keeps each line whole; -gpu, with -l, adds
after each dispatch the GPUs it gave the job: GPU_ALLOCATION, as bjobs -l
-gpu shows it); with -t, every event of the
log in the order it happened (-T time0,time1 keeps those of an interval).

Which jobs: -a all, -d finished, -e exited, -p pending, -r running, -s
suspended; -u USER (or all), -q QUEUE, -J NAME (* matches any text), -P
PROJECT, -G USER_GROUP (charged to it, bsub -G), -g JOB_GROUP (submitted
to it or a group under it), -m HOST (dispatched there); -C, -D, -S time0,time1: completed,
dispatched, submitted in the interval (times as [[[year/]month/]day/]
hour:minute, or ".", for now; either end may be left out). Job IDs name
jobs whatever their state or owner.

The history comes from lsfc serve's event log, which the daemon reads for
the caller: its current log holds the snapshot the last compaction made
(a job's submission, dispatch and end, without the steps between) and
every change since; -n 2 (or -n 0) adds lsb.events.1, the log the last
compaction replaced, with the steps it had. -f FILE reads an LSF
lsb.events file instead ("-" for standard input): records it cannot read
are reported on standard error with their line and skipped.` + lsfStateHelp,
		example: `  lsfc bhist -l 1001
  lsfc bhist -a -u all
  lsfc bhist -f /shared/lsf/work/cluster1/logdir/lsb.events -a -l -u all`,
	}
	return newLSFCmd(e, s, func(ctx context.Context, a *lsfArgs) error {
		sel, err := bhistSelection(a, time.Now())
		if err != nil {
			return usageError("bhist: %v", err)
		}
		if a.has("gpu") && !a.has("l") {
			return usageError("bhist: -gpu is used only with -l")
		}
		var hist []api.JobHistory
		if a.has("f") {
			hist, err = readEventFile(e, a.value("f"))
			if err != nil {
				return lsfFailed(e, "bhist", err)
			}
		} else {
			c, err := dialDaemon(e, a)
			if err != nil {
				return lsfFailed(e, "bhist", err)
			}
			// The daemon picks the jobs the caller may see; the rest of
			// the selection is made here.
			q := api.HistoryQuery{User: sel.user, Logs: sel.logs}
			if a.has("t") {
				q.User = "all"
			}
			for id := range sel.ids {
				q.IDs = append(q.IDs, id)
			}
			for el := range sel.elems {
				q.IDs = append(q.IDs, el[0])
			}
			slices.Sort(q.IDs)
			q.IDs = slices.Compact(q.IDs)
			hist, err = c.History(ctx, q)
			if err != nil {
				return lsfFailed(e, "bhist", err)
			}
			sel.user = "all"
		}
		if sel.user == "" {
			sel.user = currentUser()
		}
		now := time.Now().Unix()
		if a.has("t") {
			writeEventList(e.stdout, hist, sel, time.Local)
			return nil
		}
		picked := sel.pick(hist, now)
		if len(picked) == 0 {
			fmt.Fprintln(e.stderr, "No matching job found")
			return exit(exitLSF, nil)
		}
		if a.has("l") {
			for i := range picked {
				if i > 0 {
					fmt.Fprintln(e.stdout, strings.Repeat("-", 78))
				}
				if a.has("UF") {
					writeHistoryLong(e.stdout, &picked[i], now, time.Local, a.has("gpu"))
					continue
				}
				var b strings.Builder
				writeHistoryLong(&b, &picked[i], now, time.Local, a.has("gpu"))
				for _, line := range strings.SplitAfter(b.String(), "\n") {
					io.WriteString(e.stdout, wrapLong(line))
				}
			}
			return nil
		}
		writeHistoryTable(e.stdout, picked, a.has("w"), now)
		return nil
	})
}

// readEventFile reads an LSF lsb.events file ("-": standard input) and
// returns its jobs' histories. Records that cannot be read are reported
// on standard error and skipped, and so are counted the records of
// types not known.
func readEventFile(e env, name string) ([]api.JobHistory, error) {
	var r io.Reader = e.stdin
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		r = f
	}
	l := lsbevents.NewLog()
	if err := l.Read(r, name); err != nil {
		return nil, err
	}
	reportEventLog(e.stderr, "bhist", name, l)
	return l.Histories(), nil
}

// reportEventLog prints, after prefix, what reading an LSF event log
// skipped: each record it could not read (the first MaxErrors), how many
// more there were, and the records of unknown types by type.
func reportEventLog(w io.Writer, prefix, name string, l *lsbevents.Log) {
	for _, err := range l.Errors {
		fmt.Fprintf(w, "%s: %v (skipped)\n", prefix, err)
	}
	if more := l.Malformed - len(l.Errors); more > 0 {
		fmt.Fprintf(w, "%s: %s: %d more records could not be read (skipped)\n", prefix, name, more)
	}
	if len(l.Unknown) > 0 {
		var parts []string
		for _, t := range slices.Sorted(maps.Keys(l.Unknown)) {
			parts = append(parts, fmt.Sprintf("%s %d", t, l.Unknown[t]))
		}
		fmt.Fprintf(w, "%s: %s: records of unknown types skipped: %s\n", prefix, name, strings.Join(parts, ", "))
	}
}

// A historySelection is which jobs bhist shows.
type historySelection struct {
	ids                              map[int64]bool // job IDs named, whatever their index
	elems                            map[[2]int64]bool
	states                           string // "" (unfinished), "a", "d", "e", "p", "r" or "s"
	user                             string // "" for the caller, "all"
	queue, name, project, host       string
	userGroup                        string // -G
	group                            string // -g: a job group, with those under it
	completed, dispatched, submitted timeRange
	events                           timeRange // -T
	logs                             int
}

// bhistSelection reads bhist's options and operands.
func bhistSelection(a *lsfArgs, now time.Time) (*historySelection, error) {
	sel := &historySelection{ids: map[int64]bool{}, elems: map[[2]int64]bool{}, user: a.value("u"), queue: a.value("q"),
		name: a.value("J"), project: a.value("P"), host: a.value("m"), group: trimGroupPath(a.value("g")), states: a.last("a", "d", "e", "p", "r", "s"),
		userGroup: a.value("G")}
	for _, op := range a.operands {
		id, idx, err := parseJobIndex(op)
		if err != nil {
			return nil, err
		}
		if idx > 0 {
			sel.elems[[2]int64{id, int64(idx)}] = true
		} else {
			sel.ids[id] = true
		}
	}
	if a.has("f") && a.has("n") {
		return nil, fmt.Errorf("-f and -n cannot be used together")
	}
	if a.has("n") {
		n, err := strconv.Atoi(a.value("n"))
		if err != nil || n < 0 {
			return nil, fmt.Errorf("-n needs a number of log files, 0 for all: %q", a.value("n"))
		}
		sel.logs = n
		if n == 0 {
			sel.logs = -1
		}
	}
	if a.has("T") && !a.has("t") {
		return nil, fmt.Errorf("-T is used with -t")
	}
	for _, o := range []struct {
		name string
		dst  *timeRange
	}{{"C", &sel.completed}, {"D", &sel.dispatched}, {"S", &sel.submitted}, {"T", &sel.events}} {
		if !a.has(o.name) {
			continue
		}
		r, err := parseTimeRange(a.value(o.name), now)
		if err != nil {
			return nil, fmt.Errorf("-%s: %v", o.name, err)
		}
		*o.dst = r
	}
	return sel, nil
}

// parseJobIndex reads a job ID, or an array element's: "12" or "12[3]".
func parseJobIndex(s string) (int64, int, error) {
	idx := 0
	if i := strings.IndexByte(s, '['); i >= 0 && strings.HasSuffix(s, "]") {
		n, err := strconv.Atoi(s[i+1 : len(s)-1])
		if err != nil || n <= 0 {
			//lint:ignore ST1005 LSF's own message, word for word
			return 0, 0, fmt.Errorf("%s: Illegal job ID.", s)
		}
		idx, s = n, s[:i]
	}
	id, err := parseJobID(s)
	return id, idx, err
}

// pick returns the histories the selection keeps, in the order given.
func (sel *historySelection) pick(hist []api.JobHistory, now int64) []api.JobHistory {
	var out []api.JobHistory
	named := len(sel.ids) > 0 || len(sel.elems) > 0
	for _, h := range hist {
		if named && !sel.ids[h.ID] && !sel.elems[[2]int64{h.ID, int64(h.Index)}] {
			continue
		}
		if !named && sel.user != "all" && h.User != sel.user {
			continue
		}
		if sel.queue != "" && h.Queue != sel.queue && !slices.ContainsFunc(h.Events, func(e api.HistoryEvent) bool {
			return e.Kind == api.EventSwitch && e.Text == sel.queue
		}) {
			continue
		}
		if sel.name != "" && !matchJobName(sel.name, historyName(&h)) {
			continue
		}
		if sel.project != "" && cmp.Or(h.Project, "default") != sel.project {
			continue
		}
		if sel.userGroup != "" && h.UserGroup != sel.userGroup {
			continue
		}
		if sel.group != "" && h.JobGroup != sel.group && !strings.HasPrefix(h.JobGroup, strings.TrimSuffix(sel.group, "/")+"/") {
			continue
		}
		start, end := historyStartEnd(h)
		if sel.host != "" && !slices.ContainsFunc(h.Events, func(e api.HistoryEvent) bool {
			return e.Kind == api.EventStart && slices.Contains(e.Hosts, sel.host)
		}) {
			continue
		}
		if sel.completed.set && (end == 0 || !sel.completed.holds(end)) ||
			sel.dispatched.set && (start == 0 || !sel.dispatched.holds(start)) ||
			!sel.submitted.holds(h.Submit) {
			continue
		}
		if !named && !sel.stateKept(h.State) {
			continue
		}
		out = append(out, h)
	}
	return out
}

// stateKept reports whether a job in state st is shown by the state
// options given (none: the unfinished jobs, unless a time interval
// selects).
func (sel *historySelection) stateKept(st string) bool {
	finished := st == "DONE" || st == "EXIT"
	switch sel.states {
	case "a":
		return true
	case "d":
		return finished
	case "e":
		return st == "EXIT"
	case "p":
		return st == "PEND" || st == "PSUSP"
	case "r":
		return st == "RUN"
	case "s":
		return st == "PSUSP" || st == "USUSP" || st == "SSUSP"
	}
	return !finished || sel.completed.set || sel.dispatched.set || sel.submitted.set
}

// historyStartEnd returns when a job was last dispatched and when it
// ended (0 for not).
func historyStartEnd(h api.JobHistory) (start, end int64) {
	for _, e := range h.Events {
		switch e.Kind {
		case api.EventStart:
			start, end = e.At, 0
		case api.EventDone, api.EventExit:
			end = e.At
		case api.EventRequeue:
			end = 0
		}
	}
	return start, end
}

// bhistRefusedOptions returns the options LSF 10.1 documents for bhist
// that lsfc does not implement.
func bhistRefusedOptions() []lsfOption {
	return []lsfOption{{"aff", ""}, {"app", "application_profile"}, {"b", ""}, {"cname", ""}, {"data", ""},
		{"hostfile", ""}, {"Jd", "job_description"}, {"Lp", "license_project"},
		{"N", "host_spec"}, {"V", ""}}
}
