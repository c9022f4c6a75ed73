package daemon

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"syscall"

	"github.com/lsfc/lsfc/runtime"
	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/localexec"
)

// The exit codes a resize notification command reports its outcome with,
// as LSF sets them in its environment: the change is accepted, refused,
// or refused with the job's pending request cancelled.
const (
	notifyOK         = 0
	notifyFail       = 1
	notifyFailCancel = 2
)

// applyResize replays a resize record. One that no longer applies (the
// configuration changed its task limit, its hosts are gone) is a warning:
// the job keeps the allocation it has.
func applyResize(c *runtime.Cluster, j *runtime.Job, r Record) (string, error) {
	if err := replayResize(c, j, r); err != nil {
		return fmt.Sprintf("%s of job %d no longer applies: %v", r.Type, j.ID, err), nil
	}
	return "", nil
}

// replayResize applies a resize record to its job.
func replayResize(c *runtime.Cluster, j *runtime.Job, r Record) error {
	var allocs []runtime.Alloc
	for _, a := range r.Allocs {
		if a.Slots <= 0 {
			return fmt.Errorf("%d slots on host %s", a.Slots, a.Host)
		}
		if h := c.Host(a.Host); h != nil {
			allocs = append(allocs, runtime.Alloc{Host: h, Slots: a.Slots})
		}
	}
	switch r.Type {
	case KindResizeGrow:
		return c.Grow(j, allocs, r.Notify, r.At)
	case KindResizeRelease:
		return c.ReleaseSlots(j, allocs, r.Cancel, r.Notify != "", r.At)
	case KindResizeRequest:
		return c.RequestSlots(j, runtime.ResizeRequest{Min: r.Min, Max: r.Max, Notify: r.Notify, NoNotify: r.Text == "rncn"}, r.Cancel)
	case KindResizeCancel:
		return c.CancelResize(j)
	case KindResizePreempt:
		c.PreemptResizing(j, r.At)
		return nil
	case KindResizeNotify:
		c.NotifyDone(j, r.Code, r.At)
		return nil
	}
	return fmt.Errorf("record type %q is not a resize", r.Type)
}

// resizeJob applies bresize to a job: release, request or cancel.
func (d *Daemon) resizeJob(j *runtime.Job, req *api.ResizeAction) (any, []Record, func(), error) {
	now := d.now()
	c := d.cluster
	refuse := func(err error) (any, []Record, func(), error) {
		if re, ok := errors.AsType[*runtime.ResizeError](err); ok {
			return nil, nil, nil, errorf(http.StatusConflict, "Job <%s>: %s", j.Label(), re.Msg)
		}
		return nil, nil, nil, errorf(http.StatusConflict, "Job <%s>: %v", j.Label(), err)
	}
	if req == nil {
		return nil, nil, nil, errorf(http.StatusBadRequest, "bresize without a subcommand")
	}
	if len(req.Notify) > 4<<10 || strings.ContainsRune(req.Notify, 0) {
		return nil, nil, nil, errorf(http.StatusBadRequest, "the resize notification command is longer than 4 KB or holds a NUL byte")
	}
	msg := fmt.Sprintf("Resize request for job <%s> has been submitted", j.Label())
	switch req.Op {
	case "release":
		var spec []runtime.HostSlotSpec
		for _, h := range req.Hosts {
			spec = append(spec, runtime.HostSlotSpec{Host: h.Host, Slots: h.Slots})
		}
		less, err := c.CheckRelease(j, req.All, spec, req.Cancel)
		if err != nil {
			return refuse(err)
		}
		cmd := req.Notify
		if cmd == "" && !req.NoNotify {
			cmd = j.NotifyCommand()
		}
		if err := c.ReleaseSlots(j, less, req.Cancel, cmd != "", now); err != nil {
			return refuse(err)
		}
		rec := Record{Type: KindResizeRelease, At: now, Job: j.ID, Notify: cmd, Cancel: req.Cancel, Allocs: allocImages(less)}
		var act func()
		if cmd != "" {
			act = d.notifyAct(j, "shrink", less, cmd)
		}
		return api.ActionResponse{Message: msg}, []Record{rec}, act, nil
	case "request":
		r := runtime.ResizeRequest{Min: req.Min, Max: req.Max, Notify: req.Notify, NoNotify: req.NoNotify}
		if err := c.RequestSlots(j, r, req.Cancel); err != nil {
			return refuse(err)
		}
		rec := Record{Type: KindResizeRequest, Job: j.ID, Min: r.Min, Max: r.Max, Notify: r.Notify, Cancel: req.Cancel}
		if r.NoNotify {
			rec.Text = "rncn"
		}
		return api.ActionResponse{Message: msg}, []Record{rec}, nil, nil
	case "cancel":
		if err := c.CancelResize(j); err != nil {
			return refuse(err)
		}
		return api.ActionResponse{Message: fmt.Sprintf("Pending resize request for job <%s> is cancelled", j.Label())},
			[]Record{{Type: KindResizeCancel, Job: j.ID}}, nil, nil
	}
	return nil, nil, nil, errorf(http.StatusBadRequest, "bresize: unknown subcommand %q", truncate(req.Op))
}

