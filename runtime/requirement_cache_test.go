package runtime

import (
	"fmt"
	"testing"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
)

// cacheTestCluster is a cluster of two hosts of 4 slots with plenty of
// memory and two queues, for the tests of what the caches keep.
func cacheTestCluster(t *testing.T) *Cluster {
	t.Helper()
	params, _ := lang.ParseConfig(lang.NewSource("lsb.params",
		"Begin Parameters\nJOB_ACCEPT_INTERVAL = 0\nDEFAULT_QUEUE = normal\nEnd Parameters\n"), lang.KindLSBParams)
	queues, _ := lang.ParseConfig(lang.NewSource("lsb.queues",
		"Begin Queue\nQUEUE_NAME = normal\nPRIORITY = 30\nEnd Queue\n\nBegin Queue\nQUEUE_NAME = other\nPRIORITY = 20\nEnd Queue\n"),
		lang.KindLSBQueues)
	p, ds := compile.Compile(&compile.Tree{Files: []*lang.File{params, queues}}, compile.Options{})
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	var hosts []*compile.Host
	for _, name := range []string{"hostA", "hostB"} {
		hosts = append(hosts, &compile.Host{Name: name, Type: "X86_64", Model: "M", Server: true, Status: "ok",
			Ncpus: 4, Maxmem: 1 << 20, Slots: -1, MaxSlots: 4, Booleans: []string{}, Exclusive: []string{},
			Numbers: map[string]float64{}, Strings: map[string]string{}, Load: map[string]float64{"mem": 1 << 20},
			Reserved: map[string]float64{}})
	}
	c, err := NewCluster(p, ClusterOptions{Hosts: hosts})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// cacheSizes are the sizes of the caches that follow the requirements
// and classes of the jobs.
type cacheSizes struct {
	classes, classList, reqs, reqShared, cands, memo int
}

func sizesOf(e *Engine) cacheSizes {
	c := e.Cluster
	return cacheSizes{len(c.classes), len(c.classList), len(c.reqs), len(c.reqShared), len(e.Scheduler.cands),
		len(e.Scheduler.classes.memo)}
}

// TestCachesForgetFinishedJobs runs the jobs of many distinct -R strings
// to their end, through every way a job changes requirement or class
// (submission, bmod -R, bswitch, requeue, bkill of a pending job, a check
// without a job), and checks that the job classes, the requirement cache
// and the scheduler's caches are back to their sizes with one job left
// pending, whose class and requirement are kept; a -R seen before and
// forgotten is then compiled anew and schedules as before.
func TestCachesForgetFinishedJobs(t *testing.T) {
	c := cacheTestCluster(t)
	clock := &VirtualClock{}
	e := NewEngine(c, clock, nil)
	keep, err := e.Submit(Submission{User: "u", ResReq: "select[mem>1]", Hold: true})
	if err != nil {
		t.Fatal(err)
	}
	e.Schedule()
	base := sizesOf(e)

	const n = 300
	var jobs []*Job
	for i := range n {
		clock.T++
		j, err := e.Submit(Submission{User: "u", Slots: 1 + i%3, ResReq: fmt.Sprintf("select[mem>%d]", 10+i)})
		if err != nil {
			t.Fatal(err)
		}
		jobs = append(jobs, j)
		if err := c.Check(c.Queue("other"), Submission{User: "u", ResReq: fmt.Sprintf("select[mem>%d]", 100000+i)}); err != nil {
			t.Fatal(err)
		}
		switch {
		case i%7 == 1:
			r := fmt.Sprintf("select[mem>%d] order[r15s]", 10+i)
			if err := c.Modify(j, Modification{ResReq: &r}); err != nil {
				t.Fatal(err)
			}
		case i%7 == 2:
			if err := c.Switch(j, "other", clock.T); err != nil {
				t.Fatal(err)
			}
		}
		e.Schedule()
		for _, j := range jobs {
			switch {
			case j.State == Run && j.ID%5 == 0 && j.Epoch == 0:
				if err := c.Requeue(j, clock.T); err != nil {
					t.Fatal(err)
				}
			case j.State == Run:
				e.Finish(j, Done, 0)
			}
		}
	}
	for _, j := range jobs {
		if !j.State.Finished() {
			if err := c.Kill(j, clock.T); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, j := range jobs {
		c.Forget(j)
	}
	e.Schedule()
	// The classes go as soon as they are empty; the other caches are
	// swept once they doubled, so that they hold at most twice what the
	// live jobs use, and 64 more, however many jobs went through.
	got := sizesOf(e)
	if got.classes != base.classes || got.classList != base.classList {
		t.Errorf("after %d jobs of distinct requirements ended, %d classes (%d listed), want %d (%d) as with only the held job",
			n, got.classes, got.classList, base.classes, base.classList)
	}
	for _, s := range []struct {
		name      string
		got, base int
	}{{"requirements", got.reqs, base.reqs}, {"merged requirements", got.reqShared, base.reqShared},
		{"class candidates", got.cands, base.cands}, {"select outcomes", got.memo, base.memo}} {
		if s.got > 2*s.base+64 {
			t.Errorf("after %d jobs of distinct requirements ended, %d %s are kept, want at most %d (%d with only the held job)",
				n, s.got, s.name, 2*s.base+64, s.base)
		}
	}
	if keep.class == nil || c.classes[keep.class.key] != keep.class || keep.Req == nil || c.reqShared[keep.Req.key] != keep.Req ||
		keep.Req.users != 1 {
		t.Errorf("the held job's class or requirement was forgotten (class %p, requirement %p with %d users)",
			keep.class, keep.Req, keep.Req.users)
	}

	checkUsers(t, c)

	// A requirement forgotten comes back when a job asks for it again.
	old := jobs[0].Req
	j, err := e.Submit(Submission{User: "u", ResReq: jobs[0].ResReq})
	if err != nil {
		t.Fatal(err)
	}
	if j.Req == old || j.Req.Text != old.Text {
		t.Errorf("resubmitted %q: requirement %p %q, want a new one of the old text %q", j.ResReq, j.Req, j.Req.Text, old.Text)
	}
	if e.Schedule(); j.State != Run {
		t.Errorf("resubmitted %q: job is %s, want RUN", j.ResReq, j.State)
	}
	checkUsers(t, c)
}

// checkUsers checks each cached requirement's count of users against
// the unfinished jobs that use it.
func checkUsers(t *testing.T, c *Cluster) {
	t.Helper()
	users := map[*Requirement]int{}
	for _, j := range c.jobs {
		if !j.State.Finished() && j.Req != nil {
			users[j.Req]++
		}
	}
	for _, r := range c.reqs {
		if r != nil && r.users != users[r] {
			t.Errorf("requirement %q counts %d users, %d unfinished jobs use it", r.Text, r.users, users[r])
		}
	}
}

// TestRequirementShared checks that -R strings whose merged requirement
// is the same share one Requirement, whatever their spelling.
func TestRequirementShared(t *testing.T) {
	c := cacheTestCluster(t)
	a, err := c.Submit(Submission{User: "u", ResReq: "select[mem>1]"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.Submit(Submission{User: "u", ResReq: "select[ mem > 1 ]"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if a.Req != b.Req || a.Req.users != 2 {
		t.Errorf("%q and %q: requirements %p and %p (users %d), want one with 2 users", a.ResReq, b.ResReq, a.Req, b.Req, a.Req.users)
	}
	if a.class != b.class {
		t.Errorf("%q and %q: classes %p and %p, want one", a.ResReq, b.ResReq, a.class, b.class)
	}
}

// TestRequirementLocalType checks that jobs that ask for nothing from
// hosts of two types each get bsub's default select[type==local] for
// their own type: the job from a type no host has waits, in a class of
// its own, while the other runs.
func TestRequirementLocalType(t *testing.T) {
	c := cacheTestCluster(t)
	arm, err := c.Submit(Submission{User: "u", FromType: "AARCH64"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	x86, err := c.Submit(Submission{User: "u", FromType: "X86_64"}, 0)
	if err != nil {
		t.Fatal(err)
	}
	if arm.Req == x86.Req || arm.class == x86.class {
		t.Errorf("jobs from AARCH64 and X86_64 share requirement %p %q and class %p, want one each", arm.Req, arm.Req.Text, arm.class)
	}
	NewEngine(c, &VirtualClock{}, nil).Schedule()
	if arm.State != Pend || x86.State != Run {
		t.Errorf("on X86_64 hosts: the job from AARCH64 is %s, want PEND; the job from X86_64 is %s, want RUN", arm.State, x86.State)
	}
}
