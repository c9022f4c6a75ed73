package localexec

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// A Report asks the wrapper for LSF's job report in the job's -o file:
// what the job was, where and how it ran, how it ended and what it used.
// The wrapper writes it once the job has ended and before it records the
// job's status, so that the -o file is whole by the time the job is seen
// finished.
//
// By default the job's output goes to a spool file while the job runs
// (in the job user's $HOME/.lsbatch, as LSF's temporary file; bpeek reads
// it, see OutputFile), and the -o file gets the report followed by "The
// output (if any) follows:" and the output, as LSF copies its temporary
// file once the job finishes; the spool file then goes. With Direct
// (lsf.conf's LSB_STDOUT_DIRECT=Y) the output goes to the -o file as the
// job runs and the report is appended after it. A job without a -o file
// has its report, followed by its output, mailed when Mail asks for it.
type Report struct {
	// Cluster is the cluster's name; SubmitHost the host the job was
	// submitted from; Submitted when.
	Cluster    string
	SubmitHost string
	Submitted  time.Time
	// Sender is who the report is from, as the "Sender:" line gives it
	// (the administrator's name); "" gives the wrapper's user.
	Sender string `json:",omitempty"`
	// ReqMemMB is the memory the job asked for in total (rusage[mem]),
	// in MB, 0 for none.
	ReqMemMB float64 `json:",omitempty"`
	// Direct is LSB_STDOUT_DIRECT: the output goes to the -o file as the
	// job runs and the report follows it.
	Direct bool `json:",omitempty"`
	// SpoolDir is JOB_SPOOL_DIR: the directory of the spool file, "" for
	// the job user's $HOME/.lsbatch, which is also used when SpoolDir
	// cannot be written.
	SpoolDir string `json:",omitempty"`
	// NoFile writes no report to the -o file: the job is interactive,
	// and its report is only mailed, when Mail asks for it.
	NoFile bool `json:",omitempty"`
	// Mail, when set, has the wrapper mail the job's user (see Mail).
	Mail *Mail `json:",omitempty"`
}

// spooled reports whether the job's output goes to the spool file while
// it runs, for the report to be written above it in the -o file.
func (s *Spec) spooled() bool {
	return s.Report != nil && s.Stdout != "" && !s.Report.Direct && !s.Report.NoFile
}

// spoolOutput gives the job a spool file for its output in place of the
// -o file out, which the wrapper keeps to compose once the job ends; an
// error file that is the output file becomes the spool too, and a -e file
// of its own gets a spool file of its own, copied to it once the job
// ends, as LSF buffers both. It returns the job's output and error files. As LSF's temporary file, the spool is
// in the job user's $HOME/.lsbatch, made as that user, so that a job's
// output fills its owner's disk rather than the daemon's; where the home
// cannot take it, it is the Executor's spool file.
func (w *wrapper) spoolOutput(s *Spec, u jobUser, out, errf *os.File) (stdout, stderr *os.File, err error) {
	spool, errSpool := w.openSpool(s, u, "out"), (*os.File)(nil)
	if spool == nil {
		if spool, err = openFile(w.path(outExt), os.O_WRONLY|os.O_CREATE|os.O_TRUNC|os.O_APPEND, 0o600); err != nil {
			return out, errf, fmt.Errorf("cannot open the output spool file: %v", err)
		}
		w.spool = w.path(outExt)
	} else {
		w.spool = spool.Name()
	}
	if errf != nil {
		if errSpool = w.openSpool(s, u, "err"); errSpool == nil {
			errSpool, err = openFile(w.path(errExt), os.O_WRONLY|os.O_CREATE|os.O_TRUNC|os.O_APPEND, 0o600)
			if err != nil {
				spool.Close()
				return out, errf, fmt.Errorf("cannot open the error spool file: %v", err)
			}
		}
		w.finalErr, w.errSpool = errf, errSpool.Name()
	}
	w.final = out
	if errSpool == nil {
		errSpool = spool
	}
	return spool, errSpool, nil
}

