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

// TestFormatBegin compares the mail of bsub -B with its golden file.
func TestFormatBegin(t *testing.T) {
	f := reportCases()["killed"]
	got := formatBegin(f)
	path := filepath.Join("testdata", "report", "begin.golden")
	testkit.CheckFile(t, path, got)
	if !strings.HasPrefix(got, "Sender: LSF System <lsfadmin@node1>\nSubject: Job 4567: <./run.sh> in cluster <cluster1> Started\n\n") {
		t.Errorf("begin mail starts %q", got[:min(len(got), 120)])
	}
}

// TestReportTextIsTheFileReport checks that the mailed report is the one
// the -o file gets, without what introduces the output.
func TestReportTextIsTheFileReport(t *testing.T) {
	for name, f := range reportCases() {
		text, file := reportText(f), formatReport(f)
		if !strings.HasPrefix(file, text) {
			t.Errorf("%s: the file's report does not begin with the mailed one", name)
		}
		if strings.Contains(text, "The output (if any) follows") || strings.Contains(text, "PS:") {
			t.Errorf("%s: the mailed report holds the file's tail", name)
		}
	}
}

func TestOutputNote(t *testing.T) {
	if got, want := outputNote(jobRun{outFile: "/w/o"}), "Read file </w/o> for stdout and stderr output of this job.\n"; got != want {
		t.Errorf("outputNote = %q, want %q", got, want)
	}
	got := outputNote(jobRun{outFile: "/w/o", errFile: "/w/e"})
	want := "Read file </w/o> for stdout output of this job.\nRead file </w/e> for stderr output of this job.\n"
	if got != want {
		t.Errorf("outputNote = %q, want %q", got, want)
	}
}

// mailer writes a mail program that runs body, and returns its path.
func mailer(t *testing.T, body string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "mailer")
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestDeliver hands a message to a mail program: its arguments, its
// input and LSB_MAILSIZE are LSF's.
func TestDeliver(t *testing.T) {
	dir := t.TempDir()
	prog := mailer(t, `printf '%s\n' "$@" > `+dir+`/args; cat > `+dir+`/msg; echo $LSB_MAILSIZE > `+dir+`/size`)
	m := &Mail{Prog: prog, To: []string{"ann@example.org", "bob"}}
	msg := strings.Repeat("x", 3000)
	if err := deliver(m, "lsfadmin@node1", strings.NewReader(msg), int64(len(msg))); err != nil {
		t.Fatal(err)
	}
	for file, want := range map[string]string{
		"args": "-oi\n-F\nLSF System\n-f\nlsfadmin@node1\nann@example.org\nbob\n",
		"msg":  msg,
		"size": "3\n",
	} {
		got, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil || string(got) != want {
			t.Errorf("%s = %q (%v), want %q", file, got, err, want)
		}
	}
}

