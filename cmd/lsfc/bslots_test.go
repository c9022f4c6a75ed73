package main

import (
	"bytes"
	"testing"

	"github.com/lsfc/lsfc/runtime/api"
)

// TestBackfillWindows checks how bslots works out its windows from the
// hosts: unreserved free slots are free without limit, reserved ones
// until their job's predicted start; each window counts the slots free
// at least that long; full, closed and unlimited hosts give none.
func TestBackfillWindows(t *testing.T) {
	now := int64(1000)
	hosts := []api.Host{
		{Name: "hostA", Status: "ok", Max: 8, NJobs: 2},                               // 6 free, none reserved
		{Name: "hostB", Status: "ok", Max: 8, NJobs: 4, Rsv: 4, RsvStart: now + 600},  // 4 reserved for 10 minutes
		{Name: "hostC", Status: "ok", Max: 8, NJobs: 6, Rsv: 1, RsvStart: now + 3661}, // 1 free, 1 reserved
		{Name: "hostD", Status: "ok", Max: 8, NJobs: 4, Rsv: 4},                       // reserved, start unknown
		{Name: "hostE", Status: "closed_Adm", Max: 8},
		{Name: "hostF", Status: "closed_Full", Max: 4, NJobs: 4},
		{Name: "hostG", Status: "ok", Max: -1},
	}
	var b bytes.Buffer
	writeBackfillWindows(&b, backfillWindows(hosts, now), false)
	want := `SLOTS          RUNTIME
7              UNLIMITED
8              1 hour 1 minute 1 second
12             10 minutes
`
	if b.String() != want {
		t.Errorf("bslots:\n%s\nwant:\n%s", b.String(), want)
	}
	b.Reset()
	writeBackfillWindows(&b, backfillWindows(hosts, now)[2:], true)
	if want := "SLOTS: 12\nRUNTIME: 10 minutes\nHOSTS: 6*hostA 4*hostB 2*hostC\n"; b.String() != want {
		t.Errorf("bslots -l:\n%s\nwant:\n%s", b.String(), want)
	}
	b.Reset()
	writeBackfillWindows(&b, nil, false)
	if want := "No backfill window exists at this time\n"; b.String() != want {
		t.Errorf("no window: %q, want %q", b.String(), want)
	}
}
