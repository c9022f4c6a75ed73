package runtime_test

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/compile/inventory"
	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/lang"
	"github.com/lsfc/lsfc/runtime"
	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/sim"
	"golang.org/x/tools/txtar"
)

// TestScenarios replays testdata/scenarios/*.txtar. Each archive holds a
// configuration tree (files named as LSF names them; the hosts are those
// of lsf.cluster.<name>, or of a "hosts.yaml" inventory), a "jobs" file and
// "want": the timeline the simulation produces. Lines of "jobs" are
//
//	ID AT SLOTS RUNTIME [queue=Q] [user=U] [R="..."] [gpu="..."] [sp=N] [W=MINUTES] [app=A] [hold] [x] [type=T]
//	                    [name=NAME] [dep="..."] [exit=CODE] [cpu=SECONDS] [sla=CLASS] [project=P]
//	                    [array=INDEX_LIST [limit=N]]  (a job array, name=NAME[INDEX_LIST]%N)
//	                    [max=N] [ar] [rnc=SECONDS]  (-n SLOTS,N; -ar; a notification command that runs SECONDS)
//	                    [Q="VALUES"]  (-Q, requeue exit values)
//	@AT COMMAND ID [ARG]  (btop, bbot, bstop, bresume, bkill; bstatus ID TEXT; aps ID system=V|admin=V;
//	                       stop, resume (a running job); bresize ID release=all|HOST[:N],...|request=[MIN,]MAX|cancel)
//	@AT load HOST NAME=VALUE[,NAME=VALUE]  (sets load indices of a host)
//
// A job that ran prints its times, hosts and state, then "preempted=N"
// when it was preempted, "requeued=N" when it went back to pending on its
// exit values (and "avoid=HOSTS" kept from it by EXCLUDE values), and how
// it was ended (TERM_PREEMPT, TERM_OWNER,
// TERM_RUNLIMIT) when it did not run to its end, and the job exceptions
// it raised (exceptions=overrun,idle). Then come the exceptions in the
// order they were detected ("exception AT job ID KIND", "exception AT
// host NAME exit rate") and the hosts closed for their exit rate. Service
// class goals print a line whenever their status or optimum changes
// ("sla AT CLASS goal N STATUS optimum=K running=R"), and each control
// action ("sla AT CLASS goal N control action: COMMAND").
//
// Job IDs in dep="..." are the cluster's, which are the scenario's when
// jobs are listed in submission order.
//
// What happened to resizable jobs follows, in order: "resize AT job ID
// grow HOSTS" (slots added to its request), "revoked" (a preemption
// cancelled a grant), "notified" (its notification command ended), and
// the signals its processes were sent (suspend, resume, kill).
//
// with times in seconds from the start of the simulation; a comment line
// "clock: 2024-01-05T08:00:00Z" in the archive's header sets when that is
// (windows depend on it; the default is a Monday, 00:00 UTC).
func TestScenarios(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "scenarios", "*.txtar"))
	if len(paths) == 0 {
		t.Fatal("no scenarios")
	}
	for _, path := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(path), ".txtar"), func(t *testing.T) {
			ar, err := txtar.ParseFile(path)
			if err != nil {
				t.Fatal(err)
			}
			testkit.CheckWant(t, path, ar, runScenario(t, ar))
		})
	}
}

