package eventlog

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// TestCompact compacts, appends more, and replays the snapshot then the
// rest, numbered on from the transactions it replaced.
func TestCompact(t *testing.T) {
	for _, keep := range []bool{false, true} {
		t.Run(fmt.Sprintf("keep=%v", keep), func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "lsb.events")
			l := mustOpen(t, path, Options{KeepPrevious: keep})
			for i := 1; i <= 10; i++ {
				appendWait(t, l, fmt.Sprint("job ", i))
			}
			before, _ := os.ReadFile(path)
			// Its transactions: not the zeros reserved past them.
			before = before[:l.Stats().Size]
			if err := l.Compact([][]byte{[]byte("state"), []byte("of 10")}); err != nil {
				t.Fatal(err)
			}
			for i := 11; i <= 15; i++ {
				if seq := appendWait(t, l, fmt.Sprint("job ", i)); seq != uint64(i) {
					t.Errorf("append after compaction has sequence number %d, want %d", seq, i)
				}
			}
			if st := l.Stats(); st.Compactions != 1 || st.LastSeq != 15 {
				t.Errorf("stats %+v, want 1 compaction and last sequence number 15", st)
			}
			l.Close()

			got, rec := replayFile(t, path)
			want := []txn{{10, []string{"state", "of 10"}}}
			for i := 11; i <= 15; i++ {
				want = append(want, txn{uint64(i), []string{fmt.Sprint("job ", i)}})
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("replay after compaction:\n got %v\nwant %v", got, want)
			}
			if rec.FirstSeq != 10 || rec.LastSeq != 15 || rec.Truncated || rec.RemovedTemp {
				t.Errorf("recovery %+v", rec)
			}
			prev, err := os.ReadFile(path + previousSuffix)
			if keep && !bytes.Equal(prev, before) {
				t.Errorf("%s is not the replaced log (%v)", path+previousSuffix, err)
			}
			if !keep && !errors.Is(err, os.ErrNotExist) {
				t.Errorf("%s kept without KeepPrevious", path+previousSuffix)
			}
			if _, err := os.Stat(path + tempSuffix); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("compaction left %s", path+tempSuffix)
			}
		})
	}
}

