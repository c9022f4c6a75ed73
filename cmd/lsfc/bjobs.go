package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lsfc/lsfc/runtime/api"
)

func bjobsOptionList() []lsfOption {
	return []lsfOption{
		{"a", ""}, {"d", ""}, {"p", ""}, {"r", ""}, {"s", ""}, {"u", "user|all"}, {"q", "queue"},
		{"l", ""}, {"w", ""}, {"o", `"field ..."`}, {"noheader", ""}, {"json", ""}, {"aps", ""}, {"prio", ""}, {"x", ""},
		{"fwd", ""}, {"A", ""}, {"J", "job_name"}, {"P", "project"}, {"G", "user_group"}, {"UF", ""}, {"sum", ""}, {"X", ""},
		{"gpu", ""}, {"g", "job_group_name"}, {"m", "host_name|host_group"}, {"app", "application_profile_name"},
		{"sla", "service_class_name"},
	}
}

func newBjobsCmd(e env) *lsfCommand {
	s := lsfSpec{
		name:     "bjobs",
		refused:  bjobsRefusedOptions(),
		short:    "List jobs of lsfc serve",
		operands: "[JOBID ...]",
		options:  bjobsOptionList(),
		long: `bjobs lists the caller's unfinished jobs, or the jobs named (finished ones
included), in LSF's layout:

  JOBID   USER    STAT  QUEUE      FROM_HOST   EXEC_HOST   JOB_NAME   SUBMIT_TIME

Running and suspended jobs come first, then pending ones, then finished
ones, each by job id. Long values are cut as LSF cuts them (a long job name
keeps its end, after "*"); -w cuts nothing. A job on several hosts shows
one N*host group per line (-w: on one line, joined by ":").

  -a            finished jobs too
  -d            finished jobs only
  -p            pending jobs, each followed by its pending reasons and the
                hosts' reasons, counted
  -r, -s        running, suspended jobs only
  -x            jobs that raised a job exception (overrun, underrun,
                idle): unfinished ones, with -a finished ones too; -l
                shows the exceptions
  -fwd          jobs forwarded to another cluster (MultiCluster), with
                the CLUSTER they went to and their FORWARD_TIME
  -u USER|all   another user's jobs, or everyone's
  -q QUEUE      the jobs of one queue
  -J NAME       the jobs of that name (a job without -J is named by its
                command); "*" in NAME matches any characters
  -P PROJECT    the jobs of one project (bsub -P, else DEFAULT_PROJECT)
  -G GROUP      the jobs submitted with bsub -G GROUP (not its subgroups)
  -g /A/B       the jobs of a job group and of the groups under it
  -m HOST       the jobs running on a host, or on a host group's hosts
  -app PROFILE  the jobs of an application profile
  -sla CLASS    the jobs of a service class
  -l            long format: the job's history, limits, pending reasons
                with the hosts named; the job's line and the time-stamped
                lines are wrapped at 80 columns, continued under the text
                after the time stamp
  -UF           the long format with no line wrapped
  -A            one line per job array: ARRAY_SPEC, OWNER, and its
                elements counted: NJOBS PEND DONE RUN EXIT SSUSP USUSP
                PSUSP (name an array by its ID alone: bjobs -A 12)
  -gpu          with -l or -UF: the GPUs each job holds (GPU_ALLOCATION:
                host, tasks, GPU index, model, memory, memory reserved)
  -sum          the slots of the jobs selected, by state: RUN SSUSP USUSP
                UNKNOWN PEND FWD_PEND (forwarded to another cluster and
                pending there) PSUSP
  -X            accepted: execution hosts are always shown one by one
  -aps          the default layout with each job's APS value (absolute
                priority scheduling): system values first, "(v)", then
                calculated ones, highest first, then "-" for jobs outside
                APS queues
  -prio         each job's APS value and its factors (FS, PROC, MEM,
                SWAP, JPRIORITY, QPRIORITY, ADMIN), in -aps order
  -w            wide: nothing is cut
  -o "FIELDS"   the fields given, each as NAME[:[-][WIDTH][:UNIT]] (":"
                alone: LSF's recommended width; "-": right aligned; UNIT
                K, M, G, T ... or S for the memory fields), with
                delimiter='C' between them (else a blank). NAME is LSF's
                field name or alias, in any case; the heading is LSF's
                name upper-cased. Fields (aliases in parentheses):
                jobid (id) jobindex stat user user_group (ugroup) queue
                job_name (name) job_description (description) proj_name
                (proj, project) application (app) service_class (sla)
                job_group (group, jgroup, jobgroup) job_priority
                (priority) rsvid dependency pend_reason command (cmd)
                pre_exec_command (pre_cmd) post_exec_command (post_cmd)
                resize_notification_command (resize_cmd) exit_code
                exit_reason from_host first_host exec_host nexec_host
                alloc_slot nalloc_slot nreq_slot submit_time start_time
                estimated_start_time (estart_time) specified_start_time
                (sstart_time) specified_terminate_time (sterminate_time)
                time_left finish_time estimated_run_time (ertime)
                pend_time cpu_used run_time exception_status
                (except_stat) slots max_mem memlimit swaplimit
                min_req_proc max_req_proc filelimit corelimit stacklimit
                processlimit datalimit runtimelimit input_file
                output_file error_file output_dir sub_cwd (cwd) exec_cwd
                forward_cluster (fwd_cluster) forward_time (fwd_time)
                srcjobid dstjobid source_cluster (srcluster). LSF's
                other fields (pids, mem, effective_resreq ...) are
                refused: lsfc does not keep their values.
                LSB_BJOBS_FORMAT in the environment is the -o of a run
                without one (not of -A, -aps, -prio, -l, -UF, -sum, -w)
  -noheader     no heading line
  -json         {"COMMAND":"bjobs","JOBS":N,"RECORDS":[...]}, the -o fields
                (else the default columns) keyed by LSF's name upper-cased, every value
                a string ("" for none); an unknown job id is the record
                {"ERROR":"Job <ID> is not found"}

With no job to show, bjobs prints "No unfinished job found" (or the like)
on standard error and exits 0. A job id that is not found is reported as
"Job <ID> is not found" on standard error, and bjobs exits 255 (with
-json, 0). An element of a job array is listed as ID[INDEX] and named
NAME[INDEX]; "ID" names every element of an array, "ID[1-5,9]" some.` + lsfStateHelp,
		example: `  lsfc bjobs -u all
  bjobs -json -o "jobid stat exit_code exit_reason" 1001
  bjobs -o stat -noheader 1001`,
	}
	return newLSFCmd(e, s, func(ctx context.Context, a *lsfArgs) error { return runBjobs(ctx, e, a) })
}

