package runtime

import (
	"fmt"
	"slices"
	"strings"
)

// Resizable jobs, as LSF 10.1 runs them. A job submitted with bsub -n
// min,max starts with at least min slots and takes up to max when they
// are free at its dispatch. A resizable job (bsub -ar, or an application
// profile with RESIZABLE_JOBS=Y or auto) may also change its allocation
// while it runs: bresize release gives slots back, bresize request asks
// for more, and an autoresizable job (-ar, RESIZABLE_JOBS=auto) asks by
// itself for the slots it lacks up to max. A pending request is served by
// the cycle, like a pending job of the job's queue, from the slots that
// are free; the slots it gets are the job's at once, but while the job's
// resize notification command (bsub -rnc, RESIZE_NOTIFY_CMD) runs they
// are only granted: the command's failure, or a preemption of the job,
// takes them back.

// A ResizeRequest is a running job's pending request for more slots: at
// least Min more, at most Max more. Notify is the notification command
// bresize request -rnc gave, "" for the job's own; NoNotify is -rncn (no
// command for this request).
type ResizeRequest struct {
	Min      int    `json:"Min"`
	Max      int    `json:"Max"`
	Notify   string `json:"Notify,omitempty"`
	NoNotify bool   `json:"NoNotify,omitempty"`
}

// A ResizeGrant is an allocation a resize request got, whose notification
// command has not ended yet: Allocs are the slots added (already part of
// the job's allocation), Notify the command that runs. Notifying is set
// while it runs; a grant taken back by a preemption keeps it until the
// command ends.
type ResizeGrant struct {
	Allocs    []Alloc
	Notify    string
	Notifying bool
}

// resizeState is what a resizable job keeps of its resizing.
type resizeState struct {
	// auto is set for an autoresizable job: it asks for slots up to max
	// by itself.
	auto bool
	// req is the job's pending manual request, nil for none.
	req *ResizeRequest
	// grant is the allocation whose notification runs, nil for none.
	grant *ResizeGrant
	// notifying is set while a notification command runs (a grant's, or
	// one for a release); holdSignal while a preemption's suspend signal
	// waits for it to end.
	notifying  bool
	holdSignal bool
	// notice numbers the job's notifications in its run: the one that
	// runs, or the last. An end reported for another number answers an
	// earlier notification and counts for nothing.
	notice int
	// retryAt is, after a notification command refused the slots
	// granted, when the job's request is served again (MBD_SLEEP_TIME later,
	// so that a command that always fails does not make every cycle
	// grant and take back).
	retryAt Time
}

// A Grow is an allocation a cycle gave a running job's pending resize
// request: the slots added, by host.
type Grow struct {
	Job    *Job
	Allocs []Alloc
}

// Resizable reports whether the job may change its allocation while it
// runs: submitted with -ar, or to a profile with RESIZABLE_JOBS=Y|auto.
func (j *Job) Resizable() bool { return j.resize != nil }

// AutoResizable reports whether the job asks for slots up to its maximum
// by itself.
func (j *Job) AutoResizable() bool { return j.resize != nil && j.resize.auto }

// MaxSlots returns the most slots the job asked for (bsub -n min,max);
// its Slots when it gave no maximum.
func (j *Job) MaxSlots() int { return max(j.Sub.MaxSlots, j.Sub.Slots) }

// PendingResize returns the job's pending resize request: its manual
// one, or for an autoresizable job below its maximum, the slots it lacks.
// It returns false when there is none (a grant's notification runs).
func (j *Job) PendingResize() (ResizeRequest, bool) {
	rs := j.resize
	if rs == nil || rs.grant != nil || !j.State.Started() {
		return ResizeRequest{}, false
	}
	if rs.req != nil {
		return *rs.req, true
	}
	if rs.auto && j.MaxSlots() > j.Slots {
		return ResizeRequest{Min: 1, Max: j.MaxSlots() - j.Slots}, true
	}
	return ResizeRequest{}, false
}

// Grant returns the allocation granted to the job's resize request whose
// notification has not ended, or nil.
func (j *Job) Grant() *ResizeGrant {
	if j.resize == nil {
		return nil
	}
	return j.resize.grant
}

