package localexec

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"
)

// IndexNames returns the names of LSF's built-in load indices, in lsload's
// order: r15s r1m r15m (run queue length averaged over 15 seconds, 1 and
// 15 minutes), ut (CPU utilisation, 0 to 1), pg (pages paged in and out
// per second), io (disk kilobytes per second), ls (login sessions), it
// (idle minutes), tmp (free megabytes in /tmp), swp (free swap megabytes)
// and mem (available memory megabytes).
func IndexNames() []string {
	return []string{"r15s", "r1m", "r15m", "ut", "pg", "io", "ls", "it", "tmp", "swp", "mem"}
}

// NoIdle is the it index of a machine without terminals: LSF's hosts that
// nobody uses interactively read as idle for a long time.
const NoIdle = 1e4

// r15sPeriod is the time constant of the r15s average.
const r15sPeriod = 15 * time.Second

// minRateInterval is the shortest interval over which the rate indices
// (ut, pg, io) are computed; closer samples repeat the last rates.
const minRateInterval = 10 * time.Millisecond

// A Sampler reads the load indices of this machine. Its zero value reads
// the real machine; the directory fields point it at another tree, such
// as a saved sample of one. The rate indices (ut, pg, io) and r15s are computed
// between successive calls of Sample, the first call measuring from boot.
// A Sampler is not safe for use by several goroutines at once.
type Sampler struct {
	ProcDir  string // the kernel's process file system; "" means /proc
	SysDir   string // the kernel's device file system; "" means /sys
	DevDir   string // the devices, for terminals; "" means /dev
	TmpDir   string // the directory whose free space is tmp; "" means /tmp
	UtmpFile string // the login records; "" means /var/run/utmp

	now   func() time.Time   // nil means time.Now
	last  *counters          // the counters the next rates start from
	rates map[string]float64 // the last rates computed
	r15s  float64
	r15At time.Time // when r15s was last updated; zero before the first
}

// counters are the cumulative counters behind the rate indices.
type counters struct {
	at      time.Time
	cpu     cpuTimes
	pages   uint64
	sectors uint64
	has     [3]bool // cpu, pages, sectors
}

// NewSampler returns a Sampler of this machine, the same as a zero
// Sampler.
func NewSampler() *Sampler { return &Sampler{} }

func (s *Sampler) dir(field, def string) string {
	if field != "" {
		return field
	}
	return def
}

func (s *Sampler) proc(name string) string { return filepath.Join(s.dir(s.ProcDir, "/proc"), name) }

func (s *Sampler) clock() time.Time {
	if s.now != nil {
		return s.now()
	}
	return time.Now()
}

// Sample returns the load indices of this machine under the names of
// IndexNames, leaving out those it cannot read. ls is 0 when there is no
// utmp file, and it is NoIdle when there is no terminal. ok is false when
// nothing could be read from /proc (it is not mounted, or this is not
// Linux): the map then holds only ls, it and tmp, which say little of the
// machine's load.
func (s *Sampler) Sample() (load map[string]float64, ok bool) {
	now := s.clock()
	load = map[string]float64{}

	var kst kernelStat
	if f, err := os.Open(s.proc("stat")); err == nil {
		kst, err = parseStat(f)
		f.Close()
		if err != nil {
			kst = kernelStat{}
		}
	}
	r1m, r15m, laErr := parseLoadavg(s.readString(s.proc("loadavg")))
	if laErr == nil {
		load["r1m"], load["r15m"] = r1m, r15m
	}
	if kst.hasProcs {
		// procs_running counts the reader; the load averages count
		// uninterruptible processes too.
		n := float64(max(kst.running-1, 0) + kst.blocked)
		switch {
		case s.r15At.IsZero() && laErr == nil:
			s.r15s = r1m
		case s.r15At.IsZero():
			s.r15s = n
		default:
			w := math.Exp(-now.Sub(s.r15At).Seconds() / r15sPeriod.Seconds())
			s.r15s = s.r15s*w + n*(1-w)
		}
		s.r15At = now
		load["r15s"] = s.r15s
	}

	s.sampleRates(now, kst)
	for k, v := range s.rates {
		load[k] = v
	}

	if mi, err := s.meminfo(); err == nil {
		if v, ok := availableKB(mi); ok {
			load["mem"] = float64(v) / 1024
		}
		if v, ok := mi["SwapFree"]; ok {
			load["swp"] = float64(v) / 1024
		}
	}
	if free, _, err := statfsMB(s.dir(s.TmpDir, "/tmp")); err == nil {
		load["tmp"] = free
	}
	for _, name := range []string{"r15s", "r1m", "r15m", "ut", "pg", "io", "swp", "mem"} {
		if _, in := load[name]; in {
			ok = true
		}
	}
	load["ls"] = float64(s.sessions())
	load["it"] = s.idle(now)
	return load, ok
}