// openSpool opens a new spool file for the job's output (kind "out") or
// errors ("err") in JOB_SPOOL_DIR or else the job user's $HOME/.lsbatch,
// made as that user; nil when neither can take it.
func (w *wrapper) openSpool(s *Spec, u jobUser, kind string) *os.File {
	var spool *os.File
	var dirs []string
	if s.Report.SpoolDir != "" {
		dirs = append(dirs, s.Report.SpoolDir)
	}
	if u.home != "" {
		dirs = append(dirs, filepath.Join(u.home, ".lsbatch"))
	}
	for _, dir := range dirs {
		if spool != nil {
			break
		}
		u.do(func() error {
			if err := os.MkdirAll(dir, 0o700); err != nil {
				return err
			}
			// A name of its own: daemons of several clusters, and runs
			// of one job, may share the directory.
			fd, name, err := createTemp(dir, "lsfc."+reportLabel(s.JobID, s.Index)+".", "."+kind)
			if err == nil {
				spool = os.NewFile(uintptr(fd), name)
			}
			return err
		})
	}
	return spool
}

// closeFinal closes the kept -o and -e files of a job that did not run.
func (w *wrapper) closeFinal() {
	if w.final != nil {
		w.final.Close()
		w.final = nil
	}
	if w.finalErr != nil {
		w.finalErr.Close()
		w.finalErr = nil
	}
}

// separateErr returns the -e file when the job has one apart from its
// -o file, "" otherwise.
func (p jobPaths) separateErr() string {
	if p.stderr != "" && p.stderr != p.stdout {
		return p.stderr
	}
	return ""
}

// A jobRun is what the wrapper saw of the job for its report.
type jobRun struct {
	start   time.Time
	cwd     string
	home    string
	outFile string // the -o file, "" for none
	errFile string // the -e file when it is not the -o file
	term    string // how LSF ended the job (NoteTerm), "" when it was not
	usage   usageSummary
}

// writeReport writes the job's report, and its spooled output, to its -o
// file. A report that cannot be written is said on the wrapper's standard
// error: the job's end is recorded all the same.
func (w *wrapper) writeReport(s *Spec, r Result, run jobRun) {
	if s.Report == nil || s.Stdout == "" || s.Report.NoFile {
		return
	}
	defer w.copyErrors()
	out := w.final
	if out == nil {
		// Direct: the job wrote to the -o file itself; the report is
		// appended after its output.
		f, err := w.openFinal(s, run.cwd)
		if err != nil {
			fmt.Fprintf(os.Stderr, "%s: job %d: cannot write the job report: %v\n", StarterName, w.id, err)
			return
		}
		out = f
	}
	defer out.Close()
	if run.term == "" && !r.Done() {
		run.term = w.noted()
	}
	text := formatReport(reportFacts{spec: s, result: r, run: run, end: r.End, now: time.Now(), sender: senderOf(s)})
	if _, err := io.WriteString(out, text); err != nil {
		fmt.Fprintf(os.Stderr, "%s: job %d: cannot write the job report: %v\n", StarterName, w.id, err)
		return
	}
	if w.final == nil {
		return
	}
	spool, err := openFile(w.spool, os.O_RDONLY, 0)
	if err == nil {
		err = copyAll(out, spool)
		spool.Close()
	}
	if err == nil && w.spool != w.path(outExt) {
		os.Remove(w.spool)
	}
	if err == nil && run.errFile != "" {
		_, err = fmt.Fprintf(out, "\n\nPS:\n\nRead file <%s> for stderr output of this job.\n\n", run.errFile)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: job %d: cannot copy the job's output to its output file: %v\n", StarterName, w.id, err)
	}
}

// copyAll appends what the spool file src holds to dst. A job that wrote
// nothing, as many do, costs a stat: no copy is tried, and no buffer is
// taken for a dst the kernel cannot copy to directly (such as /dev/null).
func copyAll(dst, src *os.File) error {
	if fi, err := src.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() == 0 {
		return nil
	}
	_, err := io.Copy(dst, src)
	return err
}

