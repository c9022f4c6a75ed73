package runtime_test

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/runtime"
	"github.com/lsfc/lsfc/runtime/api"
)

// TestStartedWhere walks jobs through starts, suspensions, finishes,
// requeues, kills, restores and forgetting: StartedWhere always gives
// what JobsWhere gives for the started jobs, in the same order.
func TestStartedWhere(t *testing.T) {
	c := benchClusterFiles(t, 8, map[string]string{"lsb.queues": "Begin Queue\nQUEUE_NAME = normal\nPRIORITY = 30\nEnd Queue\n"})
	clock := &runtime.VirtualClock{T: 1}
	e := runtime.NewEngine(c, clock, nil)
	rng := rand.New(rand.NewPCG(5, 9))
	odd := func(j *runtime.Job) bool { return j.ID%2 == 1 }
	for round := range 200 {
		for range rng.IntN(20) {
			if _, err := e.Submit(runtime.Submission{User: fmt.Sprintf("u%d", rng.IntN(4)), Slots: 1 + rng.IntN(16), Command: "true"}); err != nil {
				t.Fatal(err)
			}
		}
		e.Schedule()
		now := runtime.Time(clock.T)
		for _, j := range c.Jobs() {
			switch rng.IntN(12) {
			case 0:
				if j.State.Started() {
					e.Finish(j, runtime.Done, 0)
				}
			case 1:
				if j.State == runtime.Run {
					c.Suspend(j, runtime.ReasonNone, now)
				}
			case 2:
				if j.State == runtime.USusp {
					c.Resume(j, now)
				}
			case 3:
				if j.State.Started() {
					c.Requeue(j, now)
				}
			case 4:
				if j.State.Finished() {
					if rng.IntN(2) == 0 {
						c.RequeueFinished(j, false, now)
					} else {
						c.Forget(j)
					}
				}
			case 5:
				c.Kill(j, now)
			}
		}
		want := c.JobsWhere(func(j *runtime.Job) bool { return j.State.Started() && odd(j) })
		if got := c.StartedWhere(odd); !slices.Equal(got, want) {
			t.Fatalf("round %d: StartedWhere gives %d jobs, JobsWhere %d", round, len(got), len(want))
		}
		if round == 100 {
			// A cluster restored from its jobs' images, as a restart or a
			// reconfiguration makes it, knows which of them run.
			var facts []*compile.Host
			for _, h := range c.Hosts {
				facts = append(facts, h.Facts)
			}
			n, err := runtime.NewCluster(c.Policy, runtime.ClusterOptions{Hosts: facts})
			if err != nil {
				t.Fatal(err)
			}
			for _, j := range c.Jobs() {
				if _, _, err := n.Restore(j.Image()); err != nil {
					t.Fatal(err)
				}
			}
			if len(n.StartedWhere(odd)) != len(c.StartedWhere(odd)) {
				t.Fatalf("restored: %d started, want %d", len(n.StartedWhere(odd)), len(c.StartedWhere(odd)))
			}
		}
		clock.T += 10
	}
}

// TestFinishedBefore finishes, requeues and forgets jobs at times of
// their own: FinishedBefore gives, at each step, the finished jobs that
// ended before the time asked, as JobsWhere finds them, each once, and
// they are forgotten, as the daemon forgets them.
func TestFinishedBefore(t *testing.T) {
	c := benchClusterFiles(t, 4, map[string]string{"lsb.queues": "Begin Queue\nQUEUE_NAME = normal\nPRIORITY = 30\nEnd Queue\n"})
	clock := &runtime.VirtualClock{T: 1}
	e := runtime.NewEngine(c, clock, nil)
	rng := rand.New(rand.NewPCG(2, 4))
	const clean = 50
	for round := range 300 {
		for range rng.IntN(6) {
			if _, err := e.Submit(runtime.Submission{User: "u", Slots: 1 + rng.IntN(8), Command: "true"}); err != nil {
				t.Fatal(err)
			}
		}
		e.Schedule()
		now := runtime.Time(clock.T)
		for _, j := range c.Jobs() {
			switch rng.IntN(10) {
			case 0:
				if j.State.Started() {
					e.Finish(j, runtime.Exit, 1)
				}
			case 1:
				c.Kill(j, now)
			case 2:
				if j.State.Finished() {
					c.RequeueFinished(j, false, now)
				}
			}
		}
		want := c.JobsWhere(func(j *runtime.Job) bool { return j.State.Finished() && float64(now-j.End) > clean })
		got := c.FinishedBefore(now.Add(-clean))
		if !slices.Equal(got, want) {
			t.Fatalf("round %d: FinishedBefore gives %d jobs, JobsWhere %d", round, len(got), len(want))
		}
		// The daemon forgets them.
		for _, j := range got {
			c.Forget(j)
		}
		if round > 100 && len(c.Jobs()) == 0 {
			t.Fatal("no job left")
		}
		clock.T += runtime.Time(1 + rng.IntN(20))
	}
}

// TestJobsOrder lists plain jobs and the elements of arrays in ID order:
// by job ID, then by index.
func TestJobsOrder(t *testing.T) {
	p := policyOf(t, reconfigPolicy)
	c, err := runtime.NewCluster(p, runtime.ClusterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i, spec := range []string{"", "a[1-12:3]", "", "b[2,40,7,100]", ""} {
		if spec == "" {
			if _, err := c.Submit(runtime.Submission{User: "u1", Command: "true"}, 10); err != nil {
				t.Fatal(err)
			}
			continue
		}
		s, err := c.CheckArraySpec(spec)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.SubmitArray(runtime.Submission{User: "u1", Command: "true"}, s, 10); err != nil {
			t.Fatalf("array %d: %v", i, err)
		}
	}
	jobs := c.Jobs()
	var got []string
	for _, j := range jobs {
		got = append(got, fmt.Sprintf("%d[%d]", j.JobID(), j.Index()))
	}
	want := []string{"1[0]", "2[1]", "2[4]", "2[7]", "2[10]", "3[0]", "4[2]", "4[7]", "4[40]", "4[100]", "5[0]"}
	if !slices.Equal(got, want) {
		t.Errorf("Jobs() = %v, want %v", got, want)
	}
	odd := c.JobsWhere(func(j *runtime.Job) bool { return j.Index()%2 == 1 })
	if len(odd) != 3 || odd[0].ID != api.ElementID(2, 1) || odd[1].ID != api.ElementID(2, 7) || odd[2].ID != api.ElementID(4, 7) {
		t.Errorf("JobsWhere(odd index) = %d jobs, want 2[1] 2[7] 4[7]", len(odd))
	}
	if none := c.JobsWhere(func(*runtime.Job) bool { return false }); none != nil {
		t.Errorf("JobsWhere(none) = %v, want nil", none)
	}
}
