package attach

import (
	"errors"
	"net"
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
		done <- ServerHandshake(c, token)
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
	c, err := Dial([]string{"127.0.0.1:1", ln.Addr().String()}, token, 2*time.Second, 5*time.Second)
	if err != nil {
		t.Fatalf("Dial with the right token: %v", err)
	}
	c.Close()
	if err := <-done; err != nil {
		t.Errorf("ServerHandshake with the right token: %v", err)
	}

	other, _ := NewToken()
	done = serve(ln, token)
	if c, err := Dial([]string{ln.Addr().String()}, other, 2*time.Second, 5*time.Second); err == nil || !errors.Is(err, ErrAuth) {
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
	if _, err := Dial([]string{ln.Addr().String()}, token, 2*time.Second, 5*time.Second); !errors.Is(err, ErrAuth) {
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