// copyErrors copies the spooled errors of a job with a -e file of its own
// to that file, and closes it.
func (w *wrapper) copyErrors() {
	if w.finalErr == nil {
		return
	}
	defer w.finalErr.Close()
	spool, err := openFile(w.errSpool, os.O_RDONLY, 0)
	if err == nil {
		err = copyAll(w.finalErr, spool)
		spool.Close()
	}
	if err == nil && w.errSpool != w.path(errExt) {
		os.Remove(w.errSpool)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "%s: job %d: cannot copy the job's errors to its error file: %v\n", StarterName, w.id, err)
	}
}

// openFinal opens the -o file of a job whose output went there directly,
// for its report, as the job's user.
func (w *wrapper) openFinal(s *Spec, cwd string) (*os.File, error) {
	name := absIn(cwd, outputPath(s.Stdout, s.outputID(), s.Index, ".out"))
	u := jobUserOf(s, os.Geteuid())
	var f *os.File
	err := u.do(func() error {
		var err error
		// Not waiting for a reader, should the file be a FIFO.
		f, err = os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_APPEND|syscall.O_NONBLOCK, 0o666)
		return err
	})
	return f, err
}

// senderOf returns the "Sender:" address of a report: the administrator
// (or the wrapper's user) at the job's first host.
func senderOf(s *Spec) string {
	who := s.Report.Sender
	if who == "" {
		who = strconv.Itoa(os.Geteuid())
		if u, err := user.LookupId(who); err == nil {
			who = u.Username
		}
	}
	host := "localhost"
	if len(s.Hosts) > 0 {
		host = s.Hosts[0]
	} else if h, err := os.Hostname(); err == nil {
		host = h
	}
	return who + "@" + host
}

// reportFacts is what a report says.
type reportFacts struct {
	spec   *Spec
	result Result
	run    jobRun
	end    time.Time // when the job ended
	now    time.Time // when the report is written
	sender string
}

// reportTime is how a report writes a time, as ctime(3) does without its
// newline.
func reportTime(t time.Time) string { return t.Format(time.ANSIC) }

// formatReport returns the text of a job report as the -o file gets it:
// the report (reportText) and, for a spooled job, the line that
// introduces its output.
func formatReport(f reportFacts) string {
	text := reportText(f)
	if f.spec.Report.Direct {
		if f.run.errFile != "" {
			text += fmt.Sprintf("\nPS:\n\nRead file <%s> for stderr output of this job.\n\n", f.run.errFile)
		}
		return text
	}
	return text + "\nThe output (if any) follows:\n\n"
}

// reportJobName is the job as a report names it: its name, else its
// command, with its index for an element of a job array.
func reportJobName(s *Spec) string {
	jobName := s.Name
	if jobName == "" {
		jobName = s.Command
	}
	if s.Index > 0 && !strings.HasSuffix(jobName, "]") {
		jobName += "[" + strconv.Itoa(s.Index) + "]"
	}
	return jobName
}

// writeStory writes where the job came from and where it runs, as a
// report and the mail of its start tell it.
func writeStory(b *strings.Builder, f reportFacts) {
	s, rep := f.spec, f.spec.Report
	jobName := reportJobName(s)
	fmt.Fprintf(b, "Job <%s> was submitted from host <%s> by user <%s> in cluster <%s> at %s.\n",
		jobName, rep.SubmitHost, s.User, rep.Cluster, reportTime(rep.Submitted))
	hosts := hostCounts(s.Hosts)
	first := ""
	if len(hosts) > 0 {
		first = hosts[0]
	}
	fmt.Fprintf(b, "Job was executed on host(s) <%s>, in queue <%s>, as user <%s> in cluster <%s> at %s.\n",
		first, s.Queue, s.User, rep.Cluster, reportTime(f.run.start))
	for _, h := range hosts[min(1, len(hosts)):] {
		fmt.Fprintf(b, "%s<%s>\n", strings.Repeat(" ", len("Job was executed on host(s) ")), h)
	}
	if f.run.home != "" {
		fmt.Fprintf(b, "<%s> was used as the home directory.\n", f.run.home)
	}
	if f.run.cwd != "" {
		fmt.Fprintf(b, "<%s> was used as the working directory.\n", f.run.cwd)
	}
}

