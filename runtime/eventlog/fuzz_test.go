package eventlog

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzOpen opens arbitrary bytes as a log. Open never panics or hangs;
// it fails without touching the file, or it replays transactions that
// are, byte for byte, the frames at the start of the file, cuts the file
// after them, and the log then takes appends.
func FuzzOpen(f *testing.F) {
	good := append(encodeHeader(headerSize), frames(1, 2, 3)...)
	flipped := bytes.Clone(good)
	flipped[headerSize+10] ^= 4
	sealed := append(encodeHeader(int64(len(good))), frames(1, 2, 3)...)
	big := append(encodeHeader(headerSize), 0xff, 0xff, 0xff, 0x3f, 1, 2, 3, 4)
	f.Add([]byte{})
	f.Add([]byte(magic))
	f.Add(encodeHeader(headerSize))
	f.Add(good)
	f.Add(good[:len(good)-5])
	f.Add(append(bytes.Clone(good), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
	f.Add(flipped)
	f.Add(sealed)
	f.Add(big)
	f.Add(append(encodeHeader(headerSize), frames(5, 6, 8)...))
	f.Add(append(append(encodeHeader(headerSize), 9, 9, 9), frames(1)...))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "lsb.events")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		off := int64(headerSize)
		var last uint64
		n := 0
		l, rec, err := Open(path, Options{
			sync: func(*os.File) error { return nil },
			Replay: func(seq uint64, records [][]byte) error {
				body, err := bodySize(records)
				if err != nil {
					t.Fatalf("replayed an oversized transaction: %v", err)
				}
				frame := appendFrame(nil, seq, records, body)
				if off+int64(len(frame)) > int64(len(data)) || !bytes.Equal(data[off:off+int64(len(frame))], frame) {
					t.Fatalf("transaction %d replayed at offset %d is not the frame there", seq, off)
				}
				if n > 0 && seq != last+1 {
					t.Fatalf("transaction %d replayed after %d", seq, last)
				}
				off += int64(len(frame))
				last = seq
				n++
				return nil
			},
		})
		after, _ := os.ReadFile(path)
		if err != nil {
			if !strings.HasPrefix(err.Error(), path+": ") {
				t.Errorf("error %q does not start with the path", err)
			}
			if !bytes.Equal(after, data) {
				t.Fatal("failed Open changed the file")
			}
			return
		}
		switch {
		case rec.Created:
			if len(data) != 0 || !bytes.Equal(after, encodeHeader(headerSize)) {
				t.Fatalf("Open created a log over %d bytes", len(data))
			}
		case !bytes.Equal(after, data[:off]) || rec.Size != off || rec.Transactions != n:
			t.Fatalf("after Open the file is %d bytes, recovery %+v; want the %d bytes of %d transactions", len(after), rec, off, n)
		case rec.Truncated != (off < int64(len(data))) || rec.Dropped != int64(len(data))-off:
			t.Fatalf("recovery %+v for %d bytes cut to %d", rec, len(data), off)
		}
		c, err := l.Append([][]byte{[]byte("next")})
		if err == nil {
			err = c.Wait()
		}
		if err != nil {
			t.Fatal(err)
		}
		if c.Seq() != last+1 {
			t.Errorf("append after %d transactions ending at %d got %d", n, last, c.Seq())
		}
		if err := l.Close(); err != nil {
			t.Fatal(err)
		}
		got, _ := replayFile(t, path)
		if len(got) != n+1 {
			t.Errorf("after one append, replayed %d transactions, want %d", len(got), n+1)
		}
	})
}
