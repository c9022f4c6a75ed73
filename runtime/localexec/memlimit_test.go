package localexec

import (
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestParseProcRSS(t *testing.T) {
	// A command name with blanks and parentheses; rss (field 24) 2560.
	stat := "4242 (a (b) c) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 100 0 20 0 1 0 12345 104857600 2560 18446744073709551615"
	pgrp, pages, err := parseProcRSS(stat)
	if err != nil || pgrp != 4242 || pages != 2560 {
		t.Errorf("parseProcRSS = %d, %d, %v; want 4242, 2560", pgrp, pages, err)
	}
	for _, bad := range []string{"4242 (sh) S 1 4242", "4242 (sh) S 1 x 4242 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 1 1 1",
		"4242 (sh) S 1 4242 4242 0 -1 0 0 0 0 0 0 0 0 0 20 0 1 0 1 1 -5", "no name"} {
		if _, _, err := parseProcRSS(bad); err == nil {
			t.Errorf("parseProcRSS(%q): no error", bad)
		}
	}
}

func TestGroupRSS(t *testing.T) {
	self, err := readProcStat(0)
	if err != nil {
		t.Fatal(err)
	}
	kb, ok := jobRSS(pidRecord{JobPID: self.Pgrp})
	if !ok || kb <= 0 {
		t.Errorf("jobRSS of the test's own group = %d, %v; want some memory", kb, ok)
	}
	if kb, ok := jobRSS(pidRecord{JobPID: 1 << 30}); ok || kb != 0 {
		t.Errorf("jobRSS of a group with no process = %d, %v; want 0, false", kb, ok)
	}
}

// hold returns a command that holds mb megabytes of memory for a while:
// dd fills a buffer of that size from /dev/zero, then waits, blocked
// writing it to a pipe that sleep never reads.
func hold(mb, seconds string) string {
	return "dd if=/dev/zero bs=" + mb + "M count=1 iflag=fullblock status=none | sleep " + seconds
}

// TestMemLimit runs jobs that hold memory: over its limit a job is
// terminated, whole, and its Result says why; the limit is on the sum
// over the job's processes; a job under its limit runs to its end.
func TestMemLimit(t *testing.T) {
	h := newHarness(t, filepath.Join(t.TempDir(), "spool"))
	cwd := t.TempDir()
	jobs := map[int64]Spec{
		1: {JobID: 1, Command: hold("64", "60"), MemLimit: 16 << 10},
		// Two processes of 24 MB each, past a limit of 40 MB together.
		2: {JobID: 2, Command: hold("24", "60") + " & " + hold("24", "60") + "; wait", MemLimit: 40 << 10},
		3: {JobID: 3, Command: hold("32", "3"), MemLimit: 256 << 10},
	}
	start := time.Now()
	pgids := map[int64]int{}
	for id, s := range jobs {
		s.Cwd, s.Umask, s.Stdout = cwd, -1, "/dev/null"
		h.start(s)
		pgid, ok := h.e.JobPID(id)
		if !ok {
			t.Fatalf("job %d is not running", id)
		}
		pgids[id] = pgid
	}
	got := map[int64]Result{}
	for range jobs {
		select {
		case r := <-h.results:
			got[r.JobID] = r
		case <-time.After(30 * time.Second):
			t.Fatalf("results so far %+v; the others did not come within 30 s", got)
		}
	}
	for _, id := range []int64{1, 2} {
		r := got[id]
		if !r.MemLimitExceeded || r.Done() || r.Signal == 0 || r.ExitCode != 128+r.Signal {
			t.Errorf("job %d over its limit: Result %+v, want it terminated by a signal, MemLimitExceeded", id, r)
		}
		if r.MaxRSS <= jobs[id].MemLimit {
			t.Errorf("job %d: MaxRSS %d KB, want more than its limit %d KB", id, r.MaxRSS, jobs[id].MemLimit)
		}
		// Zombies no one reaps (here, orphans of an init that does not
		// reap) count as ended.
		if states := strings.NewReplacer("Z", "", "X", "").Replace(string(groupStates(pgids[id]))); states != "" {
			t.Errorf("job %d: processes left in its group, states %q", id, states)
		}
		if since := r.End.Sub(start); since > 20*time.Second {
			t.Errorf("job %d ended %v after it started: its sleep ran on", id, since)
		}
	}
	if r := got[3]; !r.Done() || r.MemLimitExceeded || r.MaxRSS < 32<<10 {
		t.Errorf("job under its limit: Result %+v, want DONE with MaxRSS at least 32 MB", r)
	}
	st, err := readStatus(filepath.Join(h.e.Dir(), "1.status"), 1)
	if err != nil || !st.MemLimitExceeded {
		t.Errorf("status file of job 1 = %+v, %v; want MemLimitExceeded recorded", st, err)
	}
}
