package localexec

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/lsfc/lsfc/runtime/localexec/attach"
)

// An Interactive is how an interactive job (bsub -I, -Ip, -Is) reaches
// the bsub that submitted it.
//
// The wrapper connects to the first of Addrs that answers and proves it
// holds Token (package attach), before the job starts; a job whose
// submitter cannot be reached ends without running (exit code 1, the
// reason in Result.Err). The job's standard input comes from bsub; its
// output and errors go to bsub, except those sent to -o and -e files.
// With Pty the job runs in a new session on a pseudo-terminal of its own,
// whose window size follows bsub's terminal; otherwise on pipes. Signals
// bsub forwards reach the job's process group. When the connection is
// lost before the job ends (bsub killed, its host gone), the job is hung
// up: SIGHUP, then SIGKILL a moment later. The job's exit status goes to
// bsub once its status file is written.
type Interactive struct {
	// Mode is bsub's option without its dash: "I", "Ip" or "Is".
	Mode string
	// Addrs are the IP:port addresses bsub listens on, tried in order.
	Addrs []string
	// Token is bsub's secret for this job (attach.NewToken).
	Token string
	// Tty (bsub -tty) sends the job's output and errors to bsub as well
	// as to the -o and -e files it has.
	Tty bool
}

// Pty reports whether the job runs on a pseudo-terminal (-Ip, -Is).
func (in *Interactive) Pty() bool { return in.Mode == "Ip" || in.Mode == "Is" }

// Validate reports what is wrong with in; nil is valid (not interactive).
func (in *Interactive) Validate() error {
	switch {
	case in == nil:
		return nil
	case in.Mode != "I" && in.Mode != "Ip" && in.Mode != "Is":
		return fmt.Errorf("interactive mode %q is not I, Ip or Is", in.Mode)
	case len(in.Addrs) == 0 || len(in.Addrs) > attach.MaxAddrs:
		return fmt.Errorf("an interactive job needs 1 to %d addresses of its submitter, not %d", attach.MaxAddrs, len(in.Addrs))
	case !attach.ValidToken(in.Token):
		return errors.New("the interactive job's token is not 64 hex digits")
	}
	for _, a := range in.Addrs {
		if _, err := attach.ParseAddr(a); err != nil {
			return err
		}
	}
	return nil
}

// Timeouts of an interactive job's wrapper.
const (
	// dialSubmitter bounds each try to connect to an address of bsub,
	// and dialSubmitterAll all of them, well within the time Start waits
	// for the wrapper.
	dialSubmitter    = 3 * time.Second
	dialSubmitterAll = 10 * time.Second
	// drainOutput bounds the wait for the job's last output once it has
	// ended (a process it left in the background may hold its output
	// open).
	drainOutput = 2 * time.Second
	// hangupGrace is the pause between SIGHUP and SIGKILL when the
	// submitter is gone.
	hangupGrace = 2 * time.Second
)

// A session is an interactive job's connection to its submitter, held by
// its wrapper.
type session struct {
	id     int64          // the job's
	conn   *os.File       // the connection, to close
	rw     *attach.Stream // the sealed stream over it, for the frames
	pty    *os.File       // the pseudo-terminal's master side; nil without one
	stdin  *os.File       // the write end of the job's standard input, without a pty
	child  []*os.File     // the job's ends of its terminal or pipes, closed once it started
	wmu    sync.Mutex     // serialises frames to the connection
	output sync.WaitGroup
	done   chan struct{} // closed once the job has ended
	input  chan struct{} // closed when readInput returns
	pgid   int
	outs   []pump
}

// A pump copies one of the job's outputs to the connection, and to its
// -o or -e file with -tty (tee).
type pump struct {
	r    *os.File
	kind attach.Kind
	tee  *os.File
}