// sampleRates updates the rate indices from the counters read now.
func (s *Sampler) sampleRates(now time.Time, kst kernelStat) {
	cur := counters{at: now, cpu: kst.cpu}
	cur.has[0] = kst.hasCPU
	if f, err := os.Open(s.proc("vmstat")); err == nil {
		var ok bool
		cur.pages, ok, err = parseVMStat(f)
		cur.has[1] = ok && err == nil
		f.Close()
	}
	if f, err := os.Open(s.proc("diskstats")); err == nil {
		cur.sectors, err = parseDiskStats(f, s.diskFilter())
		cur.has[2] = err == nil
		f.Close()
	}
	prev := s.last
	if prev == nil {
		// The first rates run from boot, when every counter was 0.
		up, err := parseUptime(s.readString(s.proc("uptime")))
		if err != nil {
			s.last = &cur
			return
		}
		prev = &counters{at: now.Add(-time.Duration(up * float64(time.Second))), has: cur.has}
	}
	dt := cur.at.Sub(prev.at)
	if dt < minRateInterval {
		return
	}
	s.rates = rates(*prev, cur)
	s.last = &cur
}

// rates computes ut, pg and io between two readings of the counters; an
// index whose counter is missing from either is left out, and a counter
// that went back (a device removed, say) counts as unchanged.
func rates(prev, cur counters) map[string]float64 {
	out := map[string]float64{}
	secs := cur.at.Sub(prev.at).Seconds()
	if secs <= 0 {
		return out
	}
	delta := func(a, b uint64) float64 {
		if b < a {
			return 0
		}
		return float64(b - a)
	}
	if prev.has[0] && cur.has[0] {
		if total := delta(prev.cpu.total, cur.cpu.total); total > 0 {
			out["ut"] = min(max(delta(prev.cpu.busy, cur.cpu.busy)/total, 0), 1)
		}
	}
	if prev.has[1] && cur.has[1] {
		out["pg"] = delta(prev.pages, cur.pages) / secs
	}
	if prev.has[2] && cur.has[2] {
		out["io"] = delta(prev.sectors, cur.sectors) / 2 / secs // 512-byte sectors to KB
	}
	return out
}

// diskFilter returns which block devices count for io: the whole disks
// listed in /sys/block that are backed by a device (loop, device-mapper,
// RAID and RAM devices are not), or, when /sys/block cannot be read, those
// wholeDiskName accepts.
func (s *Sampler) diskFilter() func(string) bool {
	block := filepath.Join(s.dir(s.SysDir, "/sys"), "block")
	entries, err := os.ReadDir(block)
	if err != nil || len(entries) == 0 {
		return wholeDiskName
	}
	disks := map[string]bool{}
	for _, e := range entries {
		if _, err := os.Stat(filepath.Join(block, e.Name(), "device")); err == nil {
			disks[e.Name()] = true
		}
	}
	return func(name string) bool { return disks[strings.ReplaceAll(name, "/", "!")] }
}

