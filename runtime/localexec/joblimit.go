package localexec

import (
	"errors"
	"fmt"
	"sort"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// jobLimitTerms maps the limits of Spec.JobLimits, which hold for the
// whole job rather than each process, to LSF's reason for a job ended
// past one.
var jobLimitTerms = map[string]string{
	"SWAPLIMIT":    "TERM_SWAP",
	"PROCESSLIMIT": "TERM_PROCESSLIMIT",
	"THREADLIMIT":  "TERM_THREADLIMIT",
}

// JobLimitName reports whether name is a limit of the whole job a Spec
// can carry (SWAPLIMIT, PROCESSLIMIT or THREADLIMIT).
func JobLimitName(name string) bool {
	_, ok := jobLimitTerms[name]
	return ok
}

// badJobLimits returns the first limit of l that is unknown or not
// positive, as NAME=VALUE, or "".
func badJobLimits(l map[string]int64) string {
	names := make([]string, 0, len(l))
	for n := range l {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if v := l[n]; !JobLimitName(n) || v <= 0 {
			return fmt.Sprintf("%s=%d", n, v)
		}
	}
	return ""
}

// A limitUsage is what the processes of a job's process group hold: their
// virtual memory in KB, their number and the number of their threads.
type limitUsage struct {
	vmKB, procs, threads int64
}

// parseProcGroupUsage reads the process group, virtual memory size
// (bytes) and number of threads of /proc/<pid>/stat's content.
func parseProcGroupUsage(s string) (pgrp int, vsize, threads int64, err error) {
	// num_threads is field 20, vsize field 23.
	f, pgrp, err := statFields(s, 23)
	if err != nil {
		return 0, 0, 0, err
	}
	threads, err1 := strconv.ParseInt(f[17], 10, 64)
	vsize, err2 := strconv.ParseInt(f[20], 10, 64)
	if err1 != nil || err2 != nil || threads < 0 || vsize < 0 {
		return 0, 0, 0, errors.New("process stat has a bad thread count or virtual memory size")
	}
	return pgrp, vsize, threads, nil
}

// limitUsageOf sums the usage of the processes of the job rec names; ok
// is false when they cannot be read or none is left.
func limitUsageOf(rec pidRecord) (u limitUsage, ok bool) {
	read := eachJobStat(rec, func(_, stat string) {
		if pgrp, vsize, threads, err := parseProcGroupUsage(stat); err == nil && rec.owns(pgrp) {
			u.vmKB += vsize / 1024
			u.procs++
			u.threads += threads
		}
	})
	return u, read && u.procs > 0
}

// over returns the LSF reason for the first limit of l that u is past,
// "" for none.
func (u limitUsage) over(l map[string]int64) string {
	for _, c := range []struct {
		name string
		used int64
	}{{"SWAPLIMIT", u.vmKB}, {"PROCESSLIMIT", u.procs}, {"THREADLIMIT", u.threads}} {
		if max, ok := l[c.name]; ok && c.used > max {
			return jobLimitTerms[c.name]
		}
	}
	return ""
}

// A jobLimitWatch enforces the limits of a running job that hold for
// the whole job (Spec.JobLimits): every interval it reads the job's
// process group and, past a limit, terminates the job as past its memory
// limit.
type jobLimitWatch struct {
	rec    pidRecord
	limits map[string]int64
	every  time.Duration
	grace  time.Duration

	stop, done chan struct{}

	mu   sync.Mutex
	term string // the reason the job was terminated, "" for none
}

func watchJobLimits(rec pidRecord, limits map[string]int64, every, grace time.Duration) *jobLimitWatch {
	w := &jobLimitWatch{rec: rec, limits: limits, every: every, grace: grace,
		stop: make(chan struct{}), done: make(chan struct{})}
	go w.run()
	return w
}

func (w *jobLimitWatch) run() {
	defer close(w.done)
	tick := time.NewTicker(w.every)
	defer tick.Stop()
	for {
		select {
		case <-w.stop:
			return
		case <-tick.C:
		}
		u, ok := limitUsageOf(w.rec)
		if !ok {
			continue
		}
		if term := u.over(w.limits); term != "" {
			w.mu.Lock()
			w.term = term
			w.mu.Unlock()
			w.rec.signalGroup(syscall.SIGINT)
			w.rec.signalGroup(syscall.SIGCONT)
			terminate(w.rec, w.grace)
			return
		}
	}
}

// end stops the watch, once the job's shell has ended, and returns the
// reason the job was terminated for, "" for none.
func (w *jobLimitWatch) end() string {
	close(w.stop)
	<-w.done
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.term
}