func runBjobs(ctx context.Context, e env, a *lsfArgs) error {
	if a.has("gpu") && !a.has("l") && !a.has("UF") {
		return usageError("bjobs: -gpu is used only with -l or -UF")
	}
	var ids []int64
	var targets []jobTarget
	for _, s := range a.operands {
		t, err := parseJobTarget(s)
		if err != nil {
			fmt.Fprintln(e.stderr, err)
			return exit(exitLSF, nil)
		}
		if a.has("A") && t.indices != nil {
			return usageError("bjobs: -A: name a job array by its job ID alone, not %q", s)
		}
		// An array's elements are asked for by the array's ID, and the
		// indices named are kept here.
		ids = append(ids, t.id)
		targets = append(targets, t)
	}
	var cols []jobColumn
	delim := " "
	if a.has("o") {
		var err error
		if cols, delim, err = parseJobColumns(a.value("o")); err != nil {
			return usageError("bjobs: -o: %v", err)
		}
	} else if spec := strings.TrimSpace(e.getenv("LSB_BJOBS_FORMAT")); spec != "" && envFormatApplies(a) {
		var err error
		if cols, delim, err = parseJobColumns(spec); err != nil {
			return usageError("bjobs: LSB_BJOBS_FORMAT: %v", err)
		}
	}
	c, err := dialDaemon(e, a)
	if err != nil {
		return lsfFailed(e, "bjobs", err)
	}
	q := api.JobQuery{IDs: ids, User: a.value("u"), Queue: a.value("q"), All: a.has("a") || a.has("d")}
	if a.has("json") {
		q.Format = "json"
		if cols == nil {
			cols = defaultJobColumns()
		}
	}
	q.Fields = columnFields(a, cols)
	if rowLayout(a) && cols == nil {
		return bjobsRows(ctx, e, a, c, q, targets)
	}
	jobs, err := c.Jobs(ctx, q)
	if err != nil {
		return lsfFailed(e, "bjobs", err)
	}
	jobs, missing := namedTargets(targets, jobs, func(j *api.Job) int64 { return j.ID })
	if a.has("m") {
		hosts, err := hostSelection(ctx, c, a.value("m"))
		if err != nil {
			return lsfFailed(e, "bjobs", err)
		}
		jobs = slices.DeleteFunc(jobs, func(j api.Job) bool {
			return !slices.ContainsFunc(j.ExecHosts, func(h string) bool { return hosts[h] })
		})
	}
	jobs = filterJobs(jobs, a)
	if a.has("A") {
		if len(jobs) == 0 && len(missing) == 0 {
			fmt.Fprintln(e.stderr, noJobMessage(a))
			return nil
		}
		writeArraySummary(e.stdout, jobs, a.has("w"))
		for _, id := range missing {
			fmt.Fprintf(e.stderr, "Job <%s> is not found\n", api.FormatJobID(id))
		}
		if len(missing) > 0 {
			return exit(exitLSF, nil)
		}
		return nil
	}
	sortJobs(jobs)
	if a.has("sum") {
		writeJobSummary(e.stdout, jobs)
		return nil
	}
	long := a.has("l") || a.has("UF")
	if long || a.has("p") {
		// The list has no host reasons: ask for each pending job.
		for i := range jobs {
			if !pendingState(jobs[i].State) {
				continue
			}
			j, err := c.Job(ctx, jobs[i].ID)
			var ae *api.APIError
			switch {
			case errors.As(err, &ae) && ae.Status == api.StatusNotFound:
				// Gone since the list: show what the list said.
			case err != nil:
				return lsfFailed(e, "bjobs", err)
			default:
				jobs[i] = *j
			}
		}
	}

	v := jobsView{loc: time.Local, wide: a.has("w"), noHeader: a.has("noheader"), unformatted: a.has("UF"), gpu: a.has("gpu")}
	if a.has("json") {
		if err := writeJobsJSON(e.stdout, cols, jobs, missing, v.loc, v.nowUnix()); err != nil {
			return exit(exitUsage, err)
		}
		return nil
	}
	switch {
	case len(jobs) == 0:
		if len(missing) == 0 || len(missing) < len(ids) {
			fmt.Fprintln(e.stderr, noJobMessage(a))
		}
	case long:
		v.writeLong(e.stdout, jobs)
	case a.has("aps"):
		v.writeAPS(e.stdout, jobs)
	case a.has("prio"):
		v.writePrio(e.stdout, jobs)
	case a.has("fwd") && cols == nil:
		v.writeForwarded(e.stdout, jobs)
	case cols != nil:
		v.writeColumns(e.stdout, cols, delim, jobs)
	case a.has("p"):
		v.writePending(e.stdout, jobs)
	default:
		v.writeDefault(e.stdout, jobs)
	}
	return reportMissing(e, missing)
}

