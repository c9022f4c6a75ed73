package attach

import (
	"bytes"
	"errors"
	"io"
	"net"
	"strings"
	"testing"
	"time"
)

// serve accepts one connection on ln and runs bsub's handshake on it.
func serve(ln net.Listener, token string) chan error {
	done := make(chan error, 1)
	go func() {
		c, err := ln.Accept()
		if err != nil {
			done <- err
			return
		}
		defer c.Close()
		c.SetDeadline(time.Now().Add(5 * time.Second))
		_, err = ServerHandshake(c, token)
		done <- err
	}()
	return done
}

func TestHandshake(t *testing.T) {
	token, err := NewToken()
	if err != nil {
		t.Fatal(err)
	}
	if !ValidToken(token) || ValidToken("x"+token[1:]) || ValidToken(token[1:]) {
		t.Fatalf("ValidToken does not tell %q from its changes", token)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()

	done := serve(ln, token)
	c, _, err := Dial([]string{"127.0.0.1:1", ln.Addr().String()}, token, 2*time.Second, 5*time.Second)
	if err != nil {
		t.Fatalf("Dial with the right token: %v", err)
	}
	c.Close()
	if err := <-done; err != nil {
		t.Errorf("ServerHandshake with the right token: %v", err)
	}

	other, _ := NewToken()
	done = serve(ln, token)
	if c, _, err := Dial([]string{ln.Addr().String()}, other, 2*time.Second, 5*time.Second); err == nil || !errors.Is(err, ErrAuth) {
		if c != nil {
			c.Close()
		}
		t.Errorf("Dial with a wrong token = %v, want ErrAuth", err)
	}
	if err := <-done; err == nil {
		t.Error("ServerHandshake accepted a peer with a wrong token")
	}

	// A peer that is not bsub: it answers nothing, or something else.
	done = make(chan error, 1)
	go func() {
		c, err := ln.Accept()
		if err == nil {
			c.Write(make([]byte, Nonce+32))
			c.Close()
		}
		done <- err
	}()
	if _, _, err := Dial([]string{ln.Addr().String()}, token, 2*time.Second, 5*time.Second); !errors.Is(err, ErrAuth) {
		t.Errorf("Dial to a peer without the token = %v, want ErrAuth", err)
	}
	<-done
}

func TestParseAddr(t *testing.T) {
	for _, ok := range []string{"127.0.0.1:80", "[::1]:4242", "192.0.2.7:65535"} {
		if _, err := ParseAddr(ok); err != nil {
			t.Errorf("ParseAddr(%q): %v", ok, err)
		}
	}
	for _, bad := range []string{"", "localhost:80", "127.0.0.1", "127.0.0.1:0", "[fe80::1%eth0]:80", "1.2.3.4:99999"} {
		if _, err := ParseAddr(bad); err == nil {
			t.Errorf("ParseAddr(%q) succeeded", bad)
		}
	}
}

// streamPair returns the two sides' sealed streams over a pipe.
func streamPair(t testing.TB) (job, bsub *Stream) {
	a, b := net.Pipe()
	t.Cleanup(func() { a.Close(); b.Close() })
	token := strings.Repeat("5a", 32)
	done := make(chan *Stream, 1)
	go func() {
		s, err := ServerHandshake(b, token)
		if err != nil {
			t.Error(err)
		}
		done <- s
	}()
	job, err := ClientHandshake(a, token)
	if err != nil {
		t.Fatal(err)
	}
	return job, <-done
}

func TestStream(t *testing.T) {
	job, bsub := streamPair(t)
	go func() {
		WriteFrame(job, Hello, []byte("hostA"))
		WriteFrame(job, Stdout, bytes.Repeat([]byte("y"), 3*MaxPayload))
		WriteFrame(job, Exit, ExitData(3, 0))
	}()
	var out []byte
	for {
		f, err := ReadFrame(bsub)
		if err != nil {
			t.Fatal(err)
		}
		if f.Kind == Stdout {
			out = append(out, f.Data...)
		}
		if f.Kind == Exit {
			break
		}
	}
	if len(out) != 3*MaxPayload {
		t.Errorf("bsub read %d bytes of output, want %d", len(out), 3*MaxPayload)
	}
	go WriteFrame(bsub, Stdin, []byte("ls\n"))
	if f, err := ReadFrame(job); err != nil || f.Kind != Stdin || string(f.Data) != "ls\n" {
		t.Errorf("the job read %q %q, %v; want the input", rune(f.Kind), f.Data, err)
	}
}

// TestStreamTampered checks that a record changed on the way, or
// replayed, does not open.
func TestStreamTampered(t *testing.T) {
	for _, tc := range []struct {
		name   string
		change func(rec []byte) []byte
	}{
		{"flipped", func(rec []byte) []byte { rec[len(rec)-1] ^= 1; return rec }},
		{"replayed", func(rec []byte) []byte { return append(rec, rec...) }},
		{"oversized", func([]byte) []byte { return []byte{0xff, 0xff, 0xff, 0xff} }},
	} {
		var wire bytes.Buffer
		token := strings.Repeat("5a", 32)
		n := make([]byte, Nonce)
		w, _ := newStream(&wire, token, "job", "bsub", n, n)
		WriteFrame(w, Stdout, []byte("hello"))
		rec := tc.change(bytes.Clone(wire.Bytes()))
		r, _ := newStream(&struct {
			io.Reader
			io.Writer
		}{bytes.NewReader(rec), io.Discard}, token, "bsub", "job", n, n)
		var err error
		for err == nil {
			_, err = ReadFrame(r)
		}
		if !errors.Is(err, ErrAuth) {
			t.Errorf("%s: reading = %v, want ErrAuth", tc.name, err)
		}
	}
}

// FuzzStream reads sealed records, and the frames in them, from any
// bytes: they end in an error, never a panic or a hang.
func FuzzStream(f *testing.F) {
	token := strings.Repeat("5a", 32)
	n := make([]byte, Nonce)
	var wire bytes.Buffer
	w, _ := newStream(&wire, token, "job", "bsub", n, n)
	WriteFrame(w, Hello, []byte("hostA"))
	WriteFrame(w, Stdout, []byte("out"))
	f.Add(wire.Bytes())
	f.Add([]byte{0, 0, 0, 16})
	f.Fuzz(func(t *testing.T, in []byte) {
		r, _ := newStream(&struct {
			io.Reader
			io.Writer
		}{bytes.NewReader(in), io.Discard}, token, "bsub", "job", n, n)
		for {
			if _, err := ReadFrame(r); err != nil {
				return
			}
		}
	})
}
