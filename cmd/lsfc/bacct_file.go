package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lsfc/lsfc/runtime/lsbacct"
)

// acctFilter selects the records of lsb.acct bacct reports on.
type acctFilter struct {
	ids       map[int64]bool // job ids; nil for all
	users     []string       // nil for all users
	queues    []string
	projects  []string
	hosts     []string
	done      bool // -d: DONE jobs only
	exited    bool // -e: EXIT jobs only
	exception bool // -x: jobs with an exception
	completed timeRange
	submitted timeRange
	started   timeRange
}

// timeRange is a -C, -S or -D interval, its bounds in seconds; set when
// given.
type timeRange struct {
	set      bool
	from, to int64
}

func (r timeRange) holds(t int64) bool { return !r.set || (t >= r.from && t <= r.to) }

// keep reports whether bacct reports on r.
func (f *acctFilter) keep(r *lsbacct.Record) bool {
	switch {
	case f.ids != nil && !f.ids[r.JobID]:
	case f.users != nil && !slices.Contains(f.users, r.UserName):
	case f.queues != nil && !slices.Contains(f.queues, r.Queue):
	case f.projects != nil && !slices.Contains(f.projects, r.ProjectName):
	case f.hosts != nil && !slices.ContainsFunc(r.ExecHosts, func(h string) bool { return slices.Contains(f.hosts, h) }):
	case f.done && !f.exited && !r.Done(), f.exited && !f.done && r.Done():
	case f.exception && r.ExceptMask == 0:
	case !f.completed.holds(r.EventTime), !f.submitted.holds(r.SubmitTime), !f.started.holds(r.StartTime):
	default:
		return true
	}
	return false
}

// parseTimeRange reads bacct's "time0,time1": each time is
// [[[year/]month/]day/]hh:mm, or [[year/]month/]day (the day's start for
// time0, its last minute for time1), or "." for now; either may be left
// out (time0 the epoch, time1 now).
func parseTimeRange(s string, now time.Time) (timeRange, error) {
	a, b, ok := strings.Cut(s, ",")
	if !ok {
		return timeRange{}, fmt.Errorf("%q is not time0,time1", s)
	}
	from, to := int64(0), now.Unix()
	var err error
	if a = strings.TrimSpace(a); a != "" {
		if from, err = parseLSFTime(a, now, false); err != nil {
			return timeRange{}, err
		}
	}
	if b = strings.TrimSpace(b); b != "" {
		if to, err = parseLSFTime(b, now, true); err != nil {
			return timeRange{}, err
		}
	}
	if to < from {
		return timeRange{}, fmt.Errorf("%q ends before it begins", s)
	}
	return timeRange{set: true, from: from, to: to}, nil
}

func parseLSFTime(s string, now time.Time, end bool) (int64, error) {
	if s == "." {
		return now.Unix(), nil
	}
	bad := fmt.Errorf("%q is not a time [[[year/]month/]day/]hh:mm", s)
	parts := strings.Split(s, "/")
	hh, mm, ss := 0, 0, 0
	if end {
		hh, mm, ss = 23, 59, 59
	}
	if last := parts[len(parts)-1]; strings.Contains(last, ":") {
		h, m, _ := strings.Cut(last, ":")
		var err1, err2 error
		hh, err1 = strconv.Atoi(h)
		mm, err2 = strconv.Atoi(m)
		ss = 0
		if err1 != nil || err2 != nil || hh < 0 || hh > 23 || mm < 0 || mm > 59 {
			return 0, bad
		}
		parts = parts[:len(parts)-1]
	}
	if len(parts) > 3 {
		return 0, bad
	}
	y, mo, d := now.Date()
	nums := make([]int, len(parts))
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 {
			return 0, bad
		}
		nums[i] = n
	}
	switch len(nums) {
	case 3:
		y, mo, d = nums[0], time.Month(nums[1]), nums[2]
	case 2:
		mo, d = time.Month(nums[0]), nums[1]
	case 1:
		d = nums[0]
	}
	if mo < 1 || mo > 12 || d < 1 || d > 31 {
		return 0, bad
	}
	return time.Date(y, mo, d, hh, mm, ss, 0, now.Location()).Unix(), nil
}