// Notifying reports whether the job's resize notification command runs.
func (j *Job) Notifying() bool { return j.resize != nil && j.resize.notifying }

// Notice returns the number of the job's resize notification that runs,
// or of its last one: the numbers count from 1 in each run of the job
// (0 when none ran, or for a notification an earlier release started).
func (j *Job) Notice() int {
	if j.resize == nil {
		return 0
	}
	return j.resize.notice
}

// notifyCommand returns the notification command of the job's resizes:
// bsub -rnc, else its profile's RESIZE_NOTIFY_CMD; "" for none.
func (j *Job) notifyCommand() string {
	if j.Sub.ResizeNotify != "" {
		return j.Sub.ResizeNotify
	}
	if j.App != nil && j.App.Def != nil {
		if st := j.App.Def.Settings["RESIZE_NOTIFY_CMD"]; st != nil {
			if s, ok := st.Value.(string); ok {
				return strings.TrimSpace(s)
			}
		}
	}
	return ""
}

// NotifyCommand returns the command that notifies the job of its resizes
// (see notifyCommand); "" for none.
func (j *Job) NotifyCommand() string { return j.notifyCommand() }

// appResizable returns a profile's RESIZABLE_JOBS: resizable, and
// autoresizable.
func appResizable(app *App) (resizable, auto bool) {
	if app == nil || app.Def == nil {
		return false, false
	}
	st := app.Def.Settings["RESIZABLE_JOBS"]
	if st == nil {
		return false, false
	}
	v, _ := st.Value.(string)
	switch strings.ToLower(v) {
	case "y":
		return true, false
	case "auto":
		return true, true
	}
	return false, false
}

// checkResizable checks the submission's -n min,max and -ar against the
// queue and profile, and returns the error message LSF gives, or "".
func (c *Cluster) checkResizable(q *Queue, app *App, req *Requirement, s Submission) string {
	if s.MaxSlots != 0 && s.MaxSlots < s.Slots {
		return "Bad argument for option -n"
	}
	resizable, _ := appResizable(app)
	if !s.AutoResize && !resizable {
		return ""
	}
	if alts := req.alts(); len(alts) > 1 || len(alts) == 1 && len(alts[0]) > 1 {
		return "Resizable job cannot have compound or alternative resource requirements"
	}
	if s.GPU != "" {
		return "lsfc does not resize jobs that use GPUs (-gpu with -ar or RESIZABLE_JOBS)"
	}
	return ""
}

// newResizeState returns the resize state of a job that the submission,
// its profile, makes resizable, or nil.
func newResizeState(s Submission, app *App) *resizeState {
	resizable, auto := appResizable(app)
	if !s.AutoResize && !resizable {
		return nil
	}
	return &resizeState{auto: s.AutoResize || auto}
}

// countAllocs returns the slots of an allocation.
func countAllocs(allocs []Alloc) int {
	n := 0
	for _, a := range allocs {
		n += a.Slots
	}
	return n
}

// reallocate changes what a started job holds to allocs: it leaves its
// slots, reservations, limits and, when preempted, the counts of
// preempted slots, then takes the new ones, so that every count (the
// preemption counts among them) follows the job's allocation.
func (c *Cluster) reallocate(j *Job, allocs []Alloc, now Time) {
	preempted := j.preempted
	c.unmarkPreempted(j)
	if j.acct != nil {
		j.acct.chargeEnd(j, j.Slots)
	}
	c.holdJob(j, -1, now)
	j.Allocs = allocs
	j.Slots = countAllocs(allocs)
	c.holdJob(j, 1, now)
	if j.acct != nil {
		j.acct.chargeStart(j, j.Slots)
	}
	if preempted {
		c.markPreempted(j)
	}
}

// addAllocs returns allocs with more added, host by host.
func addAllocs(allocs, more []Alloc) []Alloc {
	out := make([]Alloc, 0, len(allocs)+len(more))
	for _, a := range allocs {
		out = append(out, Alloc{Host: a.Host, Slots: a.Slots, GPUs: slices.Clone(a.GPUs)})
	}
	return merge(append(out, more...))
}

