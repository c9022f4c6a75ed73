package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/runtime/api"
)

// checkLayout compares a command's output with its golden file under
// testdata/layout (go test -update rewrites it; review the diff).
func checkLayout(t *testing.T, what, got string) {
	t.Helper()
	testkit.CheckFile(t, layoutGolden(t, what), got)
}

// layoutGolden names the golden file of one layout a test checks: the
// test's name and the command, under testdata/layout. Each test says which
// page of IBM's LSF 10.1 command reference its layout follows.
func layoutGolden(t *testing.T, what string) string {
	name := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, t.Name()+"."+what)
	return filepath.Join("testdata", "layout", name+".txt")
}

// TestBjobsDefault checks bjobs' default table, as the "bjobs" page of the
// IBM Spectrum LSF 10.1 command reference shows it: its columns, their widths, a job name cut
// from the left behind "*", and a parallel job's hosts one a line ("-w":
// nothing cut, hosts joined by ":").
func TestBjobsDefault(t *testing.T) {
	for _, tc := range []struct {
		name string
		v    jobsView
	}{
		{"default", jobsView{loc: time.UTC}},
		{"wide", jobsView{loc: time.UTC, wide: true}},
		{"noheader", jobsView{loc: time.UTC, noHeader: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			tc.v.writeDefault(&b, fixtureJobs())
			checkLayout(t, "bjobs", b.String())
		})
	}
}

// TestBjobsPending checks bjobs -p: the pending reasons under each job,
// as the "bjobs -p" page of the IBM Spectrum LSF 10.1 command reference shows them.
func TestBjobsPending(t *testing.T) {
	var b bytes.Buffer
	jobsView{loc: time.UTC}.writePending(&b, fixtureJobs()[1:2])
	checkLayout(t, "bjobs -p", b.String())
}

// TestBjobsLong checks bjobs -l's long layout (the "bjobs -l" and
// "bjobs -UF" pages of the IBM Spectrum LSF 10.1 command reference): the
// job's line, its events, its limits and its resource usage, the job's
// line and the time-stamped ones wrapped at 80 columns, and with -UF each
// line whole.
func TestBjobsLong(t *testing.T) {
	var b bytes.Buffer
	jobsView{loc: time.UTC}.writeLong(&b, fixtureJobs())
	checkLayout(t, "bjobs -l", b.String())
	for i, line := range strings.Split(b.String(), "\n") {
		if len(line) > longWidth {
			t.Errorf("bjobs -l line %d has %d columns: %q", i+1, len(line), line)
		}
	}
	b.Reset()
	jobsView{loc: time.UTC, unformatted: true}.writeLong(&b, fixtureJobs())
	checkLayout(t, "bjobs -UF", b.String())
}

// TestWrapLong checks how one line of bjobs -l is broken.
func TestWrapLong(t *testing.T) {
	indent := strings.Repeat(" ", longIndent)
	long := strings.Repeat("x", 100)
	for _, tc := range []struct{ in, want string }{
		{"short line\n", "short line\n"},
		{"", ""},
		{" " + long + " y\n", " " + long + " y\n"},
		{strings.Repeat("abc ", 19) + "abc\n", strings.Repeat("abc ", 19) + "abc\n"},
		{strings.Repeat("abc ", 19) + "abcd\n", strings.Repeat("abc ", 19) + "\n" + indent + "abcd\n"},
		{"Job <1>, " + long + ", next\n", "Job <1>, \n" + indent + long + ", \n" + indent + "next\n"},
		{"Mon Nov  1 10:00:00: " + strings.Repeat("w ", 40) + "end", "Mon Nov  1 10:00:00: " + strings.Repeat("w ", 29) + "\n" +
			indent + strings.Repeat("w ", 11) + "end"},
	} {
		if got := wrapLong(tc.in); got != tc.want {
			t.Errorf("wrapLong(%q)\n got: %q\nwant: %q", tc.in, got, tc.want)
		}
	}
}