// meminfo reads /proc/meminfo.
func (s *Sampler) meminfo() (map[string]uint64, error) {
	f, err := os.Open(s.proc("meminfo"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return parseMeminfo(f)
}

// availableKB is the memory available for new work: MemAvailable, or on
// kernels without it, free memory plus buffers and page cache.
func availableKB(mi map[string]uint64) (uint64, bool) {
	if v, ok := mi["MemAvailable"]; ok {
		return v, true
	}
	free, ok := mi["MemFree"]
	return free + mi["Buffers"] + mi["Cached"], ok
}

// statfsMB returns the free (for unprivileged users) and total megabytes
// of the file system holding dir.
func statfsMB(dir string) (free, total float64, err error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, 0, err
	}
	const mb = 1 << 20
	bs := float64(st.Bsize)
	return float64(st.Bavail) * bs / mb, float64(st.Blocks) * bs / mb, nil
}

// sessions counts the login sessions in the utmp file, 0 without one.
func (s *Sampler) sessions() int {
	f, err := os.Open(s.dir(s.UtmpFile, "/var/run/utmp"))
	if err != nil {
		return 0
	}
	defer f.Close()
	n, _ := countSessions(f)
	return n
}

// idle returns the minutes since a terminal (/dev/pts/N or /dev/ttyN) was
// last read from, NoIdle when there is none.
func (s *Sampler) idle(now time.Time) float64 {
	dev := s.dir(s.DevDir, "/dev")
	var latest time.Time
	look := func(dir string, terminal func(string) bool) {
		entries, err := os.ReadDir(dir)
		if err != nil {
			return
		}
		for _, e := range entries {
			if !terminal(e.Name()) {
				continue
			}
			if at, ok := accessTime(filepath.Join(dir, e.Name())); ok && at.After(latest) {
				latest = at
			}
		}
	}
	look(filepath.Join(dev, "pts"), func(name string) bool { return allDigits(name) })
	look(dev, func(name string) bool { return strings.HasPrefix(name, "tty") && allDigits(name[3:]) })
	return idleMinutes(now, latest)
}

// idleMinutes is the it index: the minutes from latest to now, 0 when
// latest is in the future, NoIdle when latest is zero.
func idleMinutes(now, latest time.Time) float64 {
	if latest.IsZero() {
		return NoIdle
	}
	return max(now.Sub(latest).Minutes(), 0)
}

// accessTime returns the last access time of path.
func accessTime(path string) (time.Time, bool) {
	fi, err := os.Stat(path)
	if err != nil {
		return time.Time{}, false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return time.Time{}, false
	}
	return time.Unix(st.Atim.Unix()), true
}

// allDigits reports whether s is a non-empty string of decimal digits.
func allDigits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

// readString returns the content of path, "" when it cannot be read.
func (s *Sampler) readString(path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return string(bytes.TrimSpace(data))
}

// Facts are the static load facts of this machine, as LSF names them.
type Facts struct {
	// Type and Model are the machine's architecture in LSF's spelling
	// (X86_64, AARCH64).
	Type, Model string
	// Ncpus is the number of CPUs this process may use.
	Ncpus float64
	// Nprocs, Ncores and Nthreads are the machine's physical processors,
	// cores per processor and threads per core, as LSF names them, from
	// which LSF counts ncpus as EGO_DEFINE_NCPUS says
	// (compile.CountNcpus); all 0 when the topology cannot be read.
	Nprocs, Ncores, Nthreads float64
	// Maxmem, Maxswp and Maxtmp are the total memory, swap and /tmp space
	// in megabytes; 0 when unknown.
	Maxmem, Maxswp, Maxtmp float64
}

// Facts returns the static facts of this machine.
func (s *Sampler) Facts() Facts {
	t := archType(runtime.GOARCH)
	f := Facts{Type: t, Model: t, Ncpus: float64(runtime.NumCPU())}
	if p, c, th, ok := s.cpuTopology(); ok {
		f.Nprocs, f.Ncores, f.Nthreads = p, c, th
	}
	if mi, err := s.meminfo(); err == nil {
		f.Maxmem = float64(mi["MemTotal"]) / 1024
		f.Maxswp = float64(mi["SwapTotal"]) / 1024
	}
	if _, total, err := statfsMB(s.dir(s.TmpDir, "/tmp")); err == nil {
		f.Maxtmp = total
	}
	return f
}

// archType spells a Go architecture name as LSF's host type.
func archType(goarch string) string {
	switch goarch {
	case "amd64":
		return "X86_64"
	case "arm64":
		return "AARCH64"
	}
	return strings.ToUpper(goarch)
}
