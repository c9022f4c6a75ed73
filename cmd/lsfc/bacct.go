package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/lsbacct"
)

func newBacctCmd(e env) *lsfCommand {
	s := lsfSpec{
		name:     "bacct",
		refused:  bacctRefusedOptions(),
		short:    "Show the accounting of finished jobs, from lsb.acct",
		operands: "JOBID ...",
		options: []lsfOption{{"b", ""}, {"l", ""}, {"d", ""}, {"e", ""}, {"x", ""}, {"f", "logfile"}, {"u", "user"},
			{"q", "queue"}, {"P", "project"}, {"m", "host"}, {"C", "time0,time1"}, {"S", "time0,time1"}, {"D", "time0,time1"}},
		long: `bacct reports on finished jobs from an lsb.acct file: -f FILE (LSF's own
files, of LSF 10.1 or older, read as well as lsfc's; "-" for standard
input), else the lsb.acct the daemon writes in logdir/ of its state
directory. It writes which jobs it reports on, then, with -l, each job's
submission, dispatch and end and its accounting (CPU_T, WAIT, TURNAROUND,
STATUS, HOG_FACTOR, MEM, SWAP), with -b the accounting alone, and last a
SUMMARY of the jobs' times, as LSF's bacct does.

Jobs are selected by job id, -u (users, or "all"; by default the user
running bacct, or every user when job ids are given), -q (queues), -P
(projects), -m (execution hosts), -d (DONE only), -e (EXIT only), -x (with
an exception), and -C, -S, -D (completed, submitted, dispatched between
time0,time1; each [[[year/]month/]day/]hh:mm, or "." for now; either may
be left out). A line of the file that is not a good record is reported on
standard error with its file and line, and skipped.

A job id the daemon's lsb.acct does not hold (a job not yet finished) is
asked of the daemon, and shown with its history so far; an unknown job is
reported on standard error and bacct exits 255.` + lsfStateHelp,
		example: `  lsfc bacct -l 1001
  lsfc bacct -u all -q normal -C 2026/1/1,2026/1/31
  lsfc bacct -l -u all -f /share/lsf/work/cluster1/logdir/lsb.acct`,
	}
	return newLSFCmd(e, s, func(ctx context.Context, a *lsfArgs) error {
		loc := time.Local
		if tz := e.getenv("TZ"); tz != "" {
			if l, err := time.LoadLocation(strings.TrimPrefix(tz, ":")); err == nil {
				loc = l
			}
		}
		return runBacct(ctx, e, a, time.Now(), loc)
	})
}

// runBacct is bacct, at time now in the time zone loc.
func runBacct(ctx context.Context, e env, a *lsfArgs, now time.Time, loc *time.Location) error {
	f, err := bacctFilter(a, now)
	if err != nil {
		return usageError("bacct: %v", err)
	}
	files := a.values("f")
	own := len(files) == 0
	if own {
		dir, err := clientStateDir(e, a.state)
		if err != nil {
			return lsfFailed(e, "bacct", err)
		}
		files = []string{filepath.Join(dir, lsbacct.LogDir, lsbacct.FileName)}
	}
	var jobs []acctJob
	found := map[int64]bool{}
	for _, name := range files {
		err := readAcct(e, name, own, func(r *lsbacct.Record) {
			if f.keep(r) {
				c := *r
				jobs = append(jobs, newAcctJob(&c))
				found[r.JobID] = true
			}
		})
		if err != nil {
			return lsfFailed(e, "bacct", err)
		}
	}
	var missing []int64
	for _, op := range a.operands {
		id, _ := parseJobID(op)
		if !found[id] {
			missing = append(missing, id)
		}
	}
	if own && len(missing) > 0 && len(missing) == len(a.operands) {
		// None is in the file: the daemon tells what it knows of them.
		return bacctFromDaemon(ctx, e, a, missing, loc)
	}
	writeAcctHeader(e.stdout, f, loc)
	for _, j := range jobs {
		if a.has("l") || a.has("b") {
			writeAcctJob(e.stdout, j, a.has("l"), loc)
		}
	}
	writeAcctSummary(e.stdout, jobs, f.completed.to, loc)
	if len(missing) == 0 {
		return nil
	}
	if own {
		return bacctFromDaemon(ctx, e, a, missing, loc)
	}
	for _, id := range missing {
		fmt.Fprintf(e.stderr, "Job <%d>: No matching job found\n", id)
	}
	return exit(exitLSF, nil)
}

// bacctFilter reads the options that select jobs.
func bacctFilter(a *lsfArgs, now time.Time) (*acctFilter, error) {
	f := &acctFilter{done: a.has("d"), exited: a.has("e"), exception: a.has("x")}
	if len(a.operands) > 0 {
		f.ids = map[int64]bool{}
		for _, op := range a.operands {
			id, err := parseJobID(op)
			if err != nil {
				return nil, err
			}
			f.ids[id] = true
		}
	}
	words := func(name string) []string {
		var out []string
		for _, v := range a.values(name) {
			out = append(out, strings.Fields(v)...)
		}
		return out
	}
	switch users := words("u"); {
	case slices.Contains(users, "all"):
	case len(users) > 0:
		f.users = users
	case f.ids == nil:
		f.users = []string{currentUser()}
	}
	f.queues, f.projects, f.hosts = words("q"), words("P"), words("m")
	for _, r := range []struct {
		name string
		dst  *timeRange
	}{{"C", &f.completed}, {"S", &f.submitted}, {"D", &f.started}} {
		if !a.has(r.name) {
			continue
		}
		tr, err := parseTimeRange(a.value(r.name), now)
		if err != nil {
			return nil, fmt.Errorf("-%s: %v", r.name, err)
		}
		*r.dst = tr
	}
	return f, nil
}

