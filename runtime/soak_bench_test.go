package runtime_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	goruntime "runtime"
	"syscall"
	"testing"
	"time"

	"github.com/lsfc/lsfc/runtime"
)

var soakJobs = flag.Int("soak-jobs", 100000, "jobs of BenchmarkSoakDistinctReqs (one distinct -R string per 10)")

// BenchmarkSoakDistinctReqs runs a stream of jobs through the engine a
// daemon uses, as a daemon sees them over months: every second 100 jobs
// are submitted, a cycle runs, and the jobs whose run time (5 to 15 s) is
// over finish and are forgotten (as CLEAN_PERIOD does), on 64 hosts of 32
// slots, so that about 1,000 jobs run and none waits long. Every 10
// consecutive jobs share a -R string no job before asked for, so the
// requirements seen grow with the jobs while those in use stay a few
// hundred. It reports the mean time of a cycle (Engine.Schedule) over the
// second twentieth of the run (once the hosts are busy) and over the
// last, in wall time and in the process's CPU time (which other work on
// a shared machine does not inflate), and the live heap after a
// collection at the end of each: with -soak-jobs=1000000 (100,000
// distinct -R strings), both must stay flat. One iteration is the whole
// run; use -benchtime 1x.
func BenchmarkSoakDistinctReqs(b *testing.B) {
	jobs := *soakJobs
	const perStep, hosts = 100, 64
	steps := jobs / perStep
	if steps < 40 {
		b.Fatalf("-soak-jobs %d: at least %d jobs", jobs, 40*perStep)
	}
	startFrom, startTo, endFrom := steps/20, steps/10, steps-steps/20
	var cycleStart, cycleEnd, cpuStart, cpuEnd time.Duration
	var heapStart, heapEnd uint64
	for b.Loop() {
		b.StopTimer()
		c := benchClusterOf(b, hosts, "Begin Queue\nQUEUE_NAME = normal\nPRIORITY = 30\nEnd Queue\n")
		b.StartTimer()
		clock := &runtime.VirtualClock{}
		e := runtime.NewEngine(c, clock, nil)
		rng := rand.New(rand.NewPCG(7, 8))
		// ends holds the started jobs by the second they end, modulo 16.
		var ends [16][]*runtime.Job
		cycleStart, cycleEnd, cpuStart, cpuEnd = 0, 0, 0, 0
		for step := range steps {
			clock.T++
			now := int(clock.T)
			for _, j := range ends[now%16] {
				e.Finish(j, runtime.Done, 0)
				c.Forget(j)
			}
			ends[now%16] = ends[now%16][:0]
			for i := range perStep {
				n := step*perStep + i
				if _, err := e.Submit(runtime.Submission{User: fmt.Sprintf("u%d", n%50), ResReq: soakReq(n / 10)}); err != nil {
					b.Fatal(err)
				}
			}
			t0, cpu0 := time.Now(), processCPU(b)
			p := e.Schedule()
			d, cpu := time.Since(t0), processCPU(b)-cpu0
			for _, ds := range p.Dispatches {
				end := now + 5 + rng.IntN(11)
				ends[end%16] = append(ends[end%16], ds.Job)
			}
			switch {
			case step >= startFrom && step < startTo:
				cycleStart += d
				cpuStart += cpu
			case step >= endFrom:
				cycleEnd += d
				cpuEnd += cpu
			}
			switch step + 1 {
			case startTo:
				heapStart = liveHeap(b)
			case steps:
				heapEnd = liveHeap(b)
			}
		}
	}
	b.ReportMetric(float64(cycleStart.Microseconds())/float64(startTo-startFrom), "cycle-start-µs")
	b.ReportMetric(float64(cycleEnd.Microseconds())/float64(steps-endFrom), "cycle-end-µs")
	b.ReportMetric(float64(cpuStart.Microseconds())/float64(startTo-startFrom), "cycle-cpu-start-µs")
	b.ReportMetric(float64(cpuEnd.Microseconds())/float64(steps-endFrom), "cycle-cpu-end-µs")
	b.ReportMetric(float64(heapStart)/(1<<20), "heap-start-MB")
	b.ReportMetric(float64(heapEnd)/(1<<20), "heap-end-MB")
}

// soakReq returns the i-th distinct -R string of the soak: a memory and
// CPU select every host passes, so that the jobs run at once.
func soakReq(i int) string {
	return fmt.Sprintf("select[mem>%d && ncpus>=%d] order[r15s]", i%25000, 1+i/25000)
}

// processCPU returns the CPU time the process used so far, user and
// system.
func processCPU(b *testing.B) time.Duration {
	var u syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &u); err != nil {
		b.Fatal(err)
	}
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// liveHeap returns the bytes of live heap objects after a collection,
// outside the timing.
func liveHeap(b *testing.B) uint64 {
	b.StopTimer()
	defer b.StartTimer()
	goruntime.GC()
	var m goruntime.MemStats
	goruntime.ReadMemStats(&m)
	return m.HeapAlloc
}
