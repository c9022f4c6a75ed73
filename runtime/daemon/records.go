package daemon

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/lsfc/lsfc/runtime"
	"github.com/lsfc/lsfc/runtime/mc"
)

// A Record is one change of the cluster's state, as the event log keeps
// it: one JSON object per record, whose "t" field is its Kind (the table
// below, and RECORDS.md beside runtime/eventlog/doc.go, say what each
// kind carries). Replaying the records in order on the cluster of the
// same configuration gives back the same state.
//
// The JSON names of the fields, and of every field of the job images and
// modifications they carry, are part of the log's format: they never
// change. A change that cannot be read the old way raises FormatVersion.
type Record struct {
	Type   Kind                  `json:"t"`
	At     runtime.Time          `json:"at,omitempty"`
	Job    int64                 `json:"job,omitempty"`
	Image  *runtime.JobImage     `json:"image,omitempty"`
	Allocs []runtime.AllocImage  `json:"allocs,omitempty"`
	State  string                `json:"state,omitempty"`
	Code   int                   `json:"code,omitempty"`
	Term   string                `json:"term,omitempty"`
	Reason runtime.Reason        `json:"reason,omitempty"`
	Queue  string                `json:"queue,omitempty"`
	Host   string                `json:"host,omitempty"`
	Open   bool                  `json:"open,omitempty"`
	Active bool                  `json:"active,omitempty"`
	Text   string                `json:"text,omitempty"`
	Mod    *runtime.Modification `json:"mod,omitempty"`
	NextID int64                 `json:"nextID,omitempty"`
	// CPU and Mem are, on a finish, what the job's processes used: CPU
	// seconds and the most memory held, in MB.
	CPU float64 `json:"cpu,omitempty"`
	Mem float64 `json:"mem,omitempty"`
	// Cluster, Remote and Hosts are, for a forwarded job, the cluster it
	// went to, its job ID there and the hosts it runs on there.
	Cluster string   `json:"cluster,omitempty"`
	Remote  int64    `json:"remote,omitempty"`
	Hosts   []string `json:"hosts,omitempty"`
	// Why is, on a forwarded job's return, what the peer said (the
	// receive queue's reason for a rejection).
	Why string `json:"why,omitempty"`
	// Token is, on a new job (or a snapshot's job), the token of its
	// submission, which a retried submission is matched by.
	Token string `json:"token,omitempty"`
	// Cwd is, on a finish (or a snapshot's finished job), the directory
	// the job ran in when it was not the one asked for: it could not
	// enter that one.
	Cwd string `json:"cwd,omitempty"`
	// Version is, on a format record, the format of the records after it.
	Version int `json:"version,omitempty"`
	// Owner, Limit, SLA and Implicit are, on a job group's record (its
	// path in Text), its owner, its job limit (nil for none), the service
	// class it is attached to, and whether a job's -g (not bgadd) made it.
	Owner    string `json:"owner,omitempty"`
	Limit    *int   `json:"limit,omitempty"`
	SLA      string `json:"sla,omitempty"`
	Implicit bool   `json:"implicit,omitempty"`
	// Rsv is, on an advance reservation's record, the reservation.
	Rsv *runtime.AdvRsv `json:"rsv,omitempty"`
	// Min and Max are, on a resize request, the fewest and most slots
	// asked for; Notify is, on a resize record, the notification command
	// that runs for it ("" for none), and Cancel is bresize -c.
	Min    int    `json:"min,omitempty"`
	Max    int    `json:"max,omitempty"`
	Notify string `json:"notify,omitempty"`
	Cancel bool   `json:"cancel,omitempty"`
	// Comment is, on the record of a kill, suspension or resumption
	// (kill, finish, suspend, hold, resume, release), the reason its
	// bkill, bstop or bresume gave with -C.
	Comment string `json:"comment,omitempty"`
}

// A Kind is what a record says: its "t" field in the log. The names are
// the log's format and never change.
type Kind string

