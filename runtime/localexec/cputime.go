package localexec

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"time"
)

// userHZ is the unit of the CPU times of /proc/<pid>/stat: USER_HZ, 100
// ticks a second on Linux whatever the kernel's own tick.
const userHZ = 100

// parseProcCPU reads the process group and the CPU time (user and system,
// with that of the children it waited for) of /proc/<pid>/stat's content,
// in ticks of userHZ.
func parseProcCPU(s string) (pgrp int, ticks uint64, err error) {
	// utime is field 14, stime 15, cutime 16, cstime 17.
	f, pgrp, err := statFields(s, 17)
	if err != nil {
		return 0, 0, err
	}
	for _, k := range []int{11, 12, 13, 14} {
		v, err := strconv.ParseInt(f[k], 10, 64)
		if err != nil {
			return 0, 0, errors.New("process stat has a bad CPU time")
		}
		ticks += uint64(max(v, 0))
	}
	return pgrp, ticks, nil
}

// statFields splits the content of /proc/<pid>/stat after the command
// name, so that field n of proc(5) is f[n-3], and reads the process group
// (field 5); the stat must hold field last at least.
func statFields(s string, last int) (f []string, pgrp int, err error) {
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return nil, 0, errors.New("process stat has no command name")
	}
	f = strings.Fields(s[i+1:])
	if len(f) < last-2 {
		return nil, 0, errors.New("process stat is too short")
	}
	if pgrp, err = strconv.Atoi(f[2]); err != nil {
		return nil, 0, errors.New("process stat has a bad group id")
	}
	return f, pgrp, nil
}

// jobCPUTime returns the CPU time of the running job rec names: its
// cgroup's (cgroupCPU) when it is read from there (CgroupAcct), else
// that of the processes alive in its process group (its cgroup, for a
// job tracked by cgroup), with the time of the children they waited for.
func jobCPUTime(rec pidRecord) time.Duration {
	if rec.CgroupAcct && rec.Cgroup != "" {
		if t, err := cgroupCPU(rec.Cgroup); err == nil {
			return t
		}
	}
	var ticks uint64
	eachJobStat(rec, func(_, stat string) {
		if pgrp, t, err := parseProcCPU(stat); err == nil && rec.owns(pgrp) {
			ticks += t
		}
	})
	return ticksDuration(ticks)
}

// ticksDuration returns n ticks of userHZ as a duration, the longest
// one past it.
func ticksDuration(n uint64) time.Duration {
	secs := n / userHZ
	if secs > uint64(math.MaxInt64/int64(time.Second))-1 {
		return math.MaxInt64
	}
	return time.Duration(secs)*time.Second + time.Duration(n%userHZ)*time.Second/userHZ
}

// CPUTimes returns the CPU time the running jobs ids have used so far
// (jobCPUTime). A job that is not running, or whose processes cannot be
// read, is left out.
func (e *Executor) CPUTimes(ids []int64) map[int64]time.Duration {
	byGroup := map[int]int64{}
	tracked := map[int64]pidRecord{}
	for _, id := range ids {
		rec, _, err := e.running(id)
		switch {
		case err != nil:
		case rec.Cgroup != "":
			tracked[id] = rec
		case rec.JobPID > 1:
			byGroup[rec.JobPID] = id
		}
	}
	out := map[int64]time.Duration{}
	ticks := map[int64]uint64{}
	if len(byGroup) > 0 {
		eachProcStat(func(_, stat string) {
			if pgrp, t, err := parseProcCPU(stat); err == nil {
				if id, ok := byGroup[pgrp]; ok {
					ticks[id] += t
				}
			}
		})
	}
	for id, t := range ticks {
		out[id] = ticksDuration(t)
	}
	// A job tracked by cgroup: the processes of its cgroup, or the
	// cgroup's own count.
	for id, rec := range tracked {
		if t := jobCPUTime(rec); t > 0 || cgroupPopulated(rec.Cgroup) {
			out[id] = t
		}
	}
	return out
}