// attachJob connects an interactive job's wrapper to its submitter and
// sets cmd's standard input, output and error (those without -o or -e
// files) to a pseudo-terminal or to pipes. stdout and stderr are the
// job's -o and -e files as openOutputs opened them.
func attachJob(s *Spec, cmd *exec.Cmd, stdout, stderr *os.File) (*session, error) {
	in := s.Interactive
	conn, rw, err := attach.Dial(in.Addrs, in.Token, dialSubmitter, dialSubmitterAll)
	if err != nil {
		return nil, fmt.Errorf("cannot reach the submitter of the interactive job: %v", err)
	}
	ss := &session{id: s.JobID, conn: conn, rw: rw, done: make(chan struct{}), input: make(chan struct{})}
	// The job's first host as LSF names it (bsub prints "<<Starting on
	// HOST>>"), which need not be the machine's own name; the machine's
	// for a spec without hosts.
	host := ""
	if len(s.Hosts) > 0 {
		host = s.Hosts[0]
	} else {
		host, _ = os.Hostname()
	}
	if len(host) > 255 {
		host = host[:255]
	}
	if err := ss.send(attach.Hello, []byte(host)); err != nil {
		conn.Close()
		return nil, fmt.Errorf("cannot talk to the submitter of the interactive job: %v", err)
	}
	if err := ss.plumb(s, cmd, stdout, stderr); err != nil {
		ss.closeAll()
		return nil, fmt.Errorf("interactive job: %v", err)
	}
	return ss, nil
}

// plumb makes the job's terminal or pipes.
func (ss *session) plumb(s *Spec, cmd *exec.Cmd, stdout, stderr *os.File) error {
	if s.Interactive.Pty() {
		master, slave, err := attach.OpenPty()
		if err != nil {
			return err
		}
		ss.pty = master
		ss.child = append(ss.child, slave)
		ss.outs = append(ss.outs, pump{r: master, kind: attach.Stdout})
		cmd.Stdin, cmd.Stdout, cmd.Stderr = slave, slave, slave
		// An output with a file goes there; with -tty, through a pipe
		// whose pump copies it to the file and to bsub.
		if s.Stdout != "" {
			if cmd.Stdout, err = ss.teed(stdout, s.Interactive.Tty, attach.Stdout); err != nil {
				return err
			}
		}
		if s.Stderr != "" {
			if cmd.Stderr, err = ss.teed(stderr, s.Interactive.Tty, attach.Stderr); err != nil {
				return err
			}
		}
		// The job leads a session of its own, whose controlling terminal
		// is the pseudo-terminal: its process group is the job's
		// (the session's id), and ^C typed at bsub reaches it from the
		// terminal.
		cmd.SysProcAttr.Setpgid = false
		cmd.SysProcAttr.Setsid = true
		cmd.SysProcAttr.Setctty = true
		cmd.SysProcAttr.Ctty = 0
		return nil
	}
	r, w, err := os.Pipe()
	if err != nil {
		return err
	}
	ss.stdin = w
	ss.child = append(ss.child, r)
	cmd.Stdin = r
	out := func(f *os.File, given bool, kind attach.Kind) (*os.File, error) {
		if !given {
			f = nil
		}
		return ss.teed(f, f == nil || s.Interactive.Tty, kind)
	}
	if cmd.Stdout, err = out(stdout, s.Stdout != "", attach.Stdout); err != nil {
		return err
	}
	cmd.Stderr, err = out(stderr, s.Stderr != "", attach.Stderr)
	return err
}

