package lsbacct

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// sample is a record as lsfc serve writes one: a job of two slots on two
// hosts, ended DONE.
func sample() *Record {
	return &Record{
		EventTime: 1700000100, JobID: 42, UserID: 1000, Options: 0x2000002, NumProcessors: 2,
		SubmitTime: 1700000000, StartTime: 1700000010, UserName: "alice", Queue: "normal",
		ResReq: `select[mem>100]`, FromHost: "hostA", Cwd: "/home/alice", JobFile: "1700000000.42",
		ExecHosts: []string{"hostA", "hostB"}, JStatus: StatusDone, HostFactor: 1,
		JobName: `say "hi"`, Command: "echo hi\necho there",
		Rusage:      Rusage{Utime: 1.5, Stime: 0.25, Maxrss: -1, Ixrss: -1, Ismrss: -1, Idrss: -1, Isrss: -1, Minflt: -1, Majflt: -1, Nswap: -1, Inblock: -1, Oublock: -1, Ioch: -1, Msgsnd: -1, Msgrcv: -1, Nsignals: -1, Nvcsw: -1, Nivcsw: -1, Exutime: -1},
		ProjectName: "default", MaxNumProcessors: 2, RunLimit: 600, MaxRMem: 2048,
		EffectiveResReq: "select[mem>100] order[r15s:pg]", RunTime: 90, AllocSlots: []string{"hostA", "hostB"},
		IndexRanges: []IndexRange{{1, 10, 2}}, KeyValues: []KeyValue{{"schedulingOverhead", "0.00"}},
	}
}

func TestAppendParse(t *testing.T) {
	r := sample()
	line := string(Append(nil, r))
	if strings.Count(line, "\n") != 1 || !strings.HasSuffix(line, "\n") {
		t.Fatalf("Append wrote %q: want one line", line)
	}
	for _, want := range []string{`"JOB_FINISH" "10.108" 1700000100 42 `, ` "say ""hi""" "echo hi;echo there" 1.500000 0.250000 -1 `,
		` 0 2 "hostA" "hostB" 64 1.0 `, ` 600 0 0 "select[mem>100] order[r15s:pg]" `, ` 1 1 10 2 0 0 0 1 "schedulingOverhead" "0.00"` + "\n"} {
		if !strings.Contains(line, want) {
			t.Errorf("Append wrote\n%s\nwant it to hold %q", line, want)
		}
	}
	got, err := ParseLine(line)
	if err != nil {
		t.Fatal(err)
	}
	want := *r
	want.Version, want.Command = Version, "echo hi;echo there"
	got.Fields = 0
	if diff := cmp.Diff(&want, got); diff != "" {
		t.Errorf("ParseLine(Append(r)) mismatch (-want +got):\n%s", diff)
	}
}

// TestNegativeZero checks that a rusage value written as "-0" (a small
// negative value rounded to no decimals) reads back as written.
func TestNegativeZero(t *testing.T) {
	r := sample()
	r.Rusage.Maxrss = -0.25
	line := string(Append(nil, r))
	if !strings.Contains(line, " 0.250000 -0 ") {
		t.Fatalf("Append wrote\n%s\nwant maxrss written as -0", line)
	}
	got, err := ParseLine(line)
	if err != nil {
		t.Fatal(err)
	}
	if again := string(Append(nil, got)); again != line {
		t.Errorf("written again differs:\n%s%s", line, again)
	}
}

