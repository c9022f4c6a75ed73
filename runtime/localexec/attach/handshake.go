package attach

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"time"
)

// Nonce is the size of each side's challenge.
const Nonce = 32

// magic opens the wrapper's side of the handshake: the protocol and its
// version.
const magic = "LSFCATT1"

// MaxAddrs is the most addresses of bsub an interactive job may list.
const MaxAddrs = 16

// TokenLen is the length of a token: NewToken's hex text.
const TokenLen = 64

// ErrAuth is the error of a peer that does not hold the job's token.
var ErrAuth = errors.New("the peer does not hold the job's token")

// NewToken returns a new random token: 32 bytes from crypto/rand, in hex.
func NewToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return hex.EncodeToString(b), nil
}

// ValidToken reports whether t has the form of NewToken's tokens.
func ValidToken(t string) bool {
	if len(t) != TokenLen {
		return false
	}
	_, err := hex.DecodeString(t)
	return err == nil
}

// answer is a side's answer to the other's challenge.
func answer(token, role string, theirs, ours []byte) []byte {
	m := hmac.New(sha256.New, []byte(token))
	m.Write([]byte(role))
	m.Write(theirs)
	m.Write(ours)
	return m.Sum(nil)
}

// handshakeTimeout bounds each side's handshake.
const handshakeTimeout = 10 * time.Second

// ClientHandshake is the wrapper's side of the handshake on a new
// connection to bsub: once bsub has proved it holds token, it returns
// the sealed Stream to carry the frames over (else an error wrapping
// ErrAuth, or the connection's error). The caller bounds it in time.
func ClientHandshake(c io.ReadWriter, token string) (*Stream, error) {
	ours := make([]byte, Nonce)
	if _, err := rand.Read(ours); err != nil {
		return nil, err
	}
	if _, err := c.Write(append([]byte(magic), ours...)); err != nil {
		return nil, err
	}
	buf := make([]byte, Nonce+sha256.Size)
	if _, err := io.ReadFull(c, buf); err != nil {
		return nil, err
	}
	theirs, mac := buf[:Nonce], buf[Nonce:]
	if !hmac.Equal(mac, answer(token, "bsub", ours, theirs)) {
		return nil, ErrAuth
	}
	if _, err := c.Write(answer(token, "job", theirs, ours)); err != nil {
		return nil, err
	}
	return newStream(c, token, "job", "bsub", ours, theirs)
}

// ServerHandshake is bsub's side of the handshake on a connection it
// accepted: once the peer has proved it holds token, it returns the
// sealed Stream to carry the frames over. The caller bounds it in time.
func ServerHandshake(c io.ReadWriter, token string) (*Stream, error) {
	buf := make([]byte, len(magic)+Nonce)
	if _, err := io.ReadFull(c, buf); err != nil {
		return nil, err
	}
	if string(buf[:len(magic)]) != magic {
		return nil, fmt.Errorf("%w: not an interactive job's connection", ErrAuth)
	}
	theirs := buf[len(magic):]
	ours := make([]byte, Nonce)
	if _, err := rand.Read(ours); err != nil {
		return nil, err
	}
	if _, err := c.Write(append(ours, answer(token, "bsub", theirs, ours)...)); err != nil {
		return nil, err
	}
	mac := make([]byte, sha256.Size)
	if _, err := io.ReadFull(c, mac); err != nil {
		return nil, err
	}
	if !hmac.Equal(mac, answer(token, "job", ours, theirs)) {
		return nil, ErrAuth
	}
	return newStream(c, token, "bsub", "job", theirs, ours)
}
