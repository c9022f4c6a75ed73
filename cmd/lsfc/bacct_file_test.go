package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/runtime/lsbacct"
)

// acctBlocks splits bacct -l output into its job blocks, by job id.
func acctBlocks(out string) map[string]string {
	blocks := map[string]string{}
	body, _, _ := strings.Cut(out, "\nSUMMARY:")
	for _, b := range strings.Split(body, "\nJob <") {
		id, _, ok := strings.Cut(b, ">")
		if ok && regexp.MustCompile(`^\d+$`).MatchString(id) {
			blocks[id] = "Job <" + strings.TrimSpace(b)
		}
	}
	return blocks
}

// TestBacctRealLSF reads real LSF 10.1 lsb.acct files and checks bacct -l
// against the output of LSF's own bacct -l over the same jobs (the
// corpus's accounting.lsb), job by job, byte for byte; and its summary's
// totals. The one record the publisher garbled (lsb.acct line 2) is
// reported with its file and line, and left out.
func TestBacctRealLSF(t *testing.T) {
	dir := testkit.CorpusDir(t, "acct/aws-samples__hpc-cost-simulator")
	want, err := os.ReadFile(filepath.Join(dir, "test_files__LSFLogParser__accounting.lsb"))
	if err != nil {
		t.Fatal(err)
	}
	acct := filepath.Join(dir, "test_files__LSFLogParser__lsb.acct")
	code, stdout, stderr := runLSF(t, map[string]string{"TZ": "UTC"}, "bacct", "-l", "-u", "all", "-f", acct, "-f", acct+".16",
		"-C", "2022/1/1/00:00,2022/2/21/23:59")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if stderr != "bacct: "+acct+`:2: execHosts: want a quoted string, got "100.0"`+"\n" {
		t.Errorf("stderr %q, want the garbled line 2 reported", stderr)
	}
	got, theirs := acctBlocks(stdout), acctBlocks(string(want))
	if len(got) != 86 {
		t.Errorf("bacct showed %d jobs, want the 86 good records", len(got))
	}
	for id, b := range got {
		if theirs[id] != b {
			t.Errorf("job %s:\n got: %s\nwant: %s", id, b, theirs[id])
		}
	}
	// LSF's summary counts job 387 too (45 done, 0.21 s of CPU).
	for _, line := range []string{
		" Total number of done jobs:      44      Total number of exited jobs:    42",
		" Maximum CPU time of a job:     5.4      Minimum CPU time of a job:     0.0",
		" Maximum wait time in queue:  586.0      Minimum wait time in queue:    0.0",
		" Maximum turnaround time:      1081      Minimum turnaround time:         0",
		" Maximum hog factor of a job:  0.26      Minimum hog factor of a job:  0.00",
		" Maximum expansion factor of a job:  147.00",
		" Maximum Run time of a job:     501      Minimum Run time of a job:       0",
		" Total throughput:             0.20 (jobs/hour)  during  438.31 hours",
		" Beginning time:       Feb  3 17:40      Ending time:          Feb 21 23:59",
	} {
		if !strings.Contains(stdout, line+"\n") || !strings.Contains(string(want), line[:30]) {
			t.Errorf("summary lacks %q:\n%s", line, stdout[strings.Index(stdout, "SUMMARY"):])
		}
	}
	if !strings.Contains(stdout, "  - completed between   Sat Jan  1 00:00:00 2022\n                  and   Mon Feb 21 23:59:00 2022\n") {
		t.Errorf("header lacks the -C interval:\n%s", stdout[:600])
	}
}

