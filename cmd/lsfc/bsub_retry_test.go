package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/lsfc/lsfc/runtime/api"
)

// startDroppingServe serves the socket of a new state directory: the
// first `drop` submissions are read whole and their connections closed
// without an answer; the next ones are answered with job 1001, the same
// for every token. It returns the directory and the tokens received.
func startDroppingServe(t *testing.T, drop int32) (string, func() []string) {
	t.Helper()
	dir, err := os.MkdirTemp("/tmp", "lsfc")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	if err := os.MkdirAll(api.RunDir(dir), 0o755); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("unix", api.SocketPath(dir))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	var mu sync.Mutex
	var tokens []string
	var n atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			req, err := http.ReadRequest(bufio.NewReader(c))
			if err != nil {
				c.Close()
				continue
			}
			var sub api.SubmitRequest
			json.NewDecoder(req.Body).Decode(&sub)
			mu.Lock()
			tokens = append(tokens, sub.Token)
			mu.Unlock()
			if n.Add(1) <= drop {
				c.Close()
				continue
			}
			body := `{"id":1001,"queue":"normal"}`
			fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", len(body), body)
			c.Close()
		}
	}()
	return dir, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(tokens)
	}
}

// TestBsubRetry: bsub sends a submission whose answer was lost again, with
// the same token, and tells the job's id.
func TestBsubRetry(t *testing.T) {
	dir, tokens := startDroppingServe(t, 1)
	code, stdout, stderr := runLSF(t, nil, "bsub", "--state", dir, "-q", "normal", "true")
	if code != 0 || stdout != "Job <1001> is submitted to queue <normal>.\n" {
		t.Fatalf("bsub = %d %q %q", code, stdout, stderr)
	}
	if got := tokens(); len(got) != 2 || got[0] == "" || got[0] != got[1] {
		t.Errorf("tokens sent: %q, want one token twice", got)
	}
}

// TestBsubAnswerLost: when the daemon does not answer again, bsub says
// that the job may have been created, and how to look for it.
func TestBsubAnswerLost(t *testing.T) {
	dir, tokens := startDroppingServe(t, 1000)
	code, stdout, stderr := runLSF(t, map[string]string{"LSFC_RETRY_WAIT": "300ms"},
		"bsub", "--state", dir, "-J", "my job", "true")
	if code != exitLSF || stdout != "" {
		t.Fatalf("bsub = %d %q %q, want %d and no output", code, stdout, stderr, exitLSF)
	}
	if want := "bsub: the job may have been created: check with bjobs -a -J 'my job'\n"; !strings.HasSuffix(stderr, want) {
		t.Errorf("stderr = %q, want it to end with %q", stderr, want)
	}
	if got := tokens(); len(got) < 2 {
		t.Errorf("%d tries, want the submission sent again", len(got))
	}
	code, _, stderr = runLSF(t, map[string]string{"LSFC_RETRY_WAIT": "soon"}, "bsub", "--state", dir, "true")
	if code != exitLSF || !strings.Contains(stderr, "LSFC_RETRY_WAIT") {
		t.Errorf("a bad LSFC_RETRY_WAIT: %d %q", code, stderr)
	}
}
