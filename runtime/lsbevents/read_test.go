package lsbevents

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/lsfc/lsfc/runtime/api"
)

// corpusDir returns ../shared/corpus/acct, skipping the test when it is
// absent.
func corpusDir(t testing.TB) string {
	dir := filepath.Join("..", "..", "..", "shared", "corpus", "acct")
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("no LSF event logs to read: %v", err)
	}
	return dir
}

func readFile(t testing.TB, path string) *Log {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	l := NewLog()
	if err := l.Read(f, filepath.Base(path)); err != nil {
		t.Fatal(err)
	}
	return l
}

// TestCorpus reads every real lsb.events file: none of its records is
// malformed, every job record is used, and the jobs come out with the
// project and the end the file gives them.
func TestCorpus(t *testing.T) {
	dir := corpusDir(t)
	for _, c := range []struct {
		file                  string
		jobs, records         int
		done, exit, unfinised int
	}{
		{"aws-samples__hpc-cost-simulator/test_files__LSFLogParser__lsb.events", 87, 485, 45, 42, 0},
		{"opensciencegrid__gratia-probe/pbs-lsf__test__lsf-logdir__lsb.events.1", 1016, 4967, 953, 59, 4},
		{"opensciencegrid__gratia-probe/pbs-lsf__test__lsf-logdir__lsb.events", 150, 749, 149, 1, 0},
		{"LavaLite-Compute__lavalite/src__test__compactor__lsb.events", 10, 30, 0, 10, 0},
	} {
		t.Run(filepath.Base(c.file), func(t *testing.T) {
			l := readFile(t, filepath.Join(dir, c.file))
			if l.Malformed != 0 || len(l.Unknown) != 0 || l.Orphans != 0 {
				t.Errorf("malformed %d, unknown %v, orphans %d: %v", l.Malformed, l.Unknown, l.Orphans, l.Errors)
			}
			states := map[string]int{}
			for _, j := range l.Jobs() {
				states[j.State]++
				if j.Project != "default" {
					t.Errorf("job %d: project %q, want default", j.ID, j.Project)
				}
				if (j.State == "DONE" || j.State == "EXIT") && j.End < j.Submit {
					t.Errorf("job %d: ended at %d, before its submission at %d", j.ID, j.End, j.Submit)
				}
			}
			got := fmt.Sprintf("jobs %d records %d done %d exit %d other %d", len(l.Jobs()), l.Records,
				states["DONE"], states["EXIT"], len(l.Jobs())-states["DONE"]-states["EXIT"])
			want := fmt.Sprintf("jobs %d records %d done %d exit %d other %d", c.jobs, c.records, c.done, c.exit, c.unfinised)
			if got != want {
				t.Errorf("got %s, want %s", got, want)
			}
		})
	}
}

// TestCorpusJob checks one LSF 10.1 job field by field: a job of 2 slots
// that ran on one host and ended DONE.
func TestCorpusJob(t *testing.T) {
	l := readFile(t, filepath.Join(corpusDir(t), "aws-samples__hpc-cost-simulator/test_files__LSFLogParser__lsb.events"))
	var j *Job
	for _, x := range l.Jobs() {
		if x.ID == 388 {
			j = x
		}
	}
	if j == nil {
		t.Fatal("no job 388")
	}
	host := "ip-10-30-66-253.eu-west-1.compute.internal"
	want := api.JobHistory{ID: 388, User: "simuser", Project: "default", Queue: "sender", Command: "/tools/3g.py",
		FromHost: "ip-10-30-14-225.eu-west-1.compute.internal", Cwd: "/tools", Slots: 2, Submit: 1644827081, State: "DONE",
		Events: []api.HistoryEvent{
			{At: 1644827081, Kind: api.EventSubmit, Text: "sender"},
			{At: 1644827081, Kind: api.EventStart, Hosts: []string{host, host}, Slots: 2, Text: "select[type == any] order[r15s:pg] "},
			{At: 1644827082, Kind: api.EventRunning, Pid: 28816},
			{At: 1644827105, Kind: api.EventDone, CPU: 5.4313},
			{At: 1644827105, Kind: api.EventPostDone},
		}}
	if diff := cmp.Diff(want, j.History()); diff != "" {
		t.Errorf("job 388 mismatch (-want +got):\n%s", diff)
	}
	if j.Slots != 2 || j.Start != 1644827081 || j.End != 1644827105 || j.MemLimit != -1 || j.RunLimit != -1 {
		t.Errorf("job 388: slots %d start %d end %d -M %d -W %d", j.Slots, j.Start, j.End, j.MemLimit, j.RunLimit)
	}
}