// envFormatApplies reports whether LSB_BJOBS_FORMAT (in the environment)
// sets the layout of a run of bjobs without -o: as in LSF, it does for
// the listings in one line a job, not for -A, -aps, -prio, -l, -UF, -sum
// or -w.
func envFormatApplies(a *lsfArgs) bool {
	for _, o := range []string{"A", "aps", "prio", "l", "UF", "sum", "w"} {
		if a.has(o) {
			return false
		}
	}
	return true
}

// rowLayout reports whether a run of bjobs prints the default layout
// and selects only by what a listing's rows hold: with no option but
// those that select by owner, queue or state, or change the layout's
// widths. Such a run reads rows (bjobsRows).
func rowLayout(a *lsfArgs) bool {
	for _, o := range a.seq {
		switch o {
		case "u", "q", "a", "d", "r", "s", "w", "noheader":
		default:
			return false
		}
	}
	return true
}

// columnFields returns the fields of the jobs a run of bjobs with -o or
// -json reads, nil for all of them: with no option but those of
// rowLayout, -o and -json, those its columns print and the state, which
// it sorts and selects by.
func columnFields(a *lsfArgs, cols []jobColumn) []string {
	if cols == nil {
		return nil
	}
	for _, o := range a.seq {
		switch o {
		case "u", "q", "a", "d", "r", "s", "w", "noheader", "o", "json":
		default:
			return nil
		}
	}
	fields := []string{"state"}
	for _, c := range cols {
		f, ok := columnJSONFields[c.name]
		if !ok {
			return nil
		}
		for _, name := range f {
			if !slices.Contains(fields, name) {
				fields = append(fields, name)
			}
		}
	}
	return fields
}

