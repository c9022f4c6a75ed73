package localexec

import (
	"os"
	"strconv"
	"syscall"
)

// A process inherits every descriptor its parent did not mark
// close-on-exec, and passes them on to the processes it starts in turn.
// lsfc's own descriptors are all close-on-exec, but a daemon or agent
// started from a shell, a terminal or a CI runner may have been given
// others (a pipe whose reader waits for every writer to close it, a
// file), and so may the supervisor or a job's wrapper they start. A job
// must not inherit them: it would hold them for its life, as LSF's jobs
// hold none of sbatchd's. CloseInheritedOnExec marks every descriptor
// above standard error close-on-exec. The daemon and the agent call it as
// they start, so that the supervisor they start does not hold them
// either; the job's wrapper and the supervisor call it as they start,
// for whatever else started them. The files a job is given go to it by
// name (its standard input, output and error, its job file), not by
// inheritance.

// closeRangeSys and closeRangeCloexec are close_range(2)'s system call
// number (the same on every architecture Linux added it to, since 5.9)
// and its flag that marks the descriptors rather than closing them
// (5.11).
const (
	closeRangeSys     = 436
	closeRangeCloexec = 1 << 2
)

// CloseInheritedOnExec marks every descriptor of this process above 2
// close-on-exec: with one close_range call, or, on a kernel without it,
// each descriptor /proc/self/fd lists. The process keeps them; the
// programs it starts do not get them.
func CloseInheritedOnExec() {
	if _, _, e := syscall.RawSyscall(closeRangeSys, 3, uintptr(^uint32(0)), closeRangeCloexec); e == 0 {
		return
	}
	cloexecListed()
}

// cloexecListed marks each descriptor above 2 that /proc/self/fd lists
// close-on-exec.
func cloexecListed() {
	ents, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		return
	}
	for _, ent := range ents {
		if fd, err := strconv.Atoi(ent.Name()); err == nil && fd > 2 {
			syscall.CloseOnExec(fd)
		}
	}
}