// scenarioStart is the default start of a scenario: Monday 2024-01-01,
// 00:00 UTC.
var scenarioStart = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// compileCluster compiles the configuration of an archive (its files at
// the tree's root) into a cluster of its own hosts.
func compileCluster(t *testing.T, ar *txtar.Archive) *runtime.Cluster {
	t.Helper()
	tree, opts := testkit.ArchiveTree(t, ar, true)
	p, diags := compile.Compile(tree, opts)
	if diags.HasErrors() {
		t.Fatal(diags.Err())
	}
	c, err := runtime.NewCluster(p, runtime.ClusterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func runScenario(t *testing.T, ar *txtar.Archive) string {
	t.Helper()
	start := scenarioStart
	for _, line := range strings.Split(string(ar.Comment), "\n") {
		if v, ok := strings.CutPrefix(line, "clock: "); ok {
			var err error
			if start, err = time.Parse(time.RFC3339, strings.TrimSpace(v)); err != nil {
				t.Fatal(err)
			}
		}
	}
	t0 := runtime.Time(start.Unix())
	conf := &txtar.Archive{Comment: ar.Comment}
	var jobsText, hostsYAML, groupsText, rsvText string
	for _, f := range ar.Files {
		switch f.Name {
		case "jobs":
			jobsText = string(f.Data)
		case "jobgroups":
			groupsText = string(f.Data)
		case "reservations":
			rsvText = string(f.Data)
		case "hosts.yaml":
			hostsYAML = string(f.Data)
		case "want":
		default:
			conf.Files = append(conf.Files, f)
		}
	}
	tree, opts := testkit.ArchiveTree(t, conf, true)
	p, diags := compile.Compile(tree, opts)
	if diags.HasErrors() {
		t.Fatalf("configuration: %v", diags.Err())
	}
	var copts runtime.ClusterOptions
	if hostsYAML != "" {
		inv, ds := inventory.Read(lang.NewSource("hosts.yaml", hostsYAML), p.Env().Unit)
		if ds.HasErrors() {
			t.Fatalf("hosts.yaml: %v", ds.Err())
		}
		copts.Hosts = inv.Hosts
	}
	c, err := runtime.NewCluster(p, copts)
	if err != nil {
		t.Fatal(err)
	}
	// jobgroups: one group a line, as bgadd makes it: PATH [LIMIT].
	for _, line := range strings.Split(groupsText, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		limit := -1
		if len(f) > 1 {
			if limit, err = strconv.Atoi(f[1]); err != nil {
				t.Fatalf("jobgroups: %v", err)
			}
		}
		if _, err := c.AddJobGroup(f[0], "user1", limit, "", false); err != nil {
			t.Fatalf("jobgroups: %v", err)
		}
	}
	addReservations(t, c, rsvText, t0)
	jobs, cmds := parseJobs(t, jobsText, t0)
	var excLog strings.Builder
	type goalState struct {
		status   runtime.GoalStatus
		opt, run int
	}
	goals := map[*runtime.SLAGoal]goalState{}
	afterCycle := func(c *runtime.Cluster, p *runtime.Plan) {
		for _, s := range c.SLAs {
			_, run, _, _ := s.Counts()
			for i, g := range s.Goals {
				st := goalState{g.Status, g.Optimum, run}
				if g.Status == runtime.GoalInactive {
					st.run = 0
				}
				if old, seen := goals[g]; seen && old == st || !seen && st.status == runtime.GoalInactive {
					continue
				}
				goals[g] = st
				fmt.Fprintf(&excLog, "sla %g %s goal %d %s optimum=%d running=%d\n", float64(p.Now-t0), s.Name, i+1, g.Status, g.Optimum, run)
			}
		}
		for _, a := range p.SLAActions {
			fmt.Fprintf(&excLog, "sla %g %s goal %d control action: %s\n", float64(p.Now-t0), a.SLA.Name, a.Goal+1, a.Command)
		}
		for _, ev := range p.Exceptions {
			if ev.Host != nil {
				fmt.Fprintf(&excLog, "exception %g host %s exit rate %.2f > %g\n", float64(p.Now-t0), ev.Host.Name, ev.Value, ev.Threshold)
				continue
			}
			fmt.Fprintf(&excLog, "exception %g job %d %s\n", float64(p.Now-t0), ev.Job.TraceID, ev.Kind)
		}
	}
	res, err := sim.Simulate(c, jobs, sim.Options{Commands: cmds, AfterCycle: afterCycle})
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	// The jobs in submission order, each array's elements after its
	// first, in index order.
	elements := map[int][]sim.Outcome{}
	for _, o := range res.Jobs[len(jobs):] {
		elements[o.SimJob.TraceID] = append(elements[o.SimJob.TraceID], o)
	}
	var outcomes []sim.Outcome
	for _, o := range res.Jobs[:len(jobs)] {
		outcomes = append(outcomes, o)
		outcomes = append(outcomes, elements[o.SimJob.TraceID]...)
	}
	for _, o := range outcomes {
		id := api.FormatJobID(int64(o.TraceID()))
		switch {
		case o.Rejected != nil:
			fmt.Fprintf(&b, "%s rejected: %v\n", id, o.Rejected)
		case o.Job.State.Pending():
			fmt.Fprintf(&b, "%s %s %s: %s%s", id, o.Job.Queue.Name, o.Job.State, o.Job.Reason, requeues(o.Job))
			if runs := res.EarlierRuns[o.Job]; len(runs) > 0 {
				// Requeued or held on its exit values: its last run.
				last := runs[len(runs)-1]
				fmt.Fprintf(&b, " last=%g-%g", float64(last.Start-t0), float64(last.End-t0))
			}
			b.WriteString("\n")
		case len(o.Job.Allocs) == 0:
			fmt.Fprintf(&b, "%s %s end=%g %s (never started)\n", id, o.Job.Queue.Name, float64(o.Job.End-t0), o.Job.State)
		default:
			fmt.Fprintf(&b, "%s %s start=%g end=%g %s %s", id, o.Job.Queue.Name, float64(o.Job.Start-t0), float64(o.Job.End-t0),
				hostList(o.Job), o.Job.State)
			if o.Job.State == runtime.SSusp || o.Job.State == runtime.Run {
				fmt.Fprintf(&b, " (%s)", o.Job.Reason)
			}
			if n := o.Job.PreemptCount; n > 0 {
				fmt.Fprintf(&b, " preempted=%d", n)
			}
			b.WriteString(requeues(o.Job))
			if o.Job.Term != "" {
				fmt.Fprintf(&b, " %s", o.Job.Term)
			}
			if e := o.Job.Exceptions; e != 0 {
				fmt.Fprintf(&b, " exceptions=%s", strings.ReplaceAll(e.String(), " ", ","))
			}
			b.WriteString("\n")
		}
	}
	b.WriteString(excLog.String())
	for _, r := range res.Resizes {
		fmt.Fprintf(&b, "resize %g job %s %s", float64(r.At-t0), api.FormatJobID(int64(r.Job.TraceID)), r.Kind)
		if len(r.Allocs) > 0 {
			fmt.Fprintf(&b, " %s", hostList(&runtime.Job{Allocs: r.Allocs}))
		}
		b.WriteString("\n")
	}
	for _, h := range c.Hosts {
		if h.ExitClosed {
			fmt.Fprintf(&b, "host %s %s (%s)\n", h.Name, h.Status, runtime.ExitRateComment)
		}
	}
	return b.String()
}

// requeues prints a job's requeues on its exit values, and the hosts an
// exclusive requeue keeps it from: " requeued=N avoid=HOSTS".
func requeues(j *runtime.Job) string {
	var b strings.Builder
	if n := j.ExitRequeues; n > 0 {
		fmt.Fprintf(&b, " requeued=%d", n)
	}
	if len(j.AvoidHosts) > 0 {
		fmt.Fprintf(&b, " avoid=%s", strings.Join(j.AvoidHosts, ","))
	}
	return b.String()
}

// hostList prints a job's hosts as bjobs does: host, or n*host.
func hostList(j *runtime.Job) string {
	var parts []string
	for _, a := range j.Allocs {
		p := a.Host.Name
		if a.Slots != 1 {
			p = fmt.Sprintf("%d*%s", a.Slots, a.Host.Name)
		}
		if len(a.GPUs) > 0 {
			p += fmt.Sprintf("[gpu %s]", strings.Trim(strings.Join(strings.Fields(fmt.Sprint(a.GPUs)), ","), "[]"))
		}
		parts = append(parts, p)
	}
	return strings.Join(parts, ",")
}

// parseJobs reads the "jobs" file of a scenario.
func parseJobs(t *testing.T, text string, t0 runtime.Time) ([]sim.Job, []sim.Command) {
	t.Helper()
	var jobs []sim.Job
	var cmds []sim.Command
	index := map[int]int{}
	for n, line := range strings.Split(text, "\n") {
		fields := splitFields(line)
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		bad := func(format string, args ...any) {
			t.Fatalf("jobs:%d: %s", n+1, fmt.Sprintf(format, args...))
		}
		num := func(s string) float64 {
			x, err := strconv.ParseFloat(s, 64)
			if err != nil {
				bad("%q is not a number", s)
			}
			return x
		}
		if at, ok := strings.CutPrefix(fields[0], "@"); ok {
			if len(fields) == 4 && fields[1] == "load" {
				cmds = append(cmds, sim.Command{At: t0.Add(num(at)), Kind: "load", Host: fields[2], Arg: fields[3]})
				continue
			}
			if len(fields) != 3 && len(fields) != 4 {
				bad("want @AT COMMAND ID [ARG]")
			}
			i, ok := index[int(num(fields[2]))]
			if !ok {
				bad("no job %s", fields[2])
			}
			cmd := sim.Command{At: t0.Add(num(at)), Kind: fields[1], Job: i}
			if len(fields) == 4 {
				cmd.Arg = fields[3]
			}
			cmds = append(cmds, cmd)
			continue
		}
		if len(fields) < 4 {
			bad("want ID AT SLOTS RUNTIME [options]")
		}
		sj := sim.Job{At: t0.Add(num(fields[1])), Submission: runtime.Submission{
			TraceID: int(num(fields[0])), Slots: int(num(fields[2])), Runtime: num(fields[3]), User: "user1"}}
		for _, opt := range fields[4:] {
			key, value, _ := strings.Cut(opt, "=")
			switch key {
			case "queue":
				sj.Queue = value
			case "user":
				sj.User = value
			case "R":
				sj.ResReq = value
			case "gpu":
				sj.GPU = value
			case "sp":
				sj.Priority = int(num(value))
			case "W":
				sj.RunLimit = num(value) * 60
			case "app":
				sj.App = value
			case "hold":
				sj.Hold = true
			case "x":
				sj.Exclusive = true
			case "type":
				sj.FromType = value
			case "name":
				sj.Name = value
			case "dep":
				sj.Depend = value
			case "exit":
				sj.ExitCode = int(num(value))
			case "cpu":
				sj.CPUTime = num(value)
			case "sla":
				sj.Sla = value
			case "project":
				sj.Project = value
			case "g":
				sj.JobGroup = value
			case "U":
				sj.Reservation = value
			case "array":
				sj.Array = value
			case "limit":
				sj.ArrayLimit = int(num(value))
			case "max":
				sj.MaxSlots = int(num(value))
			case "ar":
				sj.AutoResize = true
			case "rnc":
				sj.ResizeNotify, sj.NotifyTime = "notify", num(value)
			case "Q":
				sj.RequeueExitValues = value
			default:
				bad("unknown option %q", opt)
			}
		}
		index[sj.TraceID] = len(jobs)
		jobs = append(jobs, sj)
	}
	slices.SortStableFunc(jobs, func(a, b sim.Job) int {
		switch {
		case a.At < b.At:
			return -1
		case a.At > b.At:
			return 1
		}
		return 0
	})
	// Commands name jobs by their place in the sorted list.
	pos := map[int]int{}
	for i, j := range jobs {
		pos[j.TraceID] = i
	}
	for i := range cmds {
		for id, old := range index {
			if old == cmds[i].Job {
				cmds[i].Job = pos[id]
				break
			}
		}
	}
	return jobs, cmds
}

// addReservations adds the advance reservations of a scenario's
// "reservations" file, one a line, as brsvadd makes them:
//
//	ID hosts=HOST:SLOTS[,HOST:SLOTS] [users=U[,U]] [begin=AT end=AT | window="W"] [open] [system]
//
// with times in seconds from the start of the simulation and W a brsvadd
// -t window.
func addReservations(t *testing.T, c *runtime.Cluster, text string, t0 runtime.Time) {
	t.Helper()
	for n, line := range strings.Split(text, "\n") {
		fields := splitFields(line)
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		bad := func(format string, args ...any) {
			t.Fatalf("reservations:%d: %s", n+1, fmt.Sprintf(format, args...))
		}
		r := runtime.AdvRsv{ID: fields[0], Creator: "lsfadmin"}
		for _, opt := range fields[1:] {
			key, value, _ := strings.Cut(opt, "=")
			switch key {
			case "hosts":
				for _, hs := range strings.Split(value, ",") {
					h, s, _ := strings.Cut(hs, ":")
					slots, err := strconv.Atoi(s)
					if err != nil {
						bad("%q: %v", hs, err)
					}
					r.Hosts = append(r.Hosts, runtime.RsvSlots{Host: h, Slots: slots})
				}
			case "users":
				r.Users = strings.Split(value, ",")
			case "begin", "end":
				x, err := strconv.ParseFloat(value, 64)
				if err != nil {
					bad("%q: %v", opt, err)
				}
				if key == "begin" {
					r.Begin = t0.Add(x)
				} else {
					r.End = t0.Add(x)
				}
			case "window":
				from, to, err := api.ParseRsvWindow(value)
				if err != nil {
					bad("%v", err)
				}
				r.Window = runtime.RsvWindow(from, to)
			case "open":
				r.Open = true
			case "system":
				r.System = true
			default:
				bad("unknown option %q", opt)
			}
		}
		if err := c.CheckAdvRsv(&r, t0-1, ""); err != nil {
			bad("%v", err)
		}
		if w := c.PutAdvRsv(r); w != "" {
			bad("%s", w)
		}
	}
}

// splitFields splits a line at blanks, keeping double-quoted text (after
// "key=") together and unquoted.
func splitFields(line string) []string {
	var out []string
	var cur strings.Builder
	quoted, in := false, false
	for _, r := range line {
		switch {
		case r == '"':
			quoted = !quoted
			in = true
		case (r == ' ' || r == '\t') && !quoted:
			if in {
				out = append(out, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if in {
		out = append(out, cur.String())
	}
	return out
}
