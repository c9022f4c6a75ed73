package etcdlog

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/lsfc/lsfc/internal/etcdtest"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// replayAll opens the log and returns every transaction replayed, as
// "seq:rec,rec".
func replayAll(t *testing.T, cli *clientv3.Client, opts Options) (*Log, *Recovery, []string) {
	t.Helper()
	var got []string
	opts.Replay = func(seq uint64, recs [][]byte) error {
		var parts []string
		for _, r := range recs {
			parts = append(parts, string(r))
		}
		got = append(got, fmt.Sprintf("%d:%s", seq, strings.Join(parts, ",")))
		return nil
	}
	l, rec, err := Open(context.Background(), cli, opts)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return l, rec, got
}

func appendWait(t *testing.T, l *Log, recs ...string) uint64 {
	t.Helper()
	var b [][]byte
	for _, r := range recs {
		b = append(b, []byte(r))
	}
	c, err := l.Append(b)
	if err != nil {
		t.Fatalf("Append: %v", err)
	}
	if err := c.Wait(); err != nil {
		t.Fatalf("Wait: %v", err)
	}
	return c.Seq()
}

func TestAppendReplayCompact(t *testing.T) {
	cli := etcdtest.Start(t, 1).Client()
	opts := Options{Prefix: "/t/", ChunkBytes: 16}
	l, rec, got := replayAll(t, cli, opts)
	if len(got) != 0 || rec.Transactions != 0 {
		t.Fatalf("fresh log replayed %v", got)
	}
	appendWait(t, l, "a", "b")
	long := strings.Repeat("x", 100) // several parts of 16 bytes
	appendWait(t, l, long)
	appendWait(t, l) // an empty transaction
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	l, rec, got = replayAll(t, cli, opts)
	want := []string{"1:a,b", "2:" + long, "3:"}
	if !slices.Equal(got, want) || rec.Transactions != 3 {
		t.Fatalf("replay: %q, want %q", got, want)
	}
	// A compaction replaces the three; what follows comes after it.
	if err := l.Compact([][]byte{[]byte("snap1"), []byte(long)}); err != nil {
		t.Fatal(err)
	}
	if seq := appendWait(t, l, "c"); seq != 4 {
		t.Fatalf("after the compaction: seq %d, want 4", seq)
	}
	l.Close()
	l, rec, got = replayAll(t, cli, opts)
	want = []string{"3:snap1," + long, "4:c"}
	if !slices.Equal(got, want) || rec.Snapshot != 3 || rec.Transactions != 1 {
		t.Fatalf("replay after compaction: %q (%+v), want %q", got, rec, want)
	}
	// A second compaction drops the first snapshot's parts.
	if err := l.Compact([][]byte{[]byte("snap2")}); err != nil {
		t.Fatal(err)
	}
	l.Close()
	resp, err := cli.Get(context.Background(), "/t/", clientv3.WithPrefix(), clientv3.WithKeysOnly())
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, kv := range resp.Kvs {
		keys = append(keys, string(kv.Key))
	}
	wantKeys := []string{"/t/format", "/t/snap/00000000000000000004/0000", "/t/snapshot"}
	if !slices.Equal(keys, wantKeys) {
		t.Fatalf("keys after the second compaction: %q, want %q", keys, wantKeys)
	}
	_, _, got = replayAll(t, cli, opts)
	if want := []string{"4:snap2"}; !slices.Equal(got, want) {
		t.Fatalf("replay: %q, want %q", got, want)
	}
}

func TestConcurrentAppends(t *testing.T) {
	cli := etcdtest.Start(t, 1).Client()
	opts := Options{Prefix: "/c/"}
	l, _, _ := replayAll(t, cli, opts)
	const writers, each = 8, 200
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				c, err := l.Append([][]byte{fmt.Appendf(nil, "%d-%d", w, i)})
				if err != nil {
					t.Error(err)
					return
				}
				if err := c.Wait(); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	st := l.Stats()
	l.Close()
	if st.Transactions != writers*each {
		t.Fatalf("%d transactions, want %d", st.Transactions, writers*each)
	}
	if st.Requests >= st.Transactions {
		t.Errorf("%d requests for %d transactions: no group commit", st.Requests, st.Transactions)
	}
	_, _, got := replayAll(t, cli, opts)
	seen := map[string]bool{}
	for i, g := range got {
		seq, rec, _ := strings.Cut(g, ":")
		if seq != fmt.Sprint(i+1) || seen[rec] {
			t.Fatalf("transaction %d is %q", i+1, g)
		}
		seen[rec] = true
	}
	if len(seen) != writers*each {
		t.Fatalf("replayed %d, want %d", len(seen), writers*each)
	}
}