// TestBjobsColumns checks bjobs -o: widths, right justification, the
// delimiter and truncation as the "bjobs -o" page of the
// IBM Spectrum LSF 10.1 command reference describes them.
func TestBjobsColumns(t *testing.T) {
	for _, tc := range []struct {
		name, spec string
		noHeader   bool
		jobs       []int // indexes into fixtureJobs
	}{
		{"widths", "jobid:7 stat:-5 job_name:8 exit_code exit_reason delimiter='|'", false, []int{0, 1, 2, 3}},
		{"stat noheader", "stat", true, []int{2}},
		{"double-quoted delimiter", `JOBID STAT delimiter=","`, true, []int{2, 3}},
		{"usage", "jobid cpu_used max_mem", true, []int{2, 3}},
		{"unlimited", "JOBID User exec_host start_time slots", false, []int{0, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cols, delim, err := parseJobColumns(tc.spec)
			if err != nil {
				t.Fatal(err)
			}
			all := fixtureJobs()
			var jobs []api.Job
			for _, i := range tc.jobs {
				jobs = append(jobs, all[i])
			}
			var b bytes.Buffer
			jobsView{loc: time.UTC, noHeader: tc.noHeader}.writeColumns(&b, cols, delim, jobs)
			checkLayout(t, "bjobs -o", b.String())
		})
	}
}

func TestParseJobColumnsErrors(t *testing.T) {
	for spec, want := range map[string]string{
		"jobid nosuch": `unknown field "nosuch"`,
		"jobid:x":      `field "jobid": bad width "x"`,
		"":             "no field given",
	} {
		if _, _, err := parseJobColumns(spec); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("parseJobColumns(%q) error = %v, want %q", spec, err, want)
		}
	}
}

// TestBjobsJSON checks bjobs -json: the COMMAND, JOBS and RECORDS object
// with every value a string, as the "bjobs -json" page of the
// IBM Spectrum LSF 10.1 command reference shows it.
func TestBjobsJSON(t *testing.T) {
	cols, _, err := parseJobColumns("user exit_code stat exit_reason pend_reason")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := writeJobsJSON(&b, cols, fixtureJobs()[1:4], []int64{7}, time.UTC, fixtureTime); err != nil {
		t.Fatal(err)
	}
	checkLayout(t, "bjobs -json", b.String())

	// The default fields, and every value a string, as parsers expect.
	b.Reset()
	if err := writeJobsJSON(&b, defaultJobColumns(), fixtureJobs()[:1], nil, time.UTC, fixtureTime); err != nil {
		t.Fatal(err)
	}
	var out struct {
		Command string              `json:"COMMAND"`
		Jobs    int                 `json:"JOBS"`
		Records []map[string]string `json:"RECORDS"`
	}
	if err := json.Unmarshal(b.Bytes(), &out); err != nil {
		t.Fatalf("bjobs -json is not JSON of strings: %v\n%s", err, b.String())
	}
	want := map[string]string{"JOBID": "1001", "USER": "ann", "STAT": "RUN", "QUEUE": "normal",
		"FROM_HOST": "subhost", "EXEC_HOST": "2*hostA:hostB", "JOB_NAME": "toil_job_0", "SUBMIT_TIME": "Nov 21 23:38"}
	if out.Command != "bjobs" || out.Jobs != 1 || len(out.Records) != 1 || !maps.Equal(out.Records[0], want) {
		t.Errorf("bjobs -json = %+v, want one record %v", out, want)
	}

	// No job: an empty list, still an object.
	b.Reset()
	writeJobsJSON(&b, defaultJobColumns(), nil, nil, time.UTC, fixtureTime)
	checkLayout(t, "bjobs -json (none)", b.String())
}

func TestJobFieldExitCode(t *testing.T) {
	for _, tc := range []struct {
		state string
		code  int
		want  string
	}{
		{"DONE", 0, ""},
		{"EXIT", 2, "2"},
		{"EXIT", 0, ""}, // killed while pending: no code, read as a failure
		{"RUN", 0, ""},
	} {
		j := api.Job{State: tc.state, ExitCode: tc.code}
		if got := jobFieldAt("exit_code", &j, time.UTC, fixtureTime); got != tc.want {
			t.Errorf("exit_code of %s/%d = %q, want %q", tc.state, tc.code, got, tc.want)
		}
	}
	j := api.Job{State: "EXIT", Term: "TERM_MEMLIMIT", ExitCode: 137}
	if got := jobFieldAt("exit_reason", &j, time.UTC, fixtureTime); !strings.Contains(got, "TERM_MEMLIMIT") {
		t.Errorf("exit_reason = %q, want TERM_MEMLIMIT in it", got)
	}
}

