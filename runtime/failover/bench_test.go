package failover_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lsfc/lsfc/internal/etcdtest"
	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/failover"
)

// BenchmarkSubmitEtcd submits jobs from 8 concurrent clients over TCP to
// a master whose event log is in an etcd cluster of three members (on
// loopback, each member syncing its own write-ahead log): each
// submission is acknowledged once the etcd transaction holding it is
// committed by the quorum. The jobs are held, so that only submission is
// measured.
func BenchmarkSubmitEtcd(b *testing.B) {
	e := etcdtest.Start(b, 3)
	p, err := compileTree(writeConf(b))
	if err != nil {
		b.Fatal(err)
	}
	addr := freeAddrs(b, 1)[0]
	c, err := failover.Start(context.Background(), candidateConfig(p, e.Client(), b.TempDir(), addr, func(string, ...any) {}))
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	for c.Leading() == nil {
		time.Sleep(10 * time.Millisecond)
	}
	const clients = 8
	var next atomic.Int64
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for range clients {
		cl := api.DialTCP(addr, secret, me)
		wg.Go(func() {
			for next.Add(1) <= int64(b.N) {
				if _, err := cl.Submit(context.Background(), &api.SubmitRequest{Command: "true", Hold: true, Umask: -1,
					Env: []string{"PATH=/usr/bin:/bin", "HOME=/tmp"}}); err != nil {
					b.Errorf("submit: %v", err)
					return
				}
			}
		})
	}
	wg.Wait()
	b.ReportMetric(float64(b.N)/time.Since(start).Seconds(), "submissions/s")
}

// BenchmarkFailover kills the leading master (SIGKILL) during a burst of
// submissions from 8 clients, and reports the time from its death to a
// new leader accepting a submission (with the lease of 2 s these tests
// give the candidates), checking every time that no acknowledged job is
// lost or duplicated and that the jobs running on the agents across the
// change end with their own exit status.
func BenchmarkFailover(b *testing.B) {
	var total time.Duration
	for range b.N {
		r := newRig(b)
		total += failoverRound(b, r)
	}
	b.ReportMetric(total.Seconds()/float64(b.N), "s-to-new-leader")
}
