package daemon

import (
	"encoding/json"
	"fmt"

	"github.com/lsfc/lsfc/runtime"
	"github.com/lsfc/lsfc/runtime/mc"
)

// A Record is one change of the cluster's state, as the event log keeps
// it (one JSON object per record). Replaying the records in order on the
// cluster of the same configuration gives back the same state. Types:
//
//	new      a job was accepted: Image, Token (its submission's, if any)
//	start    a job was dispatched: Job, Allocs
//	finish   a job ended: Job, State (DONE or EXIT), Code, Term
//	suspend  a running job was suspended: Job, Reason ("" for USUSP)
//	resume   a suspended job runs again: Job
//	requeue  a started job went back to pending: Job
//	top, bottom, hold, release
//	         btop, bbot, bstop and bresume of a pending job: Job
//	switch   bswitch: Job, Queue
//	modify   bmod: Job, Mod
//	aps      bmod -aps and -apsn: Job, Text ("system=v", "admin=v", "" to clear)
//	status   bstatus: Job, Text
//	kill     a started job is being killed: Job, Term (how it ends)
//	queue    badmin qopen/qclose/qact/qinact: Queue, Open, Active
//	lost     a pending job whose queue a reconfiguration removed went to
//	         lost_and_found: Job
//	host     badmin hopen/hclose: Host, Text (the status)
//	exception
//	         a job exception: Job, Text (overrun or idle, as a cycle finds
//	         them; underrun, in the transaction of the job's finish, after
//	         it); or a host closed for its job exit rate: Host, Text
//	         ("exit_rate")
//	job      a job of a snapshot: Image
//	state    a snapshot's cluster state: NextID
//
// MultiCluster job forwarding, on the submission cluster (a job another
// cluster forwarded here is a new record whose submission names its
// home):
//
//	forward  a pending job was sent to a receive-jobs queue: Job, Cluster, Queue
//	accept   the remote queue took it: Job, Remote (its job ID there)
//	return   it came back before starting there: Job, Text (the cause:
//	         rejected, unreachable, recalled, start failed, no resources),
//	         Reason, State (PEND, or PSUSP past LSB_MC_INITFAIL_RETRY)
//	remote-start   it started there: Job, Hosts (host@cluster)
//	remote-state   it runs, or is suspended, there: Job, State (RUN, USUSP, SSUSP)
//	remote-requeue it pends there again after it started: Job
//	remote-finish  it ended there: Job, State, Code, Term
type Record struct {
	Type   string                `json:"t"`
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

// decode reads one record.
func decode(b []byte) (Record, error) {
	var r Record
	if err := json.Unmarshal(b, &r); err != nil {
		return Record{}, fmt.Errorf("bad record: %w", err)
	}
	return r, nil
}

// apply replays one record on the cluster. A record naming a job the
// cluster does not have is an error: the log and the state disagree.
func apply(c *runtime.Cluster, r Record) (warning string, err error) {
	job := func() (*runtime.Job, error) {
		j := c.Job(r.Job)
		if j == nil {
			return nil, fmt.Errorf("%s of job %d, which the log never created", r.Type, r.Job)
		}
		return j, nil
	}
	switch r.Type {
	case "new", "job":
		if r.Image == nil {
			return "", fmt.Errorf("%s record without a job", r.Type)
		}
		_, w, err := c.Restore(*r.Image)
		return w, err
	case "state":
		c.SetNextID(r.NextID)
		return "", nil
	case "queue":
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
	case "exception":
		if r.Job != 0 {
			break
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
	case "mc-reject":
		// A job another cluster forwarded that a receive queue here
		// refused: it is in the log for the record, and changes nothing.
		return "", nil
	case "host":
		h := c.Host(r.Host)
		if h == nil {
			return fmt.Sprintf("host %s is gone", r.Host), nil
		}
		c.SetHostStatus(h, hostStatus(r.Text))
		return "", nil
	}
	j, err := job()
	if err != nil {
		return "", err
	}
	switch r.Type {
	case "start":
		var allocs []runtime.Alloc
		for _, a := range r.Allocs {
			if h := c.Host(a.Host); h != nil {
				allocs = append(allocs, runtime.Alloc{Host: h, Slots: a.Slots})
			}
		}
		if len(allocs) == 0 {
			return fmt.Sprintf("job %d started on hosts that are gone: it stays pending", j.ID), nil
		}
		return "", c.Start(j, allocs, r.At)
	case "finish":
		state, ok := runtime.ParseJobState(r.State)
		if !ok {
			return "", fmt.Errorf("finish of job %d in unknown state %q", j.ID, r.State)
		}
		c.RecordUsage(j, r.CPU, r.Mem)
		return "", c.Finish(j, state, r.Code, r.Term, r.At)
	case "suspend":
		return "", c.Suspend(j, r.Reason, r.At)
	case "resume":
		return "", c.Resume(j, r.At)
	case "requeue":
		return "", c.Requeue(j, r.At)
	case "top":
		return "", c.Top(j)
	case "bottom":
		return "", c.Bottom(j)
	case "hold":
		return "", c.Hold(j)
	case "release":
		return "", c.Release(j)
	case "switch":
		return "", c.Switch(j, r.Queue, r.At)
	case "modify":
		if r.Mod == nil {
			return "", fmt.Errorf("modify record of job %d without changes", j.ID)
		}
		return "", c.Modify(j, *r.Mod)
	case "aps":
		kind, value, err := runtime.ParseAPS(r.Text)
		if err != nil {
			return "", fmt.Errorf("aps record of job %d: %w", j.ID, err)
		}
		return "", c.SetAPS(j, kind, value)
	case "status":
		c.SetExternalStatus(j, r.Text)
		return "", nil
	case "lost":
		if err := c.ToLostAndFound(j); err != nil {
			// The log and this configuration disagree: the job stays.
			return fmt.Sprintf("job %d cannot move to %s: %v", j.ID, runtime.LostAndFound, err), nil
		}
		return "", nil
	case "kill":
		if j.State.Started() {
			j.Term = r.Term
		}
		return "", nil
	case "forward":
		return "", c.Forward(j, r.Cluster, r.Queue, r.At)
	case "mc-recall":
		return "", c.Withdraw(j, r.At)
	case "accept":
		return "", c.ForwardAccepted(j, r.Remote, r.At)
	case "return":
		cause, ok := mc.ParseCause(r.Text)
		if !ok {
			return "", fmt.Errorf("return of job %d: unknown cause %q", j.ID, r.Text)
		}
		return "", c.ForwardReturned(j, r.Reason, cause.Counts(), r.State == runtime.PSusp.String())
	case "remote-start":
		return "", c.RemoteStarted(j, r.Hosts, r.At)
	case "remote-state":
		state, ok := runtime.ParseJobState(r.State)
		if !ok {
			return "", fmt.Errorf("remote state of job %d: unknown state %q", j.ID, r.State)
		}
		return "", c.RemoteState(j, state)
	case "remote-requeue":
		return "", c.RemoteRequeued(j)
	case "remote-finish":
		state, ok := runtime.ParseJobState(r.State)
		if !ok || j.Remote == nil {
			return "", fmt.Errorf("remote finish of job %d: not forwarded, or unknown state %q", j.ID, r.State)
		}
		return "", c.Finish(j, state, r.Code, r.Term, r.At)
	case "exception":
		e, ok := runtime.ParseException(r.Text)
		if !ok || e == 0 {
			return "", fmt.Errorf("exception of job %d: unknown kind %q", j.ID, r.Text)
		}
		c.RaiseJobException(j, e)
		return "", nil
	}
	return "", fmt.Errorf("unknown record type %q", r.Type)
}

// exitRateText is the Text of the exception record of a host closed for
// its job exit rate.
const exitRateText = "exit_rate"

// exceptionRecord returns the record of an exception a cycle detected.
func exceptionRecord(ev runtime.ExceptionEvent, now runtime.Time) Record {
	if ev.Host != nil {
		return Record{Type: "exception", At: now, Host: ev.Host.Name, Text: exitRateText}
	}
	return Record{Type: "exception", At: now, Job: ev.Job.ID, Text: ev.Kind.String()}
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
			recs = append(recs, Record{Type: "lost", At: now, Job: j.ID})
		}
	}
	return recs
}
