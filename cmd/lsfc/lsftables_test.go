package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/runtime/api"
)

// TestBqueuesLayout checks bqueues' table, -w, -l and -json, after the
// "bqueues" page of the IBM Spectrum LSF 10.1 command reference.
func TestBqueuesLayout(t *testing.T) {
	var b bytes.Buffer
	writeQueues(&b, fixtureQueues(), false)
	checkLayout(t, "bqueues", b.String())
	b.Reset()
	writeQueues(&b, fixtureQueues()[1:], true)
	checkLayout(t, "bqueues -w", b.String())
	b.Reset()
	writeQueuesLong(&b, fixtureQueues()[:1], false)
	checkLayout(t, "bqueues -l", b.String())
	b.Reset()
	writeLSFJSON(&b, "bqueues", "QUEUES", queueRecords(fixtureQueues()[1:]))
	checkLayout(t, "bqueues -json", b.String())
}

// TestBqueuesShareLayout checks the share tree of bqueues -l (the top
// level) and -r (every level, depth first).
func TestBqueuesShareLayout(t *testing.T) {
	q := api.Queue{Name: "fair", Priority: 30, Status: "Open:Active", NJobs: 3, Run: 3,
		UserShares: "[research, 2] [others, 1]", Policies: []string{"FAIRSHARE"},
		Shares: []api.ShareLevel{
			{Path: "", Accounts: []api.ShareAccount{
				{Name: "others", Shares: 1, Priority: 0.333},
				{Name: "research", Group: true, Shares: 2, Priority: 0.125, Started: 3, CPUTime: 5400.4, RunTime: 5400},
			}},
			{Path: "research", Accounts: []api.ShareAccount{
				{Name: "alice", Shares: 3, Priority: 0.5, Started: 1, CPUTime: 1800, RunTime: 1800},
				{Name: "bob", Shares: 1, Priority: 0.1, Started: 2, CPUTime: 3600.4, RunTime: 3600},
			}},
		}}
	var b bytes.Buffer
	writeQueuesLong(&b, []api.Queue{q}, false)
	checkLayout(t, "bqueues -l", b.String())
	b.Reset()
	writeQueuesLong(&b, []api.Queue{q}, true)
	checkLayout(t, "bqueues -r", b.String())
}

// TestBhostsLayout checks bhosts' table and -json, after the "bhosts"
// page of the IBM Spectrum LSF 10.1 command reference.
func TestBhostsLayout(t *testing.T) {
	var b bytes.Buffer
	writeBhosts(&b, fixtureHosts(), false)
	checkLayout(t, "bhosts", b.String())
	b.Reset()
	writeLSFJSON(&b, "bhosts", "HOSTS", bhostsRecords(fixtureHosts()[2:]))
	checkLayout(t, "bhosts -json", b.String())
}

// TestLshostsLayout checks lshosts' table, -json and -l, after the
// "lshosts" page of the IBM Spectrum LSF 10.1 command reference.
func TestLshostsLayout(t *testing.T) {
	var b bytes.Buffer
	writeLshosts(&b, fixtureHosts(), false)
	checkLayout(t, "lshosts", b.String())
	b.Reset()
	writeLSFJSON(&b, "lshosts", "HOSTS", lshostsRecords(fixtureHosts()[:1]))
	checkLayout(t, "lshosts -json", b.String())
	b.Reset()
	writeLshostsLong(&b, fixtureHosts()[:2])
	checkLayout(t, "lshosts -l", b.String())
}

// TestLsloadLayout checks lsload's table and -json, after the "lsload"
// page of the IBM Spectrum LSF 10.1 command reference.
func TestLsloadLayout(t *testing.T) {
	var b bytes.Buffer
	writeLsload(&b, fixtureHosts(), false)
	checkLayout(t, "lsload", b.String())
	b.Reset()
	writeLSFJSON(&b, "lsload", "HOSTS", lsloadRecords(fixtureHosts()[:1]))
	checkLayout(t, "lsload -json", b.String())
}

// TestParamsLayout checks bparams -a: one "NAME = value" line a
// parameter, as the "bparams" page of the IBM Spectrum LSF 10.1 command reference shows.
func TestParamsLayout(t *testing.T) {
	var b bytes.Buffer
	writeParamsAll(&b, map[string]string{"RESOURCE_RESERVE_PER_TASK": "N", "MBD_SLEEP_TIME": "10", "CLEAN_PERIOD": "3600"})
	checkLayout(t, "bparams -a", b.String())
}

