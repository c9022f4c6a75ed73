package runtime_test

import (
	"strings"
	"testing"

	"github.com/lsfc/lsfc/runtime"
	"github.com/lsfc/lsfc/runtime/api"
	"golang.org/x/tools/txtar"
)

// jobGroupCluster returns a cluster of one host with the lsb.params
// given.
func jobGroupCluster(t *testing.T, params string) *runtime.Cluster {
	t.Helper()
	ar := txtar.Parse([]byte(`-- lsf.cluster.test --
Begin Host
HOSTNAME  model  type  server  RESOURCES
hostA     !      !     1       ()
End Host
-- lsb.hosts --
Begin Host
HOST_NAME  MXJ
default    4
End Host
-- lsb.params --
Begin Parameters
JOB_ACCEPT_INTERVAL = 0
` + params + `
End Parameters
-- lsb.queues --
Begin Queue
QUEUE_NAME = normal
PRIORITY   = 30
End Queue
`))
	c := compileCluster(t, ar)
	return c
}

// TestJobGroupTree checks the rules of the tree: groups above are made
// with a group, limits may not exceed those above nor fall below those
// under, a group with unfinished jobs is not deleted, and deleting a
// group deletes those under it.
func TestJobGroupTree(t *testing.T) {
	c := jobGroupCluster(t, "")
	if _, err := c.AddJobGroup("/a/b/c", "u1", 5, "", false); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"/a", "/a/b", "/a/b/c"} {
		if g := c.JobGroup(p); g == nil || g.Implicit || g.Owner != "u1" {
			t.Errorf("group %s: %+v, want an explicit group of u1", p, g)
		}
	}
	if _, err := c.AddJobGroup("/a/b/c", "u1", -1, "", false); err == nil {
		t.Errorf("adding /a/b/c twice: no error")
	}
	if err := c.SetJobGroupLimit("/a", 3); err == nil || !strings.Contains(err.Error(), "below the limit 5") {
		t.Errorf("a limit under a subgroup's: %v", err)
	}
	if err := c.SetJobGroupLimit("/a", 8); err != nil {
		t.Fatal(err)
	}
	if _, err := c.AddJobGroup("/a/x", "u2", 9, "", false); err == nil || !strings.Contains(err.Error(), "exceeds the limit 8") {
		t.Errorf("a limit over the parent's: %v", err)
	}
	// Refused, it makes none of the groups between.
	if _, err := c.AddJobGroup("/a/new/deep", "u2", 9, "", false); err == nil || c.JobGroup("/a/new") != nil {
		t.Errorf("a refused group: %v, /a/new %v", err, c.JobGroup("/a/new"))
	}
	if err := c.SetJobGroupLimit("/a/b/c", 9); err == nil {
		t.Errorf("bgmod over the parent's limit: no error")
	}
	if err := c.SetJobGroupLimit("/nosuch", 1); err == nil {
		t.Errorf("bgmod of a group that does not exist: no error")
	}
	j, err := c.Submit(runtime.Submission{User: "u1", Queue: "normal", JobGroup: "/a/b/c/"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if j.JobGroupPath() != "/a/b/c" {
		t.Errorf("job's group %q, want /a/b/c", j.JobGroupPath())
	}
	if err := c.DeleteJobGroup("/a"); err == nil || !c.JobGroupBusy("/a") {
		t.Errorf("deleting a group with an unfinished job under it: %v", err)
	}
	if err := c.Finish(j, runtime.Exit, 1, "TERM_OWNER", 1); err != nil {
		t.Fatal(err)
	}
	// Without JOB_GROUP_CLEAN the groups stay.
	if c.JobGroup("/a/b/c") == nil {
		t.Errorf("explicit group gone after its job ended")
	}
	if err := c.DeleteJobGroup("/a/b"); err != nil {
		t.Fatal(err)
	}
	if c.JobGroup("/a/b/c") != nil || c.JobGroup("/a/b") != nil || c.JobGroup("/a") == nil {
		t.Errorf("after deleting /a/b: %v", c.JobGroups())
	}
	if _, err := c.Submit(runtime.Submission{User: "u1", Queue: "normal", JobGroup: "no/slash"}, 0); err == nil {
		t.Errorf("a job group that is no full path was accepted")
	}
}

// TestJobGroupClean checks JOB_GROUP_CLEAN and DEFAULT_JOBGROUP: an
// implicit group (and the implicit ones above it) goes when its last job
// ends, one with a limit or made by bgadd stays; a job without -g joins
// DEFAULT_JOBGROUP with its patterns filled in; bmod -g moves a pending
// job, and its old group goes.
func TestJobGroupClean(t *testing.T) {
	c := jobGroupCluster(t, "JOB_GROUP_CLEAN = Y\nDEFAULT_JOBGROUP = /def/%u/%p")
	if _, err := c.AddJobGroup("/kept", "u1", -1, "", false); err != nil {
		t.Fatal(err)
	}
	sub := func(s runtime.Submission) *runtime.Job {
		t.Helper()
		s.Queue = "normal"
		j, err := c.Submit(s, 0)
		if err != nil {
			t.Fatal(err)
		}
		return j
	}
	a := sub(runtime.Submission{User: "u1", JobGroup: "/kept/tmp/x"})
	b := sub(runtime.Submission{User: "u2", Project: "chem"})
	if b.JobGroupPath() != "/def/u2/chem" {
		t.Errorf("DEFAULT_JOBGROUP gave %q, want /def/u2/chem", b.JobGroupPath())
	}
	if g := c.JobGroup("/def/u2"); g == nil || !g.Implicit || g.Owner != "u2" {
		t.Errorf("/def/u2: %+v", g)
	}
	for _, j := range []*runtime.Job{a, b} {
		if err := c.Finish(j, runtime.Done, 0, "", 1); err != nil {
			t.Fatal(err)
		}
	}
	var paths []string
	for _, g := range c.JobGroups() {
		paths = append(paths, g.Path)
	}
	if strings.Join(paths, " ") != "/kept" {
		t.Errorf("groups after the jobs ended: %q, want only /kept", paths)
	}
	m := sub(runtime.Submission{User: "u1", JobGroup: "/one", Hold: true})
	to := "/two/sub"
	if err := c.Modify(m, runtime.Modification{JobGroup: &to}); err != nil {
		t.Fatal(err)
	}
	if c.JobGroup("/one") != nil || c.JobGroup("/two/sub") == nil || m.JobGroupPath() != "/two/sub" {
		t.Errorf("after bmod -g: groups %v, job in %q", c.JobGroups(), m.JobGroupPath())
	}
	if got := c.DefaultJobGroup(runtime.Submission{User: "u1"}); got != "/def/u1" {
		t.Errorf("a pattern with no value: %q, want /def/u1", got)
	}
}

// FuzzJobGroupPath checks CleanJobGroupPath: no panic; a path it takes is
// a full path without empty parts, read again the same, and a group of it
// can be made with those above it.
func FuzzJobGroupPath(f *testing.F) {
	for _, s := range []string{"/a", "/a/b/", "/", "", "a/b", "//a", "/a//b", "/a b", "/é", "/" + strings.Repeat("x", 600)} {
		f.Add(s)
	}
	var c *runtime.Cluster
	f.Fuzz(func(t *testing.T, s string) {
		if c == nil {
			c = jobGroupCluster(t, "")
		}
		p, err := runtime.CleanJobGroupPath(s)
		if err != nil {
			return
		}
		if !strings.HasPrefix(p, "/") || strings.Contains(p, "//") || strings.HasSuffix(p, "/") {
			t.Fatalf("%q cleaned to %q", s, p)
		}
		if q, err := runtime.CleanJobGroupPath(p); err != nil || q != p {
			t.Fatalf("%q cleaned again: %q, %v", p, q, err)
		}
		g, err := c.AddJobGroup(p, "u", -1, "", true)
		if err != nil {
			t.Fatalf("AddJobGroup(%q): %v", p, err)
		}
		for x := g; x != nil; x = x.Parent() {
			if c.JobGroup(x.Path) != x {
				t.Fatalf("group %s is not in the tree", x.Path)
			}
		}
	})
}

// TestJobGroupArray checks that every element of a job array submitted to
// a group counts in it: the group is busy until the last one ends, and
// its limit bounds the elements that run.
func TestJobGroupArray(t *testing.T) {
	c := jobGroupCluster(t, "JOB_GROUP_CLEAN = Y")
	if _, err := c.AddJobGroup("/arr", "u1", 1, "", false); err != nil {
		t.Fatal(err)
	}
	spec, err := api.ParseArraySpec("a[1-3]", api.MaxArrayIndex)
	if err != nil {
		t.Fatal(err)
	}
	a, err := c.SubmitArray(runtime.Submission{User: "u1", Queue: "normal", JobGroup: "/arr/sub", Runtime: 10}, spec, 0)
	if err != nil {
		t.Fatal(err)
	}
	clock := &runtime.VirtualClock{T: 0}
	e := runtime.NewEngine(c, clock, nil)
	e.Schedule()
	running := 0
	for _, j := range a.Elements {
		if j.State == runtime.Run {
			running++
		}
	}
	if running != 1 {
		t.Errorf("%d elements run under /arr's limit of 1", running)
	}
	for i, j := range a.Elements {
		if !c.JobGroupBusy("/arr/sub") {
			t.Fatalf("/arr/sub not busy with %d elements left", len(a.Elements)-i)
		}
		if err := c.Finish(j, runtime.Done, 0, "", 5); err != nil {
			t.Fatal(err)
		}
	}
	if c.JobGroup("/arr/sub") != nil || c.JobGroup("/arr") == nil {
		t.Errorf("after the elements ended: groups %v, want /arr alone (JOB_GROUP_CLEAN)", c.JobGroups())
	}
}