// TestBacctSelect writes an lsb.acct and checks which jobs each option
// selects, and that a bad line is reported and skipped.
func TestBacctSelect(t *testing.T) {
	day := time.Date(2026, 3, 2, 0, 0, 0, 0, time.UTC).Unix()
	mk := func(id int64, user, queue, project string, done bool, except int64, submit int64) *lsbacct.Record {
		r := &lsbacct.Record{JobID: id, UserName: user, Queue: queue, ProjectName: project, JStatus: lsbacct.StatusExit,
			ExceptMask: except, SubmitTime: submit, StartTime: submit + 10, EventTime: submit + 100,
			ExecHosts: []string{"hostA"}, Command: "run", ExitStatus: 1 << 8, Rusage: lsbacct.Rusage{Utime: 2}}
		if done {
			r.JStatus, r.ExitStatus = lsbacct.StatusDone, 0
		}
		return r
	}
	recs := []*lsbacct.Record{
		mk(1, "ann", "normal", "default", true, 0, day+3600),
		mk(2, "bob", "normal", "p1", false, lsbacct.ExceptOverrun, day+7200),
		mk(3, "ann", "short", "p1", false, 0, day+86400+3600),
		mk(4, "bob", "short", "default", true, lsbacct.ExceptIdle, day+2*86400),
	}
	var b []byte
	for i, r := range recs {
		b = lsbacct.Append(b, r)
		if i == 1 {
			b = append(b, "\"JOB_FINISH\" \"10.108\" 5 \"broken\n"...)
		}
	}
	path := filepath.Join(t.TempDir(), "lsb.acct")
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
	jobs := func(out string) []string {
		var ids []string
		for _, m := range regexp.MustCompile(`(?m)^Job <(\d+)>`).FindAllStringSubmatch(out, -1) {
			ids = append(ids, m[1])
		}
		return ids
	}
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{[]string{"-u", "all"}, []string{"1", "2", "3", "4"}},
		{[]string{"-u", "ann"}, []string{"1", "3"}},
		{[]string{"-u", "ann bob", "-q", "short"}, []string{"3", "4"}},
		{[]string{"-u", "all", "-P", "p1"}, []string{"2", "3"}},
		{[]string{"-u", "all", "-d"}, []string{"1", "4"}},
		{[]string{"-u", "all", "-e"}, []string{"2", "3"}},
		{[]string{"-u", "all", "-x"}, []string{"2", "4"}},
		{[]string{"-u", "all", "-m", "hostB"}, nil},
		{[]string{"-u", "all", "-S", "2026/3/2,2026/3/2"}, []string{"1", "2"}},
		{[]string{"-u", "all", "-S", "2026/3/3/00:00,"}, []string{"3", "4"}},
		{[]string{"-u", "all", "-C", ",3/2/02:00"}, []string{"1"}},
		{[]string{"-u", "all", "-D", "2026/3/4,."}, []string{"4"}},
		{[]string{"3", "1"}, []string{"1", "3"}},
	} {
		args := append([]string{"bacct", "-b", "-f", path}, tc.args...)
		code, stdout, stderr := runLSF(t, map[string]string{"TZ": "UTC"}, args...)
		if code != 0 || stderr != "bacct: "+path+`:3: jobId: string "\"broken" is not closed`+"\n" {
			t.Errorf("%v: exit %d, stderr %q", tc.args, code, stderr)
		}
		if got := jobs(stdout); !slices.Equal(got, tc.want) {
			t.Errorf("%v: jobs %v, want %v", tc.args, got, tc.want)
		}
	}
	code, stdout, _ := runLSF(t, map[string]string{"TZ": "UTC"}, "bacct", "-l", "-x", "-u", "all", "-f", path, "2")
	if code != 0 || !strings.Contains(stdout, "\nEXCEPTION STATUS:  overrun\n") || !strings.Contains(stdout, "  - with an exception") {
		t.Errorf("bacct -l -x 2: exit %d:\n%s", code, stdout)
	}
	code, _, stderr := runLSF(t, nil, "bacct", "-f", path, "-u", "all", "9")
	if code != exitLSF || stderr != "bacct: "+path+`:3: jobId: string "\"broken" is not closed`+"\nJob <9>: No matching job found\n" {
		t.Errorf("bacct -f FILE 9: exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = runLSF(t, nil, "bacct", "-f", filepath.Join(t.TempDir(), "none"))
	if code == 0 || !strings.Contains(stderr, "no such file") {
		t.Errorf("bacct -f on a missing file: exit %d, stderr %q", code, stderr)
	}
	for _, bad := range []string{"3/2", "2026/13/1,", "1/2/25:00,", "3/3,3/1"} {
		if code, _, stderr := runLSF(t, nil, "bacct", "-f", path, "-C", bad); code != exitUsage || !strings.Contains(stderr, "-C:") {
			t.Errorf("-C %s: exit %d, stderr %q; want a usage error", bad, code, stderr)
		}
	}
}
