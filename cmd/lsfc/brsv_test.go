package main

import (
	"strings"
	"testing"
	"time"

	"github.com/lsfc/lsfc/runtime/api"
)

// brsvArgs parses a brsvadd or brsvmod command line.
func brsvArgs(t *testing.T, cmd *lsfSpec, words ...string) *lsfArgs {
	t.Helper()
	a, err := parseLSFArgs(words, cmd.options, cmd.refused, false)
	if err != nil {
		t.Fatalf("%v: %v", words, err)
	}
	return a
}

var (
	brsvaddTestSpec = lsfSpec{options: []lsfOption{{"n", "n"}, {"m", "m"}, {"R", "r"}, {"u", "u"}, {"g", "g"}, {"b", "b"},
		{"e", "e"}, {"t", "t"}, {"N", "n"}, {"o", ""}, {"s", ""}, {"d", "d"}, {"unit", "u"}}}
	brsvmodTestSpec = lsfSpec{options: []lsfOption{{"b", "b"}, {"e", "e"}, {"t", "t"}}}
)

func TestBrsvaddRequest(t *testing.T) {
	now := time.Date(2026, 3, 15, 12, 30, 0, 0, time.Local)
	a := brsvArgs(t, &brsvaddTestSpec, "-n", "4", "-m", "hostA hostB", "-u", "user1 groupA", "-b", "13:0", "-e", "16:3:0", "-o", "-N", "night")
	req, err := brsvaddRequest(a, now)
	if err != nil {
		t.Fatal(err)
	}
	if req.Slots != 4 || len(req.Hosts) != 2 || len(req.Users) != 2 || !req.Open || req.Name != "night" ||
		req.Begin != time.Date(2026, 3, 15, 13, 0, 0, 0, time.Local).Unix() || req.End != time.Date(2026, 3, 16, 3, 0, 0, 0, time.Local).Unix() {
		t.Errorf("brsvaddRequest = %+v", req)
	}
	for _, tc := range []struct {
		words []string
		err   string
	}{
		{[]string{"-n", "4", "-m", "h", "-u", "u", "-b", "13:0"}, "-b and -e go together"},
		{[]string{"-n", "4", "-m", "h", "-u", "u", "-t", "8:0-9:0", "-b", "1:0", "-e", "2:0"}, "either -b and -e or -t"},
		{[]string{"-n", "0", "-m", "h", "-u", "u", "-t", "8:0-9:0"}, "Bad number of job slots"},
		{[]string{"-n", "1", "-m", "h", "-t", "8:0-9:0"}, "specify the users"},
		{[]string{"-s", "-u", "u", "-m", "h", "-t", "8:0-9:0"}, "is for no user"},
		{[]string{"-n", "1", "-u", "u", "-t", "8:0-9:0"}, "specify the hosts"},
		{[]string{"-n", "1", "-m", "h", "-u", "u"}, "specify the reservation's time"},
		{[]string{"-n", "1", "-m", "h", "-u", "u", "-t", "8:0-9"}, "Bad time specification"},
		{[]string{"-n", "1", "-m", "h", "-u", "u", "-b", "1:2:3:4:5:6", "-e", "1:0"}, "Bad time specification"},
		{[]string{"-n", "1", "-m", "h", "-u", "u", "-t", "8:0-9:0", "-unit", "rack"}, "Bad unit"},
	} {
		_, err := brsvaddRequest(brsvArgs(t, &brsvaddTestSpec, tc.words...), now)
		if err == nil || !strings.Contains(err.Error(), tc.err) {
			t.Errorf("brsvaddRequest(%q) = %v, want %q", tc.words, err, tc.err)
		}
	}
}

func TestRsvModTimes(t *testing.T) {
	now := time.Date(2026, 3, 15, 12, 30, 0, 0, time.Local)
	cur := &api.Rsv{Begin: 1000, End: 5000}
	var req api.RsvRequest
	if err := rsvModTimes(brsvArgs(t, &brsvmodTestSpec, "-b", "-10", "-e", "+60"), &req, cur, now); err != nil {
		t.Fatal(err)
	}
	if req.Begin != 400 || req.End != 8600 {
		t.Errorf("rsvModTimes = %+v", req)
	}
	for _, v := range []string{"+", "+-1", "++1", "+x", "-1:0"} {
		if err := rsvModTimes(brsvArgs(t, &brsvmodTestSpec, "-e", v), &api.RsvRequest{}, cur, now); err == nil {
			t.Errorf("-e %q accepted", v)
		}
	}
	if err := rsvModTimes(brsvArgs(t, &brsvmodTestSpec, "-e", "+5"), &api.RsvRequest{}, &api.Rsv{Window: "8:0-9:0"}, now); err == nil {
		t.Error("-e +5 of a recurring reservation accepted")
	}
}

// FuzzRsvTimes feeds the readers of brsvadd's and brsvmod's -b, -e and
// -t arbitrary values: each answers or refuses, never panics, and a
// recurring window accepted is one ParseRsvWindow reads.
func FuzzRsvTimes(f *testing.F) {
	for _, s := range []string{"13:0", "2099:12:31:23:59", "+30", "-15", "8:0-18:0", "5:18:0-1:8:0", "25:99", "+", "-", "+-3", "1:2:3:4:5"} {
		f.Add(s)
	}
	now := time.Date(2026, 3, 15, 12, 30, 20, 0, time.UTC)
	cur := &api.Rsv{Begin: now.Unix() + 600, End: now.Unix() + 3600}
	f.Fuzz(func(t *testing.T, s string) {
		for _, o := range []string{"-b", "-e", "-t"} {
			a, err := parseLSFArgs([]string{o, s}, brsvmodTestSpec.options, nil, false)
			if err != nil {
				continue
			}
			var req api.RsvRequest
			if err := rsvModTimes(a, &req, cur, now); err == nil && req.Window != "" {
				if _, _, err := api.ParseRsvWindow(req.Window); err != nil {
					t.Fatalf("%s %q gave window %q: %v", o, s, req.Window, err)
				}
			}
			req = api.RsvRequest{Op: "add"}
			_ = rsvTimes(a, &req, now)
		}
	})
}