func TestExecGroups(t *testing.T) {
	for _, tc := range []struct {
		hosts []string
		want  string
	}{
		{nil, ""},
		{[]string{"a"}, "a"},
		{[]string{"a", "a", "b", "c", "c", "c"}, "2*a b 3*c"},
	} {
		if got := strings.Join(execGroups(tc.hosts), " "); got != tc.want {
			t.Errorf("execGroups(%q) = %q, want %q", tc.hosts, got, tc.want)
		}
	}
}

func TestSortJobs(t *testing.T) {
	jobs := []api.Job{{ID: 5, State: "DONE"}, {ID: 4, State: "PEND"}, {ID: 3, State: "RUN"},
		{ID: 2, State: "PSUSP"}, {ID: 1, State: "USUSP"}}
	sortJobs(jobs)
	var got []int64
	for _, j := range jobs {
		got = append(got, j.ID)
	}
	if want := []int64{1, 3, 2, 4, 5}; !slices.Equal(got, want) {
		t.Errorf("sortJobs order = %v, want %v", got, want)
	}
	// In order already, with array elements by index: as they are.
	jobs = []api.Job{{ID: 1, State: "RUN"}, {ID: api.ElementID(7, 2), State: "RUN"}, {ID: api.ElementID(7, 10), State: "RUN"},
		{ID: 2, State: "PEND"}, {ID: 9, State: "EXIT"}}
	want := slices.Clone(jobs)
	if sortJobs(jobs); !slices.EqualFunc(jobs, want, func(a, b api.Job) bool { return a.ID == b.ID }) {
		t.Errorf("sortJobs moved jobs in order: %v", jobs)
	}
}

// TestBjobsLongExceptions checks the EXCEPTION STATUS line of bjobs -l
// (the "bjobs -l" page of the IBM Spectrum LSF 10.1 command reference).
func TestBjobsLongExceptions(t *testing.T) {
	var b bytes.Buffer
	jobs := []api.Job{{ID: 7, Name: "sleepy", User: "ann", Queue: "watched", State: "RUN", Command: "sleep 9999",
		Slots: 1, FromHost: "subhost", ExecHosts: []string{"hostA"}, Submit: 1669073882, Start: 1669073942,
		Exceptions: "overrun idle"}}
	jobsView{loc: time.UTC}.writeLong(&b, jobs)
	checkLayout(t, "bjobs -l", b.String())
}

func TestBjobsLongForwarded(t *testing.T) {
	var b bytes.Buffer
	jobs := []api.Job{
		{ID: 8, User: "ann", Queue: "send", State: "RUN", Command: "sleep 60", Slots: 1, FromHost: "subhost",
			ExecHosts: []string{"westA@west"}, Submit: 1669073882, Start: 1669073942,
			Forward: &api.JobForward{Cluster: "west", Queue: "recv", RemoteID: 41, Time: 1669073883}},
		{ID: 41, User: "ann", Queue: "recv", State: "PEND", Command: "sleep 60", Slots: 1, FromHost: "subhost",
			Submit: 1669073884, Reason: "New job is waiting for scheduling", Home: &api.JobHome{Cluster: "home", ID: 8}},
	}
	jobsView{loc: time.UTC, unformatted: true}.writeLong(&b, jobs)
	got := b.String()
	for _, want := range []string{
		"Mon Nov 21 23:38:03: Forwarded to cluster <west>, queue <recv>, remote job <41>;\n",
		"Mon Nov 21 23:39:02: Started 1 Task(s) on Host(s) <westA@west>, Allocated 1 Slot(s) on Host(s) <westA@west>;\n",
		"Mon Nov 21 23:38:04: Forwarded from cluster <home>, job <8> there;\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("bjobs -l lacks %q:\n%s", want, got)
		}
	}
}

