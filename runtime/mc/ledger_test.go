package mc_test

import (
	"reflect"
	"testing"

	"github.com/lsfc/lsfc/runtime"
	"github.com/lsfc/lsfc/runtime/mc"
)

func TestLedgerRecall(t *testing.T) {
	// MBD_SLEEP_TIME = 10 and MAX_RSCHED_TIME = 3: recalled 30 s after
	// the remote queue took the job; "forever" has infinit.
	l := mc.NewLedger(policy(t, homeTree), 10)
	away := &mc.Target{Cluster: "away", Queue: "recv"}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(l.Forwarded(1, "send", away, 0))
	must(l.Forwarded(2, "send", away, 0))
	must(l.Forwarded(3, "forever", away, 0))
	if err := l.Forwarded(1, "send", away, 1); err == nil {
		t.Error("a second Forwarded of job 1 succeeded: a job would be forwarded twice")
	}
	if got := l.Outstanding("away", "recv"); got != 3 {
		t.Errorf("Outstanding = %d, want 3", got)
	}
	must(l.Accept(1, 101, 5))
	must(l.Accept(2, 102, 5))
	must(l.Accept(3, 103, 5))
	if err := l.Accept(1, 101, 6); err == nil {
		t.Error("accepting job 1 twice succeeded")
	}
	must(l.Start(2))
	if f, _ := l.Get(1); f.RemoteID != 101 || f.Deadline != 35 || f.Stage != mc.Accepted {
		t.Errorf("job 1: %+v, want remote 101, deadline 35, accepted", f)
	}
	for _, tc := range []struct {
		now  runtime.Time
		want []int64
	}{{34, nil}, {35, []int64{1}}, {1e9, []int64{1}}} {
		if got := l.Overdue(tc.now); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Overdue(%g) = %v, want %v (started and infinit jobs are never recalled)", tc.now, got, tc.want)
		}
	}
	if got := l.Outstanding("away", "recv"); got != 2 {
		t.Errorf("Outstanding after a start = %d, want 2", got)
	}
	out, err := l.Return(1, mc.Recalled)
	if err != nil || out != mc.Repend || l.Failures(1) != 1 {
		t.Errorf("Return(1, recalled) = %v, %v with %d failures; want repend, 1", out, err, l.Failures(1))
	}
	if _, ok := l.Get(1); ok {
		t.Error("a returned job is still in the ledger")
	}
	if _, err := l.Return(1, mc.Recalled); err == nil {
		t.Error("returning a job that is not forwarded succeeded")
	}
}

func TestLedgerInitFailRetry(t *testing.T) {
	// LSB_MC_INITFAIL_RETRY = 2: the third failed attempt suspends the job;
	// rejections and unreachable clusters do not count.
	l := mc.NewLedger(policy(t, homeTree), 10)
	if l.Retry() != 2 {
		t.Fatalf("Retry() = %d, want 2 from lsf.conf", l.Retry())
	}
	away := &mc.Target{Cluster: "away", Queue: "recv"}
	var got []string
	for _, c := range []mc.Cause{mc.Rejected, mc.Recalled, mc.Unreachable, mc.Recalled, mc.Rejected, mc.Recalled} {
		if err := l.Forwarded(7, "send", away, 0); err != nil {
			t.Fatal(err)
		}
		out, err := l.Return(7, c)
		if err != nil {
			t.Fatal(err)
		}
		s := c.String() + " → repend"
		if out == mc.Suspend {
			s = c.String() + " → suspend"
		}
		got = append(got, s)
	}
	want := []string{"rejected → repend", "recalled → repend", "unreachable → repend", "recalled → repend",
		"rejected → repend", "recalled → suspend"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("returns:\ngot  %q\nwant %q", got, want)
	}
	// bresume gives the job its retries back.
	l.Resume(7)
	if err := l.Forwarded(7, "send", away, 0); err != nil {
		t.Fatal(err)
	}
	if out, _ := l.Return(7, mc.Recalled); out != mc.Repend {
		t.Errorf("after Resume, a recall gives %v, want repend", out)
	}
	// The default is 5: six attempts.
	l = mc.NewLedger(policy(t, awayTree), 60)
	n := 0
	for ; n < 10; n++ {
		if err := l.Forwarded(1, "send", away, 0); err != nil {
			t.Fatal(err)
		}
		if out, _ := l.Return(1, mc.Recalled); out == mc.Suspend {
			break
		}
	}
	if n+1 != 5+1 {
		t.Errorf("suspended after %d failed attempts, want %d", n+1, 5+1)
	}
}
