package main

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lsfc/lsfc/runtime/api"
)

// The states bhist sums the time of, in its columns' order.
var historyStates = []string{"PEND", "PSUSP", "RUN", "USUSP", "SSUSP", "UNKWN"}

// timeInStates returns the seconds a job spent in each of historyStates
// and their total, up to its end, or to now for a job that has not
// ended.
func timeInStates(h *api.JobHistory, now int64) (secs [6]int64, total int64) {
	state, last := "PEND", h.Submit
	ended := false
	spend := func(at int64) {
		if i := slices.Index(historyStates, state); i >= 0 && at > last {
			secs[i] += at - last
		}
		if at > last {
			last = at
		}
	}
	for _, e := range h.Events {
		if ended && e.Kind != api.EventRequeue {
			continue
		}
		switch e.Kind {
		case api.EventStart:
			spend(e.At)
			state = "RUN"
		case api.EventSuspend, api.EventResume:
			spend(e.At)
			state = e.State
		case api.EventRequeue:
			if !ended {
				spend(e.At)
			}
			state, last, ended = "PEND", max(last, e.At), false
		case api.EventUnknown:
			spend(e.At)
			state = "UNKWN"
		case api.EventDone, api.EventExit:
			spend(e.At)
			ended = true
		}
	}
	if !ended {
		spend(now)
	}
	for _, s := range secs {
		total += s
	}
	return secs, total
}

// historyID returns a job's ID as bhist shows it: "12", or "12[3]" for an
// array element.
func historyID(h *api.JobHistory) string {
	if h.Index > 0 {
		return fmt.Sprintf("%d[%d]", h.ID, h.Index)
	}
	return strconv.FormatInt(h.ID, 10)
}

// historyName returns a job's name, -J or else its command.
func historyName(h *api.JobHistory) string {
	if h.Name != "" {
		return h.Name
	}
	return oneLine(h.Command)
}

// cutLeft shortens s to width as LSF does, keeping its end after a "*".
func cutLeft(s string, width int) string {
	if len(s) <= width {
		return s
	}
	return "*" + s[len(s)-width+1:]
}

// writeHistoryTable prints bhist's default table: the seconds each job
// spent in each state. wide keeps names whole.
func writeHistoryTable(w io.Writer, hist []api.JobHistory, wide bool, now int64) {
	fmt.Fprintln(w, "Summary of time in seconds spent in various states:")
	row := "%-7s %-7s %-9s %-7s %-7s %-7s %-7s %-7s %-7s %s\n"
	fmt.Fprintf(w, row, "JOBID", "USER", "JOB_NAME", "PEND", "PSUSP", "RUN", "USUSP", "SSUSP", "UNKWN", "TOTAL")
	for i := range hist {
		h := &hist[i]
		secs, total := timeInStates(h, now)
		id, user, name := historyID(h), h.User, historyName(h)
		if !wide {
			id, user, name = cutLeft(id, 7), cutLeft(user, 7), cutLeft(name, 9)
		}
		cols := []any{id, user, name}
		for _, s := range secs {
			cols = append(cols, strconv.FormatInt(s, 10))
		}
		cols = append(cols, strconv.FormatInt(total, 10))
		fmt.Fprintf(w, row, cols...)
	}
}

// writeHistoryLong prints one job as bhist -l does: its submission, each
// change of its state, and the seconds it spent in each.
func writeHistoryLong(w io.Writer, h *api.JobHistory, now int64, loc *time.Location) {
	head := fmt.Sprintf("Job <%s>", historyID(h))
	if h.Name != "" {
		head += fmt.Sprintf(", Job Name <%s>", h.Name)
	}
	project := cmp.Or(h.Project, "default")
	fmt.Fprintf(w, "\n%s, User <%s>, Project <%s>, Command <%s>\n", head, h.User, project, oneLine(h.Command))
	var last int64
	for _, e := range h.Events {
		if line := historyLine(h, e); line != "" {
			fmt.Fprintf(w, "%s: %s\n", lsfLongTime(e.At, loc), line)
		}
		last = max(last, e.At)
	}
	secs, total := timeInStates(h, now)
	by := now
	if h.State == "DONE" || h.State == "EXIT" {
		by = last
	}
	fmt.Fprintf(w, "\nSummary of time in seconds spent in various states by  %s\n", lsfLongTime(by, loc))
	row := "  %-8v %-8v %-8v %-8v %-8v %-8v %v\n"
	fmt.Fprintf(w, row, "PEND", "PSUSP", "RUN", "USUSP", "SSUSP", "UNKWN", "TOTAL")
	fmt.Fprintf(w, row, secs[0], secs[1], secs[2], secs[3], secs[4], secs[5], total)
}