// bjobsRows is bjobs in the default layout (rowLayout): the daemon sends
// the fields the layout prints alone, read into rows, which are
// selected, sorted and printed as runBjobs does with whole jobs.
func bjobsRows(ctx context.Context, e env, a *lsfArgs, c *api.Client, q api.JobQuery, targets []jobTarget) error {
	rows, err := c.JobRows(ctx, q)
	if err != nil {
		return lsfFailed(e, "bjobs", err)
	}
	rows, missing := namedTargets(targets, rows, func(r *api.JobRow) int64 { return r.ID })
	if state := stateFilter(a); state != "" {
		rows = slices.DeleteFunc(rows, func(r api.JobRow) bool { return !inStateFilter(state, r.State) })
	}
	sortRows(rows)
	v := jobsView{loc: time.Local, wide: a.has("w"), noHeader: a.has("noheader")}
	if len(rows) == 0 {
		if len(missing) == 0 || len(missing) < len(targets) {
			fmt.Fprintln(e.stderr, noJobMessage(a))
		}
	} else {
		v.writeRows(e.stdout, rows)
	}
	return reportMissing(e, missing)
}

// hostSelection returns the hosts -m names: host names, and the hosts of
// the host groups among them.
func hostSelection(ctx context.Context, c *api.Client, spec string) (map[string]bool, error) {
	out := map[string]bool{}
	names := strings.Fields(spec)
	groups, err := c.Groups(ctx, "host")
	if err != nil {
		return nil, err
	}
	for _, n := range names {
		out[n] = true
		for _, g := range groups {
			if g.Name == n {
				for _, h := range g.Expanded {
					out[h] = true
				}
			}
		}
	}
	return out, nil
}

// namedTargets keeps, of the jobs the daemon listed for the operands'
// IDs, those the operands name: a job or every element of an array by
// ID, only the elements listed by "ID[list]". It returns them and the IDs
// named that are no job (an element's as api.ElementID). Without
// operands every job is kept.
func namedTargets[T any](targets []jobTarget, jobs []T, idOf func(*T) int64) ([]T, []int64) {
	if len(targets) == 0 {
		return jobs, nil
	}
	whole := map[int64]bool{}
	elems := map[int64]bool{}
	for _, t := range targets {
		if t.indices == nil {
			whole[t.id] = true
		}
		for _, i := range t.indices {
			elems[api.ElementID(t.id, i)] = true
		}
	}
	found := map[int64]bool{}
	out := jobs[:0]
	for i := range jobs {
		jid := idOf(&jobs[i])
		id, _ := api.SplitID(jid)
		if whole[id] || whole[jid] || elems[jid] {
			out = append(out, jobs[i])
			found[jid], found[id] = true, true
		}
	}
	var missing []int64
	for _, t := range targets {
		if t.indices == nil {
			if !found[t.id] {
				missing = append(missing, t.id)
				found[t.id] = true // once
			}
			continue
		}
		for _, i := range t.indices {
			if id := api.ElementID(t.id, i); !found[id] {
				missing = append(missing, id)
				found[id] = true
			}
		}
	}
	return out, missing
}

