package localexec

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// starterEnv names a job starter for BenchmarkJobStart to measure instead
// of the one it builds, as a command line split at blanks (an older lsfc:
// "/path/lsfc __lsfc_jobwrap").
const starterEnv = "LOCALEXEC_BENCH_STARTER"

// cpuTime returns the user and system time of this process (who =
// RUSAGE_SELF) or of its children waited for (RUSAGE_CHILDREN).
func cpuTime(tb testing.TB, who int) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		tb.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkJobStart runs trivial jobs ("true") one after the other under
// the job starter, built from cmd/lsfc-job, as lsfc serve runs them, and
// reports per job: the CPU time of the starter process (that of this
// process's children, less the job's shell, which the Result gives), the
// CPU time of this process (the Executor's side: files, start, wait), the
// time Start takes (until the job's shell runs) and the time from
// Start's return to the Result. BenchmarkShellStart is the yardstick.
func BenchmarkJobStart(b *testing.B) {
	argv := strings.Fields(os.Getenv(starterEnv))
	if len(argv) == 0 {
		bin := filepath.Join(b.TempDir(), StarterName)
		if out, err := exec.Command("go", "build", "-o", bin, "../../cmd/lsfc-job").CombinedOutput(); err != nil {
			b.Fatalf("go build: %v\n%s", err, out)
		}
		argv = []string{bin}
	}
	results := make(chan Result, 1)
	e, err := New(b.TempDir(), func(r Result) { results <- r })
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	e.WrapperPath = argv
	var shellCPU, startWall, endWall time.Duration
	self0, children0 := cpuTime(b, syscall.RUSAGE_SELF), cpuTime(b, syscall.RUSAGE_CHILDREN)
	id := int64(0)
	for b.Loop() {
		id++
		t0 := time.Now()
		if err := e.Start(Spec{JobID: id, Command: "true", Umask: -1}); err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		r := <-results
		endWall += time.Since(t1)
		startWall += t1.Sub(t0)
		if !r.Done() {
			b.Fatalf("job %d ended %+v, want DONE", id, r)
		}
		shellCPU += r.CPUTime
		if err := e.Cleanup(id); err != nil {
			b.Fatal(err)
		}
	}
	self, children := cpuTime(b, syscall.RUSAGE_SELF)-self0, cpuTime(b, syscall.RUSAGE_CHILDREN)-children0
	n := float64(id)
	b.ReportMetric(float64(children-shellCPU)/n/1e6, "starter-cpu-ms/job")
	b.ReportMetric(float64(self)/n/1e6, "executor-cpu-ms/job")
	b.ReportMetric(float64(shellCPU)/n/1e6, "shell-cpu-ms/job")
	b.ReportMetric(float64(startWall)/n/1e6, "start-ms/job")
	b.ReportMetric(float64(endWall)/n/1e6, "end-ms/job")
}

// BenchmarkShellStart starts and waits for "/bin/sh -c true" directly:
// the CPU time of the shell, the time its start takes (fork and exec),
// and the time until it has run its command and ended.
func BenchmarkShellStart(b *testing.B) {
	var startWall, runWall time.Duration
	children0 := cpuTime(b, syscall.RUSAGE_CHILDREN)
	n := 0
	for b.Loop() {
		n++
		cmd := exec.Command("/bin/sh", "-c", "true")
		t0 := time.Now()
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		startWall += time.Since(t0)
		if err := cmd.Wait(); err != nil {
			b.Fatal(err)
		}
		runWall += time.Since(t0)
	}
	children := cpuTime(b, syscall.RUSAGE_CHILDREN) - children0
	b.ReportMetric(float64(children)/float64(n)/1e6, "shell-cpu-ms/job")
	b.ReportMetric(float64(startWall)/float64(n)/1e6, "start-ms/job")
	b.ReportMetric(float64(runWall)/float64(n)/1e6, "run-ms/job")
}
