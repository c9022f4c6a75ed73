package main

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/lsfc/lsfc/compile/units"
	"github.com/lsfc/lsfc/runtime/api"
)

// jobsView prints jobs in bjobs's text layouts.
type jobsView struct {
	loc      *time.Location // where times are shown
	wide     bool           // -w: cut nothing
	noHeader bool           // -noheader
	// unformatted is -UF: bjobs -l's lines are not wrapped.
	unformatted bool
	// gpu is -gpu: bjobs -l shows the GPUs each job holds.
	gpu bool
	// now is the time (Unix seconds) -o counts run and pending times
	// to; 0 for the present.
	now int64
}

// The default layout: each column's width, as LSF prints it.
const (
	jobsHeader = "JOBID   USER    STAT  QUEUE      FROM_HOST   EXEC_HOST   JOB_NAME   SUBMIT_TIME"
	jobsRow    = "%-7s %-7s %-5s %-10s %-11s %-11s %-10s %s\n"
	// execIndent is where a job's further execution hosts are printed.
	execIndent = 45
)

// writeDefault prints the default layout.
func (v jobsView) writeDefault(w io.Writer, jobs []api.Job) {
	rows := make([]api.JobRow, len(jobs))
	for i := range jobs {
		rows[i] = api.RowOf(&jobs[i])
	}
	v.writeRows(w, rows)
}

// writeRows prints rows in the default layout, each field it prints
// escaped as textJobs escapes it, the whole table in one write.
func (v jobsView) writeRows(w io.Writer, rows []api.JobRow) {
	b := make([]byte, 0, (len(rows)+1)*84)
	if !v.noHeader {
		b = append(b, jobsHeader+"\n"...)
	}
	var times timeCache
	// The rows of a list repeat the text of the row before them in most
	// columns: each column's last text is escaped once.
	var user, state, queue, from, name lastEscaped
	for i := range rows {
		r := &rows[i]
		hosts, copied := r.ExecHosts, false
		for i, h := range hosts {
			if e := escapeText(h); e != h {
				if !copied {
					hosts, copied = slices.Clone(hosts), true
				}
				hosts[i] = e
			}
		}
		jobName := r.Name
		if jobName == "" {
			jobName = oneLine(r.Command)
		}
		b = v.appendRow(b, r.ID, user.of(r.User), state.of(r.State), queue.of(r.Queue), from.of(r.FromHost),
			hosts, name.of(jobName), times.format(r.Submit, v.loc))
	}
	w.Write(b)
}

// A lastEscaped is the last text of a column and that text escaped.
type lastEscaped struct {
	text, escaped string
	set           bool
}

// of returns escapeText(s).
func (l *lastEscaped) of(s string) string {
	if !l.set || s != l.text {
		l.text, l.escaped, l.set = s, escapeText(s), true
	}
	return l.escaped
}

// A timeCache formats times as lsfTime does, keeping the last: the jobs
// of a list are often submitted in the same second.
type timeCache struct {
	sec  int64
	text string
}

// format returns lsfTime(sec, loc).
func (c *timeCache) format(sec int64, loc *time.Location) string {
	if sec != c.sec || c.text == "" {
		c.sec, c.text = sec, lsfTime(sec, loc)
	}
	return c.text
}

// rowWidths are the widths of jobsRow's columns but the last.
var rowWidths = [...]int{7, 7, 5, 10, 11, 11, 10}

// rowLine returns the line fmt.Sprintf(jobsRow, cells...) returns, made
// without fmt: a listing of thousands of jobs prints a line for each.
func rowLine(cells ...string) []byte {
	return appendCells(make([]byte, 0, 96), rowWidths[:], cells...)
}

// appendCells appends cells padded to their widths (in runes, as fmt
// pads), each followed by a blank, the last one by a newline.
func appendCells(b []byte, widths []int, cells ...string) []byte {
	for i, c := range cells {
		b = append(b, c...)
		if i == len(cells)-1 {
			break
		}
		for n := utf8.RuneCountInString(c); n < widths[i]; n++ {
			b = append(b, ' ')
		}
		b = append(b, ' ')
	}
	return append(b, '\n')
}

// The layout of bjobs -fwd: the default one with the cluster a job was
// forwarded to and when, in place of FROM_HOST and SUBMIT_TIME.
const (
	fwdHeader = "JOBID   USER    STAT  QUEUE      EXEC_HOST   JOB_NAME   CLUSTER     FORWARD_TIME"
	fwdRow    = "%-7s %-7s %-5s %-10s %-11s %-10s %-11s %s\n"
)

// writeForwarded prints bjobs -fwd: the jobs forwarded to other
// clusters.
func (v jobsView) writeForwarded(w io.Writer, jobs []api.Job) {
	jobs = textJobs(jobs)
	if !v.noHeader {
		fmt.Fprintln(w, fwdHeader)
	}
	for i := range jobs {
		j := &jobs[i]
		user, queue, host, name, cluster := j.User, j.Queue, strings.Join(execGroups(j.ExecHosts), ":"), jobName(j), j.Forward.Cluster
		if !v.wide {
			user, queue, host, name, cluster = cutEnd(user, 7), cutEnd(queue, 10), cutEnd(host, 11), cutStart(name, 10), cutEnd(cluster, 11)
		}
		fmt.Fprintf(w, fwdRow, api.FormatJobID(j.ID), user, j.State, queue, host, name, cluster, lsfTime(j.Forward.Time, v.loc))
	}
}

// writeAPS prints bjobs -aps: the default layout with an APS column, the
// jobs with a system value first (shown in parentheses), then those with a
// calculated value, highest first, then the others ("-"); equal values in
// submission order.
func (v jobsView) writeAPS(w io.Writer, jobs []api.Job) {
	jobs = textJobs(jobs)
	sorted := sortAPS(jobs)
	if !v.noHeader {
		fmt.Fprintln(w, jobsHeader+"    APS")
	}
	for i := range sorted {
		var b strings.Builder
		v.writeRow(&b, &sorted[i], false)
		row := strings.TrimSuffix(b.String(), "\n")
		aps := "-"
		switch j := sorted[i].APS; {
		case j == nil:
		case j.System:
			aps = "(" + strconv.FormatFloat(j.Value, 'f', -1, 64) + ")"
		default:
			aps = strconv.FormatFloat(j.Value, 'f', 2, 64)
		}
		fmt.Fprintf(w, "%s %6s\n", row, aps)
	}
}

