package attach

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"
)

// maxRecord is the largest sealed record a Stream reads: a frame of
// MaxPayload with its head, and the seal's tag, with room to spare.
const maxRecord = 64 << 10

// A Stream seals what goes over a connection once the handshake is done:
// each Write is one record, a four-byte big-endian length and the bytes
// sealed with AES-256-GCM under the key of its direction, derived from
// the token and both challenges; records are numbered, so that none can
// be dropped, repeated or reordered unseen. A record that does not open
// is an error wrapping ErrAuth. Writes must not be concurrent, nor reads.
type Stream struct {
	r          io.Reader
	w          io.Writer
	open, seal cipher.AEAD
	rseq, wseq uint64
	buf        []byte // what is left of the last record read
}

// newStream returns the sealed stream over rw for one side: sendRole is
// the role whose key seals what it writes, recvRole the other's.
func newStream(rw io.ReadWriter, token, sendRole, recvRole string, jobNonce, bsubNonce []byte) (*Stream, error) {
	key := func(role string) (cipher.AEAD, error) {
		m := hmac.New(sha256.New, []byte(token))
		m.Write([]byte("key " + role))
		m.Write(jobNonce)
		m.Write(bsubNonce)
		b, err := aes.NewCipher(m.Sum(nil))
		if err != nil {
			return nil, err
		}
		return cipher.NewGCM(b)
	}
	seal, err := key(sendRole)
	if err != nil {
		return nil, err
	}
	open, err := key(recvRole)
	if err != nil {
		return nil, err
	}
	return &Stream{r: rw, w: rw, open: open, seal: seal}, nil
}

// nonce returns the nonce of record seq.
func nonce(seq uint64) []byte {
	n := make([]byte, 12)
	binary.BigEndian.PutUint64(n[4:], seq)
	return n
}

// Write seals p as one record (or several, past maxRecord) and writes it.
func (s *Stream) Write(p []byte) (int, error) {
	done := 0
	for done < len(p) || len(p) == 0 {
		chunk := p[done:]
		if len(chunk) > maxRecord-s.seal.Overhead() {
			chunk = chunk[:maxRecord-s.seal.Overhead()]
		}
		rec := make([]byte, 4, 4+len(chunk)+s.seal.Overhead())
		rec = s.seal.Seal(rec, nonce(s.wseq), chunk, nil)
		binary.BigEndian.PutUint32(rec, uint32(len(rec)-4))
		if _, err := s.w.Write(rec); err != nil {
			return done, err
		}
		s.wseq++
		done += len(chunk)
		if len(p) == 0 {
			break
		}
	}
	return done, nil
}

// Read reads what the next records hold.
func (s *Stream) Read(p []byte) (int, error) {
	for len(s.buf) == 0 {
		var head [4]byte
		if _, err := io.ReadFull(s.r, head[:]); err != nil {
			return 0, err
		}
		n := binary.BigEndian.Uint32(head[:])
		if n < uint32(s.open.Overhead()) || n > maxRecord {
			return 0, fmt.Errorf("%w: a sealed record of %d bytes", ErrAuth, n)
		}
		rec := make([]byte, n)
		if _, err := io.ReadFull(s.r, rec); err != nil {
			if err == io.EOF {
				err = io.ErrUnexpectedEOF
			}
			return 0, err
		}
		plain, err := s.open.Open(rec[:0], nonce(s.rseq), rec, nil)
		if err != nil {
			return 0, fmt.Errorf("%w: record %d does not open", ErrAuth, s.rseq)
		}
		s.rseq++
		s.buf = plain
	}
	n := copy(p, s.buf)
	s.buf = s.buf[n:]
	return n, nil
}
