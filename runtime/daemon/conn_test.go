package daemon_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/daemon"
	"github.com/lsfc/lsfc/runtime/localexec"
)

// startLimited starts a daemon with a TCP listener whose connections
// are bounded by limits.
func startLimited(t *testing.T, limits daemon.ConnLimits) (*daemon.Daemon, string) {
	t.Helper()
	p, err := compileTree(writeConf(t))
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	d, err := daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: state,
		WrapperPath: []string{os.Args[0], localexec.WrapperArg}, MinInterval: 5 * time.Millisecond,
		Listen: "127.0.0.1:0", Secret: "s3cret", Conn: limits, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d, state
}

// A slowConn is a client that holds a connection without finishing its
// request, in one of several ways.
type slowConn struct {
	kind  string
	c     net.Conn
	limit time.Duration // the timeout that must close it
}

// The ways of holding a connection: headers sent a byte at a time, a
// body sent a byte at a time (as a known user, over TCP and the Unix
// socket), and a connection left idle after an answer.
var slowKinds = []string{"headers", "body", "unix body", "idle"}

// openSlow opens a slow connection of the given kind and starts
// trickling its request; stop ends the trickle.
func openSlow(t *testing.T, kind, addr, state string, limits daemon.ConnLimits, stop <-chan struct{}) *slowConn {
	t.Helper()
	network, where := "tcp", addr
	if kind == "unix body" {
		network, where = "unix", api.SocketPath(state)
	}
	c, err := net.Dial(network, where)
	if err != nil {
		t.Fatalf("%s: %v", kind, err)
	}
	s := &slowConn{kind: kind, c: c}
	var head, trickle string
	switch kind {
	case "headers":
		s.limit = limits.ReadHeader
		trickle = "GET /v1/jobs HTTP/1.1\r\nHost: lsfc\r\nX-Padding: " + strings.Repeat("x", 1000)
	case "body", "unix body":
		s.limit = limits.Read
		head = "POST /v1/jobs HTTP/1.1\r\nHost: lsfc\r\nAuthorization: Bearer s3cret\r\nX-Lsfc-User: alice\r\n" +
			"Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n"
		trickle = `{"command":"` + strings.Repeat("x", 990)
	case "idle":
		s.limit = limits.Idle
		head = "GET /v1/status HTTP/1.1\r\nHost: lsfc\r\nAuthorization: Bearer s3cret\r\nX-Lsfc-User: alice\r\n\r\n"
	}
	if _, err := io.WriteString(c, head); err != nil {
		t.Fatalf("%s: %v", kind, err)
	}
	if trickle != "" {
		go func() {
			tick := time.NewTicker(100 * time.Millisecond)
			defer tick.Stop()
			for i := 0; i < len(trickle); i++ {
				select {
				case <-stop:
					return
				case <-tick.C:
				}
				if _, err := c.Write([]byte{trickle[i]}); err != nil {
					return
				}
			}
		}()
	}
	return s
}

// TestSlowConnections holds 500 slow connections on both listeners: a
// query still answers within 100 ms meanwhile, and each slow connection
// is closed by the timeout of its kind.
func TestSlowConnections(t *testing.T) {
	limits := daemon.ConnLimits{ReadHeader: 3 * time.Second, Read: 3500 * time.Millisecond, Write: 4 * time.Second,
		Idle: 3 * time.Second, PerPeer: 1000}
	d, state := startLimited(t, limits)
	stop := make(chan struct{})
	defer close(stop)
	opened := time.Now()
	var slow []*slowConn
	for i := range 500 {
		slow = append(slow, openSlow(t, slowKinds[i%len(slowKinds)], d.Addr(), state, limits, stop))
	}
	// Every slow connection is closed by its own timeout: read each to
	// its end, concurrently, and note when that came.
	type end struct {
		after time.Duration
		err   error
	}
	ends := make([]end, len(slow))
	var closed atomic.Int32
	var wg sync.WaitGroup
	for i, s := range slow {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.c.SetReadDeadline(opened.Add(s.limit + 5*time.Second))
			_, err := io.Copy(io.Discard, s.c)
			closed.Add(1)
			ends[i] = end{time.Since(opened), err}
			s.c.Close()
		}()
	}
	// Meanwhile bjobs answers, on the socket and over TCP: within 100 ms
	// (the median of ten, as the machine's own load may delay any one),
	// and each while all 500 are still held.
	for _, c := range []*client{unixClient(state), tcpClient(d.Addr(), "s3cret", "alice")} {
		var took []time.Duration
		for range 10 {
			start := time.Now()
			var jobs []api.Job
			if code, err := c.call("GET", "/v1/jobs", nil, &jobs); err != nil || code != http.StatusOK {
				t.Fatalf("bjobs while 500 connections are held: %d %v", code, err)
			}
			if n := closed.Load(); n > 0 {
				t.Fatalf("bjobs answered only once %d slow connections were closed (%v after they began to open)", n, time.Since(opened))
			}
			took = append(took, time.Since(start))
		}
		slices.Sort(took)
		if median := took[len(took)/2]; median > 100*time.Millisecond {
			t.Errorf("bjobs took %v while 500 connections are held: want a median of at most 100 ms", took)
		}
	}
	wg.Wait()
	for i, s := range slow {
		e := ends[i]
		var ne net.Error
		if errors.As(e.err, &ne) && ne.Timeout() {
			t.Errorf("%s connection %d still open after %v (its timeout is %v)", s.kind, i, e.after, s.limit)
			continue
		}
		if e.after < s.limit-200*time.Millisecond {
			t.Errorf("%s connection %d closed after %v, before its timeout of %v", s.kind, i, e.after, s.limit)
		}
	}
}