// The kinds of records. kindTable says what each carries.
const (
	KindFormat        Kind = "format"
	KindNew           Kind = "new"
	KindStart         Kind = "start"
	KindFinish        Kind = "finish"
	KindSuspend       Kind = "suspend"
	KindResume        Kind = "resume"
	KindRequeue       Kind = "requeue"
	KindTop           Kind = "top"
	KindBottom        Kind = "bottom"
	KindHold          Kind = "hold"
	KindRelease       Kind = "release"
	KindSwitch        Kind = "switch"
	KindModify        Kind = "modify"
	KindAPS           Kind = "aps"
	KindStatus        Kind = "status"
	KindKill          Kind = "kill"
	KindQueue         Kind = "queue"
	KindLost          Kind = "lost"
	KindHost          Kind = "host"
	KindException     Kind = "exception"
	KindJob           Kind = "job"
	KindState         Kind = "state"
	KindForward       Kind = "forward"
	KindMCRecall      Kind = "mc-recall"
	KindMCReject      Kind = "mc-reject"
	KindAccept        Kind = "accept"
	KindReturn        Kind = "return"
	KindRemoteStart   Kind = "remote-start"
	KindRemoteState   Kind = "remote-state"
	KindRemoteRequeue Kind = "remote-requeue"
	KindRemoteFinish  Kind = "remote-finish"
	KindGroupAdd      Kind = "jgroup-add"
	KindGroupMod      Kind = "jgroup-mod"
	KindGroupDel      Kind = "jgroup-del"
	KindPreExec       Kind = "pre-exec"
	KindPostExec      Kind = "post-exec"
	KindArray         Kind = "array"
	KindArrayLimit    Kind = "array-limit"
	KindBrequeue      Kind = "brequeue"
	KindRsvAdd        Kind = "rsv-add"
	KindRsvDel        Kind = "rsv-del"
	KindResizeGrow    Kind = "resize-grow"
	KindResizeRelease Kind = "resize-release"
	KindResizeRequest Kind = "resize-request"
	KindResizeCancel  Kind = "resize-cancel"
	KindResizePreempt Kind = "resize-preempt"
	KindResizeNotify  Kind = "resize-notified"
	KindExitRequeue   Kind = "exit-requeue"
)

// FormatVersion is the format of the records this build writes and the
// newest it reads. Every log and every snapshot starts with a format
// record; a log without one (written before it was kept) is version 1.
const FormatVersion = 1

// A KindInfo describes one kind of record: the fields it carries, and
// whether it names a job the log must already have (Job).
type KindInfo struct {
	Kind    Kind
	Fields  string
	Doc     string
	WantJob bool
}

