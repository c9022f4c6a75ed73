package localexec

import (
	"fmt"
	"os"
	"runtime/debug"
)

// survive, deferred first thing in a goroutine that a job's wrapper
// starts (its mail, its terminal's streams, a step as its user),
// recovers a fault of that goroutine: in the host's supervisor a panic
// would otherwise end the process and lose every job it runs. It writes
// the fault to the standard error (the supervisor's log) and calls then,
// if not nil, with it, so that whoever waits for the goroutine is told.
// id is the job's, 0 when the goroutine does not know it.
func survive(id int64, what string, then func(fault error)) {
	p := recover()
	if p == nil {
		return
	}
	job := ""
	if id > 0 {
		job = fmt.Sprintf("job %d: ", id)
	}
	fmt.Fprintf(os.Stderr, "%s: %s%s: internal error: %v\n%s", StarterName, job, what, p, debug.Stack())
	if then != nil {
		then(fmt.Errorf("%s: internal error: %v", what, p))
	}
}
