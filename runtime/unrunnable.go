package runtime

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/lsfc/lsfc/compile"
)

// An Unrunnable says that a simulated cluster could not run some jobs of
// a queue at all: they still pended when nothing was left to happen, the
// cluster idle around them.
type Unrunnable struct {
	Queue string
	// Jobs counts the queue's jobs that still pend; Requeued counts
	// those of them that ran before and were requeued by an exit value
	// (REQUEUE_EXIT_VALUES, bsub -Q), and never ran again.
	Jobs, Requeued int
	// Job is the first of them in submission order, whose Reason is
	// given (its TraceID in a replay).
	Job *Job
	// Reason tells why no host could run Job, as the hosts stand at the
	// end: the queue's HOSTS name none of the cluster's hosts, every host
	// rejects the job (each reason with its number of hosts), or the
	// hosts that take it give it fewer slots than it asks for.
	Reason string
}

// Unrunnable tells, once a simulation is over, which queues still have
// jobs pending among jobs (in submission order; nil entries are ignored),
// in the order of lsb.queues, and explains the first pending job of
// each. Jobs held (PSUSP) and jobs at another cluster are not counted.
// It changes nothing.
func (e *Engine) Unrunnable(jobs []*Job) []Unrunnable {
	byQueue := map[*Queue]*Unrunnable{}
	for _, j := range jobs {
		if j == nil || !j.State.Pending() || j.State == PSusp || j.Remote != nil || j.Queue == nil {
			continue
		}
		u := byQueue[j.Queue]
		if u == nil {
			u = &Unrunnable{Queue: j.Queue.Name, Job: j}
			byQueue[j.Queue] = u
		}
		u.Jobs++
		if j.ExitRequeues > 0 {
			u.Requeued++
		}
	}
	var out []Unrunnable
	for _, q := range e.Cluster.Queues {
		if u := byQueue[q]; u != nil {
			u.Reason = whyNever(e, q, u.Job)
			out = append(out, *u)
		}
	}
	return out
}

// whyNever tells why a job pends on a cluster where nothing is left to
// happen.
func whyNever(e *Engine, q *Queue, j *Job) string {
	if !slices.Contains(q.hostOK, true) && q.hostOK != nil {
		var items []string
		for _, it := range q.Def.Hosts {
			items = append(items, hostItemText(it))
		}
		return fmt.Sprintf("its HOSTS (%s) name none of the cluster's %s", strings.Join(items, " "), nOf(len(e.Cluster.Hosts), "host"))
	}
	jobReason, hosts := e.WhyPending(j)
	if jobReason != ReasonNone {
		return jobReason.String()
	}
	rejected := map[Reason]int{}
	var fit []*Host
	for _, hr := range hosts {
		if hr.Reason == ReasonNone {
			fit = append(fit, e.Cluster.Host(hr.Host))
			continue
		}
		rejected[hr.Reason]++
	}
	if len(fit) == 0 {
		return "no host can take it: " + countReasons(rejected)
	}
	room, limits := e.Scheduler.roomOf(Snapshot{Cluster: e.Cluster, Now: e.Clock.Now()}, j, fit)
	if room < j.Slots {
		s := fmt.Sprintf("it asks for %s and the hosts give it %d", nOf(j.Slots, "slot"), room)
		if len(limits) > 0 {
			s += " (" + countReasons(limits) + ")"
		}
		if len(rejected) > 0 {
			s += "; the others reject it: " + countReasons(rejected)
		}
		return s
	}
	// The hosts have the slots, but not as the job asks for them (span,
	// same, rusage over several hosts): the last cycle's reason.
	return e.Reason(j).String()
}

// roomOf returns the slots the hosts could give the job as the snapshot
// stands, and the limit that bounds each host, counted per reason.
func (s *Scheduler) roomOf(snap Snapshot, j *Job, hosts []*Host) (int, map[Reason]int) {
	c := s.newCycle(snap)
	s.refresh(c)
	c.planPools()
	c.planSLAs()
	r := &classRun{k: j.class, cand: s.candidatesFor(c, j.class)}
	total, limits := 0, map[Reason]int{}
	for _, h := range hosts {
		room, why := c.jobRoom(r, j, h)
		total += room
		if why != ReasonNone {
			limits[why]++
		}
	}
	return total, limits
}

// countReasons writes reasons with their numbers of hosts, the most
// frequent first, ties in the order of the reasons.
func countReasons(m map[Reason]int) string {
	keys := make([]Reason, 0, len(m))
	for r := range m {
		keys = append(keys, r)
	}
	slices.SortFunc(keys, func(a, b Reason) int {
		return cmp.Or(cmp.Compare(m[b], m[a]), cmp.Compare(a, b))
	})
	parts := make([]string, len(keys))
	for i, r := range keys {
		parts[i] = fmt.Sprintf("%s on %s", r, nOf(m[r], "host"))
	}
	return strings.Join(parts, ", ")
}

// hostItemText writes an item of HOSTS as lsb.queues spells it.
func hostItemText(it compile.HostItem) string {
	s := it.Name
	if it.Exclude {
		s = "~" + s
	}
	if it.Cluster != "" {
		s += "@" + it.Cluster
	}
	if it.First {
		s += "!"
	}
	if it.Pref != 0 {
		s += "+" + strconv.Itoa(it.Pref)
	}
	return s
}

// nOf writes a count with its noun, "1 host", "2 hosts".
func nOf(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