// subAllocs returns allocs less the slots of less; hosts left with no
// slot go.
func subAllocs(allocs, less []Alloc) []Alloc {
	out := make([]Alloc, 0, len(allocs))
	for _, a := range allocs {
		n := a.Slots
		for _, l := range less {
			if l.Host == a.Host {
				n -= l.Slots
			}
		}
		if n > 0 {
			out = append(out, Alloc{Host: a.Host, Slots: n, GPUs: slices.Clone(a.GPUs)})
		}
	}
	return out
}

// startResizable sets up the resizing of a job that starts: whether it is
// resizable, and its place among the jobs whose requests cycles serve.
func (c *Cluster) startResizable(j *Job) {
	j.resize = newResizeState(j.Sub, j.App)
	if j.Sub.MaxSlots > 0 || j.resize != nil {
		j.Slots = countAllocs(j.Allocs)
	}
	if j.resize != nil {
		if c.resizing == nil {
			c.resizing = map[*Job]bool{}
		}
		c.resizing[j] = true
	}
}

// stopResizable forgets the resizing of a job that leaves its hosts: it
// finished (and keeps its last Slots, which bjobs shows), or it pends
// again (pend), when its Slots are its submission's again.
func (c *Cluster) stopResizable(j *Job, pend bool) {
	if j.resize == nil && j.Sub.MaxSlots == 0 {
		return
	}
	delete(c.resizing, j)
	j.resize = nil
	if pend {
		j.Slots = max(1, j.Sub.Slots)
	}
}

// ResizeError is a bresize request LSF refuses; its text is LSF's.
type ResizeError struct{ Msg string }

func (e *ResizeError) Error() string { return e.Msg }

func resizeErr(format string, args ...any) error {
	return &ResizeError{Msg: fmt.Sprintf(format, args...)}
}

// checkResizing checks that a job may be resized now.
func checkResizing(j *Job) error {
	switch {
	case j.State.Pending():
		return resizeErr("Job has not started yet")
	case j.State.Finished():
		return resizeErr("Job has already finished")
	case j.resize == nil:
		return resizeErr("Job is not resizable")
	case j.resize.grant != nil || j.resize.notifying:
		return resizeErr("The job's previous resize notification has not finished")
	}
	return nil
}

// CheckRelease checks bresize release of slots from a running job and
// returns the slots released, by host: all (every slot but one on the
// first execution host), or the slots hosts names ("hostA" for all its
// slots, "2*hostA" for two of them). cancel is -c: a pending request is
// cancelled first; without it, a job with one cannot release.
func (c *Cluster) CheckRelease(j *Job, all bool, spec []HostSlotSpec, cancel bool) ([]Alloc, error) {
	if err := checkResizing(j); err != nil {
		return nil, err
	}
	if _, pending := j.PendingResize(); pending && !cancel {
		return nil, resizeErr("Job has a pending resize request; use -c to cancel it first")
	}
	var out []Alloc
	if all {
		for i, a := range j.Allocs {
			n := a.Slots
			if i == 0 {
				n--
			}
			if n > 0 {
				out = append(out, Alloc{Host: a.Host, Slots: n})
			}
		}
		if len(out) == 0 {
			return nil, resizeErr("Nothing to release: the job holds one task")
		}
		return out, nil
	}
	for _, s := range spec {
		if s.Slots < 0 {
			return nil, resizeErr("Bad host specification: %d tasks on host <%s>", s.Slots, s.Host)
		}
		held := 0
		var host *Host
		for _, a := range j.Allocs {
			if a.Host.Name == s.Host {
				held, host = a.Slots, a.Host
			}
		}
		if host == nil {
			return nil, resizeErr("Host <%s> is not used by the job", s.Host)
		}
		n := s.Slots
		if n == 0 {
			n = held
		}
		for _, o := range out {
			if o.Host == host {
				n += o.Slots
			}
		}
		if n > held {
			return nil, resizeErr("Cannot release %d tasks on host <%s>: the job has %d there", n, s.Host, held)
		}
		out = slices.DeleteFunc(out, func(o Alloc) bool { return o.Host == host })
		out = append(out, Alloc{Host: host, Slots: n})
	}
	left := subAllocs(j.Allocs, out)
	if len(left) == 0 || left[0].Host != j.Allocs[0].Host {
		return nil, resizeErr("At least one task on the first execution host <%s> must be kept", j.Allocs[0].Host.Name)
	}
	return out, nil
}