// allocImages returns allocations by host name.
func allocImages(allocs []runtime.Alloc) []runtime.AllocImage {
	out := make([]runtime.AllocImage, 0, len(allocs))
	for _, a := range allocs {
		out = append(out, runtime.AllocImage{Host: a.Host.Name, Slots: a.Slots})
	}
	return out
}

// resizeRecords returns the records of what a cycle did to resizable
// jobs: a preemption's resize-preempt record goes before the victim's
// suspend or finish, the grows after the starts.
func growRecords(p *runtime.Plan, now runtime.Time) []Record {
	var recs []Record
	for _, g := range p.Grows {
		rec := Record{Type: KindResizeGrow, At: now, Job: g.Job.ID, Allocs: allocImages(g.Allocs)}
		if gr := g.Job.Grant(); gr != nil {
			rec.Notify = gr.Notify
		}
		recs = append(recs, rec)
	}
	return recs
}

// growActs returns the actions of a cycle's grows: the notification
// commands that run for them.
func (d *Daemon) growActs(p *runtime.Plan) []func() {
	var acts []func()
	for _, g := range p.Grows {
		if gr := g.Job.Grant(); gr != nil && gr.Notifying {
			acts = append(acts, d.notifyAct(g.Job, "grow", g.Allocs, gr.Notify))
		}
	}
	return acts
}

// notifyEnv returns the LSB_RESIZE_* variables of a notification: the
// event (grow or shrink), the hosts and slots added or released, and the
// exit codes the command reports its outcome with.
func notifyEnv(event string, changed []runtime.Alloc) []string {
	var hosts []string
	for _, a := range changed {
		hosts = append(hosts, a.Host.Name, strconv.Itoa(a.Slots))
	}
	return []string{
		"LSB_RESIZE_EVENT=" + event,
		"LSB_RESIZE_HOSTS=" + strings.Join(hosts, " "),
		"LSB_RESIZE_NOTIFY_OK=" + strconv.Itoa(notifyOK),
		"LSB_RESIZE_NOTIFY_FAIL=" + strconv.Itoa(notifyFail),
		"LSB_RESIZE_NOTIFY_FAIL_CANCEL_REQ=" + strconv.Itoa(notifyFailCancel),
	}
}

