package localexec

import (
	"errors"
	"os"
	"time"
)

// Recover takes back, after a restart of the daemon, the jobs it believes
// it started, with the Executor's directory as the previous one left it,
// and returns the Results of those that have ended, in the order of ids.
// For each id:
//
//   - a status file exists: the job ended (maybe while the daemon was
//     down) and its Result is returned; when it ended before its
//     post-execution commands (Result.PostPending), their Result follows
//     it once they have ended, and the job is adopted, for theirs, while
//     they run;
//   - its wrapper still runs (it holds the job's lock, or has the pid
//     and start time recorded): the job is adopted, no Result is returned, and Running lists it; its
//     Result comes through onExit when it ends, and Signal and Kill reach
//     it meanwhile;
//   - no wrapper runs and none recorded the job's processes: the job
//     never started (its Result has Lost and NotStarted set), as when the
//     daemon died between deciding to start it and starting it;
//   - otherwise the job is lost: its Result has Lost set, and its
//     processes, if any are left without their wrapper, are killed.
//
// Jobs this Executor already watches are left as they are. Recover on a
// closed Executor returns nil and adopts nothing.
func (e *Executor) Recover(ids []int64) []Result {
	var ended []Result
	for _, id := range ids {
		e.mu.Lock()
		closed, known := e.closed, e.jobs[id] != nil
		e.mu.Unlock()
		switch {
		case closed:
			return nil
		case known:
			continue
		}
		if r, ok := e.recorded(id); ok {
			ended = append(ended, r)
			if r.PostPending {
				ended = append(ended, e.recoverPost(id)...)
			}
			continue
		}
		rec, err := readPidRecord(e.path(id, pidExt))
		// A wrapper that is dying may hold the lock a moment longer: when
		// its processes are recorded, its own liveness decides.
		held := lockHeld(e.dir, id) && (err != nil || rec.wrapperAlive())
		if err != nil && !held {
			// Read the status again: the wrapper may have ended since.
			if r, ok := e.recorded(id); ok {
				ended = append(ended, r)
				continue
			}
			if errors.Is(err, os.ErrNotExist) {
				// No wrapper holds the job's lock and none recorded its
				// processes: the job never ran.
				ended = append(ended, Result{JobID: id, Lost: true, NotStarted: true, Err: "the job never started"})
				continue
			}
			ended = append(ended, Result{JobID: id, Lost: true, Err: err.Error()})
			continue
		}
		j := &job{id: id, pids: rec, started: true}
		if !held && !rec.wrapperRuns() {
			// The wrapper writes the status before it ends: read again in
			// case it ended since the first look.
			if r, ok := e.recorded(id); ok {
				ended = append(ended, r)
			} else {
				ended = append(ended, e.lose(j, "the job wrapper is gone and recorded no exit status"))
			}
			continue
		}
		e.mu.Lock()
		if e.closed {
			e.mu.Unlock()
			return nil
		}
		e.jobs[id] = j
		e.mu.Unlock()
		go e.watch(j)
	}
	return ended
}

// recoverPost takes back the post-execution commands of job id, whose
// end was recorded before them: it returns how they ended when they have,
// or adopts the job, whose wrapper runs them still, and returns nothing.
func (e *Executor) recoverPost(id int64) []Result {
	if r, ok := e.recordedPost(id); ok {
		return []Result{r}
	}
	rec, err := readPidRecord(e.path(id, pidExt))
	if lockHeld(e.dir, id) && (err != nil || rec.wrapperAlive()) {
		j := &job{id: id, pids: rec, started: true, post: true}
		e.mu.Lock()
		if e.closed {
			e.mu.Unlock()
			return nil
		}
		e.jobs[id] = j
		e.mu.Unlock()
		go e.watch(j)
		return nil
	}
	if r, ok := e.recordedPost(id); ok {
		return []Result{r}
	}
	return []Result{lostPost(id)}
}

// recorded returns the Result in job id's status file, if any. A damaged
// status file gives a lost Result.
func (e *Executor) recorded(id int64) (Result, bool) {
	r, err := readStatus(e.path(id, statusExt), id)
	switch {
	case err == nil:
		return r, true
	case errors.Is(err, os.ErrNotExist):
		return Result{}, false
	}
	return Result{JobID: id, Lost: true, Err: err.Error()}, true
}

// watch follows an adopted job, which is not this process's child, until
// its status file appears or its wrapper is gone, and reports its end. It
// stops early when the Executor is closed.
func (e *Executor) watch(j *job) {
	t := time.NewTicker(e.pollInterval())
	defer t.Stop()
	for {
		select {
		case <-e.quit:
			return
		case <-t.C:
		}
		if e.inPost(j) {
			r, ok := e.recordedPost(j.id)
			if !ok && !lockHeld(e.dir, j.id) && !e.pidsOf(j).wrapperRuns() {
				if r, ok = e.recordedPost(j.id); !ok {
					r, ok = lostPost(j.id), true
				}
			}
			if ok {
				e.finish(j, r)
				return
			}
			continue
		}
		if r, ok := e.recorded(j.id); ok {
			if r.PostPending {
				e.endBeforePost(j, r)
				continue
			}
			e.finish(j, r)
			return
		}
		if e.pidsOf(j).WrapperPID == 0 {
			// Adopted while its wrapper was starting: its processes are
			// recorded by now, or soon.
			if rec, err := readPidRecord(e.path(j.id, pidExt)); err == nil {
				e.mu.Lock()
				j.pids = rec
				e.mu.Unlock()
			}
		}
		if !lockHeld(e.dir, j.id) && !e.pidsOf(j).wrapperRuns() {
			r, ok := e.recorded(j.id)
			if !ok {
				r = e.lose(j, "the job wrapper is gone and recorded no exit status")
			}
			if r.PostPending {
				// Its post-execution commands ended too, with the wrapper.
				e.endBeforePost(j, r)
				continue
			}
			e.finish(j, r)
			return
		}
	}
}

// pidsOf returns the processes recorded for j, which Kill and the other
// signals update as the job's process groups change.
func (e *Executor) pidsOf(j *job) pidRecord {
	e.mu.Lock()
	defer e.mu.Unlock()
	return j.pids
}

func (e *Executor) pollInterval() time.Duration {
	if e.PollInterval > 0 {
		return e.PollInterval
	}
	return DefaultPollInterval
}