// A HostSlotSpec is one host of bresize release: Slots of them, 0 for
// all the job holds there.
type HostSlotSpec struct {
	Host  string
	Slots int
}

// ReleaseSlots gives back slots of a running resizable job (bresize
// release), as CheckRelease allowed. cancel is -c: the job's pending
// request is cancelled (an autoresizable job stops asking by itself).
// notify tells whether a notification command runs for it (NotifyDone
// ends it).
func (c *Cluster) ReleaseSlots(j *Job, less []Alloc, cancel, notify bool, now Time) error {
	if err := checkResizing(j); err != nil {
		return err
	}
	if slices.ContainsFunc(less, func(a Alloc) bool { return a.Slots <= 0 }) {
		return resizeErr("Bad host specification: no task to release on a host")
	}
	left := subAllocs(j.Allocs, less)
	if len(left) == 0 || countAllocs(left)+countAllocs(less) != j.Slots {
		return resizeErr("Cannot release these tasks: the job does not hold them all")
	}
	if _, pending := j.PendingResize(); pending && cancel {
		j.resize.req, j.resize.auto = nil, false
	}
	c.reallocate(j, left, now)
	j.resize.notifying = notify
	if notify {
		j.resize.notice++
	}
	return nil
}

// checkRequest checks bresize request: at least Min more slots, at most
// Max more, within the queue's or profile's TASKLIMIT.
func (c *Cluster) checkRequest(j *Job, r ResizeRequest) error {
	if err := checkResizing(j); err != nil {
		return err
	}
	if r.Min < 1 || r.Max < r.Min || r.Max > 1<<20 {
		return resizeErr("Bad task number: the minimum must be at least 1 and at most the maximum")
	}
	if limit, ok := c.procLimit(j.Queue, j.App); ok && j.Slots+r.Min > limit {
		return resizeErr("The resize request is over the task limit (TASKLIMIT) %d", limit)
	}
	return nil
}

// RequestSlots records bresize request. cancel is -c: a pending request
// is replaced; without it a job with one (an autoresizable job's
// included) is refused. A manual request makes an autoresizable job
// resizable only, as LSF does.
func (c *Cluster) RequestSlots(j *Job, r ResizeRequest, cancel bool) error {
	if err := c.checkRequest(j, r); err != nil {
		return err
	}
	if _, pending := j.PendingResize(); pending && !cancel {
		return resizeErr("Job has a pending resize request; use -c to cancel it first")
	}
	j.resize.auto = false
	j.resize.req = &r
	return nil
}

// CancelResize cancels a job's pending resize request (bresize cancel);
// an autoresizable job stops asking by itself.
func (c *Cluster) CancelResize(j *Job) error {
	if j.State.Pending() {
		return resizeErr("Job has not started yet")
	}
	if j.resize == nil {
		return resizeErr("Job is not resizable")
	}
	if _, pending := j.PendingResize(); !pending {
		return resizeErr("Job has no pending resize request")
	}
	j.resize.req, j.resize.auto = nil, false
	return nil
}

// grow gives a running job the slots a cycle granted its request. With a
// notification command, they are a grant until NotifyDone; without, they
// are the job's for good.
func (c *Cluster) grow(j *Job, more []Alloc, now Time) {
	rs := j.resize
	cmd := j.notifyCommand()
	if rs.req != nil {
		if rs.req.NoNotify {
			cmd = ""
		} else if rs.req.Notify != "" {
			cmd = rs.req.Notify
		}
	}
	rs.req = nil
	c.reallocate(j, addAllocs(j.Allocs, more), now)
	for _, a := range more {
		a.Host.LastDispatch = now
	}
	if cmd != "" {
		rs.grant = &ResizeGrant{Allocs: more, Notify: cmd, Notifying: true}
		rs.notifying = true
		rs.notice++
	}
}

