package api

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// read reads one answer from text with readResponse.
func read(text string, limit int) (*response, bool, error) {
	resp, _, keep, err := readResponse(bufio.NewReader(strings.NewReader(text)), "GET", limit)
	return resp, keep, err
}

// TestReadResponse reads answers framed every way HTTP/1.1 frames them,
// and refuses truncated, oversized and malformed ones.
func TestReadResponse(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		status     int
		body       string
		keep       bool
	}{
		{"length", "HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello", 200, "hello", true},
		{"chunked", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n1;ext=1\r\n!\r\n0\r\nX-Trailer: 1\r\n\r\n", 200, "hello!", true},
		{"to the end", "HTTP/1.1 200 OK\r\n\r\nhello", 200, "hello", false},
		{"close", "HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 2\r\n\r\n{}", 404, "{}", false},
		{"1.0", "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok", 200, "ok", false},
		{"1.0 kept", "HTTP/1.0 200 OK\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\nok", 200, "ok", true},
		{"continue first", "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 1\r\n\r\nx", 201, "x", true},
		{"no content", "HTTP/1.1 204 No Content\r\n\r\n", 204, "", true},
		{"bare line ends", "HTTP/1.1 200 OK\nContent-Length: 2\n\nok", 200, "ok", true},
	} {
		resp, keep, err := read(tc.text, 1<<20)
		if err != nil {
			t.Errorf("%s: %v", tc.name, err)
			continue
		}
		if resp.status != tc.status || string(resp.body) != tc.body || keep != tc.keep {
			t.Errorf("%s: status %d body %q keep %v, want %d %q %v", tc.name, resp.status, resp.body, keep, tc.status, tc.body, tc.keep)
		}
	}
	for _, tc := range []struct{ name, text, want string }{
		{"empty", "", "EOF"},
		{"cut in the headers", "HTTP/1.1 200 OK\r\nContent-Le", "unexpected EOF"},
		{"cut in the body", "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhello", "unexpected EOF"},
		{"cut in a chunk", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel", "unexpected EOF"},
		{"no last chunk", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n", "unexpected EOF"},
		{"bad chunk size", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "chunk size"},
		{"chunk without its line end", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nhello\r\n0\r\n\r\n", "line end"},
		{"not HTTP", "SSH-2.0-OpenSSH\r\n\r\n", "status line"},
		{"bad status", "HTTP/1.1 2x0 OK\r\n\r\n", "status line"},
		{"bad header", "HTTP/1.1 200 OK\r\nno colon\r\n\r\n", "header line"},
		{"bad length", "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n", "Content-Length"},
		{"two lengths", "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab", "Content-Length"},
		{"gzip", "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n", "Transfer-Encoding"},
		{"too long", "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n", "larger than"},
		{"chunks too long", "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n41\r\n" + strings.Repeat("x", 65) + "\r\n0\r\n\r\n", "larger than"},
		{"to the end too long", "HTTP/1.1 200 OK\r\n\r\n" + strings.Repeat("x", 65), "larger than"},
		{"switching", "HTTP/1.1 101 Switching Protocols\r\n\r\n", "switched"},
		{"headers too long", "HTTP/1.1 200 OK\r\n" + strings.Repeat("X-A: b\r\n", maxHeaderBytes/8+1) + "\r\n", "headers longer"},
	} {
		_, _, err := read(tc.text, 64)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one saying %q", tc.name, err, tc.want)
		}
	}
}

// FuzzReadResponse reads any bytes as an answer: it never panics, reads
// no more than the limit, and reads an answer it frames itself back as
// it was.
func FuzzReadResponse(f *testing.F) {
	f.Add([]byte("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello"), 16)
	f.Add([]byte("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;a\r\nhello\r\n0\r\nT: 1\r\n\r\n"), 16)
	f.Add([]byte("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 503 Service Unavailable\r\nX-Lsfc-Leader: h:1\r\n\r\n{}"), 4)
	f.Add([]byte("HTTP/1.0 200\r\n\r\n"), 0)
	f.Fuzz(func(t *testing.T, data []byte, limit int) {
		limit = max(0, min(limit, 1<<16))
		resp, _, _, err := readResponse(bufio.NewReader(bytes.NewReader(data)), "GET", limit)
		if err == nil && len(resp.body) > limit {
			t.Fatalf("read %d bytes of body, past the limit %d", len(resp.body), limit)
		}
		// The bytes as the body of a chunked and a sized answer.
		body := data[:min(len(data), limit)]
		for _, text := range []string{
			fmt.Sprintf("HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s", len(body), body),
			fmt.Sprintf("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n%x\r\n%s\r\n0\r\n\r\n", len(body), body),
		} {
			resp, _, keep, err := readResponse(bufio.NewReader(strings.NewReader(text)), "GET", limit)
			if len(body) == 0 && strings.Contains(text, "chunked") {
				// "0" is the last chunk: the trailer follows.
				continue
			}
			if err != nil || !bytes.Equal(resp.body, body) || !keep {
				t.Fatalf("answer %q: body %q keep %v, %v", text, resp.body, keep, err)
			}
		}
	})
}

// TestTransportKeepsConnections sends requests one after another on one
// kept connection, and sends a GET again on a new one when the daemon
// closed the kept one meanwhile.
func TestTransportKeepsConnections(t *testing.T) {
	var conns atomic.Int32
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// A body larger than the server's buffer goes in chunks.
		fmt.Fprintf(w, `{"cluster":%q}`, strings.Repeat("x", 8000))
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	defer srv.Close()
	addr := strings.TrimPrefix(srv.URL, "http://")
	c := DialTCP(addr, "s", "u")
	ctx := context.Background()
	for range 3 {
		st, err := c.Status(ctx)
		if err != nil || len(st.Cluster) != 8000 {
			t.Fatalf("Status: %v", err)
		}
	}
	if n := conns.Load(); n != 1 {
		t.Errorf("3 requests opened %d connections, want 1", n)
	}
	srv.CloseClientConnections()
	time.Sleep(50 * time.Millisecond)
	if _, err := c.Status(ctx); err != nil {
		t.Errorf("Status after the daemon closed the kept connection: %v", err)
	}
	if n := conns.Load(); n != 2 {
		t.Errorf("%d connections, want 2", n)
	}
}

// TestTransportFailures: an answer cut short, a daemon that does not
// answer before the context ends, and a header value that cannot be sent.
func TestTransportFailures(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				br := bufio.NewReader(c)
				line, _ := br.ReadString('\n')
				for {
					l, err := br.ReadString('\n')
					if err != nil || l == "\r\n" {
						break
					}
				}
				switch {
				case strings.Contains(line, "/v1/status"):
					io.WriteString(c, "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{\"clus")
				case strings.Contains(line, "/v1/queues"):
					time.Sleep(5 * time.Second)
				}
			}()
		}
	}()
	c := DialTCP(ln.Addr().String(), "s", "u").SetRetryWait(200 * time.Millisecond)
	ctx := context.Background()
	if _, err := c.Status(ctx); err == nil || !errors.Is(err, io.ErrUnexpectedEOF) || !errors.Is(err, ErrAnswerLost) {
		t.Errorf("a cut answer: %v, want an unexpected EOF and the answer lost", err)
	}
	tctx, cancel := context.WithTimeout(ctx, 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	if _, err := c.Queues(tctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a daemon that does not answer: %v, want the context's deadline", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("the request ended %v after its context", d)
	}
	bad := DialTCP(ln.Addr().String(), "s", "u\r\nX-Evil: 1")
	if _, err := bad.Status(ctx); err == nil || !strings.Contains(err.Error(), "X-Lsfc-User") {
		t.Errorf("a user with a line end: %v, want a refusal naming the header", err)
	}
}
