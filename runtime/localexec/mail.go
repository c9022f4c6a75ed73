package localexec

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// A Mail asks the wrapper to mail the job's user, as LSF's execution
// daemon does: when the job starts (bsub -B) and its job report when it
// ends (bsub -N and -Ne, and every job without a -o file, whose output
// the report carries).
type Mail struct {
	// Prog is the mail program (lsf.conf's LSB_MAILPROG). It is run as
	//
	//	Prog -oi -F "LSF System" -f SENDER RECIPIENT...
	//
	// with the message, headers first, on its standard input, ended by
	// end-of-file; LSB_MAILSIZE in its environment is the message's
	// size in KB.
	Prog string
	// To are the recipients' addresses.
	To []string
	// Begin mails when the job starts; End mails its report when it
	// ends, and ExitOnly only when it ends in EXIT.
	Begin    bool `json:",omitempty"`
	End      bool `json:",omitempty"`
	ExitOnly bool `json:",omitempty"`
	// SizeLimitKB is LSB_MAILSIZE_LIMIT: the output of a job without a
	// -o file whose report mail would be larger is left in a file of the
	// spool directory (Report.SpoolDir, else the job user's
	// $HOME/.lsbatch), which the mail names; 0 for no limit.
	SizeLimitKB int64 `json:",omitempty"`
}

// mailTimeout bounds how long the wrapper waits for the mail program:
// one that hangs is killed, and the job's end recorded all the same. The
// tests shorten it.
var mailTimeout = time.Minute

// mailWaitDelay is how long the wrapper waits, once the mail program is
// killed or has exited, for whatever it left holding its pipes.
const mailWaitDelay = 5 * time.Second

// mail returns the job's mail request, nil for none.
func (s *Spec) mail() *Mail {
	if s.Report == nil || s.Report.Mail == nil || s.Report.Mail.Prog == "" || len(s.Report.Mail.To) == 0 {
		return nil
	}
	return s.Report.Mail
}

// deliver hands one message to the mail program. The program runs in a
// process group of its own, killed with whatever it started when it
// outlives mailTimeout; size is the message's length in bytes.
func deliver(m *Mail, sender string, msg io.Reader, size int64) error {
	// A recipient that begins with '-' would be an option of the mail
	// program, which the wrapper runs with its own privileges.
	for _, to := range m.To {
		if to == "" || strings.HasPrefix(to, "-") {
			return fmt.Errorf("bad mail address %q: an address cannot be empty or begin with '-'", to)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), mailTimeout)
	defer cancel()
	args := append([]string{"-oi", "-F", "LSF System", "-f", sender}, m.To...)
	cmd := exec.CommandContext(ctx, m.Prog, args...)
	cmd.Stdin = msg
	cmd.Env = append(os.Environ(), "LSB_MAILSIZE="+strconv.FormatInt((size+1023)/1024, 10))
	cmd.Dir = "/"
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = mailWaitDelay
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &limitedWriter{w: &out, n: 512}, &limitedWriter{w: &out, n: 512}
	err := cmd.Run()
	switch {
	case ctx.Err() != nil:
		return fmt.Errorf("mail program %s did not finish within %v: killed", m.Prog, mailTimeout)
	case err != nil && errors.Is(err, exec.ErrWaitDelay):
		return nil
	case err != nil:
		if text := strings.TrimSpace(out.String()); text != "" {
			return fmt.Errorf("mail program %s: %v: %s", m.Prog, err, text)
		}
		return fmt.Errorf("mail program %s: %v", m.Prog, err)
	}
	return nil
}

// A limitedWriter keeps the first n bytes written to it and drops the
// rest, for the mail program's messages.
type limitedWriter struct {
	w io.Writer
	n int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if l.n > 0 {
		k := min(len(p), l.n)
		l.w.Write(p[:k])
		l.n -= k
	}
	return len(p), nil
}

// mailHeader returns the header lines a job mail begins with, before the
// report's own Sender and Subject lines.
func mailHeader(m *Mail, sender string) string {
	return fmt.Sprintf("From: LSF System <%s>\nTo: %s\n", sender, strings.Join(m.To, ", "))
}

// formatBegin returns the text of the mail bsub -B asks for, sent when
// the job starts: the report's header and its story up to its start.
func formatBegin(f reportFacts) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Sender: LSF System <%s>\n", f.sender)
	fmt.Fprintf(&b, "Subject: Job %s: <%s> in cluster <%s> Started\n\n", reportLabel(f.spec.outputID(), f.spec.Index), reportJobName(f.spec), f.spec.Report.Cluster)
	writeStory(&b, f)
	fmt.Fprintf(&b, "Started at %s\n", reportTime(f.run.start))
	fmt.Fprintf(&b, "Notification reported at %s\n", reportTime(f.now))
	return b.String()
}

