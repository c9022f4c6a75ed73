//go:build !lsfclient

package main

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/localexec/attach"
)

// interactivePoll is how often bsub asks the daemon about an interactive
// job that has not reached it yet.
const interactivePoll = time.Second

// connectGrace is how long bsub waits for the connection of a job the
// daemon already reports ended: its wrapper connects before the job
// starts, so a connection being set up is not lost.
const connectGrace = 2 * time.Second

// handshakeWait bounds the handshake of a connection bsub accepted.
const handshakeWait = 10 * time.Second

// An interactive is bsub's side of an interactive job.
type interactive struct {
	e    env
	c    *api.Client
	mode string
	ln   net.Listener
	tok  string
	id   int64
	term *attach.TermState // the terminal's modes while it is raw
	// stopped is set while the job is stopped from bsub's terminal (^Z)
	// and the daemon knows it; gen counts bsub's own changes of the
	// job's state.
	stopped bool
	gen     atomic.Int64
}

// runInteractive submits req as an interactive job and carries its
// terminal: it returns the exit code bsub exits with, the job's.
// With tty (-tty), the output sent to -o and -e files comes to bsub too.
func runInteractive(ctx context.Context, e env, c *api.Client, mode string, tty bool, req *api.SubmitRequest) error {
	ln, err := net.Listen("tcp", ":0")
	if err != nil {
		return lsfFailed(e, "bsub", fmt.Errorf("cannot listen for the interactive job: %v", err))
	}
	defer ln.Close()
	tok, err := attach.NewToken()
	if err != nil {
		return lsfFailed(e, "bsub", err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	req.Interactive = &api.Interactive{Mode: mode, Addrs: submitterAddrs(req.FromHost, port), Token: tok, Tty: tty}
	resp, err := submitRetrying(ctx, e, c, req)
	if errors.Is(err, api.ErrAnswerLost) {
		printLSFError(e, "bsub", err)
		fmt.Fprintln(e.stderr, answerLostHint(req))
		return exit(exitLSF, nil)
	}
	if err != nil {
		return lsfFailed(e, "bsub", err)
	}
	// The job's own output is bsub's standard output: bsub's messages go
	// to standard error.
	fmt.Fprintln(e.stderr, submittedMessage(resp))
	fmt.Fprintln(e.stderr, "<<Waiting for dispatch ...>>")
	in := &interactive{e: e, c: c, mode: mode, ln: ln, tok: tok, id: resp.ID}
	if code := in.run(ctx); code != 0 {
		return exit(code, nil)
	}
	return nil
}

// submitterAddrs returns the addresses the job's wrapper may reach bsub
// at, as IP:port (the wrapper resolves no names): those of the
// submission host's name, then those of this host's interfaces, loopback
// last; each once, attach.MaxAddrs at most.
func submitterAddrs(host string, port int) []string {
	var ips []net.IP
	if host != "" {
		names, _ := net.LookupHost(host)
		for _, n := range names {
			ips = append(ips, net.ParseIP(n))
		}
	}
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok {
			ips = append(ips, n.IP)
		}
	}
	p := strconv.Itoa(port)
	var out []string
	seen := map[string]bool{}
	for _, ip := range ips {
		if ip == nil || ip.IsLoopback() || ip.IsLinkLocalUnicast() || ip.IsUnspecified() || seen[ip.String()] {
			continue
		}
		seen[ip.String()] = true
		if len(out) < attach.MaxAddrs-1 {
			out = append(out, net.JoinHostPort(ip.String(), p))
		}
	}
	return append(out, net.JoinHostPort("127.0.0.1", p))
}

// run waits for the job's wrapper to connect, carries the job's terminal
// and returns the job's exit code. While the job is pending, ^C (or
// SIGTERM, SIGHUP) kills it.
func (in *interactive) run(ctx context.Context) int {
	conns := make(chan jobConn, 1)
	go in.accept(conns)
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT)
	defer signal.Stop(sigs)
	tick := time.NewTicker(interactivePoll)
	defer tick.Stop()
	killed := false
	for {
		select {
		case conn := <-conns:
			signal.Stop(sigs)
			return in.attached(ctx, conn)
		case <-sigs:
			if !killed {
				killed = true
				if _, err := in.c.JobAction(ctx, in.id, "kill", &api.ActionRequest{}); err != nil {
					printLSFError(in.e, "bsub", err)
					return exitLSF
				}
				fmt.Fprintf(in.e.stderr, "<< Job <%d> has been terminated by user or administrator >>\n", in.id)
			}
		case <-tick.C:
			j, err := in.c.Job(ctx, in.id)
			if err != nil {
				var ae *api.APIError
				if errors.As(err, &ae) {
					printLSFError(in.e, "bsub", err)
					return exitLSF
				}
				continue // the daemon is away: keep waiting
			}
			if j.State != "DONE" && j.State != "EXIT" {
				continue
			}
			select {
			case conn := <-conns:
				signal.Stop(sigs)
				return in.attached(ctx, conn)
			case <-time.After(connectGrace):
			}
			if j.Start == 0 {
				fmt.Fprintln(in.e.stderr, "<<Terminated while pending>>")
				return 126
			}
			fmt.Fprintf(in.e.stderr, "bsub: job <%d> ended without reaching this bsub: %s\n", in.id, endedHow(j))
			return exitCodeOf(j)
		case <-ctx.Done():
			return exitLSF
		}
	}
}

