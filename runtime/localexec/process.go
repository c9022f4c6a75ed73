package localexec

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"syscall"
)

// A procStat is what the Executor needs from /proc/<pid>/stat.
type procStat struct {
	State byte   // R, S, D, T, t, Z, X, ...
	Pgrp  int    // process group id
	Start uint64 // start time in clock ticks since boot
}

// parseProcStat reads the content of /proc/<pid>/stat. The command name,
// in parentheses, may itself hold blanks and parentheses: the fields that
// follow are found after the last ')'.
func parseProcStat(s string) (procStat, error) {
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return procStat{}, errors.New("process stat has no command name")
	}
	f := strings.Fields(s[i+1:])
	// f[0] is field 3 (state), so field n is f[n-3]: pgrp is 5, starttime 22.
	if len(f) < 20 || len(f[0]) != 1 {
		return procStat{}, errors.New("process stat is too short")
	}
	pgrp, err := strconv.Atoi(f[2])
	if err != nil {
		return procStat{}, fmt.Errorf("process stat has a bad group id %q", f[2])
	}
	start, err := strconv.ParseUint(f[19], 10, 64)
	if err != nil {
		return procStat{}, fmt.Errorf("process stat has a bad start time %q", f[19])
	}
	return procStat{State: f[0][0], Pgrp: pgrp, Start: start}, nil
}

// readProcStat reads /proc/<pid>/stat ("self" for pid 0).
func readProcStat(pid int) (procStat, error) {
	name := "self"
	if pid > 0 {
		name = strconv.Itoa(pid)
	}
	data, err := readFile("/proc/" + name + "/stat")
	if err != nil {
		return procStat{}, err
	}
	return parseProcStat(string(data))
}

// processStart returns the start time of process pid (0: this one).
func processStart(pid int) (uint64, error) {
	if pid == 0 {
		return selfStart()
	}
	st, err := readProcStat(pid)
	return st.Start, err
}

// ownStart is this process's start time once read (0 until then): the
// host's supervisor names itself in every job's pid record.
var ownStart struct {
	sync.Mutex
	start uint64
}

// selfStart returns this process's start time.
func selfStart() (uint64, error) {
	ownStart.Lock()
	defer ownStart.Unlock()
	if ownStart.start != 0 {
		return ownStart.start, nil
	}
	st, err := readProcStat(0)
	if err == nil {
		ownStart.start = st.Start
	}
	return st.Start, err
}

// alive reports whether process pid exists, started at start, and is not
// a zombie.
func alive(pid int, start uint64) bool {
	if pid <= 1 {
		return false
	}
	st, err := readProcStat(pid)
	return err == nil && st.Start == start && st.State != 'Z' && st.State != 'X'
}

// wrapperAlive reports whether the job's wrapper still runs.
func (p pidRecord) wrapperAlive() bool { return alive(p.WrapperPID, p.WrapperStart) }

// wrapperRuns tells whether the job's wrapper may still run, for a job
// whose lock is free: its own process is alive. A supervisor outlives
// its jobs: with its lock free, a supervised job's wrapper has ended.
func (p pidRecord) wrapperRuns() bool { return !p.Supervised && p.wrapperAlive() }

// leaderAlive reports whether the job's first process (the shell) still
// runs.
func (p pidRecord) leaderAlive() bool { return alive(p.JobPID, p.JobStart) }

// signalGroup sends sig to every process of the job: those of its
// cgroup when it has one (see cgroup.go), of its process group otherwise;
// the error is syscall.ESRCH when there is none. It never signals a
// group id below 2, which would reach this process's own group or every
// process.
func (p pidRecord) signalGroup(sig syscall.Signal) error {
	if p.Cgroup != "" {
		return signalCgroup(p.Cgroup, sig)
	}
	if p.JobPID <= 1 {
		return errors.New("it has no processes")
	}
	return syscall.Kill(-p.JobPID, sig)
}

// groupAlive reports whether the job has a process left: in its cgroup
// when it has one, in its process group otherwise.
func (p pidRecord) groupAlive() bool {
	if p.Cgroup != "" {
		return cgroupPopulated(p.Cgroup)
	}
	return p.JobPID > 1 && syscall.Kill(-p.JobPID, 0) != syscall.ESRCH
}