// mailBegin sends the mail of a job submitted with bsub -B, in the
// background; the function it returns waits for it and returns what
// went wrong ("" for nothing).
func (w *wrapper) mailBegin(s *Spec, start time.Time, home string) func() string {
	m := s.mail()
	if m == nil || !m.Begin {
		return func() string { return "" }
	}
	sender := senderOf(s)
	text := mailHeader(m, sender) + formatBegin(reportFacts{spec: s, run: jobRun{start: start, cwd: w.cwd, home: home}, now: time.Now(), sender: sender})
	done := make(chan error, 1)
	go func() {
		defer survive(s.JobID, "mail", func(err error) { done <- err })
		done <- deliver(m, sender, strings.NewReader(text), int64(len(text)))
	}()
	return func() string {
		if err := <-done; err != nil {
			return "cannot mail the job's start: " + err.Error()
		}
		return ""
	}
}

// mailEnd mails the job's report when the job asks for it: every job
// whose output has no -o file (the output follows the report, as LSF
// mails it), a job submitted with bsub -N, and one submitted with -Ne
// that ended in EXIT. It returns what went wrong ("" for nothing).
func (w *wrapper) mailEnd(s *Spec, r Result, run jobRun) string {
	m := s.mail()
	if m == nil || !m.End || (m.ExitOnly && r.Done()) {
		return ""
	}
	if run.term == "" && !r.Done() {
		run.term = w.noted()
	}
	sender := senderOf(s)
	f := reportFacts{spec: s, result: r, run: run, end: r.End, now: time.Now(), sender: sender}
	head := mailHeader(m, sender) + reportText(f)
	var parts []io.Reader
	var size int64
	switch {
	case s.Stdout == "" && s.Interactive == nil:
		head += "\nThe output (if any) follows:\n\n"
		if out, err := os.Open(w.path(outExt)); err == nil {
			defer out.Close()
			if fi, err := out.Stat(); err == nil {
				size = fi.Size()
			}
			parts = append(parts, out)
			if m.SizeLimitKB > 0 && size+int64(len(head)) > m.SizeLimitKB*1024 {
				if kept, err := w.keepOutput(s, out); err == nil {
					head = strings.TrimSuffix(head, "\nThe output (if any) follows:\n\n")
					head += fmt.Sprintf("\nThe output is larger than LSB_MAILSIZE_LIMIT (%d KB): it is in file <%s>.\n", m.SizeLimitKB, kept)
					parts, size = nil, 0
				} else {
					fmt.Fprintf(os.Stderr, "%s: job %d: cannot keep the output past LSB_MAILSIZE_LIMIT: %v: it is mailed\n", StarterName, w.id, err)
					out.Seek(0, io.SeekStart)
				}
			}
		}
		if run.errFile != "" {
			parts = append(parts, strings.NewReader(fmt.Sprintf("\n\nPS:\n\nRead file <%s> for stderr output of this job.\n\n", run.errFile)))
		}
	case s.Stdout != "":
		head += "\n" + outputNote(run)
	}
	size += int64(len(head))
	if err := deliver(m, sender, io.MultiReader(append([]io.Reader{strings.NewReader(head)}, parts...)...), size); err != nil {
		return "cannot mail the job report: " + err.Error()
	}
	return ""
}

// keepOutput copies the output of a job without a -o file, too large to
// mail, to a file of its own in the spool directory, made as the job's
// user, and returns its path.
func (w *wrapper) keepOutput(s *Spec, out *os.File) (string, error) {
	f := w.openSpool(s, jobUserOf(s, os.Geteuid()), "out")
	if f == nil {
		return "", errors.New("no spool directory takes it")
	}
	_, err := io.Copy(f, out)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// outputNote says, in a mailed report of a job with a -o file, where the
// job's output is.
func outputNote(run jobRun) string {
	out := run.outFile
	if run.errFile != "" {
		return fmt.Sprintf("Read file <%s> for stdout output of this job.\nRead file <%s> for stderr output of this job.\n", out, run.errFile)
	}
	return fmt.Sprintf("Read file <%s> for stdout and stderr output of this job.\n", out)
}

// joinMailErrors joins what went wrong with a job's mails.
func joinMailErrors(msgs ...string) string {
	var out []string
	for _, m := range msgs {
		if m != "" {
			out = append(out, m)
		}
	}
	return strings.Join(out, "; ")
}