// byUser returns " by user or administrator <u>" for an event a user
// caused, "" otherwise.
func byUser(e api.HistoryEvent) string {
	if e.User == "" {
		return ""
	}
	return fmt.Sprintf(" by user or administrator <%s>", e.User)
}

// historyLine returns the text bhist -l writes for an event, after its
// time; "" for none.
func historyLine(h *api.JobHistory, e api.HistoryEvent) string {
	switch e.Kind {
	case api.EventSubmit:
		s := "Submitted from host <" + h.FromHost + ">, to Queue <" + e.Text + ">"
		if h.Cwd != "" {
			s += ", CWD <" + h.Cwd + ">"
		}
		if h.Slots > 1 {
			s += fmt.Sprintf(", %d Task(s)", h.Slots)
		}
		if h.ResReq != "" {
			s += ", Requested Resources <" + h.ResReq + ">"
		}
		return s + ";"
	case api.EventStart:
		hosts := strings.Join(execGroups(e.Hosts), "> <")
		s := fmt.Sprintf("Dispatched %d Task(s) on Host(s) <%s>, Allocated %d Slot(s) on Host(s) <%s>", e.Slots, hosts, e.Slots, hosts)
		if e.Text != "" {
			s += ", Effective RES_REQ <" + e.Text + ">"
		}
		return s + ";"
	case api.EventRunning:
		return fmt.Sprintf("Starting (Pid %d);", e.Pid)
	case api.EventDone:
		return fmt.Sprintf("Done successfully. The CPU time used is %.1f seconds;", e.CPU)
	case api.EventPostDone:
		return "Post job process done successfully;"
	case api.EventExit:
		s := fmt.Sprintf("Exited with exit code %d. The CPU time used is %.1f seconds;", e.Code, e.CPU)
		if e.State == "signal" {
			s = fmt.Sprintf("Exited by signal %d. The CPU time used is %.1f seconds;", e.Code, e.CPU)
		}
		if e.Text != "" {
			s += "\n" + strings.Repeat(" ", 21) + "Completed <exit>; " + termReason(e.Text) + ";"
		}
		return s
	case api.EventSuspend:
		switch {
		case e.State == "PSUSP":
			return "Suspended" + byUser(e) + " while pending;"
		case e.State == "SSUSP":
			return "Suspended by the LSF system;"
		}
		return "Suspended" + cmp.Or(byUser(e), " by the user or administrator") + ";"
	case api.EventResume:
		if e.State == "PEND" {
			return "Released" + byUser(e) + ";"
		}
		return "Running;"
	case api.EventRequeue:
		return "Pending: Job has been requeued;"
	case api.EventSwitch:
		return "Switched to Queue <" + e.Text + ">" + byUser(e) + ";"
	case api.EventMove:
		return "Job moved to " + e.Text + " of queue" + byUser(e) + ";"
	case api.EventModify:
		return "Parameters of Job are changed:" + cmp.Or(" "+e.Text, "") + byUser(e) + ";"
	case api.EventSignal:
		return "Signal <" + e.Text + "> requested" + byUser(e) + ";"
	case api.EventForward:
		return "Forwarded job to cluster <" + e.Text + ">;"
	case api.EventAccept:
		s := "Job accepted by cluster <" + e.Text + ">"
		if e.Pid > 0 {
			s += fmt.Sprintf(" as job <%d>", e.Pid)
		}
		return s + ";"
	case api.EventReturn:
		return "Job returned from the remote cluster: " + e.Text + ";"
	case api.EventMigrate:
		return "Migration requested" + byUser(e) + ";"
	case api.EventForce:
		return "Job is forced to run or is run by brun" + byUser(e) + ";"
	case api.EventUnknown:
		return "Unknown; unable to reach the execution host;"
	case api.EventStatus:
		return "External status <" + e.Text + ">;"
	case api.EventLost:
		return "Moved to Queue <lost_and_found>: its queue was removed;"
	}
	return ""
}