// kindTable is the table of record kinds, in the order RECORDS.md lists
// them. It is never changed.
var kindTable = [...]KindInfo{
	{KindFormat, "Version", "the format of the records that follow; first in every log and snapshot", false},
	{KindNew, "Image, Token", "a job was accepted; Token is its submission's, if any", false},
	{KindStart, "Job, At, Allocs", "a job was dispatched on Allocs; At is its start", true},
	{KindFinish, "Job, At, State, Code, Term, CPU, Mem, Cwd, Comment", "a job ended: DONE or EXIT, its exit code, how it was ended, CPU seconds and most memory (MB) its processes used, and the directory it ran in when it could not enter the one it asked for; Comment is the reason of the bkill that ended it", true},
	{KindSuspend, "Job, At, Reason, Comment", "a running job was suspended (Reason empty for USUSP); Comment is the reason of its bstop", true},
	{KindResume, "Job, At, Comment", "a suspended job runs again; Comment is the reason of its bresume", true},
	{KindRequeue, "Job, At", "a started job went back to pending", true},
	{KindTop, "Job", "btop of a pending job", true},
	{KindBottom, "Job", "bbot of a pending job", true},
	{KindHold, "Job, Comment", "bstop of a pending job; Comment is its reason", true},
	{KindRelease, "Job, Comment", "bresume of a held job; Comment is its reason", true},
	{KindSwitch, "Job, At, Queue", "bswitch", true},
	{KindModify, "Job, Mod", "bmod", true},
	{KindAPS, "Job, Text", `bmod -aps and -apsn: "system=v", "admin=v", "" to clear`, true},
	{KindStatus, "Job, Text", "bstatus", true},
	{KindKill, "Job, At, Term, State, Comment", "a started job is being killed; Term is how it ends, State DONE for bkill -d (it is recorded as DONE), Comment the reason of its bkill", true},
	{KindQueue, "Queue, Open, Active", "badmin qopen, qclose, qact, qinact", false},
	{KindLost, "Job, At", "a pending job whose queue is gone went to lost_and_found", true},
	{KindHost, "Host, Text", "badmin hopen, hclose: Text is the status", false},
	{KindException, "Job or Host, At, Text", "a job exception (overrun, idle; underrun in the transaction of the job's finish, after it), or a host closed for its job exit rate (Host, \"exit_rate\")", false},
	{KindJob, "Image, Token, Cwd", "a job of a snapshot; Cwd as on its finish", false},
	{KindState, "NextID", "a snapshot's cluster state", false},
	{KindForward, "Job, At, Cluster, Queue", "MultiCluster: a pending job was sent to a receive-jobs queue", true},
	{KindMCRecall, "Job, At, Cluster, Remote", "MultiCluster: a job another cluster forwarded here was recalled by it (Cluster, and Remote its ID there)", true},
	{KindMCReject, "At, Cluster, Remote, Queue, Text", "MultiCluster: a job cluster Cluster forwarded (its ID there Remote) that receive queue Queue refused, for the reason Text; changes nothing", false},
	{KindAccept, "Job, At, Remote", "MultiCluster: the remote queue took the job; Remote is its job ID there", true},
	{KindReturn, "Job, Text, Reason, State", "MultiCluster: the job came back before starting there; Text is the cause (rejected, unreachable, recalled, start failed, no resources), State PEND or PSUSP past LSB_MC_INITFAIL_RETRY", true},
	{KindRemoteStart, "Job, At, Hosts", "MultiCluster: the job started there, on Hosts (host@cluster)", true},
	{KindRemoteState, "Job, State", "MultiCluster: the job runs, or is suspended, there (RUN, USUSP, SSUSP)", true},
	{KindRemoteRequeue, "Job", "MultiCluster: the job pends there again after it started", true},
	{KindRemoteFinish, "Job, At, State, Code, Term", "MultiCluster: the job ended there", true},
	{KindGroupAdd, "Text, Owner, Limit, SLA, Implicit, At", "bgadd of job group Text (and the groups above it that were missing), or a job group of a snapshot; At is when it became idle (its creation, or the end of its last job), left out while it holds unfinished jobs", false},
	{KindGroupMod, "Text, Limit, Owner", "bgmod -L, -Ln or -u of job group Text: its limit after it (no Limit for none), and its new Owner for -u", false},
	{KindGroupDel, "Text", "bgdel of job group Text and the groups under it", false},
	{KindPreExec, "Job, At, Code, State", "a started job's pre-execution command exited with Code: the job went back to State, PEND to be retried or PSUSP past LOCAL_MAX_PREEXEC_RETRY", true},
	{KindPostExec, "Job, At, Text", "a job's post-execution commands ended: Text is POST_DONE or POST_ERR; in the transaction of the job's finish (or pre-exec), after it. With JOB_INCLUDE_POSTPROC=N, Text POST_RUN there says they run on after the job's end, and a second post-exec record, in a transaction of its own, says how they ended", true},
	{KindArray, "Image, Token", "a job array was accepted: Image is the array (its ID the array's job ID, Sub.Array its index list), from which one pending element per index is made; the records of an element name it by its own ID (the index times 2^32 plus the job ID)", false},
	{KindArrayLimit, "Job, Code", `bmod -J "%N": the running limit of array Job becomes Code (0: none)`, false},
	{KindBrequeue, "Job, At, Term, State", "brequeue: a finished job (DONE or EXIT) pends again at once, in State (PEND, or PSUSP with -H); a started one is being killed with Term (TERM_REQUEUE_OWNER or TERM_REQUEUE_ADMIN) and pends again, in State, once its processes end (a requeue record, then a hold record for PSUSP)", true},
	{KindRsvAdd, "Rsv", "brsvadd or brsvmod: advance reservation Rsv, whole, added or in place of the one of its ID; or a reservation of a snapshot", false},
	{KindRsvDel, "Text", "brsvdel of advance reservation Text; its jobs are detached from it", false},
	{KindResizeGrow, "Job, At, Allocs, Notify", "a running resizable job's pending resize request got the slots Allocs; while its notification command Notify runs they are only granted (none: they are the job's)", true},
	{KindResizeRelease, "Job, At, Allocs, Notify, Cancel", "bresize release: the running job gave back the slots Allocs; Cancel (-c) cancelled its pending request; Notify is the notification command that runs for it", true},
	{KindResizeRequest, "Job, Min, Max, Notify, Text, Cancel", "bresize request: the running job asks for Min to Max more slots; Notify is -rnc, Text rncn for -rncn; Cancel (-c) replaced its pending request", true},
	{KindResizeCancel, "Job", "bresize cancel: the job's pending resize request is cancelled (an autoresizable job stops asking)", true},
	{KindResizePreempt, "Job, At", "a cycle preempts the job: the slots granted to its resize request whose notification runs are taken back, and while the command runs the suspend signal waits for its end; before the job's suspend (or finish) record", true},
	{KindResizeNotify, "Job, At, Code", "the job's resize notification command ended with exit code Code: 0 keeps the slots granted, any other gives them back", true},
	{KindExitRequeue, "Job, At, Code, Hosts, State", "a started job exited with Code, one of its requeue exit values (REQUEUE_EXIT_VALUES, bsub -Q), and went back to pending, its requeue count one more; State PSUSP (absent otherwise): its MAX_JOB_REQUEUE was reached, and it was held instead, its count unchanged, until bresume; Hosts, for an exclusive value (EXCLUDE), are the hosts it exited on, which it is not dispatched to again", true},
}

