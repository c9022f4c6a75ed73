package api_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lsfc/lsfc/runtime/api"
)

// dropServer reads each request whole and closes its connection without
// an answer for the first drop requests, then answers a submission. It
// returns its address and the tokens of the submissions it read.
func dropServer(t *testing.T, drop int) (string, func() []string) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	var mu sync.Mutex
	var tokens []string
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
			var body strings.Builder
			bufio.NewReader(req.Body).WriteTo(&body)
			_, tok, _ := strings.Cut(body.String(), `"token":"`)
			tok, _, _ = strings.Cut(tok, `"`)
			mu.Lock()
			tokens = append(tokens, tok)
			n := len(tokens)
			mu.Unlock()
			if n <= drop {
				c.Close()
				continue
			}
			answer := `{"id":7,"queue":"normal"}`
			fmt.Fprintf(c, "HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", len(answer), answer)
			c.Close()
		}
	}()
	return ln.Addr().String(), func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), tokens...)
	}
}

// TestResend: a submission whose answer is lost is sent again with its
// token, to one daemon or to master candidates; one whose answers keep
// being lost ends in ErrAnswerLost; a request not safe to send twice is
// sent once.
func TestResend(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name       string
		drop       int
		candidates bool
		lost       bool
	}{
		{"one daemon, answered at the third try", 2, false, false},
		{"one daemon, never answered", 1000, false, true},
		{"candidates, answered at the third try", 2, true, false},
		{"candidates, never answered", 1000, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			addr, tokens := dropServer(t, tc.drop)
			if tc.candidates {
				addr += "," + addr
			}
			c := api.DialTCP(addr, "s3cret", "ann").SetRetryWait(500 * time.Millisecond)
			resp, err := c.Submit(ctx, &api.SubmitRequest{Command: "true"})
			got := tokens()
			if len(got) < 2 || got[0] == "" || strings.Count(strings.Join(got, " "), got[0]) != len(got) {
				t.Errorf("tokens sent: %q, want one token, sent again", got)
			}
			if tc.lost {
				if !errors.Is(err, api.ErrAnswerLost) {
					t.Errorf("submit: %v, want ErrAnswerLost", err)
				}
				return
			}
			if err != nil || resp.ID != 7 || len(got) != 3 {
				t.Errorf("submit: %+v %v after %d tries, want job 7 at the third", resp, err, len(got))
			}
		})
	}
	addr, tokens := dropServer(t, 1000)
	_, err := api.DialTCP(addr, "s3cret", "ann").JobAction(ctx, 7, "kill", nil)
	if n := len(tokens()); n != 1 || err == nil || errors.Is(err, api.ErrAnswerLost) {
		t.Errorf("bkill whose answer is lost: %d tries, %v; want one try and the connection's error", n, err)
	}
}