// TestBqueuesLongDefinition checks the parts of bqueues -l that come from
// the queue's definition: limits in LSF's order and units (a time limit
// normalised to a host model names it), the size and count limits in
// one row, a second threshold table for indices other than the built-in
// ones, policies, users, hosts and windows.
func TestBqueuesLongDefinition(t *testing.T) {
	sched, stop, util := 0.5, 1.5, 80.0
	q := api.Queue{Name: "night", Priority: 40, Nice: 10, Status: "Open:Inact", SSusp: 2, USusp: 1, NJobs: 3, Susp: 3,
		AcceptInterval: 30,
		Limits: []api.QueueLimit{
			{Name: "RUNLIMIT", Max: 600, Unit: "min"},
			{Name: "CPULIMIT", Default: 60, Max: 120, Unit: "min", Spec: "Xeon"},
			{Name: "TASKLIMIT", Default: 4, Max: 16},
			{Name: "FILELIMIT", Max: 2048, Unit: "M"},
			{Name: "THREADLIMIT", Max: 64},
		},
		Thresholds: map[string]api.Threshold{"r15s": {Sched: &sched, Stop: &stop}, "gpu_util": {Sched: &util}},
		Policies:   []string{"PREEMPTABLE", "BACKFILL", "NO_INTERACTIVE"},
		Users:      []string{"night_users/", "~guest"}, Hosts: []string{"~hostZ", "all"},
		RunWindow: "20:00-8:00", DispatchWindow: "22:00-6:00"}
	var b bytes.Buffer
	writeQueuesLong(&b, []api.Queue{q}, false)
	checkLayout(t, "bqueues -l", b.String())
}

// TestSharedLayout checks lshosts -s and lsload -s: one row an instance
// of a ResourceMap resource with the hosts that share it, after the
// "lshosts" and "lsload" pages of the IBM Spectrum LSF 10.1 command
// reference. lshosts shows the configured value, lsload what running
// jobs leave of a numeric one.
func TestSharedLayout(t *testing.T) {
	rs := []api.SharedResource{
		{Resource: "lic_abaqus", Value: "20", Numeric: true, Reserved: 5, Hosts: []string{"cn01", "cn02", "gpu01"}},
		{Resource: "ngpus", Value: "4", Numeric: true, Reserved: 3, Hosts: []string{"gpu01"}},
		{Resource: "ngpus", Value: "4", Numeric: true, Hosts: []string{"gpu02"}},
		{Resource: "rack", Value: "r01", Hosts: []string{"cn01"}},
	}
	var b bytes.Buffer
	writeShared(&b, rs, false)
	checkLayout(t, "lshosts -s", b.String())
	b.Reset()
	writeShared(&b, rs, true)
	checkLayout(t, "lsload -s", b.String())
	b.Reset()
	writeLSFJSON(&b, "lsload", "RESOURCES", sharedRecords(rs[:2], true))
	checkLayout(t, "lsload -s -json", b.String())
}

// TestLshostsWide: lshosts -w prints names, types and models whole, each
// column as wide as its longest value, so that every value ends under the
// end of its heading (type and model are right-aligned) as in the table
// without -w.
func TestLshostsWide(t *testing.T) {
	hs := fixtureHosts()
	hs[0].Model = "Intel_Xeon_Gold_6248R"
	hs[2].Type = "LINUXPPC64"
	var b bytes.Buffer
	writeLshosts(&b, hs, true)
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 1+len(hs) {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), 1+len(hs), b.String())
	}
	head := lines[0]
	typeEnd, modelEnd, cpufEnd := strings.Index(head, " type ")+5, strings.Index(head, " model ")+6, strings.Index(head, " cpuf ")+5
	for i, h := range hs {
		line := lines[i+1]
		typ, model := orDash(h.Type), orDash(h.Model)
		if !strings.HasPrefix(line, h.Name+" ") {
			t.Errorf("row %d does not start with the whole name %q: %q", i, h.Name, line)
		}
		if typeEnd > len(line) || line[typeEnd-len(typ):typeEnd] != typ {
			t.Errorf("row %d: type %q does not end under its heading (column %d):\n%s\n%s", i, typ, typeEnd, head, line)
		}
		if modelEnd > len(line) || line[modelEnd-len(model):modelEnd] != model {
			t.Errorf("row %d: model %q does not end under its heading (column %d):\n%s\n%s", i, model, modelEnd, head, line)
		}
		if cpuf := orDash(hostCpuf(h)); cpufEnd > len(line) || line[cpufEnd-len(cpuf):cpufEnd] != cpuf {
			t.Errorf("row %d: cpuf %q does not end under its heading:\n%s\n%s", i, cpuf, head, line)
		}
	}
}