// acctJob is what bacct shows of a record.
type acctJob struct {
	r                     *lsbacct.Record
	cpu                   float64
	wait, turnaround, run int64
}

func newAcctJob(r *lsbacct.Record) acctJob {
	j := acctJob{r: r, cpu: r.CPUTime(), turnaround: max(r.EventTime-r.SubmitTime, 0)}
	if r.Started() {
		j.wait = max(r.StartTime-r.SubmitTime, 0)
		j.run = max(r.EventTime-r.StartTime, 0)
	} else {
		j.wait = j.turnaround
	}
	return j
}

func (j acctJob) hog() float64 {
	if j.turnaround <= 0 {
		return 0
	}
	return j.cpu / float64(j.turnaround)
}

// writeAcctHeader writes what the jobs reported on are, as bacct does.
func writeAcctHeader(w io.Writer, f *acctFilter, loc *time.Location) {
	list := func(what, all string, names []string) string {
		if names == nil {
			return all
		}
		return what + " " + strings.Join(names, ", ")
	}
	fmt.Fprintln(w, "\nAccounting information about jobs that are: ")
	fmt.Fprintf(w, "  - %s.\n", list("submitted by users", "submitted by all users", f.users))
	fmt.Fprintf(w, "  - %s.\n", list("accounted on projects", "accounted on all projects", f.projects))
	switch {
	case f.done && !f.exited:
		fmt.Fprintln(w, "  - completed normally.")
	case f.exited && !f.done:
		fmt.Fprintln(w, "  - exited.")
	default:
		fmt.Fprintln(w, "  - completed normally or exited")
	}
	if f.exception {
		fmt.Fprintln(w, "  - with an exception (overrun, underrun or idle).")
	}
	for _, r := range []struct {
		what string
		r    timeRange
	}{{"completed", f.completed}, {"submitted", f.submitted}, {"dispatched", f.started}} {
		if r.r.set {
			fmt.Fprintf(w, "  - %s between   %s\n", r.what, time.Unix(r.r.from, 0).In(loc).Format(time.ANSIC))
			fmt.Fprintf(w, "%*s   %s\n", len(r.what)+12, "and", time.Unix(r.r.to, 0).In(loc).Format(time.ANSIC))
		}
	}
	fmt.Fprintf(w, "  - %s.\n", list("executed on hosts", "executed on all hosts", f.hosts))
	fmt.Fprintf(w, "  - %s.\n", list("submitted to queues", "submitted to all queues", f.queues))
	fmt.Fprintln(w, "  - accounted on all service classes.")
	fmt.Fprintln(w, strings.Repeat("-", 78))
}

