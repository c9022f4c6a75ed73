// Package runtime is lsfc's scheduler: it takes a compiled Policy and a
// stream of submissions and runs them as mbatchd does.
//
// A Cluster holds the state: hosts (their facts and load, slots held,
// lsb.hosts settings), queues (their limits, windows and counters), jobs
// (LSF's states PEND, PSUSP, RUN, USUSP, SSUSP, DONE, EXIT, UNKWN, ZOMBI)
// and the lsb.resources limits. Submissions go through the queue's
// acceptance checks (or to the first DEFAULT_QUEUE that accepts them).
//
// A Scheduler runs cycles. A cycle is a pure step from a Snapshot of the
// cluster to a Plan: it takes the pending jobs in LSF's order (queue
// priority, queues of equal priority first come first served, user
// priority, btop/bbot, submission order), passes each through the
// plugins of its registry — job filters (holds, dependencies, windows,
// QJOB_LIMIT, UJOB_LIMIT, MAX_JOBS, lsb.resources), host filters (HOSTS,
// status, loadSched, select) and host limiters (MXJ, HJOB_LIMIT,
// PJOB_LIMIT, JL/U, JOB_ACCEPT_INTERVAL, host windows, host-bound limits)
// — and places it on the queue's preferred hosts first (HOSTS host+N),
// then by order[], span[], same[] and rusage (available = configured −
// max(reserved, used); reservations with a duration, decay or phases
// shrink as the job runs). A job no host can take is passed over; later
// jobs may use hosts it cannot. Every pending job keeps the reason of the
// last cycle, and Scheduler.Explain gives each host's reason on request
// (bjobs -p -l). The cost grows with the distinct work, not jobs × hosts:
// pending jobs are grouped into classes (one queue, one requirement) kept
// in order with a tree of their slot demands, hosts with identical values
// into host classes on which each select is evaluated once, and the
// filters' results are kept until the hosts change.
//
// Dependencies (bsub -w) are parsed by package lang and resolved at
// submission: a job number must exist, a job name stands for the
// submitter's jobs of that name (the latest only with JOB_DEP_LAST_SUB=1).
// A condition that can never hold again leaves the job pending with LSF's
// "Dependency condition invalid or never satisfied".
//
// An Engine applies plans on a clock through an executor. Simulate runs
// the engine on a virtual clock, event-driven (a cycle at every
// submission, job end, command, and when an accept interval, a window or
// a reservation ends), and Replay feeds it a Standard Workload Format trace (package
// swf) for lsfc simulate, whose metrics package simstats computes.
package runtime
