package eventlog

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// sampleTxns are transactions of assorted shapes.
var sampleTxns = [][]string{
	{"submit 1"},
	{},
	{""},
	{"start 1", "host a"},
	{strings.Repeat("x", 100)},
	{"a", "b", "c", "d"},
	{"finish 1"},
	{strings.Repeat("y", 37), "z"},
}

// buildLog writes txns to a new log at path and returns its bytes and the
// end offset of each transaction, after the header's end at index 0.
func buildLog(t *testing.T, path string, txns [][]string) (data []byte, ends []int64) {
	t.Helper()
	l := mustOpen(t, path, Options{})
	ends = []int64{l.Mark().off}
	for _, x := range txns {
		appendWait(t, l, x...)
		ends = append(ends, l.Mark().off)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if int64(len(data)) != ends[len(ends)-1] {
		t.Fatalf("log is %d bytes, marks end at %d", len(data), ends[len(ends)-1])
	}
	return data, ends
}

func wantTxns(txns [][]string, n int) []txn {
	out := []txn{}
	for i, x := range txns[:n] {
		out = append(out, txn{uint64(i + 1), append([]string{}, x...)})
	}
	return out
}

// TestTornTailEveryOffset cuts the log at every byte after its header:
// Open replays the complete transactions, drops the rest and says so.
func TestTornTailEveryOffset(t *testing.T) {
	dir := t.TempDir()
	data, ends := buildLog(t, filepath.Join(dir, "full"), sampleTxns)
	path := filepath.Join(dir, "lsb.events")
	for cut := int64(headerSize); cut <= int64(len(data)); cut++ {
		if err := os.WriteFile(path, data[:cut], 0o644); err != nil {
			t.Fatal(err)
		}
		n := 0
		for n+1 < len(ends) && ends[n+1] <= cut {
			n++
		}
		l, got, rec, err := reopen(path, Options{})
		if err != nil {
			t.Fatalf("cut at %d: Open: %v", cut, err)
		}
		if !reflect.DeepEqual(got, wantTxns(sampleTxns, n)) {
			t.Fatalf("cut at %d: replayed %v, want the first %d transactions", cut, got, n)
		}
		want := &Recovery{Transactions: n, LastSeq: uint64(n), Size: ends[n]}
		if n > 0 {
			want.FirstSeq = 1
		}
		if cut != ends[n] {
			want.Truncated, want.TruncatedAt, want.Dropped, want.Reason = true, ends[n], cut-ends[n], rec.Reason
		}
		if !reflect.DeepEqual(rec, want) || (want.Truncated && rec.Reason == "") {
			t.Fatalf("cut at %d: recovery %+v, want %+v with a reason", cut, rec, want)
		}
		// The repaired log takes appends and replays them after the rest.
		appendWait(t, l, "after")
		l.Close()
		got, rec = replayFile(t, path)
		if len(got) != n+1 || got[n].Records[0] != "after" || got[n].Seq != uint64(n+1) || rec.Truncated {
			t.Fatalf("cut at %d: after repair and one append, replayed %v (recovery %+v)", cut, got, rec)
		}
	}
}

// TestTornTailGarbage adds zeros or garbage after intact transactions.
func TestTornTailGarbage(t *testing.T) {
	dir := t.TempDir()
	data, ends := buildLog(t, filepath.Join(dir, "full"), sampleTxns)
	last := ends[len(ends)-1]
	tails := map[string][]byte{
		"one zero":        {0},
		"zeros":           make([]byte, 4096),
		"ones":            bytes.Repeat([]byte{0xff}, 300),
		"text":            []byte("JOB_NEW \"10.1\" 1234 lost line\n"),
		"half a header":   {40, 0, 0},
		"bad frame":       appendFrame(nil, 99, [][]byte{[]byte("not next")}, minBody+4+8)[:10],
		"stale old frame": appendFrame(nil, 3, [][]byte{[]byte("old")}, minBody+4+3),
	}
	path := filepath.Join(dir, "lsb.events")
	for name, tail := range tails {
		t.Run(name, func(t *testing.T) {
			// A stale frame (an earlier sequence number) cut short by the
			// tear is garbage too.
			if name == "stale old frame" {
				tail = append(append([]byte{1, 2, 3}, tail...), 0, 0)
			}
			if err := os.WriteFile(path, append(bytes.Clone(data), tail...), 0o644); err != nil {
				t.Fatal(err)
			}
			got, rec := replayFile(t, path)
			if len(got) != len(sampleTxns) {
				t.Errorf("replayed %d transactions, want %d", len(got), len(sampleTxns))
			}
			if !rec.Truncated || rec.TruncatedAt != last || rec.Dropped != int64(len(tail)) || rec.Reason == "" {
				t.Errorf("recovery %+v, want truncated at %d dropping %d", rec, last, len(tail))
			}
			if st, _ := os.Stat(path); st.Size() != last {
				t.Errorf("file is %d bytes after recovery, want %d", st.Size(), last)
			}
		})
	}
}

// TestInteriorCorruption flips each byte of an interior frame in turn:
// Open fails naming the frame's offset and leaves the file alone.
func TestInteriorCorruption(t *testing.T) {
	dir := t.TempDir()
	data, ends := buildLog(t, filepath.Join(dir, "full"), sampleTxns)
	path := filepath.Join(dir, "lsb.events")
	const k = 4 // frame k, followed by good frames
	for off := ends[k]; off < ends[k+1]; off++ {
		for _, flip := range []byte{0x01, 0x80, 0xff} {
			bad := bytes.Clone(data)
			bad[off] ^= flip
			if err := os.WriteFile(path, bad, 0o644); err != nil {
				t.Fatal(err)
			}
			_, got, _, err := reopen(path, Options{})
			var ce *CorruptError
			if !errors.As(err, &ce) {
				t.Fatalf("byte %d ^ %#x: Open = %v, want a *CorruptError", off, flip, err)
			}
			prefix := fmt.Sprintf("%s: offset %d: ", path, ends[k])
			if ce.Path != path || ce.Offset != ends[k] || !strings.HasPrefix(err.Error(), prefix) {
				t.Fatalf("byte %d ^ %#x: error %q, want it to start %q", off, flip, err, prefix)
			}
			if len(got) != k {
				t.Fatalf("byte %d ^ %#x: replayed %d transactions before the error, want %d", off, flip, len(got), k)
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(after, bad) {
				t.Fatalf("byte %d ^ %#x: failed Open changed the file", off, flip)
			}
			if _, err := os.Stat(path + tempSuffix); !errors.Is(err, os.ErrNotExist) {
				t.Fatalf("byte %d ^ %#x: failed Open left %s", off, flip, path+tempSuffix)
			}
		}
	}
}

// TestLastFrameCorruption flips each byte of the last frame: that is a
// torn tail.
func TestLastFrameCorruption(t *testing.T) {
	dir := t.TempDir()
	data, ends := buildLog(t, filepath.Join(dir, "full"), sampleTxns)
	path := filepath.Join(dir, "lsb.events")
	k := len(sampleTxns) - 1
	for off := ends[k]; off < ends[k+1]; off++ {
		bad := bytes.Clone(data)
		bad[off] ^= 0x10
		if err := os.WriteFile(path, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		got, rec := replayFile(t, path)
		if len(got) != k || !rec.Truncated || rec.TruncatedAt != ends[k] {
			t.Fatalf("byte %d flipped: replayed %d, recovery %+v; want %d replayed, truncated at %d", off, len(got), rec, k, ends[k])
		}
	}
}

// frames encodes transactions with the given sequence numbers.
func frames(seqs ...uint64) []byte {
	var out []byte
	for _, s := range seqs {
		rec := [][]byte{[]byte(fmt.Sprint("txn ", s))}
		n, _ := bodySize(rec)
		out = appendFrame(out, s, rec, n)
	}
	return out
}

// TestCorruptFiles are files Open must refuse wherever the damage is.
func TestCorruptFiles(t *testing.T) {
	good := append(encodeHeader(headerSize), frames(1, 2)...)
	header := func(edit func(h []byte)) []byte {
		b := bytes.Clone(good)
		edit(b[:headerSize])
		return b
	}
	malformed := func() []byte {
		// An intact frame whose record count does not match its records.
		body := make([]byte, minBody+4+2)
		binary.LittleEndian.PutUint64(body, 1)
		binary.LittleEndian.PutUint32(body[8:], 2)
		binary.LittleEndian.PutUint32(body[12:], 2)
		f := binary.LittleEndian.AppendUint32(nil, uint32(len(body)))
		f = binary.LittleEndian.AppendUint32(f, checksum(body))
		return append(encodeHeader(headerSize), append(f, body...)...)
	}
	tests := []struct {
		name   string
		data   []byte
		offset int64
		reason string
	}{
		{"short header", good[:10], 10, "shorter than the 24-byte header"},
		{"bad magic", header(func(h []byte) { h[0] = 'X' }), 0, "bad magic"},
		{"new version", header(func(h []byte) { h[8] = 2 }), 8, "unsupported format version 2"},
		{"header checksum", header(func(h []byte) { h[20] ^= 1 }), 20, "header checksum mismatch"},
		{"sealed past end", append(encodeHeader(int64(len(good)+1)), frames(1, 2)...), int64(len(good)), "before its sealed length"},
		{"sealed damage", func() []byte {
			b := append(encodeHeader(int64(len(good))), frames(1, 2)...)
			b[len(b)-1] ^= 1
			return b
		}(), int64(len(good) - len(frames(2))), "below the sealed length"},
		{"sequence gap", append(encodeHeader(headerSize), frames(5, 6, 8, 9)...), headerSize + 2*int64(len(frames(1))), "sequence number 8 does not follow 6"},
		{"sequence repeat", append(encodeHeader(headerSize), frames(5, 5)...), headerSize + int64(len(frames(1))), "sequence number 5 does not follow 5"},
		{"malformed", malformed(), headerSize, "malformed transaction"},
		{"length past the end before intact frame", func() []byte {
			b := bytes.Clone(good)
			binary.LittleEndian.PutUint32(b[headerSize:], 1000)
			return b
		}(), headerSize, "followed by an intact frame with sequence number 2"},
	}
	dir := t.TempDir()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(tt.name, " ", "_"))
			if err := os.WriteFile(path, tt.data, 0o644); err != nil {
				t.Fatal(err)
			}
			_, _, err := Open(path, Options{})
			var ce *CorruptError
			if !errors.As(err, &ce) || ce.Offset != tt.offset || !strings.Contains(ce.Reason, tt.reason) {
				t.Fatalf("Open = %v, want a *CorruptError at offset %d saying %q", err, tt.offset, tt.reason)
			}
			if !strings.HasPrefix(err.Error(), fmt.Sprintf("%s: offset %d: corrupt event log: ", path, tt.offset)) {
				t.Errorf("error %q does not start with the path and offset", err)
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(after, tt.data) {
				t.Error("failed Open changed the file")
			}
		})
	}
}

