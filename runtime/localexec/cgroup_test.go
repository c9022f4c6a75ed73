package localexec

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/lsfc/lsfc/internal/testkit"
)

// needCgroup skips the test when this host has no cgroup v2 hierarchy
// the tests can write, and otherwise returns the base cgroup of an
// Executor on dir, removed when the test ends.
func needCgroup(t *testing.T, dir string) string {
	t.Helper()
	base, err := setupCgroupBase(dir)
	if err != nil {
		t.Skipf("no writable cgroup v2 hierarchy for process tracking: %v", err)
	}
	t.Cleanup(func() {
		os.Remove(base)
		os.Remove(filepath.Dir(base)) // the lsfc cgroup, when no other is left in it
	})
	return base
}

// escapedPid waits for the pid the job wrote in file and checks that
// the process left the job's process group.
func escapedPid(t *testing.T, file string, jobPgid int) int {
	t.Helper()
	var pid int
	eventually(t, "the escaped process starting", func() bool {
		data, err := os.ReadFile(file)
		if err != nil {
			return false
		}
		pid, err = strconv.Atoi(strings.TrimSpace(string(data)))
		return err == nil
	})
	eventually(t, "the process leaving the job's process group", func() bool {
		st, err := readProcStat(pid)
		return err == nil && st.Pgrp != jobPgid
	})
	return pid
}

// startEscaping starts s, whose command writes to esc.pid in its working
// directory the pid of a process it starts in a session of its own (see
// escapeCommand), and returns that process, killed when the test ends.
func startEscaping(t *testing.T, h *harness, s Spec) int {
	t.Helper()
	h.start(s)
	pgid, _ := h.e.JobPID(s.JobID) // 0 once a short job has ended: no group to leave
	esc := escapedPid(t, filepath.Join(s.Cwd, "esc.pid"), pgid)
	t.Cleanup(func() { syscall.Kill(esc, syscall.SIGKILL) })
	return esc
}

// escapeCommand starts a process in a session of its own, records its
// pid in esc.pid, and waits.
const escapeCommand = "setsid sleep 300 & echo $! > esc.pid; sleep 300"

func TestTrackedKillReachesEscapedProcess(t *testing.T) {
	// In the host's supervisor, and under a job starter of its own.
	for _, perJob := range []bool{false, true} {
		t.Run("PerJob="+strconv.FormatBool(perJob), func(t *testing.T) { trackedKill(t, perJob) })
	}
}

func trackedKill(t *testing.T, perJob bool) {
	dir := t.TempDir()
	base := needCgroup(t, dir)
	h := newHarness(t, dir)
	h.e.PerJob = perJob
	cwd := t.TempDir()
	esc := startEscaping(t, h, Spec{JobID: 41, Command: escapeCommand, Cwd: cwd, Umask: -1, ProcessTracking: true})
	cg := jobCgroupPath(base, 41)
	if pids, err := cgroupPids(cg); err != nil || !containsPid(pids, esc) {
		t.Fatalf("cgroup %s holds %v (%v), want the escaped process %d", cg, pids, err, esc)
	}
	// A stop reaches it too.
	if err := h.e.Signal(41, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the escaped process stopping", func() bool {
		st, err := readProcStat(esc)
		return err == nil && st.State == 'T'
	})
	if err := h.e.Signal(41, syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	if err := h.e.Kill(41); err != nil {
		t.Fatal(err)
	}
	if r := h.result(41); r.Signal == 0 {
		t.Errorf("Result = %+v, want a signal", r)
	}
	eventually(t, "the escaped process ending", func() bool { return gone(esc) })
	eventually(t, "the job's cgroup going", func() bool {
		_, err := os.Stat(cg)
		return os.IsNotExist(err)
	})
}

func containsPid(pids []int, pid int) bool {
	for _, p := range pids {
		if p == pid {
			return true
		}
	}
	return false
}

func TestTrackedJobEndRemovesCgroup(t *testing.T) {
	dir := t.TempDir()
	base := needCgroup(t, dir)
	h := newHarness(t, dir)
	cwd := t.TempDir()
	// The job's shell ends at once, leaving a process of another session.
	esc := startEscaping(t, h, Spec{JobID: 42, Command: "setsid sleep 300 & echo $! > esc.pid; sleep 0.3", Cwd: cwd, Umask: -1, ProcessTracking: true})
	if r := h.result(42); !r.Done() {
		t.Errorf("Result = %+v, want DONE", r)
	}
	// The job ended with its shell: what it left went with it.
	if !gone(esc) {
		t.Errorf("process %d the job left still runs after the job's end", esc)
	}
	if _, err := os.Stat(jobCgroupPath(base, 42)); !os.IsNotExist(err) {
		t.Errorf("the job's cgroup is still there after its end (%v)", err)
	}
}

