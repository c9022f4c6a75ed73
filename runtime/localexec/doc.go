// Package localexec runs batch jobs as real processes on this machine and
// reads this machine's load: a Spec goes in, the job runs under a
// detached wrapper, and its Result (exit code, signal, or lost) comes out
// through a callback, even across restarts of the daemon that started it.
//
// # Jobs
//
// An Executor owns a private directory. For job 42 it holds:
//
//	42.sh      the job file run by /bin/sh: a header, then the command
//	42.spec    the job's Spec, for the wrapper to read, when it is not
//	           sent with the supervisor's request (a job under a starter
//	           of its own, or a Spec too large for a message)
//	42.pid     the wrapper's and the job's process ids and start times
//	42.status  the job's Result, written once the job has ended
//	42.post    how its post-execution commands ended, when they ran on
//	           after the job's end (Spec.PostLater)
//	42.out     the job's output when it has no -o file (or, spooled for
//	           its job report, when its user's home cannot take it)
//	42.lock    locked by the job's wrapper for its whole life
//
// Start writes the job file (and the spec file, when needed), takes the
// job's lock and hands it to the job's wrapper: the host's supervisor, one long-lived process per
// directory that runs every job's wrapper as a goroutine of its own (the
// job starter, StarterName, a small program that links this package
// alone, installed beside lsfc, run with SuperviseArg; see supervisor.go
// for its protocol and life). Start starts it when none runs, in a
// session of its own, so that it outlives the daemon, and a later
// Executor on the directory uses it again, unless the starter was
// replaced since (an upgrade): that supervisor then retires, running its
// jobs to their ends, and Start starts a new one from the new starter. A
// job with per-process limits (Spec.ProcLimits), and every job of an
// Executor with PerJob set, runs under a starter process of its own
// instead, which does the same for that one job. Prepare writes the job
// file and takes the lock ahead of Start, under names that are no job's
// files, while the caller makes its record of the start durable: Start
// then only names them. The wrapper gives the job its umask, enters the working
// directory (the user's home when none is given, /tmp when it cannot be
// entered), opens the output files, starts /bin/sh on the job file in a
// process group of its own (so that a signal sent to the job reaches all
// its processes), records the process ids (synced once Start has its
// answer, off the path of the start), waits, and writes the status file
// durably (a temporary file, synced, renamed, and the directory synced)
// before it lets go of the lock. The job and spec files are not synced:
// a crash of the machine ends the job they describe, and nothing reads
// them after it. When the daemon runs as root and the job's UID is not
// 0, the job runs as that user, who also owns the output files.
//
// While the Executor that started a job runs, the wrapper tells it the
// job's end on the supervisor's connection (or the starter's pipe); jobs
// adopted by Recover after a restart are watched by polling their status
// file, their lock and the liveness of their wrapper. Either way the
// Result reaches the callback given to New exactly once. A job of
// Spec.PostLater whose post-execution commands run on after it gives a
// second Result, theirs (Result.PostReport), once they end: the wrapper
// writes the status file before them and tells the Executor (or the
// polling finds it), then writes the post file. A job whose wrapper is
// gone (the supervisor killed) without having written a status is lost
// (Result.Lost), and whatever is left of its processes is killed, since
// nothing could report their end.
//
// Cleanup removes a job's files once its end is recorded for good;
// Release removes all but its status, post and pid files, from which Recover
// gives the job's Result again, for a caller whose record of the end may
// still be lost; Spooled lists the jobs that have files.
//
// A job with a memory limit (Spec.MemLimit) is watched by its wrapper,
// which reads the resident memory of the job's process group every second
// and terminates the job past the limit (Result.MemLimitExceeded), as
// LSF's execution daemon enforces MEMLIMIT; the watch goes on while the
// daemon is away.
//
// # Interactive jobs
//
// A Spec with Interactive set is an interactive job (bsub -I, -Ip, -Is):
// before the job starts, its wrapper connects to the submitting bsub
// (package attach) and gives the job a pseudo-terminal of its own (-Ip,
// -Is; the job then leads a session whose controlling terminal it is) or
// pipes (-I) in place of the output files it has not got, carrying input,
// output, window sizes and signals over the connection. The job is hung
// up when the connection is lost before its end, and bsub gets its exit
// status once the status file is written. A job whose bsub cannot be
// reached ends without running.
//
// # Load
//
// A Sampler reads LSF's load indices of this machine (r15s r1m r15m ut pg
// io ls it tmp swp mem) from /proc, statfs, the terminal devices and utmp;
// an index whose source is missing, as in some containers, is left out.
// Facts gives the static ones: type, model, ncpus, maxmem, maxswp, maxtmp.
package localexec