// writePrio prints bjobs -prio: for each job with an APS value, in bjobs
// -aps order, the value and the factors it is made of, as they stand
// after their limits and grace periods and before their weights (FS is
// the dynamic priority of the job's share account). A system value
// replaces the calculation: its factors are "-".
func (v jobsView) writePrio(w io.Writer, jobs []api.Job) {
	jobs = textJobs(jobs)
	const row = "%-7s %-10s %-10s %10s %9s %6s %9s %9s %9s %9s %9s\n"
	if !v.noHeader {
		fmt.Fprintf(w, row, "JOBID", "QUEUE", "USER", "APS", "FS", "PROC", "MEM", "SWAP", "JPRIORITY", "QPRIORITY", "ADMIN")
	}
	num := func(x float64) string { return strconv.FormatFloat(x, 'f', 2, 64) }
	for _, j := range sortAPS(jobs) {
		a := j.APS
		if a == nil {
			continue
		}
		id, queue, user := api.FormatJobID(j.ID), j.Queue, j.User
		if !v.wide {
			queue, user = cutEnd(queue, 10), cutEnd(user, 10)
		}
		if a.System {
			sys := "(" + strconv.FormatFloat(a.Value, 'f', -1, 64) + ")"
			fmt.Fprintf(w, row, id, queue, user, sys, "-", "-", "-", "-", "-", "-", "-")
			continue
		}
		fmt.Fprintf(w, row, id, queue, user, num(a.Value), num(a.FS), strconv.FormatFloat(a.Proc, 'f', -1, 64),
			num(a.Mem), num(a.Swap), num(a.JPriority), num(a.QPriority), num(a.Admin))
	}
}

// sortAPS returns jobs in bjobs -aps order.
func sortAPS(jobs []api.Job) []api.Job {
	rank := func(j *api.Job) int {
		switch {
		case j.APS == nil:
			return 2
		case j.APS.System:
			return 0
		}
		return 1
	}
	sorted := slices.Clone(jobs)
	slices.SortStableFunc(sorted, func(a, b api.Job) int {
		ra, rb := rank(&a), rank(&b)
		if ra != rb {
			return cmp.Compare(ra, rb)
		}
		if ra < 2 {
			if d := cmp.Compare(b.APS.Value, a.APS.Value); d != 0 {
				return d
			}
		}
		return cmp.Or(cmp.Compare(a.Submit, b.Submit), compareJobIDs(a, b))
	})
	return sorted
}

// writeRow prints one job in the default layout, with its execution hosts
// when exec is set.
func (v jobsView) writeRow(w io.Writer, j *api.Job, exec bool) {
	hosts := j.ExecHosts
	if !exec {
		hosts = nil
	}
	w.Write(v.appendRow(nil, j.ID, j.User, j.State, j.Queue, j.FromHost, hosts, jobName(j), lsfTime(j.Submit, v.loc)))
}

// appendRow appends a job's line in the default layout, its execution
// hosts grouped (execGroups): unless wide, the first group on the line,
// each other one on a line of its own below it.
func (v jobsView) appendRow(b []byte, id int64, user, state, queue, from string, hosts []string, name, submit string) []byte {
	groups := execGroups(hosts)
	var host string
	if v.wide {
		host = strings.Join(groups, ":")
	} else {
		if len(groups) > 0 {
			host = cutEnd(groups[0], 11)
		}
		user, queue, from, name = cutEnd(user, 7), cutEnd(queue, 10), cutEnd(from, 11), cutStart(name, 10)
	}
	// The job's ID, as api.FormatJobID writes it, then the other cells.
	start := len(b)
	job, index := api.SplitID(id)
	b = strconv.AppendInt(b, job, 10)
	if index > 0 {
		b = append(b, '[')
		b = strconv.AppendInt(b, int64(index), 10)
		b = append(b, ']')
	}
	for n := len(b) - start; n < rowWidths[0]; n++ {
		b = append(b, ' ')
	}
	b = appendCells(append(b, ' '), rowWidths[1:], user, state, queue, from, host, name, submit)
	if !v.wide && len(groups) > 1 {
		for _, g := range groups[1:] {
			b = append(b, strings.Repeat(" ", execIndent)...)
			b = append(b, cutEnd(g, 11)...)
			b = append(b, '\n')
		}
	}
	return b
}

// writePending prints pending jobs in the default layout, each followed by
// its pending reason and the hosts' reasons, counted, as bjobs -p does.
func (v jobsView) writePending(w io.Writer, jobs []api.Job) {
	jobs = textJobs(jobs)
	if !v.noHeader {
		fmt.Fprintln(w, jobsHeader)
	}
	for i := range jobs {
		j := &jobs[i]
		v.writeRow(w, j, false)
		if j.Reason != "" {
			fmt.Fprintf(w, " %s;\n", j.Reason)
		}
		for _, g := range groupHostReasons(j.HostReasons) {
			fmt.Fprintf(w, " %s: %s;\n", g.reason, plural(len(g.hosts), "host"))
		}
	}
}

// writeLong prints the jobs as bjobs -l does: the job's line and its
// time-stamped lines wrapped at longWidth columns (wrapLong), unless
// v.unformatted (-UF) keeps each whole.
func (v jobsView) writeLong(w io.Writer, jobs []api.Job) {
	jobs = textJobs(jobs)
	for i := range jobs {
		if i > 0 {
			fmt.Fprintln(w, strings.Repeat("-", 78))
		}
		if v.unformatted {
			v.writeLongJob(w, &jobs[i])
			continue
		}
		var b strings.Builder
		v.writeLongJob(&b, &jobs[i])
		for _, line := range strings.SplitAfter(b.String(), "\n") {
			io.WriteString(w, wrapLong(line))
		}
	}
}

// The wrapping of bjobs -l: lines of at most longWidth columns, their
// continuations indented by longIndent blanks, under the text after a
// time stamp ("Mon Nov 21 23:38:02: ").
const (
	longWidth  = 80
	longIndent = 21
)

// wrapLong wraps one line of bjobs -l (its newline included) as LSF
// does: the job's first line and the time-stamped ones, which start with
// no blank, break at blanks so that each piece's text ends by column
// longWidth-1 with its blank kept after it, and each continuation starts
// with longIndent blanks. A word too long for a line of its own is not
// cut. Other lines (the indented sections, blank lines) are returned as
// they are.
func wrapLong(line string) string {
	text, nl := strings.CutSuffix(line, "\n")
	if len(text) < longWidth || text[0] == ' ' {
		return line
	}
	var b strings.Builder
	cur := 0 // the columns of the current output line
	start := true
	for _, word := range strings.SplitAfter(text, " ") {
		bare := strings.TrimRight(word, " ")
		if !start && bare != "" && cur+len(bare) > longWidth-1 {
			b.WriteString("\n")
			b.WriteString(strings.Repeat(" ", longIndent))
			cur, start = longIndent, true
		}
		b.WriteString(word)
		cur += len(word)
		if bare != "" {
			start = false
		}
	}
	if nl {
		b.WriteString("\n")
	}
	return b.String()
}