// readAcct calls fn for each record of the file ("-": standard input),
// reporting its bad lines on standard error. The daemon's own file (own)
// may be missing: it holds nothing yet.
func readAcct(e env, name string, own bool, fn func(*lsbacct.Record)) error {
	var in io.Reader = e.stdin
	if name != "-" {
		f, err := os.Open(name)
		if own && errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return err
		}
		defer f.Close()
		in = f
	}
	s := lsbacct.NewScanner(in, name)
	for s.Scan() {
		fn(s.Record())
	}
	for _, p := range s.Problems() {
		fmt.Fprintf(e.stderr, "bacct: %v\n", p)
	}
	if n := s.NumProblems() - len(s.Problems()); n > 0 {
		fmt.Fprintf(e.stderr, "bacct: %s: %d more bad lines\n", name, n)
	}
	return s.Err()
}

// bacctFromDaemon shows jobs the daemon knows, as bacct -l did before
// their records reached lsb.acct.
func bacctFromDaemon(ctx context.Context, e env, a *lsfArgs, ids []int64, loc *time.Location) error {
	c, err := dialDaemon(e, a)
	if err != nil {
		return lsfFailed(e, "bacct", err)
	}
	failed := false
	for i, id := range ids {
		j, err := c.Job(ctx, id)
		var ae *api.APIError
		switch {
		case errors.As(err, &ae) && ae.Status == 404:
			fmt.Fprintf(e.stderr, "Job <%d>: No matching job found\n", id)
			failed = true
			continue
		case err != nil:
			return lsfFailed(e, "bacct", err)
		}
		if i > 0 {
			fmt.Fprintln(e.stdout, strings.Repeat("-", 78))
		}
		writeAccounting(e.stdout, j, a.has("l"), loc)
	}
	if failed {
		return exit(exitLSF, nil)
	}
	return nil
}

// writeAccounting prints one job as bacct does: with long, its history
// and completion, then its times.
func writeAccounting(w io.Writer, j *api.Job, long bool, loc *time.Location) {
	j = &textJobs([]api.Job{*j})[0]
	fmt.Fprintf(w, "\nJob <%d>, Job Name <%s>, User <%s>, Project <%s>, Status <%s>, Queue <%s>, Command <%s>\n",
		j.ID, jobName(j), j.User, jobProject(j), j.State, j.Queue, oneLine(j.Command))
	if !long {
		return
	}
	fmt.Fprintf(w, "%s: Submitted from host <%s>, CWD <%s>;\n", lsfLongTime(j.Submit, loc), j.FromHost, j.Cwd)
	if j.Start != 0 {
		fmt.Fprintf(w, "%s: Dispatched %d Task(s) on Host(s) <%s>;\n", lsfLongTime(j.Start, loc), j.Slots,
			strings.Join(execGroups(j.ExecHosts), "> <"))
	}
	switch j.State {
	case "DONE":
		fmt.Fprintf(w, "%s: Completed <done>.\n", lsfLongTime(j.End, loc))
	case "EXIT":
		if j.Term != "" {
			fmt.Fprintf(w, "%s: Completed <exit>; %s.\n", lsfLongTime(j.End, loc), termReason(j.Term))
		} else {
			fmt.Fprintf(w, "%s: Completed <exit>.\n", lsfLongTime(j.End, loc))
		}
	default:
		return
	}
	wait, run := float64(0), float64(0)
	if j.Start != 0 {
		wait, run = float64(j.Start-j.Submit), float64(j.End-j.Start)
	} else {
		wait = float64(j.End - j.Submit)
	}
	fmt.Fprintf(w, "\nSummary of time in seconds spent in various states:\n")
	mem := "-"
	if j.MaxMem > 0 {
		mem = lsfMbytes(j.MaxMem)
	}
	fmt.Fprintf(w, "  %-10s %-10s %-10s %-10s %-10s %s\n", "CPU_T", "WAIT", "TURNAROUND", "RUN", "EXIT_CODE", "MAX_MEM")
	fmt.Fprintf(w, "  %-10.2f %-10.0f %-10.0f %-10.0f %-10d %s\n", j.CPUTime, wait, float64(j.End-j.Submit), run, j.ExitCode, mem)
}

// bacctRefusedOptions returns the options LSF 10.1 documents for bacct that lsfc does
// not implement, each with the shape of its argument ("" for a switch).
func bacctRefusedOptions() []lsfOption {
	return []lsfOption{
		{"aff", ""}, {"app", "application_profile"}, {"cname", ""}, {"E", ""}, {"gpu", ""}, {"Lp", "license_project"},
		{"M", "host_group"}, {"N", "host_spec"}, {"rcacct", "accounts"}, {"rcalloc", "accounts"},
		{"sla", "service_class"}, {"U", "reservation_id"}, {"UF", ""}, {"V", ""}, {"w", ""},
	}
}
