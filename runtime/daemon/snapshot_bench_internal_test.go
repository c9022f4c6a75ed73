package daemon

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lsfc/lsfc/lint"
	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/localexec"
)

// startInternal starts a daemon on a one-host cluster and returns it with
// its state directory; it is closed when the test ends.
func startInternal(tb testing.TB) (*Daemon, string) {
	tb.Helper()
	dir := tb.TempDir()
	files := map[string]string{
		"lsf.shared":       "Begin Cluster\nClusterName\ntest\nEnd Cluster\n",
		"lsf.cluster.test": "Begin Host\nHOSTNAME model type server RESOURCES\nhostA ! ! 1 ()\nEnd Host\n",
		"lsb.queues":       "Begin Queue\nQUEUE_NAME = normal\nPRIORITY = 30\nEnd Queue\n",
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	res, err := lint.Run([]string{dir}, lint.Options{})
	if err != nil || res.Diagnostics.HasErrors() {
		tb.Fatalf("configuration: %v %v", err, res.Diagnostics.Err())
	}
	state := tb.TempDir()
	d, err := Start(context.Background(), Config{Policy: res.Policy, StateDir: state,
		WrapperPath: []string{os.Args[0], localexec.WrapperArg}, Logf: func(string, ...any) {}})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { d.Close() })
	return d, state
}