// A jobConn is the connection of the job's wrapper and the sealed stream
// over it.
type jobConn struct {
	net.Conn
	rw *attach.Stream
}

// accept accepts connections until one proves it is the job's wrapper,
// then stops listening. Each handshake runs on its own, so that a peer
// that says nothing does not hold up the wrapper.
func (in *interactive) accept(conns chan<- jobConn) {
	var once sync.Once
	for {
		c, err := in.ln.Accept()
		if err != nil {
			return
		}
		go func() {
			c.SetDeadline(time.Now().Add(handshakeWait))
			rw, err := attach.ServerHandshake(c, in.tok)
			if err != nil {
				c.Close()
				return
			}
			c.SetDeadline(time.Time{})
			won := false
			once.Do(func() {
				won = true
				in.ln.Close()
				conns <- jobConn{c, rw}
			})
			if !won {
				c.Close()
			}
		}()
	}
}

// endedHow describes the end of a job.
func endedHow(j *api.Job) string {
	if j.State == "DONE" {
		return "done"
	}
	return fmt.Sprintf("exit code %d", j.ExitCode)
}

// exitCodeOf returns bsub's exit code for an ended job: 0 for DONE, else
// its exit code (1 when it has none that fits).
func exitCodeOf(j *api.Job) int {
	switch {
	case j.State == "DONE":
		return 0
	case j.ExitCode > 0 && j.ExitCode < 256:
		return j.ExitCode
	}
	return 1
}

// attached carries the terminal of the job whose wrapper connected.
func (in *interactive) attached(ctx context.Context, conn jobConn) int {
	defer conn.Close()
	var wmu lockedWriter
	wmu.w = conn.rw
	f, err := attach.ReadFrame(conn.rw)
	if err != nil || f.Kind != attach.Hello {
		fmt.Fprintf(in.e.stderr, "bsub: job <%d>: the connection broke before the job started\n", in.id)
		return in.lost(ctx)
	}
	fmt.Fprintf(in.e.stderr, "<<Starting on %s>>\n", f.Data)

	stdin, isFile := in.e.stdin.(*os.File)
	tty := isFile && attach.IsTerminal(stdin.Fd())
	pty := in.mode == "Ip" || in.mode == "Is"
	raw := func() {
		if tty && pty {
			// -Is hands every key to the job's terminal, ^C and ^Z
			// included; -Ip keeps them as signals, which bsub forwards.
			in.term, _ = attach.MakeRaw(stdin.Fd(), in.mode == "Ip")
		}
	}
	restore := func() {
		if in.term != nil {
			attach.Restore(stdin.Fd(), in.term)
			in.term = nil
		}
	}
	raw()
	defer restore()
	sendSize := func() {
		if tty && pty {
			if rows, cols, err := attach.GetWinsize(stdin.Fd()); err == nil {
				wmu.send(attach.Winsize, attach.WinsizeData(rows, cols))
			}
		}
	}
	sendSize()

	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGQUIT, syscall.SIGTSTP, syscall.SIGCONT, syscall.SIGWINCH,
		syscall.SIGTERM, syscall.SIGHUP)
	defer signal.Stop(sigs)
	go in.copyInput(&wmu)

	// The daemon is asked for the job's state every interactivePoll, so
	// that a bstop or bresume from elsewhere, or a suspension by the
	// system, is told on the terminal as LSF's bsub tells it.
	watchCtx, stopWatch := context.WithCancel(ctx)
	defer stopWatch()
	states := make(chan jobState, 1)
	go in.watchState(watchCtx, states)
	last := "RUN"

	frames := make(chan attach.Frame)
	readErr := make(chan error, 1)
	go func() {
		for {
			f, err := attach.ReadFrame(conn.rw)
			if err != nil {
				readErr <- err
				return
			}
			frames <- f
		}
	}()
	for {
		select {
		case f := <-frames:
			switch f.Kind {
			case attach.Stdout:
				in.e.stdout.Write(f.Data)
			case attach.Stderr:
				in.e.stderr.Write(f.Data)
			case attach.Exit:
				restore()
				code, _ := f.Exit()
				if code < 0 || code > 255 {
					code = 1
				}
				return code
			}
		case <-readErr:
			restore()
			fmt.Fprintf(in.e.stderr, "bsub: job <%d>: lost the connection to the job\n", in.id)
			return in.lost(ctx)
		case st := <-states:
			// A change bsub made itself (^Z, fg) is not told, nor a
			// state asked for before it.
			if st.gen != in.gen.Load() {
				continue
			}
			if st.state != last {
				if msg := stateNotice(last, st.state, st.reason); msg != "" {
					fmt.Fprint(in.e.stderr, msg+in.eol())
				}
			}
			last = st.state
		case sig := <-sigs:
			switch sig {
			case syscall.SIGWINCH:
				sendSize()
			case syscall.SIGTERM, syscall.SIGHUP:
				// bsub is asked to go: the job, whose terminal it is,
				// is hung up by its wrapper when the connection closes.
				restore()
				return 128 + int(sig.(syscall.Signal))
			case syscall.SIGTSTP:
				// ^Z: the job stops, then bsub, as a local command
				// would; fg continues both. The job gets SIGSTOP: on a
				// terminal of its own, in a session whose leader has no
				// parent there, it would ignore SIGTSTP. The daemon is
				// told before bsub stops, as by bstop: the job is USUSP.
				wmu.send(attach.Signal, attach.SignalData(int(syscall.SIGSTOP)))
				in.stopped = in.tellDaemon(ctx, "stop")
				in.gen.Add(1)
				if in.stopped {
					last = "USUSP"
				}
				restore()
				syscall.Kill(os.Getpid(), syscall.SIGSTOP)
			case syscall.SIGCONT:
				raw()
				sendSize()
				wmu.send(attach.Signal, attach.SignalData(int(syscall.SIGCONT)))
				if in.stopped {
					// fg: the job runs again, as after bresume (which,
					// given meanwhile, leaves nothing to resume).
					in.stopped = false
					in.tellDaemon(ctx, "resume")
					in.gen.Add(1)
					last = "RUN"
				}
			default:
				wmu.send(attach.Signal, attach.SignalData(int(sig.(syscall.Signal))))
			}
		}
	}
}

