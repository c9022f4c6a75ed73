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
// PJOB_LIMIT, JL/U, JOB_ACCEPT_INTERVAL, host windows, host-bound limits,
// the slots other jobs reserved) — and places it on the queue's preferred hosts first (HOSTS host+N),
// then by order[], span[], same[] and rusage (available = configured −
// max(reserved, used); reservations with a duration, decay or phases
// shrink as the job runs). A job no host can take is passed over; later
// jobs may use hosts it cannot, unless its queue reserves (SLOT_RESERVE,
// RESOURCE_RESERVE): it then holds the free slots of the hosts it will
// run on, which only backfill jobs that end before its predicted start
// may borrow (see reserve.go). Every pending job keeps the reason of the
// last cycle, and Scheduler.Explain gives each host's reason on request
// (bjobs -p -l). The cost grows with the distinct work, not jobs × hosts:
// pending jobs are grouped into classes (one queue, one requirement) kept
// in order with a tree of their slot demands, hosts with identical values
// into host classes on which each select is evaluated once, and the
// filters' results are kept until the hosts change.
//
// The plugins — job filters, host filters, host limiters, load
// controllers and exception checks — see the cycle through read-only
// views (CycleState, JobInfo, ClassInfo, QueueInfo, HostInfo), never the
// cluster itself, so that a caller can add its own: Builtins is the
// registry of LSF's rules by name, DefaultProfile their order, and a
// caller adds its plugins to the registry, names them in its profile and
// hands the Plugins to NewScheduler, as LSF's own are given.
//
// Preemption, fairshare and load control are further plugins of the same
// cycle. A queue may preempt another of lower priority when it is
// PREEMPTIVE (for every lower queue, or those it lists, preferring those
// with +N) or the other is PREEMPTABLE. A job of such a queue that no host
// can take as things stand is placed as if the jobs it may preempt were
// gone, on the least loaded hosts first, and as few victims as cover each
// host's lack are suspended (SSUSP), or killed with TERMINATE_WHEN=PREEMPT;
// a job preempted MAX_JOB_PREEMPT times (its profile's, else its queue's,
// else lsb.params') runs to completion. A preempted job keeps its slots,
// which only the queues that may preempt it can use, leaves its user's
// MAX_JOBS (and the limits PREEMPT_FOR names), and resumes as soon as its
// slots are free, before the pending jobs of its queue. The queues of a
// slot pool (SLOT_POOL) are scheduled together, the one holding least of
// its SLOT_SHARE first, and each cycle divides the pool's slots among the
// queues with work by their shares, so that a queue keeps its share while
// others compete and takes what they leave; past use, decayed over
// HIST_HOURS, breaks ties. In a FAIRSHARE queue, jobs go by their share
// account's dynamic priority, shares / (cpu_time × CPU_TIME_FACTOR +
// run_time × RUN_TIME_FACTOR + (1 + job_slots) × RUN_JOB_FACTOR), which
// drops within a cycle as the account's jobs are dispatched. Load control
// suspends a running job where a loadStop threshold or STOP_COND holds and
// resumes it where loadSched (or RESUME_COND) allows, one job per host
// every SBD_SLEEP_TIME.
//
// An exclusive job (bsub -x, in a queue with EXCLUSIVE = Y) goes only to
// hosts that run no other job, and no job joins it there while it runs;
// it is not preempted unless PREEMPT_JOBTYPE says EXCLUSIVE.
//
// Dependencies (bsub -w) are parsed by package lang and resolved at
// submission: a job number must exist, a job name stands for the
// submitter's jobs of that name (the latest only with JOB_DEP_LAST_SUB=1).
// A condition that can never hold again leaves the job pending with LSF's
// "Dependency condition invalid or never satisfied".
//
// MultiCluster job forwarding enters the cycle as a Forwarder (package mc
// makes one from what the remote clusters report): the pending jobs of
// send-jobs queues that the cycle could not dispatch for want of hosts go
// to it in dispatch order, and the plan lists where each is forwarded
// (Plan.Forwards) or keeps its MultiCluster pending reason. A forwarded
// job (Job.Remote) leaves its queue's pending jobs and holds no local
// slot; it shows PEND until it starts remotely, then RUN (or USUSP, SSUSP)
// on hosts named host@cluster, and comes back pending, or PSUSP after too
// many failed remote starts. A job received from another cluster is a job
// like any other whose submission names its home (Submission.Home).
//
// An Engine applies plans on a clock through an executor. Package
// runtime/sim runs the engine on a virtual clock, event-driven, and
// replays Standard Workload Format traces through it for lsfc simulate.
package runtime
