package runtime

import "slices"

// The views a scheduling cycle gives its plugins. Each is a small value
// around the cycle's own records, so passing one costs no allocation.
// None has a method that changes the cluster; CycleState's WakeAt and
// Report methods add to the plan, which the engine applies as it applies
// the rest.
//
// The contract of every plugin: it reads what the views show and changes
// nothing else (it is given no way to, and must not reach around them),
// and it keeps no view past the call it was given: the cycle reuses its
// records, and a kept view shows whatever they hold later.

// CycleState is a plugin's view of the cycle in progress: its time, and
// what the plan has taken so far on top of what the cluster holds. Only
// the cycle makes one: the zero CycleState is for plugins' own tests at
// most, and its methods must not be called.
type CycleState struct{ c *cycle }

// Now returns the time the cycle schedules at.
func (s CycleState) Now() Time { return s.c.now }

// WakeAt asks for a cycle at t, for a plugin whose answer changes then
// with nothing else happening (a window opening); a time not after Now is
// ignored.
func (s CycleState) WakeAt(t Time) { s.c.wakeAt(t) }

// HostPlanned returns the slots the cycle has given the host so far.
func (s CycleState) HostPlanned(h HostInfo) int { return s.c.hostUsed[h.h.Index] }

// QueuePlanned returns the slots the cycle has given the queue's jobs so
// far.
func (s CycleState) QueuePlanned(q QueueInfo) int { return s.c.queueUsed[q.q] }

// QueueUserPlanned returns the slots the cycle has given a user's jobs of
// the queue so far.
func (s CycleState) QueueUserPlanned(q QueueInfo, user string) int {
	return s.c.queueUser[queueUser{q.q, user}]
}

// UserPlanned returns the slots the cycle has given a user's jobs so far.
func (s CycleState) UserPlanned(user string) int { return s.c.userUsed[user] }

// NumHosts returns the number of the cluster's hosts, for Host.
func (s CycleState) NumHosts() int { return len(s.c.cluster.Hosts) }

// Host returns the cluster's i-th host, in the order bhosts lists them;
// i is in [0, NumHosts).
func (s CycleState) Host(i int) HostInfo { return HostInfo{s.c.cluster.Hosts[i]} }

// ReportJobException adds to the plan that a started job is in one
// exception (overrun, underrun or idle), with what was measured and what
// it was held against; the engine then marks, logs and acts on it as on
// LSF's own (see ExceptionEvent). A job not started is left alone. For
// an ExceptionCheck.
func (s CycleState) ReportJobException(j JobInfo, kind Exception, value, threshold float64) {
	if !j.j.State.Started() {
		return
	}
	s.c.plan.Exceptions = append(s.c.plan.Exceptions, ExceptionEvent{Job: j.j, Kind: kind, Value: value, Threshold: threshold})
}

// ReportHostException adds to the plan that a host's job exit rate is
// beyond its threshold, which closes the host. For an ExceptionCheck.
func (s CycleState) ReportHostException(h HostInfo, value, threshold float64) {
	s.c.plan.Exceptions = append(s.c.plan.Exceptions, ExceptionEvent{Host: h.h, Value: value, Threshold: threshold})
}

// ReportSuspend adds to the plan that a running job is suspended (SSUSP)
// for the state of its hosts, with why: ReasonLoadStop or ReasonStopCond,
// the reasons of the jobs ReportLoadResume takes. A job not running, or
// one suspended or resumed already this cycle, is left alone. For a
// LoadController.
func (s CycleState) ReportSuspend(j JobInfo, why Reason) {
	if j.j.State == Run && !s.c.loadDecided(j.j) {
		s.c.plan.Suspends = append(s.c.plan.Suspends, Suspension{Job: j.j, Reason: why})
	}
}

// ReportLoadResume adds to the plan that a job suspended for the state of
// its hosts resumes. A job not suspended so, or one suspended or resumed
// already this cycle, is left alone. For a LoadController.
func (s CycleState) ReportLoadResume(j JobInfo) {
	if j.j.State == SSusp && (j.j.Reason == ReasonLoadStop || j.j.Reason == ReasonStopCond) && !s.c.loadDecided(j.j) {
		s.c.plan.LoadResumes = append(s.c.plan.LoadResumes, j.j)
	}
}

// loadDecided reports whether the cycle suspends or resumes a job for
// load already.
func (c *cycle) loadDecided(j *Job) bool {
	for _, s := range c.plan.Suspends {
		if s.Job == j {
			return true
		}
	}
	return slices.Contains(c.plan.LoadResumes, j)
}

// JobInfo is a plugin's view of one job. The zero JobInfo stands for
// any job of a class (see HostLimiter); its methods but IsZero must not
// be called then.
type JobInfo struct{ j *Job }

