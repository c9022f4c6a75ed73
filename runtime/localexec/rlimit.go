package localexec

import (
	"fmt"
	"math"
	"os"
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

// setProcLimits sets this process's limits to soft and hard (KB), for
// a child started next to inherit: a hard limit is only ever lowered, and
// only by a wrapper running as root, which can raise it back (another
// holds its job to the soft limit, under the hard one it has); a soft
// limit is kept under its hard one. It returns what puts the
// wrapper's own limits back, to be called as soon as the child is
// started. The limits are the process's, shared by its threads: between
// the two calls the wrapper starts the job and does nothing else.
func setProcLimits(soft, hard map[string]int64) (restore func(), err error) {
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
	fail := func(err error) (func(), error) {
		restore()
		return func() {}, err
	}
	if bad := badProcLimits(soft) + badProcLimits(hard); bad != "" {
		return func() {}, fmt.Errorf("bad per-process limit %s", bad)
	}
	names := make([]string, 0, len(procLimitResources))
	for n := range procLimitResources {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		s, hasSoft := soft[name]
		h, hasHard := hard[name]
		if !hasSoft && !hasHard {
			continue
		}
		res := procLimitResources[name]
		var old syscall.Rlimit
		if err := syscall.Getrlimit(res, &old); err != nil {
			return fail(fmt.Errorf("%s: %v", name, err))
		}
		lim := old
		if hasHard && uint64(h)*1024 < lim.Max {
			if os.Geteuid() == 0 {
				lim.Max = uint64(h) * 1024
			} else if !hasSoft {
				s, hasSoft = h, true
			} else {
				s = min(s, h)
			}
		}
		if hasSoft {
			lim.Cur = uint64(s) * 1024
		}
		lim.Cur = min(lim.Cur, lim.Max)
		if err := syscall.Setrlimit(res, &lim); err != nil {
			return fail(fmt.Errorf("%s: %v", name, err))
		}
		done = append(done, saved{res, old})
	}
	return restore, nil
}