func (v jobsView) writeLongJob(w io.Writer, j *api.Job) {
	fmt.Fprintln(w)
	first := fmt.Sprintf("Job <%s>, Job Name <%s>, User <%s>, Project <%s>", api.FormatJobID(j.ID), jobName(j), j.User, jobProject(j))
	if j.UserGroup != "" {
		first += fmt.Sprintf(", User Group <%s>", j.UserGroup)
	}
	if j.JobGroup != "" {
		first += fmt.Sprintf(", Job Group <%s>", j.JobGroup)
	}
	first += fmt.Sprintf(", Status <%s>, Queue <%s>", j.State, j.Queue)
	if j.Priority > 0 {
		first += fmt.Sprintf(", Job Priority <%d>", j.Priority)
	}
	if j.Reservation != "" {
		first += fmt.Sprintf(", Reservation <%s>", j.Reservation)
	}
	if j.Description != "" {
		first += fmt.Sprintf(", Job Description <%s>", oneLine(j.Description))
	}
	fmt.Fprintf(w, "%s, Command <%s>\n", first, oneLine(j.Command))

	sub := []string{fmt.Sprintf("Submitted from host <%s>", j.FromHost)}
	if j.Cwd != "" {
		sub = append(sub, fmt.Sprintf("CWD <%s>", j.Cwd))
	}
	if j.Slots > 1 {
		sub = append(sub, fmt.Sprintf("%d Task(s)", j.Slots))
	}
	if rz := j.Resize; rz != nil {
		if rz.MaxSlots > 0 {
			sub = append(sub, fmt.Sprintf("Requested Task(s) <%d,%d>", rz.MinSlots, rz.MaxSlots))
		}
		switch {
		case rz.Auto:
			sub = append(sub, "Autoresizable")
		case rz.Resizable:
			sub = append(sub, "Resizable")
		}
		if rz.Notify != "" {
			sub = append(sub, fmt.Sprintf("Resize Notification Command <%s>", oneLine(rz.Notify)))
		}
	}
	if n := notifyText(j.Notify); n != "" {
		sub = append(sub, n)
	}
	if j.Stdout != "" {
		sub = append(sub, fmt.Sprintf("Output File <%s>", j.Stdout))
	}
	if j.Notify != nil && j.Notify.User != "" {
		sub = append(sub, fmt.Sprintf("Mail <%s>", j.Notify.User))
	}
	if j.Stderr != "" {
		sub = append(sub, fmt.Sprintf("Error File <%s>", j.Stderr))
	}
	if j.Rerunnable {
		sub = append(sub, "Re-runnable")
	}
	if j.ResReq != "" {
		sub = append(sub, fmt.Sprintf("Requested Resources <%s>", j.ResReq))
	}
	if j.GPUReq != "" {
		sub = append(sub, fmt.Sprintf("Requested GPU <%s>", j.GPUReq))
	}
	if j.Depend != "" {
		sub = append(sub, fmt.Sprintf("Dependency Condition <%s>", j.Depend))
	}
	if j.PreExecCmd != "" {
		sub = append(sub, fmt.Sprintf("Pre-execute Command <%s>", oneLine(j.PreExecCmd)))
	}
	if j.PostExecCmd != "" {
		sub = append(sub, fmt.Sprintf("Post-execute Command <%s>", oneLine(j.PostExecCmd)))
	}
	if j.Input != "" {
		sub = append(sub, fmt.Sprintf("Input File <%s>", j.Input))
	}
	if j.LoginShell != "" {
		sub = append(sub, fmt.Sprintf("Login Shell <%s>", j.LoginShell))
	}
	if j.OutDir != "" {
		sub = append(sub, fmt.Sprintf("Output Directory <%s>", j.OutDir))
	}
	fmt.Fprintf(w, "%s: %s;\n", lsfLongTime(j.Submit, v.loc), strings.Join(sub, ", "))
	if h := j.Home; h != nil {
		fmt.Fprintf(w, "%s: Forwarded from cluster <%s>, job <%d> there;\n", lsfLongTime(j.Submit, v.loc), h.Cluster, h.ID)
	}
	if f := j.Forward; f != nil {
		line := fmt.Sprintf("Forwarded to cluster <%s>, queue <%s>", f.Cluster, f.Queue)
		if f.RemoteID > 0 {
			line += fmt.Sprintf(", remote job <%d>", f.RemoteID)
		}
		fmt.Fprintf(w, "%s: %s;\n", lsfLongTime(f.Time, v.loc), line)
	}

	if j.BeginTime > 0 {
		fmt.Fprintf(w, "%s: Job will be scheduled after %s;\n", lsfLongTime(j.Submit, v.loc), lsfLongTime(int64(j.BeginTime), v.loc))
	}
	if j.TermTime > 0 {
		fmt.Fprintf(w, "%s: Job will be terminated by %s;\n", lsfLongTime(j.Submit, v.loc), lsfLongTime(int64(j.TermTime), v.loc))
	}
	if r := j.Reserved; r != nil {
		writeReservation(w, r, v.loc)
	}
	writeResize(w, j.Resize)
	if j.CPULimit > 0 {
		fmt.Fprintf(w, "\n CPULIMIT\n %.1f min\n", j.CPULimit/60)
	}
	writeProcLimits(w, j.ProcLimits)
	if j.RunLimit > 0 {
		fmt.Fprintf(w, "\n RUNLIMIT\n %.1f min\n", j.RunLimit/60)
	}
	if j.Estimate > 0 {
		fmt.Fprintf(w, "\n ESTIMATED_RUNTIME\n %.1f min\n", j.Estimate/60)
	}
	if j.MemLimit > 0 {
		fmt.Fprintf(w, "\n MEMLIMIT\n %s\n", units.FormatMemory(j.MemLimit))
	}
	if j.Start != 0 {
		hosts := "<" + strings.Join(execGroups(j.ExecHosts), "> <") + ">"
		started := fmt.Sprintf("Started %d Task(s) on Host(s) %s, Allocated %d Slot(s) on Host(s) %s",
			j.Slots, hosts, len(j.ExecHosts), hosts)
		if cwd := cmp.Or(j.ExecCwd, j.Cwd); cwd != "" {
			started += fmt.Sprintf(", Execution CWD <%s>", cwd)
		}
		if j.Preempted > 0 {
			started += fmt.Sprintf(", Preempted %s", plural(j.Preempted, "time"))
		}
		fmt.Fprintf(w, "%s: %s;\n", lsfLongTime(j.Start, v.loc), started)
	}
	if finishedState(j.State) {
		end := j.End
		if end == 0 {
			end = max(j.Start, j.Submit)
		}
		at := lsfLongTime(end, v.loc)
		cpu := ""
		if j.CPUTime > 0 {
			cpu = fmt.Sprintf(" The CPU time used is %.1f seconds.", j.CPUTime)
		}
		if j.State == "DONE" {
			fmt.Fprintf(w, "%s: Done successfully.%s\n%s: Completed <done>.\n", at, cpu, at)
		} else {
			if j.ExitCode > 0 {
				fmt.Fprintf(w, "%s: Exited with exit code %d.%s\n", at, j.ExitCode, cpu)
			} else {
				fmt.Fprintf(w, "%s: Exited.%s\n", at, cpu)
			}
			completed := "Completed <exit>"
			if r := termReason(j.Term); r != "" {
				completed += "; " + r
			}
			fmt.Fprintf(w, "%s: %s.\n", at, completed)
		}
		switch j.PostExec {
		case "POST_DONE":
			fmt.Fprintf(w, "%s: Post job process done successfully.\n", at)
		case "POST_ERR":
			fmt.Fprintf(w, "%s: Post job process failed.\n", at)
		}
	}
	if j.MaxMem > 0 {
		fmt.Fprintf(w, "\n MEMORY USAGE:\n MAX MEM: %s;\n", lsfMbytes(j.MaxMem))
	}
	if j.Exceptions != "" {
		fmt.Fprintf(w, "\n EXCEPTION STATUS:  %s\n", strings.Join(strings.Fields(j.Exceptions), "  "))
	}
	if v.gpu {
		writeJobGPUs(w, j)
	}
	switch {
	case pendingState(j.State):
		fmt.Fprintf(w, "\n PENDING REASONS:\n")
		if j.Reason != "" {
			fmt.Fprintf(w, " %s;\n", j.Reason)
		}
		for _, g := range groupHostReasons(j.HostReasons) {
			fmt.Fprintf(w, " %s: %s;\n", g.reason, strings.Join(g.hosts, ", "))
		}
	case j.State == "USUSP" || j.State == "SSUSP":
		fmt.Fprintf(w, "\n SUSPENDING REASONS:\n")
		if j.Reason != "" {
			fmt.Fprintf(w, " %s;\n", j.Reason)
		}
	}
	fmt.Fprintln(w)
}

