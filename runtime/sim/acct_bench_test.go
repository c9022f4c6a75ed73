package sim_test

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
	"github.com/lsfc/lsfc/runtime/lsbacct"
	"github.com/lsfc/lsfc/runtime/sim"
)

// BenchmarkReplayAcct writes an lsb.acct of generated finished jobs (the
// number LSFC_ACCT_RECORDS gives, 100,000 by default), then, each round,
// reads it back with the Scanner simulate uses and replays every record
// on 32 hosts of 32 slots: what `lsfc simulate --workload lsb.acct` does
// after compiling its tree. The jobs arrive about a second apart and run
// for a drawn time of up to an hour on 1 to 32 slots, so the cluster
// stays busy and a queue of pending jobs forms and drains.
func BenchmarkReplayAcct(b *testing.B) {
	n := 100_000
	if s := os.Getenv("LSFC_ACCT_RECORDS"); s != "" {
		fmt.Sscan(s, &n)
	}
	path := filepath.Join(b.TempDir(), "lsb.acct")
	writeAcct(b, path, n)
	params, _ := lang.ParseConfig(lang.NewSource("lsb.params", "Begin Parameters\nJOB_ACCEPT_INTERVAL = 0\nEnd Parameters\n"), lang.KindLSBParams)
	p, ds := compile.Compile(&compile.Tree{Files: []*lang.File{params}}, compile.Options{})
	if ds.HasErrors() {
		b.Fatal(ds.Err())
	}
	b.ReportAllocs()
	placements := 0
	for b.Loop() {
		f, err := os.Open(path)
		if err != nil {
			b.Fatal(err)
		}
		s := lsbacct.NewScanner(f, path)
		recs := make([]lsbacct.Record, 0, n)
		for s.Scan() {
			recs = append(recs, *s.Record())
		}
		f.Close()
		if len(recs) != n || s.NumProblems() != 0 || s.Err() != nil {
			b.Fatalf("read %d records of %d, problems %v, err %v", len(recs), n, s.Problems(), s.Err())
		}
		res, err := sim.ReplayAcct(p, recs, sim.ReplayOptions{Hosts: sim.SyntheticHosts(32, 32)})
		if err != nil {
			b.Fatal(err)
		}
		if res.Sim.Placements == 0 && len(res.Reasons) > 0 {
			for _, why := range res.Reasons {
				b.Fatalf("no job placed: %d skipped, e.g. %s", len(res.Reasons), why)
			}
		}
		placements += res.Sim.Placements
	}
	b.ReportMetric(float64(n), "records")
	b.ReportMetric(float64(placements)/float64(b.N), "placed/op")
}

// writeAcct writes n finished jobs' JOB_FINISH records to path.
func writeAcct(b *testing.B, path string, n int) {
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	rng := rand.New(rand.NewPCG(1, 2))
	var line []byte
	t := int64(1_700_000_000)
	for i := range n {
		t += rng.Int64N(3)
		slots := int64(1)
		if rng.IntN(4) == 0 {
			slots = 1 + rng.Int64N(32)
		}
		run := 1 + rng.Int64N(3600)
		r := lsbacct.Record{
			EventTime: t + 10 + run, JobID: int64(i + 1), UserID: 1000, NumProcessors: slots, MaxNumProcessors: slots,
			SubmitTime: t, StartTime: t + 10, UserName: fmt.Sprintf("user%d", rng.IntN(50)), Queue: "batch",
			FromHost: "login1", Cwd: "/home/u", JobFile: fmt.Sprint(i + 1), ExecHosts: []string{"cn01"}, AllocSlots: []string{"cn01"},
			JStatus: lsbacct.StatusDone, HostFactor: 1, JobName: "job", Command: "./run.sh", ProjectName: "default",
			RunLimit: -1, RunTime: run, EffectiveResReq: "select[type == any] order[r15s:pg]",
			Rusage: lsbacct.Rusage{Utime: -1, Stime: -1, Maxrss: -1, Ixrss: -1, Ismrss: -1, Idrss: -1, Isrss: -1, Minflt: -1, Majflt: -1,
				Nswap: -1, Inblock: -1, Oublock: -1, Ioch: -1, Msgsnd: -1, Msgrcv: -1, Nsignals: -1, Nvcsw: -1, Nivcsw: -1, Exutime: -1},
		}
		line = lsbacct.Append(line[:0], &r)
		if _, err := w.Write(line); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
}
