package eventlog

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRead reads a log its Log holds open, then the same file with a torn
// transaction at its end: Read gives the intact transactions, stops at
// the torn one without an error, and changes nothing.
func TestRead(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lsb.events")
	l := mustOpen(t, path, Options{})
	appendWait(t, l, "a", "b")
	appendWait(t, l, "c")
	read := func() []txn {
		got := []txn{}
		err := Read(path, func(seq uint64, records [][]byte) error {
			x := txn{Seq: seq, Records: []string{}}
			for _, r := range records {
				x.Records = append(x.Records, string(r))
			}
			got = append(got, x)
			return nil
		})
		if err != nil {
			t.Fatalf("Read: %v", err)
		}
		return got
	}
	want := []txn{{1, []string{"a", "b"}}, {2, []string{"c"}}}
	if diff := cmp.Diff(want, read()); diff != "" {
		t.Errorf("Read of an open log mismatch (-want +got):\n%s", diff)
	}
	// A frame whose length runs past the end of the file, as a write in
	// progress leaves it.
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte{0xff, 0xff, 0xff, 0x0f, 1, 2, 3, 4, 5})
	f.Close()
	st, _ := os.Stat(path)
	if diff := cmp.Diff(want, read()); diff != "" {
		t.Errorf("Read of a torn log mismatch (-want +got):\n%s", diff)
	}
	if st2, _ := os.Stat(path); st2.Size() != st.Size() {
		t.Errorf("Read changed the file: %d bytes, then %d", st.Size(), st2.Size())
	}
	if err := Read(filepath.Join(t.TempDir(), "none"), func(uint64, [][]byte) error { return nil }); !os.IsNotExist(err) {
		t.Errorf("Read of a missing file: %v, want not exist", err)
	}
}