// writeAcctJob writes one job as bacct -l (long) or -b writes it.
func writeAcctJob(w io.Writer, j acctJob, long bool, loc *time.Location) {
	r := j.r
	status := "EXIT"
	if r.Done() {
		status = "DONE"
	}
	name := ""
	if r.JobName != "" {
		name = ", Job Name <" + r.JobName + ">"
	}
	id := strconv.FormatInt(r.JobID, 10)
	if r.Idx > 0 {
		id += "[" + strconv.FormatInt(r.Idx, 10) + "]"
	}
	fmt.Fprintf(w, "\nJob <%s>%s, User <%s>, Project <%s>, Status <%s>, Queue <%s>, Command <%s>\n",
		id, name, r.UserName, r.ProjectName, status, r.Queue, r.Command)
	if long {
		var b strings.Builder
		// cwd is where the job runs (bsub -cwd), subcwd where it was
		// submitted from.
		// LSF 10 writes "$HOME" for an empty subcwd.
		cwd := r.Cwd
		switch {
		case r.Subcwd != "":
			cwd = r.Subcwd
		case strings.HasPrefix(r.Version, "10."):
			cwd = "$HOME"
		}
		fmt.Fprintf(&b, "%s: Submitted from host <%s>, CWD <%s>", lsfLongTime(r.SubmitTime, loc), r.FromHost, cwd)
		if cwd != r.Cwd {
			fmt.Fprintf(&b, ", Specified CWD <%s>", r.Cwd)
		}
		for _, f := range []struct{ what, v string }{{"Input File", r.InFile}, {"Output File", r.OutFile}, {"Error File", r.ErrFile}} {
			if f.v != "" {
				fmt.Fprintf(&b, ", %s <%s>", f.what, f.v)
			}
		}
		fmt.Fprintf(w, "%s;\n", b.String())
		if r.DstCluster != "" {
			fmt.Fprintf(w, "%s: Job <%d> forwarded to cluster <%s> as Job <%d>;\n", lsfLongTime(r.ForwardTime, loc), r.JobID, r.DstCluster, r.DstJobID)
		}
		if r.Started() {
			hosts := "<" + strings.Join(r.ExecHosts, "> <") + ">"
			slots := r.AllocSlots
			if len(slots) == 0 {
				slots = r.ExecHosts
			}
			fmt.Fprintf(w, "%s: Dispatched %d Task(s) on Host(s) %s, Allocated %d Slot(s) on Host(s) <%s>", lsfLongTime(r.StartTime, loc),
				len(r.ExecHosts), hosts, len(slots), strings.Join(slots, "> <"))
			if r.EffectiveResReq != "" {
				fmt.Fprintf(w, ", Effective RES_REQ <%s>", r.EffectiveResReq)
			}
			fmt.Fprintln(w, ";")
		}
		if r.Done() {
			fmt.Fprintf(w, "%s: Completed <done>.\n", lsfLongTime(r.EventTime, loc))
		} else if term := lsbacct.TermName(r.ExitInfo); term != "" {
			fmt.Fprintf(w, "%s: Completed <exit>; %s.\n", lsfLongTime(r.EventTime, loc), termReason(term))
		} else {
			fmt.Fprintf(w, "%s: Completed <exit>.\n", lsfLongTime(r.EventTime, loc))
		}
		if r.ExceptMask != 0 {
			fmt.Fprintf(w, "\nEXCEPTION STATUS:  %s\n", exceptionNames(r.ExceptMask))
		}
	}
	fmt.Fprintln(w, "\nAccounting information about this job:")
	fmt.Fprintln(w, "     CPU_T     WAIT     TURNAROUND   STATUS     HOG_FACTOR    MEM    SWAP")
	fmt.Fprintf(w, "%10.2f %8d %14d %8s %14.4f %6s %7s\n", j.cpu, j.wait, j.turnaround, strings.ToLower(status), j.hog(),
		acctMem(r.MaxRMem), acctMem(r.MaxRSwap))
	fmt.Fprintln(w, strings.Repeat("-", 78))
}

// acctMem writes KB as bacct does: whole MB, or GB with one decimal from
// 1024 MB on, both cut (not rounded); "0M" for none.
func acctMem(kb int64) string {
	switch {
	case kb <= 0:
		return "0M"
	case kb >= 1<<20:
		return strconv.FormatFloat(math.Floor(float64(kb)*10/(1<<20))/10, 'f', 1, 64) + "G"
	}
	return strconv.FormatInt(kb/1024, 10) + "M"
}

func exceptionNames(mask int64) string {
	var out []string
	for _, e := range []struct {
		bit  int64
		name string
	}{{lsbacct.ExceptOverrun, "overrun"}, {lsbacct.ExceptUnderrun, "underrun"}, {lsbacct.ExceptIdle, "idle"}} {
		if mask&e.bit != 0 {
			out = append(out, e.name)
		}
	}
	return strings.Join(out, " ")
}