func TestFence(t *testing.T) {
	cli := etcdtest.Start(t, 1).Client()
	ctx := context.Background()
	if _, err := cli.Put(ctx, "/f/leader", "me"); err != nil {
		t.Fatal(err)
	}
	opts := Options{Prefix: "/f/", Fence: []clientv3.Cmp{clientv3.Compare(clientv3.Value("/f/leader"), "=", "me")}}
	l, _, _ := replayAll(t, cli, opts)
	appendWait(t, l, "mine")
	// Another master takes over: the next write is refused, and all after.
	if _, err := cli.Put(ctx, "/f/leader", "other"); err != nil {
		t.Fatal(err)
	}
	c, err := l.Append([][]byte{[]byte("late")})
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Wait(); !errors.Is(err, ErrFenced) {
		t.Fatalf("write after losing the fence: %v, want ErrFenced", err)
	}
	if _, err := l.Append([][]byte{[]byte("later")}); !errors.Is(err, ErrFenced) {
		t.Fatalf("append after the refusal: %v, want ErrFenced", err)
	}
	if err := l.Compact(nil); !errors.Is(err, ErrFenced) {
		t.Fatalf("compaction after the refusal: %v, want ErrFenced", err)
	}
	if err := l.Close(); !errors.Is(err, ErrFenced) {
		t.Fatalf("Close: %v, want ErrFenced", err)
	}
	_, _, got := replayAll(t, cli, Options{Prefix: "/f/"})
	if want := []string{"1:mine"}; !slices.Equal(got, want) {
		t.Fatalf("replay: %q, want %q", got, want)
	}
}

// keysUnder returns the keys under prefix with their values and the
// revisions they were last written at.
func keysUnder(t *testing.T, cli *clientv3.Client, prefix string) []string {
	t.Helper()
	resp, err := cli.Get(context.Background(), prefix, clientv3.WithPrefix())
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, kv := range resp.Kvs {
		out = append(out, fmt.Sprintf("%s=%q@%d", kv.Key, kv.Value, kv.ModRevision))
	}
	return out
}

// TestLeaderFence fences a log by a leader's election, as lsfc serve
// --etcd does, and takes the leadership away through another client
// while the leader still reaches etcd: its lease revoked, or its election
// key deleted. The leader's next write is refused, and every one after
// it, and the log in etcd is as the last acknowledged write left it.
func TestLeaderFence(t *testing.T) {
	e := etcdtest.Start(t, 1)
	ctx := context.Background()
	for _, how := range []string{"lease revoked", "key deleted"} {
		t.Run(how, func(t *testing.T) {
			cli, other := e.Client(), e.Client()
			s, err := concurrency.NewSession(cli, concurrency.WithTTL(60))
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			prefix := "/fence/" + strings.ReplaceAll(how, " ", "-") + "/"
			el := concurrency.NewElection(s, prefix+"election")
			if err := el.Campaign(ctx, "leader"); err != nil {
				t.Fatal(err)
			}
			l, _, _ := replayAll(t, cli, Options{Prefix: prefix + "events/", Fence: LeaderFence(el.Key(), el.Rev())})
			appendWait(t, l, "acknowledged")
			before := keysUnder(t, other, prefix+"events/")
			switch how {
			case "lease revoked":
				if _, err := other.Revoke(ctx, s.Lease()); err != nil {
					t.Fatal(err)
				}
			case "key deleted":
				if _, err := other.Delete(ctx, el.Key()); err != nil {
					t.Fatal(err)
				}
			}
			// The old leader still reaches etcd.
			if _, err := cli.Get(ctx, prefix); err != nil {
				t.Fatalf("the old leader's client: %v", err)
			}
			c, err := l.Append([][]byte{[]byte("refused")})
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Wait(); !errors.Is(err, ErrFenced) {
				t.Fatalf("write after the leadership was taken: %v, want ErrFenced", err)
			}
			if _, err := l.Append([][]byte{[]byte("later")}); !errors.Is(err, ErrFenced) {
				t.Errorf("append after the refusal: %v, want ErrFenced", err)
			}
			if err := l.Compact([][]byte{[]byte("snapshot")}); !errors.Is(err, ErrFenced) {
				t.Errorf("compaction after the refusal: %v, want ErrFenced", err)
			}
			if err := l.Close(); !errors.Is(err, ErrFenced) {
				t.Errorf("Close: %v, want ErrFenced", err)
			}
			if after := keysUnder(t, other, prefix+"events/"); !slices.Equal(after, before) {
				t.Errorf("the log in etcd changed after the refusal:\n%q\nwas\n%q", after, before)
			}
			_, _, got := replayAll(t, other, Options{Prefix: prefix + "events/"})
			if want := []string{"1:acknowledged"}; !slices.Equal(got, want) {
				t.Errorf("replay: %q, want %q", got, want)
			}
		})
	}
}

