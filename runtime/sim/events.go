package sim

import (
	"fmt"

	"github.com/lsfc/lsfc/runtime"
	"github.com/lsfc/lsfc/runtime/lsbevents"
)

// EventsSource makes the Source of the jobs of an LSF lsb.events on
// cluster c. Each job is submitted at its time with what the log gives:
// its queue (a queue the configuration does not have goes through
// opts.QueueMap, else to the default queue; bswitch moves are applied),
// user, user group, slots, -R, -M, -W and -x as they were when it was
// last pending (bmod's JOB_MODIFY2 applied), and runs for its real run
// time: from its last dispatch to its end, ending DONE, or EXIT with its
// exit code (128 plus the signal that killed it; 1 when the log gives
// none). Array elements are jobs of their own, labelled "ID[INDEX]". The
// jobs that never started in the log, those it leaves unfinished, and
// those asking for more slots than the cluster has are skipped with
// their reason. Trace IDs number the jobs from 1 in their order of
// submission; times count from the first submission.
func EventsSource(c *runtime.Cluster, l *lsbevents.Log, opts WorkloadOptions) *Source {
	jobs := l.Jobs()
	src := &Source{Labels: make(map[int]string, len(jobs))}
	if len(jobs) > 0 {
		src.T0 = runtime.Time(jobs[0].Submit)
	}
	total := c.TotalSlots()
	for i, j := range jobs {
		id := i + 1
		src.Labels[id] = fmt.Sprint(j.ID)
		if j.Index > 0 {
			src.Labels[id] = fmt.Sprintf("%d[%d]", j.ID, j.Index)
		}
		queue := j.Queue
		if q, ok := opts.QueueMap[queue]; ok {
			queue = q
		} else if c.Queue(queue) == nil {
			queue = ""
		}
		reason := ""
		switch {
		case j.Start == 0:
			reason = fmt.Sprintf("it never started in the log (it is %s at its end)", j.State)
		case j.End == 0:
			reason = fmt.Sprintf("it had not ended when the log ends (it is %s)", j.State)
		case j.End < j.Start:
			reason = "the log has it end before it started"
		case total > 0 && j.Slots > total:
			reason = fmt.Sprintf("it asks for %d slots and the cluster has %d", j.Slots, total)
		}
		if reason != "" {
			shown := queue
			if shown == "" && len(c.DefaultQueues) > 0 {
				shown = c.DefaultQueues[0].Name
			}
			src.Skipped = append(src.Skipped, SkippedJob{ID: id, Queue: shown, User: j.User,
				Submit: float64(j.Submit) - float64(src.T0), Slots: j.Slots, Reason: reason})
			continue
		}
		s := runtime.Submission{Name: j.Name, User: j.User, Group: j.UserGroup, Queue: queue, Slots: j.Slots,
			ResReq: j.ResReq, Exclusive: j.Exclusive, Runtime: float64(j.End - j.Start), TraceID: id,
			Command: j.Command}
		if j.RunLimit > 0 {
			s.RunLimit = float64(j.RunLimit)
		}
		if j.MemLimit > 0 {
			s.MemLimit = float64(j.MemLimit) / 1024
		}
		if sla, ok := opts.SlaMap[j.Queue]; ok {
			s.Sla = sla
		}
		if j.State == "EXIT" {
			switch {
			case j.Signal > 0:
				s.ExitCode = 128 + j.Signal
			case j.ExitCode > 0:
				s.ExitCode = j.ExitCode
			default:
				s.ExitCode = 1
			}
		}
		src.Jobs = append(src.Jobs, Job{Submission: s, At: runtime.Time(j.Submit)})
	}
	return src
}
