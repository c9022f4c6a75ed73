package daemon

import (
	"context"
	"errors"
	"fmt"
	iofs "io/fs"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lsfc/lsfc/runtime"
	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/eventlog"
	"github.com/lsfc/lsfc/runtime/localexec"
)

// handleHistory answers bhist: the histories of the jobs the query
// selects, read from the event log files (the current one, and with
// logs=2 or more, or -1, the one the last compaction replaced). The log
// is read beside the daemon, not in its loop: a long read delays no
// scheduling. The caller sees what bjobs shows it: the jobs named by ID,
// or the jobs of the user asked for ("all" for everyone's; the caller's
// by default).
func (d *Daemon) handleHistory(w http.ResponseWriter, r *http.Request) {
	v := r.URL.Query()
	ids := map[int64]bool{}
	for _, s := range v["id"] {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n <= 0 {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("bad job id %q", truncate(s)))
			return
		}
		ids[n] = true
	}
	logs := 1
	if s := v.Get("logs"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < -1 {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("bad number of log files %q", truncate(s)))
			return
		}
		logs = n
	}
	user := v.Get("user")
	if user == "" && len(ids) == 0 {
		user = who(r).User
	}
	fs, ok := d.store.(fileStore)
	if !ok {
		writeError(w, http.StatusNotImplemented, fmt.Sprintf("job histories are read from an event log file, and this daemon keeps its log in %s", d.store))
		return
	}
	paths := []string{fs.path}
	if logs == -1 || logs >= 2 {
		paths = []string{fs.path + ".1", fs.path}
	}
	if err := d.flushForRead(); err != nil {
		writeError(w, http.StatusInternalServerError, fmt.Sprintf("writing the event log: %v", err))
		return
	}
	b, err := readHistories(paths)
	if err != nil {
		writeError(w, http.StatusInternalServerError, fmt.Sprintf("reading the event log: %v", err))
		return
	}
	out := []api.JobHistory{}
	for _, id := range b.order {
		h := b.jobs[id]
		switch {
		case len(ids) > 0 && !ids[id] && !ids[h.ID]:
			continue
		case len(ids) == 0 && user != "all" && h.User != user:
			continue
		}
		out = append(out, *h)
	}
	if err := d.describeGPUs(r.Context(), out); err != nil {
		reply(w, nil, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// flushWait bounds how long a reader of the event log waits for the
// transactions appended so far to be written.
const flushWait = time.Second

// A flushJournal writes, on demand, the transactions appended deferred,
// and tells when it is stalled for want of space (see eventlog.Log).
type flushJournal interface {
	Flush() Committed
	Stalled() error
}

// flushForRead has the transactions appended so far written before the
// event log is read, so that the reader finds what clients have seen of
// their jobs: a finish appended deferred (commitFinishThen) is written.
// While the log is stalled for want of space nothing can be written, and
// the reader reads what is on disk at once: a full disk keeps answering
// queries. A stall that begins during the wait ends it after flushWait.
// Only a failed write is an error.
func (d *Daemon) flushForRead() error {
	f, ok := d.log.(flushJournal)
	if !ok || f.Stalled() != nil {
		return nil
	}
	done := make(chan error, 1)
	c := f.Flush()
	go func() { done <- c.Wait() }()
	t := time.NewTimer(flushWait)
	defer t.Stop()
	select {
	case err := <-done:
		return err
	case <-t.C:
		return nil
	}
}

// describeGPUs fills in, for the GPUs jobs were given at their starts,
// each GPU's model and memory as its host has them now, and the GPU
// memory the job reserves on each when the job is still known.
func (d *Daemon) describeGPUs(ctx context.Context, hs []api.JobHistory) error {
	some := false
	for _, h := range hs {
		for _, e := range h.Events {
			some = some || len(e.GPUs) > 0
		}
	}
	if !some {
		return nil
	}
	_, err := d.do(ctx, func() (any, []Record, func(), error) {
		for _, h := range hs {
			var gmem float64
			if j := d.cluster.Job(h.ID); j != nil && j.GPU != nil {
				gmem = j.GPU.GMem
			}
			for _, e := range h.Events {
				for i := range e.GPUs {
					g := &e.GPUs[i]
					g.Reserved = gmem
					host := d.cluster.Host(g.Host)
					for _, x := range g.IDs {
						model, mem := "", 0.0
						if host != nil {
							for _, dev := range host.GPUs {
								if dev.Index == x {
									model, mem = dev.Model, dev.Mem
								}
							}
						}
						g.Models, g.Mem = append(g.Models, model), append(g.Mem, mem)
					}
				}
			}
		}
		return nil, nil, nil, nil
	})
	return err
}

// readHistories reads the event log files given, oldest first, into
// jobs' histories. A file other than the last that is missing is passed
// over. The transactions appended while a compaction ran are in both the
// file it replaced and the new one: those of a file the one before it
// had are passed over.
func readHistories(paths []string) (*histories, error) {
	b := newHistories()
	var last uint64
	for i, p := range paths {
		seen := last
		err := eventlog.Read(p, func(seq uint64, records [][]byte) error {
			if seq <= seen && seen > 0 {
				return nil
			}
			last = max(last, seq)
			for _, raw := range records {
				rec, err := decode(raw)
				if err != nil {
					return err
				}
				if err := b.add(rec); err != nil {
					return err
				}
			}
			return nil
		})
		if errors.Is(err, iofs.ErrNotExist) && i < len(paths)-1 {
			continue
		}
		if err != nil {
			return nil, err
		}
	}
	return b, nil
}

// histories builds jobs' histories from the event log's records.
type histories struct {
	jobs  map[int64]*api.JobHistory
	order []int64
}

func newHistories() *histories { return &histories{jobs: map[int64]*api.JobHistory{}} }

// add applies one record. A job's record before its "new" (its history
// began in a log file not read) is passed over, and so is a snapshot's
// image of a job whose history is known, and a kind that says nothing of
// a job's history. A format record newer than this build's is an error.
func (b *histories) add(r Record) error {
	if r.Type == KindFormat && r.Version > FormatVersion {
		return fmt.Errorf("the log's records are of format %d, and this build reads up to %d", r.Version, FormatVersion)
	}
	if r.Type == KindNew || r.Type == KindJob {
		if r.Image == nil || b.jobs[r.Image.ID] != nil {
			return nil
		}
		h := historyOf(r.Image, r.Type == KindJob)
		b.jobs[r.Image.ID] = h
		b.order = append(b.order, r.Image.ID)
		return nil
	}
	if r.Type == KindArray {
		if r.Image == nil {
			return nil
		}
		spec, err := api.ParseArraySpec(r.Image.Sub.Name+"["+r.Image.Sub.Array+"]", api.MaxArrayIndex)
		if err != nil {
			return nil
		}
		for _, idx := range spec.Indices() {
			id := api.ElementID(r.Image.ID, idx)
			if b.jobs[id] != nil {
				continue
			}
			im := *r.Image
			im.ID = id
			b.jobs[id] = historyOf(&im, false)
			b.order = append(b.order, id)
		}
		return nil
	}
	h := b.jobs[r.Job]
	if h == nil {
		return nil
	}
	ev := api.HistoryEvent{At: int64(r.At), Reason: r.Comment}
	switch r.Type {
	case KindStart:
		ev.Kind, h.State = api.EventStart, "RUN"
		for _, a := range r.Allocs {
			for range a.Slots {
				ev.Hosts = append(ev.Hosts, a.Host)
			}
			ev.Slots += a.Slots
			if len(a.GPUs) > 0 {
				ev.GPUs = append(ev.GPUs, api.JobGPUs{Host: a.Host, IDs: slices.Clone(a.GPUs)})
			}
		}
	case KindRemoteStart:
		ev.Kind, ev.Hosts, ev.Slots, h.State = api.EventStart, r.Hosts, len(r.Hosts), "RUN"
	case KindFinish, KindRemoteFinish:
		ev = endEvent(ev.At, r.State, r.Code, r.Term, r.CPU)
		ev.Reason = r.Comment
		h.State = r.State
	case KindSuspend:
		ev.Kind, ev.State = api.EventSuspend, "SSUSP"
		switch {
		case h.State == "PEND":
			ev.State = "PSUSP"
		case r.Reason == 0:
			ev.State = "USUSP"
		}
		h.State = ev.State
	case KindHold:
		ev.Kind, ev.State, h.State = api.EventSuspend, "PSUSP", "PSUSP"
	case KindResume, KindRelease:
		ev.Kind, ev.State = api.EventResume, "RUN"
		if h.State == "PSUSP" {
			ev.State = "PEND"
		}
		h.State = ev.State
	case KindRemoteState:
		switch {
		case r.State == "RUN" && h.State != "RUN":
			ev.Kind, ev.State = api.EventResume, "RUN"
		case r.State == "USUSP" || r.State == "SSUSP":
			ev.Kind, ev.State = api.EventSuspend, r.State
		}
		h.State = r.State
	case KindRequeue, KindRemoteRequeue:
		ev.Kind, h.State = api.EventRequeue, "PEND"
	case KindExitRequeue:
		// State PSUSP: held, its MAX_JOB_REQUEUE reached.
		ev.Kind, ev.Text, ev.Code, ev.State = api.EventRequeue, api.RequeueOnExit, r.Code, r.State
		h.State = cmpOr(r.State, "PEND")
	case KindBrequeue:
		if h.State == "DONE" || h.State == "EXIT" {
			ev.Kind, h.State = api.EventRequeue, cmpOr(r.State, "PEND")
		} else {
			ev.Kind, ev.Text = api.EventSignal, "KILL"
		}
	case KindTop, KindBottom:
		ev.Kind, ev.Text = api.EventMove, string(r.Type)
	case KindSwitch:
		ev.Kind, ev.Text = api.EventSwitch, r.Queue
	case KindModify:
		ev.Kind, ev.Text = api.EventModify, modificationText(r.Mod)
		if m := r.Mod; m != nil {
			// bhist -P and -G select the job by what it has now.
			if m.Project != nil {
				h.Project = *m.Project
			}
			if m.Group != nil {
				h.UserGroup = *m.Group
			}
		}
	case KindStatus:
		ev.Kind, ev.Text = api.EventStatus, r.Text
	case KindKill:
		ev.Kind, ev.Text = api.EventSignal, "KILL"
	case KindLost:
		ev.Kind = api.EventLost
	case KindForward:
		ev.Kind, ev.Text = api.EventForward, r.Cluster
	case KindAccept:
		ev.Kind, ev.Pid = api.EventAccept, r.Remote
		if n := len(h.Events); n > 0 && h.Events[n-1].Kind == api.EventForward {
			ev.Text = h.Events[n-1].Text
		}
	case KindReturn:
		ev.Kind, ev.Text, h.State = api.EventReturn, r.Text, cmpOr(r.State, "PEND")
	case KindPreExec:
		ev.Kind, ev.Code, ev.State, h.State = api.EventPreExec, r.Code, r.State, r.State
	case KindResizeGrow, KindResizeRelease:
		ev.Kind, ev.Text = api.EventResize, "grow"
		if r.Type == KindResizeRelease {
			ev.Text = "release"
		}
		for _, a := range r.Allocs {
			for range a.Slots {
				ev.Hosts = append(ev.Hosts, a.Host)
			}
			ev.Slots += a.Slots
		}
	case KindResizeRequest:
		ev.Kind, ev.Text, ev.Slots, ev.Code = api.EventResize, "request", r.Max, r.Min
	case KindResizeCancel:
		ev.Kind, ev.Text = api.EventResize, "cancel"
	case KindResizeNotify:
		ev.Kind, ev.Text, ev.Code = api.EventResize, "notified", r.Code
	case KindPostExec:
		switch r.Text {
		case runtime.PostRunning:
			// The job ended before its post-execution commands: their
			// end comes in a record of its own.
		case localexec.PostErr:
			ev.Kind = api.EventPostErr
		default:
			ev.Kind = api.EventPostDone
		}
	}
	if ev.Kind != "" {
		h.Events = append(h.Events, ev)
	}
	return nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// historyOf starts the history of a job from its image: its submission
// for a new job; for a snapshot's job (a compaction kept only its
// image), its dispatch and end as well.
func historyOf(im *runtime.JobImage, snapshot bool) *api.JobHistory {
	s := im.Sub
	id, index := api.SplitID(im.ID)
	name := s.Name
	if index > 0 {
		name += "[" + strconv.Itoa(index) + "]"
	}
	h := &api.JobHistory{ID: id, Index: index, Name: name, User: s.User, Queue: s.Queue, Command: s.Command,
		FromHost: s.FromHost, Cwd: s.Cwd, Submit: int64(im.Submit), State: "PEND", Slots: s.Slots, ResReq: s.ResReq,
		JobGroup: s.JobGroup, Project: s.Project, UserGroup: s.Group}
	h.Events = []api.HistoryEvent{{At: h.Submit, Kind: api.EventSubmit, Text: s.Queue}}
	if !snapshot {
		if im.State == runtime.PSusp {
			h.Events = append(h.Events, api.HistoryEvent{At: h.Submit, Kind: api.EventSuspend, State: "PSUSP"})
			h.State = "PSUSP"
		}
		return h
	}
	if im.Start != 0 {
		ev := api.HistoryEvent{At: int64(im.Start), Kind: api.EventStart}
		for _, a := range im.Allocs {
			for range a.Slots {
				ev.Hosts = append(ev.Hosts, a.Host)
			}
			ev.Slots += a.Slots
		}
		h.Events = append(h.Events, ev)
	}
	state := im.State.String()
	if im.State.Finished() {
		h.Events = append(h.Events, endEvent(int64(im.End), state, im.ExitCode, im.Term, im.CPUTime))
	} else if state != "PEND" && state != "RUN" {
		// When it was suspended the image does not say.
		h.Events = append(h.Events, api.HistoryEvent{At: int64(max(im.Start, im.Submit)), Kind: api.EventSuspend, State: state})
	}
	h.State = state
	return h
}

// endEvent returns the event of a job's end in state (DONE or EXIT).
func endEvent(at int64, state string, code int, term string, cpu float64) api.HistoryEvent {
	if state == "DONE" {
		return api.HistoryEvent{At: at, Kind: api.EventDone, CPU: cpu}
	}
	return api.HistoryEvent{At: at, Kind: api.EventExit, Code: code, Text: term, CPU: cpu}
}

// modificationText says what a bmod changed, as its options.
func modificationText(m *runtime.Modification) string {
	if m == nil {
		return ""
	}
	var parts []string
	if m.Queue != nil {
		parts = append(parts, "-q "+strconv.Quote(*m.Queue))
	}
	if m.Name != nil {
		parts = append(parts, "-J "+strconv.Quote(*m.Name))
	}
	if m.Slots != nil {
		parts = append(parts, "-n "+strconv.Itoa(*m.Slots))
	}
	if m.ResReq != nil {
		parts = append(parts, "-R "+strconv.Quote(*m.ResReq))
	}
	if m.RunLimit != nil {
		parts = append(parts, "-W "+strconv.FormatFloat(*m.RunLimit/60, 'f', -1, 64))
	}
	if m.Priority != nil {
		parts = append(parts, "-sp "+strconv.Itoa(*m.Priority))
	}
	if m.Depend != nil {
		parts = append(parts, "-w "+strconv.Quote(*m.Depend))
	}
	if m.Hosts != nil {
		parts = append(parts, "-m "+strconv.Quote(strings.Join(slices.Clone(*m.Hosts), " ")))
	}
	switch {
	case m.Description != nil && *m.Description == "":
		parts = append(parts, "-Jdn")
	case m.Description != nil:
		parts = append(parts, "-Jd "+strconv.Quote(*m.Description))
	}
	switch {
	case m.Project != nil && *m.Project == "":
		parts = append(parts, "-Pn")
	case m.Project != nil:
		parts = append(parts, "-P "+strconv.Quote(*m.Project))
	}
	switch {
	case m.Group != nil && *m.Group == "":
		parts = append(parts, "-Gn")
	case m.Group != nil:
		parts = append(parts, "-G "+strconv.Quote(*m.Group))
	}
	switch {
	case m.GPU != nil && *m.GPU == "":
		parts = append(parts, "-gpun")
	case m.GPU != nil:
		parts = append(parts, "-gpu "+strconv.Quote(*m.GPU))
	}
	switch {
	case m.JobGroup != nil && *m.JobGroup == "":
		parts = append(parts, "-gn")
	case m.JobGroup != nil:
		parts = append(parts, "-g "+strconv.Quote(*m.JobGroup))
	}
	switch {
	case m.Reservation != nil && *m.Reservation == "":
		parts = append(parts, "-Un")
	case m.Reservation != nil:
		parts = append(parts, "-U "+strconv.Quote(*m.Reservation))
	}
	return strings.Join(parts, " ")
}