// IsZero reports whether the view stands for no job in particular.
func (v JobInfo) IsZero() bool { return v.j == nil }

// ID returns the job's ID.
func (v JobInfo) ID() int64 { return v.j.ID }

// Name returns the job's name (bsub -J).
func (v JobInfo) Name() string { return v.j.Name }

// User returns the job's user.
func (v JobInfo) User() string { return v.j.User }

// Group returns the job's user group (bsub -G), "" for none.
func (v JobInfo) Group() string { return v.j.Group }

// Queue returns the job's queue.
func (v JobInfo) Queue() QueueInfo { return QueueInfo{v.j.Queue} }

// Slots returns the job slots the job asks for.
func (v JobInfo) Slots() int { return v.j.Slots }

// Priority returns the job's user priority (bsub -sp).
func (v JobInfo) Priority() int { return v.j.Priority }

// Submit returns when the job was submitted.
func (v JobInfo) Submit() Time { return v.j.Submit }

// ResReq returns the job's own resource requirement string (bsub -R), ""
// for none.
func (v JobInfo) ResReq() string { return v.j.ResReq }

// Exclusive reports whether the job asked for its hosts alone (bsub -x).
func (v JobInfo) Exclusive() bool { return v.j.Sub.Exclusive }

// State returns the job's state.
func (v JobInfo) State() JobState { return v.j.State }

// Start returns when a started job started.
func (v JobInfo) Start() Time { return v.j.Start }

// Reason returns why a pending or suspended job waits, as the last cycle
// left it.
func (v JobInfo) Reason() Reason { return v.j.Reason }

// Exceptions returns the exceptions a started job is marked with.
func (v JobInfo) Exceptions() Exception { return v.j.Exceptions }

// QueueInfo is a plugin's view of a queue.
type QueueInfo struct{ q *Queue }

// Name returns the queue's name.
func (v QueueInfo) Name() string { return v.q.Name }

// Priority returns the queue's PRIORITY.
func (v QueueInfo) Priority() int { return v.q.Priority }

// Used returns the slots the queue's started jobs hold.
func (v QueueInfo) Used() int { return v.q.Used }

// UserSlots returns the slots a user's started jobs of the queue hold.
func (v QueueInfo) UserSlots(user string) int { return v.q.UserSlots(user) }

// ClassInfo is a plugin's view of a job class: the pending jobs of one
// queue that ask for the same things (requirement, -m hosts, -x, service
// class), which every host filter answers for together.
type ClassInfo struct{ k *jobClass }

// Queue returns the class's queue.
func (v ClassInfo) Queue() QueueInfo { return QueueInfo{v.k.queue} }

// Exclusive reports whether the class's jobs are exclusive (bsub -x).
func (v ClassInfo) Exclusive() bool { return v.k.exclusive }

// Asks reports whether the class's jobs may run on the named host as far
// as their -m list goes: true for any host when they gave none.
func (v ClassInfo) Asks(host string) bool { return v.k.asked == nil || v.k.asked[host] }

// HostInfo is a plugin's view of a host.
type HostInfo struct{ h *Host }

// Name returns the host's name.
func (v HostInfo) Name() string { return v.h.Name }

// Type returns the host's type (lsf.cluster's type column).
func (v HostInfo) Type() string { return v.h.Facts.Type }

// Model returns the host's model.
func (v HostInfo) Model() string { return v.h.Facts.Model }

// Ncpus returns the host's ncpus, as resource requirements read it.
func (v HostInfo) Ncpus() float64 { return v.h.Facts.Ncpus }

// Status returns the host's status as bhosts shows it.
func (v HostInfo) Status() HostStatus { return v.h.State() }

// MaxSlots returns the host's job slot limit (MXJ), -1 for none.
func (v HostInfo) MaxSlots() int { return v.h.MaxSlots }

// Used returns the slots the host's started jobs hold.
func (v HostInfo) Used() int { return v.h.Used }

// UserSlots returns the slots a user's started jobs hold on the host.
func (v HostInfo) UserSlots(user string) int { return v.h.UserSlots(user) }

// QueueSlots returns the slots the queue's started jobs hold on the host.
func (v HostInfo) QueueSlots(q QueueInfo) int { return v.h.QueueSlots(q.q) }

// NumJobs returns the number of the host's started jobs, for Job.
func (v HostInfo) NumJobs() int { return len(v.h.jobs) }

// Job returns the host's i-th started job, in start order; i is in [0,
// NumJobs). A job on several hosts is a job of each.
func (v HostInfo) Job(i int) JobInfo { return JobInfo{v.h.jobs[i]} }

// Load returns the value of a load index the host reports, by its name,
// and whether it reports it.
func (v HostInfo) Load(index string) (float64, bool) {
	x, ok := v.h.Facts.Load[index]
	return x, ok
}
