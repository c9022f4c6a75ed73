package api

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// The client speaks HTTP/1.1 itself, on connections it keeps open between
// requests: the daemon's routes need a request line, a few headers and a
// JSON body, and an answer framed by its length or in chunks, which is
// far less than a general HTTP client links and initialises at every
// command's start.

// maxHeaderBytes bounds the status line and headers of one answer.
const maxHeaderBytes = 64 << 10

// A transport sends requests to the daemon, on connections to addr (a
// host:port, or the socket of a Unix client), and keeps up to maxIdle of
// them open for the next requests.
type transport struct {
	// dial opens a connection to addr.
	dial func(ctx context.Context, addr string) (net.Conn, error)
	// secure, when set, starts TLS on each new connection to addr
	// (SetHandshake).
	secure      func(ctx context.Context, c net.Conn, addr string) (net.Conn, error)
	maxIdle     int
	idleTimeout time.Duration

	mu   sync.Mutex
	idle map[string][]*pconn
}

// A pconn is a connection with the reader of its answers.
type pconn struct {
	c      net.Conn
	br     *bufio.Reader
	idleAt time.Time
}

// A response is the daemon's answer: its status, the headers a client of
// the daemon reads, and its body.
type response struct {
	status int
	reason string
	leader []string // X-Lsfc-Leader, when sent
	body   []byte
}

// unixDialer returns the dialer of a Unix client, which connects to sock
// whatever the address.
func unixDialer(sock string) func(context.Context, string) (net.Conn, error) {
	return func(ctx context.Context, _ string) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "unix", sock)
	}
}

// tcpDialer returns the dialer of a TCP client, from the local address
// local when it is not nil.
func tcpDialer(local net.IP) func(context.Context, string) (net.Conn, error) {
	d := &net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}
	if local != nil {
		d.LocalAddr = &net.TCPAddr{IP: local}
	}
	return func(ctx context.Context, addr string) (net.Conn, error) {
		return d.DialContext(ctx, "tcp", addr)
	}
}

// A requestError is a transport failure of one request, with what was
// being done: "dial", "write" or "read".
type requestError struct {
	op, method, path string
	err              error
}

func (e *requestError) Error() string {
	return fmt.Sprintf("%s %s: %s: %v", e.method, e.path, e.op, e.err)
}

func (e *requestError) Unwrap() error { return e.err }

// Timeout reports whether the request ended because it took too long.
func (e *requestError) Timeout() bool {
	var t interface{ Timeout() bool }
	return errors.As(e.err, &t) && t.Timeout()
}

// errTimeout is the error of a request that got no whole answer within
// requestTimeout.
var errTimeout = timeoutError{}

type timeoutError struct{}

func (timeoutError) Error() string {
	return "no answer within " + requestTimeout.String()
}
func (timeoutError) Timeout() bool { return true }

