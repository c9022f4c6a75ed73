package mc_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/runtime/mc"
)

func TestParseNeeds(t *testing.T) {
	for _, tc := range []struct {
		resReq, fromType string
		want             mc.Needs
	}{
		{"", "", mc.Needs{}},
		{"select[mem>100] order[ut]", "", mc.Needs{}},
		{"type==X86_64", "", mc.Needs{Types: []string{"X86_64"}}},
		{`select[type=="AARCH64" && mem>10]`, "", mc.Needs{Types: []string{"AARCH64"}}},
		{"select[type==X86_64 || type==AARCH64]", "", mc.Needs{Types: []string{"AARCH64", "X86_64"}}},
		{"select[(type==X86_64 || type==AARCH64) && type==AARCH64]", "", mc.Needs{Types: []string{"AARCH64"}}},
		{"select[type==X86_64 && type==AARCH64]", "", mc.Needs{Types: []string{}}},
		{"select[type==any]", "", mc.Needs{}},
		{"select[type==local]", "AARCH64", mc.Needs{Types: []string{"AARCH64"}}},
		{"select[type==local]", "", mc.Needs{}},
		{"select[defined(gpu) && defined(fast) && defined(gpu)]", "", mc.Needs{Defined: []string{"fast", "gpu"}}},
		// Only what must hold counts: not under ! nor in a mixed ||.
		{"select[!defined(gpu)]", "", mc.Needs{}},
		{"select[defined(gpu) || mem>10]", "", mc.Needs{}},
		{"select[type==X86_64 || mem>10]", "", mc.Needs{}},
		{"select[gpu]", "", mc.Needs{}},
		{"span[hosts=1] same[type]", "", mc.Needs{SameType: true}},
		{"2*{select[defined(gpu)]} + 2*{select[type==X86_64] same[type]}", "", mc.Needs{Types: []string{"X86_64"}, Defined: []string{"gpu"}, SameType: true}},
		{"{select[type==AARCH64]} || {select[type==X86_64]}", "", mc.Needs{Types: []string{"AARCH64"}}},
		{"select[(", "", mc.Needs{}},
	} {
		if got := mc.ParseNeeds(tc.resReq, tc.fromType); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseNeeds(%q, %q) = %+v, want %+v", tc.resReq, tc.fromType, got, tc.want)
		}
	}
}

// target makes a reachable target; room is its backlog minus pending.
func target(name string, backlog, pending int) *mc.Target {
	cl, q, _ := strings.Cut(name, "@")
	return &mc.Target{Cluster: q, Queue: cl, Backlog: backlog, Pending: pending, Reachable: true}
}

// order lists the targets of a decision's verdicts with their reasons.
func order(d mc.Decision) []string {
	var out []string
	for _, v := range d.Verdicts {
		s := v.Target.String()
		if v.Why != mc.WhyNone {
			s += ": " + v.Why.String()
		}
		out = append(out, s)
	}
	return out
}

