package localexec

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// cpuTimes are the CPU time counters of /proc/stat's "cpu" line, in clock
// ticks: busy counts every state but idle and iowait.
type cpuTimes struct {
	busy, total uint64
}

// A kernelStat is what the Sampler takes from /proc/stat.
type kernelStat struct {
	cpu      cpuTimes
	hasCPU   bool
	running  int // procs_running, the reader included
	blocked  int // procs_blocked
	hasProcs bool
}

// parseStat reads /proc/stat. The "cpu" line's fields are user, nice,
// system, idle, iowait, irq, softirq, steal, guest and guest_nice; guest
// time is already counted in user and nice, so it is left out of the
// total. Kernels that give fewer fields are read as far as they go.
func parseStat(r io.Reader) (kernelStat, error) {
	var st kernelStat
	var running, blocked bool
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 2 {
			continue
		}
		switch f[0] {
		case "cpu":
			var t [8]uint64
			n := min(len(f)-1, len(t))
			if n < 4 {
				return kernelStat{}, fmt.Errorf("cpu line has %d fields, want at least 4", len(f)-1)
			}
			for i := range n {
				v, err := strconv.ParseUint(f[i+1], 10, 64)
				if err != nil {
					return kernelStat{}, fmt.Errorf("cpu line has a bad counter %q", f[i+1])
				}
				t[i] = v
			}
			idle := t[3] + t[4]
			for _, v := range t {
				st.cpu.total += v
			}
			st.cpu.busy = st.cpu.total - idle
			st.hasCPU = true
		case "procs_running", "procs_blocked":
			v, err := strconv.Atoi(f[1])
			if err != nil || v < 0 {
				return kernelStat{}, fmt.Errorf("%s has a bad count %q", f[0], f[1])
			}
			if f[0] == "procs_running" {
				st.running, running = v, true
			} else {
				st.blocked, blocked = v, true
			}
		}
	}
	if err := sc.Err(); err != nil {
		return kernelStat{}, err
	}
	st.hasProcs = running && blocked
	return st, nil
}

// parseLoadavg reads /proc/loadavg ("0.08 0.21 0.40 1/86 9954") and
// returns its 1-minute and 15-minute run queue averages.
func parseLoadavg(s string) (r1m, r15m float64, err error) {
	f := strings.Fields(s)
	if len(f) < 3 {
		return 0, 0, errors.New("loadavg has fewer than 3 fields")
	}
	if r1m, err = strconv.ParseFloat(f[0], 64); err != nil || r1m < 0 {
		return 0, 0, fmt.Errorf("loadavg has a bad average %q", f[0])
	}
	if r15m, err = strconv.ParseFloat(f[2], 64); err != nil || r15m < 0 {
		return 0, 0, fmt.Errorf("loadavg has a bad average %q", f[2])
	}
	return r1m, r15m, nil
}

// parseUptime reads /proc/uptime and returns the seconds since boot.
func parseUptime(s string) (float64, error) {
	f := strings.Fields(s)
	if len(f) == 0 {
		return 0, errors.New("uptime is empty")
	}
	v, err := strconv.ParseFloat(f[0], 64)
	if err != nil || v < 0 {
		return 0, fmt.Errorf("uptime has a bad value %q", f[0])
	}
	return v, nil
}

// parseVMStat reads /proc/vmstat and returns the pages swapped in and out
// since boot (pswpin + pswpout); ok is false when neither is there.
func parseVMStat(r io.Reader) (pages uint64, ok bool, err error) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		name, val, found := strings.Cut(sc.Text(), " ")
		if !found || (name != "pswpin" && name != "pswpout") {
			continue
		}
		v, err := strconv.ParseUint(strings.TrimSpace(val), 10, 64)
		if err != nil {
			return 0, false, fmt.Errorf("vmstat has a bad %s %q", name, val)
		}
		pages += v
		ok = true
	}
	return pages, ok, sc.Err()
}

// parseDiskStats reads /proc/diskstats and returns the 512-byte sectors
// read and written since boot by the devices for which isDisk holds. Each
// line is major, minor, name, then reads completed, reads merged, sectors
// read, time reading, writes completed, writes merged, sectors written and
// more.
func parseDiskStats(r io.Reader, isDisk func(name string) bool) (sectors uint64, err error) {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		if len(f) < 10 {
			return 0, fmt.Errorf("diskstats line %q is too short", sc.Text())
		}
		if !isDisk(f[2]) {
			continue
		}
		for _, s := range []string{f[5], f[9]} {
			v, err := strconv.ParseUint(s, 10, 64)
			if err != nil {
				return 0, fmt.Errorf("diskstats has a bad sector count %q for %s", s, f[2])
			}
			sectors += v
		}
	}
	return sectors, sc.Err()
}

// wholeDiskName guesses from its name whether a block device is a whole
// disk rather than a partition, and a real one rather than a loop, RAM,
// compressed-RAM, device-mapper, software RAID, optical or floppy device,
// whose traffic is either not disk traffic or counted again on the disks
// below. It serves when /sys/block cannot be read.
func wholeDiskName(name string) bool {
	for _, p := range []string{"loop", "ram", "zram", "dm-", "md", "sr", "fd"} {
		if strings.HasPrefix(name, p) {
			return false
		}
	}
	stem := strings.TrimRight(name, "0123456789")
	switch stem {
	case "":
		return false
	case name:
		return true // sda, vdb: no number at all
	}
	// nvme0n1p2, mmcblk0p1: a "p" after a digit starts a partition number.
	if n := len(stem); stem[n-1] == 'p' && n >= 2 && stem[n-2] >= '0' && stem[n-2] <= '9' {
		return false
	}
	// sda1, vdb2, xvda1, hdc3: these disks are named by letters alone.
	for _, p := range []string{"sd", "vd", "hd", "xvd"} {
		if strings.HasPrefix(name, p) {
			return false
		}
	}
	return true
}

// parseMeminfo reads /proc/meminfo and returns its values in kilobytes
// (the unit it states; values without a unit are taken as they are).
func parseMeminfo(r io.Reader) (map[string]uint64, error) {
	m := map[string]uint64{}
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		name, rest, found := strings.Cut(sc.Text(), ":")
		if !found {
			continue
		}
		f := strings.Fields(rest)
		if len(f) == 0 {
			continue
		}
		v, err := strconv.ParseUint(f[0], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("meminfo has a bad %s %q", name, f[0])
		}
		m[name] = v
	}
	return m, sc.Err()
}
