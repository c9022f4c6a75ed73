package daemon

import (
	"log"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// ConnLimits bound what one client may hold of the daemon's listeners,
// the Unix socket and the TCP listener alike. Each zero field takes its
// default.
type ConnLimits struct {
	// ReadHeader bounds the reading of a request's headers (default
	// 10 s); Read the reading of a whole request, body included (default
	// 30 s); Write the time from the end of the headers to the end of
	// the answer (default 2 min: the longest a client waits). Handlers
	// that hold a request on purpose (an agent's long poll, a reload)
	// extend their own deadlines.
	ReadHeader, Read, Write time.Duration
	// Idle bounds how long a kept-alive connection waits for its next
	// request (default 2 min).
	Idle time.Duration
	// PerPeer is the number of connections one peer may hold at once:
	// one user on the Unix socket, one address on the TCP listener
	// (default 256). A connection past it is closed at once.
	PerPeer int
}

// withDefaults returns l with every zero field set to its default.
func (l ConnLimits) withDefaults() ConnLimits {
	def := func(v *time.Duration, d time.Duration) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&l.ReadHeader, 10*time.Second)
	def(&l.Read, 30*time.Second)
	def(&l.Write, 2*time.Minute)
	def(&l.Idle, 2*time.Minute)
	if l.PerPeer <= 0 {
		l.PerPeer = 256
	}
	return l
}

// server returns an HTTP server of h bounded by l, which logs its
// connections' failures (TLS handshakes refused) with logf.
func (l ConnLimits) server(h http.Handler, logf func(format string, args ...any)) *http.Server {
	return &http.Server{Handler: h, ReadHeaderTimeout: l.ReadHeader, ReadTimeout: l.Read,
		WriteTimeout: l.Write, IdleTimeout: l.Idle, ErrorLog: log.New(logWriter(logf), "", 0)}
}

// A logWriter passes each line written to it to a Logf.
type logWriter func(format string, args ...any)

func (w logWriter) Write(p []byte) (int, error) {
	w("%s", strings.TrimSuffix(string(p), "\n"))
	return len(p), nil
}

// holdFor extends the deadlines of the connection of a request that a
// handler holds on purpose for up to wait: its answer may then take the
// usual write time. Without it the read deadline, running since the
// request began, would end the held request at once.
func (d *Daemon) holdFor(w http.ResponseWriter, wait time.Duration) {
	rc := http.NewResponseController(w)
	until := time.Now().Add(wait + d.limits.Write)
	rc.SetReadDeadline(until)
	rc.SetWriteDeadline(until)
}

// A peerListener closes at once the connections of a peer that holds
// max already. key names a connection's peer ("" when it cannot be told:
// such connections share one count).
type peerListener struct {
	net.Listener
	max int
	key func(net.Conn) string

	mu    sync.Mutex
	count map[string]int
}

func limitPeers(ln net.Listener, max int, key func(net.Conn) string) *peerListener {
	return &peerListener{Listener: ln, max: max, key: key, count: map[string]int{}}
}

// Accept returns the next connection of a peer under its limit.
func (l *peerListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		k := l.key(c)
		l.mu.Lock()
		over := l.count[k] >= l.max
		if !over {
			l.count[k]++
		}
		l.mu.Unlock()
		if over {
			c.Close()
			continue
		}
		return &peerConn{Conn: c, release: func() { l.release(k) }}, nil
	}
}

func (l *peerListener) release(k string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.count[k]--; l.count[k] <= 0 {
		delete(l.count, k)
	}
}

// A peerConn gives back its place under its peer's limit when closed.
type peerConn struct {
	net.Conn
	once    sync.Once
	release func()
}

func (c *peerConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(c.release)
	return err
}

// unwrapConn returns the connection a peerConn wraps, or c.
func unwrapConn(c net.Conn) net.Conn {
	if pc, ok := c.(*peerConn); ok {
		return pc.Conn
	}
	return c
}

// tcpPeer names a TCP connection's peer by its address without port.
func tcpPeer(c net.Conn) string {
	host, _, err := net.SplitHostPort(c.RemoteAddr().String())
	if err != nil {
		return ""
	}
	return host
}

// unixPeer names a Unix socket connection's peer by its user id.
func unixPeer(c net.Conn) string {
	uc, ok := c.(*net.UnixConn)
	if !ok {
		return ""
	}
	raw, err := uc.SyscallConn()
	if err != nil {
		return ""
	}
	var cred *syscall.Ucred
	var cerr error
	if err := raw.Control(func(fd uintptr) {
		cred, cerr = syscall.GetsockoptUcred(int(fd), syscall.SOL_SOCKET, syscall.SO_PEERCRED)
	}); err != nil || cerr != nil {
		return ""
	}
	return strconv.Itoa(int(cred.Uid))
}
