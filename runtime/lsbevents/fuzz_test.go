package lsbevents

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// FuzzRead reads any text as lsb.events: it never panics, every job it
// makes has a positive ID, and every error names a line of the input.
func FuzzRead(f *testing.F) {
	f.Add([]byte(newRecord(100, 1, subQueue, 4, "alice", "normal", "select[mem>100]", "sim", "sleep 60", 2048, 3600) + "\n"))
	f.Add([]byte(`"JOB_STATUS" "10.108" 120 1 16 0 0 0.0 0 1 0 0 0` + "\n" + `"JOB_MODIFY2" "10.108" 105 "1[2]" 0 0 0 0 0 "a" 0 0 0 0 0 0 0 "" "" 1 "h" "" -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1` + "\n"))
	f.Add([]byte("\"a\"\"b\" \"\n#x\n\n"))
	if dir, err := filepath.Abs(filepath.Join("..", "..", "..", "shared", "corpus", "acct", "aws-samples__hpc-cost-simulator", "test_files__LSFLogParser__lsb.events")); err == nil {
		if b, err := os.ReadFile(dir); err == nil {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		l := NewLog()
		if err := l.Read(bytes.NewReader(b), "f"); err != nil {
			t.Fatal(err)
		}
		lines := bytes.Count(b, []byte("\n")) + 1
		for _, e := range l.Errors {
			if e.Line < 1 || e.Line > lines {
				t.Errorf("error at line %d of %d: %v", e.Line, lines, e)
			}
		}
		for _, j := range l.Jobs() {
			if j.ID <= 0 || j.Slots < 1 {
				t.Errorf("job %d with %d slots", j.ID, j.Slots)
			}
		}
		_ = l.Histories()
	})
}
