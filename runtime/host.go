package runtime

import (
	"slices"

	"github.com/lsfc/lsfc/compile"
)

// HostStatus is a host's batch status, as bhosts shows it.
type HostStatus uint8

// The host statuses: ok takes jobs; closed (by an administrator, or full)
// and unavail (not answering) do not; unreach is a host whose load still
// arrives but whose batch daemon does not answer.
const (
	HostOK HostStatus = iota
	HostClosedAdm
	HostUnavail
	HostUnreach
)

func (s HostStatus) String() string {
	switch s {
	case HostClosedAdm:
		return "closed_Adm"
	case HostUnavail:
		return "unavail"
	case HostUnreach:
		return "unreach"
	}
	return "ok"
}

// A Host is one batch host: its static facts and load (what resource
// requirements are evaluated on), its lsb.hosts settings, and what the
// jobs on it hold.
type Host struct {
	Name  string
	Index int
	// Facts are the host's static facts, site resources and load, in the
	// form resource requirements read. The engine updates Load and
	// Reserved; Gen counts those updates.
	Facts *compile.Host
	Gen   int
	// MaxSlots is the job slot limit (MXJ); -1 for none.
	MaxSlots int
	// JLU is the job slot limit per user (JL/U); 0 for none.
	JLU int
	// CPUs are the processors the per-processor slot limits (JL/P,
	// PJOB_LIMIT) count on the host: its facts' ncpus, else as many as
	// MXJ "!" gives it (the cluster's SlotsPerHost, at least one).
	CPUs float64
	// Thresholds are the loadSched/loadStop thresholds of lsb.hosts.
	Thresholds map[string]compile.Threshold
	// DispatchWindow is the lsb.hosts DISPATCH_WINDOW; nil for always.
	DispatchWindow []compile.Window
	Status         HostStatus
	// Down is HostOK while the host's execution agent answers (and on a
	// host without one), else HostUnavail or HostUnreach: the host then
	// takes no job, whatever Status says. The event log does not keep it.
	Down HostStatus
	// Retired is set on a host the configuration no longer has, kept
	// closed while jobs still run there.
	Retired bool
	// ExitRate is the host's job exit rate threshold, in exited jobs per
	// minute (EXIT_RATE, else GLOBAL_EXIT_RATE); 0 for none. ExitClosed
	// is set while the host is closed for passing it.
	ExitRate   float64
	ExitClosed bool
	// exits are the times of the recent exits that count towards the
	// exit rate, oldest first; exitListed is set while the host is among
	// the cluster's exitHosts.
	exits      []Time
	exitListed bool

	// Used counts the slots held by started jobs; byQueue and byUser the
	// same per queue and per user.
	Used    int
	byQueue map[*Queue]int
	byUser  map[string]int
	// LastDispatch is when the host last received a job, for
	// JOB_ACCEPT_INTERVAL.
	LastDispatch Time

	// jobs are the started jobs on the host, in start order; preempted
	// the slots of those suspended for preemptive jobs, by queue.
	jobs      []*Job
	preempted map[*Queue]int
	// preemptedUser holds the slots of preempted jobs by user.
	preemptedUser map[string]int
	// loadCheck is when load control last suspended or resumed a job on
	// the host.
	loadCheck Time
	// exclusive counts the exclusive jobs (-x) started on the host.
	exclusive int
	// reserved counts the slots pending jobs reserved on the host in the
	// last cycle, rsvStart the earliest predicted start of those jobs.
	reserved int
	rsvStart Time
	// GPUs are the host's GPU devices: those its agent found (gpusFound
	// set), else those the configuration declares.
	GPUs      []GPUDevice
	gpusFound bool
	// gpuMemUsed is the memory in use on each GPU, in MB, by index, as
	// the host's agent last measured it; nil when it measures none.
	gpuMemUsed map[int]float64
}

// Jobs returns the started jobs on the host, in start order.
func (h *Host) Jobs() []*Job { return h.jobs }

// Free returns the host's free job slots, or a large number without MXJ.
func (h *Host) Free() int {
	if h.MaxSlots < 0 {
		return 1 << 30
	}
	return max(0, h.MaxSlots-h.Used)
}

// QueueSlots returns the slots the queue's jobs hold on the host.
func (h *Host) QueueSlots(q *Queue) int { return h.byQueue[q] }

// UserSlots returns the slots the user's jobs hold on the host.
func (h *Host) UserSlots(user string) int { return h.byUser[user] }

// hold adds (or, with a negative n, releases) slots of a job on the host.
func (h *Host) hold(j *Job, n int) {
	if n > 0 {
		h.jobs = append(h.jobs, j)
	} else if i := slices.Index(h.jobs, j); i >= 0 {
		h.jobs = slices.Delete(h.jobs, i, i+1)
	}
	h.Used += n
	if h.byQueue == nil {
		h.byQueue, h.byUser = map[*Queue]int{}, map[string]int{}
	}
	h.byQueue[j.Queue] += n
	h.byUser[j.User] += n
	if h.byQueue[j.Queue] == 0 {
		delete(h.byQueue, j.Queue)
	}
	if h.byUser[j.User] == 0 {
		delete(h.byUser, j.User)
	}
}

// State returns the status bhosts shows: Down when the host does not
// answer, else Status.
func (h *Host) State() HostStatus {
	if h.Down != HostOK {
		return h.Down
	}
	return h.Status
}
