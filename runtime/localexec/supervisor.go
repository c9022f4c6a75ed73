package localexec

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// The host's supervisor is one long-lived process per Executor directory
// that starts and watches the jobs of every Executor on that directory,
// as LSF's sbatchd does: a job costs a goroutine of it and a fork, not a
// process of its own. It is the job starter (or the program of
// WrapperPath) run with SuperviseArg and the directory. Start starts it
// when none runs, in a session of its own, so that it and its jobs
// outlive the daemon or agent that started it; a later Executor on the
// same directory uses it again.
//
// Start talks to it over a Unix socket in the directory (supSock; the
// directory is private, and each side checks that the other runs as the
// same user), one connection per job:
//
//	Start                              supervisor
//	"start ID PROG\nSPEC" + the job's lock ->
//	                             <-    "hello PID" (the job is taken)
//	                             <-    "ok PIDS" or "error: WHY" (the handshake)
//	                             <-    "end" (Spec.PostLater: the end is recorded)
//	                             <-    "done CODE" (the status file is written)
//
// SPEC is the job's Spec as JSON: the supervisor's wrapper takes it from
// the request rather than from a spec file, and PIDS is the job's pid
// record as its pid file holds it, which Start then need not read. A
// Spec too large for a message (maxSupMsg) goes in the spec file, and
// the request is then "start ID PROG" alone, and its answer "ok" alone.
// A supervisor that reads no spec in requests (one started from an older
// program that was not replaced) answers an error naming a bad program
// or job id: Start then writes the spec file and asks again without it.
//
// An Executor's Close sends "close" instead, on a connection of its own:
// a supervisor without jobs then exits.
//
// PROG names the program Start would start the supervisor from (the
// job starter, or WrapperPath's first word) as it is now: the device and
// inode ("DEV:INO") of the file its path names. A supervisor runs the
// code it was started with; when the program was replaced since (lsfc
// upgraded: a new file at the path, and so a new inode, since a running
// program's file cannot be written in place), the supervisor answers
// "retired" instead of "hello", without taking the job, and retires (see
// below); Start then starts a new supervisor from the new program and
// hands it the job. The supervisor knows itself by the inode of
// /proc/self/exe, the very file it runs (whose inode stays its own while
// it runs, even once the path names another file), and by that of the
// path it was started as, read as it starts (should a file system show
// the two differently). A request without PROG (the program's path
// cannot be read) is taken by any supervisor.
//
// The supervisor holds the job's lock (flock on its lock file), handed
// over with the request, for the job's life, writes the pid file (naming
// itself as the wrapper) and the status file as a job's own wrapper does,
// so that Recover, after a restart of the daemon, adopts the jobs it
// runs. A connection that got no "hello" was not taken: Start may try
// again. Each job runs on an OS thread of its own, with the job's umask
// and working directory (unshare(CLONE_FS)); the processes it starts
// inherit them from that thread. A job with per-process limits
// (Spec.ProcLimits), which are a whole process's, gets a job starter of
// its own instead.
//
// The supervisor exits once it has had no job and no connection for
// supervisorIdle (or the duration in supIdleEnv), at once when an
// Executor's Close finds it without jobs, and once its jobs end when it
// retires or its socket is removed. Retiring, it stops listening,
// removes its socket if still its own and lets go of the directory's
// supervisor lock, so that a new supervisor may start at once; its jobs
// run on to their ends, which it records as before, holding their locks,
// so that a restarted daemon's Recover sees them end. When its directory
// is removed, no job's end can be recorded any more: it kills its jobs
// and exits. Its messages go to supervisor.log in the directory.

// SuperviseArg is the hidden argument (before the Executor's directory)
// with which the job starter, or a program that hands its runs to
// WrapperMain, runs as the host's supervisor.
const SuperviseArg = "__lsfc_jobsup"

// The supervisor's files in the Executor's directory.
const (
	supSock = "supervisor.sock"
	supLock = "supervisor.lock" // held by the running supervisor
	supLog  = "supervisor.log"  // its standard error
	supPID  = "supervisor.pid"  // its process id, while it listens
)

