package main

import (
	"bytes"
	"strings"
	"testing"
	"time"
)

// TestWriteAccounting checks bacct -l's layout for a job that ended
// DONE and one killed by its owner, as Toil's fallback reads them
// ("Completed <done>", "Completed <exit>").
func TestWriteAccounting(t *testing.T) {
	jobs := fixtureJobs()
	for _, tc := range []struct {
		job  int
		want string
	}{
		{2, `
Job <1003>, Job Name <ok>, User <ann>, Project <default>, Status <DONE>, Queue <normal>, Command <true>
Mon Nov 21 23:38:02: Submitted from host <subhost>, CWD <>;
Mon Nov 21 23:38:03: Dispatched 1 Task(s) on Host(s) <hostB>;
Mon Nov 21 23:38:04: Completed <done>.

Summary of time in seconds spent in various states:
  CPU_T      WAIT       TURNAROUND RUN        EXIT_CODE  MAX_MEM
  0.25       1          2          1          0          13 Mbytes
`},
		{3, `
Job <1004>, Job Name <killed>, User <ann>, Project <default>, Status <EXIT>, Queue <normal>, Command <sleep 100;echo done>
Mon Nov 21 23:38:02: Submitted from host <subhost>, CWD <>;
Mon Nov 21 23:38:03: Dispatched 1 Task(s) on Host(s) <hostA>;
Mon Nov 21 23:38:32: Completed <exit>; TERM_OWNER: job killed by owner.

Summary of time in seconds spent in various states:
  CPU_T      WAIT       TURNAROUND RUN        EXIT_CODE  MAX_MEM
  0.00       1          30         29         143        -
`},
	} {
		var b bytes.Buffer
		writeAccounting(&b, &jobs[tc.job], true, time.UTC)
		if got := b.String(); got != tc.want {
			t.Errorf("bacct -l %d:\n got: %q\nwant: %q", jobs[tc.job].ID, got, tc.want)
		}
	}
}

// TestBacct runs bacct against the fixture daemon: -l for jobs that
// ended DONE and EXIT (killed by their owner), and for an unknown id,
// which is reported on standard error with exit code 255 while the
// others are still shown.
func TestBacct(t *testing.T) {
	_, dir := startFakeServe(t)
	for _, tc := range []struct {
		name       string
		ids        []string
		code       int
		stdout     []string // lines stdout must hold, in order
		stderr     string
		records    int // jobs shown
		separators int
	}{
		{"done", []string{"1003"}, 0, []string{"Job <1003>, Job Name <ok>, User <ann>, Project <default>, Status <DONE>",
			": Completed <done>.", "  0.25       1          2          1          0          13 Mbytes"}, "", 1, 0},
		{"exit, killed by its owner", []string{"1004"}, 0, []string{"Status <EXIT>",
			": Completed <exit>; TERM_OWNER: job killed by owner.", "143"}, "", 1, 0},
		{"unknown", []string{"404"}, exitLSF, nil, "Job <404>: No matching job found\n", 0, 0},
		{"known and unknown", []string{"1003", "404", "1004"}, exitLSF, []string{"Completed <done>.", "Completed <exit>"},
			"Job <404>: No matching job found\n", 2, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runLSF(t, nil, append([]string{"bacct", "--state", dir, "-l"}, tc.ids...)...)
			if code != tc.code || stderr != tc.stderr {
				t.Errorf("bacct -l %v: exit %d, stderr %q; want %d and %q", tc.ids, code, stderr, tc.code, tc.stderr)
			}
			rest := stdout
			for _, want := range tc.stdout {
				i := strings.Index(rest, want)
				if i < 0 {
					t.Fatalf("bacct -l %v: no %q (in order) in its output:\n%s", tc.ids, want, stdout)
				}
				rest = rest[i+len(want):]
			}
			if n := strings.Count(stdout, "\nJob <"); n != tc.records {
				t.Errorf("bacct -l %v showed %d jobs, want %d:\n%s", tc.ids, n, tc.records, stdout)
			}
			if n := strings.Count(stdout, strings.Repeat("-", 78)); n != tc.separators {
				t.Errorf("bacct -l %v: %d separator lines, want %d", tc.ids, n, tc.separators)
			}
		})
	}
	// Without ids, bacct sums up the daemon's lsb.acct, which holds
	// nothing yet.
	if code, stdout, stderr := runLSF(t, nil, "bacct", "--state", dir, "-l"); code != 0 || stderr != "" ||
		!strings.Contains(stdout, "Total number of done jobs:       0      Total number of exited jobs:     0") {
		t.Errorf("bacct -l without ids: exit %d, stderr %q, stdout:\n%s", code, stderr, stdout)
	}
}