// A jobState is the job's state as the daemon reported it, with its
// suspending reason, and the generation of bsub's own changes it was
// asked in.
type jobState struct {
	state, reason string
	gen           int64
}

// eol ends a line bsub writes while it carries the job's terminal: a
// raw terminal does not return the carriage at a newline.
func (in *interactive) eol() string {
	if in.term != nil {
		return "\r\n"
	}
	return "\n"
}

// watchState sends the job's state, as the daemon reports it, every
// interactivePoll until ctx ends; a daemon that does not answer is asked
// again at the next tick.
func (in *interactive) watchState(ctx context.Context, states chan<- jobState) {
	tick := time.NewTicker(interactivePoll)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		gen := in.gen.Load()
		j, err := in.c.Job(ctx, in.id)
		if err != nil {
			continue
		}
		select {
		case states <- jobState{j.State, j.Reason, gen}:
		case <-ctx.Done():
			return
		}
	}
}

// stateNotice returns what bsub tells of the job going from state from
// to state to, as LSF's bsub does: a suspension (with the system's reason
// for SSUSP), and a resumption by the user; "" for other changes.
func stateNotice(from, to, reason string) string {
	switch {
	case to == "USUSP":
		return "<< The job was suspended by user >>"
	case to == "SSUSP":
		return "<< " + strings.TrimSuffix(cmp.Or(reason, "The job was suspended by the system"), ";") + " >>"
	case to == "RUN" && from == "USUSP":
		return "<< Waiting for re-scheduling after being resumed by user >>"
	}
	return ""
}

// tellWait bounds bsub's request to the daemon on ^Z and fg.
const tellWait = 5 * time.Second

// tellDaemon tells the daemon that the job's submitter stopped it
// (action "stop") or continued it ("resume"), so that the daemon records
// it as USUSP, or running again, as it does for bstop and bresume. It
// reports whether the daemon took it; a daemon that does not answer in
// time or refuses is reported on standard error, and the job goes on as
// the terminal says all the same.
func (in *interactive) tellDaemon(ctx context.Context, action string) bool {
	ctx, cancel := context.WithTimeout(ctx, tellWait)
	defer cancel()
	if _, err := in.c.JobAction(ctx, in.id, action, &api.ActionRequest{}); err != nil {
		var ae *api.APIError
		if action == "resume" && errors.As(err, &ae) {
			// Resumed meanwhile (bresume), or ended.
			return false
		}
		fmt.Fprintf(in.e.stderr, "bsub: job <%d>: %v%s", in.id, err, in.eol())
		return false
	}
	return true
}

// copyInput sends bsub's standard input to the job, then its end.
func (in *interactive) copyInput(w *lockedWriter) {
	buf := make([]byte, 4096)
	for {
		n, err := in.e.stdin.Read(buf)
		if n > 0 && w.send(attach.Stdin, buf[:n]) != nil {
			return
		}
		if err != nil {
			w.send(attach.StdinEOF, nil)
			return
		}
	}
}

// lost follows a job whose connection is gone through the daemon, and
// returns its exit code once it has ended.
func (in *interactive) lost(ctx context.Context) int {
	for {
		j, err := in.c.Job(ctx, in.id)
		var ae *api.APIError
		switch {
		case errors.As(err, &ae):
			printLSFError(in.e, "bsub", err)
			return exitLSF
		case err == nil && (j.State == "DONE" || j.State == "EXIT"):
			return exitCodeOf(j)
		}
		select {
		case <-ctx.Done():
			return exitLSF
		case <-time.After(interactivePoll):
		}
	}
}

// A lockedWriter writes whole frames from several goroutines.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

// send writes one frame.
func (w *lockedWriter) send(k attach.Kind, data []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return attach.WriteFrame(w.w, k, data)
}