// reportText returns the text of a job report up to its resource usage
// summary: the mail header lines, the job's story, its end and what it
// used.
func reportText(f reportFacts) string {
	s, r, rep := f.spec, f.result, f.spec.Report
	var b strings.Builder
	end := "Done"
	if !r.Done() {
		end = "Exited"
	}
	fmt.Fprintf(&b, "Sender: LSF System <%s>\n", f.sender)
	fmt.Fprintf(&b, "Subject: Job %s: <%s> in cluster <%s> %s\n\n", reportLabel(s.outputID(), s.Index), reportJobName(s), rep.Cluster, end)
	writeStory(&b, f)
	fmt.Fprintf(&b, "Started at %s\n", reportTime(f.run.start))
	fmt.Fprintf(&b, "Terminated at %s\n", reportTime(f.end))
	fmt.Fprintf(&b, "Results reported at %s\n", reportTime(f.now))
	b.WriteString("\nYour job looked like:\n\n")
	rule := strings.Repeat("-", 60)
	fmt.Fprintf(&b, "%s\n# LSBATCH: User input\n%s\n%s\n\n", rule, strings.TrimRight(s.Command, "\n"), rule)
	if r.Done() {
		b.WriteString("Successfully completed.\n")
	} else {
		term := f.run.term
		if r.MemLimitExceeded {
			term = "TERM_MEMLIMIT"
		}
		if r.LimitTerm != "" {
			term = r.LimitTerm
		}
		if line := termText(term); line != "" {
			b.WriteString(line + "\n")
		}
		fmt.Fprintf(&b, "Exited with exit code %d.\n", r.ExitCode)
	}
	b.WriteString("\nResource usage summary:\n\n")
	u := f.run.usage
	maxMB := float64(max(u.maxKB, r.MaxRSS)) / 1024
	field := func(label, value string) {
		fmt.Fprintf(&b, "    %-45s%s\n", label+" :", value)
	}
	field("CPU time", fmt.Sprintf("%.2f sec.", r.CPUTime.Seconds()))
	memKnown := u.maxKB > 0 || r.MaxRSS > 0
	if memKnown {
		field("Max Memory", fmt.Sprintf("%d MB", int64(maxMB+0.5)))
	} else {
		field("Max Memory", "-")
	}
	if u.samples > 0 {
		field("Average Memory", fmt.Sprintf("%.2f MB", float64(u.sumKB)/float64(u.samples)/1024))
	} else {
		field("Average Memory", "-")
	}
	if rep.ReqMemMB > 0 {
		field("Total Requested Memory", fmt.Sprintf("%.2f MB", rep.ReqMemMB))
		if memKnown {
			field("Delta Memory", fmt.Sprintf("%.2f MB", rep.ReqMemMB-float64(int64(maxMB+0.5))))
		} else {
			field("Delta Memory", "-")
		}
	} else {
		field("Total Requested Memory", "-")
		field("Delta Memory", "-")
	}
	if u.samples > 0 && u.maxSwapKB > 0 {
		field("Max Swap", fmt.Sprintf("%d MB", (u.maxSwapKB+512)/1024))
	} else {
		field("Max Swap", "-")
	}
	if u.samples > 0 {
		field("Max Processes", strconv.Itoa(u.maxProcs))
		field("Max Threads", strconv.Itoa(u.maxThreads))
	} else {
		field("Max Processes", "-")
		field("Max Threads", "-")
	}
	field("Run time", fmt.Sprintf("%d sec.", int64(f.end.Sub(f.run.start).Seconds()+0.5)))
	field("Turnaround time", fmt.Sprintf("%d sec.", int64(f.end.Sub(rep.Submitted).Seconds()+0.5)))
	return b.String()
}

// reportLabel is a job's id as a report names it: "42", or "42[3]" for an
// element of a job array.
func reportLabel(id int64, index int) string {
	if index > 0 {
		return fmt.Sprintf("%d[%d]", id, index)
	}
	return strconv.FormatInt(id, 10)
}

// hostCounts returns the hosts of a slot list as a report lists them, in
// the order of their first slot: "hostA" for one slot, "4*hostA" for
// more.
func hostCounts(hosts []string) []string {
	var order []string
	count := map[string]int{}
	for _, h := range hosts {
		if count[h] == 0 {
			order = append(order, h)
		}
		count[h]++
	}
	out := make([]string, len(order))
	for i, h := range order {
		if n := count[h]; n > 1 {
			out[i] = fmt.Sprintf("%d*%s", n, h)
		} else {
			out[i] = h
		}
	}
	return out
}

