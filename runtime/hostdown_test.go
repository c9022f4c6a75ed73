package runtime_test

import (
	"testing"

	"github.com/lsfc/lsfc/runtime"
)

// TestSetFactsMXJ: a host whose MXJ is "!" takes as many jobs as the CPUs
// its agent reports, not the master's; a fixed MXJ stays.
func TestSetFactsMXJ(t *testing.T) {
	p := policyOf(t, `-- lsf.cluster.test --
Begin Host
HOSTNAME model type server RESOURCES
hostA ! ! 1 ()
hostB ! ! 1 ()
End Host
-- lsb.hosts --
Begin Host
HOST_NAME MXJ
hostA     !
hostB     2
End Host
-- lsb.params --
Begin Parameters
JOB_ACCEPT_INTERVAL = 0
End Parameters
-- lsb.queues --
Begin Queue
QUEUE_NAME = normal
PRIORITY = 30
End Queue
`)
	c, err := runtime.NewCluster(p, runtime.ClusterOptions{SlotsPerHost: 16})
	if err != nil {
		t.Fatal(err)
	}
	a, b := c.Host("hostA"), c.Host("hostB")
	if a.MaxSlots != 16 || b.MaxSlots != 2 {
		t.Fatalf("before the agents report: MXJ %d and %d, want 16 (this machine's CPUs) and 2", a.MaxSlots, b.MaxSlots)
	}
	c.SetFacts(a, "X86_64", "m", 3, 1024, 0, 0)
	c.SetFacts(b, "X86_64", "m", 3, 1024, 0, 0)
	if a.MaxSlots != 3 || b.MaxSlots != 2 {
		t.Fatalf("after the agents report 3 CPUs: MXJ %d and %d, want 3 and 2", a.MaxSlots, b.MaxSlots)
	}
	e := runtime.NewEngine(c, &runtime.VirtualClock{T: 1}, nil)
	for range 4 {
		if _, err := e.Submit(runtime.Submission{User: "u", Queue: "normal", Hosts: []string{"hostA"}}); err != nil {
			t.Fatal(err)
		}
	}
	e.Schedule()
	if n := len(a.Jobs()); n != 3 {
		t.Errorf("hostA runs %d jobs, want 3", n)
	}
}

// TestPerProcessorLimitsCountCPUs: the per-processor slot limits (a
// user's JL/P, a queue's PJOB_LIMIT) count a host's CPUs as MXJ "!" does:
// its agent's ncpus once reported, else the cluster's SlotsPerHost (this
// machine's CPUs under lsfc serve), not one CPU, so that a job of two
// slots on one host runs where the limits give it two.
func TestPerProcessorLimitsCountCPUs(t *testing.T) {
	p := policyOf(t, `-- lsf.cluster.test --
Begin Host
HOSTNAME model type server RESOURCES
hostA ! ! 1 ()
End Host
-- lsb.hosts --
Begin Host
HOST_NAME MXJ
hostA     !
End Host
-- lsb.users --
Begin User
USER_NAME MAX_JOBS JL/P
default   -        1.0
End User
-- lsb.params --
Begin Parameters
JOB_ACCEPT_INTERVAL = 0
End Parameters
-- lsb.queues --
Begin Queue
QUEUE_NAME = normal
PRIORITY = 30
End Queue
Begin Queue
QUEUE_NAME = perproc
PRIORITY = 20
PJOB_LIMIT = 1.0
End Queue
`)
	for _, tc := range []struct {
		name, queue, user string
		agentCPUs         float64 // 0: no agent reports
		slots, want       int     // each job's slots; jobs that run
	}{
		{"JL/P, this machine's 2 CPUs", "normal", "u", 0, 2, 2},
		{"PJOB_LIMIT, this machine's 2 CPUs", "perproc", "u", 0, 2, 2},
		{"JL/P, the agent's 4 CPUs", "normal", "u", 4, 2, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c, err := runtime.NewCluster(p, runtime.ClusterOptions{SlotsPerHost: 2})
			if err != nil {
				t.Fatal(err)
			}
			a := c.Host("hostA")
			if tc.agentCPUs > 0 {
				c.SetFacts(a, "X86_64", "m", tc.agentCPUs, 1024, 0, 0)
			}
			e := runtime.NewEngine(c, &runtime.VirtualClock{T: 1}, nil)
			for range 3 {
				if _, err := e.Submit(runtime.Submission{User: tc.user, Queue: tc.queue, Slots: tc.slots,
					ResReq: "span[hosts=1]"}); err != nil {
					t.Fatal(err)
				}
			}
			e.Schedule()
			slots := 0
			for _, j := range a.Jobs() {
				slots += j.Slots
			}
			if slots != tc.want {
				t.Errorf("hostA runs %d slots of jobs of %d slots, want %d", slots, tc.slots, tc.want)
			}
		})
	}
}

