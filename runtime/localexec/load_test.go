package localexec

import (
	"bytes"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func openTestdata(t *testing.T, name string) *os.File {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-6 }

func TestParseStat(t *testing.T) {
	got, err := parseStat(openTestdata(t, "proc/stat"))
	if err != nil {
		t.Fatal(err)
	}
	want := kernelStat{cpu: cpuTimes{busy: 1500, total: 10000}, hasCPU: true, running: 3, blocked: 1, hasProcs: true}
	if got != want {
		t.Errorf("parseStat(proc/stat) = %+v, want %+v", got, want)
	}
	// An old kernel's four counters, and no process counts.
	got, err = parseStat(strings.NewReader("cpu 10 20 30 40\n"))
	if err != nil {
		t.Fatal(err)
	}
	if want := (kernelStat{cpu: cpuTimes{busy: 60, total: 100}, hasCPU: true}); got != want {
		t.Errorf("parseStat(old) = %+v, want %+v", got, want)
	}
	for _, bad := range []string{"cpu 1 2 3\n", "cpu 1 x 3 4\n", "procs_running -1\nprocs_blocked 0\n"} {
		if _, err := parseStat(strings.NewReader(bad)); err == nil {
			t.Errorf("parseStat(%q) succeeded, want an error", bad)
		}
	}
}

func TestParseLoadavg(t *testing.T) {
	r1m, r15m, err := parseLoadavg("0.50 0.75 1.25 3/250 12345")
	if err != nil || r1m != 0.5 || r15m != 1.25 {
		t.Errorf("parseLoadavg = %v, %v, %v, want 0.5, 1.25, nil", r1m, r15m, err)
	}
	for _, bad := range []string{"", "0.5 0.7", "x 1 2", "1 2 -3"} {
		if _, _, err := parseLoadavg(bad); err == nil {
			t.Errorf("parseLoadavg(%q) succeeded, want an error", bad)
		}
	}
}

func TestParseUptime(t *testing.T) {
	if up, err := parseUptime("1000.00 1800.00"); err != nil || up != 1000 {
		t.Errorf("parseUptime = %v, %v, want 1000, nil", up, err)
	}
	if _, err := parseUptime("up"); err == nil {
		t.Error("parseUptime(\"up\") succeeded, want an error")
	}
}

func TestParseVMStat(t *testing.T) {
	pages, ok, err := parseVMStat(openTestdata(t, "proc/vmstat"))
	if err != nil || !ok || pages != 400 {
		t.Errorf("parseVMStat(proc/vmstat) = %d, %v, %v, want 400, true, nil", pages, ok, err)
	}
	if _, ok, err := parseVMStat(strings.NewReader("pgpgin 5\n")); ok || err != nil {
		t.Errorf("parseVMStat without pswp lines = ok %v, %v, want false, nil", ok, err)
	}
	if _, _, err := parseVMStat(strings.NewReader("pswpin many\n")); err == nil {
		t.Error("parseVMStat(\"pswpin many\") succeeded, want an error")
	}
}

func TestParseDiskStats(t *testing.T) {
	got, err := parseDiskStats(openTestdata(t, "proc/diskstats"), wholeDiskName)
	if err != nil {
		t.Fatal(err)
	}
	// vda and nvme0n1; not their partitions, nor loop0 or zram0.
	if want := uint64(2000000 + 1000000 + 40000 + 20000); got != want {
		t.Errorf("parseDiskStats(proc/diskstats) = %d sectors, want %d", got, want)
	}
	if _, err := parseDiskStats(strings.NewReader("8 0 sda 1 2\n"), wholeDiskName); err == nil {
		t.Error("parseDiskStats of a short line succeeded, want an error")
	}
}

func TestWholeDiskName(t *testing.T) {
	for name, want := range map[string]bool{
		"sda": true, "sda1": false, "vdb": true, "vdb12": false, "xvda": true, "xvda1": false, "hdc": true, "hdc3": false,
		"nvme0n1": true, "nvme0n1p1": false, "mmcblk0": true, "mmcblk0p2": false,
		"loop0": false, "ram1": false, "zram0": false, "dm-0": false, "md127": false, "sr0": false, "fd0": false,
		"": false, "123": false,
	} {
		if got := wholeDiskName(name); got != want {
			t.Errorf("wholeDiskName(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestParseMeminfo(t *testing.T) {
	m, err := parseMeminfo(openTestdata(t, "proc/meminfo"))
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]uint64{"MemTotal": 16777216, "MemAvailable": 8388608, "SwapFree": 2097152, "HugePages_Total": 0} {
		if m[name] != want {
			t.Errorf("parseMeminfo(proc/meminfo)[%q] = %d, want %d", name, m[name], want)
		}
	}
	if v, ok := availableKB(map[string]uint64{"MemFree": 10, "Buffers": 2, "Cached": 3}); !ok || v != 15 {
		t.Errorf("availableKB without MemAvailable = %d, %v, want 15, true", v, ok)
	}
}

func TestCountSessions(t *testing.T) {
	data, err := os.ReadFile("testdata/utmp")
	if err != nil {
		t.Fatal(err)
	}
	if n, err := countSessions(bytes.NewReader(data)); err != nil || n != 2 {
		t.Errorf("countSessions(utmp) = %d, %v, want 2, nil", n, err)
	}
	// A record cut short at the end is ignored.
	if n, err := countSessions(bytes.NewReader(data[:len(data)-100])); err != nil || n != 2 {
		t.Errorf("countSessions(truncated utmp) = %d, %v, want 2, nil", n, err)
	}
	if n, err := countSessions(bytes.NewReader(nil)); err != nil || n != 0 {
		t.Errorf("countSessions(empty) = %d, %v, want 0, nil", n, err)
	}
}

func TestParseProcStat(t *testing.T) {
	data, err := os.ReadFile("testdata/pidstat")
	if err != nil {
		t.Fatal(err)
	}
	got, err := parseProcStat(string(data))
	if want := (procStat{State: 'S', Pgrp: 4242, Start: 8675309}); err != nil || got != want {
		t.Errorf("parseProcStat(pidstat) = %+v, %v, want %+v, nil", got, err, want)
	}
	for _, bad := range []string{"", "12 (sh) S 1 2", "12 (sh) S 1 x" + strings.Repeat(" 0", 20)} {
		if _, err := parseProcStat(bad); err == nil {
			t.Errorf("parseProcStat(%q) succeeded, want an error", bad)
		}
	}
}

func TestIdleMinutes(t *testing.T) {
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, c := range []struct {
		latest time.Time
		want   float64
	}{
		{time.Time{}, NoIdle},
		{now.Add(-90 * time.Second), 1.5},
		{now.Add(time.Minute), 0},
	} {
		if got := idleMinutes(now, c.latest); got != c.want {
			t.Errorf("idleMinutes(now, %v) = %v, want %v", c.latest, got, c.want)
		}
	}
}

func TestSamplerIdle(t *testing.T) {
	dev := t.TempDir()
	if err := os.Mkdir(filepath.Join(dev, "pts"), 0o755); err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	files := map[string]time.Duration{"pts/0": 30 * time.Minute, "pts/1": 5 * time.Minute, "tty1": 60 * time.Minute, "pts/ptmx": 0, "ttyS0": 0}
	for name, ago := range files {
		p := filepath.Join(dev, name)
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		at := now.Add(-ago)
		if err := os.Chtimes(p, at, at); err != nil {
			t.Fatal(err)
		}
	}
	s := &Sampler{DevDir: dev}
	if got := s.idle(now); math.Abs(got-5) > 0.01 {
		t.Errorf("idle = %v minutes, want 5 (pts/1; ptmx and ttyS0 are not terminals)", got)
	}
	if got := (&Sampler{DevDir: t.TempDir()}).idle(now); got != NoIdle {
		t.Errorf("idle without terminals = %v, want %v", got, NoIdle)
	}
}

// TestSamplerTree samples the testdata trees, the second 10 seconds after
// the first, and checks every index.
func TestSamplerTree(t *testing.T) {
	t0 := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	now := t0
	s := &Sampler{ProcDir: "testdata/proc", SysDir: "testdata/sys", DevDir: t.TempDir(), UtmpFile: "testdata/utmp", now: func() time.Time { return now }}

	got, ok := s.Sample()
	if !ok {
		t.Error("Sample of the first tree is not ok")
	}
	want := map[string]float64{
		"r15s": 0.5, // seeded with r1m
		"r1m":  0.5, "r15m": 1.25,
		"ut": 0.15,                              // since boot: 1500 busy of 10000
		"pg": 0.4,                               // 400 pages in 1000 s
		"io": float64(3000000+60000) / 2 / 1000, // KB/s since boot
		"ls": 2, "it": NoIdle,
		"swp": 2048, "mem": 8192,
	}
	checkLoad(t, "first sample", got, want)

	now = t0.Add(10 * time.Second)
	s.ProcDir = "testdata/proc.later"
	got, _ = s.Sample()
	w := math.Exp(-10.0 / 15)
	want = map[string]float64{
		"r15s": 0.5*w + 4*(1-w), // 5 running, the reader aside, 0 blocked
		"r1m":  0.6, "r15m": 1.2,
		"ut": 0.4,                          // 800 busy of 2000
		"pg": 20,                           // 200 pages in 10 s
		"io": float64(20000+4000) / 2 / 10, // vda and nvme0n1 only
		"ls": 2, "it": NoIdle,
		"swp": 2048, "mem": 8192,
	}
	checkLoad(t, "second sample", got, want)
}

func checkLoad(t *testing.T, what string, got, want map[string]float64) {
	t.Helper()
	tmp, ok := got["tmp"]
	if !ok || tmp <= 0 {
		t.Errorf("%s: tmp = %v (present %v), want > 0", what, tmp, ok)
	}
	delete(got, "tmp")
	for name, w := range want {
		if g, ok := got[name]; !ok || !near(g, w) {
			t.Errorf("%s: %s = %v (present %v), want %v", what, name, g, ok, w)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			t.Errorf("%s: unexpected index %s = %v", what, name, got[name])
		}
	}
}

// TestSamplerMissing checks that a machine without /proc gives only the
// indices that do not come from it.
func TestSamplerMissing(t *testing.T) {
	empty := t.TempDir()
	s := &Sampler{ProcDir: empty, SysDir: empty, DevDir: empty, UtmpFile: filepath.Join(empty, "utmp")}
	for range 2 {
		got, ok := s.Sample()
		if ok {
			t.Error("Sample without /proc is ok, want not ok")
		}
		if len(got) != 3 || got["ls"] != 0 || got["it"] != NoIdle || got["tmp"] <= 0 {
			t.Errorf("Sample without /proc = %v, want only ls 0, it %v and tmp", got, NoIdle)
		}
	}
	f := s.Facts()
	if f.Maxmem != 0 || f.Maxswp != 0 || f.Maxtmp <= 0 || f.Ncpus < 1 {
		t.Errorf("Facts without /proc = %+v, want no memory, some tmp, some CPUs", f)
	}
}

// TestSamplerLive reads this machine.
func TestSamplerLive(t *testing.T) {
	s := NewSampler()
	s.Sample()
	time.Sleep(50 * time.Millisecond)
	got, ok := s.Sample()
	if !ok {
		t.Error("Sample of this machine is not ok")
	}
	for _, name := range IndexNames() {
		v, ok := got[name]
		if !ok {
			t.Logf("index %s is not available here", name)
			continue
		}
		if v < 0 || math.IsNaN(v) || math.IsInf(v, 0) {
			t.Errorf("%s = %v, want a finite value >= 0", name, v)
		}
	}
	if len(got) == 0 {
		t.Fatal("Sample read nothing on this machine")
	}
	if ut, ok := got["ut"]; ok && ut > 1 {
		t.Errorf("ut = %v, want at most 1", ut)
	}
	f := s.Facts()
	if f.Ncpus < 1 || f.Type == "" || f.Model != f.Type {
		t.Errorf("Facts() = %+v, want CPUs and a type", f)
	}
	if mem, ok := got["mem"]; ok && (mem <= 0 || mem > f.Maxmem) {
		t.Errorf("mem = %v, want in (0, maxmem %v]", mem, f.Maxmem)
	}
	if tmp, ok := got["tmp"]; ok && tmp > f.Maxtmp {
		t.Errorf("tmp = %v, want at most maxtmp %v", tmp, f.Maxtmp)
	}
	t.Logf("load: %v", got)
	t.Logf("facts: %+v", f)
}

func TestArchType(t *testing.T) {
	for goarch, want := range map[string]string{"amd64": "X86_64", "arm64": "AARCH64", "ppc64le": "PPC64LE", "riscv64": "RISCV64"} {
		if got := archType(goarch); got != want {
			t.Errorf("archType(%q) = %q, want %q", goarch, got, want)
		}
	}
	if runtime.GOARCH == "amd64" && (&Sampler{}).Facts().Type != "X86_64" {
		t.Error("Facts().Type on amd64 is not X86_64")
	}
}

func BenchmarkSample(b *testing.B) {
	b.ReportAllocs()
	var s Sampler
	for b.Loop() {
		s.Sample()
	}
}

// TestCPUTopology counts packages, cores per package and threads per core
// from a /sys tree of 2 packages of 2 cores of 2 threads, with an offline
// CPU (no topology) and the directories beside the CPUs left out.
func TestCPUTopology(t *testing.T) {
	sys := t.TempDir()
	cpu := filepath.Join(sys, "devices", "system", "cpu")
	n := 0
	for pkg := 0; pkg < 2; pkg++ {
		for core := 0; core < 2; core++ {
			for thread := 0; thread < 2; thread++ {
				topo := filepath.Join(cpu, fmt.Sprintf("cpu%d", n), "topology")
				if err := os.MkdirAll(topo, 0o755); err != nil {
					t.Fatal(err)
				}
				os.WriteFile(filepath.Join(topo, "physical_package_id"), []byte(fmt.Sprintf("%d\n", pkg)), 0o644)
				os.WriteFile(filepath.Join(topo, "core_id"), []byte(fmt.Sprintf("%d\n", core*4)), 0o644)
				n++
			}
		}
	}
	os.MkdirAll(filepath.Join(cpu, "cpu8"), 0o755)
	os.MkdirAll(filepath.Join(cpu, "cpufreq"), 0o755)
	s := &Sampler{SysDir: sys}
	p, c, th, ok := s.cpuTopology()
	if !ok || p != 2 || c != 2 || th != 2 {
		t.Errorf("cpuTopology = %v %v %v %v, want 2 2 2 true", p, c, th, ok)
	}
	f := s.Facts()
	if f.Nprocs != 2 || f.Ncores != 2 || f.Nthreads != 2 {
		t.Errorf("Facts: nprocs %v ncores %v nthreads %v, want 2 2 2", f.Nprocs, f.Ncores, f.Nthreads)
	}
	if _, _, _, ok := (&Sampler{SysDir: t.TempDir()}).cpuTopology(); ok {
		t.Error("cpuTopology of an empty /sys is ok")
	}
}