// TestCompactEmpty compacts a log without transactions: the snapshot is
// number 0 and appends start at 1.
func TestCompactEmpty(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lsb.events")
	l := mustOpen(t, path, Options{})
	if err := l.Compact(nil); err != nil {
		t.Fatal(err)
	}
	appendWait(t, l, "first")
	if err := l.Compact([][]byte{[]byte("after first")}); err != nil {
		t.Fatal(err)
	}
	appendWait(t, l, "second")
	l.Close()
	got, _ := replayFile(t, path)
	want := []txn{{1, []string{"after first"}}, {2, []string{"second"}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("replayed %v, want %v", got, want)
	}
}

// TestCompactAtCarries compacts at a mark taken before further appends:
// those follow the snapshot in the new file.
func TestCompactAtCarries(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lsb.events")
	l := mustOpen(t, path, Options{})
	appendWait(t, l, "a")
	before := l.Mark()
	appendWait(t, l, "b")
	m := l.Mark()
	appendWait(t, l, "c")
	c, err := l.Append([][]byte{[]byte("d")}) // possibly not yet written
	if err != nil {
		t.Fatal(err)
	}
	if err := l.CompactAt(m, [][]byte{[]byte("a+b")}); err != nil {
		t.Fatal(err)
	}
	if err := c.Wait(); err != nil {
		t.Fatal(err)
	}
	appendWait(t, l, "e")
	if err := l.CompactAt(before, nil); err == nil || !strings.Contains(err.Error(), "stale") {
		t.Errorf("CompactAt(mark before the last compaction's) = %v, want a stale mark error", err)
	}
	if err := l.CompactAt(Mark{}, nil); err == nil || !strings.Contains(err.Error(), "not from this log") {
		t.Errorf("CompactAt(Mark{}) = %v, want a mark error", err)
	}
	l.Close()
	got, _ := replayFile(t, path)
	want := []txn{{2, []string{"a+b"}}, {3, []string{"c"}}, {4, []string{"d"}}, {5, []string{"e"}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("replayed %v, want %v", got, want)
	}
}

// TestCompactConcurrent appends from several goroutines while another
// compacts repeatedly from a state it keeps in step with the log: the
// reopened log rebuilds exactly the set of everything appended.
func TestCompactConcurrent(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lsb.events")
	l := mustOpen(t, path, Options{})
	var (
		stateMu sync.Mutex
		state   = map[string]bool{}
	)
	const writers, each = 4, 200
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				id := fmt.Sprint(w, "/", i)
				stateMu.Lock()
				c, err := l.Append([][]byte{[]byte(id)})
				state[id] = true
				stateMu.Unlock()
				if err == nil && i%10 == 0 {
					err = c.Wait()
				}
				if err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	// Two compactors: one whose mark a later compaction overtook fails
	// with a stale mark, and that is all that may fail.
	var cwg sync.WaitGroup
	for range 2 {
		cwg.Go(func() {
			for range 10 {
				stateMu.Lock()
				snap := make([][]byte, 0, len(state))
				for id := range state {
					snap = append(snap, []byte(id))
				}
				m := l.Mark()
				stateMu.Unlock()
				if err := l.CompactAt(m, snap); err != nil && !strings.Contains(err.Error(), "stale") {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	cwg.Wait()
	if n := l.Stats().Compactions; n < 10 {
		t.Errorf("%d compactions, want at least 10", n)
	}
	l.Close()

	rebuilt := map[string]bool{}
	first := true
	_, _, err := Open(path, Options{Replay: func(seq uint64, records [][]byte) error {
		for _, r := range records {
			if !first && rebuilt[string(r)] {
				return fmt.Errorf("%s replayed twice", r)
			}
			rebuilt[string(r)] = true
		}
		first = false
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(rebuilt) != writers*each {
		var missing []string
		for w := range writers {
			for i := range each {
				if id := fmt.Sprint(w, "/", i); !rebuilt[id] {
					missing = append(missing, id)
				}
			}
		}
		slices.SortFunc(missing, func(a, b string) int { return strings.Compare(a, b) })
		t.Errorf("rebuilt %d of %d appended ids; missing %v", len(rebuilt), writers*each, missing)
	}
}

// TestCompactLeftoverTemp simulates a crash during a compaction: the
// temporary file, complete or not, is not the log and Open removes it.
func TestCompactLeftoverTemp(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "lsb.events")
	data, _ := buildLog(t, path, sampleTxns[:3])
	full := append(encodeHeader(headerSize), frames(7)...)
	for name, tmp := range map[string][]byte{
		"empty":    nil,
		"torn":     full[:len(full)-3],
		"complete": full,
	} {
		t.Run(name, func(t *testing.T) {
			if err := os.WriteFile(path+tempSuffix, tmp, 0o644); err != nil {
				t.Fatal(err)
			}
			got, rec := replayFile(t, path)
			if !reflect.DeepEqual(got, wantTxns(sampleTxns, 3)) || !rec.RemovedTemp || rec.Truncated {
				t.Errorf("replayed %v, recovery %+v; want the log's 3 transactions and the temporary file removed", got, rec)
			}
			if _, err := os.Stat(path + tempSuffix); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("%s is still there", path+tempSuffix)
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(after, data) {
				t.Error("the log changed")
			}
		})
	}
}

// TestCompactedTornTail tears the tail of a compacted log: the sealed
// snapshot stays, the torn append goes.
func TestCompactedTornTail(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lsb.events")
	l := mustOpen(t, path, Options{})
	appendWait(t, l, "a")
	if err := l.Compact([][]byte{[]byte(strconv.Itoa(1))}); err != nil {
		t.Fatal(err)
	}
	sealed := l.Mark().off
	appendWait(t, l, "b")
	l.Close()
	data, _ := os.ReadFile(path)
	for cut := sealed; cut < int64(len(data)); cut++ {
		os.WriteFile(path, data[:cut], 0o644)
		got, rec := replayFile(t, path)
		if len(got) != 1 || got[0].Seq != 1 || (cut > sealed) != rec.Truncated {
			t.Fatalf("cut at %d: replayed %v, recovery %+v", cut, got, rec)
		}
	}
	// Cut into the snapshot itself: the file is shorter than sealed.
	os.WriteFile(path, data[:sealed-1], 0o644)
	var ce *CorruptError
	if _, _, err := Open(path, Options{}); !errors.As(err, &ce) {
		t.Errorf("Open(compacted log cut into its snapshot) = %v, want a *CorruptError", err)
	}
}

func TestCompactLimits(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lsb.events")
	l := mustOpen(t, path, Options{})
	if err := l.Compact([][]byte{make([]byte, MaxRecordSize+1)}); err == nil {
		t.Error("Compact with an oversized record succeeded")
	}
	appendWait(t, l, "still usable")
	l.Close()
	if err := l.Compact(nil); !errors.Is(err, ErrClosed) {
		t.Errorf("Compact after Close = %v, want ErrClosed", err)
	}
}

// TestCompactRebase compacts at a mark taken before another compaction
// at an earlier point: the mark still holds in the new file.
func TestCompactRebase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "lsb.events")
	l := mustOpen(t, path, Options{})
	appendWait(t, l, "a")
	appendWait(t, l, "b")
	m0 := l.Mark()
	appendWait(t, l, "c")
	m1 := l.Mark()
	appendWait(t, l, "d")
	if err := l.CompactAt(m0, [][]byte{[]byte("a+b")}); err != nil {
		t.Fatal(err)
	}
	if err := l.CompactAt(m1, [][]byte{[]byte("a+b+c")}); err != nil {
		t.Fatal(err)
	}
	if err := l.CompactAt(m1, [][]byte{[]byte("a+b+c again")}); err != nil {
		t.Fatal(err)
	}
	if err := l.CompactAt(m0, nil); err == nil {
		t.Error("CompactAt(mark before the last compaction's) succeeded")
	}
	l.Close()
	got, _ := replayFile(t, path)
	want := []txn{{3, []string{"a+b+c again"}}, {4, []string{"d"}}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("replayed %v, want %v", got, want)
	}
}