// TestBjobsForwarded checks bjobs -fwd's layout and the -o fields of
// forwarded and received jobs.
func TestBjobsForwarded(t *testing.T) {
	jobs := []api.Job{
		{ID: 8, User: "ann", Queue: "send", State: "RUN", Command: "sleep 60", Slots: 1, FromHost: "subhost",
			ExecHosts: []string{"westA@west"}, Submit: 1669073882, Start: 1669073942,
			Forward: &api.JobForward{Cluster: "west", Queue: "recv", RemoteID: 41, Time: 1669073883}},
		{ID: 9, User: "ann", Queue: "send", State: "PEND", Command: "true", Slots: 1, FromHost: "subhost",
			Submit: 1669073890, Forward: &api.JobForward{Cluster: "northern-cluster", Queue: "recv", Time: 1669073891}},
	}
	var b bytes.Buffer
	jobsView{loc: time.UTC}.writeForwarded(&b, jobs)
	checkLayout(t, "bjobs -fwd", b.String())
	received := api.Job{ID: 41, Home: &api.JobHome{Cluster: "home", ID: 8}}
	for _, c := range []struct {
		field string
		job   *api.Job
		want  string
	}{
		{"forward_cluster", &jobs[0], "west"},
		{"forward_time", &jobs[0], "Nov 21 23:38"},
		{"dstjobid", &jobs[0], "41"},
		{"dstjobid", &jobs[1], ""},
		{"source_cluster", &received, "home"},
		{"srcjobid", &received, "8"},
		{"srcjobid", &jobs[0], ""},
	} {
		if got := jobFieldAt(c.field, c.job, time.UTC, fixtureTime); got != c.want {
			t.Errorf("%s of job %d = %q, want %q", c.field, c.job.ID, got, c.want)
		}
	}
}

// TestBjobsSum checks bjobs -sum's table (the "bjobs -sum" page of the
// IBM Spectrum LSF 10.1 command reference): slots by state, a forwarded
// pending job apart.
func TestBjobsSum(t *testing.T) {
	jobs := append(fixtureJobs(),
		api.Job{ID: 11, State: "PEND", Slots: 4, Forward: &api.JobForward{Cluster: "west", Queue: "recv"}},
		api.Job{ID: 12, State: "SSUSP", Slots: 2}, api.Job{ID: 13, State: "USUSP", Slots: 1},
		api.Job{ID: 14, State: "UNKWN", Slots: 8}, api.Job{ID: 15, State: "PSUSP", Slots: 16})
	var b bytes.Buffer
	writeJobSummary(&b, jobs)
	checkLayout(t, "bjobs -sum", b.String())
}

// TestParamsLong checks bparams -l's layout (the "bparams" page of the
// IBM Spectrum LSF 10.1 command reference): what each parameter is for,
// then its value and unit indented by a tab.
func TestParamsLong(t *testing.T) {
	var b bytes.Buffer
	writeParamsLong(&b, []api.Param{
		{Name: "MBD_SLEEP_TIME", Value: "10", Set: true, Unit: "seconds", Doc: "Interval between scheduling sessions."},
		{Name: "DEFAULT_QUEUE", Value: "normal short", Doc: "Queues a job goes to when it names none."},
		{Name: "ACCT_ARCHIVE_AGE", Unit: "days", Doc: "Age of lsb.acct after which it is archived."},
		{Name: "NO_DOC", Value: "Y"},
	})
	checkLayout(t, "bparams -l", b.String())
}

// TestBusersLayout checks busers's table (the "busers" page of the IBM
// Spectrum LSF 10.1 command reference): "-" for a limit not set.
func TestBusersLayout(t *testing.T) {
	var b bytes.Buffer
	writeUsers(&b, []api.User{
		{Name: "ann", JLP: 2, Max: 12, NJobs: 7, Pend: 2, Run: 4, USusp: 1},
		{Name: "a_long_user_name_for_busers", NJobs: 1, SSusp: 1},
	})
	checkLayout(t, "busers", b.String())
	b.Reset()
	four, two := 4, 2
	writeUsersPend(&b, []api.User{
		{Name: "alice", NJobs: 3, Pend: 3, PJobs: 2, MPend: &four, MPJobs: &two},
		{Name: "bob", Max: 8, NJobs: 1, Run: 1},
	})
	checkLayout(t, "busers -w", b.String())
}

