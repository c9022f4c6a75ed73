package lsbacct

import (
	"strings"
	"testing"
)

// FuzzScan feeds arbitrary bytes to the Scanner: it never panics, every
// problem names its line, and every record it reads is written back as
// one line that reads as the same record.
func FuzzScan(f *testing.F) {
	good := string(Append(nil, sample()))
	f.Add(good)
	f.Add(good[:len(good)/2] + "\n" + good)
	f.Add(`"JOB_FINISH" "7.06" 1 2 3 4 5 6 7 8 9 "u" "q" "" "" "" "h" "" "" "" "" "" 0 1 "h" 64 1.0 "" "c" 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0` + "\n")
	f.Add("# comment\n\n\"JOB_RESIZE\" \"10.108\"\n\"PIPPO\"\n\"JOB_FINISH\" \"10.108\" 1 \"open\n")
	f.Fuzz(func(t *testing.T, in string) {
		s := NewScanner(strings.NewReader(in), "f")
		for s.Scan() {
			r := s.Record()
			line := string(Append(nil, r))
			if strings.Count(line, "\n") != 1 {
				t.Fatalf("Append wrote %q: not one line", line)
			}
			again, err := ParseLine(line)
			if err != nil {
				t.Fatalf("reading back %q: %v", line, err)
			}
			if got := string(Append(nil, again)); got != line {
				t.Fatalf("written twice differs:\n%s\n%s", line, got)
			}
		}
		if s.Err() != nil {
			t.Fatalf("Err %v on a string reader", s.Err())
		}
		for _, p := range s.Problems() {
			if p.Line < 1 || p.Line > s.Line() || p.Error() == "" {
				t.Fatalf("problem %+v out of the file's %d lines", p, s.Line())
			}
		}
	})
}