// writeArraySummary prints bjobs -A: one line per job array of the jobs
// listed, with its elements counted by state. The array specification is
// cut to 20 characters unless wide.
func writeArraySummary(w io.Writer, jobs []api.Job, wide bool) {
	type summary struct {
		id                                                int64
		spec, owner                                       string
		total, pend, done, run, exit, ssusp, ususp, psusp int
	}
	var order []int64
	byID := map[int64]*summary{}
	for _, j := range jobs {
		if j.Array == "" {
			continue
		}
		id, _ := api.SplitID(j.ID)
		s := byID[id]
		if s == nil {
			s = &summary{id: id, spec: j.Array, owner: j.User}
			byID[id] = s
			order = append(order, id)
		}
		s.total++
		switch j.State {
		case "PEND":
			s.pend++
		case "DONE":
			s.done++
		case "RUN", "UNKWN":
			s.run++
		case "EXIT", "ZOMBI":
			s.exit++
		case "SSUSP":
			s.ssusp++
		case "USUSP":
			s.ususp++
		case "PSUSP":
			s.psusp++
		}
	}
	slices.Sort(order)
	const row = "%-8s%-20s %-8s%-6v%-5v%-5v%-5v%-5v%-6v%-6v%v\n"
	fmt.Fprintf(w, row, "JOBID", "ARRAY_SPEC", "OWNER", "NJOBS", "PEND", "DONE", "RUN", "EXIT", "SSUSP", "USUSP", "PSUSP")
	for _, id := range order {
		s := byID[id]
		spec := s.spec
		if !wide {
			spec = cutStart(spec, 20)
		}
		fmt.Fprintf(w, row, strconv.FormatInt(id, 10), spec, s.owner, s.total, s.pend, s.done, s.run, s.exit, s.ssusp, s.ususp, s.psusp)
	}
}

// filterJobs keeps the jobs -d, -p, -r, -s, -x, -fwd, -J, -P, -G, -g,
// -app and -sla ask for.
func filterJobs(jobs []api.Job, a *lsfArgs) []api.Job {
	group := a.value("g")
	if len(group) > 1 {
		group = strings.TrimSuffix(group, "/")
	}
	// The options, looked up once rather than for each job.
	exceptions, forwarded, hasP, hasG, hasg, hasApp, hasSLA, hasJ := a.has("x"), a.has("fwd"), a.has("P"), a.has("G"),
		a.has("g"), a.has("app"), a.has("sla"), a.has("J")
	project, userGroup, app, sla, name := a.value("P"), a.value("G"), a.value("app"), a.value("sla"), a.value("J")
	state := stateFilter(a)
	if !exceptions && !forwarded && !hasP && !hasG && !hasg && !hasApp && !hasSLA && !hasJ && state == "" {
		return jobs
	}
	keep := func(j *api.Job) bool {
		if exceptions && j.Exceptions == "" || forwarded && j.Forward == nil ||
			hasP && jobProject(j) != project || hasG && j.UserGroup != userGroup {
			return false
		}
		// -g: the jobs of the group and of the groups under it.
		if hasg && group != "/" && j.JobGroup != group && !strings.HasPrefix(j.JobGroup, group+"/") ||
			hasg && group == "/" && j.JobGroup == "" {
			return false
		}
		if hasApp && j.App != app || hasSLA && j.Sla != sla {
			return false
		}
		if hasJ && !matchJobName(name, jobName(j)) && !matchArrayName(name, j) {
			return false
		}
		return inStateFilter(state, j.State)
	}
	out := jobs[:0]
	for i := range jobs {
		if keep(&jobs[i]) {
			out = append(out, jobs[i])
		}
	}
	return out
}

// stateFilter returns the option that selects jobs by state: -d, else
// -p, else -r, else -s; "" for none.
func stateFilter(a *lsfArgs) string {
	for _, o := range []string{"d", "p", "r", "s"} {
		if a.has(o) {
			return o
		}
	}
	return ""
}

// inStateFilter reports whether a job in state is one the option of
// stateFilter keeps.
func inStateFilter(filter, state string) bool {
	switch filter {
	case "d":
		return finishedState(state)
	case "p":
		return pendingState(state)
	case "r":
		return state == "RUN"
	case "s":
		return state == "USUSP" || state == "SSUSP" || state == "PSUSP"
	}
	return true
}