// lsfMbytes writes a memory amount in MB as LSF's bjobs -l and bacct do:
// "12 Mbytes", or "1.5 Gbytes" from a gigabyte on.
func lsfMbytes(mb float64) string {
	if mb >= 1024 {
		return strconv.FormatFloat(mb/1024, 'f', 1, 64) + " Gbytes"
	}
	return strconv.FormatFloat(math.Ceil(mb), 'f', 0, 64) + " Mbytes"
}

// A jobColumn is one field of bjobs -o.
type jobColumn struct {
	name  string // LSF's name of the field, lower case, as in jobFieldNames
	width int    // 0: as wide as the value
	right bool   // right-aligned
	// unit is the unit prefix a memory amount is shown in (K, M, G, T,
	// P, E, Z, or S for a unit picked per value without "bytes"); ""
	// for the field's own display.
	unit string
}

// defaultJobColumns are the fields of the default layout, for -json
// without -o.
func defaultJobColumns() []jobColumn {
	var out []jobColumn
	for _, n := range []string{"jobid", "user", "stat", "queue", "from_host", "exec_host", "job_name", "submit_time"} {
		out = append(out, jobColumn{name: n})
	}
	return out
}

// A jobFieldDef is a field bjobs -o prints: LSF's name for it, the width
// LSF recommends (NAME: with no width), the other names it is asked for
// by (LSF's aliases, then names earlier lsfc releases used), the fields
// of a job (JSON names) its value is made of, and whether it is a memory
// amount, which takes a unit prefix (NAME:WIDTH:UNIT).
type jobFieldDef struct {
	name    string
	width   int
	aliases []string
	fields  []string
	memory  bool
}

// jobFieldDefs are the fields of LSF 10.1's bjobs -o that lsfc has the
// values of, in the order LSF documents them; datalimit is lsfc's own.
var jobFieldDefs = []jobFieldDef{
	{name: "jobid", width: 7, aliases: []string{"id"}},
	{name: "jobindex", width: 8},
	{name: "stat", width: 5, fields: []string{"state"}},
	{name: "user", width: 7, fields: []string{"user"}},
	{name: "user_group", width: 15, aliases: []string{"ugroup"}, fields: []string{"userGroup"}},
	{name: "queue", width: 10, fields: []string{"queue"}},
	{name: "job_name", width: 10, aliases: []string{"name"}, fields: []string{"command"}},
	{name: "job_description", width: 17, aliases: []string{"description"}, fields: []string{"description"}},
	{name: "proj_name", width: 11, aliases: []string{"proj", "project"}, fields: []string{"project"}},
	{name: "application", width: 13, aliases: []string{"app"}, fields: []string{"app"}},
	{name: "service_class", width: 13, aliases: []string{"sla"}, fields: []string{"sla"}},
	{name: "job_group", width: 10, aliases: []string{"group", "jgroup", "jobgroup"}, fields: []string{"jobGroup"}},
	{name: "job_priority", width: 12, aliases: []string{"priority"}, fields: []string{"priority"}},
	{name: "rsvid", width: 40, fields: []string{"reservation"}},
	{name: "dependency", width: 15, fields: []string{"depend"}},
	{name: "pend_reason", width: 11, fields: []string{"state", "reason"}},
	{name: "command", width: 15, aliases: []string{"cmd"}, fields: []string{"command"}},
	{name: "pre_exec_command", width: 16, aliases: []string{"pre_cmd"}, fields: []string{"preExecCmd"}},
	{name: "post_exec_command", width: 17, aliases: []string{"post_cmd"}, fields: []string{"postExecCmd"}},
	{name: "resize_notification_command", width: 27, aliases: []string{"resize_cmd"}, fields: []string{"resize"}},
	{name: "exit_code", width: 10, fields: []string{"state", "exitCode"}},
	{name: "exit_reason", width: 50, fields: []string{"state", "term"}},
	{name: "from_host", width: 11, fields: []string{"fromHost"}},
	{name: "first_host", width: 11, fields: []string{"execHosts"}},
	{name: "exec_host", width: 11, fields: []string{"execHosts"}},
	{name: "nexec_host", width: 10, fields: []string{"execHosts"}},
	{name: "alloc_slot", width: 20, fields: []string{"execHosts"}},
	{name: "nalloc_slot", width: 10, fields: []string{"execHosts"}},
	{name: "nreq_slot", width: 10, fields: []string{"slots"}},
	{name: "submit_time", width: 15, fields: []string{"submitTime"}},
	{name: "start_time", width: 15, fields: []string{"startTime"}},
	{name: "estimated_start_time", width: 20, aliases: []string{"estart_time"}, fields: []string{"reserved"}},
	{name: "specified_start_time", width: 20, aliases: []string{"sstart_time"}, fields: []string{"beginTime"}},
	{name: "specified_terminate_time", width: 24, aliases: []string{"sterminate_time"}, fields: []string{"termTime"}},
	{name: "time_left", width: 11, fields: []string{"state", "startTime", "runLimit", "estimate"}},
	{name: "finish_time", width: 16, fields: []string{"state", "endTime"}},
	{name: "estimated_run_time", width: 20, aliases: []string{"ertime"}, fields: []string{"estimate"}},
	{name: "pend_time", width: 12, fields: []string{"state", "submitTime", "startTime", "endTime"}},
	{name: "cpu_used", width: 10, fields: []string{"cpuTime"}},
	{name: "run_time", width: 15, fields: []string{"state", "startTime", "endTime"}},
	{name: "exception_status", width: 16, aliases: []string{"except_stat"}, fields: []string{"exceptions"}},
	{name: "slots", width: 5, fields: []string{"slots"}},
	{name: "max_mem", width: 10, fields: []string{"maxMem"}, memory: true},
	{name: "memlimit", width: 10, fields: []string{"memLimit"}, memory: true},
	{name: "swaplimit", width: 10, fields: []string{"procLimits"}, memory: true},
	{name: "min_req_proc", width: 12, fields: []string{"slots", "resize"}},
	{name: "max_req_proc", width: 12, fields: []string{"slots", "resize"}},
	{name: "filelimit", width: 10, fields: []string{"procLimits"}},
	{name: "corelimit", width: 10, fields: []string{"procLimits"}, memory: true},
	{name: "stacklimit", width: 10, fields: []string{"procLimits"}, memory: true},
	{name: "processlimit", width: 12, fields: []string{"procLimits"}},
	{name: "datalimit", width: 10, fields: []string{"procLimits"}},
	{name: "runtimelimit", width: 12, fields: []string{"runLimit"}},
	{name: "input_file", width: 10, fields: []string{"input"}},
	{name: "output_file", width: 11, fields: []string{"stdout"}},
	{name: "error_file", width: 10, fields: []string{"stderr"}},
	{name: "output_dir", width: 15, fields: []string{"outDir"}},
	{name: "sub_cwd", width: 10, aliases: []string{"cwd"}, fields: []string{"cwd"}},
	{name: "exec_cwd", width: 10, fields: []string{"startTime", "execCwd", "cwd"}},
	{name: "forward_cluster", width: 15, aliases: []string{"fwd_cluster"}, fields: []string{"forward"}},
	{name: "forward_time", width: 15, aliases: []string{"fwd_time"}, fields: []string{"forward"}},
	{name: "srcjobid", width: 8, fields: []string{"home"}},
	{name: "dstjobid", width: 8, fields: []string{"forward"}},
	{name: "source_cluster", width: 15, aliases: []string{"srcluster"}, fields: []string{"home"}},
}