// TestBadLines checks that each kind of bad line is reported with its
// line and field, and that the good records around it are still read.
func TestBadLines(t *testing.T) {
	good := strings.TrimSuffix(string(Append(nil, sample())), "\n")
	f := strings.Fields(good)
	cases := []struct {
		name, line, want string
	}{
		{"truncated", good[:len(good)/2], "missing: the record ends before it"},
		{"open quote", `"JOB_FINISH" "10.108" 1 2 3 4 5 6 7 8 9 "alice`, `userName: string "\"alice" is not closed`},
		{"unknown version", `"JOB_FINISH" "11.2" 1 2`, `version: unknown version "11.2"`},
		{"bare version", `"JOB_FINISH" 10.108 1 2`, `version: want a quoted string, got "10.108"`},
		{"unknown type", `"JOB_START" "10.108" 1 2`, `type: unknown record type "JOB_START"`},
		{"not lsb.acct", `MBD_SLEEP_TIME = 10`, `type: want a quoted string, got "MBD_SLEEP_TIME"`},
		{"garbled number", strings.Replace(good, " 42 ", " 4x2 ", 1), `jobId: want an integer, got "4x2"`},
		{"string for number", strings.Replace(good, " 64 1.0 ", ` "64" 1.0 `, 1), `jStatus: want a number, got the string "64"`},
		{"count too large", strings.Replace(good, ` 2 "hostA" "hostB" 64`, ` 9999 "hostA" "hostB" 64`, 1), "numExHosts: count 9999 does not fit the record"},
		{"count one short", strings.Replace(good, ` 2 "hostA" "hostB" 64`, ` 3 "hostA" "hostB" 64`, 1), `execHosts: want a quoted string, got "64"`},
		{"fused fields", strings.Replace(good, `"1700000000.42" 0 2`, `"1700000000.42"0 2`, 1), `jobFile: no blank after the string`},
		{"two strings fused read as one", strings.Replace(good, `"alice" "normal"`, `"alice""normal"`, 1), `jobFile: want a quoted string, got "0"`},
		{"negative count", strings.Replace(good, ` 2 "hostA" "hostB" 64`, ` -2 "hostA" "hostB" 64`, 1), "numExHosts: count -2 does not fit the record"},
		{"cut in a list", strings.Join(f[:len(f)-1], " "), "value: missing: the record ends before it"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in := good + "\n" + c.line + "\n" + good + "\n"
			s := NewScanner(strings.NewReader(in), "lsb.acct")
			n := 0
			for s.Scan() {
				n++
			}
			if s.Err() != nil || n != 2 {
				t.Errorf("read %d records, err %v; want the 2 good ones", n, s.Err())
			}
			ps := s.Problems()
			if len(ps) != 1 {
				t.Fatalf("problems %v, want one", ps)
			}
			if !strings.HasPrefix(ps[0].Error(), "lsb.acct:2: ") || !strings.Contains(ps[0].Error(), c.want) {
				t.Errorf("problem %q, want lsb.acct:2 and %q", ps[0], c.want)
			}
		})
	}
}

// TestOlderLayouts reads records shorter than 10.1's: an older version
// may end after its rusage; a 10.1 one must reach requeueTime.
func TestOlderLayouts(t *testing.T) {
	// The sample's fields up to and including the rusage: 28 + 2 exec
	// hosts + 19 rusage values, its job name and command written without
	// blanks.
	r := sample()
	r.JobName, r.Command = "n", "c"
	f := strings.Fields(strings.TrimSuffix(string(Append(nil, r)), "\n"))
	head := 1 + 1 + 9 + 11 + 1 + 3 + 4 + 19 + 1
	old := strings.Replace(strings.Join(f[:head], " "), `"10.108"`, `"7.06"`, 1)
	got, err := ParseLine(old)
	if err != nil {
		t.Fatalf("a 7.06 record ending after its rusage: %v", err)
	}
	if got.Rusage.Exutime != -1 || got.ProjectName != "" {
		t.Errorf("read %+v", got.Rusage)
	}
	if _, err := ParseLine(strings.Join(f[:head+5], " ")); err == nil || !strings.Contains(err.Error(), "record ends before it") {
		t.Errorf("a 10.108 record ending early: got %v, want an error", err)
	}
	// Fields past the known ones are kept and written back.
	extra := strings.Join(f, " ") + ` 7 "later"`
	got, err = ParseLine(extra)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"7", `"later"`}, got.Extra); diff != "" {
		t.Errorf("Extra mismatch (-want +got):\n%s", diff)
	}
	if back := strings.TrimSuffix(string(Append(nil, got)), "\n"); back != extra {
		t.Errorf("Append wrote\n%s\nwant\n%s", back, extra)
	}
}

func TestLongLineAndComments(t *testing.T) {
	good := string(Append(nil, sample()))
	in := "# a note\n\n" + good + `"JOB_FINISH" "` + strings.Repeat("x", MaxLineLen) + "\"\n" + good + "\"JOB_RESIZE\" \"10.108\" 1\n"
	s := NewScanner(strings.NewReader(in), "f")
	n := 0
	for s.Scan() {
		n++
	}
	if n != 2 || s.NumProblems() != 1 || s.Other["JOB_RESIZE"] != 1 {
		t.Errorf("read %d records, problems %v, other %v", n, s.Problems(), s.Other)
	}
	if p := fmt.Sprint(s.Problems()); !strings.Contains(p, "f:4: line longer than") {
		t.Errorf("problems %s", p)
	}
}
