package daemon

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/lsfc/lsfc/runtime"
	"github.com/lsfc/lsfc/runtime/api"
)

// How brequeue ends a started job, in LSF's words: by its owner, or by
// an administrator.
const (
	termRequeueOwner = "TERM_REQUEUE_OWNER"
	termRequeueAdmin = "TERM_REQUEUE_ADMIN"
)

// requeueAsked reports whether brequeue killed a started job to run it
// again: it pends again once its processes end.
func requeueAsked(j *runtime.Job) bool {
	return j.Term == termRequeueOwner || j.Term == termRequeueAdmin
}

// requeueJob applies brequeue to a job. A finished job (DONE with -d,
// EXIT with -e) pends again at once; a started one (RUN, USUSP, SSUSP,
// with -r or by default) is killed, and pends again once its processes
// end (requeueEnded). With Hold the job pends held (PSUSP). The job keeps
// its ID and its submit time.
func (d *Daemon) requeueJob(id identity, j *runtime.Job, req api.ActionRequest) (any, []Record, func(), error) {
	now := d.now()
	conflict := func(format string, args ...any) (any, []Record, func(), error) {
		return nil, nil, nil, errorf(http.StatusConflict, "Job <%s>: "+format, append([]any{j.Label()}, args...)...)
	}
	states := req.States
	if len(states) == 0 {
		states = []string{"RUN"}
	}
	for _, s := range states {
		if s != "DONE" && s != "EXIT" && s != "RUN" {
			return nil, nil, nil, errorf(http.StatusBadRequest, "brequeue takes jobs in DONE, EXIT or RUN, not %q", truncate(s))
		}
	}
	state := "PEND"
	if req.Hold {
		state = "PSUSP"
	}
	done := func(recs []Record, act func()) (any, []Record, func(), error) {
		return api.ActionResponse{Message: fmt.Sprintf("Job <%s> is being requeued", j.Label())}, recs, act, nil
	}
	switch {
	case j.Remote != nil:
		return conflict("the job is forwarded to cluster %s", j.Remote.Cluster)
	case j.Sub.Interactive != nil:
		// As LSF, which requeues no interactive job: its submitter's
		// terminal is gone with its run.
		return conflict("an interactive job cannot be requeued")
	case j.State.Pending():
		return conflict("Job has not started yet")
	case j.State == runtime.Zombie:
		return conflict("the job is ZOMBI: it is being killed on a host that does not answer")
	case j.State == runtime.Unknown:
		return conflict("the job is UNKWN: its host does not answer")
	case requeueAsked(j):
		return conflict("the job is already being requeued")
	case j.State.Finished():
		if !slices.Contains(states, j.State.String()) {
			return conflict("Job has already finished (%s): brequeue %s requeues it", j.State, map[bool]string{true: "-d", false: "-e"}[j.State == runtime.Done])
		}
		if j.PostExec == runtime.PostRunning {
			// Its run is not over on its host: it may run again once it is.
			return conflict("its post-execution commands are still running")
		}
		// Its finish may still wait for a sync (commitFinishThen): it is
		// made durable first, or a crash would replay the job as
		// running, with no status file left to finish it from.
		if err := d.finishesDurable(); err != nil {
			return nil, nil, nil, err
		}
		// Its files go first, as those of any job that pends again.
		d.dropFiles(j.ID)
		d.unsettle(j.ID, j.Epoch)
		delete(d.ranIn, j.ID)
		if err := d.cluster.RequeueFinished(j, req.Hold, now); err != nil {
			return conflict("%v", err)
		}
		return done([]Record{{Type: KindBrequeue, At: now, Job: j.ID, State: state}}, nil)
	}
	if !slices.Contains(states, "RUN") {
		return conflict("the job is %s: brequeue -r requeues a running or suspended job", j.State)
	}
	if j.Term != "" {
		return conflict("the job is being killed (%s)", j.Term)
	}
	j.Term = termRequeueAdmin
	if id.User == j.User {
		j.Term = termRequeueOwner
	}
	j.RequeueHold = req.Hold
	if j.State == runtime.USusp || j.State == runtime.SSusp {
		// A stopped job takes the kill once it runs again.
		cont := d.signalAct(j.ID, syscall.SIGCONT)
		kill := d.killAct(j.ID)
		return done([]Record{{Type: KindBrequeue, At: now, Job: j.ID, Term: j.Term, State: state}}, func() { cont(); kill() })
	}
	return done([]Record{{Type: KindBrequeue, At: now, Job: j.ID, Term: j.Term, State: state}}, d.killAct(j.ID))
}

