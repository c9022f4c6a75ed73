package runtime_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/lsfc/lsfc/runtime"
	"golang.org/x/tools/txtar"
)

// limitsTree has a per-user slot limit, a cluster-wide job and memory
// limit on one queue, a per-host limit and a section lsfc reads but does
// not enforce (TMP only).
const limitsTree = `-- lsf.cluster.test --
Begin Host
HOSTNAME  model  type  server  RESOURCES
hostA     !      !     1       ()
hostB     !      !     1       ()
End Host
-- lsb.hosts --
Begin Host
HOST_NAME  MXJ
default    8
End Host
-- lsb.params --
Begin Parameters
JOB_ACCEPT_INTERVAL = 0
End Parameters
-- lsb.users --
Begin UserGroup
GROUP_NAME  GROUP_MEMBER
chem        (u1 u2)
End UserGroup
-- lsb.queues --
Begin Queue
QUEUE_NAME = normal
PRIORITY   = 30
End Queue
Begin Queue
QUEUE_NAME = night
PRIORITY   = 20
End Queue
-- lsb.resources --
Begin Limit
NAME     = per_user
PER_USER = all
SLOTS    = 3
End Limit
Begin Limit
NAME   = night_cap
QUEUES = night
JOBS   = 10
MEM    = 4096
End Limit
Begin Limit
NAME     = per_host
PER_HOST = hostA hostB
SLOTS    = 6
End Limit
Begin Limit
NAME = scratch
USERS = chem
TMP  = 100
End Limit
`

