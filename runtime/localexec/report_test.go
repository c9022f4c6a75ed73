package localexec

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/lsfc/lsfc/internal/testkit"
)

// reportCases are job reports of fixed facts, each compared with its
// golden file in testdata/report.
func reportCases() map[string]reportFacts {
	submitted := time.Date(2026, 3, 3, 10, 0, 0, 0, time.UTC)
	start := submitted.Add(5 * time.Second)
	end := start.Add(299 * time.Second)
	spec := func(mod func(*Spec)) *Spec {
		s := &Spec{JobID: 4567, Name: "./run.sh", Queue: "normal", User: "bob", Command: "./run.sh input.txt",
			Stdout: "out.%J", Hosts: []string{"node1"},
			Report: &Report{Cluster: "cluster1", SubmitHost: "login1", Submitted: submitted, Sender: "lsfadmin"}}
		if mod != nil {
			mod(s)
		}
		return s
	}
	run := jobRun{start: start, cwd: "/home/bob/proj", home: "/home/bob",
		usage: usageSummary{samples: 4, maxKB: 120 << 10, sumKB: 402 << 10, maxProcs: 4, maxThreads: 10}}
	facts := func(s *Spec, r Result, run jobRun) reportFacts {
		r.End = end
		return reportFacts{spec: s, result: r, run: run, end: end, now: end, sender: "lsfadmin@node1"}
	}
	killed := run
	killed.term = "TERM_OWNER"
	short := run
	short.usage = usageSummary{}
	withErr := run
	withErr.errFile = "/home/bob/proj/err.txt"
	return map[string]reportFacts{
		"done": facts(spec(nil), Result{CPUTime: 298 * time.Second}, run),
		"exit": facts(spec(func(s *Spec) { s.Report.ReqMemMB = 4096 }), Result{ExitCode: 3, CPUTime: 2500 * time.Millisecond}, run),
		"killed": facts(spec(func(s *Spec) { s.Hosts = []string{"node1", "node1", "node2", "node3", "node3"} }),
			Result{ExitCode: 130, Signal: 2}, killed),
		"short":  facts(spec(nil), Result{MaxRSS: 2048}, short),
		"direct": facts(spec(func(s *Spec) { s.Report.Direct = true }), Result{}, withErr),
		"memlimit": facts(spec(func(s *Spec) { s.Name, s.Index = "arr", 3 }),
			Result{ExitCode: 137, MemLimitExceeded: true}, run),
	}
}

// TestFormatReport compares each report with its golden file.
func TestFormatReport(t *testing.T) {
	for name, f := range reportCases() {
		t.Run(name, func(t *testing.T) {
			got := formatReport(f)
			path := filepath.Join("testdata", "report", name+".golden")
			if testkit.Updating() {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("formatReport mismatch:\n--- want\n%s\n--- got\n%s", want, got)
			}
		})
	}
}