// requeueEnded puts a job brequeue killed back to pending once its
// processes have ended, held when brequeue -H asked: its files go first,
// and the hold follows the requeue in the same transaction.
func (d *Daemon) requeueEnded(j *runtime.Job, now runtime.Time) (Record, bool) {
	hold := j.RequeueHold
	d.dropFiles(j.ID)
	d.unsettle(j.ID, j.Epoch)
	if err := d.cluster.Requeue(j, now); err != nil {
		d.cfg.Logf("job %d: %v", j.ID, err)
		return Record{}, false
	}
	if hold {
		if err := d.cluster.Hold(j); err != nil {
			d.cfg.Logf("job %d: %v", j.ID, err)
		} else {
			d.notices = append(d.notices, Record{Type: KindHold, Job: j.ID})
		}
	}
	return Record{Type: KindRequeue, At: now, Job: j.ID}, true
}

// unsettle forgets what the daemon kept of a job's last run: that its
// files wait for a compaction to go, and that a kill reached it. The job
// runs again, and its new files and processes are not those. epoch is
// the job's Epoch: the settle of that run, should it come later, does
// nothing (settleRun).
func (d *Daemon) unsettle(id int64, epoch int) {
	d.settledMu.Lock()
	if d.dropped == nil {
		d.dropped = map[int64]int{}
	}
	d.dropped[id] = epoch
	d.settled = slices.DeleteFunc(d.settled, func(x int64) bool { return x == id })
	d.sealing = slices.DeleteFunc(d.sealing, func(x int64) bool { return x == id })
	d.settledMu.Unlock()
	d.killedMu.Lock()
	delete(d.killed, id)
	d.killedMu.Unlock()
}

// finishesDurable makes the finishes appended deferred durable, waiting
// at most flushWait, before a requeue acts on a finished job.
func (d *Daemon) finishesDurable() error {
	c := d.lastDeferred
	if c == nil {
		return nil
	}
	if f, ok := d.log.(flushJournal); ok {
		if err := f.Stalled(); err != nil {
			return errNoSpace{cause(err)}
		}
		f.Flush()
	}
	done := make(chan error, 1)
	go func() { done <- c.Wait() }()
	t := time.NewTimer(flushWait)
	defer t.Stop()
	select {
	case err := <-done:
		if err != nil {
			return err
		}
		d.lastDeferred = nil
		return nil
	case <-t.C:
		return errorf(http.StatusServiceUnavailable, "the end of a job is not yet written to the event log: try again")
	}
}

// replayBrequeue replays a brequeue record: a finished job pends again;
// a started one is marked to pend again when its processes end.
func replayBrequeue(c *runtime.Cluster, j *runtime.Job, r Record) error {
	hold := r.State == runtime.PSusp.String()
	switch {
	case j.State.Finished():
		return c.RequeueFinished(j, hold, r.At)
	case j.State.Started():
		if !strings.HasPrefix(r.Term, "TERM_REQUEUE_") {
			return fmt.Errorf("brequeue of started job %d with term %q", j.ID, r.Term)
		}
		j.Term, j.RequeueHold = r.Term, hold
		return nil
	}
	return fmt.Errorf("brequeue of job %d, which is %s", j.ID, j.State)
}