const (
	// supervisorIdle is how long the supervisor stays without jobs and
	// connections before it exits.
	supervisorIdle = 10 * time.Second
	// supIdleEnv, when set to a duration, replaces supervisorIdle.
	supIdleEnv = "LSFC_SUPERVISOR_IDLE"
	// supervisorCheck is how often the supervisor looks at its socket
	// and at how long it has been idle.
	supervisorCheck = 500 * time.Millisecond
	// supLockWait bounds how long a new supervisor waits for one that is
	// exiting to let go of the directory.
	supLockWait = 10 * time.Second
	// maxSupMsg bounds a message on the supervisor's socket: a request
	// with its job's spec.
	maxSupMsg = 64 << 10
)

// msgBufs holds the buffers readMsg reads messages into.
var msgBufs = sync.Pool{New: func() any { return new([maxSupMsg]byte) }}

// A jobThread is a goroutine locked to an OS thread whose working
// directory and umask are its own (unshare(CLONE_FS)), on which the
// supervisor runs a job's wrapper: the job's umask and directory are set
// on it alone, and the processes it starts inherit them. It runs the
// functions sent to it one after the other; after each it goes back to
// the directory / and the supervisor's umask, and waits among the
// supervisor's idle threads.
type jobThread chan func()

// takeJobThread returns an idle job thread, or a new one.
func (sv *supervisor) takeJobThread() (jobThread, error) {
	select {
	case t := <-sv.threads:
		return t, nil
	default:
	}
	t := make(jobThread)
	errc := make(chan error, 1)
	go func() {
		// The thread is never unlocked: it ends with the goroutine.
		runtime.LockOSThread()
		if err := syscall.Unshare(syscall.CLONE_FS); err != nil {
			errc <- fmt.Errorf("cannot give the job a working directory of its own: %v", err)
			return
		}
		errc <- nil
		for f := range t {
			f()
			if syscall.Chdir("/") != nil {
				return
			}
			syscall.Umask(sv.umask)
			select {
			case sv.threads <- t:
			default:
				return
			}
		}
	}()
	return t, <-errc
}

// ownThread locks the calling goroutine to its thread, for good, and
// gives the thread a working directory and umask of its own (umask, when
// not -1): a job of the supervisor runs on such a thread. The goroutine
// must end without unlocking it, so that the thread is never reused.
func ownThread(umask int) error {
	runtime.LockOSThread()
	if err := syscall.Unshare(syscall.CLONE_FS); err != nil {
		return fmt.Errorf("cannot give the job a working directory of its own: %v", err)
	}
	if umask >= 0 {
		syscall.Umask(umask)
	}
	return nil
}

// sockAddr returns an address of the socket path usable in a sockaddr
// (at most 107 bytes): path itself, or a name through an open descriptor
// of its directory, closed by the function returned.
func sockAddr(path string) (string, func(), error) {
	if len(path) < 100 {
		return path, func() {}, nil
	}
	fd, err := syscall.Open(filepath.Dir(path), syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return "", nil, err
	}
	return fmt.Sprintf("/proc/self/fd/%d/%s", fd, filepath.Base(path)), func() { syscall.Close(fd) }, nil
}

// peerUID returns the user id of the process at the other end of c.
func peerUID(c *net.UnixConn) (int, error) {
	raw, err := c.SyscallConn()
	if err != nil {
		return -1, err
	}
	var cred *syscall.Ucred
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	}); err != nil {
		return -1, err
	}
	if cerr != nil {
		return -1, cerr
	}
	return int(cred.Uid), nil
}