// Kinds returns the table of record kinds, in the order RECORDS.md lists
// them.
func Kinds() []KindInfo { return slices.Clone(kindTable[:]) }

// formatRecord returns the record that starts every log and snapshot.
func formatRecord() Record { return Record{Type: KindFormat, Version: FormatVersion} }

// kindInfo returns the table's entry of k.
func kindInfo(k Kind) (KindInfo, bool) {
	for _, ki := range kindTable {
		if ki.Kind == k {
			return ki, true
		}
	}
	return KindInfo{}, false
}

// encode writes records as the log's payloads.
func encode(recs []Record) ([][]byte, error) {
	out := make([][]byte, len(recs))
	for i, r := range recs {
		b, err := json.Marshal(r)
		if err != nil {
			return nil, err
		}
		out[i] = b
	}
	return out, nil
}

// A recordEncoder encodes records into a buffer it reuses: the records
// it returns are valid until its next use, and each is what json.Marshal
// would give. Records go to Journal.Append, which copies them, so that a
// transaction's encoding costs no allocation of its own.
type recordEncoder struct {
	buf bytes.Buffer
	enc *json.Encoder
	out [][]byte
	end []int
}

func (e *recordEncoder) encode(recs []Record) ([][]byte, error) {
	if e.enc == nil {
		e.enc = json.NewEncoder(&e.buf)
	}
	e.buf.Reset()
	e.end = e.end[:0]
	for i := range recs {
		if err := e.enc.Encode(&recs[i]); err != nil {
			return nil, err
		}
		// Without the newline the Encoder ends each value with.
		e.end = append(e.end, e.buf.Len()-1)
	}
	b := e.buf.Bytes()
	e.out = e.out[:0]
	start := 0
	for _, end := range e.end {
		e.out = append(e.out, b[start:end:end])
		start = end + 1
	}
	if e.buf.Cap() > 1<<20 {
		// A large transaction's buffer is not kept: the records
		// returned hold on to it until they are dropped.
		e.buf, e.enc = bytes.Buffer{}, nil
	}
	return e.out, nil
}

// DecodeRecord reads one record of the event log, as a transaction
// replayed from runtime/eventlog (or runtime/etcdlog) holds it. It checks
// the JSON only: whether the kind is known, and what the record means,
// is apply's business.
func DecodeRecord(b []byte) (Record, error) { return decode(b) }

// decode reads one record.
func decode(b []byte) (Record, error) {
	var r Record
	if err := json.Unmarshal(b, &r); err != nil {
		return Record{}, fmt.Errorf("bad record: %w", err)
	}
	return r, nil
}