// unsupportedJobFields are the fields (and aliases) of LSF 10.1's bjobs
// -o whose values lsfc does not keep: -o refuses them.
var unsupportedJobFields = []string{"esub", "kill_reason", "suspend_reason", "resume_reason", "kill_issue_host",
	"suspend_issue_host", "resume_issue_host", "charged_saap", "saap", "pids", "interactive", "ask_hosts", "host_file",
	"exclusive", "ru_utime", "ru_stime", "%complete", "warning_action", "warn_act", "action_warning_time", "warn_time",
	"pendstate", "ependtime", "ipendtime", "estimated_sim_start_time", "esstart_time", "effective_plimit",
	"plimit_remain", "effective_eplimit", "eplimit_remain", "idle_factor", "mem", "avg_mem", "swap", "gpu_num", "gnum",
	"gpu_mode", "gmode", "j_exclusive", "j_excl", "gpu_alloc", "galloc", "nthreads", "hrusage", "effective_resreq",
	"eresreq", "combined_resreq", "cresreq", "network_req", "plimit", "eplimit", "exec_home", "licproject", "energy",
	"gpfsio", "cpu_peak", "cpu_efficiency", "cpu_peak_efficiency", "mem_efficiency", "average_cpu_efficiency",
	"cpu_peak_reached_duration", "all"}

// jobFieldByName maps each name and alias -o knows, lower case, to its
// field.
var jobFieldByName = func() map[string]*jobFieldDef {
	m := map[string]*jobFieldDef{}
	for i := range jobFieldDefs {
		d := &jobFieldDefs[i]
		m[d.name] = d
		for _, a := range d.aliases {
			m[a] = d
		}
	}
	return m
}()

// jobFieldNames returns the field names -o knows (LSF's names; the
// aliases are not in the list).
func jobFieldNames() []string {
	names := make([]string, len(jobFieldDefs))
	for i, d := range jobFieldDefs {
		names[i] = d.name
	}
	return names
}

// columnJSONFields are the fields of a job (JSON names) each column of
// -o and -json prints (jobField), beside the ID and index, which a
// listing always sends.
var columnJSONFields = func() map[string][]string {
	m := map[string][]string{}
	for _, d := range jobFieldDefs {
		m[d.name] = d.fields
	}
	return m
}()

// parseJobColumns reads the argument of -o: fields, each
// NAME[:[-][WIDTH][:UNIT]], separated by blanks, and an optional
// delimiter='C' (or "C"). A field is named by LSF's name or one of its
// aliases, without regard to case; NAME: alone takes the width LSF
// recommends for the field.
func parseJobColumns(spec string) ([]jobColumn, string, error) {
	delim := " "
	re := regexp.MustCompile(`delimiter\s*=\s*(?:'([^']*)'|"([^"]*)")`)
	if m := re.FindStringSubmatchIndex(spec); m != nil {
		if m[2] >= 0 {
			delim = spec[m[2]:m[3]]
		} else {
			delim = spec[m[4]:m[5]]
		}
		spec = spec[:m[0]] + " " + spec[m[1]:]
	}
	var cols []jobColumn
	for _, f := range strings.Fields(spec) {
		name, width, hasWidth := strings.Cut(f, ":")
		key := strings.ToLower(name)
		d, ok := jobFieldByName[key]
		switch {
		case ok:
		case slices.Contains(unsupportedJobFields, key):
			return nil, "", fmt.Errorf("field %q is not supported by lsfc (fields: %s)", name, strings.Join(jobFieldNames(), " "))
		default:
			return nil, "", fmt.Errorf("unknown field %q (fields: %s)", name, strings.Join(jobFieldNames(), " "))
		}
		c := jobColumn{name: d.name}
		if hasWidth {
			width, unit, hasUnit := strings.Cut(width, ":")
			if w, ok := strings.CutPrefix(width, "-"); ok {
				c.right, width = true, w
			}
			if width == "" {
				c.width = d.width
			} else {
				n, err := strconv.Atoi(width)
				if err != nil || n <= 0 || n > 4096 {
					return nil, "", fmt.Errorf("field %q: bad width %q (1 to 4096)", name, width)
				}
				c.width = n
			}
			if hasUnit {
				u, ok := memoryUnitPrefix(unit)
				if !ok {
					return nil, "", fmt.Errorf("field %q: bad unit %q (KB, MB, GB, TB, PB, EB, ZB or S)", name, unit)
				}
				// As in LSF, a unit applies to memory amounts alone.
				if d.memory {
					c.unit = u
				}
			}
		}
		cols = append(cols, c)
	}
	if len(cols) == 0 {
		return nil, "", fmt.Errorf("no field given")
	}
	return cols, delim, nil
}

// memoryUnitPrefix reads a unit prefix of -o: KB or K ... ZB or Z, or S;
// it returns the prefix's letter.
func memoryUnitPrefix(s string) (string, bool) {
	u := strings.ToUpper(s)
	if u == "S" {
		return u, true
	}
	u = strings.TrimSuffix(u, "B")
	if len(u) == 1 && strings.Contains("KMGTPEZ", u) {
		return u, true
	}
	return "", false
}

// writeColumns prints bjobs -o: a heading line of the fields' LSF names,
// upper-cased (unless -noheader), then one line per job. A field with a
// width is cut to it (a job name keeps its end, after "*") and padded;
// "-" stands for no value.
func (v jobsView) writeColumns(w io.Writer, cols []jobColumn, delim string, jobs []api.Job) {
	jobs = textJobs(jobs)
	now := v.nowUnix()
	line := func(cell func(c jobColumn) string) {
		parts := make([]string, len(cols))
		for i, c := range cols {
			parts[i] = fitColumn(c, cell(c))
		}
		fmt.Fprintln(w, strings.TrimRight(strings.Join(parts, delim), " "))
	}
	if !v.noHeader {
		line(func(c jobColumn) string { return strings.ToUpper(c.name) })
	}
	for i := range jobs {
		j := &jobs[i]
		line(func(c jobColumn) string { return orDash(columnValue(c, j, v.loc, now)) })
	}
}