// newRecord is a JOB_NEW of LSF 10.1 with the fields given, the others
// as LSF writes them when not set.
func newRecord(at, id int64, opts int, slots int, user, queue, resReq, name, cmd string, mem, run int64) string {
	lim := make([]string, nLimits)
	for i := range lim {
		lim[i] = "-1"
	}
	lim[limitMem], lim[limitRun] = fmt.Sprint(mem), fmt.Sprint(run)
	return fmt.Sprintf(`"JOB_NEW" "10.108" %d %d 1501 %d %d %d 0 0 -65535 0 0 %q %s "" 1.00 2 %q %q "hostA" "/home/%s" "" "" "" "" "/home/%s" "%d.%d" 0 "" "" %q %q 0 "" "proj" %d "X86_64" "" "grp" "" "" 7184 0`,
		at, id, opts, slots, at, user, strings.Join(lim, " "), queue, resReq, user, user, at, id, name, cmd, slots)
}

// TestHistory reads records of every kind the histories use, and bad
// lines, which are reported and skipped.
func TestHistory(t *testing.T) {
	lines := []string{
		"#80",
		newRecord(100, 1, subQueue|subExclusive, 4, "alice", "normal", "select[mem>100]", "sim", "sleep 60", 2048, 3600),
		`"JOB_MODIFY2" "10.108" 105 "1" 262144 0 0 0 1501 "alice" 0 2 8 0 0 0 0 "" "" 0 "rusage[mem=10]" -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 "" ""`,
		`"JOB_SWITCH" "10.108" 106 1501 1 "short" 0 "alice"`,
		`"JOB_MOVE" "10.108" 107 1501 1 1 1 0 "alice"`,
		`"JOB_START" "10.108" 110 1 4 0 0 1.0 2 "hostA" "hostA" "" "" 0 "" 0 "" 2147483647 0 "select[mem>100] " "" -1`,
		`"JOB_START_ACCEPT" "10.108" 111 1 4242 4242 0 "" -1`,
		`"JOB_STATUS" "10.108" 120 1 16 0 0 0.0 0 0 0 0 0`,
		`"JOB_STATUS" "10.108" 130 1 4 0 0 0.0 0 0 0 0 0`,
		`"JOB_SIGNAL" "10.108" 140 1 1501 1 "KILL" 0 "alice"`,
		`"JOB_STATUS" "10.108" 141 1 32 0 0 1.5 141 0 33280 0 14`,
		`"JOB_CLEAN" "10.108" 200 1 0`,
		`"JOB_NEW" "10.108" 150 2 "unclosed`,
		`"JOB_STATUS" "10.108" 151 x`,
		`"JOB_STATUS" "10.108" 152 9 64 0 0 0.0 0 0 0 0 0`,
		`"SOMETHING_NEW" "10.108" 153 1 2 3`,
		newRecord(160, 3, 0, 1, "bob", "normal", "", "arr[1-3]", "true", -1, -1),
		`"JOB_START" "10.108" 161 3 4 0 0 1.0 1 "hostB" "" "" 0 "" 2 "" 2147483647 0 "" "" -1`,
		`"JOB_STATUS" "10.108" 170 3 64 0 0 0.0 0 0 0 2 0`,
	}
	l := NewLog()
	if err := l.Read(strings.NewReader(strings.Join(lines, "\n")+"\n"), "lsb.events"); err != nil {
		t.Fatal(err)
	}
	var errs []string
	for _, e := range l.Errors {
		errs = append(errs, e.Error())
	}
	wantErrs := []string{
		"lsb.events:13: string opened at column 26 is never closed",
		`lsb.events:14: JOB_STATUS: field 1 (jobId) is "x", not an integer`,
	}
	if diff := cmp.Diff(wantErrs, errs); diff != "" {
		t.Errorf("errors mismatch (-want +got):\n%s", diff)
	}
	if l.Unknown["SOMETHING_NEW"] != 1 || l.Orphans != 1 || l.Passed["JOB_CLEAN"] != 1 {
		t.Errorf("unknown %v, orphans %d, passed %v", l.Unknown, l.Orphans, l.Passed)
	}
	jobs := l.Jobs()
	if len(jobs) != 2 {
		t.Fatalf("got %d jobs, want 2", len(jobs))
	}
	j := jobs[0]
	if j.Queue != "short" || j.SubmitQueue != "normal" || j.ResReq != "rusage[mem=10]" || j.Slots != 8 || !j.Exclusive ||
		j.MemLimit != 2048 || j.RunLimit != 3600 || j.State != "EXIT" || j.ExitCode != 130 || j.Start != 110 || j.End != 141 {
		t.Errorf("job 1: %+v", *j)
	}
	var kinds []string
	for _, e := range j.Events {
		kinds = append(kinds, e.Kind+":"+e.State+e.Text)
	}
	want := []string{"submit:normal", `modify:-n 8 -R "rusage[mem=10]"`, "switch:short", "move:top", "start:select[mem>100] ",
		"running:", "suspend:USUSP", "resume:RUN", "signal:KILL", "exit:TERM_OWNER"}
	if diff := cmp.Diff(want, kinds); diff != "" {
		t.Errorf("job 1 history mismatch (-want +got):\n%s", diff)
	}
	e := jobs[1]
	if e.ID != 3 || e.Index != 2 || e.Name != "arr[2]" || e.State != "DONE" || e.Start != 161 || e.End != 170 {
		t.Errorf("array element: %+v", *e)
	}
}
