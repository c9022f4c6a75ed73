package daemon

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestCallContext: a caller whose context ends stops waiting for its
// call, and the call, once queued, still runs and its records are still
// committed; a call whose context ended before it was queued is not
// made.
func TestCallContext(t *testing.T) {
	log := &memJournal{}
	d := &Daemon{log: log, calls: make(chan *call), done: make(chan struct{})}
	ran := make(chan struct{})
	fn := func() (any, []Record, func(), error) {
		close(ran)
		return "v", []Record{{Type: "hold", Job: 1}}, nil, nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := d.do(ctx, fn)
		errc <- err
	}()
	// The owner has taken the call, and not yet run it, when its caller
	// leaves.
	c := <-d.calls
	cancel()
	select {
	case err := <-errc:
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("do after its context ended: %v, want %v", err, context.Canceled)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("do still waits after its context ended")
	}
	// The owner runs the call now: its records go to the log, though
	// nobody reads the answer.
	d.run(c)
	<-ran
	if len(log.txs) != 1 {
		t.Errorf("the call of a caller gone committed %d transactions, want 1", len(log.txs))
	}

	// A call whose context has ended is not queued.
	if _, err := d.do(ctx, func() (any, []Record, func(), error) {
		t.Error("a call whose context had ended ran")
		return nil, nil, nil, nil
	}); !errors.Is(err, context.Canceled) {
		t.Errorf("do with an ended context: %v, want %v", err, context.Canceled)
	}
}