// nowUnix is the time run and pending times are counted to.
func (v jobsView) nowUnix() int64 {
	if v.now != 0 {
		return v.now
	}
	return time.Now().Unix()
}

// fitColumn cuts and pads a value to the column's width.
func fitColumn(c jobColumn, s string) string {
	if c.width == 0 {
		return s
	}
	if len(s) > c.width {
		if c.name == "job_name" {
			s = cutStart(s, c.width)
		} else {
			s = s[:c.width]
		}
	}
	if c.right {
		return fmt.Sprintf("%*s", c.width, s)
	}
	return fmt.Sprintf("%-*s", c.width, s)
}

// writeJobsJSON prints bjobs -json: one record per job with the columns'
// values, keyed by the fields' LSF names upper-cased, then one
// {"ERROR": ...} record per id that was not found. Run and pending times
// are counted to now (Unix seconds).
func writeJobsJSON(w io.Writer, cols []jobColumn, jobs []api.Job, missing []int64, loc *time.Location, now int64) error {
	records := make([]lsfRecord, 0, len(jobs)+len(missing))
	for i := range jobs {
		r := make(lsfRecord, len(cols))
		for k, c := range cols {
			r[k] = lsfField{strings.ToUpper(c.name), columnValue(c, &jobs[i], loc, now)}
		}
		records = append(records, r)
	}
	for _, id := range missing {
		records = append(records, lsfRecord{{"ERROR", fmt.Sprintf("Job <%s> is not found", api.FormatJobID(id))}})
	}
	return writeLSFJSON(w, "bjobs", "JOBS", records)
}

// columnValue returns a column's value for a job: jobFieldAt's, or a
// memory amount in the column's unit.
func columnValue(c jobColumn, j *api.Job, loc *time.Location, now int64) string {
	if c.unit != "" {
		if kb, ok := memoryField(c.name, j); ok {
			return formatKBIn(kb, c.unit)
		}
	}
	return jobFieldAt(c.name, j, loc, now)
}

// memoryField returns a memory amount of a job in KB, if it has one.
func memoryField(name string, j *api.Job) (float64, bool) {
	switch name {
	case "max_mem":
		return j.MaxMem * 1024, j.MaxMem > 0
	case "memlimit":
		return j.MemLimit * 1024, j.MemLimit > 0
	case "swaplimit", "corelimit", "stacklimit":
		kb, ok := j.ProcLimits[strings.ToUpper(name)]
		return float64(kb), ok
	}
	return 0, false
}

// formatKBIn writes an amount in KB in a unit prefix of -o, as LSF
// does: two decimals, rounded at the third, then the prefix's letter (10
// MB in G is "0.01G"); S picks the largest unit the amount makes at least
// one of and drops zero decimals ("1.5G").
func formatKBIn(kb float64, unit string) string {
	const letters = "KMGTPEZ"
	i := strings.Index(letters, unit)
	auto := i < 0
	if auto {
		i = 0
		for i < len(letters)-1 && kb >= math.Pow(1024, float64(i+1)) {
			i++
		}
	}
	v := kb / math.Pow(1024, float64(i))
	v = math.Round(v*100) / 100
	if auto {
		return strconv.FormatFloat(v, 'f', -1, 64) + letters[i:i+1]
	}
	return strconv.FormatFloat(v, 'f', 2, 64) + letters[i:i+1]
}

// seconds writes a duration as LSF's bjobs -o writes times: "12
// second(s)".
func seconds(s int64) string {
	return strconv.FormatInt(max(s, 0), 10) + " second(s)"
}

// jobFieldAt returns a field of a job as bjobs -o and -json show it, ""
// for none; a running job's times are counted to now (Unix seconds).
func jobFieldAt(name string, j *api.Job, loc *time.Location, now int64) string {
	switch name {
	case "jobid":
		return api.FormatJobID(j.ID)
	case "jobindex":
		return strconv.Itoa(j.Index)
	case "stat":
		return j.State
	case "user":
		return j.User
	case "user_group":
		return j.UserGroup
	case "queue":
		return j.Queue
	case "job_name":
		return jobName(j)
	case "job_priority":
		if j.Priority > 0 {
			return strconv.Itoa(j.Priority)
		}
	case "rsvid":
		return j.Reservation
	case "from_host":
		return j.FromHost
	case "exec_host", "alloc_slot":
		return strings.Join(execGroups(j.ExecHosts), ":")
	case "first_host":
		if len(j.ExecHosts) > 0 {
			return j.ExecHosts[0]
		}
	case "nexec_host":
		if n := len(distinctHosts(j.ExecHosts)); n > 0 {
			return strconv.Itoa(n)
		}
	case "nalloc_slot":
		if len(j.ExecHosts) > 0 {
			return strconv.Itoa(len(j.ExecHosts))
		}
	case "nreq_slot":
		return strconv.Itoa(j.Slots)
	case "min_req_proc", "max_req_proc":
		lo, hi := j.Slots, j.Slots
		if rz := j.Resize; rz != nil && rz.MaxSlots > 0 {
			lo, hi = rz.MinSlots, rz.MaxSlots
		}
		if name == "min_req_proc" {
			return strconv.Itoa(lo)
		}
		return strconv.Itoa(hi)
	case "submit_time":
		return lsfTime(j.Submit, loc)
	case "start_time":
		return lsfTime(j.Start, loc)
	case "estimated_start_time":
		if r := j.Reserved; r != nil && r.Start > 0 {
			return lsfTime(r.Start, loc)
		}
	case "specified_start_time":
		return lsfTime(int64(j.BeginTime), loc)
	case "specified_terminate_time":
		return lsfTime(int64(j.TermTime), loc)
	case "finish_time":
		if finishedState(j.State) {
			return lsfTime(j.End, loc)
		}
		return ""
	case "time_left":
		return timeLeft(j, now)
	case "estimated_run_time":
		if j.Estimate > 0 {
			return seconds(int64(j.Estimate))
		}
	case "pend_time":
		switch {
		case j.Start > 0:
			return seconds(j.Start - j.Submit)
		case pendingState(j.State):
			return seconds(now - j.Submit)
		case j.End > 0:
			return seconds(j.End - j.Submit)
		}
	case "run_time":
		switch {
		case j.Start == 0:
		case finishedState(j.State):
			return seconds(max(j.End, j.Start) - j.Start)
		default:
			return seconds(now - j.Start)
		}
	case "exit_code":
		// An EXIT job's status; nothing for a job that has not failed,
		// and nothing (read as a failure) for one that exited without a
		// code, such as one killed while pending.
		if j.State == "EXIT" && j.ExitCode != 0 {
			return strconv.Itoa(j.ExitCode)
		}
		return ""
	case "exit_reason":
		if j.State == "EXIT" {
			return termReason(j.Term)
		}
		return ""
	case "pend_reason":
		if pendingState(j.State) {
			return j.Reason
		}
		return ""
	case "exception_status":
		return strings.Join(strings.Fields(j.Exceptions), " ")
	case "slots":
		return strconv.Itoa(j.Slots)
	case "command":
		return oneLine(j.Command)
	case "pre_exec_command":
		return oneLine(j.PreExecCmd)
	case "post_exec_command":
		return oneLine(j.PostExecCmd)
	case "resize_notification_command":
		if j.Resize != nil {
			return oneLine(j.Resize.Notify)
		}
	case "sub_cwd":
		return j.Cwd
	case "exec_cwd":
		if j.Start != 0 {
			return cmp.Or(j.ExecCwd, j.Cwd)
		}
	case "input_file":
		return j.Input
	case "output_file":
		return j.Stdout
	case "error_file":
		return j.Stderr
	case "output_dir":
		return j.OutDir
	case "dependency":
		return j.Depend
	case "proj_name":
		return jobProject(j)
	case "job_group":
		return j.JobGroup
	case "application":
		return j.App
	case "service_class":
		return j.Sla
	case "job_description":
		return oneLine(j.Description)
	case "cpu_used":
		if j.CPUTime > 0 {
			return strconv.FormatFloat(j.CPUTime, 'f', 1, 64) + " second(s)"
		}
	case "max_mem":
		if j.MaxMem > 0 {
			return lsfMbytes(j.MaxMem)
		}
	case "memlimit":
		if j.MemLimit > 0 {
			return lsfMbytes(j.MemLimit)
		}
	case "runtimelimit":
		if j.RunLimit > 0 {
			return strconv.FormatFloat(j.RunLimit/60, 'f', 1, 64)
		}
	case "corelimit", "datalimit", "filelimit", "stacklimit", "swaplimit":
		if kb, ok := j.ProcLimits[strings.ToUpper(name)]; ok {
			return strconv.FormatInt(kb, 10) + " KB"
		}
	case "processlimit":
		if n, ok := j.ProcLimits["PROCESSLIMIT"]; ok {
			return strconv.FormatInt(n, 10)
		}
	case "forward_cluster":
		if j.Forward != nil {
			return j.Forward.Cluster
		}
	case "forward_time":
		if j.Forward != nil {
			return lsfTime(j.Forward.Time, loc)
		}
	case "dstjobid":
		if j.Forward != nil && j.Forward.RemoteID > 0 {
			return strconv.FormatInt(j.Forward.RemoteID, 10)
		}
	case "source_cluster":
		if j.Home != nil {
			return j.Home.Cluster
		}
	case "srcjobid":
		if j.Home != nil {
			return strconv.FormatInt(j.Home.ID, 10)
		}
	}
	return ""
}