// roundTrip sends one request to addr (host names the daemon in the Host
// header) and returns its answer, read whole, of at most
// maxResponseBytes. headers are name, value pairs. A request that fails
// on a kept connection before anything of its answer arrived, because
// the daemon had closed it, is sent again once on a new one when it is a
// GET; a POST is not, since it may have taken effect.
func (t *transport) roundTrip(ctx context.Context, addr, host, method, target string, headers []string, body []byte) (*response, error) {
	for i := 0; i+1 < len(headers); i += 2 {
		if !validHeaderValue(headers[i+1]) {
			return nil, &requestError{op: "write", method: method, path: target,
				err: fmt.Errorf("the %s header holds a character a header may not", headers[i])}
		}
	}
	req := buildRequest(host, method, target, headers, body)
	deadline := time.Now().Add(requestTimeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	for attempt := 0; ; attempt++ {
		pc, reused, err := t.conn(ctx, addr, deadline)
		if err != nil {
			switch d, ok := ctx.Deadline(); {
			case ctx.Err() != nil:
				err = ctx.Err()
			case !time.Now().Before(deadline) && ok && !d.After(deadline):
				err = context.DeadlineExceeded
			case !time.Now().Before(deadline):
				err = errTimeout
			}
			return nil, &requestError{op: "dial", method: method, path: target, err: err}
		}
		resp, started, keep, err := t.exchange(ctx, pc, req, method, deadline)
		if err == nil {
			if keep {
				t.put(addr, pc)
			} else {
				pc.c.Close()
			}
			return resp, nil
		}
		pc.c.Close()
		if reused && !started && attempt == 0 && method == "GET" && ctx.Err() == nil && connectionLost(err) {
			continue
		}
		return nil, err
	}
}

// exchange writes a request on pc and reads its answer. started says
// whether any of the answer arrived; keep whether the connection may
// carry another request.
func (t *transport) exchange(ctx context.Context, pc *pconn, req []byte, method string, deadline time.Time) (resp *response, started, keep bool, err error) {
	pc.c.SetDeadline(deadline)
	// A cancelled context ends the exchange at once: the deadline passes.
	stop := context.AfterFunc(ctx, func() { pc.c.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	fail := func(op string, err error) error {
		switch {
		case ctx.Err() != nil:
			err = ctx.Err()
		case errors.Is(err, os.ErrDeadlineExceeded):
			// The connection's deadline is the context's when it is
			// the sooner, and may pass a moment before the context ends.
			if d, ok := ctx.Deadline(); ok && !d.After(deadline) {
				err = context.DeadlineExceeded
			} else {
				err = errTimeout
			}
		}
		return &requestError{op: op, method: method, path: targetOf(req), err: err}
	}
	if _, err := pc.c.Write(req); err != nil {
		return nil, false, false, fail("write", err)
	}
	resp, started, keep, err = readResponse(pc.br, method, maxResponseBytes)
	if err != nil {
		return nil, started, false, fail("read", err)
	}
	pc.c.SetDeadline(time.Time{})
	return resp, true, keep, nil
}

// targetOf returns the target of a request built by buildRequest.
func targetOf(req []byte) string {
	line := string(req[:min(len(req), 512)])
	if i := strings.IndexByte(line, ' '); i >= 0 {
		line = line[i+1:]
		if j := strings.IndexByte(line, ' '); j >= 0 {
			return line[:j]
		}
	}
	return ""
}

// buildRequest returns a request as sent.
func buildRequest(host, method, target string, headers []string, body []byte) []byte {
	var b strings.Builder
	b.Grow(128 + len(target) + len(body))
	b.WriteString(method)
	b.WriteByte(' ')
	b.WriteString(target)
	b.WriteString(" HTTP/1.1\r\nHost: ")
	b.WriteString(host)
	b.WriteString("\r\nUser-Agent: lsfc\r\n")
	for i := 0; i+1 < len(headers); i += 2 {
		b.WriteString(headers[i])
		b.WriteString(": ")
		b.WriteString(headers[i+1])
		b.WriteString("\r\n")
	}
	if body != nil || method == "POST" {
		b.WriteString("Content-Length: ")
		b.WriteString(strconv.Itoa(len(body)))
		b.WriteString("\r\n")
	}
	b.WriteString("\r\n")
	b.Write(body)
	return []byte(b.String())
}

// validHeaderValue reports whether s may be sent as a header's value: no
// control character but the tab.
func validHeaderValue(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < ' ' && c != '\t' || c == 0x7f {
			return false
		}
	}
	return true
}

// conn returns a kept connection to addr that the daemon has not closed,
// or a new one, and whether it was kept.
func (t *transport) conn(ctx context.Context, addr string, deadline time.Time) (*pconn, bool, error) {
	for {
		pc := t.take(addr)
		if pc == nil {
			break
		}
		if alive(pc.c) {
			return pc, true, nil
		}
		pc.c.Close()
	}
	dctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	c, err := t.dial(dctx, addr)
	if err != nil {
		return nil, false, err
	}
	if t.secure != nil {
		sc, err := t.secure(dctx, c, addr)
		if err != nil {
			c.Close()
			return nil, false, err
		}
		c = sc
	}
	return &pconn{c: c, br: bufio.NewReaderSize(c, 16<<10)}, false, nil
}

// take returns the connection to addr kept last, nil when none is kept
// or all are too old.
func (t *transport) take(addr string) *pconn {
	t.mu.Lock()
	defer t.mu.Unlock()
	for l := t.idle[addr]; len(l) > 0; l = t.idle[addr] {
		pc := l[len(l)-1]
		t.idle[addr] = l[:len(l)-1]
		if t.idleTimeout <= 0 || time.Since(pc.idleAt) < t.idleTimeout {
			return pc
		}
		pc.c.Close()
	}
	return nil
}

// put keeps a connection for the next request to addr, or closes it when
// enough are kept.
func (t *transport) put(addr string, pc *pconn) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.idle == nil {
		t.idle = map[string][]*pconn{}
	}
	if len(t.idle[addr]) >= max(t.maxIdle, 1) || pc.br.Buffered() > 0 {
		pc.c.Close()
		return
	}
	pc.idleAt = time.Now()
	t.idle[addr] = append(t.idle[addr], pc)
}

// closeIdle closes the kept connections.
func (t *transport) closeIdle() {
	t.mu.Lock()
	defer t.mu.Unlock()
	for addr, l := range t.idle {
		for _, pc := range l {
			pc.c.Close()
		}
		delete(t.idle, addr)
	}
}

// errMalformed is wrapped by the errors of answers that are not HTTP.
var errMalformed = errors.New("malformed answer")

// malformed returns an error that wraps errMalformed.
func malformed(format string, args ...any) error {
	return fmt.Errorf("%w: %s", errMalformed, fmt.Sprintf(format, args...))
}

// readResponse reads one answer to a request of method from br: its
// status line, headers and body, framed by Content-Length, in chunks, or
// up to the end of the connection, of at most limit bytes. Informational
// answers (1xx) before it are skipped. started says whether any byte of
// it was read; keep whether the connection may carry another request.
func readResponse(br *bufio.Reader, method string, limit int) (resp *response, started, keep bool, err error) {
	headerBytes := 0
	line := func() (string, error) {
		s, err := br.ReadSlice('\n')
		headerBytes += len(s)
		if len(s) > 0 {
			started = true
		}
		if errors.Is(err, bufio.ErrBufferFull) || headerBytes > maxHeaderBytes {
			return "", malformed("headers longer than %d bytes", maxHeaderBytes)
		}
		if err != nil {
			if err == io.EOF && started {
				err = io.ErrUnexpectedEOF
			}
			return "", err
		}
		return strings.TrimRight(string(s), "\r\n"), nil
	}
	for {
		resp = &response{}
		status, err := line()
		if err != nil {
			return nil, started, false, err
		}
		proto, rest, ok := strings.Cut(status, " ")
		if !ok || !strings.HasPrefix(proto, "HTTP/1.") || len(proto) != len("HTTP/1.1") {
			return nil, started, false, malformed("status line %q", truncate(status))
		}
		code, reason, _ := strings.Cut(rest, " ")
		n, err := strconv.Atoi(code)
		if err != nil || len(code) != 3 || n < 100 {
			return nil, started, false, malformed("status line %q", truncate(status))
		}
		resp.status, resp.reason = n, reason
		keep = proto == "HTTP/1.1"
		length := int64(-1)
		chunked := false
		for {
			h, err := line()
			if err != nil {
				return nil, started, false, err
			}
			if h == "" {
				break
			}
			name, value, ok := strings.Cut(h, ":")
			if !ok || name == "" || strings.ContainsAny(name, " \t") {
				return nil, started, false, malformed("header line %q", truncate(h))
			}
			value = strings.TrimSpace(value)
			switch {
			case strings.EqualFold(name, "Content-Length"):
				v, err := strconv.ParseInt(value, 10, 64)
				if err != nil || v < 0 || length >= 0 && v != length {
					return nil, started, false, malformed("Content-Length %q", truncate(value))
				}
				length = v
			case strings.EqualFold(name, "Transfer-Encoding"):
				if !strings.EqualFold(value, "chunked") {
					return nil, started, false, malformed("Transfer-Encoding %q", truncate(value))
				}
				chunked = true
			case strings.EqualFold(name, "Connection"):
				for tok := range strings.SplitSeq(value, ",") {
					switch tok = strings.TrimSpace(tok); {
					case strings.EqualFold(tok, "close"):
						keep = false
					case strings.EqualFold(tok, "keep-alive") && proto == "HTTP/1.0":
						keep = true
					}
				}
			case strings.EqualFold(name, HeaderLeader):
				resp.leader = append(resp.leader, value)
			}
		}
		if n < 200 {
			if n == 101 {
				return nil, started, false, malformed("the daemon switched protocols")
			}
			continue // 100 Continue and the like: the answer follows
		}
		if method == "HEAD" || n == 204 || n == 304 {
			return resp, started, keep, nil
		}
		switch {
		case chunked:
			resp.body, err = readChunked(br, limit, &headerBytes)
		case length >= 0:
			if length > int64(limit) {
				return nil, started, false, fmt.Errorf("the answer of %d bytes is larger than %d", length, limit)
			}
			resp.body = make([]byte, length)
			_, err = io.ReadFull(br, resp.body)
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
		default:
			// Framed by the end of the connection.
			keep = false
			resp.body, err = io.ReadAll(io.LimitReader(br, int64(limit)+1))
			if err == nil && len(resp.body) > limit {
				err = fmt.Errorf("the answer is larger than %d bytes", limit)
			}
		}
		if err != nil {
			return nil, started, false, err
		}
		return resp, started, keep, nil
	}
}

// readChunked reads a chunked body of at most limit bytes and its
// trailer; trailerBytes counts the bytes of chunk sizes and trailers
// against maxHeaderBytes.
func readChunked(br *bufio.Reader, limit int, trailerBytes *int) ([]byte, error) {
	var body []byte
	line := func() (string, error) {
		s, err := br.ReadSlice('\n')
		*trailerBytes += len(s)
		if errors.Is(err, bufio.ErrBufferFull) || *trailerBytes > maxHeaderBytes+limit/16 {
			return "", malformed("chunk line too long")
		}
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		if err != nil {
			return "", err
		}
		return strings.TrimRight(string(s), "\r\n"), nil
	}
	for {
		l, err := line()
		if err != nil {
			return nil, err
		}
		size, _, _ := strings.Cut(l, ";") // chunk extensions are ignored
		size = strings.TrimSpace(size)
		n, err := strconv.ParseUint(size, 16, 63)
		if err != nil || size == "" {
			return nil, malformed("chunk size %q", truncate(l))
		}
		if n == 0 {
			break
		}
		if n > uint64(limit-len(body)) {
			return nil, fmt.Errorf("the answer is larger than %d bytes", limit)
		}
		start := len(body)
		body = append(body, make([]byte, n)...)
		if _, err := io.ReadFull(br, body[start:]); err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return nil, err
		}
		crlf, err := line()
		if err != nil {
			return nil, err
		}
		if crlf != "" {
			return nil, malformed("chunk of %d bytes not followed by its line end", n)
		}
	}
	// Trailers, up to an empty line.
	for {
		l, err := line()
		if err != nil {
			return nil, err
		}
		if l == "" {
			break
		}
	}
	if body == nil {
		body = []byte{}
	}
	return body, nil
}

// truncate shortens a piece of a bad answer quoted in an error.
func truncate(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}
