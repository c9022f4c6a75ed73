package localexec

import (
	"errors"
	"os"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// A job with a memory limit (Spec.MemLimit) has its resident memory read
// every memCheckInterval by its wrapper; past the limit it is terminated
// as bkill terminates a job (SIGINT, then SIGTERM, then SIGKILL), with
// memKillGrace between the signals: a job over its limit may still be
// growing, so it gets less time than JOB_TERMINATE_INTERVAL gives.
const (
	memCheckInterval = time.Second
	memKillGrace     = time.Second
)

// parseProcRSS reads the process group and the resident set size, in
// pages, of /proc/<pid>/stat's content.
func parseProcRSS(s string) (pgrp int, pages int64, err error) {
	// rss is field 24.
	f, pgrp, err := statFields(s, 24)
	if err != nil {
		return 0, 0, err
	}
	if pages, err = strconv.ParseInt(f[21], 10, 64); err != nil || pages < 0 {
		return 0, 0, errors.New("process stat has a bad resident set size")
	}
	return pgrp, pages, nil
}

// eachProcStat calls fn with the pid and the content of /proc/<pid>/stat
// of every process; processes that end meanwhile are skipped. It reports
// whether /proc could be read.
func eachProcStat(fn func(pid, stat string)) bool {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return false
	}
	for _, ent := range ents {
		if _, err := strconv.Atoi(ent.Name()); err != nil {
			continue
		}
		data, err := readFile("/proc/" + ent.Name() + "/stat")
		if err != nil {
			continue // gone meanwhile
		}
		fn(ent.Name(), string(data))
	}
	return true
}

// eachJobStat calls fn with the pid and the content of /proc/<pid>/stat of
// the processes that may be the job's that rec names: those of its cgroup
// and of the cgroups below it, for a job tracked by cgroup; every process
// otherwise, of which fn keeps those rec.owns. It reports whether they
// could be read.
func eachJobStat(rec pidRecord, fn func(pid, stat string)) bool {
	if rec.Cgroup == "" {
		return eachProcStat(fn)
	}
	if _, err := os.Stat(rec.Cgroup); err != nil {
		return false
	}
	for _, pid := range cgroupTreePids(rec.Cgroup) {
		id := strconv.Itoa(pid)
		if data, err := readFile("/proc/" + id + "/stat"); err == nil {
			fn(id, string(data))
		}
	}
	return true
}

// owns reports whether a process of process group pgrp, of those
// eachJobStat gives for p, is the job's: any of its cgroup's, or one of
// its process group.
func (p pidRecord) owns(pgrp int) bool { return p.Cgroup != "" || pgrp == p.JobPID }

// jobRSS returns the resident memory, in kilobytes, of the processes of
// the job rec names, summed as LSF sums a job's memory; ok is false when
// they cannot be read or none is left.
func jobRSS(rec pidRecord) (kb int64, ok bool) {
	var pages int64
	found := false
	read := eachJobStat(rec, func(_, stat string) {
		if pgrp, n, err := parseProcRSS(stat); err == nil && rec.owns(pgrp) {
			pages += n
			found = true
		}
	})
	return pages * int64(os.Getpagesize()) / 1024, read && found
}

// A memWatch enforces the memory limit of a running job: see
// memCheckInterval.
type memWatch struct {
	rec     pidRecord // the job's process group
	limitKB int64
	every   time.Duration
	grace   time.Duration

	stop chan struct{}
	done chan struct{}

	mu     sync.Mutex
	peakKB int64 // the most memory seen
	over   bool  // the job went past its limit and was terminated
}

// watchMemory starts watching the memory of the job whose process group
// is rec.JobPID, every interval, against limitKB kilobytes; past it the
// signals go to the job's processes as rec names them.
func watchMemory(rec pidRecord, limitKB int64, every, grace time.Duration) *memWatch {
	m := &memWatch{rec: rec, limitKB: limitKB, every: every, grace: grace,
		stop: make(chan struct{}), done: make(chan struct{})}
	go m.run()
	return m
}

func (m *memWatch) run() {
	defer close(m.done)
	tick := time.NewTicker(m.every)
	defer tick.Stop()
	for {
		select {
		case <-m.stop:
			return
		case <-tick.C:
		}
		kb, ok := jobRSS(m.rec)
		if !ok {
			continue
		}
		m.mu.Lock()
		m.peakKB = max(m.peakKB, kb)
		over := kb > m.limitKB
		m.over = m.over || over
		m.mu.Unlock()
		if over {
			m.rec.signalGroup(syscall.SIGINT)
			m.rec.signalGroup(syscall.SIGCONT)
			terminate(m.rec, m.grace)
			return
		}
	}
}

// end stops the watch, once the job's shell has ended, and returns the
// most memory seen (kilobytes) and whether the job was terminated for
// going past its limit. A termination in progress is finished first.
func (m *memWatch) end() (peakKB int64, over bool) {
	close(m.stop)
	<-m.done
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.peakKB, m.over
}
