package lint

import (
	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
)

// preemptPriority finds queue lists of PREEMPTION that name queues on the
// wrong side of the queue's priority.
func preemptPriority() *Analyzer {
	return &Analyzer{
		Code: "LSF506", Name: "preemption-priority", Severity: lang.Warning,
		Summary: "PREEMPTIVE[q] naming a queue that is not of lower priority, or PREEMPTABLE[q] one not of higher",
		Doc: `What it finds: PREEMPTIVE[q] where q's priority is equal to or higher than
the queue's own, and PREEMPTABLE[q] where q's priority is equal to or
lower.

Why it matters: LSF preempts only jobs of lower-priority queues; the named
queue is silently left alone.

Example: short (PRIORITY 40) has PREEMPTIVE[night] while night has
PRIORITY 50.

Fix: change the priorities so the preempting queue is higher, or remove
the queue from the list.`,
		Run: func(p *Pass) {
			byName := map[string]*compile.Queue{}
			for _, q := range p.Policy.Queues {
				byName[q.Name] = q
			}
			for _, q := range p.Policy.Queues {
				pr := q.Preemption
				if pr == nil {
					continue
				}
				for _, r := range pr.PreemptiveQueues {
					if t := byName[r.Name]; t != nil && t != q && t.Priority >= q.Priority {
						p.Report(r.Span, "queue %s (priority %d) cannot preempt %s (priority %d): LSF preempts only queues of lower priority",
							q.Name, q.Priority, t.Name, t.Priority).
							Note(t.NameSpan(), "queue %s is defined here", t.Name)
					}
				}
				for _, r := range pr.PreemptableQueues {
					if t := byName[r.Name]; t != nil && t != q && t.Priority <= q.Priority {
						p.Report(r.Span, "queue %s (priority %d) cannot preempt %s (priority %d): LSF preempts only queues of lower priority",
							t.Name, t.Priority, q.Name, q.Priority).
							Note(t.NameSpan(), "queue %s is defined here", t.Name)
					}
				}
			}
		},
	}
}