// TestLimitsReport checks the usage report of the lsb.resources limits:
// each running job counts against its user's row of a PER_USER limit,
// the whole of a limit without PER_ keys, and its host's row of a
// PER_HOST one; finished jobs give their share back; filters pick
// sections and rows.
func TestLimitsReport(t *testing.T) {
	c := compileCluster(t, txtar.Parse([]byte(limitsTree)))
	clock := &runtime.VirtualClock{T: 1000}
	e := runtime.NewEngine(c, clock, nil)
	submit := func(s runtime.Submission) *runtime.Job {
		t.Helper()
		j, err := e.Submit(s)
		if err != nil {
			t.Fatal(err)
		}
		return j
	}
	submit(runtime.Submission{User: "u1", Queue: "normal", Slots: 2, Runtime: 7200, ResReq: "span[hosts=1]"})
	submit(runtime.Submission{User: "u2", Queue: "night", Slots: 1, Runtime: 7200, ResReq: "rusage[mem=512]"})
	short := submit(runtime.Submission{User: "u2", Queue: "night", Slots: 1, Runtime: 7200, ResReq: "rusage[mem=256]"})
	e.Schedule()
	for _, j := range c.Jobs() {
		if j.State != runtime.Run {
			t.Fatalf("job %d is %v, want running", j.ID, j.State)
		}
	}
	hostOf := func(j *runtime.Job) string { return j.Allocs[0].Host.Name }

	got := c.Limits(runtime.LimitFilter{})
	names := []string{}
	for _, l := range got {
		names = append(names, l.Name)
	}
	if diff := cmp.Diff([]string{"per_user", "night_cap", "per_host", "scratch"}, names); diff != "" {
		t.Fatalf("sections (-want +got):\n%s", diff)
	}
	perUser := runtime.LimitReport{
		Name: "per_user", Enforced: true,
		Settings: []runtime.LimitSetting{{"PER_USER", "all"}, {"SLOTS", "3"}},
		Slots:    3, Jobs: -1, Mem: -1,
		Use: []runtime.LimitConsumerUse{
			{User: "u1", Slots: 2, Jobs: 1},
			{User: "u2", Slots: 2, Jobs: 2, Mem: 768},
		},
	}
	if diff := cmp.Diff(perUser, got[0]); diff != "" {
		t.Errorf("per_user (-want +got):\n%s", diff)
	}
	nightCap := runtime.LimitReport{
		Name: "night_cap", Enforced: true,
		Settings: []runtime.LimitSetting{{"QUEUES", "night"}, {"JOBS", "10"}, {"MEM", "4096"}},
		Slots:    -1, Jobs: 10, Mem: 4096,
		Use: []runtime.LimitConsumerUse{{Slots: 2, Jobs: 2, Mem: 768}},
	}
	if diff := cmp.Diff(nightCap, got[1]); diff != "" {
		t.Errorf("night_cap (-want +got):\n%s", diff)
	}
	byHost := map[string]int{}
	for _, j := range c.Jobs() {
		byHost[hostOf(j)] += j.Slots
	}
	gotHost := map[string]int{}
	for _, u := range got[2].Use {
		if u.User != "" || u.Queue != "" {
			t.Errorf("per_host row %+v names more than its host", u)
		}
		gotHost[u.Host] += u.Slots
	}
	if diff := cmp.Diff(byHost, gotHost); diff != "" {
		t.Errorf("per_host slots by host (-want +got):\n%s", diff)
	}
	if s := got[3]; s.Enforced || s.Use != nil || s.Slots != -1 || s.Mem != -1 {
		t.Errorf("scratch = %+v, want not enforced, no limits lsfc counts, no use", s)
	}

	// Filters: a user picks the sections that apply to them and, of a
	// PER_USER one, their row; a group stands for its members.
	only := func(f runtime.LimitFilter) map[string][]runtime.LimitConsumerUse {
		out := map[string][]runtime.LimitConsumerUse{}
		for _, l := range c.Limits(f) {
			out[l.Name] = l.Use
		}
		return out
	}
	u1 := only(runtime.LimitFilter{Users: []string{"u1"}})
	if _, ok := u1["night_cap"]; !ok {
		t.Errorf("-u u1 left out night_cap, which applies to every user")
	}
	if diff := cmp.Diff([]runtime.LimitConsumerUse{{User: "u1", Slots: 2, Jobs: 1}}, u1["per_user"]); diff != "" {
		t.Errorf("-u u1 per_user rows (-want +got):\n%s", diff)
	}
	if _, ok := u1["scratch"]; !ok {
		t.Errorf("-u u1 left out scratch, whose USERS = chem holds u1")
	}
	if got := only(runtime.LimitFilter{Users: []string{"all"}, Queues: []string{"all"}}); len(got) != 4 || len(got["per_user"]) != 2 {
		t.Errorf("-u all -q all: %+v, want every section and row", got)
	}
	if rows := only(runtime.LimitFilter{Users: []string{"chem"}})["per_user"]; len(rows) != 2 {
		t.Errorf("-u chem per_user rows %+v, want u1 and u2", rows)
	}
	if got := only(runtime.LimitFilter{Users: []string{"u9"}}); got["scratch"] != nil || len(got["per_user"]) != 0 {
		t.Errorf("-u u9: %+v, want scratch left out and no per_user row", got)
	}
	q := only(runtime.LimitFilter{Queues: []string{"normal"}})
	if _, ok := q["night_cap"]; ok {
		t.Errorf("-q normal kept night_cap, a limit of queue night")
	}
	if got := only(runtime.LimitFilter{Names: []string{"per_host"}, Hosts: []string{"hostB"}}); len(got) != 1 || len(got["per_host"]) != min(1, byHost["hostB"]) {
		t.Errorf("-n per_host -m hostB: %+v, want only hostB's row", got)
	}

	// A job that ends gives its share back.
	clock.T += 120
	e.Finish(short, runtime.Done, 0)
	got = c.Limits(runtime.LimitFilter{Names: []string{"night_cap"}})
	if diff := cmp.Diff([]runtime.LimitConsumerUse{{Slots: 1, Jobs: 1, Mem: 512}}, got[0].Use); diff != "" {
		t.Errorf("night_cap after the short job ended (-want +got):\n%s", diff)
	}
}
