package localexec

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
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
// the job starter, built from cmd/lsfc-job, as lsfc serve runs them: in
// the host's supervisor (supervisor), or each under a starter process of
// its own (per-job; the only way of a starter named by
// LOCALEXEC_BENCH_STARTER). It reports per job: the CPU time of lsfc's
// processes besides this one (the supervisor's own, read from its
// /proc/PID/stat; or the per-job starters', this process's children's
// less the job's shell, which the Result gives), the CPU time of this
// process (the Executor's side: files, start, wait), the time Start
// takes (until the job's shell runs) and the time from Start's return to
// the Result. BenchmarkShellStart is the yardstick.
func BenchmarkJobStart(b *testing.B) {
	argv := strings.Fields(os.Getenv(starterEnv))
	if len(argv) == 0 {
		bin := filepath.Join(b.TempDir(), StarterName)
		if out, err := exec.Command("go", "build", "-o", bin, "../../cmd/lsfc-job").CombinedOutput(); err != nil {
			b.Fatalf("go build: %v\n%s", err, out)
		}
		argv = []string{bin}
		b.Run("supervisor", func(b *testing.B) { benchJobStart(b, argv, false) })
	}
	b.Run("per-job", func(b *testing.B) { benchJobStart(b, argv, true) })
}

func benchJobStart(b *testing.B, argv []string, perJob bool) {
	results := make(chan Result, 1)
	e, err := New(b.TempDir(), func(r Result) { results <- r })
	if err != nil {
		b.Fatal(err)
	}
	defer e.Close()
	e.WrapperPath, e.PerJob = argv, perJob
	id := int64(0)
	run := func() Result {
		id++
		if err := e.Start(Spec{JobID: id, Command: "true", Umask: -1}); err != nil {
			b.Fatal(err)
		}
		r := <-results
		if !r.Done() {
			b.Fatalf("job %d ended %+v, want DONE", id, r)
		}
		if err := e.Cleanup(id); err != nil {
			b.Fatal(err)
		}
		return r
	}
	// A first job starts the supervisor.
	run()
	sup := 0
	if !perJob {
		sup = supervisorPID(b, e.Dir())
	}
	var shellCPU, startWall, endWall time.Duration
	self0, children0, sup0 := cpuTime(b, syscall.RUSAGE_SELF), cpuTime(b, syscall.RUSAGE_CHILDREN), procCPU(b, sup)
	n := 0
	for b.Loop() {
		n++
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
	starter := children - shellCPU
	if !perJob {
		starter = procCPU(b, sup) - sup0
	}
	nf := float64(n)
	b.ReportMetric(float64(starter)/nf/1e6, "starter-cpu-ms/job")
	b.ReportMetric(float64(self)/nf/1e6, "executor-cpu-ms/job")
	b.ReportMetric(float64(shellCPU)/nf/1e6, "shell-cpu-ms/job")
	b.ReportMetric(float64(startWall)/nf/1e6, "start-ms/job")
	b.ReportMetric(float64(endWall)/nf/1e6, "end-ms/job")
}

// procCPU returns the CPU time (user and system) of process pid itself,
// from /proc/PID/stat, in ticks of 10 ms; 0 for pid 0.
func procCPU(tb testing.TB, pid int) time.Duration {
	if pid == 0 {
		return 0
	}
	data, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		tb.Fatal(err)
	}
	// utime is field 14, stime 15; f[0] is field 3.
	f := strings.Fields(string(data[strings.LastIndexByte(string(data), ')')+1:]))
	var ticks int64
	for _, k := range []int{11, 12} {
		v, err := strconv.ParseInt(f[k], 10, 64)
		if err != nil {
			tb.Fatal(err)
		}
		ticks += v
	}
	return time.Duration(ticks) * time.Second / userHZ
}

// BenchmarkShellStart starts and waits for "/bin/sh -c true" directly:
// the CPU time of the shell, that of this process (os/exec's fork, exec
// and wait, and nothing else: the least any Go process that starts and
// reaps a job spends on it), the time its start takes (fork and exec),
// and the time until it has run its command and ended.
func BenchmarkShellStart(b *testing.B) {
	var startWall, runWall time.Duration
	children0 := cpuTime(b, syscall.RUSAGE_CHILDREN)
	self0 := cpuTime(b, syscall.RUSAGE_SELF)
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
	self := cpuTime(b, syscall.RUSAGE_SELF) - self0
	children := cpuTime(b, syscall.RUSAGE_CHILDREN) - children0
	b.ReportMetric(float64(children)/float64(n)/1e6, "shell-cpu-ms/job")
	b.ReportMetric(float64(self)/float64(n)/1e6, "parent-cpu-ms/job")
	b.ReportMetric(float64(startWall)/float64(n)/1e6, "start-ms/job")
	b.ReportMetric(float64(runWall)/float64(n)/1e6, "run-ms/job")
}
