package attach

import (
	"errors"
	"fmt"
	"net/netip"
	"os"
	"syscall"
	"time"
)

// ParseAddr reads an address of bsub: an IP address and a port
// ("192.0.2.7:4242", "[2001:db8::7]:4242"). Host names are resolved by
// bsub, so that the job's wrapper needs no resolver.
func ParseAddr(s string) (netip.AddrPort, error) {
	ap, err := netip.ParseAddrPort(s)
	if err != nil || ap.Port() == 0 || !ap.Addr().IsValid() || ap.Addr().Zone() != "" {
		return netip.AddrPort{}, fmt.Errorf("submitter address %q is not IP:port", s)
	}
	return ap, nil
}

// Dial connects the job's wrapper to bsub: it tries each address (see
// ParseAddr) in turn, each for at most timeout and all within total, and
// returns the first connection whose peer proves it holds token, and the
// sealed Stream over it. The error names every address that failed. The
// connection is a socket opened with the system calls alone (the job
// starter links no network package); its deadlines can be set.
func Dial(addrs []string, token string, timeout, total time.Duration) (*os.File, *Stream, error) {
	var errs []error
	end := time.Now().Add(total)
	for _, a := range addrs {
		left := time.Until(end)
		if left <= 0 {
			errs = append(errs, fmt.Errorf("%s: not tried: no time left", a))
			continue
		}
		c, err := dialOne(a, min(timeout, left))
		if err == nil {
			c.SetDeadline(time.Now().Add(handshakeTimeout))
			var s *Stream
			if s, err = ClientHandshake(c, token); err == nil {
				c.SetDeadline(time.Time{})
				return c, s, nil
			}
			c.Close()
		}
		errs = append(errs, fmt.Errorf("%s: %w", a, err))
	}
	if len(errs) == 0 {
		return nil, nil, errors.New("no address to reach the submitter at")
	}
	return nil, nil, errors.Join(errs...)
}

// dialOne opens a TCP connection to addr within timeout, with
// keep-alive probes that find a peer gone within about a minute.
func dialOne(addr string, timeout time.Duration) (*os.File, error) {
	ap, err := ParseAddr(addr)
	if err != nil {
		return nil, err
	}
	var sa syscall.Sockaddr
	family := syscall.AF_INET
	if ip := ap.Addr(); ip.Is4() || ip.Is4In6() {
		sa = &syscall.SockaddrInet4{Port: int(ap.Port()), Addr: ip.Unmap().As4()}
	} else {
		family = syscall.AF_INET6
		sa = &syscall.SockaddrInet6{Port: int(ap.Port()), Addr: ip.As16()}
	}
	fd, err := syscall.Socket(family, syscall.SOCK_STREAM|syscall.SOCK_CLOEXEC, syscall.IPPROTO_TCP)
	if err != nil {
		return nil, err
	}
	// A blocking connect gives up after the send timeout.
	tv := syscall.NsecToTimeval(timeout.Nanoseconds())
	syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, syscall.SO_SNDTIMEO, &tv)
	for {
		err = syscall.Connect(fd, sa)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		syscall.Close(fd)
		if err == syscall.EINPROGRESS || err == syscall.EAGAIN {
			err = fmt.Errorf("no answer within %v", timeout)
		}
		return nil, err
	}
	var zero syscall.Timeval
	syscall.SetsockoptTimeval(fd, syscall.SOL_SOCKET, syscall.SO_SNDTIMEO, &zero)
	syscall.SetsockoptInt(fd, syscall.SOL_SOCKET, syscall.SO_KEEPALIVE, 1)
	syscall.SetsockoptInt(fd, syscall.IPPROTO_TCP, syscall.TCP_KEEPIDLE, 15)
	syscall.SetsockoptInt(fd, syscall.IPPROTO_TCP, syscall.TCP_KEEPINTVL, 15)
	syscall.SetsockoptInt(fd, syscall.IPPROTO_TCP, syscall.TCP_KEEPCNT, 4)
	syscall.SetsockoptInt(fd, syscall.IPPROTO_TCP, syscall.TCP_NODELAY, 1)
	// Non-blocking, the socket joins the runtime's poller: reads and
	// writes wait without holding a thread, and take deadlines.
	if err := syscall.SetNonblock(fd, true); err != nil {
		syscall.Close(fd)
		return nil, err
	}
	return os.NewFile(uintptr(fd), "tcp:"+addr), nil
}

// CloseWrite shuts the sending side of a connection Dial returned: the
// peer reads its end, and can still be read from.
func CloseWrite(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	if err := rc.Control(func(fd uintptr) { serr = syscall.Shutdown(int(fd), syscall.SHUT_WR) }); err != nil {
		return err
	}
	return serr
}
