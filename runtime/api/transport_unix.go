//go:build unix

package api

import (
	"net"
	"syscall"
)

// alive reports whether a kept connection is still open: the daemon has
// neither closed it nor sent anything on it while it was kept (a peek
// that would wait finds nothing).
func alive(c net.Conn) bool {
	if tc, ok := c.(interface{ NetConn() net.Conn }); ok {
		c = tc.NetConn() // a TLS connection
	}
	sc, ok := c.(syscall.Conn)
	if !ok {
		return true
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return false
	}
	open := true
	err = rc.Read(func(fd uintptr) bool {
		var b [1]byte
		_, _, err := syscall.Recvfrom(int(fd), b[:], syscall.MSG_PEEK|syscall.MSG_DONTWAIT)
		// Nothing to read (EAGAIN) is an open, quiet connection; the end
		// (0 bytes), data nobody asked for or any failure is not.
		open = err == syscall.EAGAIN || err == syscall.EWOULDBLOCK
		return true
	})
	return err == nil && open
}