// readMsg reads one message from c, waiting until timeout at most (0:
// without limit), and returns it with the descriptors that came with it,
// which ReadMsgUnix makes close-on-exec as it receives them.
func readMsg(c *net.UnixConn, timeout time.Duration) (string, []int, error) {
	if timeout > 0 {
		c.SetReadDeadline(time.Now().Add(timeout))
	} else {
		c.SetReadDeadline(time.Time{})
		// Without a limit, the wait may last as long as a job runs: it
		// takes a buffer only once a message is there.
		if err := waitMsg(c); err != nil {
			return "", nil, err
		}
	}
	buf := msgBufs.Get().(*[maxSupMsg]byte)
	defer msgBufs.Put(buf)
	oob := make([]byte, syscall.CmsgSpace(4*4))
	n, oobn, flags, _, err := c.ReadMsgUnix(buf[:], oob)
	var fds []int
	if oobn > 0 {
		if msgs, perr := syscall.ParseSocketControlMessage(oob[:oobn]); perr == nil {
			for _, m := range msgs {
				if got, err := syscall.ParseUnixRights(&m); err == nil {
					fds = append(fds, got...)
				}
			}
		}
	}
	if err != nil {
		// A failed read may give a negative count (a connection reset,
		// as when the listener that had not yet taken it closes).
		return "", fds, err
	}
	if n == 0 {
		return "", fds, errors.New("the connection was closed")
	}
	if flags&syscall.MSG_TRUNC != 0 {
		return "", fds, fmt.Errorf("a message longer than %d bytes", maxSupMsg)
	}
	return string(buf[:n]), fds, nil
}