// TestLargeFrames uses frames too large to read before their checksum is
// known.
func TestLargeFrames(t *testing.T) {
	dir := t.TempDir()
	big := strings.Repeat("0123456789abcdef", directRead/16+1000)
	txns := [][]string{{"small"}, {big, "tail"}, {"x"}, {big}}
	data, ends := buildLog(t, filepath.Join(dir, "full"), txns)
	path := filepath.Join(dir, "lsb.events")

	os.WriteFile(path, data, 0o644)
	if got, _ := replayFile(t, path); !reflect.DeepEqual(got, wantTxns(txns, 4)) {
		t.Errorf("replay of large frames differs")
	}
	// Cut inside the last large frame: torn.
	os.WriteFile(path, data[:ends[3]+1000], 0o644)
	if got, rec := replayFile(t, path); len(got) != 3 || rec.TruncatedAt != ends[3] {
		t.Errorf("cut large frame: replayed %d, recovery %+v", len(got), rec)
	}
	// A flipped byte inside the first large frame, followed by intact
	// frames: corrupt.
	bad := bytes.Clone(data)
	bad[ends[1]+500000] ^= 1
	os.WriteFile(path, bad, 0o644)
	var ce *CorruptError
	if _, _, err := Open(path, Options{}); !errors.As(err, &ce) || ce.Offset != ends[1] {
		t.Errorf("flipped byte in a large interior frame: Open = %v, want corruption at %d", err, ends[1])
	}
	// The same in the last large frame: torn.
	bad = bytes.Clone(data)
	bad[ends[3]+500000] ^= 1
	os.WriteFile(path, bad, 0o644)
	if got, rec := replayFile(t, path); len(got) != 3 || rec.TruncatedAt != ends[3] {
		t.Errorf("flipped byte in the last large frame: replayed %d, recovery %+v", len(got), rec)
	}
}

