package testkit

import (
	"fmt"
	"strings"
	"time"
)

// BurnCommand is a job's command that starts a process leaving the job's
// process tree (its parent exits at once, so that another process reaps
// it); the process writes its pid to burnt.pid, uses some CPU, writes
// the CPU time it used (the shell's times) to the file burnt in the
// job's directory and exits. What follows it in a job's command decides
// how long the job runs on.
const BurnCommand = "( setsid sh -c 'echo $$ > burnt.pid; i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done; times > burnt.tmp; mv burnt.tmp burnt' & )"

// ShellTimes returns the CPU time, user and system, of a shell by the
// first line of its times builtin's output ("0m0.220000s 0m0.010000s").
func ShellTimes(out string) (time.Duration, error) {
	first, _, _ := strings.Cut(out, "\n")
	fields := strings.Fields(first)
	if len(fields) != 2 {
		return 0, fmt.Errorf("times printed %q", out)
	}
	var sum time.Duration
	for _, f := range fields {
		m, s, ok := strings.Cut(strings.TrimSuffix(f, "s"), "m")
		d, err := time.ParseDuration(m + "m" + s + "s")
		if !ok || err != nil || d < 0 {
			return 0, fmt.Errorf("times printed %q", out)
		}
		sum += d
	}
	return sum, nil
}
