package lint

import (
	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
)

// preemptNothingAbove finds a PREEMPTABLE queue with no queue of higher
// priority that could preempt it.
func preemptNothingAbove() *Analyzer {
	return &Analyzer{
		Code: "LSF505", Name: "preemptable-nothing-above", Severity: lang.Warning,
		Summary: "a preemptable queue with no queue of higher priority",
		Doc: `What it finds: a queue with PREEMPTION = PREEMPTABLE (no queue list) when
no other queue has a higher priority.

Why it matters: PREEMPTABLE without a list lets every queue of higher
priority preempt it; with none, its jobs are never preempted, though the
setting says they may be.

Example: the highest-priority queue is marked PREEMPTABLE.

Fix: lower the queue's PRIORITY below the queues that should preempt it, or
remove PREEMPTABLE.`,
		Run: func(p *Pass) {
			for _, q := range p.Policy.Queues {
				pr := q.Preemption
				if pr == nil || !pr.Preemptable || len(pr.PreemptableQueues) > 0 || len(p.Policy.Queues) < 2 {
					continue
				}
				if !anyQueue(p.Policy, q, func(o *compile.Queue) bool { return o.Priority > q.Priority }) {
					p.Report(q.Settings["PREEMPTION"].Span(), "queue %s is PREEMPTABLE but no queue has a higher priority than its %d: nothing can preempt it",
						q.Name, q.Priority)
				}
			}
		},
	}
}
