package localexec

import (
	"syscall"
	"testing"
)

// TestCloseInheritedOnExec opens descriptors without close-on-exec, as a
// process may inherit them, and checks that both ways of marking them
// (close_range, and /proc/self/fd's list) mark them, and leave them open.
func TestCloseInheritedOnExec(t *testing.T) {
	for name, mark := range map[string]func(){"close_range": CloseInheritedOnExec, "proc": cloexecListed} {
		t.Run(name, func(t *testing.T) {
			fd, err := syscall.Open("/dev/null", syscall.O_RDONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer syscall.Close(fd)
			if flags := fdFlags(t, fd); flags&syscall.FD_CLOEXEC != 0 {
				t.Fatalf("descriptor %d is close-on-exec before the test", fd)
			}
			mark()
			if flags := fdFlags(t, fd); flags&syscall.FD_CLOEXEC == 0 {
				t.Errorf("descriptor %d is not close-on-exec", fd)
			}
		})
	}
}

// fdFlags returns descriptor fd's flags (F_GETFD).
func fdFlags(t *testing.T, fd int) int {
	t.Helper()
	r, _, e := syscall.Syscall(syscall.SYS_FCNTL, uintptr(fd), syscall.F_GETFD, 0)
	if e != 0 {
		t.Fatalf("descriptor %d: %v", fd, e)
	}
	return int(r)
}