// Grow records that a running job got more slots for its resize request
// (the event log replays it); notify says whether its notification
// command runs.
func (c *Cluster) Grow(j *Job, more []Alloc, notify string, now Time) error {
	if j.resize == nil || !j.State.Started() {
		return fmt.Errorf("job %d is not a running resizable job", j.ID)
	}
	if slices.ContainsFunc(more, func(a Alloc) bool { return a.Slots <= 0 }) {
		return fmt.Errorf("job %d: a grow of no slot on a host", j.ID)
	}
	j.resize.req = &ResizeRequest{Notify: notify, NoNotify: notify == ""}
	c.grow(j, more, now)
	return nil
}

// revoke takes back the slots granted to a job whose notification runs:
// a preemption cancels them. The command still runs; NotifyDone ends it.
func (c *Cluster) revoke(j *Job, now Time) bool {
	rs := j.resize
	if rs == nil || rs.grant == nil {
		return false
	}
	c.reallocate(j, subAllocs(j.Allocs, rs.grant.Allocs), now)
	rs.grant = nil
	return true
}

// Revoke takes back a grant (the event log replays a preemption's).
func (c *Cluster) Revoke(j *Job, now Time) { c.revoke(j, now) }

// NotifyDone records that a job's resize notification command ended
// with exit code code: 0 keeps the slots granted; any other gives them
// back, and 2 (LSB_RESIZE_NOTIFY_FAIL_CANCEL_REQ) also cancels the job's
// pending request (an autoresizable job stops asking). It reports whether
// a preemption's suspend signal waited for it: the caller sends it now.
func (c *Cluster) NotifyDone(j *Job, code int, now Time) (signal bool) {
	rs := j.resize
	if rs == nil || !rs.notifying {
		return false
	}
	if code != 0 && c.revoke(j, now) {
		rs.retryAt = now.Add(max(c.SleepTime, 1))
	}
	if code == 2 {
		rs.req, rs.auto = nil, false
	}
	rs.grant, rs.notifying = nil, false
	signal = rs.holdSignal && j.State == SSusp && j.preempted
	rs.holdSignal = false
	return signal
}

// PreemptResizing applies to a job being preempted what preemptResizing
// does (the event log replays it).
func (c *Cluster) PreemptResizing(j *Job, now Time) { c.preemptResizing(j, now) }

// preemptResizing applies to a job the cycle preempts what seed rules
// of resizable jobs ask: the allocation granted to its pending request
// is cancelled, and while its notification command runs the suspend
// signal is not sent (it waits for the command's end). It reports
// whether the signal waits.
func (c *Cluster) preemptResizing(j *Job, now Time) (holdSignal bool) {
	rs := j.resize
	if rs == nil {
		return false
	}
	c.revoke(j, now)
	if rs.notifying {
		rs.holdSignal = true
		return true
	}
	return false
}

// restoreResizable sets up the resizing of a started job restored from
// its image: its Slots are those it holds, and its request and grant are
// as the image kept them (a grant on a host that is gone is dropped).
func (c *Cluster) restoreResizable(j *Job, im *ResizeImage) {
	c.startResizable(j)
	if j.resize == nil || im == nil {
		return
	}
	rs := j.resize
	rs.auto, rs.notifying, rs.holdSignal, rs.notice = im.Auto, im.Notifying, im.HoldSignal, im.Notice
	if im.Req != nil {
		r := *im.Req
		rs.req = &r
	}
	if len(im.Grant) > 0 {
		g := &ResizeGrant{Notify: im.Notify, Notifying: im.Notifying}
		for _, a := range im.Grant {
			if h := c.hostByName[a.Host]; h != nil {
				g.Allocs = append(g.Allocs, Alloc{Host: h, Slots: a.Slots})
			}
		}
		rs.grant = g
	}
}

// resumeResizing is called when a preempted job resumes: when its suspend
// signal was held back for its notification command and never sent, no
// resume signal is sent either. It reports whether the signal is skipped.
func (c *Cluster) resumeResizing(j *Job) bool {
	if rs := j.resize; rs != nil && rs.holdSignal {
		rs.holdSignal = false
		return true
	}
	return false
}

// SubmittedResizable reports whether the job is resizable, and
// autoresizable, by its submission and profile: what it is once it starts
// (Resizable and AutoResizable tell what a started job is now).
func (j *Job) SubmittedResizable() (resizable, auto bool) {
	rs := newResizeState(j.Sub, j.App)
	if rs == nil {
		return false, false
	}
	return true, rs.auto
}
