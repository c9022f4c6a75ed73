package lsbacct

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// benchFile writes size bytes of records shaped like LSF 10.1's (a few
// execution hosts, an effective requirement, submission extensions) to a
// file in dir and returns its path and number of records.
func benchFile(b *testing.B, dir string, size int64) (string, int) {
	b.Helper()
	path := filepath.Join(dir, "lsb.acct")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	r := sample()
	r.SubmitExt = []IntValue{{1110, "default"}, {1041, "jfincache"}, {1086, "-1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 "}, {1032, "0"}, {1033, "0"}}
	r.Command = "/tools/run_regression.sh --suite nightly --seed 1234 --out /scratch/results"
	var written int64
	var buf []byte
	n := 0
	for written < size {
		n++
		r.JobID = int64(n)
		r.SubmitTime = 1700000000 + int64(n)
		r.StartTime = r.SubmitTime + int64(n%97)
		r.EventTime = r.StartTime + int64(n%3600)
		r.UserName = fmt.Sprintf("user%03d", n%200)
		hosts := 1 + n%4
		r.ExecHosts = r.ExecHosts[:0]
		for i := 0; i < hosts; i++ {
			r.ExecHosts = append(r.ExecHosts, fmt.Sprintf("node%04d.example.com", (n+i)%2000))
		}
		r.AllocSlots = r.ExecHosts
		buf = Append(buf[:0], r)
		w.Write(buf)
		written += int64(len(buf))
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	return path, n
}

// BenchmarkReadAcct reads a generated lsb.acct of 64 MB (LSFC_ACCT_MB
// sets another size; LSFC_ACCT_MB=1024 writes and reads 1 GB, about 1.35
// million records) and reports its throughput and the CPU time per GB.
func BenchmarkReadAcct(b *testing.B) {
	size := int64(64)
	if s := os.Getenv("LSFC_ACCT_MB"); s != "" {
		fmt.Sscan(s, &size)
	}
	path, n := benchFile(b, b.TempDir(), size<<20)
	st, _ := os.Stat(path)
	b.SetBytes(st.Size())
	b.ReportAllocs()
	cpu0 := cpuTime()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		s := NewScanner(f, path)
		got := 0
		for s.Scan() {
			got++
		}
		f.Close()
		if got != n || s.NumProblems() != 0 || s.Err() != nil {
			b.Fatalf("read %d records of %d, problems %v, err %v", got, n, s.Problems(), s.Err())
		}
	}
	b.ReportMetric(float64(n), "records")
	// The CPU time the process spent per GB read: on a loaded machine
	// what the reading costs, where the wall clock also counts the wait
	// for a core.
	b.ReportMetric((cpuTime()-cpu0).Seconds()/float64(b.N)/(float64(st.Size())/(1<<30)), "cpu-s/GB")
}

// cpuTime is the user and system time of the process so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func BenchmarkAppend(b *testing.B) {
	r := sample()
	var buf []byte
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		buf = Append(buf[:0], r)
	}
	b.SetBytes(int64(len(buf)))
}