// OutputFile returns the file a running job's output goes to as it runs,
// for bpeek: its -o file when it writes there directly, else the spool
// file; ok is false for a job the Executor does not run, or that did not
// start.
func (e *Executor) OutputFile(id int64) (path string, ok bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	j := e.jobs[id]
	if j == nil || !j.started || j.pids.Out == "" {
		return "", false
	}
	return j.pids.Out, true
}

// ErrorFile returns the file a running job's errors go to as it runs
// when they go apart from its output (it has a -e file of its own), for
// bpeek; ok is false otherwise, and for a job the Executor does not run
// or that did not start.
func (e *Executor) ErrorFile(id int64) (path string, ok bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	j := e.jobs[id]
	if j == nil || !j.started || j.pids.Err == "" {
		return "", false
	}
	return j.pids.Err, true
}

// readableBy reports whether the job's user may read the regular file
// path.
func readableBy(u jobUser, path string) bool {
	return u.do(func() error {
		f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
		if err != nil {
			return err
		}
		defer f.Close()
		if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
			return errors.New("not a regular file")
		}
		return nil
	}) == nil
}

// ReadOutput reads at most max bytes of a job's output file from offset,
// and returns them with the offset after them. A file not yet made, or
// one that is not a regular file (a FIFO, a device), reads as empty.
func ReadOutput(path string, offset, max int64) ([]byte, int64, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, offset, nil
	}
	if err != nil {
		return nil, offset, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, offset, nil
	}
	buf := make([]byte, max)
	n, err := f.ReadAt(buf, offset)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, offset, err
	}
	return buf[:n], offset + int64(n), nil
}

// NoteTerm records how job id is being ended (LSF's TERM_ reason, such as
// TERM_OWNER), for its report to say, before the job is killed. A job
// the Executor does not run is left as it is: a job that has ended keeps
// no file it did not leave itself.
func (e *Executor) NoteTerm(id int64, term string) error {
	if term == "" || strings.ContainsAny(term, "\n\x00") || len(term) > 64 {
		return nil
	}
	// The lock keeps the job from being reported ended, and its files
	// from going, while the note is written.
	e.mu.Lock()
	defer e.mu.Unlock()
	if j := e.jobs[id]; j == nil || !j.started {
		return fmt.Errorf("job %d is not running", id)
	}
	return replaceFile(e.path(id, termExt), []byte(term), 0o600, false)
}

// termText returns the line a report gives a job ended by LSF for a
// reason, "" for a reason it has no words for.
func termText(term string) string {
	what := map[string]string{
		"TERM_OWNER":         "job killed by owner",
		"TERM_ADMIN":         "job killed by root or LSF administrator",
		"TERM_FORCE_OWNER":   "job killed by owner without time for cleanup",
		"TERM_FORCE_ADMIN":   "job killed by root or LSF administrator without time for cleanup",
		"TERM_RUNLIMIT":      "job killed after reaching LSF run time limit",
		"TERM_MEMLIMIT":      "job killed after reaching LSF memory usage limit",
		"TERM_CPULIMIT":      "job killed after reaching LSF CPU usage limit",
		"TERM_DEADLINE":      "job killed after deadline expires",
		"TERM_SWAP":          "job killed after reaching LSF swap usage limit",
		"TERM_PROCESSLIMIT":  "job killed after reaching LSF process limit",
		"TERM_THREADLIMIT":   "job killed after reaching LSF thread limit",
		"TERM_PREEMPT":       "job killed after preemption",
		"TERM_REQUEUE_OWNER": "job killed and requeued by owner",
		"TERM_REQUEUE_ADMIN": "job killed and requeued by root or LSF administrator",
	}[term]
	if what == "" {
		return ""
	}
	return term + ": " + what + "."
}

// noted returns the reason NoteTerm recorded for the job, "" for none.
func (w *wrapper) noted() string {
	data, err := readFile(w.path(termExt))
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(data))
}