// distinctHosts returns hosts without repeats, in the order they come.
func distinctHosts(hosts []string) []string {
	var out []string
	for _, h := range hosts {
		if !slices.Contains(out, h) {
			out = append(out, h)
		}
	}
	return out
}

// timeLeft returns a started, unfinished job's remaining run time as
// bjobs -WL and the time_left field show it, "hours:minutes" and a
// letter: E while the job is within its estimated run time (bsub -We,
// RUNTIME), counted to the estimate; else, counted to the run limit, L
// for a job with no estimate and X for one past it. A job with neither
// has none.
func timeLeft(j *api.Job, now int64) string {
	if j.Start == 0 || pendingState(j.State) || finishedState(j.State) {
		return ""
	}
	run := float64(max(now-j.Start, 0))
	var left float64
	var mark string
	switch {
	case j.Estimate > 0 && run <= j.Estimate:
		left, mark = j.Estimate-run, "E"
	case j.RunLimit > 0 && j.Estimate > 0:
		left, mark = j.RunLimit-run, "X"
	case j.RunLimit > 0:
		left, mark = j.RunLimit-run, "L"
	case j.Estimate > 0:
		left, mark = 0, "X"
	default:
		return ""
	}
	m := int64(max(left, 0)) / 60
	return fmt.Sprintf("%d:%02d %s", m/60, m%60, mark)
}

// termReason returns how LSF words a termination reason:
// "TERM_OWNER: job killed by owner". An unknown code is returned as it is.
func termReason(term string) string {
	var why string
	switch term {
	case "":
		return ""
	case "TERM_ADMIN":
		why = "job killed by root or LSF administrator"
	case "TERM_BUCKET_KILL":
		why = "job killed with bkill -b"
	case "TERM_CHKPNT":
		why = "job killed after checkpointing"
	case "TERM_CPULIMIT":
		why = "job killed after reaching LSF CPU usage limit"
	case "TERM_CWD_NOTEXIST":
		why = "current working directory is not accessible or does not exist on the execution host"
	case "TERM_DEADLINE":
		why = "job killed after deadline expires"
	case "TERM_EXTERNAL_SIGNAL":
		why = "job killed by a signal external to LSF"
	case "TERM_FORCE_ADMIN":
		why = "job killed by root or LSF administrator without time for cleanup"
	case "TERM_FORCE_OWNER":
		why = "job killed by owner without time for cleanup"
	case "TERM_LOAD":
		why = "job killed after load exceeds threshold"
	case "TERM_MEMLIMIT":
		why = "job killed after reaching LSF memory usage limit"
	case "TERM_OWNER":
		why = "job killed by owner"
	case "TERM_PREEMPT":
		why = "job killed after preemption"
	case "TERM_PROCESSLIMIT":
		why = "job killed after reaching LSF process limit"
	case "TERM_REQUEUE_ADMIN":
		why = "job killed and requeued by root or LSF administrator"
	case "TERM_REQUEUE_OWNER":
		why = "job killed and requeued by owner"
	case "TERM_RUNLIMIT":
		why = "job killed after reaching LSF run time limit"
	case "TERM_SWAP":
		why = "job killed after reaching LSF swap usage limit"
	case "TERM_THREADLIMIT":
		why = "job killed after reaching LSF thread limit"
	case "TERM_UNKNOWN":
		why = "LSF cannot determine a termination reason"
	case "TERM_WINDOW":
		why = "job killed after queue run window closed"
	case "TERM_ZOMBIE":
		why = "job exited while LSF is not available"
	default:
		return term
	}
	return term + ": " + why
}

// jobProject returns a job's project, "default" from a daemon that does
// not say.
func jobProject(j *api.Job) string {
	if j.Project == "" {
		return "default"
	}
	return j.Project
}

// jobName returns a job's name: -J, else its command, as LSF names jobs.
func jobName(j *api.Job) string {
	if j.Name != "" {
		return j.Name
	}
	return oneLine(j.Command)
}

// oneLine returns a command on one line, its lines joined by ";" as LSF
// shows a job script.
func oneLine(s string) string {
	s = strings.TrimRight(s, "\n")
	return strings.ReplaceAll(s, "\n", ";")
}

