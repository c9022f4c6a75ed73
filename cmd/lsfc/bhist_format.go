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
		case api.EventSuspend, api.EventResume, api.EventPreExec:
			spend(e.At)
			state = e.State
		case api.EventRequeue:
			if !ended {
				spend(e.At)
			}
			state, last, ended = cmp.Or(e.State, "PEND"), max(last, e.At), false
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
func writeHistoryLong(w io.Writer, h *api.JobHistory, now int64, loc *time.Location, gpu bool) {
	head := fmt.Sprintf("Job <%s>", historyID(h))
	if h.Name != "" {
		head += fmt.Sprintf(", Job Name <%s>", h.Name)
	}
	head += fmt.Sprintf(", User <%s>, Project <%s>", h.User, cmp.Or(h.Project, "default"))
	if h.JobGroup != "" {
		head += fmt.Sprintf(", Job Group <%s>", h.JobGroup)
	}
	fmt.Fprintf(w, "\n%s, Command <%s>\n", head, oneLine(h.Command))
	var last int64
	for _, e := range h.Events {
		if line := historyLine(h, e); line != "" {
			fmt.Fprintf(w, "%s: %s\n", lsfLongTime(e.At, loc), line)
		}
		if gpu && e.Kind == api.EventStart && len(e.GPUs) > 0 {
			// -gpu: the GPUs the start gave the job.
			var b strings.Builder
			writeGPUAlloc(&b, textSafe(e.GPUs), e.Hosts)
			fmt.Fprintln(w, strings.TrimPrefix(b.String(), "\n"))
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
// time; "" for none. The reason a bkill, bstop or bresume gave with -C
// follows the change it caused.
func historyLine(h *api.JobHistory, e api.HistoryEvent) string {
	s := eventText(h, e)
	if s == "" || e.Reason == "" {
		return s
	}
	label := "Kill reason"
	switch {
	case e.Kind == api.EventSuspend:
		label = "Suspend reason"
	case e.Kind == api.EventResume:
		label = "Resume reason"
	}
	return s + " " + label + ": <" + oneLine(e.Reason) + ">;"
}

// eventText returns what bhist -l says of an event; "" for none.
func eventText(h *api.JobHistory, e api.HistoryEvent) string {
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
	case api.EventPostErr:
		return "Post job process failed;"
	case api.EventPreExec:
		if e.State == "PSUSP" {
			return fmt.Sprintf("Suspended: pre-execution retry limit reached (exit %d);", e.Code)
		}
		return fmt.Sprintf("Pending: pre-execution command exited with %d;", e.Code)
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
		if e.Text == api.RequeueOnExit && e.State == "PSUSP" {
			return fmt.Sprintf("Suspended: job re-queue limit (MAX_JOB_REQUEUE) reached;(exit code %d)", e.Code)
		}
		if e.Text == api.RequeueOnExit {
			return fmt.Sprintf("Pending: Requeued job is waiting for rescheduling;(exit code %d)", e.Code)
		}
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
	case api.EventResize:
		return resizeLine(e)
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
			if sel.events.holds(e.At) {
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

// resizeLine returns the text bhist -l writes for a resize of a job.
func resizeLine(e api.HistoryEvent) string {
	hosts := strings.Join(execGroups(e.Hosts), "> <")
	switch e.Text {
	case "grow":
		return fmt.Sprintf("Additional allocation of %d Task(s) on Host(s) <%s>;", e.Slots, hosts)
	case "release":
		return fmt.Sprintf("Release allocation of %d Task(s) on Host(s) <%s>;", e.Slots, hosts)
	case "request":
		return fmt.Sprintf("Resize request for %d to %d more Task(s);", e.Code, e.Slots)
	case "cancel":
		return "Pending resize request cancelled;"
	case "notified":
		return fmt.Sprintf("Resize notification command completed with exit code %d;", e.Code)
	}
	return ""
}