// teed returns what the job writes one of its outputs to: the file f
// alone when not sent to bsub, else the write end of a pipe whose pump
// sends what the job writes to bsub as frames of kind, and to f too when
// f is not nil.
func (ss *session) teed(f *os.File, toBsub bool, kind attach.Kind) (*os.File, error) {
	if !toBsub {
		return f, nil
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	ss.child = append(ss.child, pw)
	ss.outs = append(ss.outs, pump{r: pr, kind: kind, tee: f})
	return pw, nil
}

// send writes one frame to the submitter.
func (ss *session) send(k attach.Kind, data []byte) error {
	ss.wmu.Lock()
	defer ss.wmu.Unlock()
	ss.conn.SetWriteDeadline(time.Now().Add(time.Minute))
	return attach.WriteFrame(ss.rw, k, data)
}

// closeAll closes every file and the connection: the job did not start.
func (ss *session) closeAll() {
	ss.closeChild()
	for _, p := range ss.outs {
		p.r.Close()
	}
	if ss.stdin != nil {
		ss.stdin.Close()
	}
	ss.conn.Close()
}

// closeChild closes the wrapper's copies of the job's ends.
func (ss *session) closeChild() {
	for _, f := range ss.child {
		f.Close()
	}
	ss.child = nil
}

// run carries the job's terminal once it runs as process group pgid.
func (ss *session) run(pgid int) {
	ss.pgid = pgid
	ss.closeChild()
	for _, p := range ss.outs {
		ss.output.Add(1)
		go ss.copyOut(p)
	}
	go ss.readInput()
}

// copyOut sends one output of the job to the submitter until its end.
func (ss *session) copyOut(p pump) {
	defer ss.output.Done()
	defer survive(ss.id, "the job's output to its terminal", nil)
	buf := make([]byte, attach.MaxPayload)
	sending := true
	for {
		n, err := p.r.Read(buf)
		if n > 0 {
			if p.tee != nil {
				if _, err := p.tee.Write(buf[:n]); err != nil {
					// A file that takes no more (its disk full) loses
					// the rest; the terminal still gets it.
					p.tee = nil
				}
			}
			if sending && ss.send(p.kind, buf[:n]) != nil {
				// bsub is gone: the file, if any, still gets the
				// output.
				sending = false
			}
			if !sending && p.tee == nil {
				return
			}
		}
		if err != nil {
			// The end of a pipe, or EIO from a pseudo-terminal whose
			// last job process has closed it.
			return
		}
	}
}

// readInput carries bsub's frames to the job until the connection ends;
// a connection lost before the job's end hangs the job up.
func (ss *session) readInput() {
	defer close(ss.input)
	defer survive(ss.id, "the terminal's input to the job", func(error) { ss.hangUp() })
	for {
		f, err := attach.ReadFrame(ss.rw)
		if err != nil {
			select {
			case <-ss.done:
			default:
				ss.hangUp()
			}
			return
		}
		switch f.Kind {
		case attach.Stdin:
			w := ss.stdin
			if ss.pty != nil {
				w = ss.pty
			}
			if w != nil {
				w.Write(f.Data) // a job that no longer reads loses its input
			}
		case attach.StdinEOF:
			if ss.pty != nil {
				ss.pty.Write([]byte{4}) // the terminal's end-of-file character
			} else if ss.stdin != nil {
				ss.stdin.Close()
				ss.stdin = nil
			}
		case attach.Winsize:
			if ss.pty != nil {
				rows, cols := f.Winsize()
				attach.SetWinsize(ss.pty.Fd(), rows, cols)
			}
		case attach.Signal:
			if sig, err := f.Signal(); err == nil {
				syscall.Kill(-ss.pgid, syscall.Signal(sig))
			}
		}
	}
}

// hangUp ends a job whose submitter is gone, as a terminal's hang-up
// does: SIGHUP (and SIGCONT, for a stopped job), then SIGKILL.
func (ss *session) hangUp() {
	syscall.Kill(-ss.pgid, syscall.SIGHUP)
	syscall.Kill(-ss.pgid, syscall.SIGCONT)
	select {
	case <-ss.done:
	case <-time.After(hangupGrace):
		syscall.Kill(-ss.pgid, syscall.SIGKILL)
	}
}

// ended waits a moment for the last output of the job, which has ended.
func (ss *session) ended() {
	drained := make(chan struct{})
	go func() {
		ss.output.Wait()
		close(drained)
	}()
	select {
	case <-drained:
	case <-time.After(drainOutput):
	}
}

// finish tells the submitter how the job ended, once its status is
// recorded, and closes the connection.
func (ss *session) finish(r Result) {
	close(ss.done)
	ss.send(attach.Exit, attach.ExitData(r.ExitCode, r.Signal))
	// bsub closes its side once it has the exit frame: waiting for that
	// a moment keeps the frame from being lost to a reset.
	if attach.CloseWrite(ss.conn) == nil {
		select {
		case <-ss.input:
		case <-time.After(time.Second):
		}
	}
	ss.conn.Close()
	for _, p := range ss.outs {
		p.r.Close()
	}
}
