package lsbevents

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/lsfc/lsfc/runtime/api"
)

// A Job is one job of the log (an array's element is one job): what it
// was submitted with, as changed by bmod while it pended, and what became
// of it.
type Job struct {
	ID    int64
	Index int // an array element's index; 0 otherwise
	Name  string
	User  string
	// Project and UserGroup are -P and -G; Queue the queue it is in now
	// (after bswitch); SubmitQueue the one it was submitted to.
	Project, UserGroup string
	Queue, SubmitQueue string
	Command            string
	FromHost, Cwd      string
	// Submit is when it was submitted, Begin its -b time (0 for none).
	Submit, Begin int64
	// Slots is -n (its minimum), MaxSlots the maximum of -n min,max.
	Slots, MaxSlots int
	// ResReq is -R as given; EffectiveResReq the requirement it was
	// last dispatched with, as JOB_START records it.
	ResReq, EffectiveResReq string
	// MemLimit is -M in KB, RunLimit -W in seconds; -1 when not set.
	MemLimit, RunLimit int64
	Exclusive          bool // -x
	// Start is when it was last dispatched, End when it finished (0 when
	// it did not); State the state the log leaves it in; ExitCode its
	// exit code (the wait status's high byte), Signal the signal that
	// ended it (0 for none).
	Start, End       int64
	State            string
	ExitCode, Signal int
	// Events is its history.
	Events []api.HistoryEvent

	seq int // order of submission in the log
	// submitSlots and submitResReq are -n and -R as submitted.
	submitSlots  int
	submitResReq string
}

type jobKey struct {
	id  int64
	idx int
}

// Jobs returns the jobs of the log in the order they were submitted.
func (l *Log) Jobs() []*Job {
	out := slices.Clone(l.order)
	slices.SortStableFunc(out, func(a, b *Job) int {
		return cmp.Or(cmp.Compare(a.Submit, b.Submit), cmp.Compare(a.seq, b.seq), cmp.Compare(a.ID, b.ID), cmp.Compare(a.Index, b.Index))
	})
	return out
}

// Histories returns the jobs' histories, in the order they were
// submitted.
func (l *Log) Histories() []api.JobHistory {
	jobs := l.Jobs()
	out := make([]api.JobHistory, 0, len(jobs))
	for _, j := range jobs {
		out = append(out, j.History())
	}
	return out
}

// History returns the job's history as bhist shows it.
func (j *Job) History() api.JobHistory {
	return api.JobHistory{ID: j.ID, Index: j.Index, Name: j.Name, User: j.User, Project: j.Project, UserGroup: j.UserGroup,
		Queue: j.SubmitQueue, Command: j.Command, FromHost: j.FromHost, Cwd: j.Cwd, Submit: j.Submit,
		Slots: j.submitSlots, ResReq: j.submitResReq,
		State: j.State, Events: slices.Clone(j.Events)}
}

// job returns the job, or the array element, of an ID and an index; an
// element is made from its array the first time it is named. It is nil
// for a job whose JOB_NEW the log does not have.
func (l *Log) job(id int64, idx int64) *Job {
	k := jobKey{id, int(idx)}
	if j := l.jobs[k]; j != nil {
		return j
	}
	a := l.arrays[id]
	if a == nil || idx <= 0 {
		l.Orphans++
		return nil
	}
	e := *a
	e.Index = int(idx)
	// An element is named as LSF names it: the array's name, its index.
	e.Name = a.Name[:strings.LastIndexByte(a.Name, '[')] + "[" + strconv.FormatInt(idx, 10) + "]"
	e.Events = slices.Clone(a.Events)
	l.seq++
	e.seq = l.seq
	l.jobs[k] = &e
	l.order = append(l.order, &e)
	return &e
}

// newJob adds a job from its JOB_NEW: an array's is kept apart, and its
// elements are made from it as they appear.
func (l *Log) newJob(j *Job) {
	j.State = "PEND"
	j.Events = []api.HistoryEvent{{At: j.Submit, Kind: api.EventSubmit, Text: j.Queue}}
	if isArrayName(j.Name) {
		l.arrays[j.ID] = j
		return
	}
	l.seq++
	j.seq = l.seq
	k := jobKey{j.ID, 0}
	if old := l.jobs[k]; old != nil {
		// A job ID used again (the IDs wrapped): the new job replaces it
		// in the index, and both stay in the log.
		delete(l.jobs, k)
	}
	l.jobs[k] = j
	l.order = append(l.order, j)
}

// isArrayName reports whether a job name names an array: "name[1-10]".
func isArrayName(s string) bool {
	i := strings.LastIndexByte(s, '[')
	return i >= 0 && strings.HasSuffix(s, "]") && i < len(s)-2
}

// add appends an event to the job's history.
func (j *Job) add(e api.HistoryEvent) { j.Events = append(j.Events, e) }