// TestDeliverRefusesOptions: a recipient that would be read as an
// option of the mail program is refused, and the program not run.
func TestDeliverRefusesOptions(t *testing.T) {
	dir := t.TempDir()
	prog := mailer(t, `printf '%s\n' "$@" > `+dir+`/args`)
	for _, to := range []string{"-X/tmp/log", "-C/etc/passwd", ""} {
		err := deliver(&Mail{Prog: prog, To: []string{"ann", to}}, "root@h", strings.NewReader("x"), 1)
		if err == nil || !strings.Contains(err.Error(), "bad mail address") {
			t.Errorf("deliver to %q: %v, want a bad mail address", to, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "args")); err == nil {
		t.Error("the mail program ran")
	}
}

// TestDeliverFailures: a missing program, one that fails, one that does
// not read its input and one that hangs each give an error, in bounded
// time, or none for the one that ends well without reading.
func TestDeliverFailures(t *testing.T) {
	old := mailTimeout
	mailTimeout = 500 * time.Millisecond
	defer func() { mailTimeout = old }()
	big := strings.Repeat("line\n", 200000)
	for _, c := range []struct {
		name, prog, want string
	}{
		{"missing", filepath.Join(t.TempDir(), "none"), "no such file"},
		{"fails", mailer(t, "echo relay refused >&2; exit 75"), "exit status 75: relay refused"},
		{"ignores input", mailer(t, "exit 0"), ""},
		{"hangs", mailer(t, "sleep 30"), "did not finish within"},
	} {
		t.Run(c.name, func(t *testing.T) {
			start := time.Now()
			err := deliver(&Mail{Prog: c.prog, To: []string{"ann"}}, "root@h", strings.NewReader(big), int64(len(big)))
			if took := time.Since(start); took > mailTimeout+mailWaitDelay+2*time.Second {
				t.Errorf("took %v", took)
			}
			switch {
			case c.want == "" && err != nil:
				t.Errorf("deliver: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Errorf("deliver: %v, want an error with %q", err, c.want)
			}
		})
	}
}

// TestMailThroughExecutor runs jobs that ask for mail: a job without -o
// has its report and output mailed, before its end is recorded; past
// LSB_MAILSIZE_LIMIT the output is left in the spool directory and the
// mail names the file; a mail program that fails leaves the job's end as
// it is, and says why in MailErr.
func TestMailThroughExecutor(t *testing.T) {
	dir := t.TempDir()
	h := newHarness(t, filepath.Join(dir, "jobs"))
	box := filepath.Join(dir, "box")
	keep := mailer(t, `cat > `+box)
	base := Spec{Queue: "normal", User: "u", Umask: -1, Cwd: dir, Hosts: []string{"hostA"}, UID: os.Getuid(), GID: os.Getgid()}
	rep := func(m *Mail) *Report {
		return &Report{Cluster: "c1", SubmitHost: "login1", Submitted: time.Now(), Sender: "admin",
			SpoolDir: filepath.Join(dir, "spool"), Mail: m}
	}

	s := base
	s.JobID, s.Command, s.Report = 1, "echo small", rep(&Mail{Prog: keep, To: []string{"u"}, End: true})
	h.start(s)
	if r := h.result(1); !r.Done() || r.MailErr != "" {
		t.Fatalf("job 1: %+v", r)
	}
	if got := fileText(t, box); !strings.HasPrefix(got, "From: LSF System <admin@hostA>\nTo: u\nSender: LSF System <admin@hostA>\n") ||
		!strings.HasSuffix(got, "The output (if any) follows:\n\nsmall\n") {
		t.Errorf("the mail of job 1:\n%s", got)
	}

	s = base
	s.JobID, s.Command = 2, "seq 1 2000"
	s.Report = rep(&Mail{Prog: keep, To: []string{"u"}, End: true, SizeLimitKB: 2})
	h.start(s)
	if r := h.result(2); !r.Done() || r.MailErr != "" {
		t.Fatalf("job 2: %+v", r)
	}
	got := fileText(t, box)
	m := regexp.MustCompile(`(?m)^The output is larger than LSB_MAILSIZE_LIMIT \(2 KB\): it is in file <(.+)>\.\n\z`).FindStringSubmatch(got)
	if m == nil || strings.Contains(got, "follows") || !strings.HasPrefix(m[1], filepath.Join(dir, "spool")+"/") {
		t.Fatalf("the mail of job 2:\n%s", got)
	}
	if kept := fileText(t, m[1]); !strings.HasPrefix(kept, "1\n2\n") || !strings.HasSuffix(kept, "\n2000\n") {
		t.Errorf("the kept output of job 2 is %d bytes, not seq's", len(kept))
	}

	s = base
	s.JobID, s.Command, s.Stdout = 3, "exit 5", "three.out"
	s.Report = rep(&Mail{Prog: mailer(t, "exit 1"), To: []string{"u"}, End: true, Begin: true})
	h.start(s)
	r := h.result(3)
	if r.ExitCode != 5 || !strings.Contains(r.MailErr, "cannot mail the job's start") || !strings.Contains(r.MailErr, "cannot mail the job report") {
		t.Errorf("job 3: %+v", r)
	}
	if got := fileText(t, filepath.Join(dir, "three.out")); !strings.Contains(got, "\nExited with exit code 5.\n") {
		t.Errorf("three.out:\n%s", got)
	}
}