// writeJobSummary prints bjobs -sum: the slots of the unfinished jobs by
// state, in LSF's columns. A forwarded job pending at the other cluster
// counts as FWD_PEND.
func writeJobSummary(w io.Writer, jobs []api.Job) {
	var run, ssusp, ususp, unknown, pend, fwdPend, psusp int
	for _, j := range jobs {
		switch {
		case j.State == "PEND" && j.Forward != nil:
			fwdPend += j.Slots
		case j.State == "PEND":
			pend += j.Slots
		case j.State == "RUN":
			run += j.Slots
		case j.State == "SSUSP":
			ssusp += j.Slots
		case j.State == "USUSP":
			ususp += j.Slots
		case j.State == "UNKWN":
			unknown += j.Slots
		case j.State == "PSUSP":
			psusp += j.Slots
		}
	}
	const row = "%-11v%-12v%-11v%-11v%-11v%-10v%-9v\n"
	fmt.Fprintf(w, row, "RUN", "SSUSP", "USUSP", "UNKNOWN", "PEND", "FWD_PEND", "PSUSP")
	fmt.Fprintf(w, row, run, ssusp, ususp, unknown, pend, fwdPend, psusp)
}

// matchJobName reports whether a job name matches the pattern of bjobs
// -J: "*" matches any run of characters, everything else itself.
func matchJobName(pattern, name string) bool {
	parts := strings.Split(pattern, "*")
	if len(parts) == 1 {
		return pattern == name
	}
	first, last := parts[0], parts[len(parts)-1]
	if !strings.HasPrefix(name, first) || !strings.HasSuffix(name[len(first):], last) {
		return false
	}
	rest := name[len(first) : len(name)-len(last)]
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(rest, p)
		if i < 0 {
			return false
		}
		rest = rest[i+len(p):]
	}
	return true
}

// matchArrayName reports whether -J names the array an element is of:
// its name without the index.
func matchArrayName(pattern string, j *api.Job) bool {
	if j.Index == 0 {
		return false
	}
	name, _, _ := strings.Cut(j.Array, "[")
	return matchJobName(pattern, name)
}

// noJobMessage is what bjobs says when no job matches.
func noJobMessage(a *lsfArgs) string {
	switch {
	case a.has("J"):
		return fmt.Sprintf("Job <%s> is not found", a.value("J"))
	case a.has("x"):
		return "No job with an exception found"
	case a.has("fwd"):
		return "No forwarded job found"
	case a.has("d"):
		return "No recently finished job found"
	case a.has("p"):
		return "No pending job found"
	case a.has("r"):
		return "No running job found"
	case a.has("s"):
		return "No suspended job found"
	case a.has("a"):
		return "No job found"
	}
	return "No unfinished job found"
}

// bjobsRefusedOptions returns the options LSF 10.1 documents for bjobs that lsfc does
// not implement, each with the shape of its argument ("" for a switch).
func bjobsRefusedOptions() []lsfOption {
	return []lsfOption{
		{"aff", ""}, {"cname", ""}, {"data", ""},
		{"env", ""}, {"hms", ""}, {"hostfile", ""},
		{"Jd", "description"}, {"Lp", "license_project"}, {"N", "host_spec"},
		{"pe", ""}, {"pei", ""}, {"pi", ""}, {"pn", ""}, {"p0", ""}, {"p1", ""}, {"p2", ""}, {"p3", ""}, {"plan", ""}, {"psum", ""},
		{"rusage", "resource"}, {"script", ""},
		{"U", "reservation_id"}, {"V", ""}, {"W", ""}, {"WF", ""}, {"WL", ""}, {"WP", ""},
	}
}

// reportMissing says which of the jobs asked for are not found, and
// makes bjobs exit 255 when any is not.
func reportMissing(e env, missing []int64) error {
	for _, id := range missing {
		fmt.Fprintf(e.stderr, "Job <%s> is not found\n", api.FormatJobID(id))
	}
	if len(missing) > 0 {
		return exit(exitLSF, nil)
	}
	return nil
}