func TestDecide(t *testing.T) {
	x86 := mc.HostInfo{Name: "x1", Type: "X86_64", Booleans: []string{"gpu"}, Slots: 4}
	x86b := mc.HostInfo{Name: "x2", Type: "X86_64", Slots: 4}
	arm := mc.HostInfo{Name: "a1", Type: "AARCH64", Slots: 8}
	rr := mc.Options{RemoteResource: true}
	withHosts := func(t *mc.Target, hosts ...mc.HostInfo) *mc.Target { t.Hosts = hosts; return t }
	withPref := func(t *mc.Target, pref, rank int) *mc.Target { t.Pref, t.Rank = pref, rank; return t }
	down := func(t *mc.Target) *mc.Target { t.Reachable = false; return t }
	for _, tc := range []struct {
		name    string
		targets []*mc.Target
		job     mc.Job
		opts    mc.Options
		to      string // "" stays pending
		reason  mc.Why
		order   []string
	}{
		{
			name:    "most room first",
			targets: []*mc.Target{withPref(target("q1@a", 10, 8), 0, 0), withPref(target("q2@b", 10, 3), 0, 1), withPref(target("q3@c", 50, 45), 0, 2)},
			to:      "q2@b", order: []string{"q2@b", "q3@c", "q1@a"},
		},
		{
			name:    "a full queue is passed over",
			targets: []*mc.Target{withPref(target("q1@a", 5, 5), 0, 0), withPref(target("q2@b", 5, 4), 0, 1)},
			to:      "q2@b", order: []string{"q2@b", "q1@a: " + mc.WhyNoRoom.String()},
		},
		{
			name:    "no limit beats any room",
			targets: []*mc.Target{withPref(target("q1@a", 1000, 0), 0, 0), withPref(target("q2@b", mc.Unlimited, 500), 0, 1)},
			to:      "q2@b", order: []string{"q2@b", "q1@a"},
		},
		{
			name:    "equal room: preference, then SNDJOBS_TO order",
			targets: []*mc.Target{withPref(target("q1@a", 10, 5), 0, 0), withPref(target("q2@b", 10, 5), 0, 1), withPref(target("q3@c", 10, 5), 2, 2)},
			to:      "q3@c", order: []string{"q3@c", "q1@a", "q2@b"},
		},
		{
			name:    "an unreachable cluster is passed over",
			targets: []*mc.Target{withPref(down(target("q1@a", 50, 0)), 0, 0), withPref(target("q2@b", 50, 49), 0, 1)},
			to:      "q2@b", order: []string{"q2@b", "q1@a: " + mc.WhyUnreachable.String()},
		},
		{
			name:    "all unreachable: pending, unreachable",
			targets: []*mc.Target{withPref(down(target("q1@a", 50, 0)), 0, 0), withPref(down(target("q2@b", 50, 0)), 0, 1)},
			reason:  mc.WhyUnreachable, order: []string{"q1@a: " + mc.WhyUnreachable.String(), "q2@b: " + mc.WhyUnreachable.String()},
		},
		{
			name:    "none with room: pending, no room",
			targets: []*mc.Target{withPref(down(target("q1@a", 50, 0)), 0, 0), withPref(target("q2@b", 2, 2), 0, 1)},
			reason:  mc.WhyNoRoom, order: []string{"q1@a: " + mc.WhyUnreachable.String(), "q2@b: " + mc.WhyNoRoom.String()},
		},
		{
			name:    "no targets",
			reason:  mc.WhyNone,
			targets: nil,
		},
		{
			name:    "capacity only by default: needs are not weighed",
			targets: []*mc.Target{withHosts(target("q1@a", 10, 0), arm)},
			job:     mc.Job{Slots: 64, Needs: mc.Needs{Types: []string{"X86_64"}, Defined: []string{"gpu"}}},
			to:      "q1@a", order: []string{"q1@a"},
		},
		{
			name:    "remote resource: host type",
			targets: []*mc.Target{withPref(withHosts(target("q1@a", 10, 0), arm), 0, 0), withPref(withHosts(target("q2@b", 10, 9), x86), 0, 1)},
			job:     mc.Job{Slots: 1, Needs: mc.Needs{Types: []string{"X86_64"}}}, opts: rr,
			to: "q2@b", order: []string{"q2@b", "q1@a: " + mc.WhyType.String()},
		},
		{
			name:    "remote resource: defined boolean",
			targets: []*mc.Target{withHosts(target("q1@a", 10, 0), x86b, arm)},
			job:     mc.Job{Slots: 1, Needs: mc.Needs{Defined: []string{"gpu"}}}, opts: rr,
			reason: mc.WhyResource, order: []string{"q1@a: " + mc.WhyResource.String()},
		},
		{
			name:    "remote resource: defined boolean found",
			targets: []*mc.Target{withHosts(target("q1@a", 10, 0), x86b, x86)},
			job:     mc.Job{Slots: 4, Needs: mc.Needs{Types: []string{"X86_64"}, Defined: []string{"gpu"}}}, opts: rr,
			to: "q1@a", order: []string{"q1@a"},
		},
		{
			name:    "remote resource: too few matching slots",
			targets: []*mc.Target{withHosts(target("q1@a", 10, 0), x86, x86b, arm)},
			job:     mc.Job{Slots: 9, Needs: mc.Needs{Types: []string{"X86_64"}}}, opts: rr,
			reason: mc.WhySlots, order: []string{"q1@a: " + mc.WhySlots.String()},
		},
		{
			name:    "remote resource: same[type] needs one type with the slots",
			targets: []*mc.Target{withHosts(target("q1@a", 10, 0), x86, x86b, arm)},
			job:     mc.Job{Slots: 10, Needs: mc.Needs{SameType: true}}, opts: rr,
			reason: mc.WhySameType, order: []string{"q1@a: " + mc.WhySameType.String()},
		},
		{
			name:    "remote resource: same[type] met by one type",
			targets: []*mc.Target{withHosts(target("q1@a", 10, 0), x86, x86b, arm)},
			job:     mc.Job{Slots: 8, Needs: mc.Needs{SameType: true}}, opts: rr,
			to: "q1@a", order: []string{"q1@a"},
		},
		{
			name:    "remote resource: room still decides among fitting targets",
			targets: []*mc.Target{withPref(withHosts(target("q1@a", 10, 1), x86), 0, 0), withPref(withHosts(target("q2@b", 10, 0), x86), 0, 1)},
			job:     mc.Job{Slots: 2, Needs: mc.Needs{Types: []string{"X86_64"}}}, opts: rr,
			to: "q2@b", order: []string{"q2@b", "q1@a"},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := mc.Decide(tc.targets, tc.job, tc.opts)
			to := ""
			if d.To != nil {
				to = d.To.String()
			}
			if to != tc.to {
				t.Errorf("Decide goes to %q, want %q", to, tc.to)
			}
			if got := d.Reason(); got != tc.reason {
				t.Errorf("Reason() = %q, want %q", got, tc.reason)
			}
			if got := order(d); !reflect.DeepEqual(got, tc.order) {
				t.Errorf("verdicts:\ngot  %q\nwant %q", got, tc.order)
			}
			for _, tg := range tc.targets {
				if tg.Pending > tg.Backlog && tg.Backlog != mc.Unlimited {
					t.Errorf("%s: pending %d over backlog %d", tg, tg.Pending, tg.Backlog)
				}
			}
		})
	}
}