// waitMsg waits until a message can be read from c, or the connection
// has ended or failed (the read that follows then says so): a peek of one
// byte, which leaves the message where it is.
func waitMsg(c *net.UnixConn) error {
	rc, err := c.SyscallConn()
	if err != nil {
		return err
	}
	var one [1]byte
	return rc.Read(func(fd uintptr) bool {
		_, _, err := syscall.Recvfrom(int(fd), one[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		return err != syscall.EAGAIN
	})
}

// A supervisor runs the jobs of one Executor directory; see above.
type supervisor struct {
	dir  string
	sock string // the socket's path
	// lock holds the directory's supervisor lock until the supervisor
	// stops listening.
	lock *os.File
	// progs are the programs it runs, as a request's PROG names them:
	// those of /proc/self/exe and of the path it was started as.
	progs []string
	ino   uint64 // its inode, to see that it was removed or replaced
	// dirIno is the directory's inode, to see that it was removed.
	dirIno uint64
	ln     *net.UnixListener
	uid    int
	idle   time.Duration
	// umask is the supervisor's, that of its idle job threads.
	umask int
	// threads holds the idle job threads, at most its capacity; the
	// others end.
	threads chan jobThread

	mu      sync.Mutex
	running map[*wrapper]bool
	jobs    int       // jobs running
	conns   int       // connections taken
	last    time.Time // when jobs and conns last fell to zero
	exiting bool      // set once the listener is closed: nothing more is taken
	// closing is set by an Executor's Close while no job runs: the
	// supervisor exits as soon as it is free, unless a job starts first.
	closing bool
}

// superviseMain runs the supervisor of dir; see WrapperMain. It tells
// whoever started it "ready" on its standard output, or why it cannot
// run, and closes it.
func superviseMain(dir string) int {
	raiseThreadLimit()
	sv, err := newSupervisor(dir)
	if err != nil {
		fmt.Fprintf(os.Stdout, "error: %v\n", err)
		fmt.Fprintf(os.Stderr, "%s: supervisor: %v\n", StarterName, err)
		return 1
	}
	// Catching these gives the jobs their default actions even when the
	// daemon had them ignored. A signal sent to the supervisor itself
	// goes on to every job's process group, as a job's own wrapper
	// passes it on to its job. After SIGINT, SIGTERM or SIGQUIT it takes
	// no more jobs, and exits once those it runs have ended and their
	// ends are recorded (a new supervisor takes the next jobs).
	sigs := make(chan os.Signal, 8)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGPIPE)
	go func() {
		for sig := range sigs {
			if sig == syscall.SIGPIPE {
				continue
			}
			sv.mu.Lock()
			n := 0
			for w := range sv.running {
				if g := w.group.Load(); g > 0 {
					syscall.Kill(-int(g), sig.(syscall.Signal))
					n++
				}
			}
			if sig != syscall.SIGHUP {
				fmt.Fprintf(os.Stderr, "%s: supervisor %d: %v, passed on to its %d jobs: exiting once they end\n", StarterName, os.Getpid(), sig, n)
				sv.stopLocked(true)
			}
			sv.mu.Unlock()
		}
	}()
	fmt.Fprintln(os.Stdout, "ready")
	if null, err := os.OpenFile(os.DevNull, os.O_RDWR, 0); err == nil {
		syscall.Dup3(int(null.Fd()), 0, 0)
		syscall.Dup3(int(null.Fd()), 1, 0)
		null.Close()
	}
	go sv.housekeep()
	for {
		c, err := sv.ln.AcceptUnix()
		if err != nil {
			sv.mu.Lock()
			exiting := sv.exiting
			sv.mu.Unlock()
			if exiting {
				for {
					time.Sleep(time.Hour) // housekeep ends the process once the jobs end
				}
			}
			fmt.Fprintf(os.Stderr, "%s: supervisor: %v\n", StarterName, err)
			time.Sleep(10 * time.Millisecond)
			continue
		}
		go sv.serve(c)
	}
}

// newSupervisor takes the directory's supervisor lock, waiting a while
// for one that is exiting, and listens on its socket.
func newSupervisor(dir string) (*supervisor, error) {
	lock, err := os.OpenFile(filepath.Join(dir, supLock), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	for deadline := time.Now().Add(supLockWait); ; {
		err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
		if err == nil {
			break
		}
		if !errors.Is(err, syscall.EWOULDBLOCK) || time.Now().After(deadline) {
			lock.Close()
			return nil, fmt.Errorf("another supervisor holds %s: %v", lock.Name(), err)
		}
		time.Sleep(5 * time.Millisecond)
	}
	// The lock stays held until the supervisor stops listening.
	sv := &supervisor{dir: dir, sock: filepath.Join(dir, supSock), lock: lock, uid: os.Geteuid(), idle: supervisorIdle, last: time.Now(),
		running: map[*wrapper]bool{}, threads: make(chan jobThread, 64)}
	for _, p := range []string{"/proc/self/exe", os.Args[0]} {
		if id := programID(p); id != "" && !slices.Contains(sv.progs, id) {
			sv.progs = append(sv.progs, id)
		}
	}
	if d, err := time.ParseDuration(os.Getenv(supIdleEnv)); err == nil && d > 0 {
		sv.idle = d
	}
	if err := os.Remove(sv.sock); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	addr, done, err := sockAddr(sv.sock)
	if err != nil {
		return nil, err
	}
	sv.umask = syscall.Umask(0o077)
	sv.ln, err = net.ListenUnix("unixpacket", &net.UnixAddr{Name: addr, Net: "unixpacket"})
	syscall.Umask(sv.umask)
	done()
	if err != nil {
		return nil, err
	}
	sv.ln.SetUnlinkOnClose(false)
	var st syscall.Stat_t
	if err := syscall.Stat(sv.sock, &st); err != nil {
		return nil, err
	}
	sv.ino = st.Ino
	if err := syscall.Stat(dir, &st); err != nil {
		return nil, err
	}
	sv.dirIno = st.Ino
	if err := replaceFile(filepath.Join(dir, supPID), []byte(strconv.Itoa(os.Getpid())+"\n"), 0o600, false); err != nil {
		return nil, err
	}
	return sv, nil
}

// housekeep ends the supervisor once it is idle for long enough, or its
// socket is gone and its jobs have ended.
func (sv *supervisor) housekeep() {
	for range time.Tick(supervisorCheck) {
		var st syscall.Stat_t
		gone := syscall.Stat(sv.sock, &st) != nil || st.Ino != sv.ino
		// Only a directory that is not there, or another one in its
		// place, is gone: a stat that fails otherwise (EINTR, EIO, a
		// stale handle) kills no job.
		err := syscall.Stat(sv.dir, &st)
		dirGone := err == syscall.ENOENT || err == syscall.ENOTDIR || err == nil && st.Ino != sv.dirIno
		sv.mu.Lock()
		if dirGone {
			// No job's end can be recorded any more, nor its processes
			// found: they are killed, as with a wrapper that died.
			fmt.Fprintf(os.Stderr, "%s: supervisor %d: its directory %s is gone: its %d jobs are killed\n", StarterName, os.Getpid(), sv.dir, sv.jobs)
			for w := range sv.running {
				if g := w.group.Load(); g > 0 {
					syscall.Kill(-int(g), syscall.SIGKILL)
				}
			}
			sv.exitLocked(0)
		}
		if gone && !sv.exiting {
			fmt.Fprintf(os.Stderr, "%s: supervisor %d: its socket %s is gone: exiting once its %d jobs end\n", StarterName, os.Getpid(), sv.sock, sv.jobs)
			sv.stopLocked(false)
		}
		free := sv.jobs == 0 && sv.conns == 0
		if free && (sv.exiting || sv.closing || time.Since(sv.last) >= sv.idle) {
			sv.exitLocked(0)
		}
		sv.mu.Unlock()
	}
}

// stopLocked closes the listener: no connection is taken from now on. It
// removes the socket when unlink is set and the socket is still its own,
// and its pid file, and then lets go of the supervisor lock: a new
// supervisor may start on the directory while this one's jobs run on.
func (sv *supervisor) stopLocked(unlink bool) {
	if sv.exiting {
		return
	}
	sv.exiting = true
	var st syscall.Stat_t
	if unlink && syscall.Stat(sv.sock, &st) == nil && st.Ino == sv.ino {
		os.Remove(sv.sock)
	}
	sv.ln.Close()
	pidFile := filepath.Join(sv.dir, supPID)
	if data, err := os.ReadFile(pidFile); err == nil && strings.TrimSpace(string(data)) == strconv.Itoa(os.Getpid()) {
		os.Remove(pidFile)
	}
	syscall.Flock(int(sv.lock.Fd()), syscall.LOCK_UN)
	sv.lock.Close()
}

// runs tells whether the supervisor runs prog, as a request names it.
func (sv *supervisor) runs(prog string) bool {
	return prog == "" || len(sv.progs) == 0 || slices.Contains(sv.progs, prog)
}

// programID returns the identity of the program file path names,
// "DEV:INO", or "" when it cannot be read. A bare name is looked for on
// PATH, as exec.Command does.
func programID(path string) string {
	if !strings.Contains(path, "/") {
		p, err := exec.LookPath(path)
		if err != nil {
			return ""
		}
		path = p
	}
	var st syscall.Stat_t
	if err := syscall.Stat(path, &st); err != nil {
		return ""
	}
	return strconv.FormatUint(st.Dev, 10) + ":" + strconv.FormatUint(st.Ino, 10)
}

// exitLocked ends the process: its socket, pid file and lock go first
// if they have not yet.
func (sv *supervisor) exitLocked(code int) {
	sv.stopLocked(true)
	os.Exit(code)
}

// serve takes one connection: a job to run, or an Executor's Close.
func (sv *supervisor) serve(c *net.UnixConn) {
	if uid, err := peerUID(c); err != nil || uid != sv.uid {
		fmt.Fprintf(os.Stderr, "%s: supervisor: a connection of user %d refused (%v)\n", StarterName, uid, err)
		c.Close()
		return
	}
	sv.mu.Lock()
	if sv.exiting {
		sv.mu.Unlock()
		c.Close()
		return
	}
	sv.conns++
	sv.mu.Unlock()
	defer func() {
		sv.mu.Lock()
		if sv.conns--; sv.conns == 0 && sv.jobs == 0 {
			sv.last = time.Now()
		}
		sv.mu.Unlock()
		c.Close()
	}()
	msg, fds, err := readMsg(c, startTimeout)
	if err != nil {
		closeFDs(fds)
		return
	}
	// The job's spec follows the request's first line.
	msg, spec, inline := strings.Cut(msg, "\n")
	id, prog, err := parseRequest(msg, len(fds))
	if err == nil && inline && id == 0 {
		err = errors.New("bad request: a close with a spec")
	}
	if err == nil && id > 0 && !sv.runs(prog) {
		// Start would start another program: this one retires, and
		// the job, not taken, goes to a supervisor of that program.
		closeFDs(fds)
		sv.mu.Lock()
		if !sv.exiting {
			fmt.Fprintf(os.Stderr, "%s: supervisor %d: its program was replaced (%s, now %s): retiring, exiting once its %d jobs end\n",
				StarterName, os.Getpid(), strings.Join(sv.progs, " "), prog, sv.jobs)
		}
		sv.stopLocked(true)
		sv.mu.Unlock()
		c.Write([]byte("retired"))
		return
	}
	if _, werr := c.Write([]byte("hello " + strconv.Itoa(os.Getpid()))); werr != nil {
		closeFDs(fds)
		return
	}
	switch {
	case err != nil:
		closeFDs(fds)
		c.Write([]byte("error: " + err.Error()))
	case id == 0:
		sv.mu.Lock()
		if sv.jobs == 0 && sv.conns == 1 {
			sv.exitLocked(0)
		}
		// Connections of jobs just ended may not be closed yet.
		sv.closing = sv.jobs == 0
		sv.mu.Unlock()
	default:
		var data []byte
		if inline {
			data = []byte(spec)
		}
		sv.runJob(c, id, fds[0], data)
	}
}

// parseRequest reads a request to the supervisor that came with nfds
// descriptors: "start ID" or "start ID PROG" with the job's lock (it
// returns the id and PROG), or "close" with none (it returns 0).
func parseRequest(msg string, nfds int) (int64, string, error) {
	if msg == "close" && nfds == 0 {
		return 0, "", nil
	}
	arg, ok := strings.CutPrefix(msg, "start ")
	if !ok || nfds != 1 {
		return 0, "", fmt.Errorf("bad request %q with %d descriptors", msg, nfds)
	}
	arg, prog, withProg := strings.Cut(arg, " ")
	id, err := strconv.ParseInt(arg, 10, 64)
	if err != nil || id <= 0 || strconv.FormatInt(id, 10) != arg {
		return 0, "", fmt.Errorf("bad job id %q", arg)
	}
	if withProg {
		dev, ino, ok := strings.Cut(prog, ":")
		if !ok || !canonicalUint(dev) || !canonicalUint(ino) {
			return 0, "", fmt.Errorf("bad program %q", prog)
		}
	}
	return id, prog, nil
}

// canonicalUint tells whether s is an unsigned 64-bit number written
// without sign or leading zeros.
func canonicalUint(s string) bool {
	n, err := strconv.ParseUint(s, 10, 64)
	return err == nil && strconv.FormatUint(n, 10) == s
}

// runJob runs job id, whose lock is the descriptor lock, on a thread of
// its own, and tells its progress on c. spec is the job's Spec as the
// request gave it, nil when it is in the spec file.
func (sv *supervisor) runJob(c *net.UnixConn, id int64, lock int, spec []byte) {
	// The lock came close-on-exec (see readMsg): the job's processes do
	// not inherit it.
	w := &wrapper{dir: sv.dir, id: id, shared: true, spec: spec}
	sv.mu.Lock()
	sv.jobs++
	sv.closing = false
	sv.running[w] = true
	sv.mu.Unlock()
	w.reply = func(msg string) { c.Write([]byte(msg)) } // Start may be gone: the job runs on
	w.tell = func() { c.Write([]byte("end")) }
	code := 1
	if t, err := sv.takeJobThread(); err != nil {
		w.refuse(err)
	} else {
		done := make(chan int, 1)
		t <- func() {
			defer func() {
				// A fault in one job's wrapper loses that job alone:
				// its processes are killed, and it has no status.
				if p := recover(); p != nil {
					fmt.Fprintf(os.Stderr, "%s: supervisor: job %d: %v\n%s", StarterName, id, p, debug.Stack())
					if g := w.group.Load(); g > 0 {
						syscall.Kill(-int(g), syscall.SIGKILL)
					}
					done <- 1
				}
			}()
			done <- w.run()
		}
		code = <-done
	}
	// The status is written: the lock goes, as a wrapper's with its
	// process, and then the Executor is told.
	syscall.Close(lock)
	sv.mu.Lock()
	sv.jobs--
	delete(sv.running, w)
	sv.mu.Unlock()
	c.Write([]byte("done " + strconv.Itoa(code)))
}

func closeFDs(fds []int) {
	for _, fd := range fds {
		syscall.Close(fd)
	}
}

// launchSupervised hands job id, with its lock (taken, and closed here),
// to the host's supervisor, started when none runs, and waits for its
// answer. spec is the job's Spec as JSON, sent with the request, or nil
// when the spec file is written; writeSpec writes it, for a supervisor
// that takes no spec with its requests.
func (e *Executor) launchSupervised(argv []string, id int64, lock *os.File, spec []byte, writeSpec func() error) (*wrapperRun, error) {
	defer lock.Close() // the supervisor holds its own copy once it has the job
	req := "start " + strconv.FormatInt(id, 10)
	if prog := programID(argv[0]); prog != "" {
		req += " " + prog
	}
	full := req
	if spec != nil {
		full += "\n" + string(spec)
	}
	c, err := e.handOverJob(argv, full, lock)
	if err != nil {
		return nil, fmt.Errorf("cannot start job %d: %v", id, err)
	}
	e.mu.Lock()
	e.supervised = true
	e.mu.Unlock()
	msg, _, err := readMsg(c, startTimeout)
	if err == nil && msg == "ok" {
		return &wrapperRun{conn: c}, nil
	}
	if data, ok := strings.CutPrefix(msg, "ok "); err == nil && ok && spec != nil {
		// The job's processes came with the answer.
		run := &wrapperRun{conn: c}
		var rec pidRecord
		if json.Unmarshal([]byte(data), &rec) == nil && rec.valid() {
			run.pids = &rec
		}
		return run, nil
	}
	if err == nil && spec != nil && (strings.HasPrefix(msg, "error: bad program") || strings.HasPrefix(msg, "error: bad job id")) {
		// A supervisor of an older program, which reads the spec from
		// its file: it did not take the job, which is asked again.
		c.Close()
		if err := writeSpec(); err != nil {
			return nil, fmt.Errorf("cannot write the spec file of job %d: %v", id, err)
		}
		if c, err = e.handOverJob(argv, req, lock); err != nil {
			return nil, fmt.Errorf("cannot start job %d: %v", id, err)
		}
		if msg, _, err = readMsg(c, startTimeout); err == nil && msg == "ok" {
			return &wrapperRun{conn: c}, nil
		}
	}
	c.Close()
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		err = fmt.Errorf("the job supervisor did not answer within %v", startTimeout)
	case err != nil:
		err = fmt.Errorf("the job supervisor ended without answering (%v)", err)
	default:
		err = errors.New(strings.TrimPrefix(msg, "error: "))
	}
	if !strings.HasPrefix(msg, "error: ") {
		// The supervisor hangs or died: make sure no job it may have
		// started runs on unseen.
		if rec, rerr := readPidRecord(e.path(id, pidExt)); rerr == nil {
			e.killUnseen(id, rec)
		}
	}
	return nil, fmt.Errorf("cannot start job %d: %v", id, err)
}

// handOverJob sends req, with the descriptor of lock when not nil, to the
// host's supervisor, started when none answers, and returns the
// connection once the supervisor has taken it ("hello").
func (e *Executor) handOverJob(argv []string, req string, lock *os.File) (*net.UnixConn, error) {
	var rights []byte
	if lock != nil {
		rights = syscall.UnixRights(int(lock.Fd()))
	}
	var last error
	for attempt := 0; attempt < 3; attempt++ {
		var startErr error
		if attempt > 0 {
			// A supervisor another process started at the same time may
			// have the directory: it is dialled all the same.
			startErr = e.startSupervisor(argv)
		}
		c, err := e.dialSupervisor()
		if err != nil {
			last = err
			if startErr != nil && attempt == 2 {
				return nil, startErr
			}
			continue
		}
		// A supervisor that does not say hello did not take the job: it
		// was exiting, or it retired since it runs another program than
		// argv's, and another may be started.
		if _, _, err = c.WriteMsgUnix([]byte(req), rights, nil); err == nil {
			var hello string
			hello, _, err = readMsg(c, startTimeout)
			switch {
			case err == nil && hello == "retired":
				err = errors.New("the job supervisor ran a replaced program and retired")
			case err == nil && !strings.HasPrefix(hello, "hello "):
				err = fmt.Errorf("unexpected greeting %q", hello)
			}
		}
		if err == nil {
			return c, nil
		}
		c.Close()
		last = err
	}
	return nil, fmt.Errorf("cannot reach the job supervisor: %v", last)
}

// dialSupervisor connects to the supervisor's socket and checks that the
// supervisor runs as this process's user.
func (e *Executor) dialSupervisor() (*net.UnixConn, error) {
	addr, done, err := sockAddr(filepath.Join(e.dir, supSock))
	if err != nil {
		return nil, err
	}
	c, err := net.DialUnix("unixpacket", nil, &net.UnixAddr{Name: addr, Net: "unixpacket"})
	done()
	if err != nil {
		return nil, err
	}
	if uid, err := peerUID(c); err != nil || uid != os.Geteuid() {
		c.Close()
		return nil, fmt.Errorf("the job supervisor's socket belongs to user %d (%v)", uid, err)
	}
	return c, nil
}

// startSupervisor starts the host's supervisor, unless one answers
// already, and waits until it listens.
func (e *Executor) startSupervisor(argv []string) error {
	e.supMu.Lock()
	defer e.supMu.Unlock()
	if c, err := e.dialSupervisor(); err == nil {
		// Started meanwhile by another Start; the connection is not
		// taken, and is dropped.
		c.Close()
		return nil
	}
	logf, err := os.OpenFile(filepath.Join(e.dir, supLog), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("cannot start the job supervisor: %v", err)
	}
	defer logf.Close()
	r, w, err := os.Pipe()
	if err != nil {
		return fmt.Errorf("cannot start the job supervisor: %v", err)
	}
	defer r.Close()
	cmd := exec.Command(argv[0], append(slices.Clone(argv[1:]), SuperviseArg, e.dir)...)
	cmd.Stdout, cmd.Stderr, cmd.Dir = w, logf, "/"
	// A session of its own: the supervisor, and its jobs, outlive this
	// process and its process group.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	err = cmd.Start()
	w.Close()
	if err != nil {
		return fmt.Errorf("cannot start the job supervisor: %v", err)
	}
	go cmd.Wait() // reaped while this process lives
	msg, err := readHandshake(r, startTimeout)
	if err == nil && msg != "ready" {
		err = errors.New(strings.TrimPrefix(msg, "error: "))
	}
	if err != nil {
		if !errors.Is(err, os.ErrDeadlineExceeded) {
			cmd.Process.Kill()
		}
		return fmt.Errorf("cannot start the job supervisor %s: %v (see %s)", argv[0], err, filepath.Join(e.dir, supLog))
	}
	return nil
}

// closeSupervisor tells the host's supervisor, if this Executor used one,
// that it may exit now if it has no jobs and no other connection.
func (e *Executor) closeSupervisor() {
	e.mu.Lock()
	used := e.supervised
	e.mu.Unlock()
	if !used {
		return
	}
	c, err := e.dialSupervisor()
	if err != nil {
		return
	}
	defer c.Close()
	if _, _, err := c.WriteMsgUnix([]byte("close"), nil, nil); err == nil {
		// Wait for the supervisor's greeting and then for it to exit or
		// to close the connection.
		readMsg(c, time.Second)
		readMsg(c, time.Second)
	}
}
