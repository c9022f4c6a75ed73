package mc

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/runtime"
)

// A Stage is where a forwarded job is.
type Stage uint8

// The stages of a forwarded job, on its submission cluster.
const (
	// Sent: forwarded, the receive-jobs queue has not answered yet.
	Sent Stage = iota + 1
	// Accepted: the remote queue took the job; it pends there.
	Accepted
	// Started: the remote cluster dispatched the job.
	Started
)

var stageText = [...]string{Sent: "sent", Accepted: "accepted", Started: "started"}

// String names the stage.
func (s Stage) String() string {
	if s > 0 && int(s) < len(stageText) {
		return stageText[s]
	}
	return "Stage(" + strconv.Itoa(int(s)) + ")"
}

// A Forward is the submission cluster's record of a forwarded job.
type Forward struct {
	Job int64
	// SendQueue is the job's queue at home; Cluster and Queue the
	// receive-jobs queue it went to; RemoteID its job ID there (0 until
	// accepted).
	SendQueue      string
	Cluster, Queue string
	RemoteID       int64
	Stage          Stage
	// SentAt is when the job was forwarded, AcceptedAt when the remote
	// queue took it; Deadline when it is recalled if it has not started
	// (0: never, MAX_RSCHED_TIME = infinit).
	SentAt, AcceptedAt, Deadline runtime.Time
}

// A Cause is why a forwarded job comes back to its submission cluster.
type Cause uint8

// The causes of a return.
const (
	// Rejected: the receive-jobs queue refused the job (Phase III).
	Rejected Cause = iota + 1
	// Unreachable: the remote cluster did not answer; the job was never
	// delivered, or its copy there cannot be reached.
	Unreachable
	// Recalled: the job pended remotely past MAX_RSCHED_TIME: it failed
	// to start there.
	Recalled
)

var causeText = [...]string{Rejected: "rejected", Unreachable: "unreachable", Recalled: "recalled"}

// String names the cause.
func (c Cause) String() string {
	if c > 0 && int(c) < len(causeText) {
		return causeText[c]
	}
	return "Cause(" + strconv.Itoa(int(c)) + ")"
}

// Counts reports whether a return of this cause counts as a failed
// start attempt against LSB_MC_INITFAIL_RETRY: a recall after
// MAX_RSCHED_TIME does; a rejection and an unreachable cluster do not.
func (c Cause) Counts() bool { return c == Recalled }

// An Outcome is what becomes of a returned job at home.
type Outcome uint8

// The outcomes of a return.
const (
	// Repend: the job pends again at home and is scheduled anew (local
	// hosts first, then forwarding).
	Repend Outcome = iota + 1
	// Suspend: the job has failed to start more than
	// LSB_MC_INITFAIL_RETRY times; it is suspended (PSUSP) at home until
	// someone resumes it.
	Suspend
)

// A Ledger is the submission cluster's book of its forwarded jobs: where
// each went, its remote job ID, when it is due to be recalled, and how
// many times it failed to start remotely. A job is in the book at most
// once, so a job is never forwarded twice at the same time. The zero
// Ledger is not usable; NewLedger makes one.
type Ledger struct {
	retry    int
	sleep    float64
	rsched   map[string]int
	fwd      map[int64]*Forward
	failures map[int64]int
}

// NewLedger makes the ledger of a submission cluster: LSB_MC_INITFAIL_RETRY
// from its lsf.conf, MAX_RSCHED_TIME of each send-jobs queue, and sleep,
// its MBD_SLEEP_TIME in seconds, the unit of MAX_RSCHED_TIME.
func NewLedger(p *compile.Policy, sleep float64) *Ledger {
	l := &Ledger{retry: p.LSFConf.MCInitFailRetry, sleep: sleep, rsched: map[string]int{},
		fwd: map[int64]*Forward{}, failures: map[int64]int{}}
	for _, q := range p.Queues {
		if q.Sends() {
			l.rsched[q.Name] = q.RschedPeriods()
		}
	}
	return l
}

// Retry returns LSB_MC_INITFAIL_RETRY: a job is suspended when its
// failed start attempts exceed it (it is tried Retry+1 times).
func (l *Ledger) Retry() int { return l.retry }

// Forwarded records that a job of send-jobs queue sendQueue was sent to
// a target. It fails when the job is already forwarded.
func (l *Ledger) Forwarded(job int64, sendQueue string, t *Target, now runtime.Time) error {
	if f := l.fwd[job]; f != nil {
		return fmt.Errorf("job %d is already forwarded to %s@%s", job, f.Queue, f.Cluster)
	}
	l.fwd[job] = &Forward{Job: job, SendQueue: sendQueue, Cluster: t.Cluster, Queue: t.Queue, Stage: Sent, SentAt: now}
	return nil
}

