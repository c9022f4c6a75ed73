package localexec

import (
	"bufio"
	"errors"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"
)

// A job's resource usage, for its report, is read from /proc while it
// runs: first usageFirst after its start, then at twice the interval each
// time, up to usageEvery. A job that ends before the first reading has
// only what its end tells (CPU time and the largest resident set).
const (
	usageFirst = 500 * time.Millisecond
	usageEvery = 10 * time.Second
)

// A usageSummary is what the readings of a job's processes found.
type usageSummary struct {
	samples    int   // the readings that found the job's processes
	maxKB      int64 // the most resident memory, summed over the processes
	sumKB      int64 // the sum of the readings' memory, for the average
	maxSwapKB  int64 // the most swap, summed over the processes
	maxProcs   int   // the most processes at once
	maxThreads int   // the most threads at once
}

// add counts one reading.
func (u *usageSummary) add(g groupUsage) {
	u.samples++
	u.maxKB = max(u.maxKB, g.rssKB)
	u.sumKB += g.rssKB
	u.maxSwapKB = max(u.maxSwapKB, g.swapKB)
	u.maxProcs = max(u.maxProcs, g.procs)
	u.maxThreads = max(u.maxThreads, g.threads)
}

// A groupUsage is one reading of a process group.
type groupUsage struct {
	rssKB, swapKB  int64
	procs, threads int
}

// parseProcUsage reads the process group, the number of threads and the
// resident set size (pages) of /proc/<pid>/stat's content.
func parseProcUsage(s string) (pgrp, threads int, pages int64, err error) {
	// num_threads is field 20, rss field 24.
	f, pgrp, err := statFields(s, 24)
	if err != nil {
		return 0, 0, 0, err
	}
	if threads, err = strconv.Atoi(f[17]); err != nil || threads < 0 {
		return 0, 0, 0, errors.New("process stat has a bad thread count")
	}
	if pages, err = strconv.ParseInt(f[21], 10, 64); err != nil || pages < 0 {
		return 0, 0, 0, errors.New("process stat has a bad resident set size")
	}
	return pgrp, threads, pages, nil
}

// swapKB returns the VmSwap of /proc/<pid>/status, 0 when unknown.
func swapKB(pid string) int64 {
	f, err := os.Open("/proc/" + pid + "/status")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "VmSwap:"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return n
		}
	}
	return 0
}

// readJobUsage reads the processes of the job rec names; ok is false
// when none is left or they cannot be read.
func readJobUsage(rec pidRecord) (groupUsage, bool) {
	var g groupUsage
	var pages int64
	read := eachJobStat(rec, func(pid, stat string) {
		pgrp, threads, n, err := parseProcUsage(stat)
		if err != nil || !rec.owns(pgrp) {
			return
		}
		g.procs++
		g.threads += threads
		pages += n
		g.swapKB += swapKB(pid)
	})
	g.rssKB = pages * int64(os.Getpagesize()) / 1024
	return g, read && g.procs > 0
}

// A usageWatch reads a running job's usage; see usageFirst.
type usageWatch struct {
	rec  pidRecord
	stop chan struct{}
	done chan struct{}

	mu  sync.Mutex
	sum usageSummary
}

// watchUsage starts reading the usage of the job rec names.
func watchUsage(rec pidRecord) *usageWatch {
	u := &usageWatch{rec: rec, stop: make(chan struct{}), done: make(chan struct{})}
	go u.run()
	return u
}

func (u *usageWatch) run() {
	defer close(u.done)
	every := usageFirst
	t := time.NewTimer(every)
	defer t.Stop()
	for {
		select {
		case <-u.stop:
			return
		case <-t.C:
		}
		if g, ok := readJobUsage(u.rec); ok {
			u.mu.Lock()
			u.sum.add(g)
			u.mu.Unlock()
		}
		every = min(2*every, usageEvery)
		t.Reset(every)
	}
}

// end stops the readings and returns what they found.
func (u *usageWatch) end() usageSummary {
	close(u.stop)
	<-u.done
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.sum
}