// TestRefusedBeforeBody: a TCP client without the secret that sends the
// headers of a large request is refused at once, without the body being
// waited for, and its connection is closed.
func TestRefusedBeforeBody(t *testing.T) {
	d, _ := startLimited(t, daemon.ConnLimits{})
	c, err := net.Dial("tcp", d.Addr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprintf(c, "POST /v1/jobs HTTP/1.1\r\nHost: lsfc\r\nAuthorization: Bearer wrong\r\nX-Lsfc-User: alice\r\n"+
		"Content-Length: 100000\r\n\r\n{\"command\":")
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("no answer before the body: %v", err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusUnauthorized || !resp.Close {
		t.Errorf("answer %d (close %v) %s, want 401 and the connection closed", resp.StatusCode, resp.Close, body)
	}
}

// holdConn opens a connection to addr from the local address from (""
// for any) and sends half a request: it stays open until the server
// closes it.
func holdConn(t *testing.T, network, addr, from string) net.Conn {
	t.Helper()
	var dialer net.Dialer
	if from != "" {
		dialer.LocalAddr = &net.TCPAddr{IP: net.ParseIP(from)}
	}
	c, err := dialer.Dial(network, addr)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(c, "GET /v1/status HTTP/1.1\r\n")
	return c
}

// served reports whether a connection is answered: a whole request is
// sent on it and an answer comes back, rather than its end.
func served(network, addr, from string) bool {
	var dialer net.Dialer
	if from != "" {
		dialer.LocalAddr = &net.TCPAddr{IP: net.ParseIP(from)}
	}
	c, err := dialer.Dial(network, addr)
	if err != nil {
		return false
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	io.WriteString(c, "GET /v1/status HTTP/1.1\r\nHost: lsfc\r\nAuthorization: Bearer s3cret\r\nX-Lsfc-User: alice\r\n\r\n")
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		return false
	}
	resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}

// TestPeerLimit: a peer that holds as many connections as it may has the
// next closed at once, while other peers are served; a connection it
// gives back makes room again. The Unix socket counts by user.
func TestPeerLimit(t *testing.T) {
	d, state := startLimited(t, daemon.ConnLimits{PerPeer: 4})
	sock := api.SocketPath(state)
	for _, tc := range []struct {
		name, network, addr, from string
		other                     func() bool
	}{
		{"tcp", "tcp", d.Addr(), "127.0.0.1", func() bool { return served("tcp", d.Addr(), "127.0.0.2") }},
		{"unix", "unix", sock, "", func() bool { return served("tcp", d.Addr(), "127.0.0.3") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var held []net.Conn
			for range 4 {
				held = append(held, holdConn(t, tc.network, tc.addr, tc.from))
			}
			// The server counts a connection once it accepted it: wait
			// until the fifth is refused.
			waitFor(t, "the fifth connection refused", func() bool { return !served(tc.network, tc.addr, tc.from) })
			if !tc.other() {
				t.Errorf("another peer is refused too")
			}
			held[0].Close()
			waitFor(t, "a connection served again", func() bool { return served(tc.network, tc.addr, tc.from) })
			for _, c := range held[1:] {
				c.Close()
			}
		})
	}
}

// TestLongPollOutlivesTimeouts: an agent's exchange held longer than the
// read and write timeouts is answered all the same.
func TestLongPollOutlivesTimeouts(t *testing.T) {
	d, _ := startLimited(t, daemon.ConnLimits{ReadHeader: 200 * time.Millisecond, Read: 200 * time.Millisecond,
		Write: 200 * time.Millisecond, Idle: 200 * time.Millisecond})
	c := api.DialTCP(d.Addr(), "s3cret", "boss")
	start := time.Now()
	if _, err := c.AgentSync(context.Background(), &api.AgentSync{Host: "hostB", Interval: 10, Wait: 1}); err != nil {
		t.Fatalf("a long poll of 1 s with timeouts of 200 ms: %v", err)
	}
	if took := time.Since(start); took < 900*time.Millisecond {
		t.Errorf("the long poll answered after %v, want it held about 1 s", took)
	}
}
