package localexec

import (
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// A job's start and end open, write and read a handful of small regular
// files (its pid record and status, its lock, the spool and /proc
// entries). os.OpenFile offers each to the runtime's poller, which turns
// regular files away: five system calls more per open (fcntl twice to
// set O_NONBLOCK, epoll_ctl refused, fcntl twice to clear it). The
// functions here do the same work with bare system calls. They open with
// O_CLOEXEC, as os.OpenFile does, since the supervisor starts jobs from
// other threads meanwhile, try a call EINTR interrupted again, and give
// errors as *os.PathError, which errors.Is sees through as it does
// through those of package os.

// openFD opens path with flags and, when it creates the file, mode perm
// (less the umask), and returns its descriptor.
func openFD(path string, flags int, perm uint32) (int, error) {
	for {
		fd, err := syscall.Open(path, flags|syscall.O_CLOEXEC, perm)
		if err == nil {
			return fd, nil
		}
		if err != syscall.EINTR {
			return -1, &os.PathError{Op: "open", Path: path, Err: err}
		}
	}
}

// openFile is os.OpenFile for a file that is not to be polled: a regular
// file, or a device such as /dev/null. The *os.File it returns reads and
// writes as one from os.OpenFile does once the poller refused it.
func openFile(path string, flags int, perm os.FileMode) (*os.File, error) {
	fd, err := openFD(path, flags, uint32(perm.Perm()))
	if err != nil {
		return nil, err
	}
	return os.NewFile(uintptr(fd), path), nil
}

// writeFD writes all of data to descriptor fd, the file path.
func writeFD(fd int, path string, data []byte) error {
	for len(data) > 0 {
		n, err := syscall.Write(fd, data)
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return &os.PathError{Op: "write", Path: path, Err: err}
		case n == 0:
			return &os.PathError{Op: "write", Path: path, Err: io.ErrShortWrite}
		}
		data = data[n:]
	}
	return nil
}

// syncFD makes what descriptor fd, the file path, holds durable.
func syncFD(fd int, path string) error {
	for {
		err := syscall.Fsync(fd)
		if err == nil {
			return nil
		}
		if err != syscall.EINTR {
			return &os.PathError{Op: "sync", Path: path, Err: err}
		}
	}
}

// closeFD closes descriptor fd, the file path. It is not tried again
// after EINTR, since Linux has closed the descriptor by then, but the
// error is returned: the file's last writes may not have reached it (a
// network file system's).
func closeFD(fd int, path string) error {
	if err := syscall.Close(fd); err != nil {
		return &os.PathError{Op: "close", Path: path, Err: err}
	}
	return nil
}

// dupFD returns a new descriptor, close-on-exec, of fd's open file.
func dupFD(fd int, path string) (int, error) {
	for {
		r, _, e := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_DUPFD_CLOEXEC, 0)
		if e == 0 {
			return int(r), nil
		}
		if e != syscall.EINTR {
			return -1, &os.PathError{Op: "dup", Path: path, Err: e}
		}
	}
}

// readBufSize is what readFile reads first: more than a job's pid record,
// status or /proc stat line hold, so that each takes one read and the
// one that finds the end.
const readBufSize = 1024

// readFile reads the whole file path, as os.ReadFile does (a file of
// /proc included, whose size stat does not tell).
func readFile(path string) ([]byte, error) {
	fd, err := openFD(path, syscall.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer syscall.Close(fd)
	buf := make([]byte, 0, readBufSize)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := syscall.Read(fd, buf[len(buf):cap(buf)])
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return nil, &os.PathError{Op: "read", Path: path, Err: err}
		case n == 0:
			return buf, nil
		}
		buf = buf[:len(buf)+n]
	}
}

// createTemp creates a new file in dir, read-write and mode 0600 less the
// umask, named prefix, a random number and suffix, as os.CreateTemp does,
// and returns its descriptor and path.
func createTemp(dir, prefix, suffix string) (int, string, error) {
	if dir == "" {
		dir = "."
	}
	for try := 0; ; try++ {
		name := filepath.Join(dir, prefix+strconv.FormatUint(uint64(rand.Uint32()), 10)+suffix)
		fd, err := openFD(name, syscall.O_RDWR|syscall.O_CREAT|syscall.O_EXCL, 0o600)
		if err == nil {
			return fd, name, nil
		}
		if !errors.Is(err, syscall.EEXIST) || try == 10000 {
			return -1, "", err
		}
	}
}

// renameFile renames oldpath to newpath, replacing a file there, in one
// system call: os.Rename first stats newpath to refuse a directory there,
// which rename(2) refuses already when oldpath is a file, as it is here.
func renameFile(oldpath, newpath string) error {
	for {
		err := syscall.Rename(oldpath, newpath)
		if err == nil {
			return nil
		}
		if err != syscall.EINTR {
			return &os.LinkError{Op: "rename", Old: oldpath, New: newpath, Err: err}
		}
	}
}