// TestSearchBudget fills a file with data that looks like a large frame
// at every third word: the search for an intact frame after the damage
// gives up in linear time and calls it corruption.
func TestSearchBudget(t *testing.T) {
	data := encodeHeader(headerSize)
	for len(data) < 4<<20 {
		data = binary.LittleEndian.AppendUint32(data, 1<<20)
		data = binary.LittleEndian.AppendUint64(data, 0)
	}
	path := filepath.Join(t.TempDir(), "lsb.events")
	os.WriteFile(path, data, 0o644)
	start := time.Now()
	_, _, err := Open(path, Options{})
	var ce *CorruptError
	if !errors.As(err, &ce) || ce.Offset != headerSize || !strings.Contains(ce.Reason, "too many frame-like candidates") {
		t.Errorf("Open = %v, want corruption at %d with too many candidates", err, headerSize)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("Open took %v", d)
	}
}

// TestTornWriteHole is a crash during the sync of a group written over
// reserved zeros: the disk wrote some of its pages and not others, so a
// hole of zeros is followed by intact transactions of the same write.
// None of them was acknowledged: Open cuts the write from the hole on and
// says what it dropped. Holes that cannot be that stay corruption.
func TestTornWriteHole(t *testing.T) {
	dir := t.TempDir()
	full := filepath.Join(dir, "full")
	l := mustOpen(t, full, Options{})
	appendWait(t, l, "acknowledged")
	durable := l.Stats().Size
	var last Commit
	for i := range 100 {
		c, err := l.Append([][]byte{[]byte(fmt.Sprintf("in flight %d %s", i, strings.Repeat("r", 200)))})
		if err != nil {
			t.Fatal(err)
		}
		last = c
	}
	if err := last.Wait(); err != nil {
		t.Fatal(err)
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(full)
	if err != nil {
		t.Fatal(err)
	}
	// The space reserved past the write.
	data = append(data, make([]byte, 1<<20)...)
	// starts lists the offset of each frame after the durable one.
	var starts []int64
	for p := durable; p < int64(len(data)) && data[p] != 0; {
		starts = append(starts, p)
		p += frameHeaderSize + int64(binary.LittleEndian.Uint32(data[p:]))
	}
	if len(starts) != 100 {
		t.Fatalf("found %d frames after the durable end, want 100", len(starts))
	}
	frameAt := func(off int64) int {
		i := 0
		for i+1 < len(starts) && starts[i+1] <= off {
			i++
		}
		return i
	}
	path := filepath.Join(dir, "lsb.events")
	hole := func(from, to int64, fill byte) []byte {
		b := bytes.Clone(data)
		for i := from; i < to; i++ {
			b[i] = fill
		}
		return b
	}
	page := (durable/4096 + 2) * 4096 // a page well inside the write
	for _, tt := range []struct {
		name string
		data []byte
		cut  int64 // where the file is cut
	}{
		{"the 4 KiB after the durable end", hole(durable, durable+4096, 0), durable},
		{"the rest of the durable end's page", hole(durable, (durable/4096+1)*4096, 0), durable},
		{"a page inside the write", hole(page, page+4096, 0), starts[frameAt(page)]},
		{"one sector inside the write", hole(page, page+512, 0), starts[frameAt(page)]},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if err := os.WriteFile(path, tt.data, 0o644); err != nil {
				t.Fatal(err)
			}
			got, rec := replayFile(t, path)
			n := 1 + frameAt(tt.cut)
			if tt.cut == durable {
				n = 1
			}
			if len(got) != n || got[0].Records[0] != "acknowledged" {
				t.Errorf("replayed %d transactions, want %d", len(got), n)
			}
			if !rec.Truncated || rec.TruncatedAt != tt.cut || rec.Dropped != int64(len(tt.data))-tt.cut || rec.ZeroTail {
				t.Errorf("recovery %+v, want truncated at %d", rec, tt.cut)
			}
			if !rec.TornWrite || rec.DroppedFirst <= uint64(n+1) || rec.DroppedLast != 101 || !strings.Contains(rec.Reason, "never acknowledged") {
				t.Errorf("recovery %+v, want a torn write dropping transactions after %d to 101", rec, n+1)
			}
			if st, _ := os.Stat(path); st.Size() != tt.cut {
				t.Errorf("file is %d bytes after recovery, want %d", st.Size(), tt.cut)
			}
		})
	}

	// Damage that is no hole of zeros, or lies where no write can have
	// been in flight, is refused and left alone.
	big := [][]byte{bytes.Repeat([]byte("b"), 60<<10)}
	bigBody, _ := bodySize(big)
	long := append(encodeHeader(headerSize), frames(1)...)
	holeAt := int64(len(long))
	long = append(long, make([]byte, 4096)...)
	for seq := uint64(3); int64(len(long))-holeAt <= maxPending; seq++ {
		long = appendFrame(long, seq, big, bigBody)
	}
	sealedData := bytes.Clone(data)
	copy(sealedData, encodeHeader(int64(len(data))-(1<<20)))
	for _, tt := range []struct {
		name   string
		data   []byte
		offset int64
		reason string
	}{
		{"garbage, not zeros", hole(durable, durable+4096, 0xff), durable, "followed by an intact frame"},
		{"a zero sector cut short", hole(durable, durable+8, 0), durable, "followed by an intact frame"},
		{"more than one write after the hole", long, holeAt, "more than one write holds"},
		{"below the sealed length", func() []byte {
			b := bytes.Clone(sealedData)
			clear(b[page : page+4096])
			return b
		}(), starts[frameAt(page)], "below the sealed length"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if err := os.WriteFile(path, tt.data, 0o644); err != nil {
				t.Fatal(err)
			}
			_, _, err := Open(path, Options{})
			var ce *CorruptError
			if !errors.As(err, &ce) || ce.Offset != tt.offset || !strings.Contains(ce.Reason, tt.reason) {
				t.Fatalf("Open = %v, want a *CorruptError at offset %d saying %q", err, tt.offset, tt.reason)
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(after, tt.data) {
				t.Error("failed Open changed the file")
			}
		})
	}
}
