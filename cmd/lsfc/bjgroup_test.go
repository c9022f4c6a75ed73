package main

import (
	"bytes"
	"testing"

	"github.com/lsfc/lsfc/runtime/api"
)

// TestBjgroupLayout checks bjgroup's tables with the groups of the
// "bjgroup" page of the IBM Spectrum LSF 10.1 command reference (/A,
// /A/B, /X, /X/Y): by depth without -s; by hierarchy with -s; one subtree
// with -s /X and one group with -s /X/; in slots with -N.
func TestBjgroupLayout(t *testing.T) {
	run := api.GroupCount{Total: 25, Run: 25}
	groups := []api.JobGroup{
		{Path: "/A", Owner: "user1", Limit: 10},
		{Path: "/X", Owner: "user2", Limit: -1, SLA: "puccini", Started: 25, Jobs: run, Slots: api.GroupCount{Total: 50, Run: 50}},
		{Path: "/A/B", Owner: "user1", Limit: 5},
		{Path: "/X/Y", Owner: "user2", Limit: 5, SLA: "puccini", Started: 20, Jobs: api.GroupCount{Total: 23, Run: 20, Finish: 3},
			Slots: api.GroupCount{Total: 43, Run: 40, Finish: 3}},
	}
	for _, tc := range []struct {
		what   string
		sorted bool
		name   string
		slots  bool
	}{
		{"bjgroup", false, "", false},
		{"bjgroup -s", true, "", false},
		{"bjgroup -s /X", true, "/X", false},
		{"bjgroup -s /X/", true, "/X/", false},
		{"bjgroup -N", false, "", true},
	} {
		gs := groups
		if tc.sorted {
			gs = jobGroupTree(groups, tc.name)
		}
		var b bytes.Buffer
		writeJobGroups(&b, gs, tc.slots)
		checkLayout(t, tc.what, b.String())
	}
	if got := jobGroupTree(groups, "/nosuch"); len(got) != 0 {
		t.Errorf("-s /nosuch: %v", got)
	}
}
