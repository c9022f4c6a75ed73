package localexec

import (
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
)

// Each job a process watches holds an OS thread while it waits: the
// supervisor runs a job's wrapper on a thread of its own for the job's
// life, and an Executor waits for each job's own wrapper in a system call.
// Go ends a program whose threads pass 10,000 (debug.SetMaxThreads) with
// a fatal error, which would take every job's record of its end with it
// on a host that runs that many jobs at once. raiseThreadLimit lifts
// Go's bound to the kernel's (/proc/sys/kernel/threads-max). A lower
// bound of the process's own (its user's RLIMIT_NPROC, a service's task
// limit) still holds: a thread it refuses ends the process as well, so
// hosts that run this many jobs need those raised too.

// minThreads is Go's own bound, which the limit never goes under.
const minThreads = 10000

var raiseOnce sync.Once

// raiseThreadLimit raises the process's thread limit to the kernel's,
// once.
func raiseThreadLimit() {
	raiseOnce.Do(func() {
		data, _ := os.ReadFile("/proc/sys/kernel/threads-max")
		if n := threadLimit(string(data)); n > minThreads {
			debug.SetMaxThreads(n)
		}
	})
}

// threadLimit returns the thread limit for the kernel's threads-max as
// its file holds it: that number, within [minThreads, 1<<22] (the most
// threads Linux allows), or minThreads when it cannot be read.
func threadLimit(threadsMax string) int {
	n, err := strconv.Atoi(strings.TrimSpace(threadsMax))
	if err != nil {
		return minThreads
	}
	return min(max(n, minThreads), 1<<22)
}
