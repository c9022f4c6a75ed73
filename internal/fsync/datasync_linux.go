package fsync

import (
	"os"
	"syscall"
)

// DataSync makes the data written to f, and its length, durable
// (fdatasync).
func DataSync(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	err = rc.Control(func(fd uintptr) {
		for {
			serr = syscall.Fdatasync(int(fd))
			if serr != syscall.EINTR {
				return
			}
		}
	})
	if err != nil {
		return err
	}
	if serr != nil {
		return os.NewSyscallError("fdatasync", serr)
	}
	return nil
}