// execGroups returns a job's execution hosts (one per slot) as LSF shows
// them: each run of one host as "N*host", or "host" for one slot.
func execGroups(hosts []string) []string {
	var out []string
	for i := 0; i < len(hosts); {
		n := 1
		for i+n < len(hosts) && hosts[i+n] == hosts[i] {
			n++
		}
		if n == 1 {
			out = append(out, hosts[i])
		} else {
			out = append(out, strconv.Itoa(n)+"*"+hosts[i])
		}
		i += n
	}
	return out
}

// A hostReasonGroup is the hosts that share a pending reason.
type hostReasonGroup struct {
	reason string
	hosts  []string
}

// groupHostReasons groups hosts by reason, in the order the reasons first
// come.
func groupHostReasons(rs []api.HostReason) []hostReasonGroup {
	var out []hostReasonGroup
	index := map[string]int{}
	for _, r := range rs {
		i, ok := index[r.Reason]
		if !ok {
			i = len(out)
			index[r.Reason] = i
			out = append(out, hostReasonGroup{reason: r.Reason})
		}
		out[i].hosts = append(out[i].hosts, r.Host)
	}
	return out
}

// sortJobs orders jobs as bjobs lists them: running and suspended, then
// pending, then finished; by job id within each.
func sortJobs(jobs []api.Job) {
	sortListed(jobs, func(j *api.Job) (string, int64) { return j.State, j.ID })
}

// sortRows orders rows as sortJobs orders jobs.
func sortRows(rows []api.JobRow) {
	sortListed(rows, func(r *api.JobRow) (string, int64) { return r.State, r.ID })
}

// sortListed orders the jobs of a listing, each with its state and ID
// (key), as sortJobs does.
func sortListed[T any](jobs []T, key func(*T) (string, int64)) {
	rank := func(state string) int {
		switch {
		case pendingState(state):
			return 1
		case finishedState(state):
			return 2
		}
		return 0
	}
	// A job may be large: the jobs are compared where they are, and
	// moved once, if at all (the daemon lists them mostly in order
	// already).
	compare := func(a, b *T) int {
		sa, ida := key(a)
		sb, idb := key(b)
		if ra, rb := rank(sa), rank(sb); ra != rb {
			return ra - rb
		}
		ja, ia := api.SplitID(ida)
		jb, ib := api.SplitID(idb)
		return cmp.Or(cmp.Compare(ja, jb), cmp.Compare(ia, ib))
	}
	sorted := true
	for i := 1; i < len(jobs) && sorted; i++ {
		sorted = compare(&jobs[i-1], &jobs[i]) <= 0
	}
	if sorted {
		return
	}
	order := make([]int, len(jobs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return compare(&jobs[a], &jobs[b]) })
	moved := make([]T, len(jobs))
	for i, k := range order {
		moved[i] = jobs[k]
	}
	copy(jobs, moved)
}

// compareJobIDs orders jobs by job ID, and an array's elements by index.
func compareJobIDs(a, b api.Job) int {
	ja, ia := api.SplitID(a.ID)
	jb, ib := api.SplitID(b.ID)
	return cmp.Or(cmp.Compare(ja, jb), cmp.Compare(ia, ib))
}

func pendingState(s string) bool  { return s == "PEND" || s == "PSUSP" }
func finishedState(s string) bool { return s == "DONE" || s == "EXIT" }

// cutEnd cuts s to n bytes, keeping its start.
func cutEnd(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n]
}

// cutStart cuts s to n bytes, keeping its end after a "*", as LSF cuts
// job names.
func cutStart(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return "*" + s[len(s)-(n-1):]
}

// writeReservation prints what a pending job reserves, as bjobs -l
// does: the slots by host, the rusage amounts, and when the job is
// predicted to start.
func writeReservation(w io.Writer, r *api.JobReservation, loc *time.Location) {
	n := 0
	var hosts []string
	for _, h := range r.Hosts {
		n += h.Slots
		hosts = append(hosts, fmt.Sprintf("%d*%s", h.Slots, h.Host))
	}
	if n > 0 {
		fmt.Fprintf(w, "%s: Reserved <%d> job slot(s) on host(s) <%s>;\n", lsfLongTime(r.Since, loc), n, strings.Join(hosts, "> <"))
	}
	for _, am := range r.Amounts {
		fmt.Fprintf(w, "%s: Reserved <%s=%s> on host <%s>;\n", lsfLongTime(r.Since, loc), am.Name,
			strconv.FormatFloat(am.Value, 'f', 2, 64), am.Host)
	}
	if r.Start > 0 {
		fmt.Fprintf(w, "%s: Job is predicted to start at this time, when the slots it reserves are all free;\n", lsfLongTime(r.Start, loc))
	}
}

// writeResize writes what bjobs -l shows of a running resizable job: its
// pending resize request, and the tasks granted while its notification
// command runs.
func writeResize(w io.Writer, rz *api.JobResize) {
	if rz == nil {
		return
	}
	if rz.PendingMax > 0 {
		fmt.Fprintf(w, "\n PENDING RESIZE REQUEST\n %d to %d more task(s)\n", rz.PendingMin, rz.PendingMax)
	}
	if rz.Notifying {
		var hosts []string
		for _, h := range rz.Granted {
			hosts = append(hosts, fmt.Sprintf("%d*%s", h.Slots, h.Host))
		}
		if len(hosts) > 0 {
			fmt.Fprintf(w, "\n RESIZE NOTIFICATION RUNNING\n task(s) granted <%s>\n", strings.Join(hosts, " "))
		} else {
			fmt.Fprintf(w, "\n RESIZE NOTIFICATION RUNNING\n")
		}
	}
}

// notifyText says when a job's user is mailed, as bjobs -l says it
// (bsub -B, -N, -Ne); "" for LSF's default.
func notifyText(n *api.JobNotify) string {
	if n == nil {
		return ""
	}
	var when []string
	if n.Begin {
		when = append(when, "begins")
	}
	switch {
	case n.End:
		when = append(when, "ends")
	case n.Exit:
		when = append(when, "exits")
	}
	if len(when) == 0 {
		return ""
	}
	return "Notify when job " + strings.Join(when, "/")
}

// writeProcLimits writes a job's limits of bsub -C, -D, -F, -S, -v, -p
// and -T as bjobs -l does: their names on one line, each value (sizes in
// KB) under its name.
func writeProcLimits(w io.Writer, l map[string]int64) {
	var names, values string
	for _, n := range []string{"FILELIMIT", "DATALIMIT", "STACKLIMIT", "CORELIMIT", "SWAPLIMIT", "PROCESSLIMIT", "THREADLIMIT"} {
		x, ok := l[n]
		if !ok {
			continue
		}
		v := strconv.FormatInt(x, 10)
		if n != "PROCESSLIMIT" && n != "THREADLIMIT" {
			v += " KB"
		}
		width := max(len(n), len(v)) + 1
		names += fmt.Sprintf(" %*s", width-1, n)
		values += fmt.Sprintf(" %*s", width-1, v)
	}
	if names != "" {
		fmt.Fprintf(w, "\n%s\n%s\n", names, values)
	}
}
