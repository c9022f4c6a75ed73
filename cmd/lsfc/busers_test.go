package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/runtime/api"
)

// TestBusersColumns checks busers -o: fields in the order given, widths,
// right alignment, all, the delimiter, and the errors.
func TestBusersColumns(t *testing.T) {
	users := []api.User{{Name: "alice", Max: 8, NJobs: 3, Pend: 1, Run: 2, PJobs: 1}, {Name: "bob", JLP: 1.5}}
	for _, tc := range []struct{ spec, want string }{
		{"user pjobs max", "USER  PJOBS MAX\nalice 1     8\nbob   0     -\n"},
		{"user:3 njobs:-6", "USE  NJOBS\nali      3\nbob      0\n"},
		{"user jl/p delimiter='|'", "USER |JL/P\nalice|-\nbob  |1.5\n"},
		{"USER RUN", "USER  RUN\nalice 2\nbob   0\n"},
	} {
		cols, delim, err := parseUserColumns(tc.spec)
		if err != nil {
			t.Fatalf("%q: %v", tc.spec, err)
		}
		var b bytes.Buffer
		writeUserColumns(&b, cols, delim, users)
		if b.String() != tc.want {
			t.Errorf("%q:\n%s\nwant\n%s", tc.spec, b.String(), tc.want)
		}
	}
	if cols, _, err := parseUserColumns("all"); err != nil || len(cols) != len(userFieldNames) {
		t.Errorf("all: %d fields, %v", len(cols), err)
	}
	for _, bad := range []string{"", "nosuch", "user:0", "user:x", "delimiter=|", "user delimiter='ab"} {
		if _, _, err := parseUserColumns(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// FuzzBusersColumns checks that busers -o's reader never panics and that
// what it takes prints one line a user, and a header, with as many
// fields.
func FuzzBusersColumns(f *testing.F) {
	for _, s := range []string{"user pjobs", "all:5", "user:-3 max delimiter=','", "delimiter='", ":", "user::"} {
		f.Add(s)
	}
	users := []api.User{{Name: "alice"}, {Name: "b\nob"}}
	f.Fuzz(func(t *testing.T, spec string) {
		cols, delim, err := parseUserColumns(spec)
		if err != nil {
			return
		}
		var b bytes.Buffer
		writeUserColumns(&b, cols, delim, textSafe(users))
		lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
		if len(lines) != len(users)+1 {
			t.Fatalf("%q: %d lines:\n%s", spec, len(lines), b.String())
		}
	})
}