// TestBhostsGPULayout checks bhosts -gpu and bhosts -gpu -l: MUSED as the
// host's agent measured it ("-" when it does not), RSV the pending jobs
// that reserve each GPU.
func TestBhostsGPULayout(t *testing.T) {
	used := 2048.0
	hs := []api.Host{{Name: "gpuA", GPUsFound: true, GPUs: []api.HostGPU{
		{ID: 0, Model: "Tesla_T4", Mem: 15360, NJobs: 1, Run: 1, Exclusive: true, MemUsed: &used, RunJobs: []int64{7}},
		{ID: 1, Model: "Tesla_T4", Mem: 15360, Rsv: 1},
	}}}
	var b bytes.Buffer
	writeBhostsGPU(&b, hs, false)
	checkLayout(t, "bhosts -gpu", b.String())
	b.Reset()
	writeBhostsGPULong(&b, hs)
	checkLayout(t, "bhosts -gpu -l", b.String())
}

// TestGroupsLayout checks bugroup's and bmgroup's tables and long blocks
// (the "bugroup" and "bmgroup" pages of the IBM Spectrum LSF 10.1 command
// reference).
func TestGroupsLayout(t *testing.T) {
	users := []api.Group{
		{Name: "chemists", Members: []string{"alice", "carol"}, Expanded: []string{"alice", "carol"}, Shares: "[alice, 2] [carol, 1]"},
		{Name: "science", Members: []string{"chemists/", "~bob"}, Expanded: []string{"alice", "carol"}},
	}
	hosts := []api.Group{{Name: "gpu_hosts", Members: []string{"hostC", "big/"}, Expanded: []string{"hostA", "hostC"}}}
	var b bytes.Buffer
	writeGroups(&b, users, "user", false, false)
	writeGroups(&b, users, "user", true, false)
	writeGroups(&b, users, "user", false, true)
	checkLayout(t, "bugroup", b.String())
	b.Reset()
	writeGroups(&b, hosts, "host", false, false)
	writeGroups(&b, hosts, "host", true, true)
	checkLayout(t, "bmgroup", b.String())
}

// TestBjobsDefaultEscapes checks that the default layout, which escapes
// only the fields it prints, prints what escaping every field of the
// jobs (textJobs) prints: names, hosts and commands with control
// characters, line ends and bytes that are not UTF-8.
func TestBjobsDefaultEscapes(t *testing.T) {
	jobs := fixtureJobs()
	jobs = append(jobs,
		api.Job{ID: 7, User: "u\x1b[31m", Queue: "q\tx", State: "RUN", FromHost: "h\r", Submit: fixtureTime,
			ExecHosts: []string{"a\x1b", "a\x1b", `a\033`, "b\xff", "b\xff"}, Command: "line one\nline\x07 two\n"},
		api.Job{ID: 8, User: "u", Queue: "q", State: "PEND", Name: "n\u202e\x00", Command: "c", Submit: fixtureTime,
			ExecHosts: []string{"ok", "x\ny"}})
	for _, v := range []jobsView{{loc: time.UTC}, {loc: time.UTC, wide: true}} {
		var got, want bytes.Buffer
		v.writeDefault(&got, jobs)
		want.WriteString(jobsHeader + "\n")
		safe := textJobs(jobs)
		for i := range safe {
			v.writeRow(&want, &safe[i], true)
		}
		if got.String() != want.String() {
			t.Errorf("wide %v: the default layout prints\n%s\nescaping every field prints\n%s", v.wide, got.String(), want.String())
		}
	}
	if jobs[4].ExecHosts[0] != "a\x1b" {
		t.Errorf("writeDefault changed the jobs it was given: %q", jobs[4].ExecHosts)
	}
}

// TestRowLine checks that a row made without fmt is the row jobsRow
// makes: short, long, empty and multi-byte cells.
func TestRowLine(t *testing.T) {
	for _, cells := range [][]string{
		{"1", "ann", "RUN", "normal", "host", "hostA", "job", "Nov 21 23:40"},
		{"1234567[10]", "verylongusername", "PSUSP", "verylongqueuename", "submission-host-01", "", "python3 x", ""},
		{"", "", "", "", "", "", "", ""},
		{"7", "ünï", "RUN", "q✓", "h\\033", "é", "日本語の名前", "Jan  2 03:04"},
	} {
		args := make([]any, len(cells))
		for i, c := range cells {
			args[i] = c
		}
		if got, want := string(rowLine(cells...)), fmt.Sprintf(jobsRow, args...); got != want {
			t.Errorf("rowLine(%q) = %q, want %q", cells, got, want)
		}
	}
}

