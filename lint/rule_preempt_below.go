package lint

import (
	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
)

// preemptNothingBelow finds a PREEMPTIVE queue with no queue of lower
// priority to preempt.
func preemptNothingBelow() *Analyzer {
	return &Analyzer{
		Code: "LSF504", Name: "preemptive-nothing-below", Severity: lang.Warning,
		Summary: "a preemptive queue with no queue of lower priority to preempt",
		Doc: `What it finds: a queue with PREEMPTION = PREEMPTIVE (no queue list) when
no other queue has a lower priority.

Why it matters: PREEMPTIVE without a list preempts every queue of lower
priority; with none, the setting does nothing, which usually means the
priorities are not what the administrator believes.

Example: the lowest-priority queue of the cluster is the one marked
PREEMPTIVE.

Fix: give the queue a higher PRIORITY than the queues it should preempt, or
remove PREEMPTIVE.`,
		Run: func(p *Pass) {
			for _, q := range p.Policy.Queues {
				pr := q.Preemption
				if pr == nil || !pr.Preemptive || len(pr.PreemptiveQueues) > 0 || len(p.Policy.Queues) < 2 {
					continue
				}
				if !anyQueue(p.Policy, q, func(o *compile.Queue) bool { return o.Priority < q.Priority }) {
					p.Report(q.Settings["PREEMPTION"].Span(), "queue %s is PREEMPTIVE but no queue has a lower priority than its %d: it can preempt nothing",
						q.Name, q.Priority)
				}
			}
		},
	}
}

// anyQueue reports whether a queue other than q satisfies f.
func anyQueue(p *compile.Policy, q *compile.Queue, f func(*compile.Queue) bool) bool {
	for _, o := range p.Queues {
		if o != q && f(o) {
			return true
		}
	}
	return false
}