// TestReasonOfUnseenJob: a job the last cycle did not look at shows
// "New job is waiting for scheduling" until a cycle does, and one the
// cycle did not reach (its class had no slot) shows its begin time
// before the lack of slots; one back from a failed pre-execution command
// names it. A held job is held, whether or not a cycle has run.
func TestReasonOfUnseenJob(t *testing.T) {
	p := policyOf(t, `-- lsf.cluster.test --
Begin Host
HOSTNAME model type server RESOURCES
hostA ! ! 1 ()
End Host
-- lsb.hosts --
Begin Host
HOST_NAME MXJ
hostA     1
End Host
-- lsb.params --
Begin Parameters
JOB_ACCEPT_INTERVAL = 0
End Parameters
-- lsb.queues --
Begin Queue
QUEUE_NAME = normal
PRIORITY = 30
End Queue
`)
	c, err := runtime.NewCluster(p, runtime.ClusterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	clock := &runtime.VirtualClock{T: 1}
	e := runtime.NewEngine(c, clock, nil)
	first, err := e.Submit(runtime.Submission{User: "u", Queue: "normal"})
	if err != nil {
		t.Fatal(err)
	}
	held, err := e.Submit(runtime.Submission{User: "u", Queue: "normal", Hold: true})
	if err != nil {
		t.Fatal(err)
	}
	// Before any cycle: a held job is held, the other is new.
	if r := e.Reason(held); r != runtime.ReasonHeld {
		t.Errorf("held job before a cycle: %q, want %q", r, runtime.ReasonHeld)
	}
	if r := e.Reason(first); r != runtime.ReasonNew {
		t.Errorf("job before a cycle: %q, want %q", r, runtime.ReasonNew)
	}
	e.Schedule() // the first job takes the host's one slot
	clock.T = 2
	late, err := e.Submit(runtime.Submission{User: "u", Queue: "normal", Exec: &runtime.JobExec{Begin: 3600}})
	if err != nil {
		t.Fatal(err)
	}
	if r := e.Reason(late); r != runtime.ReasonNew {
		t.Errorf("before a cycle: %q, want %q", r, runtime.ReasonNew)
	}
	e.Schedule()
	if r := e.Reason(late); r != runtime.ReasonBeginTime {
		t.Errorf("after a cycle without a free slot: %q, want %q", r, runtime.ReasonBeginTime)
	}
	// A job back from a failed pre-execution command says so until a
	// cycle looks at it again.
	if first.State != runtime.Run {
		t.Fatalf("first job %s, want RUN", first.State)
	}
	if err := c.PreExecFailed(first, false, 3); err != nil {
		t.Fatal(err)
	}
	if r := e.Reason(first); r != runtime.ReasonPreExec || r.String() != "The job's pre-exec command exited with non-zero status" {
		t.Errorf("after its pre-execution command failed: %q", r)
	}
}

// TestSubmitCandidateQueues: bsub -q "q1 q2" tries the queues in the
// order given and the first that takes the job has it; a name that is no
// queue refuses the submission.
func TestSubmitCandidateQueues(t *testing.T) {
	p := policyOf(t, `-- lsf.cluster.test --
Begin Host
HOSTNAME model type server RESOURCES
hostA ! ! 1 ()
End Host
-- lsb.queues --
Begin Queue
QUEUE_NAME = staff
PRIORITY = 40
USERS = ann
End Queue
Begin Queue
QUEUE_NAME = normal
PRIORITY = 30
End Queue
Begin Queue
QUEUE_NAME = low
PRIORITY = 10
End Queue
`)
	c, err := runtime.NewCluster(p, runtime.ClusterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ user, queues, want string }{
		{"ann", "staff normal", "staff"},
		{"bob", "staff normal", "normal"},
		{"bob", " staff  low normal ", "low"},
	} {
		j, err := c.Submit(runtime.Submission{User: tc.user, Queue: tc.queues}, 1)
		if err != nil || j.Queue.Name != tc.want {
			t.Errorf("%s, -q %q: %v, %v; want queue %s", tc.user, tc.queues, j, err, tc.want)
		}
	}
	for _, queues := range []string{"staff nosuch", "  "} {
		if j, err := c.Submit(runtime.Submission{User: "ann", Queue: queues}, 1); err == nil {
			t.Errorf("-q %q: job in %s, want a refusal", queues, j.Queue.Name)
		}
	}
}
