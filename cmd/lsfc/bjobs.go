package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/lsfc/lsfc/runtime/api"
	"github.com/spf13/cobra"
)

func bjobsOptionList() []lsfOption {
	return []lsfOption{
		{"a", ""}, {"d", ""}, {"p", ""}, {"r", ""}, {"s", ""}, {"u", "user|all"}, {"q", "queue"},
		{"l", ""}, {"w", ""}, {"o", `"field ..."`}, {"noheader", ""}, {"json", ""}, {"aps", ""}, {"prio", ""}, {"x", ""},
		{"fwd", ""}, {"J", "job_name"}, {"P", "project"}, {"G", "user_group"}, {"UF", ""}, {"sum", ""}, {"X", ""},
		{"gpu", ""},
	}
}

func newBjobsCmd(e env) *cobra.Command {
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
  -l            long format: the job's history, limits, pending reasons
                with the hosts named; the job's line and the time-stamped
                lines are wrapped at 80 columns, continued under the text
                after the time stamp
  -UF           the long format with no line wrapped
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
  -o "FIELDS"   the fields given, each as NAME[:[-]WIDTH] ("-": right
                aligned), with delimiter='C' between them (else a blank):
                jobid stat user queue job_name from_host exec_host
                submit_time start_time finish_time exit_code exit_reason
                pend_reason slots command cwd output_file error_file
                dependency cpu_used max_mem proj_name (alias proj)
                forward_cluster
                forward_time dstjobid (a forwarded job's ID at the
                cluster it went to) source_cluster srcjobid (a received
                job's cluster and ID at home)
  -noheader     no heading line
  -json         {"COMMAND":"bjobs","JOBS":N,"RECORDS":[...]}, the -o fields
                (else the default columns) upper-cased as keys, every value
                a string ("" for none); an unknown job id is the record
                {"ERROR":"Job <ID> is not found"}

With no job to show, bjobs prints "No unfinished job found" (or the like)
on standard error and exits 0. A job id that is not found is reported as
"Job <ID> is not found" on standard error, and bjobs exits 255 (with
-json, 0).` + lsfStateHelp,
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
	for _, s := range a.operands {
		id, err := parseJobID(s)
		if err != nil {
			fmt.Fprintln(e.stderr, err)
			return exit(exitLSF, nil)
		}
		ids = append(ids, id)
	}
	var cols []jobColumn
	delim := " "
	if a.has("o") {
		var err error
		if cols, delim, err = parseJobColumns(a.value("o")); err != nil {
			return usageError("bjobs: -o: %v", err)
		}
	}
	c, err := dialDaemon(e, a)
	if err != nil {
		return lsfFailed(e, "bjobs", err)
	}
	q := api.JobQuery{IDs: ids, User: a.value("u"), Queue: a.value("q"), All: a.has("a") || a.has("d")}
	if a.has("json") {
		q.Format = "json"
	}
	jobs, err := c.Jobs(ctx, q)
	if err != nil {
		return lsfFailed(e, "bjobs", err)
	}
	missing := missingJobs(ids, jobs)
	jobs = filterJobs(jobs, a)
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
			case errors.As(err, &ae) && ae.Status == http.StatusNotFound:
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
		if cols == nil {
			cols = defaultJobColumns()
		}
		if err := writeJobsJSON(e.stdout, cols, jobs, missing, v.loc); err != nil {
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
	for _, id := range missing {
		fmt.Fprintf(e.stderr, "Job <%d> is not found\n", id)
	}
	if len(missing) > 0 {
		return exit(exitLSF, nil)
	}
	return nil
}

// missingJobs returns the ids asked for that the daemon did not list.
func missingJobs(ids []int64, jobs []api.Job) []int64 {
	found := map[int64]bool{}
	for _, j := range jobs {
		found[j.ID] = true
	}
	var out []int64
	for _, id := range ids {
		if !found[id] {
			out = append(out, id)
			found[id] = true // once
		}
	}
	return out
}

// filterJobs keeps the jobs -d, -p, -r, -s, -x, -fwd, -J, -P and -G ask for.
func filterJobs(jobs []api.Job, a *lsfArgs) []api.Job {
	keep := func(j *api.Job) bool {
		if a.has("x") && j.Exceptions == "" || a.has("fwd") && j.Forward == nil ||
			a.has("P") && jobProject(j) != a.value("P") || a.has("G") && j.UserGroup != a.value("G") {
			return false
		}
		if a.has("J") && !matchJobName(a.value("J"), jobName(j)) {
			return false
		}
		switch {
		case a.has("d"):
			return finishedState(j.State)
		case a.has("p"):
			return pendingState(j.State)
		case a.has("r"):
			return j.State == "RUN"
		case a.has("s"):
			return j.State == "USUSP" || j.State == "SSUSP" || j.State == "PSUSP"
		}
		return true
	}
	out := jobs[:0]
	for i := range jobs {
		if keep(&jobs[i]) {
			out = append(out, jobs[i])
		}
	}
	return out
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
		{"A", ""}, {"aff", ""}, {"app", "application_profile"}, {"cname", ""}, {"data", ""},
		{"env", ""}, {"g", "job_group"}, {"hms", ""}, {"hostfile", ""},
		{"Jd", "description"}, {"Lp", "license_project"}, {"m", "host"}, {"N", "host_spec"},
		{"pe", ""}, {"pei", ""}, {"pi", ""}, {"pn", ""}, {"p0", ""}, {"p1", ""}, {"p2", ""}, {"p3", ""}, {"plan", ""}, {"psum", ""},
		{"rusage", "resource"}, {"script", ""}, {"sla", "service_class"},
		{"U", "reservation_id"}, {"V", ""}, {"W", ""}, {"WF", ""}, {"WL", ""}, {"WP", ""},
	}
}