func TestPlanner(t *testing.T) {
	p := policy(t, homeTree)
	states := []mc.QueueState{
		{Cluster: "away", Queue: "recv", Receives: true, Backlog: 3, Pending: 0},
		{Cluster: "far", Queue: "recv", Receives: true, Backlog: 4, Pending: 2},
		// away's queue "send" does not receive from home: left out.
		{Cluster: "away", Queue: "send", Receives: false, Backlog: mc.Unlimited},
	}
	pl := mc.NewPlanner(p, states, map[string]bool{"away": true, "far": true}, mc.Options{})
	var got []string
	for id := int64(1); id <= 6; id++ {
		d := pl.Place("send", mc.Job{ID: id, Slots: 1})
		if d.To == nil {
			got = append(got, "pending: "+d.Reason().String())
			continue
		}
		got = append(got, d.To.String())
	}
	// away has room 3, far 2 (preferred on ties): the planner counts what
	// it forwards.
	want := []string{"recv@away", "recv@far", "recv@away", "recv@far", "recv@away",
		"pending: " + mc.WhyNoRoom.String()}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("placements:\ngot  %q\nwant %q", got, want)
	}
	if ts := pl.Targets("normal"); ts != nil {
		t.Errorf("Targets(normal) = %v, want none: it sends nowhere", ts)
	}
	// A cluster that reports nothing, or does not answer, is unreachable.
	pl = mc.NewPlanner(p, states[:1], map[string]bool{}, mc.Options{})
	d := pl.Place("send", mc.Job{ID: 1, Slots: 1})
	if d.To != nil || d.Reason() != mc.WhyUnreachable || len(d.Verdicts) != 3 {
		t.Errorf("with no peer answering: %v, reason %q; want pending, unreachable, 3 verdicts", order(d), d.Reason())
	}
}