func TestUntrackedKillMissesEscapedProcess(t *testing.T) {
	h := newHarness(t, t.TempDir())
	cwd := t.TempDir()
	esc := startEscaping(t, h, Spec{JobID: 43, Command: escapeCommand, Cwd: cwd, Umask: -1})
	if err := h.e.Kill(43); err != nil {
		t.Fatal(err)
	}
	h.result(43)
	time.Sleep(2 * h.e.KillGrace)
	// Without tracking only the process group is signalled, as LSF
	// without LSF_PROCESS_TRACKING: the escaped process runs on.
	if gone(esc) {
		t.Errorf("the escaped process %d ended, want it outside the untracked job's reach", esc)
	}
}

func TestTrackingFallsBackToProcessGroup(t *testing.T) {
	// A "cgroup v2 mount" that is a plain directory.
	fake := t.TempDir()
	info := filepath.Join(t.TempDir(), "mountinfo")
	line := "41 31 0:38 / " + fake + " rw,relatime - cgroup2 cgroup2 rw\n"
	if err := os.WriteFile(info, []byte(line), 0o600); err != nil {
		t.Fatal(err)
	}
	old := cgroupMountInfo
	cgroupMountInfo = info
	defer func() { cgroupMountInfo = old }()

	h := newHarness(t, t.TempDir())
	var mu sync.Mutex
	var notes []string
	h.e.Logf = func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		notes = append(notes, format)
	}
	for id := int64(44); id <= 45; id++ {
		h.start(Spec{JobID: id, Command: "exit 0", Umask: -1, ProcessTracking: true})
		if r := h.result(id); !r.Done() {
			t.Errorf("Result = %+v, want DONE", r)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(notes) != 1 || !strings.Contains(notes[0], "LSF_PROCESS_TRACKING=Y") || !strings.Contains(notes[0], "process group") {
		t.Errorf("notices = %q, want one saying the jobs are tracked by process group", notes)
	}
	if _, err := os.Stat(filepath.Join(fake, "lsfc")); !os.IsNotExist(err) {
		t.Errorf("something was made in the directory that is not a cgroup (%v)", err)
	}

	// No cgroup v2 at all.
	if err := os.WriteFile(info, []byte("31 23 0:28 / /sys/fs/cgroup rw - tmpfs tmpfs rw\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := setupCgroupBase(t.TempDir()); err == nil || !strings.Contains(err.Error(), "no cgroup v2") {
		t.Errorf("setupCgroupBase without a cgroup v2 mount: %v", err)
	}
}

func TestUntrackedJobMakesNoCgroup(t *testing.T) {
	h := newHarness(t, t.TempDir())
	h.start(Spec{JobID: 46, Command: "exit 0", Umask: -1})
	h.result(46)
	h.e.mu.Lock()
	defer h.e.mu.Unlock()
	if h.e.cgBase != "" {
		t.Errorf("a job without process tracking found the base cgroup %s", h.e.cgBase)
	}
}

func TestCgroup2Mount(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755\n" +
			"37 31 0:34 / /sys/fs/cgroup/freezer rw,relatime - cgroup cgroup rw,freezer\n" +
			"41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n", "/sys/fs/cgroup/unified"},
		{"30 24 0:26 / /sys/fs/cgroup rw,nosuid shared:4 - cgroup2 cgroup2 rw,nsdelegate\n", "/sys/fs/cgroup"},
		{`30 24 0:26 / /mnt/cg\040two rw - cgroup2 none rw` + "\n", "/mnt/cg two"},
		{"31 23 0:28 / /sys/fs/cgroup rw - tmpfs tmpfs rw\n", ""},
		{"garbage - cgroup2\n", ""},
		{"", ""},
	} {
		if got := cgroup2Mount(c.in); got != c.want {
			t.Errorf("cgroup2Mount(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

func FuzzCgroup2Mount(f *testing.F) {
	f.Add("41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw\n")
	f.Add(`30 24 0:26 / /mnt/cg\040two rw - cgroup2 none rw`)
	f.Add(`1 2 3 4 \ - cgroup2`)
	f.Fuzz(func(t *testing.T, s string) {
		if got := cgroup2Mount(s); got != "" && !strings.HasPrefix(got, "/") {
			t.Errorf("cgroup2Mount(%q) = %q, not absolute", s, got)
		}
	})
}

func TestLeftCgroupRetried(t *testing.T) {
	dir := t.TempDir()
	needCgroup(t, dir)
	h := newHarness(t, dir)
	var mu sync.Mutex
	var notes []string
	h.e.Logf = func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		notes = append(notes, format)
	}
	base := h.e.cgroupBase()
	if base == "" {
		t.Fatal("no base cgroup")
	}
	cg := jobCgroupPath(base, 50)
	if err := os.MkdirAll(filepath.Join(cg, "held"), 0o755); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(cg)
	defer os.Remove(filepath.Join(cg, "held"))
	// A cgroup whose processes do not end (stuck in the kernel) cannot
	// be removed: as one, the removal fails until the test lets it be.
	var held sync.Mutex
	stuck := true
	reapRemove = func(path string, d time.Duration) error {
		held.Lock()
		defer held.Unlock()
		if stuck {
			return fmt.Errorf("cannot remove cgroup %s: %v", path, syscall.EBUSY)
		}
		return removeCgroup(path, d)
	}
	defer func() { reapRemove = removeCgroup }()
	countLeft := func() int {
		mu.Lock()
		defer mu.Unlock()
		n := 0
		for _, s := range notes {
			if strings.Contains(s, "tried again") {
				n++
			}
		}
		return n
	}
	// The first failure may be the kill's processes still ending: it is
	// not said; the next is, once; those after are not.
	h.e.reapCgroup(50, "")
	if n := countLeft(); n != 0 {
		t.Errorf("%d notices after the first try, want none: %q", n, notes)
	}
	h.e.retryCgroups()
	h.e.retryCgroups()
	if n := countLeft(); n != 1 {
		t.Errorf("%d notices of the cgroup left after two more tries, want 1: %q", n, notes)
	}
	held.Lock()
	stuck = false
	held.Unlock()
	if err := h.e.Cleanup(50); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(cg); !os.IsNotExist(err) {
		t.Errorf("the cgroup left is still there after the job's cleanup (%v)", err)
	}
	h.e.mu.Lock()
	defer h.e.mu.Unlock()
	if len(h.e.cgLeft) != 0 || len(h.e.cgLogged) != 0 {
		t.Errorf("cgroups left = %v (named %v), want none", h.e.cgLeft, h.e.cgLogged)
	}
}

// TestTrackedJobSurvivesRestart: a tracked job outlives its Executor (the
// daemon restarting) in the host's supervisor; the next Executor adopts
// it, and its first tracked start, which removes the cgroups of jobs it
// does not run, leaves the adopted job's alone; the adopted job's kill
// still reaches the process that left its process group.
func TestTrackedJobSurvivesRestart(t *testing.T) {
	dir := t.TempDir()
	base := needCgroup(t, dir)
	h := newHarness(t, dir)
	cwd := t.TempDir()
	esc := startEscaping(t, h, Spec{JobID: 51, Command: escapeCommand, Cwd: cwd, Umask: -1, ProcessTracking: true})
	h.e.Close()

	h2 := newHarness(t, dir)
	if ended := h2.e.Recover([]int64{51}); len(ended) != 0 {
		t.Fatalf("Recover returned %+v, want job 51 adopted", ended)
	}
	h2.start(Spec{JobID: 52, Command: "exit 3", Cwd: cwd, Umask: -1, ProcessTracking: true})
	if r := h2.result(52); r.ExitCode != 3 {
		t.Fatalf("job 52 ended %+v, want exit code 3", r)
	}
	cg := jobCgroupPath(base, 51)
	if pids, err := cgroupPids(cg); err != nil || !containsPid(pids, esc) || gone(esc) {
		t.Fatalf("after the restart, cgroup %s holds %v (%v), want the escaped process %d", cg, pids, err, esc)
	}
	if err := h2.e.Kill(51); err != nil {
		t.Fatal(err)
	}
	if r := h2.result(51); r.Signal == 0 && !r.Lost {
		t.Errorf("job 51 ended %+v, want killed", r)
	}
	eventually(t, "the escaped process ending", func() bool { return gone(esc) })
	eventually(t, "the job's cgroup going", func() bool {
		_, err := os.Stat(cg)
		return os.IsNotExist(err)
	})
}

// TestTrackedBaseRemade: the base cgroup found at the first tracked start
// and removed since (by an administrator, or a tool that cleans cgroups
// up while no job runs in them) is made again for the next tracked job,
// whose kill then still reaches the process that left its group.
func TestTrackedBaseRemade(t *testing.T) {
	for _, perJob := range []bool{false, true} {
		t.Run("PerJob="+strconv.FormatBool(perJob), func(t *testing.T) {
			dir := t.TempDir()
			base := needCgroup(t, dir)
			h := newHarness(t, dir)
			h.e.PerJob = perJob
			h.start(Spec{JobID: 61, Command: "exit 0", Umask: -1, ProcessTracking: true})
			h.result(61)
			if err := os.Remove(base); err != nil {
				t.Fatal(err)
			}
			cwd := t.TempDir()
			esc := startEscaping(t, h, Spec{JobID: 62, Command: escapeCommand, Cwd: cwd, Umask: -1, ProcessTracking: true})
			if err := h.e.Kill(62); err != nil {
				t.Fatal(err)
			}
			h.result(62)
			eventually(t, "the escaped process ending", func() bool { return gone(esc) })
		})
	}
}

// TestTrackedNestedCgroup: a job that can write its own cgroup (a job of
// root) makes a cgroup inside it and moves a process there; the job's
// end still kills that process, and removes both cgroups.
func TestTrackedNestedCgroup(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("needs a job that can write its cgroup (root)")
	}
	dir := t.TempDir()
	base := needCgroup(t, dir)
	h := newHarness(t, dir)
	cwd := t.TempDir()
	cg := jobCgroupPath(base, 70)
	defer os.Remove(cg)
	defer os.Remove(filepath.Join(cg, "sub"))
	cmd := "mkdir " + cg + "/sub && setsid sh -c 'echo $$ > " + cg + "/sub/cgroup.procs; echo $$ > esc.pid; exec sleep 300' & sleep 0.5"
	h.start(Spec{JobID: 70, Command: cmd, Cwd: cwd, Umask: -1, ProcessTracking: true})
	start := time.Now()
	r := h.result(70)
	took := time.Since(start)
	data, err := os.ReadFile(filepath.Join(cwd, "esc.pid"))
	if err != nil {
		t.Fatal(err)
	}
	esc, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatalf("esc.pid holds %q", data)
	}
	defer syscall.Kill(esc, syscall.SIGKILL)
	eventually(t, "the process left in the inner cgroup ending", func() bool { return gone(esc) })
	if _, err := os.Stat(cg); err == nil {
		t.Errorf("job 70's cgroup %s is still there after its end (%+v, after %v)", cg, r, took)
	}
}

// TestTrackedMemLimit: the memory limit of a job tracked by cgroup counts
// the process that left its process group; the same job untracked is
// under its limit, as its own group holds little.
func TestTrackedMemLimit(t *testing.T) {
	dir := t.TempDir()
	needCgroup(t, dir)
	h := newHarness(t, dir)
	cwd := t.TempDir()
	// 48 MB held by a process in a session of its own, against a limit of
	// 24 MB; the job's shell itself holds little.
	cmd := "setsid sh -c '" + hold("48", "60") + "' & echo $! > esc.pid; sleep 60"
	for _, tracked := range []bool{true, false} {
		id := int64(80)
		if !tracked {
			id = 81
		}
		work := filepath.Join(cwd, strconv.FormatInt(id, 10))
		if err := os.Mkdir(work, 0o755); err != nil {
			t.Fatal(err)
		}
		esc := startEscaping(t, h, Spec{JobID: id, Command: cmd, Cwd: work, Umask: -1, Stdout: "/dev/null", MemLimit: 24 << 10, ProcessTracking: tracked})
		defer syscall.Kill(-esc, syscall.SIGKILL) // and what it started
		if tracked {
			r := h.result(id)
			if !r.MemLimitExceeded {
				t.Errorf("tracked: Result %+v, want MemLimitExceeded", r)
			}
			eventually(t, "the escaped process ending", func() bool { return gone(esc) })
			continue
		}
		// Three readings of the untracked job's memory: under its limit.
		time.Sleep(3*memCheckInterval + 500*time.Millisecond)
		if _, ok := h.e.JobPID(id); !ok {
			t.Errorf("untracked: the job ended, want it running under its limit")
		}
		if err := h.e.Kill(id); err != nil {
			t.Fatal(err)
		}
		if r := h.result(id); r.MemLimitExceeded {
			t.Errorf("untracked: Result %+v, want no MemLimitExceeded", r)
		}
	}
}

// burntCPU waits for testkit.BurnCommand's process in directory dir to
// write the CPU time it used and to end, and returns that time.
func burntCPU(t *testing.T, dir string) time.Duration {
	t.Helper()
	var data []byte
	eventually(t, "the escaped process to use its CPU", func() bool {
		var err error
		data, err = os.ReadFile(filepath.Join(dir, "burnt"))
		return err == nil
	})
	d, err := testkit.ShellTimes(string(data))
	if err != nil {
		t.Fatal(err)
	}
	pidData, err := os.ReadFile(filepath.Join(dir, "burnt.pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(pidData)))
	if err != nil || pid <= 1 {
		t.Fatalf("burnt.pid holds %q", pidData)
	}
	eventually(t, "the escaped process to end", func() bool {
		st, err := readProcStat(pid)
		return err != nil || st.State == 'Z' || st.State == 'X'
	})
	return d
}

// TestTrackedCPUFromCgroup checks that a job of CgroupAcct counts the CPU
// time of a process that left its tree and ended, reaped by another
// process, both while the job runs (CPUTimes) and at its end, and that
// without CgroupAcct that time is not counted (which the cgroup's count
// is for).
func TestTrackedCPUFromCgroup(t *testing.T) {
	for _, acct := range []bool{true, false} {
		t.Run("CgroupAcct="+strconv.FormatBool(acct), func(t *testing.T) {
			dir := t.TempDir()
			needCgroup(t, dir)
			h := newHarness(t, dir)
			cwd := t.TempDir()
			h.start(Spec{JobID: 43, Command: testkit.BurnCommand + "; sleep 300", Cwd: cwd, Umask: -1, ProcessTracking: true, CgroupAcct: acct})
			burnt := burntCPU(t, cwd)
			if burnt < 50*time.Millisecond {
				t.Fatalf("the escaped process used %v of CPU, too little to tell", burnt)
			}
			running := h.e.CPUTimes([]int64{43})[43]
			if err := h.e.Kill(43); err != nil {
				t.Fatal(err)
			}
			r := h.result(43)
			t.Logf("escaped process %v, job while running %v, at its end %v", burnt, running, r.CPUTime)
			// The times of the escaped process and of the cgroup are
			// counted in ticks of their own: a tick's difference apart.
			const tick = 20 * time.Millisecond
			if acct {
				if running < burnt-tick || r.CPUTime < burnt-tick {
					t.Errorf("job's CPU time %v while running, %v at its end: want at least the escaped process's %v", running, r.CPUTime, burnt)
				}
			} else if running >= burnt/2 || r.CPUTime >= burnt/2 {
				t.Errorf("job's CPU time %v while running, %v at its end, without CgroupAcct: want the escaped process's %v left out", running, r.CPUTime, burnt)
			}
		})
	}
}

// TestTrackedCPULimitFromCgroup runs a job of CgroupAcct with a CPU
// limit of a second whose CPU is used by processes that leave its tree
// and end, each under the limit: the cgroup's count passes it, and the
// job is killed for its CPU time.
func TestTrackedCPULimitFromCgroup(t *testing.T) {
	dir := t.TempDir()
	needCgroup(t, dir)
	h := newHarness(t, dir)
	cmd := "while :; do " + testkit.BurnCommand + "; sleep 0.3; done"
	h.start(Spec{JobID: 44, Command: cmd, Cwd: t.TempDir(), Umask: -1, ProcessTracking: true, CgroupAcct: true, CPULimit: 1})
	r := h.result(44)
	if !r.CPULimitExceeded || r.CPUTime < time.Second {
		t.Fatalf("job ended %+v: want it killed past its CPU limit of 1 s, the escaped processes' time counted", r)
	}
}

func TestParseCPUStat(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"usage_usec 153714\nuser_usec 153714\nsystem_usec 0\n", 153714 * time.Microsecond, true},
		{"user_usec 1\nusage_usec 0\n", 0, true},
		{"user_usec 1\n", 0, false},
		{"usage_usec -5\n", 0, false},
		{"usage_usec 99999999999999999999\n", 0, false},
		{"usage_usec x\n", 0, false},
		{"", 0, false},
	} {
		got, err := parseCPUStat(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("parseCPUStat(%q) = %v, %v; want %v, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

func FuzzParseCPUStat(f *testing.F) {
	f.Add("usage_usec 153714\nuser_usec 153714\nsystem_usec 0\nnice_usec 0\n")
	f.Add("usage_usec 9223372036854775\n")
	f.Fuzz(func(t *testing.T, s string) {
		if d, err := parseCPUStat(s); err == nil && d < 0 {
			t.Fatalf("parseCPUStat(%q) = %v", s, d)
		}
	})
}