// TestJobColumnNames checks that -o takes each field by LSF's name and by
// each alias the "bjobs -o" page of the IBM Spectrum LSF 10.1 command
// reference gives it, without regard to case, and by the names earlier
// lsfc releases used, and heads the column with LSF's name upper-cased.
func TestJobColumnNames(t *testing.T) {
	for _, tc := range []struct{ given, name string }{
		{"id", "jobid"}, {"ID", "jobid"}, {"jobid", "jobid"},
		{"name", "job_name"}, {"Name", "job_name"},
		{"ugroup", "user_group"},
		{"description", "job_description"},
		{"proj", "proj_name"}, {"project", "proj_name"},
		{"app", "application"}, {"application", "application"},
		{"sla", "service_class"}, {"service_class", "service_class"},
		{"group", "job_group"}, {"jgroup", "job_group"}, {"jobgroup", "job_group"},
		{"priority", "job_priority"},
		{"cmd", "command"}, {"pre_cmd", "pre_exec_command"}, {"post_cmd", "post_exec_command"},
		{"resize_cmd", "resize_notification_command"},
		{"estart_time", "estimated_start_time"}, {"sstart_time", "specified_start_time"},
		{"sterminate_time", "specified_terminate_time"},
		{"ertime", "estimated_run_time"}, {"except_stat", "exception_status"},
		{"cwd", "sub_cwd"}, {"SUB_CWD", "sub_cwd"},
		{"fwd_cluster", "forward_cluster"}, {"fwd_time", "forward_time"}, {"srcluster", "source_cluster"},
	} {
		cols, _, err := parseJobColumns(tc.given)
		if err != nil {
			t.Errorf("%s: %v", tc.given, err)
			continue
		}
		if cols[0].name != tc.name {
			t.Errorf("%s is field %s, want %s", tc.given, cols[0].name, tc.name)
		}
		var b bytes.Buffer
		jobsView{loc: time.UTC, now: fixtureTime}.writeColumns(&b, cols, " ", nil)
		if want := strings.ToUpper(tc.name) + "\n"; b.String() != want {
			t.Errorf("%s: heading %q, want %q", tc.given, b.String(), want)
		}
	}
	// Each name is one field's alone.
	seen := map[string]string{}
	for _, d := range jobFieldDefs {
		for _, n := range append([]string{d.name}, d.aliases...) {
			if other, ok := seen[n]; ok {
				t.Errorf("%s names both %s and %s", n, other, d.name)
			}
			seen[n] = d.name
			if slices.Contains(unsupportedJobFields, n) {
				t.Errorf("%s is both supported and refused", n)
			}
		}
		if d.width <= 0 || len(d.fields) == 0 && d.name != "jobid" && d.name != "jobindex" {
			t.Errorf("%s: width %d, fields %q", d.name, d.width, d.fields)
		}
	}
}

// TestJobColumnWidths checks NAME: (LSF's recommended width), NAME:-
// (that width, right-aligned), NAME:N and the unit prefix.
func TestJobColumnWidths(t *testing.T) {
	for _, tc := range []struct {
		spec  string
		width int
		right bool
		unit  string
	}{
		{"jobid:", 7, false, ""},
		{"name:-", 10, true, ""},
		{"exit_reason:", 50, false, ""},
		{"resize_cmd:", 27, false, ""},
		{"stat:3", 3, false, ""},
		{"queue:-12", 12, true, ""},
		{"max_mem:10:G", 10, false, "G"},
		{"memlimit::mb", 10, false, "M"},
		{"corelimit:-:S", 10, true, "S"},
		{"stat::G", 5, false, ""}, // a unit applies to memory amounts alone
		{"user", 0, false, ""},
	} {
		cols, _, err := parseJobColumns(tc.spec)
		if err != nil {
			t.Errorf("%s: %v", tc.spec, err)
			continue
		}
		if c := cols[0]; c.width != tc.width || c.right != tc.right || c.unit != tc.unit {
			t.Errorf("%s: width %d right %v unit %q, want %d %v %q", tc.spec, c.width, c.right, c.unit, tc.width, tc.right, tc.unit)
		}
	}
}