// notifyAct returns the action that runs a job's resize notification
// command on its first execution host, with the job's environment for
// its new allocation, and records its end. A job an agent runs gets it
// from the agent.
func (d *Daemon) notifyAct(j *runtime.Job, event string, changed []runtime.Alloc, cmd string) func() {
	spec := d.spec(j)
	extra := notifyEnv(event, changed)
	id, start, notice := j.ID, j.Start, j.Notice()
	if !d.runsLocally(j) {
		a := d.agentOf(j)
		order := api.AgentOrder{AgentRun: api.AgentRun{Job: id, Start: float64(start)},
			Notify: &api.NotifyOrder{Notice: notice, Command: cmd, Env: append(spec.Env, extra...), Cwd: spec.Cwd, User: spec.User,
				UID: spec.UID, GID: spec.GID, Hosts: spec.Hosts}}
		return func() { d.agents.order(a, order) }
	}
	return func() {
		go func() {
			code := localexec.RunNotify(spec, cmd, extra)
			d.notifyEnded(id, start, notice, code)
		}()
	}
}

// notifyEnded records the end of a job's notification command, with its
// exit code, and sends the suspend signal a preemption held back for it.
func (d *Daemon) notifyEnded(id int64, start runtime.Time, notice, code int) {
	_, err := d.do(context.Background(), func() (any, []Record, func(), error) {
		rec, act := d.noticeEnded(id, start, notice, code)
		if rec == nil {
			return nil, nil, nil, nil
		}
		return nil, []Record{*rec}, act, nil
	})
	if err != nil {
		d.cfg.Logf("job %d: resize notification: %v", id, err)
	}
}

// noticeEnded applies, on the owning goroutine, the end of the job's
// notification numbered notice of its run start: its record, and the
// action that sends the suspend signal a preemption held back for it.
// The end of another run's notification, or of an earlier one of this
// run (an agent reporting again, or late), gives no record. Notice 0 is
// the current notification (an agent of an earlier release, or a
// notification started by one).
func (d *Daemon) noticeEnded(id int64, start runtime.Time, notice, code int) (*Record, func()) {
	j := d.cluster.Job(id)
	if j == nil || j.Start != start || !j.Notifying() || notice != 0 && notice != j.Notice() {
		return nil, nil
	}
	now := d.now()
	var act func()
	if d.cluster.NotifyDone(j, code, now) {
		act = d.signalAct(id, syscall.SIGSTOP)
	}
	return &Record{Type: KindResizeNotify, At: now, Job: id, Code: code}, act
}

// recoverNotifications runs again the notification commands that ran
// when the daemon stopped: their end was never recorded, so the slots
// they were for are granted still.
func (d *Daemon) recoverNotifications() []func() {
	var acts []func()
	for _, j := range d.cluster.Jobs() {
		if !j.Notifying() || !j.State.Started() {
			continue
		}
		if g := j.Grant(); g != nil {
			acts = append(acts, d.notifyAct(j, "grow", g.Allocs, g.Notify))
			continue
		}
		// A release's notification: the slots are gone already; the
		// command is told of the job's allocation as it stands.
		acts = append(acts, d.notifyAct(j, "shrink", nil, j.NotifyCommand()))
	}
	return acts
}

// jobResize describes a job's resizing for bjobs -l; nil for a job of
// neither -n min,max nor resizable.
func jobResize(j *runtime.Job) *api.JobResize {
	resizable := j.Resizable()
	if submitted, _ := j.SubmittedResizable(); !resizable && !submitted && j.Sub.MaxSlots == 0 {
		return nil
	}
	out := &api.JobResize{MinSlots: max(1, j.Sub.Slots), MaxSlots: j.Sub.MaxSlots, Notify: j.NotifyCommand()}
	if j.State.Started() {
		out.Resizable, out.Auto = resizable, j.AutoResizable()
		if r, ok := j.PendingResize(); ok {
			out.PendingMin, out.PendingMax = r.Min, r.Max
		}
		if g := j.Grant(); g != nil {
			for _, a := range g.Allocs {
				out.Granted = append(out.Granted, api.HostSlots{Host: a.Host.Name, Slots: a.Slots})
			}
		}
		out.Notifying = j.Notifying()
	} else {
		out.Resizable, out.Auto = j.SubmittedResizable()
	}
	return out
}