// apply replays one record on the cluster. A record naming a job the
// cluster does not have is an error: the log and the state disagree. A
// format record newer than FormatVersion is an error too.
func apply(c *runtime.Cluster, r Record) (warning string, err error) {
	info, ok := kindInfo(r.Type)
	if !ok {
		return "", fmt.Errorf("unknown record type %q", r.Type)
	}
	var j *runtime.Job
	if info.WantJob || r.Type == KindException && r.Job != 0 {
		if j = c.Job(r.Job); j == nil {
			return "", fmt.Errorf("%s of job %d, which the log never created", r.Type, r.Job)
		}
	}
	switch r.Type {
	case KindFormat:
		switch {
		case r.Version > FormatVersion:
			return "", fmt.Errorf("the log's records are of format version %d, newer than this lsfc reads (%d): run a newer lsfc", r.Version, FormatVersion)
		case r.Version < 1:
			return "", fmt.Errorf("format record of version %d: want 1 to %d", r.Version, FormatVersion)
		}
		return "", nil
	case KindNew, KindJob:
		if r.Image == nil {
			return "", fmt.Errorf("%s record without a job", r.Type)
		}
		_, w, err := c.Restore(*r.Image)
		return w, err
	case KindArray:
		if r.Image == nil {
			return "", fmt.Errorf("%s record without a job", r.Type)
		}
		_, w, err := c.RestoreArray(*r.Image)
		return w, err
	case KindArrayLimit:
		a := c.Array(r.Job)
		if a == nil {
			return "", fmt.Errorf("%s of job array %d, which the log never created", r.Type, r.Job)
		}
		return "", c.SetArrayLimit(a, r.Code)
	case KindState:
		c.SetNextID(r.NextID)
		return "", nil
	case KindQueue:
		q := c.Queue(r.Queue)
		switch {
		case q == nil && r.Queue == runtime.LostAndFound:
			// Made when a job needs it, as it is closed and inactive.
			return "", nil
		case q == nil:
			return fmt.Sprintf("queue %s is gone", r.Queue), nil
		}
		c.SetQueueOpen(q, r.Open)
		c.SetQueueActive(q, r.Active)
		return "", nil
	case KindException:
		if j != nil {
			e, ok := runtime.ParseException(r.Text)
			if !ok || e == 0 {
				return "", fmt.Errorf("exception of job %d: unknown kind %q", j.ID, r.Text)
			}
			c.RaiseJobException(j, e)
			return "", nil
		}
		h := c.Host(r.Host)
		if h == nil {
			return fmt.Sprintf("host %s is gone", r.Host), nil
		}
		if r.Text != exitRateText {
			return "", fmt.Errorf("host exception %q of host %s: want %q", r.Text, r.Host, exitRateText)
		}
		c.CloseForExitRate(h)
		return "", nil
	case KindMCReject:
		// A job another cluster forwarded that a receive queue here
		// refused: it is in the log for the record, and changes nothing.
		return "", nil
	case KindHost:
		h := c.Host(r.Host)
		if h == nil {
			return fmt.Sprintf("host %s is gone", r.Host), nil
		}
		c.SetHostStatus(h, hostStatus(r.Text))
		return "", nil
	case KindStart:
		var allocs []runtime.Alloc
		for _, a := range r.Allocs {
			if h := c.Host(a.Host); h != nil {
				allocs = append(allocs, runtime.Alloc{Host: h, Slots: a.Slots, GPUs: a.GPUs})
			}
		}
		if len(allocs) == 0 {
			return fmt.Sprintf("job %d started on hosts that are gone: it stays pending", j.ID), nil
		}
		return "", c.Start(j, allocs, r.At)
	case KindFinish:
		state, ok := runtime.ParseJobState(r.State)
		if !ok {
			return "", fmt.Errorf("finish of job %d in unknown state %q", j.ID, r.State)
		}
		c.RecordUsage(j, r.CPU, r.Mem)
		return "", c.Finish(j, state, r.Code, r.Term, r.At)
	case KindResizeGrow, KindResizeRelease, KindResizeRequest, KindResizeCancel, KindResizePreempt, KindResizeNotify:
		return applyResize(c, j, r)
	case KindSuspend:
		return "", c.Suspend(j, r.Reason, r.At)
	case KindResume:
		return "", c.Resume(j, r.At)
	case KindRequeue:
		return "", c.Requeue(j, r.At)
	case KindExitRequeue:
		return "", c.RequeueOnExit(j, r.Hosts, r.State == runtime.PSusp.String(), r.At)
	case KindTop:
		return "", c.Top(j)
	case KindBottom:
		return "", c.Bottom(j)
	case KindHold:
		return "", c.Hold(j)
	case KindRelease:
		return "", c.Release(j)
	case KindSwitch:
		if err := c.Switch(j, r.Queue, r.At); err != nil {
			// The configuration changed since the switch (the queue
			// went, or no longer takes the job): the job stays.
			return fmt.Sprintf("job %d stays in queue %s: its switch to %s (bswitch) is not accepted now: %v", j.ID, j.Queue.Name, r.Queue, err), nil
		}
		return "", nil
	case KindModify:
		if r.Mod == nil {
			return "", fmt.Errorf("modify record of job %d without changes", j.ID)
		}
		if err := c.Modify(j, *r.Mod); err != nil {
			// As for a switch: the configuration no longer takes the
			// change, and the job keeps what it had.
			return fmt.Sprintf("job %d keeps its parameters: a change made by bmod (%s) is not accepted now: %v", j.ID, modificationText(r.Mod), err), nil
		}
		return "", nil
	case KindAPS:
		kind, value, err := runtime.ParseAPS(r.Text)
		if err != nil {
			return "", fmt.Errorf("aps record of job %d: %w", j.ID, err)
		}
		return "", c.SetAPS(j, kind, value)
	case KindStatus:
		c.SetExternalStatus(j, r.Text)
		return "", nil
	case KindLost:
		if err := c.ToLostAndFound(j); err != nil {
			// The log and this configuration disagree: the job stays.
			return fmt.Sprintf("job %d cannot move to %s: %v", j.ID, runtime.LostAndFound, err), nil
		}
		return "", nil
	case KindKill:
		if j.State.Started() {
			j.Term = r.Term
			j.KilledDone = r.State == runtime.Done.String()
		}
		return "", nil
	case KindBrequeue:
		return "", replayBrequeue(c, j, r)
	case KindForward:
		return "", c.Forward(j, r.Cluster, r.Queue, r.At)
	case KindMCRecall:
		return "", c.Withdraw(j, r.At)
	case KindAccept:
		return "", c.ForwardAccepted(j, r.Remote, r.At)
	case KindReturn:
		cause, ok := mc.ParseCause(r.Text)
		if !ok {
			return "", fmt.Errorf("return of job %d: unknown cause %q", j.ID, r.Text)
		}
		return "", c.ForwardReturned(j, r.Reason, cause.Counts(), r.State == runtime.PSusp.String())
	case KindRemoteStart:
		return "", c.RemoteStarted(j, r.Hosts, r.At)
	case KindRemoteState:
		state, ok := runtime.ParseJobState(r.State)
		if !ok {
			return "", fmt.Errorf("remote state of job %d: unknown state %q", j.ID, r.State)
		}
		return "", c.RemoteState(j, state)
	case KindPreExec:
		return "", c.PreExecFailed(j, r.State == runtime.PSusp.String(), r.At)
	case KindPostExec:
		j.PostExec = r.Text
		return "", nil
	case KindRemoteRequeue:
		return "", c.RemoteRequeued(j)
	case KindGroupAdd:
		limit := -1
		if r.Limit != nil {
			limit = *r.Limit
		}
		sla := r.SLA
		var w string
		if sla != "" && !slices.ContainsFunc(c.SLAs, func(s *runtime.SLA) bool { return s.Name == sla }) {
			w, sla = fmt.Sprintf("job group %s: service class %s is gone", r.Text, sla), ""
		}
		g := c.JobGroup(r.Text)
		if g == nil {
			var err error
			if g, err = c.AddJobGroup(r.Text, r.Owner, limit, sla, r.Implicit); err != nil {
				return "", fmt.Errorf("job group record: %w", err)
			}
		}
		// A snapshot's group may be there already, made by a job of it.
		g.Owner, g.Limit, g.SLA, g.Implicit = r.Owner, limit, sla, r.Implicit
		for a := g; r.At != 0 && a != nil && a.IdleSince == 0 && !c.JobGroupBusy(a.Path); a = a.Parent() {
			a.IdleSince = r.At
		}
		return w, nil
	case KindGroupMod:
		limit := -1
		if r.Limit != nil {
			limit = *r.Limit
		}
		if g := c.JobGroup(r.Text); g != nil {
			g.Limit = limit
			if r.Owner != "" {
				g.Owner = r.Owner
			}
			return "", nil
		}
		return fmt.Sprintf("job group %s is gone", r.Text), nil
	case KindGroupDel:
		if c.JobGroup(r.Text) == nil {
			return fmt.Sprintf("job group %s is gone", r.Text), nil
		}
		return "", c.DeleteJobGroup(r.Text)
	case KindRsvAdd:
		if r.Rsv == nil || r.Rsv.ID == "" {
			return "", fmt.Errorf("%s record without a reservation", r.Type)
		}
		if err := runtime.CheckRsvRecord(r.Rsv); err != nil {
			return "", fmt.Errorf("%s record of %s: %w", r.Type, r.Rsv.ID, err)
		}
		return c.PutAdvRsv(*r.Rsv), nil
	case KindRsvDel:
		if !c.DeleteAdvRsv(r.Text) {
			return fmt.Sprintf("advance reservation %s is gone", r.Text), nil
		}
		return "", nil
	case KindRemoteFinish:
		state, ok := runtime.ParseJobState(r.State)
		if !ok || j.Remote == nil {
			return "", fmt.Errorf("remote finish of job %d: not forwarded, or unknown state %q", j.ID, r.State)
		}
		return "", c.Finish(j, state, r.Code, r.Term, r.At)
	}
	// A kind in the table that this switch misses: a build error caught
	// by TestKindsApplied.
	return "", fmt.Errorf("record type %q is not applied", r.Type)
}

