package main

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lsfc/lsfc/runtime/api"
)

// checkText compares a layout with its expected text, line by line.
func checkText(t *testing.T, what, got, want string) {
	t.Helper()
	if got == want {
		return
	}
	gl, wl := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < max(len(gl), len(wl)); i++ {
		var g, w string
		if i < len(gl) {
			g = gl[i]
		}
		if i < len(wl) {
			w = wl[i]
		}
		if g != w {
			t.Errorf("%s: line %d mismatch\n got: %q\nwant: %q\nwhole output:\n%s", what, i+1, g, w, got)
			return
		}
	}
}

func TestBjobsDefault(t *testing.T) {
	for _, tc := range []struct {
		name string
		v    jobsView
		want string
	}{
		{"default", jobsView{loc: time.UTC}, `JOBID   USER    STAT  QUEUE      FROM_HOST   EXEC_HOST   JOB_NAME   SUBMIT_TIME
1001    ann     RUN   normal     subhost     2*hostA     toil_job_0 Nov 21 23:38
                                             hostB
1002    verylon PEND  verylongqu submission-             *py --flag Nov 21 23:40
1003    ann     DONE  normal     subhost     hostB       ok         Nov 21 23:38
1004    ann     EXIT  normal     subhost     hostA       killed     Nov 21 23:38
`},
		{"wide", jobsView{loc: time.UTC, wide: true}, `JOBID   USER    STAT  QUEUE      FROM_HOST   EXEC_HOST   JOB_NAME   SUBMIT_TIME
1001    ann     RUN   normal     subhost     2*hostA:hostB toil_job_0 Nov 21 23:38
1002    verylongusername PEND  verylongqueuename submission-host-01             python3 /home/ann/very/long/script.py --flag Nov 21 23:40
1003    ann     DONE  normal     subhost     hostB       ok         Nov 21 23:38
1004    ann     EXIT  normal     subhost     hostA       killed     Nov 21 23:38
`},
		{"noheader", jobsView{loc: time.UTC, noHeader: true}, `1001    ann     RUN   normal     subhost     2*hostA     toil_job_0 Nov 21 23:38
                                             hostB
1002    verylon PEND  verylongqu submission-             *py --flag Nov 21 23:40
1003    ann     DONE  normal     subhost     hostB       ok         Nov 21 23:38
1004    ann     EXIT  normal     subhost     hostA       killed     Nov 21 23:38
`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var b bytes.Buffer
			tc.v.writeDefault(&b, fixtureJobs())
			checkText(t, "bjobs", b.String(), tc.want)
		})
	}
}

func TestBjobsPending(t *testing.T) {
	var b bytes.Buffer
	jobsView{loc: time.UTC}.writePending(&b, fixtureJobs()[1:2])
	checkText(t, "bjobs -p", b.String(), `JOBID   USER    STAT  QUEUE      FROM_HOST   EXEC_HOST   JOB_NAME   SUBMIT_TIME
1002    verylon PEND  verylongqu submission-             *py --flag Nov 21 23:40
 New job is waiting for scheduling;
 Job slot limit reached: 2 hosts;
 Not specified in job submission: 1 host;
`)
}

func TestBjobsLong(t *testing.T) {
	var b bytes.Buffer
	jobsView{loc: time.UTC}.writeLong(&b, fixtureJobs())
	checkText(t, "bjobs -l", b.String(), `
Job <1001>, Job Name <toil_job_0>, User <ann>, Project <default>, Status <RUN>, Queue <normal>, Command <_toil_worker root file:/js>
Mon Nov 21 23:38:02: Submitted from host <subhost>, CWD </home/ann>, 3 Task(s), Output File <out.%J>, Requested Resources <select[mem>200MB] rusage[mem=200MB]>;

 RUNLIMIT
 60.0 min

 MEMLIMIT
 2147M
Mon Nov 21 23:39:02: Started 3 Task(s) on Host(s) <2*hostA> <hostB>, Allocated 3 Slot(s) on Host(s) <2*hostA> <hostB>, Execution CWD </home/ann>;

------------------------------------------------------------------------------

Job <1002>, Job Name <python3 /home/ann/very/long/script.py --flag>, User <verylongusername>, Project <default>, Status <PEND>, Queue <verylongqueuename>, Job Priority <10>, Command <python3 /home/ann/very/long/script.py --flag>
Mon Nov 21 23:40:02: Submitted from host <submission-host-01>, CWD </home/ann>;

 PENDING REASONS:
 New job is waiting for scheduling;
 Job slot limit reached: hostA, hostC;
 Not specified in job submission: hostB;

------------------------------------------------------------------------------

Job <1003>, Job Name <ok>, User <ann>, Project <default>, Status <DONE>, Queue <normal>, Command <true>
Mon Nov 21 23:38:02: Submitted from host <subhost>;
Mon Nov 21 23:38:03: Started 1 Task(s) on Host(s) <hostB>, Allocated 1 Slot(s) on Host(s) <hostB>;
Mon Nov 21 23:38:04: Done successfully. The CPU time used is 0.2 seconds.
Mon Nov 21 23:38:04: Completed <done>.

 MEMORY USAGE:
 MAX MEM: 13 Mbytes;

------------------------------------------------------------------------------

Job <1004>, Job Name <killed>, User <ann>, Project <default>, Status <EXIT>, Queue <normal>, Command <sleep 100;echo done>
Mon Nov 21 23:38:02: Submitted from host <subhost>;
Mon Nov 21 23:38:03: Started 1 Task(s) on Host(s) <hostA>, Allocated 1 Slot(s) on Host(s) <hostA>;
Mon Nov 21 23:38:32: Exited with exit code 143.
Mon Nov 21 23:38:32: Completed <exit>; TERM_OWNER: job killed by owner.

 EXCEPTION STATUS:  underrun

`)
}