// BenchmarkSnapshot times what a compaction does on the owning goroutine,
// during which the daemon answers nothing: taking the snapshot of 100,000
// held jobs (their images and the maps of what the daemon keeps for them).
// The jobs are submitted through the API first, outside the timing.
func BenchmarkSnapshot(b *testing.B) {
	const jobs = 100_000
	d, state := startInternal(b)
	dir := b.TempDir()
	ctx := context.Background()
	var next atomic.Int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			c := api.Dial(state)
			for next.Add(1) <= jobs {
				if _, err := c.Submit(ctx, &api.SubmitRequest{Command: "true", Hold: true, Cwd: dir,
					Env: []string{"PATH=/usr/bin:/bin"}}); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if b.Failed() {
		return
	}
	var took []time.Duration
	for b.Loop() {
		if _, err := d.do(ctx, func() (any, []Record, func(), error) {
			start := time.Now()
			recs := d.snapshot()
			took = append(took, time.Since(start))
			if len(recs) < jobs {
				b.Fatalf("a snapshot of %d records, want at least %d", len(recs), jobs)
			}
			return nil, nil, nil, nil
		}); err != nil {
			b.Fatal(err)
		}
	}
	var sum time.Duration
	for _, t := range took {
		sum += t
	}
	b.ReportMetric(float64(sum.Microseconds())/float64(len(took))/1000, "owner-ms/snapshot")
}

// TestForgetGone checks that a snapshot's pruning keeps the tokens,
// directories and placements of the jobs the cluster has and drops those
// of the jobs it no longer has, both when few go (deleted in place) and
// when most do (the rest moved to a new map), with each token's two maps
// agreeing.
func TestForgetGone(t *testing.T) {
	for _, tc := range []struct {
		name string
		gone int
	}{{"few gone", 2}, {"most gone", 30}} {
		t.Run(tc.name, func(t *testing.T) {
			d, state := startInternal(t)
			ctx := context.Background()
			c := api.Dial(state)
			var kept []int64
			for i := range 4 {
				sub, err := c.Submit(ctx, &api.SubmitRequest{Command: "true", Hold: true, Token: fmt.Sprintf("kept-%d", i),
					Env: []string{"PATH=/usr/bin:/bin"}})
				if err != nil {
					t.Fatal(err)
				}
				kept = append(kept, sub.ID)
			}
			_, err := d.do(ctx, func() (any, []Record, func(), error) {
				for i := range tc.gone {
					id := int64(100_000 + i)
					tok := fmt.Sprintf("gone-%d", i)
					d.tokens[tok], d.tokenOf[id] = id, tok
					d.ranIn[id] = "/gone"
					d.placed[id] = placement{}
				}
				d.ranIn[kept[0]] = "/kept"
				d.placed[kept[1]] = placement{}
				d.forgetGone()
				return nil, nil, nil, nil
			})
			if err != nil {
				t.Fatal(err)
			}
			_, err = d.do(ctx, func() (any, []Record, func(), error) {
				if len(d.tokens) != len(kept) || len(d.tokenOf) != len(kept) {
					t.Errorf("%d tokens and %d jobs with tokens, want %d", len(d.tokens), len(d.tokenOf), len(kept))
				}
				for i, id := range kept {
					tok := fmt.Sprintf("kept-%d", i)
					if d.tokens[tok] != id || d.tokenOf[id] != tok {
						t.Errorf("job %d: token %q maps to %d, job has %q", id, tok, d.tokens[tok], d.tokenOf[id])
					}
				}
				if len(d.ranIn) != 1 || d.ranIn[kept[0]] != "/kept" {
					t.Errorf("directories %v, want job %d's alone", d.ranIn, kept[0])
				}
				if _, ok := d.placed[kept[1]]; len(d.placed) != 1 || !ok {
					t.Errorf("placements %v, want job %d's alone", d.placed, kept[1])
				}
				return nil, nil, nil, nil
			})
			if err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestShrunkRebuilds checks when shrunk builds a map anew: not while what
// is left is a quarter or more of the most the map held, then once it
// falls below, at the size of what is left, keeping every entry.
func TestShrunkRebuilds(t *testing.T) {
	m := map[int64]int{}
	for id := range int64(100) {
		m[id] = int(id)
	}
	most := len(m)
	// Ten go each round, the highest first: the map is kept while 30 or
	// more of the 100 are left, and built anew when 20 are.
	for round, left := 1, int64(90); left >= 10; round, left = round+1, left-10 {
		for id := left; id < left+10; id++ {
			delete(m, id)
		}
		var rebuilt bool
		m, rebuilt = shrunk(m, &most)
		if len(m) != int(left) {
			t.Fatalf("round %d: %d left, want %d", round, len(m), left)
		}
		for id := range left {
			if m[id] != int(id) {
				t.Fatalf("round %d: entry %d is %d", round, id, m[id])
			}
		}
		if want := left == 20; rebuilt != want {
			t.Fatalf("round %d (%d left): rebuilt %v, want %v", round, left, rebuilt, want)
		}
		if left == 20 && most != 20 {
			t.Fatalf("after the rebuild the most is %d, want 20", most)
		}
	}
}

// TestCleanForgetsKept checks that the daemon drops a job's token,
// directory and placement when it forgets the job after CLEAN_PERIOD,
// not at the next compaction: over rounds of jobs submitted and
// forgotten, what it keeps of them would grow until then.
func TestCleanForgetsKept(t *testing.T) {
	d, state := startInternal(t)
	ctx := context.Background()
	c := api.Dial(state)
	sub, err := c.Submit(ctx, &api.SubmitRequest{Command: "true", Hold: true, Token: "once",
		Env: []string{"PATH=/usr/bin:/bin"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := d.do(ctx, func() (any, []Record, func(), error) {
		j := d.cluster.Job(sub.ID)
		d.ranIn[sub.ID] = "/ran"
		d.placed[sub.ID] = placement{}
		if err := d.cluster.Kill(j, d.now()); err != nil {
			return nil, nil, nil, err
		}
		d.clean(d.now().Add(d.cfg.Policy.Parameters.CleanPeriod.Seconds() + 1))
		if d.cluster.Job(sub.ID) != nil {
			t.Fatalf("job %d is still known past CLEAN_PERIOD", sub.ID)
		}
		if len(d.tokens) != 0 || len(d.tokenOf) != 0 || len(d.ranIn) != 0 || len(d.placed) != 0 {
			t.Errorf("kept after the job was forgotten: tokens %v, jobs' tokens %v, directories %v, placements %v", d.tokens, d.tokenOf, d.ranIn, d.placed)
		}
		return nil, nil, nil, nil
	}); err != nil {
		t.Fatal(err)
	}
}

// TestForgetGoneTokenReused: a submission retried with its token after
// the token's first job was forgotten (CLEAN_PERIOD) makes a new job that
// the token then names; the compaction's pruning of the forgotten job
// must not take the token away from the new one, or the next retry makes
// a third job. The old snapshot rebuilt d.tokens from the jobs that exist
// and kept it.
func TestForgetGoneTokenReused(t *testing.T) {
	d, state := startInternal(t)
	ctx := context.Background()
	c := api.Dial(state)
	submit := func() int64 {
		t.Helper()
		sub, err := c.Submit(ctx, &api.SubmitRequest{Command: "true", Hold: true, Token: "again",
			Env: []string{"PATH=/usr/bin:/bin"}})
		if err != nil {
			t.Fatal(err)
		}
		return sub.ID
	}
	first := submit()
	if _, err := d.do(ctx, func() (any, []Record, func(), error) {
		j := d.cluster.Job(first)
		if err := d.cluster.Kill(j, d.now()); err != nil {
			return nil, nil, nil, err
		}
		d.cluster.Forget(j)
		return nil, nil, nil, nil
	}); err != nil {
		t.Fatal(err)
	}
	second := submit()
	if second == first {
		t.Fatalf("the retry after job %d was forgotten gave it again", first)
	}
	if _, err := d.do(ctx, func() (any, []Record, func(), error) {
		d.snapshot()
		if d.tokens["again"] != second {
			t.Errorf("after pruning, token names job %d, want %d (tokenOf %v)", d.tokens["again"], second, d.tokenOf)
		}
		return nil, nil, nil, nil
	}); err != nil {
		t.Fatal(err)
	}
	if third := submit(); third != second {
		t.Errorf("the same submission again made job %d, want job %d", third, second)
	}
}