// exitRateText is the Text of the exception record of a host closed for
// its job exit rate.
const exitRateText = "exit_rate"

// exceptionRecord returns the record of an exception a cycle detected.
func exceptionRecord(ev runtime.ExceptionEvent, now runtime.Time) Record {
	if ev.Host != nil {
		return Record{Type: KindException, At: now, Host: ev.Host.Name, Text: exitRateText}
	}
	return Record{Type: KindException, At: now, Job: ev.Job.ID, Text: ev.Kind.String()}
}

// hostStatus reads a host status as bhosts shows it.
func hostStatus(s string) runtime.HostStatus {
	switch s {
	case runtime.HostClosedAdm.String():
		return runtime.HostClosedAdm
	case runtime.HostUnavail.String():
		return runtime.HostUnavail
	}
	return runtime.HostOK
}

// lostRecords returns the records of the jobs a reconfiguration from old
// to n moved to lost_and_found.
func lostRecords(old, n *runtime.Cluster, now runtime.Time) []Record {
	var recs []Record
	for _, j := range n.Jobs() {
		if o := old.Job(j.ID); o != nil && j.Queue.Name == runtime.LostAndFound && o.Queue.Name != runtime.LostAndFound {
			recs = append(recs, Record{Type: KindLost, At: now, Job: j.ID})
		}
	}
	return recs
}

// rsvRecords returns the records of a snapshot's advance reservations,
// once those that ended and that no unfinished job names are dropped.
func rsvRecords(c *runtime.Cluster, now runtime.Time) []Record {
	c.DropEndedRsvs(now)
	var recs []Record
	for _, r := range c.AdvRsvs() {
		r := *r
		recs = append(recs, Record{Type: KindRsvAdd, Rsv: &r})
	}
	return recs
}

// jobGroupRecords returns the records of a snapshot's job groups, parents
// first.
func jobGroupRecords(c *runtime.Cluster) []Record {
	var recs []Record
	for _, g := range c.JobGroups() {
		r := Record{Type: KindGroupAdd, Text: g.Path, Owner: g.Owner, SLA: g.SLA, Implicit: g.Implicit, At: g.IdleSince}
		if g.Limit >= 0 {
			limit := g.Limit
			r.Limit = &limit
		}
		recs = append(recs, r)
	}
	return recs
}
