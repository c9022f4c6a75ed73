package api

import (
	"net/url"
	"strconv"
)

// A JobHistory is one job's history, as bhist shows it: what it was
// submitted with, and every change of its state, in order. It is made by
// the daemon from its event log (GET /v1/history), and from an LSF
// lsb.events file by package lsbevents.
type JobHistory struct {
	ID int64 `json:"id"`
	// Index is an array element's index, 0 for a job that is no element.
	Index   int    `json:"index,omitempty"`
	Name    string `json:"name,omitempty"`
	User    string `json:"user"`
	Project string `json:"project,omitempty"`
	// JobGroup is the job's job group as submitted (-g); "" for none.
	JobGroup string `json:"jobGroup,omitempty"`
	// UserGroup is the user group the job's fairshare is charged to
	// (-G); "" for none.
	UserGroup string `json:"userGroup,omitempty"`
	Queue     string `json:"queue"` // the queue it was submitted to
	Command   string `json:"command,omitempty"`
	FromHost  string `json:"fromHost,omitempty"`
	Cwd       string `json:"cwd,omitempty"`
	// Slots and ResReq are -n and -R as submitted (0 and "" when not
	// given).
	Slots  int    `json:"slots,omitempty"`
	ResReq string `json:"resReq,omitempty"`
	// Submit is the submission time; State the state the history leaves
	// the job in (PEND, PSUSP, RUN, USUSP, SSUSP, DONE, EXIT, UNKWN).
	Submit int64          `json:"submit"`
	State  string         `json:"state"`
	Events []HistoryEvent `json:"events"`
}

// The kinds of a HistoryEvent.
const (
	EventSubmit   = "submit"   // Text: the queue
	EventStart    = "start"    // Hosts, Slots, Text: the effective requirement
	EventRunning  = "running"  // Pid
	EventDone     = "done"     // CPU
	EventExit     = "exit"     // Code, CPU, Text: why it was killed, if it was
	EventSuspend  = "suspend"  // State: USUSP, SSUSP or PSUSP; User for a user's
	EventResume   = "resume"   // State: the state it went back to
	EventRequeue  = "requeue"  // a started job went back to pending; Text RequeueOnExit, on exit value Code, State PSUSP when held at MAX_JOB_REQUEUE
	EventSwitch   = "switch"   // Text: the new queue; User
	EventMove     = "move"     // btop, bbot: Text "top" or "bottom"; User
	EventModify   = "modify"   // Text: the changes, as bmod options; User
	EventSignal   = "signal"   // Text: the signal; User
	EventForward  = "forward"  // Text: the cluster
	EventAccept   = "accept"   // Text: the cluster; Pid: the remote job ID
	EventReturn   = "return"   // a forwarded job came back; Text: why
	EventMigrate  = "migrate"  // Hosts asked for; User
	EventForce    = "force"    // brun: Hosts; User
	EventUnknown  = "unknown"  // its host does not answer
	EventStatus   = "status"   // Text: bstatus's text
	EventLost     = "lost"     // moved to lost_and_found
	EventPostDone = "postdone" // the post-execution processing ended
	EventPostErr  = "posterr"  // the post-execution processing failed
	EventPreExec  = "preexec"  // the pre-execution command failed: Code, and State PEND or PSUSP
	// EventResize is a resizable job's resize: Text grow (Hosts and
	// Slots added), release (Hosts and Slots given back), request (Slots
	// more asked for, Code the fewest), cancel, or notified (its
	// notification command ended with exit code Code).
	EventResize = "resize"
)

// RequeueOnExit is the Text of a requeue event of a job that exited
// with one of its requeue exit values (REQUEUE_EXIT_VALUES, bsub -Q).
const RequeueOnExit = "exit"

// A HistoryEvent is one change in a job's history. Times are Unix
// seconds; the fields a kind does not use are zero.
type HistoryEvent struct {
	At    int64    `json:"at"`
	Kind  string   `json:"kind"`
	Hosts []string `json:"hosts,omitempty"`
	Slots int      `json:"slots,omitempty"`
	Pid   int64    `json:"pid,omitempty"`
	Code  int      `json:"code,omitempty"`
	CPU   float64  `json:"cpu,omitempty"`
	State string   `json:"state,omitempty"`
	User  string   `json:"user,omitempty"`
	Text  string   `json:"text,omitempty"`
	// Reason is the reason given with the kill, suspension or
	// resumption (bkill, bstop, bresume -C).
	Reason string `json:"reason,omitempty"`
	// GPUs are, for a start, the GPUs the job was given on each host
	// (bhist -l -gpu).
	GPUs []JobGPUs `json:"gpus,omitempty"`
}

// HistoryQuery selects the jobs GET /v1/history returns. Its zero value
// asks for the caller's jobs in the current log.
type HistoryQuery struct {
	// IDs, when not empty, are the jobs asked for, whoever owns them.
	IDs []int64
	// User is whose jobs: "" for the caller's, "all" for everyone's.
	User string
	// Logs is how many log files to read, the current one first (bhist
	// -n): 1 (or 0 unset) the current log only, more to add the archived
	// ones, -1 all of them.
	Logs int
}

// Values returns the query as URL parameters: id (repeated), user and
// logs. Unset fields are left out.
func (q HistoryQuery) Values() url.Values {
	v := url.Values{}
	for _, id := range q.IDs {
		v.Add("id", strconv.FormatInt(id, 10))
	}
	if q.User != "" {
		v.Set("user", q.User)
	}
	if q.Logs != 0 {
		v.Set("logs", strconv.Itoa(q.Logs))
	}
	return v
}
