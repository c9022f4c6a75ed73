package main

import (
	"slices"
	"testing"

	"github.com/lsfc/lsfc/runtime/api"
)

func TestParseSignal(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
		ok   bool
	}{
		{"KILL", 9, true}, {"SIGTERM", 15, true}, {"usr1", 10, true}, {"sigstop", 19, true}, {"9", 9, true},
		{"64", 64, true}, {"0", 0, false}, {"65", 0, false}, {"-1", 0, false}, {"NOSUCH", 0, false}, {"", 0, false},
	} {
		got, err := parseSignal(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("parseSignal(%q) = %d, %v; want %d, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

func TestMatchJobNameWildcards(t *testing.T) {
	for _, tc := range []struct {
		pattern, name string
		want          bool
	}{
		{"a", "a", true}, {"a", "ab", false}, {"a*", "ab", true}, {"a*", "ba", false}, {"*b", "ab", true},
		{"*", "", true}, {"a*c*e", "abcde", true}, {"a*c*e", "abcd", false}, {"a**", "a", true}, {"*x*", "axb", true},
	} {
		if got := matchJobName(tc.pattern, tc.name); got != tc.want {
			t.Errorf("matchJobName(%q, %q) = %v, want %v", tc.pattern, tc.name, got, tc.want)
		}
	}
}

// TestJobSelectionFilter checks what -J, -m and -stat keep, in id order.
func TestJobSelectionFilter(t *testing.T) {
	jobs := []api.Job{
		{ID: 9, Name: "sim1", State: "RUN", ExecHosts: []string{"hostA", "hostA"}},
		{ID: 3, Name: "sim2", State: "PEND"},
		{ID: 5, Name: "post", State: "USUSP", ExecHosts: []string{"hostB"}},
		{ID: 7, Name: "sim3", State: "PSUSP"},
		{ID: 8, Name: "sim4", State: "SSUSP", ExecHosts: []string{"hostB"}},
	}
	ids := func(js []api.Job) []int64 {
		var out []int64
		for _, j := range js {
			out = append(out, j.ID)
		}
		return out
	}
	for _, tc := range []struct {
		sel  jobSelection
		want []int64
	}{
		{jobSelection{}, []int64{3, 5, 7, 8, 9}},
		{jobSelection{name: "sim*"}, []int64{3, 7, 8, 9}},
		{jobSelection{host: "hostB"}, []int64{5, 8}},
		{jobSelection{stat: "susp"}, []int64{5, 7, 8}},
		{jobSelection{stat: "pend"}, []int64{3}},
		{jobSelection{stat: "run", host: "hostA"}, []int64{9}},
		{jobSelection{name: "sim*", host: "hostB"}, []int64{8}},
		{jobSelection{name: "nosuch"}, nil},
	} {
		if got := ids(tc.sel.filter(slices.Clone(jobs))); !slices.Equal(got, tc.want) {
			t.Errorf("%+v: filter = %v, want %v", tc.sel, got, tc.want)
		}
	}
}
