package main

import (
	"context"
	"testing"
	"time"

	"github.com/lsfc/lsfc/lint"
	"github.com/lsfc/lsfc/runtime/daemon"
)

// TestMeasureSmall runs the harness at a tiny size against a daemon in
// this process: every agent registers, jobs reach their agents, run their
// drawn time and end, and their ends are acknowledged.
func TestMeasureSmall(t *testing.T) {
	const agents, jobs = 8, 160
	conf := t.TempDir()
	if err := writeTree(conf, agents, 2); err != nil {
		t.Fatal(err)
	}
	res, err := lint.Run([]string{conf}, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Diagnostics.HasErrors() {
		t.Fatal(res.Diagnostics.Err())
	}
	state := t.TempDir()
	d, err := daemon.Start(context.Background(), daemon.Config{Policy: res.Policy, StateDir: state, Listen: "127.0.0.1:0",
		Secret: secret, MinInterval: 10 * time.Millisecond, Logf: func(string, ...any) {}})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	cfg := config{agents: agents, slots: 2, jobs: jobs, submitters: 4, interval: 200 * time.Millisecond,
		runMin: 20 * time.Millisecond, runMax: 60 * time.Millisecond, warmup: 200 * time.Millisecond, measure: 2 * time.Second, seed: 1}
	r, err := measure(context.Background(), cfg, master{addr: d.Addr(), state: state}, hooks{})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%s", r.row(cfg))
	if r.started == 0 || r.finished == 0 {
		t.Errorf("started %.0f/min, finished %.0f/min: want jobs started and finished during the measurement", r.started, r.finished)
	}
	if r.p99 <= 0 || r.p50 > r.p99 {
		t.Errorf("dispatch p50 %v, p99 %v: want latencies measured", r.p50, r.p99)
	}
	if r.cpu != -1 {
		t.Errorf("cpu = %v for a master in this process, want -1 (not measured)", r.cpu)
	}
	if r.errors != 0 {
		t.Errorf("%d failed requests, want none", r.errors)
	}
}