func TestBjobsColumns(t *testing.T) {
	for _, tc := range []struct {
		name, spec string
		noHeader   bool
		jobs       []int // indexes into fixtureJobs
		want       string
	}{
		{"widths", "jobid:7 stat:-5 job_name:8 exit_code exit_reason delimiter='|'", false, []int{0, 1, 2, 3},
			`JOBID  | STAT|JOB_NAME|EXIT_CODE|EXIT_REASON
1001   |  RUN|*l_job_0|-|-
1002   | PEND|* --flag|-|-
1003   | DONE|ok      |-|-
1004   | EXIT|killed  |143|TERM_OWNER: job killed by owner
`},
		{"stat noheader", "stat", true, []int{2}, "DONE\n"},
		{"double-quoted delimiter", `JOBID STAT delimiter=","`, true, []int{2, 3}, "1003,DONE\n1004,EXIT\n"},
		{"usage", "jobid cpu_used max_mem", true, []int{2, 3}, "1003 0.2 second(s) 13 Mbytes\n1004 - -\n"},
		{"unlimited", "JOBID User exec_host start_time slots", false, []int{0, 1},
			`JOBID USER EXEC_HOST START_TIME SLOTS
1001 ann 2*hostA:hostB Nov 21 23:39 3
1002 verylongusername - - 1
`},
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
			checkText(t, "bjobs -o "+tc.spec, b.String(), tc.want)
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

func TestBjobsJSON(t *testing.T) {
	cols, _, err := parseJobColumns("user exit_code stat exit_reason pend_reason")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := writeJobsJSON(&b, cols, fixtureJobs()[1:4], []int64{7}, time.UTC); err != nil {
		t.Fatal(err)
	}
	checkText(t, "bjobs -json", b.String(), `{
  "COMMAND":"bjobs",
  "JOBS":4,
  "RECORDS":[
    {
      "USER":"verylongusername",
      "EXIT_CODE":"",
      "STAT":"PEND",
      "EXIT_REASON":"",
      "PEND_REASON":"New job is waiting for scheduling"
    },
    {
      "USER":"ann",
      "EXIT_CODE":"",
      "STAT":"DONE",
      "EXIT_REASON":"",
      "PEND_REASON":""
    },
    {
      "USER":"ann",
      "EXIT_CODE":"143",
      "STAT":"EXIT",
      "EXIT_REASON":"TERM_OWNER: job killed by owner",
      "PEND_REASON":""
    },
    {
      "ERROR":"Job <7> is not found"
    }
  ]
}
`)

	// The default fields, and every value a string, as parsers expect.
	b.Reset()
	if err := writeJobsJSON(&b, defaultJobColumns(), fixtureJobs()[:1], nil, time.UTC); err != nil {
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
	writeJobsJSON(&b, defaultJobColumns(), nil, nil, time.UTC)
	checkText(t, "bjobs -json (none)", b.String(), "{\n  \"COMMAND\":\"bjobs\",\n  \"JOBS\":0,\n  \"RECORDS\":[]\n}\n")
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
		if got := jobField("exit_code", &j, time.UTC); got != tc.want {
			t.Errorf("exit_code of %s/%d = %q, want %q", tc.state, tc.code, got, tc.want)
		}
	}
	j := api.Job{State: "EXIT", Term: "TERM_MEMLIMIT", ExitCode: 137}
	if got := jobField("exit_reason", &j, time.UTC); !strings.Contains(got, "TERM_MEMLIMIT") {
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
}

func TestBjobsLongExceptions(t *testing.T) {
	var b bytes.Buffer
	jobs := []api.Job{{ID: 7, Name: "sleepy", User: "ann", Queue: "watched", State: "RUN", Command: "sleep 9999",
		Slots: 1, FromHost: "subhost", ExecHosts: []string{"hostA"}, Submit: 1669073882, Start: 1669073942,
		Exceptions: "overrun idle"}}
	jobsView{loc: time.UTC}.writeLong(&b, jobs)
	checkText(t, "bjobs -l", b.String(), `
Job <7>, Job Name <sleepy>, User <ann>, Project <default>, Status <RUN>, Queue <watched>, Command <sleep 9999>
Mon Nov 21 23:38:02: Submitted from host <subhost>;
Mon Nov 21 23:39:02: Started 1 Task(s) on Host(s) <hostA>, Allocated 1 Slot(s) on Host(s) <hostA>;

 EXCEPTION STATUS:  overrun  idle

`)
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
	jobsView{loc: time.UTC}.writeLong(&b, jobs)
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
	want := `JOBID   USER    STAT  QUEUE      EXEC_HOST   JOB_NAME   CLUSTER     FORWARD_TIME
8       ann     RUN   send       westA@west  sleep 60   west        Nov 21 23:38
9       ann     PEND  send                   true       northern-cl Nov 21 23:38
`
	if got := b.String(); got != want {
		t.Errorf("bjobs -fwd:\ngot\n%swant\n%s", got, want)
	}
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
		if got := jobField(c.field, c.job, time.UTC); got != c.want {
			t.Errorf("%s of job %d = %q, want %q", c.field, c.job.ID, got, c.want)
		}
	}
}
