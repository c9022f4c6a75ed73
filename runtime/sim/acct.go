package sim

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/runtime"
	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/lsbacct"
	"github.com/lsfc/lsfc/runtime/simstats"
)

// An AcctSkipped is a record of lsb.acct that is not replayed, and why.
type AcctSkipped struct {
	Record *lsbacct.Record
	Reason string
}

// AcctWorkload turns the JOB_FINISH records of an lsb.acct into a
// workload, in submission order (then job id), each job with what the
// record gives: its submission time, queue (opts.QueueMap maps it; a
// queue queues does not hold and the map does not name goes to the
// default queue; a job the map sends to a queue queues does not hold is
// skipped), user, job name, slots (the processors it asked for),
// the requirement it ran with (effectiveResReq, else its -R), run limit
// (-W), -m hosts, -x, its CPU time, and its real run time, end minus
// start, after which it ends as it did: DONE, or EXIT with its exit
// code (1 when the record gives none). The record holds no user group,
// memory limit or dependency, which the job is therefore submitted
// without; its project does not matter to lsfc's scheduling. A job that
// never started (killed while pending) is skipped, with its reason, and
// so is one asking for more slots than totalSlots (when above 0). The
// jobs' TraceID is their job id.
func AcctWorkload(recs []lsbacct.Record, queues func(string) bool, opts WorkloadOptions) ([]Job, []AcctSkipped) {
	order := make([]int, len(recs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		return cmp.Or(cmp.Compare(recs[a].SubmitTime, recs[b].SubmitTime), cmp.Compare(recs[a].JobID, recs[b].JobID), cmp.Compare(recs[a].Idx, recs[b].Idx))
	})
	var out []Job
	var skipped []AcctSkipped
	for _, i := range order {
		r := &recs[i]
		slots := int(r.NumProcessors)
		if slots <= 0 {
			slots = r.Slots()
		}
		switch {
		case !r.Started():
			skipped = append(skipped, AcctSkipped{r, "the job never started: it ended while pending"})
			continue
		case r.EventTime < r.StartTime:
			skipped = append(skipped, AcctSkipped{r, fmt.Sprintf("the job ends (%d) before it starts (%d)", r.EventTime, r.StartTime)})
			continue
		case opts.TotalSlots > 0 && slots > opts.TotalSlots:
			skipped = append(skipped, AcctSkipped{r, fmt.Sprintf("it asks for %d processors and the cluster has %d job slots", slots, opts.TotalSlots)})
			continue
		}
		s := runtime.Submission{Name: r.JobName, User: r.UserName, Slots: max(slots, 1),
			Runtime: float64(r.EventTime - r.StartTime), TraceID: acctTraceID(r),
			ResReq: r.EffectiveResReq, Hosts: r.AskedHosts, Exclusive: r.Exclusive(), Command: r.Command}
		if s.ResReq == "" {
			s.ResReq = r.ResReq
		}
		if r.RunLimit > 0 {
			s.RunLimit = float64(r.RunLimit)
		}
		if !r.Done() {
			s.ExitCode = int(r.ExitStatus >> 8)
			if s.ExitCode == 0 {
				s.ExitCode = 1
			}
		}
		if cpu := r.CPUTime(); cpu > 0 {
			s.CPUTime = cpu
		}
		switch q, ok := opts.QueueMap[r.Queue]; {
		case ok && queues(q):
			s.Queue = q
		case ok:
			skipped = append(skipped, AcctSkipped{r, fmt.Sprintf("its queue %s maps to %s, which the configuration does not define", r.Queue, q)})
			continue
		case queues(r.Queue):
			s.Queue = r.Queue
		}
		s.Project = r.ProjectName
		if sla, ok := opts.SlaMap[r.Queue]; ok {
			s.Sla = sla
		} else if r.SLA != "" {
			s.Sla = r.SLA
		}
		out = append(out, Job{Submission: s, At: runtime.Time(r.SubmitTime)})
	}
	return out, skipped
}

// acctTraceID returns the trace number of a record: its job ID, and for
// an element of a job array the element's ID (api.ElementID), so that
// the elements of an array stay apart.
func acctTraceID(r *lsbacct.Record) int {
	if r.Idx > 0 && r.Idx <= api.MaxArrayIndex {
		return int(api.ElementID(r.JobID, int(r.Idx)))
	}
	return int(r.JobID)
}

// ReplayAcct runs the records of an lsb.acct through the scheduler, as
// Replay runs a trace: the cluster of policy (or opts.Hosts), each job
// of AcctWorkload submitted at its time. Times of the result are seconds
// from the first submission. Every record has a result record; those
// AcctWorkload skips are SKIPPED with their reason.
func ReplayAcct(policy *compile.Policy, recs []lsbacct.Record, opts ReplayOptions) (*ReplayResult, error) {
	c, err := runtime.NewCluster(policy, runtime.ClusterOptions{Hosts: opts.Hosts, SlotsPerHost: opts.SlotsPerHost})
	if err != nil {
		return nil, err
	}
	total := c.TotalSlots()
	work, skipped := AcctWorkload(recs, func(q string) bool { return c.Queue(q) != nil },
		WorkloadOptions{QueueMap: opts.QueueMap, SlaMap: opts.SlaMap, TotalSlots: total})
	t0 := runtime.Time(math.MaxInt64)
	for _, r := range recs {
		t0 = min(t0, runtime.Time(r.SubmitTime))
	}
	if len(recs) == 0 {
		t0 = 0
	}
	sim, err := Simulate(c, work, Options{Progress: opts.Progress})
	if err != nil {
		return nil, err
	}
	res := &ReplayResult{TotalSlots: total, Sim: sim, Reasons: map[int]string{}}
	for _, s := range skipped {
		r := s.Record
		q := r.Queue
		if m, ok := opts.QueueMap[q]; ok {
			q = m
		}
		res.Records = append(res.Records, simstats.Record{ID: acctTraceID(r), Queue: q, User: r.UserName,
			Submit: float64(runtime.Time(r.SubmitTime) - t0), Slots: max(int(r.NumProcessors), 1), State: simstats.StateSkipped})
		res.Reasons[acctTraceID(r)] = s.Reason
	}
	res.addOutcomes(c, sim, t0)
	return res, nil
}
