package attach

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
)

// A Kind is the kind of a frame.
type Kind byte

// The kinds of frames. Stdin, StdinEOF, Winsize and Signal go from bsub
// to the job; Hello, Stdout, Stderr and Exit from the job to bsub.
const (
	// Stdin carries bytes typed at (or piped to) bsub.
	Stdin Kind = 'i'
	// StdinEOF says bsub's standard input has ended; it has no payload.
	StdinEOF Kind = 'I'
	// Winsize carries the terminal's size: rows and columns, two
	// big-endian uint16.
	Winsize Kind = 'w'
	// Signal carries a signal number to send to the job, a big-endian
	// uint32 (1 to 64).
	Signal Kind = 's'
	// Hello carries the name of the host the job runs on; the wrapper
	// sends it first.
	Hello Kind = 'h'
	// Stdout and Stderr carry the job's output.
	Stdout Kind = 'o'
	Stderr Kind = 'e'
	// Exit carries the job's end: its exit code as LSF reports it and the
	// signal that killed it (0 if none), two big-endian int32. It is the
	// last frame.
	Exit Kind = 'x'
)

// MaxPayload is the largest payload of a frame.
const MaxPayload = 32 << 10

// maxHost is the longest host name of a Hello frame.
const maxHost = 255

// A Frame is one message of the connection.
type Frame struct {
	Kind Kind
	Data []byte
}

// payloadSize returns the payload sizes allowed for a kind: exactly
// fixed bytes, or up to max when fixed is -1; ok is false for an unknown
// kind.
func payloadSize(k Kind) (fixed, limit int, ok bool) {
	switch k {
	case Stdin, Stdout, Stderr:
		return -1, MaxPayload, true
	case Hello:
		return -1, maxHost, true
	case StdinEOF:
		return 0, 0, true
	case Winsize, Signal:
		return 4, 4, true
	case Exit:
		return 8, 8, true
	}
	return 0, 0, false
}

// ErrFrame is the error of a frame that breaks the format.
var ErrFrame = errors.New("bad frame")

// checkFrame reports whether a frame of kind k may have a payload of n
// bytes.
func checkFrame(k Kind, n int) error {
	fixed, limit, ok := payloadSize(k)
	switch {
	case !ok:
		return fmt.Errorf("%w: unknown kind %#02x", ErrFrame, byte(k))
	case fixed >= 0 && n != fixed:
		return fmt.Errorf("%w: a %q frame of %d bytes, want %d", ErrFrame, rune(k), n, fixed)
	case n > limit:
		return fmt.Errorf("%w: a %q frame of %d bytes, more than %d", ErrFrame, rune(k), n, limit)
	}
	return nil
}

// WriteFrame writes one frame. A Stdin, Stdout or Stderr payload longer
// than MaxPayload is split into several frames.
func WriteFrame(w io.Writer, k Kind, data []byte) error {
	for {
		chunk := data
		if len(chunk) > MaxPayload && (k == Stdin || k == Stdout || k == Stderr) {
			chunk = data[:MaxPayload]
		}
		if err := checkFrame(k, len(chunk)); err != nil {
			return err
		}
		buf := make([]byte, 5+len(chunk))
		buf[0] = byte(k)
		binary.BigEndian.PutUint32(buf[1:5], uint32(len(chunk)))
		copy(buf[5:], chunk)
		if _, err := w.Write(buf); err != nil {
			return err
		}
		data = data[len(chunk):]
		if len(data) == 0 {
			return nil
		}
	}
}

// ReadFrame reads one frame. At the end of r before a frame begins it
// returns io.EOF; within a frame, io.ErrUnexpectedEOF; a frame that
// breaks the format is an error wrapping ErrFrame.
func ReadFrame(r io.Reader) (Frame, error) {
	var head [5]byte
	if _, err := io.ReadFull(r, head[:]); err != nil {
		return Frame{}, err
	}
	k := Kind(head[0])
	n := binary.BigEndian.Uint32(head[1:])
	if n > MaxPayload {
		return Frame{}, fmt.Errorf("%w: a frame of %d bytes, more than %d", ErrFrame, n, MaxPayload)
	}
	if err := checkFrame(k, int(n)); err != nil {
		return Frame{}, err
	}
	f := Frame{Kind: k, Data: make([]byte, n)}
	if _, err := io.ReadFull(r, f.Data); err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return Frame{}, err
	}
	return f, nil
}

// WinsizeData returns the payload of a Winsize frame.
func WinsizeData(rows, cols uint16) []byte {
	b := make([]byte, 4)
	binary.BigEndian.PutUint16(b, rows)
	binary.BigEndian.PutUint16(b[2:], cols)
	return b
}

// Winsize returns the rows and columns of a Winsize frame.
func (f Frame) Winsize() (rows, cols uint16) {
	return binary.BigEndian.Uint16(f.Data), binary.BigEndian.Uint16(f.Data[2:])
}

// SignalData returns the payload of a Signal frame.
func SignalData(sig int) []byte { return binary.BigEndian.AppendUint32(nil, uint32(sig)) }

// Signal returns the signal number of a Signal frame, or an error
// wrapping ErrFrame when it is not one of 1 to 64.
func (f Frame) Signal() (int, error) {
	n := binary.BigEndian.Uint32(f.Data)
	if n < 1 || n > 64 {
		return 0, fmt.Errorf("%w: signal %d", ErrFrame, n)
	}
	return int(n), nil
}

// ExitData returns the payload of an Exit frame.
func ExitData(code, sig int) []byte {
	b := binary.BigEndian.AppendUint32(nil, uint32(int32(code)))
	return binary.BigEndian.AppendUint32(b, uint32(int32(sig)))
}

// Exit returns the exit code and signal of an Exit frame.
func (f Frame) Exit() (code, sig int) {
	return int(int32(binary.BigEndian.Uint32(f.Data))), int(int32(binary.BigEndian.Uint32(f.Data[4:])))
}