// TestJobFields checks the values of -o's fields, as the "bjobs -o" page
// of the IBM Spectrum LSF 10.1 command reference describes them: times
// in seconds as "N second(s)", memory amounts in Mbytes or Gbytes (or in
// the unit asked for), time stamps as the other time fields, and "-"
// (in -json "") for a job without the value.
func TestJobFields(t *testing.T) {
	now := fixtureTime + 3000
	running := api.Job{ID: 7, User: "ann", Queue: "normal", State: "RUN", Command: "run", Slots: 3,
		ExecHosts: []string{"hostA", "hostA", "hostB"}, Submit: fixtureTime, Start: fixtureTime + 90,
		RunLimit: 3600, MemLimit: 2048, MaxMem: 12.3, Cwd: "/home/ann", ExecCwd: "/tmp", UserGroup: "chem",
		Priority: 20, Reservation: "ann#0", PreExecCmd: "check\nhost", PostExecCmd: "clean", Input: "in.dat",
		OutDir: "/out", Exceptions: "overrun  idle", ProcLimits: map[string]int64{"SWAPLIMIT": 1048576, "PROCESSLIMIT": 8, "CORELIMIT": 10240},
		Resize: &api.JobResize{MinSlots: 2, MaxSlots: 4, Notify: "grow.sh"}}
	estimated := running
	estimated.Estimate = 1200
	pending := api.Job{ID: 8, State: "PEND", Slots: 2, Submit: fixtureTime + 100, BeginTime: float64(fixtureTime + 7200),
		TermTime: float64(fixtureTime + 86400), Reserved: &api.JobReservation{Start: fixtureTime + 5000}}
	done := api.Job{ID: 9, State: "DONE", Slots: 1, ExecHosts: []string{"hostC"}, Submit: fixtureTime,
		Start: fixtureTime + 5, End: fixtureTime + 65, Cwd: "/w"}
	for _, tc := range []struct {
		field string
		job   *api.Job
		want  string
	}{
		{"run_time", &running, "2910 second(s)"},
		{"run_time", &done, "60 second(s)"},
		{"run_time", &pending, ""},
		{"pend_time", &running, "90 second(s)"},
		{"pend_time", &pending, "2900 second(s)"},
		{"time_left", &running, "0:11 L"},
		{"time_left", &estimated, "0:11 X"}, // past its estimate: counted to the run limit
		{"time_left", &done, ""},
		{"first_host", &running, "hostA"},
		{"first_host", &pending, ""},
		{"nexec_host", &running, "2"},
		{"nalloc_slot", &running, "3"},
		{"alloc_slot", &running, "2*hostA:hostB"},
		{"nreq_slot", &pending, "2"},
		{"min_req_proc", &running, "2"},
		{"max_req_proc", &running, "4"},
		{"max_req_proc", &pending, "2"},
		{"sub_cwd", &running, "/home/ann"},
		{"exec_cwd", &running, "/tmp"},
		{"exec_cwd", &done, "/w"},
		{"exec_cwd", &pending, ""},
		{"memlimit", &running, "2.0 Gbytes"},
		{"max_mem", &running, "13 Mbytes"},
		{"runtimelimit", &running, "60.0"},
		{"swaplimit", &running, "1048576 KB"},
		{"processlimit", &running, "8"},
		{"user_group", &running, "chem"},
		{"job_priority", &running, "20"},
		{"job_priority", &pending, ""},
		{"rsvid", &running, "ann#0"},
		{"pre_exec_command", &running, "check;host"},
		{"post_exec_command", &running, "clean"},
		{"resize_notification_command", &running, "grow.sh"},
		{"input_file", &running, "in.dat"},
		{"output_dir", &running, "/out"},
		{"exception_status", &running, "overrun idle"},
		{"estimated_start_time", &pending, "Nov 22 01:01"},
		{"specified_start_time", &pending, "Nov 22 01:38"},
		{"specified_terminate_time", &pending, "Nov 22 23:38"},
		{"estimated_run_time", &estimated, "1200 second(s)"},
		{"estimated_run_time", &running, ""},
	} {
		if got := jobFieldAt(tc.field, tc.job, time.UTC, now); got != tc.want {
			t.Errorf("%s of job %d = %q, want %q", tc.field, tc.job.ID, got, tc.want)
		}
	}
	// Within its estimate, counted to it.
	estimated.Estimate = 4000
	if got := jobFieldAt("time_left", &estimated, time.UTC, now); got != "0:18 E" {
		t.Errorf("time_left within the estimate = %q, want 0:18 E", got)
	}
	// Unit prefixes.
	for _, tc := range []struct{ spec, want string }{
		{"max_mem::G", "0.01G"},
		{"max_mem::K", "12595.20K"},
		{"max_mem::S", "12.3M"},
		{"memlimit::G", "2.00G"},
		{"swaplimit::S", "1G"},
		{"corelimit::MB", "10.00M"},
	} {
		cols, _, err := parseJobColumns(tc.spec)
		if err != nil {
			t.Fatal(err)
		}
		if got := columnValue(cols[0], &running, time.UTC, now); got != tc.want {
			t.Errorf("%s = %q, want %q", tc.spec, got, tc.want)
		}
	}
}