// TestReportInOutputFile runs jobs through the Executor and reads their
// -o files: the report above the output by default, after it with
// Direct, "Successfully completed." or "Exited with exit code N.", and
// the usage of a job that ran long enough to be read.
func TestReportInOutputFile(t *testing.T) {
	dir := t.TempDir()
	h := newHarness(t, filepath.Join(dir, "jobs"))
	rep := func(direct bool) *Report {
		return &Report{Cluster: "c1", SubmitHost: "login1", Submitted: time.Now(), Sender: "admin", Direct: direct,
			SpoolDir: filepath.Join(dir, "spool")}
	}
	base := Spec{Queue: "normal", User: "u", Umask: -1, Cwd: dir, Hosts: []string{"hostA"}, UID: os.Getuid(), GID: os.Getgid()}

	s := base
	s.JobID, s.Command, s.Stdout, s.Report = 1, "echo hello; sleep 1.2; echo bye", "one.out", rep(false)
	h.start(s)
	var spool string
	eventually(t, "the spool file", func() bool {
		path, ok := h.e.OutputFile(1)
		data, _, _ := ReadOutput(path, 0, 100)
		spool = path
		return ok && strings.HasPrefix(path, filepath.Join(dir, "spool", "lsfc.1.")) && string(data) == "hello\n"
	})
	if data, _ := os.ReadFile(filepath.Join(dir, "one.out")); len(data) != 0 {
		t.Errorf("one.out holds %q while the job runs, want nothing", data)
	}
	if r := h.result(1); !r.Done() {
		t.Fatalf("job 1: %+v", r)
	}
	if _, err := os.Stat(spool); !os.IsNotExist(err) {
		t.Errorf("the spool file of job 1 is left once its output is in one.out: %v", err)
	}
	got := fileText(t, filepath.Join(dir, "one.out"))
	for _, re := range []string{
		`(?m)\ASender: LSF System <admin@hostA>\nSubject: Job 1: <echo hello; sleep 1\.2; echo bye> in cluster <c1> Done\n`,
		`(?m)^Job was executed on host\(s\) <hostA>, in queue <normal>, as user <u> in cluster <c1> at `,
		`(?m)^<` + regexp.QuoteMeta(dir) + `> was used as the working directory\.$`,
		`(?m)^Successfully completed\.$`,
		`(?m)^    Max Processes :\s+[1-9]\d*$`,
		`(?m)^    Run time :\s+1 sec\.$`,
		`(?s)The output \(if any\) follows:\n\nhello\nbye\n\z`,
	} {
		if !regexp.MustCompile(re).MatchString(got) {
			t.Errorf("one.out does not match %q:\n%s", re, got)
		}
	}

	s = base
	s.JobID, s.Command, s.Stdout, s.Stderr, s.Report = 2, "echo out; echo err >&2; exit 3", "two.out", "two.err", rep(true)
	h.start(s)
	if r := h.result(2); r.ExitCode != 3 {
		t.Fatalf("job 2: %+v", r)
	}
	got = fileText(t, filepath.Join(dir, "two.out"))
	if !strings.HasPrefix(got, "out\nSender: LSF System <admin@hostA>\n") || !strings.Contains(got, "\nExited with exit code 3.\n") ||
		!strings.HasSuffix(got, "Read file <"+filepath.Join(dir, "two.err")+"> for stderr output of this job.\n\n") ||
		strings.Contains(got, "The output (if any) follows") {
		t.Errorf("two.out, with Direct:\n%s", got)
	}
	if got := fileText(t, filepath.Join(dir, "two.err")); got != "err\n" {
		t.Errorf("two.err = %q, want %q", got, "err\n")
	}

	// A -e file of its own is spooled too, and filled once the job ends.
	s = base
	gate := filepath.Join(dir, "gate")
	s.JobID, s.Command, s.Stdout, s.Stderr, s.Report = 4, "echo out; echo err >&2; while ! test -e "+gate+"; do sleep 0.05; done",
		"four.out", "four.err", rep(false)
	h.start(s)
	eventually(t, "job 4's output", func() bool {
		path, _ := h.e.OutputFile(4)
		data, _, _ := ReadOutput(path, 0, 100)
		return string(data) == "out\n"
	})
	if got := fileText(t, filepath.Join(dir, "four.err")); got != "" {
		t.Errorf("four.err holds %q while the job runs, want nothing", got)
	}
	if err := os.WriteFile(gate, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	h.result(4)
	if got := fileText(t, filepath.Join(dir, "four.err")); got != "err\n" {
		t.Errorf("four.err = %q once the job ended, want %q", got, "err\n")
	}
	if got := fileText(t, filepath.Join(dir, "four.out")); !strings.HasSuffix(got, "follows:\n\nout\n\n\nPS:\n\nRead file <"+filepath.Join(dir, "four.err")+"> for stderr output of this job.\n\n") {
		t.Errorf("four.out:\n%s", got)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "spool", "*")); len(left) != 0 {
		t.Errorf("spool files left: %v", left)
	}

	s = base
	s.JobID, s.Command, s.Stdout, s.Report = 3, "sleep 30", "three.out", rep(false)
	h.start(s)
	if err := h.e.NoteTerm(3, "TERM_OWNER"); err != nil {
		t.Fatal(err)
	}
	if err := h.e.Kill(3); err != nil {
		t.Fatal(err)
	}
	h.result(3)
	got = fileText(t, filepath.Join(dir, "three.out"))
	if !regexp.MustCompile(`\nTERM_OWNER: job killed by owner\.\nExited with exit code 1[34]\d\.\n`).MatchString(got) {
		t.Errorf("three.out, killed:\n%s", got)
	}
	// It wrote nothing: the report ends the file, and its empty spool
	// file goes all the same.
	if !strings.HasSuffix(got, "The output (if any) follows:\n\n") {
		t.Errorf("three.out, of a job that wrote nothing, does not end with its report:\n%s", got)
	}
	if left, _ := filepath.Glob(filepath.Join(dir, "spool", "*")); len(left) != 0 {
		t.Errorf("spool files left: %v", left)
	}
}

func fileText(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestParseProcUsage reads the threads and resident set of a stat line.
func TestParseProcUsage(t *testing.T) {
	stat := "4242 (a (b) c) S 1 4242 4242 0 -1 4194304 100 0 0 0 5 3 0 0 20 0 7 0 12345 1000000 300 18446744073709551615"
	pgrp, threads, pages, err := parseProcUsage(stat)
	if err != nil || pgrp != 4242 || threads != 7 || pages != 300 {
		t.Errorf("parseProcUsage = %d, %d, %d, %v; want 4242, 7, 300, nil", pgrp, threads, pages, err)
	}
	if _, _, _, err := parseProcUsage("4242 (x) S 1 4242"); err == nil {
		t.Error("parseProcUsage of a short stat: no error")
	}
}
