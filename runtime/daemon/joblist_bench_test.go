package daemon_test

import (
	"context"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/daemon"
	"github.com/lsfc/lsfc/runtime/localexec"
)

// BenchmarkJobList1000 lists 1,000 held jobs as bjobs does: with the
// seven fields of its default layout, and with every field (bjobs -l),
// read as jobs; with the default layout's fields read as rows (JobRows);
// and the daemon's part of that alone, the answer not read. Each op is
// one request: the daemon makes and writes the list, the client reads
// it.
func BenchmarkJobList1000(b *testing.B) {
	state := heldJobsDaemon(b, 1000)
	c := api.Dial(state)
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		fields []string
	}{
		{"default", []string{"user", "state", "queue", "fromHost", "execHosts", "command", "submitTime"}},
		{"all", nil},
	} {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				jobs, err := c.Jobs(ctx, api.JobQuery{User: "all", Fields: tc.fields})
				if err != nil || len(jobs) != 1000 {
					b.Fatalf("%d jobs: %v", len(jobs), err)
				}
			}
		})
	}
	// bjobs's default layout: its rows, read by JobRows.
	b.Run("rows", func(b *testing.B) {
		for b.Loop() {
			rows, err := c.JobRows(ctx, api.JobQuery{User: "all"})
			if err != nil || len(rows) != 1000 {
				b.Fatalf("%d rows: %v", len(rows), err)
			}
		}
	})
	// The daemon's part of the rows' listing: the answer, unread.
	b.Run("rows-answer", func(b *testing.B) { benchRowsAnswer(b, state) })
}

// BenchmarkJobList100k is BenchmarkJobList1000's rows-answer for 100,000
// held jobs, submitted by 8 clients: what bjobs -u all costs the daemon
// (whose owning goroutine makes the list) on a large cluster.
func BenchmarkJobList100k(b *testing.B) {
	benchRowsAnswer(b, heldJobsDaemon(b, 100000))
}

// benchRowsAnswer asks the daemon of state for the rows of bjobs's
// default layout, the answer unread, once an op.
func benchRowsAnswer(b *testing.B, state string) {
	raw := unixClient(state)
	path := "/v1/jobs?user=all&compact=1&fields=" + strings.Join(api.JobRowFields, ",")
	for b.Loop() {
		if code, err := raw.call("GET", path, nil, nil); code != 200 || err != nil {
			b.Fatalf("%d %v", code, err)
		}
	}
}

// heldJobsDaemon starts a daemon with n held jobs, submitted by 8
// clients, and returns its state directory.
func heldJobsDaemon(b *testing.B, n int) string {
	b.Helper()
	p, err := compileTree(writeConf(b))
	if err != nil {
		b.Fatal(err)
	}
	state := b.TempDir()
	d, err := daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: state,
		WrapperPath: []string{os.Args[0], localexec.WrapperArg}})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { d.Close() })
	c := api.Dial(state)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for next.Add(1) <= int64(n) {
				if _, err := c.Submit(context.Background(), &api.SubmitRequest{Command: "sleep 10", Hold: true, Cwd: os.TempDir(), Name: "j"}); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	return state
}