// Accept records that the remote queue took the job with remoteID; from
// now it may pend there MAX_RSCHED_TIME × MBD_SLEEP_TIME seconds.
func (l *Ledger) Accept(job, remoteID int64, now runtime.Time) error {
	f, err := l.at(job, Sent)
	if err != nil {
		return err
	}
	f.Stage, f.RemoteID, f.AcceptedAt = Accepted, remoteID, now
	if n, ok := l.rsched[f.SendQueue]; ok && n >= 0 {
		f.Deadline = now.Add(float64(n) * l.sleep)
	} else if !ok {
		f.Deadline = now.Add(20 * l.sleep)
	}
	return nil
}

// Start records that the remote cluster dispatched the job: it is no
// longer recalled.
func (l *Ledger) Start(job int64) error {
	f, err := l.at(job, Accepted)
	if err != nil {
		return err
	}
	f.Stage, f.Deadline = Started, 0
	return nil
}

// Overdue returns the jobs that pend remotely past their deadline at
// now, by job ID: they are to be recalled (then Return them as
// Recalled).
func (l *Ledger) Overdue(now runtime.Time) []int64 {
	var out []int64
	for id, f := range l.fwd {
		if f.Stage == Accepted && f.Deadline > 0 && now >= f.Deadline {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out
}

// Return takes a job back from the remote cluster for a cause and says
// what becomes of it at home: it pends again, or, when a return that
// counts makes its failed start attempts exceed LSB_MC_INITFAIL_RETRY,
// it is suspended. The job leaves the ledger either way.
func (l *Ledger) Return(job int64, c Cause) (Outcome, error) {
	if l.fwd[job] == nil {
		return 0, fmt.Errorf("job %d is not forwarded", job)
	}
	delete(l.fwd, job)
	if !c.Counts() {
		return Repend, nil
	}
	l.failures[job]++
	if l.failures[job] > l.retry {
		return Suspend, nil
	}
	return Repend, nil
}

// Failures returns the job's failed start attempts so far.
func (l *Ledger) Failures(job int64) int { return l.failures[job] }

// Resume forgets a suspended job's failed start attempts (bresume): it
// gets LSB_MC_INITFAIL_RETRY more.
func (l *Ledger) Resume(job int64) { delete(l.failures, job) }

// Finish closes the record of a job that ended remotely (DONE or EXIT),
// or was killed at home.
func (l *Ledger) Finish(job int64) {
	delete(l.fwd, job)
	delete(l.failures, job)
}

// Get returns a copy of the job's record, and whether it is forwarded.
func (l *Ledger) Get(job int64) (Forward, bool) {
	if f := l.fwd[job]; f != nil {
		return *f, true
	}
	return Forward{}, false
}

// Outstanding counts the jobs sent or accepted, not started, at a
// remote queue: what the submission cluster adds to that queue's last
// reported pending jobs until the next report.
func (l *Ledger) Outstanding(cluster, queue string) int {
	n := 0
	for _, f := range l.fwd {
		if f.Cluster == cluster && f.Queue == queue && f.Stage != Started {
			n++
		}
	}
	return n
}

// at returns the job's record when it is at a stage.
func (l *Ledger) at(job int64, s Stage) (*Forward, error) {
	f := l.fwd[job]
	switch {
	case f == nil:
		return nil, fmt.Errorf("job %d is not forwarded", job)
	case f.Stage != s:
		return nil, fmt.Errorf("job %d is %s, not %s", job, f.Stage, s)
	}
	return f, nil
}

// Restore books a job again as the submission cluster's state keeps it,
// after a restart: its failed start attempts so far and, when it is at
// another cluster (r not nil), where it went, whether that queue took it
// and whether it started there. Deadlines follow from the times in r.
func (l *Ledger) Restore(job int64, sendQueue string, r *runtime.Remote, started bool, failures int) {
	if failures > 0 {
		l.failures[job] = failures
	}
	if r == nil {
		return
	}
	delete(l.fwd, job)
	_ = l.Forwarded(job, sendQueue, &Target{Cluster: r.Cluster, Queue: r.Queue}, r.SentAt)
	if r.ID > 0 {
		_ = l.Accept(job, r.ID, r.AcceptedAt)
		if started {
			_ = l.Start(job)
		}
	}
}
