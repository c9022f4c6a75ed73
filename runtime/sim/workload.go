package sim

import (
	"fmt"
	"strconv"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/runtime"
	"github.com/lsfc/lsfc/runtime/swf"
)

// WorkloadOptions configure Workload.
type WorkloadOptions struct {
	// QueueMap maps a trace's queue — its number, or its name in the
	// trace's header — to an LSF queue. Jobs of other queues go to the
	// default queue.
	QueueMap map[string]string
	// SlaMap maps a trace's queue, the same way, to a service class the
	// job is submitted to (bsub -sla).
	SlaMap map[string]string
	// TotalSlots is the cluster's job slots: a job asking for more is
	// skipped. 0 skips none.
	TotalSlots int
}

// A Skipped job is a job of a trace that cannot be replayed, and why.
type Skipped struct {
	Job    swf.Job
	Reason string
}

// Workload turns the jobs of a Standard Workload Format trace into a
// simulated workload: submit time, processors (requested, else
// allocated), run time, requested time (the run limit), user, group and
// queue come from the trace. A job the trace records as failed (status 0,
// or 4 for the last part of a job run in parts) ends in EXIT with status
// 1 after its run time, and a cancelled one (5) in EXIT with status 130,
// as a killed job does; the trace does not say who cancelled it, so its
// exit counts towards its hosts' exit rates like any other. Times are placed after the trace's
// UnixStartTime when its header gives one, so that time windows fall as
// they did. Jobs without a run time or processors, and jobs asking for
// more slots than the cluster has, are returned as skipped, never
// dropped silently.
func Workload(h *swf.Header, jobs []swf.Job, opts WorkloadOptions) ([]Job, []Skipped) {
	var t0 runtime.Time
	if h != nil {
		if start, ok := h.UnixStartTime(); ok {
			t0 = runtime.Time(start)
		}
	}
	names := map[int]string{}
	if h != nil {
		names = h.Queues()
	}
	out := make([]Job, 0, len(jobs))
	var skipped []Skipped
	// Users and groups are few: each name is made once.
	users, groups := map[int]string{}, map[int]string{}
	name := func(m map[int]string, prefix string, id int) string {
		n, ok := m[id]
		if !ok {
			n = prefix + strconv.Itoa(id)
			m[id] = n
		}
		return n
	}
	for _, j := range jobs {
		procs := j.ReqProcs
		if procs <= 0 {
			procs = j.AllocProcs
		}
		switch {
		case j.RunTime < 0:
			skipped = append(skipped, Skipped{j, "the trace gives no run time"})
			continue
		case procs <= 0:
			skipped = append(skipped, Skipped{j, "the trace gives no number of processors"})
			continue
		case j.SubmitTime < 0:
			skipped = append(skipped, Skipped{j, "the trace gives no submission time"})
			continue
		case opts.TotalSlots > 0 && procs > opts.TotalSlots:
			skipped = append(skipped, Skipped{j, fmt.Sprintf("it asks for %d processors and the cluster has %d job slots", procs, opts.TotalSlots)})
			continue
		}
		s := runtime.Submission{Slots: procs, Runtime: j.RunTime, TraceID: j.Number,
			User: name(users, "user", j.UserID), Group: name(groups, "group", j.GroupID)}
		if j.UserID < 0 {
			s.User = "unknown"
		}
		if j.ReqTime > 0 {
			s.RunLimit = j.ReqTime
		}
		switch j.Status {
		case swf.StatusFailed, swf.StatusLastPartFailed:
			s.ExitCode = 1
		case swf.StatusCancelled:
			s.ExitCode = 130
		}
		if j.AvgCPUTime > 0 {
			// The CPU time per processor over the run time is the idle
			// factor JOB_IDLE looks at.
			s.CPUTime = j.AvgCPUTime
		}
		if j.Queue >= 0 {
			num := strconv.Itoa(j.Queue)
			if q, ok := opts.QueueMap[num]; ok {
				s.Queue = q
			} else if q, ok := opts.QueueMap[names[j.Queue]]; ok && names[j.Queue] != "" {
				s.Queue = q
			}
			if sla, ok := opts.SlaMap[num]; ok {
				s.Sla = sla
			} else if sla, ok := opts.SlaMap[names[j.Queue]]; ok && names[j.Queue] != "" {
				s.Sla = sla
			}
		}
		out = append(out, Job{Submission: s, At: t0.Add(j.SubmitTime)})
	}
	return out, skipped
}

// SyntheticHosts makes n identical hosts with slots job slots each, named
// sim00001 and on, for a simulation without a host list.
func SyntheticHosts(n, slots int) []*compile.Host {
	out := make([]*compile.Host, n)
	for i := range out {
		out[i] = &compile.Host{Name: fmt.Sprintf("sim%05d", i+1), Server: true, Status: "ok",
			Ncpus: float64(slots), Slots: float64(slots), MaxSlots: float64(slots),
			Booleans: []string{}, Exclusive: []string{}, Numbers: map[string]float64{}, Strings: map[string]string{},
			Load: map[string]float64{}, Reserved: map[string]float64{}}
	}
	return out
}