// writeEventList prints bhist -t: every event of the log, of every job,
// in the order they happened (those in sel.events when -T is given).
func writeEventList(w io.Writer, hist []api.JobHistory, sel *historySelection, loc *time.Location) {
	type item struct {
		h *api.JobHistory
		e api.HistoryEvent
		n int
	}
	var items []item
	for i := range hist {
		for _, e := range hist[i].Events {
			if sel.events.has(e.At) {
				items = append(items, item{&hist[i], e, len(items)})
			}
		}
	}
	slices.SortStableFunc(items, func(a, b item) int { return cmp.Compare(a.e.At, b.e.At) })
	for _, it := range items {
		line := historyLine(it.h, it.e)
		if line == "" {
			continue
		}
		if it.e.Kind == api.EventSubmit {
			line = strings.TrimSuffix(line, ";") + fmt.Sprintf(", User <%s>, Project <%s>, Command <%s>;",
				it.h.User, cmp.Or(it.h.Project, "default"), oneLine(it.h.Command))
		}
		fmt.Fprintf(w, "%s: Job <%s> %s%s\n", lsfLongTime(it.e.At, loc), historyID(it.h), strings.ToLower(line[:1]), line[1:])
	}
}

// parseTimeRange reads bhist's time interval "time0,time1": each end as
// [[[year/]month/]day/]hour:minute, [[year/]month/]day (the day's start
// for time0, its end for time1), or "." for now; a missing time0 is the
// earliest time, a missing time1 now. A lone time is its own minute (or
// day).
func parseTimeRange(s string, now time.Time) (*timeRange, error) {
	t0, t1, two := strings.Cut(s, ",")
	if !two {
		a, err := parseLSFTime(t0, now, false)
		if err != nil {
			return nil, err
		}
		b, err := parseLSFTime(t0, now, true)
		return &timeRange{a, b}, err
	}
	r := &timeRange{0, now.Unix()}
	var err error
	if t0 != "" {
		if r.from, err = parseLSFTime(t0, now, false); err != nil {
			return nil, err
		}
	}
	if t1 != "" {
		if r.to, err = parseLSFTime(t1, now, true); err != nil {
			return nil, err
		}
	}
	if r.to < r.from {
		return nil, fmt.Errorf("the interval %q ends before it starts", s)
	}
	return r, nil
}

// parseLSFTime reads one end of a time interval, in now's location;
// end picks the last second of the minute or day it names.
func parseLSFTime(s string, now time.Time, end bool) (int64, error) {
	if s == "." {
		return now.Unix(), nil
	}
	bad := fmt.Errorf("bad time %q (want [[[year/]month/]day/]hour:minute, or .)", s)
	parts := strings.Split(s, "/")
	clock := ""
	if strings.Contains(parts[len(parts)-1], ":") {
		clock, parts = parts[len(parts)-1], parts[:len(parts)-1]
	}
	if len(parts) > 3 || clock == "" && len(parts) == 0 {
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
	hh, mm := 0, 0
	if clock != "" {
		h, m, _ := strings.Cut(clock, ":")
		var err1, err2 error
		hh, err1 = strconv.Atoi(h)
		mm, err2 = strconv.Atoi(m)
		if err1 != nil || err2 != nil || hh < 0 || hh > 23 || mm < 0 || mm > 59 {
			return 0, bad
		}
	}
	t := time.Date(y, mo, d, hh, mm, 0, 0, now.Location())
	switch {
	case end && clock == "":
		t = t.AddDate(0, 0, 1).Add(-time.Second)
	case end:
		t = t.Add(time.Minute - time.Second)
	}
	return t.Unix(), nil
}
