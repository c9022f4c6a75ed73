//go:build !lsfclient

package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestReadNativeWorkload reads lsfc's own workload format: every bsub
// option read as bsub reads it, and each kind of bad line refused with
// its line.
func TestReadNativeWorkload(t *testing.T) {
	jobs, err := readNativeWorkload(strings.NewReader(`{"t": 12.5, "args": ["-q","normal","-n","4","-R","span[hosts=1]","-x","-M","2G","-W","1:30"], "run": 3600, "exit": 2, "user": "ann", "group": "g1"}

{"t": 13, "args": ["-M", "100", "sleep", "1"], "run": 1}
`), "w.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 2 {
		t.Fatalf("%d jobs, want 2", len(jobs))
	}
	j := jobs[0]
	s := j.req.sub
	if j.line != 1 || j.at != 12.5 || j.run != 3600 || j.exit != 2 || j.user != "ann" || j.group != "g1" ||
		s.Queue != "normal" || s.Slots != 4 || s.ResReq != "span[hosts=1]" || !s.Exclusive || s.MemLimit != 2048 || s.RunLimit != 5400 {
		t.Errorf("job 1: %+v %+v", j, s)
	}
	if j := jobs[1]; j.line != 3 || j.user != "user" || j.req.bareMem != 100 || j.req.sub.Command != "sleep 1" {
		t.Errorf("job 2: %+v %+v", j, j.req)
	}
	for _, c := range []struct{ in, want string }{
		{`{"t": 1, "args": ["-b", "10:00"], "run": 1}`, "w.jsonl:1: bsub: option -b is not supported by lsfc simulate"},
		{`{"t": 1, "args": ["-p", "4"], "run": 1}`, "w.jsonl:1: bsub: option -p is not supported by lsfc simulate"},
		{`{"t": 1, "args": ["-N"], "run": 1}`, "w.jsonl:1: bsub: option -N is not supported by lsfc simulate"},
		{`{"t": 1, "args": ["-u", "ann"], "run": 1}`, "w.jsonl:1: bsub: option -u is not supported by lsfc simulate"},
		{`{"t": 1, "args": ["-K"], "run": 1}`, "w.jsonl:1: bsub: option -K is not supported by lsfc simulate"},
		{`{"t": 1, "args": ["-Is"], "run": 1}`, "w.jsonl:1: bsub: option -Is is not supported by lsfc simulate"},
		{`{"t": 1, "args": ["-n", "0"], "run": 1}`, `w.jsonl:1: bsub: -n "0": want a positive whole number. Job not submitted`},
		{`{"args": [], "run": 1}`, `w.jsonl:1: no submission time ("t")`},
		{`{"t": 1, "args": []}`, `w.jsonl:1: no run time ("run")`},
		{`{"t": -1, "args": [], "run": 1}`, `w.jsonl:1: submission time "t" -1 is out of range`},
		{`{"t": 1, "run": 1, "exit": 300}`, `w.jsonl:1: exit code 300 is out of range (0 to 255)`},
		{`{"t": 1, "run": 1} {"t": 2}`, `w.jsonl:1: more than one JSON value on the line`},
		{"\n[1, 2]", `w.jsonl:2: not a job: json: cannot unmarshal array into Go value of type main.nativeLine`},
	} {
		_, err := readNativeWorkload(strings.NewReader(c.in), "w.jsonl")
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: got %v, want %s", c.in, err, c.want)
		}
	}
}

// FuzzNativeWorkload reads any text as lsfc's own workload format: it
// gives jobs or an error naming a line of the input, and never panics.
func FuzzNativeWorkload(f *testing.F) {
	f.Add([]byte(`{"t": 12.5, "args": ["-q","normal","-n","4","-R","rusage[mem=10]","-x"], "run": 3600, "exit": 0}` + "\n"))
	f.Add([]byte(`{"t": 1, "args": ["-b", "1"], "run": 1}` + "\n\n" + `{"t":2,"args":["-M","5"],"run":0,"user":"u"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		jobs, err := readNativeWorkload(bytes.NewReader(b), "f")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "f:") {
				t.Errorf("error without its line: %v", err)
			}
			return
		}
		for _, j := range jobs {
			if j.req == nil || j.at < 0 || j.run < 0 || j.line < 1 {
				t.Errorf("bad job %+v", j)
			}
		}
	})
}