// TestJobColumnsRefused checks that a field LSF has and lsfc keeps no
// value of is refused, and said to be LSF's, and that an unknown name or
// width is an error.
func TestJobColumnsRefused(t *testing.T) {
	for spec, want := range map[string]string{
		"jobid pids":       `field "pids" is not supported by lsfc`,
		"EFFECTIVE_RESREQ": `field "EFFECTIVE_RESREQ" is not supported by lsfc`,
		"mem":              `field "mem" is not supported by lsfc`,
		"exec_home":        `field "exec_home" is not supported by lsfc`,
		"jobid nosuch":     `unknown field "nosuch"`,
		"jobid:0":          `field "jobid": bad width "0"`,
		"jobid:4097":       `field "jobid": bad width "4097"`,
		"max_mem:10:Q":     `field "max_mem": bad unit "Q"`,
	} {
		if _, _, err := parseJobColumns(spec); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("parseJobColumns(%q) error = %v, want %q", spec, err, want)
		}
	}
}

// TestBjobsJSONAliases checks that -json keys each value by the field's
// LSF name upper-cased, whichever name -o used, as LSF's bjobs -json does.
func TestBjobsJSONAliases(t *testing.T) {
	cols, _, err := parseJobColumns("id name cmd app sla cwd proj ugroup priority run_time")
	if err != nil {
		t.Fatal(err)
	}
	j := fixtureJobs()[0]
	j.App, j.Sla, j.UserGroup, j.Priority = "fluent", "gold", "chem", 5
	var b bytes.Buffer
	if err := writeJobsJSON(&b, cols, []api.Job{j}, nil, time.UTC, j.Start+75); err != nil {
		t.Fatal(err)
	}
	var out struct {
		Records []map[string]string `json:"RECORDS"`
	}
	if err := json.Unmarshal(b.Bytes(), &out); err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	want := map[string]string{"JOBID": "1001", "JOB_NAME": "toil_job_0", "COMMAND": "_toil_worker root file:/js",
		"APPLICATION": "fluent", "SERVICE_CLASS": "gold", "SUB_CWD": "/home/ann", "PROJ_NAME": "default",
		"USER_GROUP": "chem", "JOB_PRIORITY": "5", "RUN_TIME": "75 second(s)"}
	if len(out.Records) != 1 || !maps.Equal(out.Records[0], want) {
		t.Errorf("bjobs -json records %v, want %v", out.Records, want)
	}
}

// FuzzJobColumns checks that -o's reader never panics, that what it takes
// names known fields with sane widths, and that it prints a heading and
// one line a job with as many fields.
func FuzzJobColumns(f *testing.F) {
	for _, s := range []string{"jobid stat", "id name:- cmd:20 delimiter=','", "max_mem:10:G memlimit::S", "NAME:",
		"delimiter='", ":", "jobid::", "pids", "run_time time_left pend_time delimiter=\"|\"", "all:5"} {
		f.Add(s)
	}
	jobs := fixtureJobs()
	f.Fuzz(func(t *testing.T, spec string) {
		cols, delim, err := parseJobColumns(spec)
		if err != nil {
			return
		}
		for _, c := range cols {
			if _, ok := jobFieldByName[c.name]; !ok || c.width < 0 || c.width > 4096 {
				t.Fatalf("%q: column %+v", spec, c)
			}
		}
		if strings.Contains(delim, "\n") {
			return
		}
		var b bytes.Buffer
		jobsView{loc: time.UTC, now: fixtureTime}.writeColumns(&b, cols, delim, jobs)
		lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
		if len(lines) != len(jobs)+1 {
			t.Fatalf("%q: %d lines:\n%s", spec, len(lines), b.String())
		}
	})
}
