package eventlog

import (
	"bytes"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
)

// BenchmarkAppendDurable has 8 appenders each append a transaction of
// one 200-byte record and wait for it to be durable, with the real
// fdatasync.
func BenchmarkAppendDurable(b *testing.B) { benchmarkAppend(b, 8) }

// BenchmarkAppendDurableSerial is BenchmarkAppendDurable with one
// appender: one sync per transaction.
func BenchmarkAppendDurableSerial(b *testing.B) { benchmarkAppend(b, 1) }

// BenchmarkAppendDurable64 is BenchmarkAppendDurable with 64 appenders.
func BenchmarkAppendDurable64(b *testing.B) { benchmarkAppend(b, 64) }

func benchmarkAppend(b *testing.B, appenders int) {
	path := filepath.Join(b.TempDir(), "lsb.events")
	l, _, err := Open(path, Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	rec := [][]byte{bytes.Repeat([]byte("x"), 200)}
	b.ReportAllocs()
	b.ResetTimer()
	var next atomic.Int64
	var wg sync.WaitGroup
	for range appenders {
		wg.Go(func() {
			for next.Add(1) <= int64(b.N) {
				c, err := l.Append(rec)
				if err == nil {
					err = c.Wait()
				}
				if err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	b.StopTimer()
	st := l.Stats()
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "txn/s")
	b.ReportMetric(float64(st.Syncs), "syncs")
	b.ReportMetric(float64(st.Durable)/float64(max(st.Syncs, 1)), "txn/sync")
}

// BenchmarkOpen replays a log of 10,000 transactions of one 200-byte
// record.
func BenchmarkOpen(b *testing.B) {
	path := filepath.Join(b.TempDir(), "lsb.events")
	l, _, err := Open(path, Options{sync: func(*os.File) error { return nil }})
	if err != nil {
		b.Fatal(err)
	}
	rec := [][]byte{bytes.Repeat([]byte("x"), 200)}
	var c Commit
	for range 10000 {
		if c, err = l.Append(rec); err != nil {
			b.Fatal(err)
		}
	}
	c.Wait()
	size := l.Stats().Size
	l.Close()
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		l, _, err := Open(path, Options{Replay: func(uint64, [][]byte) error { n++; return nil }})
		if err != nil || n != 10000 {
			b.Fatalf("Open: %d transactions, %v", n, err)
		}
		l.Close()
	}
}