// writeAcctSummary writes bacct's SUMMARY of the jobs; until, when set,
// ends the throughput's period (-C time1), else the last job's end does.
func writeAcctSummary(w io.Writer, jobs []acctJob, until int64, loc *time.Location) {
	pair := func(l, lv, r, rv string) {
		fmt.Fprintf(w, " %s%*s", l, 34-len(l), lv)
		if r != "" {
			fmt.Fprintf(w, "      %s%*s", r, 34-len(r), rv)
		}
		fmt.Fprintln(w)
	}
	f1 := func(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }
	f2 := func(v float64) string { return strconv.FormatFloat(v, 'f', 2, 64) }
	d := func(v int64) string { return strconv.FormatInt(v, 10) }
	fmt.Fprintln(w, "\nSUMMARY:      ( time unit: second ) ")
	var done, exited int
	var cpu, wait stats
	var turn, run stats
	var hog, expansion stats
	begin, end := int64(math.MaxInt64), int64(0)
	for _, j := range jobs {
		if j.r.Done() {
			done++
		} else {
			exited++
		}
		cpu.add(j.cpu)
		wait.add(float64(j.wait))
		turn.add(float64(j.turnaround))
		hog.add(j.hog())
		if j.r.Started() {
			run.add(float64(j.run))
			begin = min(begin, j.r.StartTime)
			if j.run > 0 {
				expansion.add(float64(j.turnaround) / float64(j.run))
			} else {
				expansion.add(0)
			}
		}
		end = max(end, j.r.EventTime)
	}
	pair("Total number of done jobs:", d(int64(done)), "Total number of exited jobs:", d(int64(exited)))
	if len(jobs) == 0 {
		return
	}
	pair("Total CPU time consumed:", f1(cpu.sum), "Average CPU time consumed:", f1(cpu.avg()))
	pair("Maximum CPU time of a job:", f1(cpu.max), "Minimum CPU time of a job:", f1(cpu.min))
	pair("Total wait time in queues:", f1(wait.sum), "", "")
	pair("Average wait time in queue:", f1(wait.avg()), "", "")
	pair("Maximum wait time in queue:", f1(wait.max), "Minimum wait time in queue:", f1(wait.min))
	fmt.Fprintf(w, " %s%*d (seconds/job)\n", "Average turnaround time:", 34-len("Average turnaround time:"), int64(math.Round(turn.avg())))
	pair("Maximum turnaround time:", d(int64(turn.max)), "Minimum turnaround time:", d(int64(turn.min)))
	fmt.Fprintf(w, " Average hog factor of a job:  %s ( cpu time / turnaround time )\n", f2(hog.avg()))
	pair("Maximum hog factor of a job:", f2(hog.max), "Minimum hog factor of a job:", f2(hog.min))
	if run.n > 0 {
		fmt.Fprintf(w, " Average expansion factor of a job:  %s ( turnaround time / run time )\n", f2(expansion.avg()))
		fmt.Fprintf(w, " Maximum expansion factor of a job:  %s\n", f2(expansion.max))
		fmt.Fprintf(w, " Minimum expansion factor of a job:  %s\n", f2(expansion.min))
		pair("Total Run time consumed:", d(int64(run.sum)), "Average Run time consumed:", d(int64(math.Round(run.avg()))))
		pair("Maximum Run time of a job:", d(int64(run.max)), "Minimum Run time of a job:", d(int64(run.min)))
	}
	if until > 0 {
		end = until
	}
	if begin == math.MaxInt64 {
		begin = end
	}
	if hours := float64(end-begin) / 3600; hours > 0 {
		fmt.Fprintf(w, " %s%*s (jobs/hour)  during %7.2f hours\n", "Total throughput:", 34-len("Total throughput:"), f2(float64(len(jobs))/hours), hours)
	}
	short := func(t int64) string { return time.Unix(t, 0).In(loc).Format("Jan _2 15:04") }
	pair("Beginning time:", short(begin), "Ending time:", short(end))
}

// stats accumulates sum, count, least and most of values.
type stats struct {
	n             int
	sum, min, max float64
}

func (s *stats) add(v float64) {
	if s.n == 0 || v < s.min {
		s.min = v
	}
	if s.n == 0 || v > s.max {
		s.max = v
	}
	s.n++
	s.sum += v
}

func (s *stats) avg() float64 {
	if s.n == 0 {
		return 0
	}
	return s.sum / float64(s.n)
}
