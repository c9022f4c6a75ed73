package swf_test

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/runtime/swf"
)

// FuzzReader reads arbitrary input, plain or gzip: no panic, every error
// a *ParseError with a line, lines in order, the loop ends, and every job
// read formats to a line that reads back as the same job.
func FuzzReader(f *testing.F) {
	f.Add([]byte(sample))
	f.Add([]byte(synthetic(20)))
	f.Add(gzipped(f, sample))
	f.Add(gzipped(f, synthetic(20))[:60])
	f.Add([]byte(withField(5, "x") + "\n" + good + "\r\n;Queue: 1 a\n1 2\n"))
	f.Add([]byte("1 1e5 .5 -0 +3 1.0 1e-3 0 0 0 0 0 0 0 0 0 0 0"))
	f.Add([]byte{0x1f, 0x8b})
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := swf.NewReader(bytes.NewReader(data))
		if err != nil {
			checkError(t, err, 1)
			return
		}
		last, jobs := 0, 0
		// Gzip input may expand a thousandfold: the bound on the loop is
		// on decompressed lines, which MaxLineLen makes at least one byte.
		for range 1 << 22 {
			j, err := r.Next()
			if err == io.EOF {
				checkHeader(t, r.Header())
				return
			}
			if err != nil {
				pe := checkError(t, err, last)
				last = pe.Line
				if pe.Err != nil {
					if _, again := r.Next(); again != err {
						t.Fatalf("input error not sticky: %v then %v", err, again)
					}
					return
				}
				continue
			}
			if j.Line <= last {
				t.Fatalf("job on line %d after line %d", j.Line, last)
			}
			last = j.Line
			if jobs++; jobs > 20 {
				continue // one Reader per round trip is costly; a few show it
			}
			back, err := swf.NewReader(strings.NewReader(j.String()))
			if err != nil {
				t.Fatal(err)
			}
			b, err := back.Next()
			if err != nil {
				t.Fatalf("%q does not read back: %v", j.String(), err)
			}
			if b.Line = j.Line; b != j {
				t.Fatalf("round trip:\n got %+v\nwant %+v", b, j)
			}
		}
		t.Fatal("Next never returned io.EOF")
	})
}

func checkError(t *testing.T, err error, min int) *swf.ParseError {
	t.Helper()
	var pe *swf.ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("error %T %v is not a *ParseError", err, err)
	}
	if pe.Line < 1 || pe.Line < min || pe.Field < 0 || pe.Field > swf.NumFields {
		t.Fatalf("error %v: line %d field %d (previous line %d)", err, pe.Line, pe.Field, min)
	}
	if !strings.HasPrefix(err.Error(), "line ") || pe.Msg == "" {
		t.Fatalf("error message %q", err)
	}
	return pe
}

func checkHeader(t *testing.T, h *swf.Header) {
	t.Helper()
	prev := 0
	for _, f := range h.Fields {
		if f.Line <= prev {
			t.Fatalf("header field %+v after line %d", f, prev)
		}
		prev = f.Line
	}
	h.Queues()
	h.MaxProcs()
	h.UnixStartTime()
}
