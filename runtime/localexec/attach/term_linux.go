package attach

import (
	"fmt"
	"os"
	"strconv"
	"syscall"
	"unsafe"
)

// ioctl runs the ioctl req on fd with the argument arg.
func ioctl(fd uintptr, req uint, arg unsafe.Pointer) error {
	if _, _, e := syscall.Syscall(syscall.SYS_IOCTL, fd, uintptr(req), uintptr(arg)); e != 0 {
		return e
	}
	return nil
}

// OpenPty opens a new pseudo-terminal: its master side, and its slave
// side, the terminal a job gets.
func OpenPty() (master, slave *os.File, err error) {
	master, err = os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, nil, err
	}
	var n uint32
	var unlock int32
	if err = ioctl(master.Fd(), syscall.TIOCGPTN, unsafe.Pointer(&n)); err == nil {
		err = ioctl(master.Fd(), syscall.TIOCSPTLCK, unsafe.Pointer(&unlock))
	}
	if err != nil {
		master.Close()
		return nil, nil, fmt.Errorf("pseudo-terminal: %v", err)
	}
	name := "/dev/pts/" + strconv.FormatUint(uint64(n), 10)
	slave, err = os.OpenFile(name, os.O_RDWR|syscall.O_NOCTTY|syscall.O_CLOEXEC, 0)
	if err != nil {
		master.Close()
		return nil, nil, err
	}
	return master, slave, nil
}

// A TermState is a terminal's modes, to restore.
type TermState struct{ t syscall.Termios }

// IsTerminal reports whether fd is a terminal.
func IsTerminal(fd uintptr) bool {
	var t syscall.Termios
	return ioctl(fd, syscall.TCGETS, unsafe.Pointer(&t)) == nil
}

// MakeRaw puts the terminal fd in raw mode, as cfmakeraw does, and
// returns its former modes. With keepSignals, the interrupt, quit and
// suspend characters still raise their signals (ISIG stays on).
func MakeRaw(fd uintptr, keepSignals bool) (*TermState, error) {
	var old syscall.Termios
	if err := ioctl(fd, syscall.TCGETS, unsafe.Pointer(&old)); err != nil {
		return nil, err
	}
	t := old
	t.Iflag &^= syscall.IGNBRK | syscall.BRKINT | syscall.PARMRK | syscall.ISTRIP | syscall.INLCR | syscall.IGNCR | syscall.ICRNL | syscall.IXON
	t.Oflag &^= syscall.OPOST
	t.Lflag &^= syscall.ECHO | syscall.ECHONL | syscall.ICANON | syscall.ISIG | syscall.IEXTEN
	if keepSignals {
		t.Lflag |= syscall.ISIG
	}
	t.Cflag &^= syscall.CSIZE | syscall.PARENB
	t.Cflag |= syscall.CS8
	t.Cc[syscall.VMIN] = 1
	t.Cc[syscall.VTIME] = 0
	if err := ioctl(fd, syscall.TCSETS, unsafe.Pointer(&t)); err != nil {
		return nil, err
	}
	return &TermState{t: old}, nil
}

// Restore gives the terminal fd back the modes of s.
func Restore(fd uintptr, s *TermState) error {
	return ioctl(fd, syscall.TCSETS, unsafe.Pointer(&s.t))
}

// winsize is struct winsize of the kernel.
type winsize struct{ rows, cols, x, y uint16 }

// GetWinsize returns the rows and columns of the terminal fd.
func GetWinsize(fd uintptr) (rows, cols uint16, err error) {
	var w winsize
	if err := ioctl(fd, syscall.TIOCGWINSZ, unsafe.Pointer(&w)); err != nil {
		return 0, 0, err
	}
	return w.rows, w.cols, nil
}

// SetWinsize sets the rows and columns of the terminal fd; the kernel
// tells the terminal's foreground processes with SIGWINCH.
func SetWinsize(fd uintptr, rows, cols uint16) error {
	w := winsize{rows: rows, cols: cols}
	return ioctl(fd, syscall.TIOCSWINSZ, unsafe.Pointer(&w))
}
