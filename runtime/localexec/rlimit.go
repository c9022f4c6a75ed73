package localexec

import (
	"fmt"
	"math"
	"sort"
	"syscall"
)

// procLimitResources maps the per-process limits of Spec.ProcLimits to
// the resources of setrlimit(2).
var procLimitResources = map[string]int{
	"CORELIMIT":  syscall.RLIMIT_CORE,
	"DATALIMIT":  syscall.RLIMIT_DATA,
	"FILELIMIT":  syscall.RLIMIT_FSIZE,
	"STACKLIMIT": syscall.RLIMIT_STACK,
}

// ProcLimitName reports whether name is a per-process limit a Spec can
// carry (CORELIMIT, DATALIMIT, FILELIMIT or STACKLIMIT).
func ProcLimitName(name string) bool {
	_, ok := procLimitResources[name]
	return ok
}

// badProcLimits returns the first limit of l that is unknown or out of
// range, as NAME=VALUE, or "".
func badProcLimits(l map[string]int64) string {
	names := make([]string, 0, len(l))
	for n := range l {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if kb := l[n]; !ProcLimitName(n) || kb < 0 || kb > math.MaxInt64/1024 {
			return fmt.Sprintf("%s=%d", n, kb)
		}
	}
	return ""
}

// setProcLimits lowers this process's soft limits to l (KB), never above
// their hard limits, for a child started next to inherit, and returns
// what puts the wrapper's own limits back, to be called as soon as the
// child is started. The limits are the process's, shared by its
// threads: between the two calls the wrapper starts the job and does
// nothing else.
func setProcLimits(l map[string]int64) (restore func(), err error) {
	type saved struct {
		res int
		old syscall.Rlimit
	}
	var done []saved
	restore = func() {
		for _, s := range done {
			syscall.Setrlimit(s.res, &s.old)
		}
	}
	for name, kb := range l {
		res, ok := procLimitResources[name]
		if !ok {
			restore()
			return func() {}, fmt.Errorf("unknown per-process limit %s", name)
		}
		var old syscall.Rlimit
		if err := syscall.Getrlimit(res, &old); err != nil {
			restore()
			return func() {}, fmt.Errorf("%s: %v", name, err)
		}
		cur := uint64(kb) * 1024
		if cur > old.Max {
			cur = old.Max
		}
		if err := syscall.Setrlimit(res, &syscall.Rlimit{Cur: cur, Max: old.Max}); err != nil {
			restore()
			return func() {}, fmt.Errorf("%s: %v", name, err)
		}
		done = append(done, saved{res, old})
	}
	return restore, nil
}
