package attach

import (
	"bytes"
	"errors"
	"io"
	"testing"
)

func TestFrameRoundTrip(t *testing.T) {
	frames := []Frame{
		{Hello, []byte("hostA")}, {Stdout, []byte("hi\n")}, {Stderr, nil}, {StdinEOF, nil},
		{Winsize, WinsizeData(24, 80)}, {Signal, SignalData(2)}, {Exit, ExitData(130, 2)},
	}
	var buf bytes.Buffer
	for _, f := range frames {
		if err := WriteFrame(&buf, f.Kind, f.Data); err != nil {
			t.Fatalf("WriteFrame(%q): %v", rune(f.Kind), err)
		}
	}
	for _, want := range frames {
		got, err := ReadFrame(&buf)
		if err != nil {
			t.Fatalf("ReadFrame: %v", err)
		}
		if got.Kind != want.Kind || !bytes.Equal(got.Data, want.Data) {
			t.Errorf("ReadFrame = %q %q, want %q %q", rune(got.Kind), got.Data, rune(want.Kind), want.Data)
		}
	}
	if _, err := ReadFrame(&buf); err != io.EOF {
		t.Errorf("ReadFrame at the end = %v, want io.EOF", err)
	}
	f := Frame{Winsize, WinsizeData(50, 132)}
	if r, c := f.Winsize(); r != 50 || c != 132 {
		t.Errorf("Winsize = %d %d, want 50 132", r, c)
	}
	if code, sig := (Frame{Exit, ExitData(137, 9)}).Exit(); code != 137 || sig != 9 {
		t.Errorf("Exit = %d %d, want 137 9", code, sig)
	}
}

func TestWriteFrameSplits(t *testing.T) {
	var buf bytes.Buffer
	data := bytes.Repeat([]byte("x"), 2*MaxPayload+5)
	if err := WriteFrame(&buf, Stdout, data); err != nil {
		t.Fatal(err)
	}
	var got []byte
	for n := 0; ; n++ {
		f, err := ReadFrame(&buf)
		if err == io.EOF {
			if n != 3 {
				t.Errorf("%d frames, want 3", n)
			}
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, f.Data...)
	}
	if !bytes.Equal(got, data) {
		t.Errorf("the split frames carry %d bytes, want %d", len(got), len(data))
	}
}

func TestReadFrameErrors(t *testing.T) {
	for name, in := range map[string]string{
		"unknown kind":    "z\x00\x00\x00\x00",
		"too long":        "o\x00\x01\x00\x01",
		"short winsize":   "w\x00\x00\x00\x02ab",
		"eof with data":   "I\x00\x00\x00\x01x",
		"host too long":   "h\x00\x00\x01\x00",
		"truncated":       "o\x00\x00\x00\x05ab",
		"truncated head":  "o\x00",
		"signal too long": "s\x00\x00\x00\x08abcdefgh",
	} {
		_, err := ReadFrame(bytes.NewReader([]byte(in)))
		if err == nil {
			t.Errorf("%s: ReadFrame(%q) succeeded", name, in)
		}
		if name != "truncated" && name != "truncated head" && !errors.Is(err, ErrFrame) {
			t.Errorf("%s: ReadFrame(%q) = %v, want ErrFrame", name, in, err)
		}
	}
	if _, err := (Frame{Signal, SignalData(0)}).Signal(); !errors.Is(err, ErrFrame) {
		t.Errorf("signal 0: %v, want ErrFrame", err)
	}
}

// FuzzReadFrame reads frames from any bytes: each is an error or a frame
// that writes back to the same bytes.
func FuzzReadFrame(f *testing.F) {
	f.Add([]byte("h\x00\x00\x00\x05hostAo\x00\x00\x00\x03hi\nx\x00\x00\x00\x08\x00\x00\x00\x03\x00\x00\x00\x00"))
	f.Add([]byte("w\x00\x00\x00\x04\x00\x18\x00\x50s\x00\x00\x00\x04\x00\x00\x00\x02I\x00\x00\x00\x00"))
	f.Add([]byte("z\xff\xff\xff\xff"))
	f.Fuzz(func(t *testing.T, in []byte) {
		r := bytes.NewReader(in)
		for {
			start := len(in) - r.Len()
			fr, err := ReadFrame(r)
			if err != nil {
				return
			}
			var out bytes.Buffer
			if err := WriteFrame(&out, fr.Kind, fr.Data); err != nil {
				t.Fatalf("a frame read does not write: %v", err)
			}
			end := len(in) - r.Len()
			if !bytes.Equal(out.Bytes(), in[start:end]) {
				t.Fatalf("frame %q wrote %q, read from %q", rune(fr.Kind), out.Bytes(), in[start:end])
			}
			switch fr.Kind {
			case Signal:
				fr.Signal()
			case Winsize:
				fr.Winsize()
			case Exit:
				fr.Exit()
			}
		}
	})
}