func TestIncompleteTail(t *testing.T) {
	cli := etcdtest.Start(t, 1).Client()
	ctx := context.Background()
	opts := Options{Prefix: "/i/", ChunkBytes: 4}
	l, _, _ := replayAll(t, cli, opts)
	appendWait(t, l, "whole")
	l.Close()
	// Transaction 2 of three parts, of which only the first was written.
	if _, err := cli.Put(ctx, "/i/log/00000000000000000002/0000", "\x03abc"); err != nil {
		t.Fatal(err)
	}
	l, rec, got := replayAll(t, cli, opts)
	if want := []string{"1:whole"}; !slices.Equal(got, want) || rec.Dropped != 2 {
		t.Fatalf("replay: %q (%+v), want %q and transaction 2 dropped", got, rec, want)
	}
	if seq := appendWait(t, l, "next"); seq != 2 {
		t.Fatalf("next transaction: %d, want 2", seq)
	}
	l.Close()
	_, _, got = replayAll(t, cli, opts)
	if want := []string{"1:whole", "2:next"}; !slices.Equal(got, want) {
		t.Fatalf("replay: %q, want %q", got, want)
	}
}

func TestCorrupt(t *testing.T) {
	cli := etcdtest.Start(t, 1).Client()
	ctx := context.Background()
	for name, kvs := range map[string][]string{
		"gap":        {"/g1/log/00000000000000000001/0000", "\x01\x01a", "/g1/log/00000000000000000003/0000", "\x01\x01b"},
		"bad key":    {"/g2/log/1/0", "\x01\x01a"},
		"bad part":   {"/g3/log/00000000000000000001/0000", ""},
		"bad record": {"/g4/log/00000000000000000001/0000", "\x01\x09a"},
		"missing part": {"/g5/log/00000000000000000001/0000", "\x02\x01", "/g5/log/00000000000000000001/0002", "\x02a",
			"/g5/log/00000000000000000002/0000", "\x01\x01b"},
		"snapshot": {"/g6/snapshot", "x"},
	} {
		prefix := kvs[0][:strings.Index(kvs[0][1:], "/")+2]
		for i := 0; i < len(kvs); i += 2 {
			if _, err := cli.Put(ctx, kvs[i], kvs[i+1]); err != nil {
				t.Fatal(err)
			}
		}
		_, _, err := Open(ctx, cli, Options{Prefix: prefix})
		if err == nil || !strings.Contains(err.Error(), "corrupt") {
			t.Errorf("%s: Open gave %v, want a corrupt log", name, err)
		}
	}
}

func FuzzDecode(f *testing.F) {
	f.Add([]byte("\x01\x03abc"), "00000000000000000001/0000", "3 1")
	f.Add([]byte("\x00"), "1/0", "x")
	f.Fuzz(func(t *testing.T, v []byte, key, snap string) {
		if _, body, err := decodePart(v); err == nil {
			if recs, err := splitRecords(body); err == nil {
				if again := joinRecords(recs); string(again) != string(body) {
					t.Fatalf("records of %q join to %q", body, again)
				}
			}
		}
		if seq, part, err := parseKey(key); err == nil && fmt.Sprintf("%020d/%04d", seq, part) != key {
			t.Fatalf("key %q read as %d/%d", key, seq, part)
		}
		if seq, parts, err := decodeSnapshotKey([]byte(snap)); err == nil && parts < 1 {
			t.Fatalf("snapshot %q read as %d, %d parts", snap, seq, parts)
		}
	})
}

// TestFormatVersion checks the format key: Open writes it on a new log,
// reads its own version, and refuses a newer one with a message saying
// so.
func TestFormatVersion(t *testing.T) {
	cli := etcdtest.Start(t, 1).Client()
	ctx := context.Background()
	l, _, _ := replayAll(t, cli, Options{Prefix: "/v/"})
	appendWait(t, l, "a")
	l.Close()
	resp, err := cli.Get(ctx, "/v/format")
	if err != nil || len(resp.Kvs) != 1 || string(resp.Kvs[0].Value) != "1" {
		t.Fatalf("format key of a new log: %v %v, want 1", resp, err)
	}
	l, _, got := replayAll(t, cli, Options{Prefix: "/v/"})
	l.Close()
	if want := []string{"1:a"}; !slices.Equal(got, want) {
		t.Errorf("replay = %v, want %v", got, want)
	}
	if _, err := cli.Put(ctx, "/v/format", "2"); err != nil {
		t.Fatal(err)
	}
	_, _, err = Open(ctx, cli, Options{Prefix: "/v/"})
	if err == nil || !strings.Contains(err.Error(), "format version 2, newer than this lsfc reads (1)") {
		t.Errorf("Open of a newer format: %v, want it refused", err)
	}
}
