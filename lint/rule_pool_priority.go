package lint

import (
	"cmp"
	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
)

// poolPriorities finds slot pools whose queues have different priorities.
func poolPriorities() *Analyzer {
	return &Analyzer{
		Code: "LSF509", Name: "slot-pool-priorities", Severity: lang.Info,
		Summary: "queues of one slot pool with different priorities",
		Doc: `What it finds: queues that share a SLOT_POOL but not a PRIORITY.

Why it matters: slot pools divide the pool's slots by SLOT_SHARE, but LSF
still schedules the queues in priority order: the highest-priority queue
takes its share first, and unused shares go to queues by priority rather
than in proportion, which is rarely what the shares meant to say.

Example: chem (PRIORITY 40, SLOT_SHARE 60) and phys (PRIORITY 35,
SLOT_SHARE 40) in pool science.

Fix: give the queues of the pool one priority, unless the order is meant.`,
		Run: func(p *Pass) {
			first := map[string]*compile.Queue{}
			for _, q := range p.Policy.Queues {
				if q.SlotPool == "" || q.SlotShare == nil {
					continue
				}
				f := first[q.SlotPool]
				if f == nil {
					first[q.SlotPool] = q
					continue
				}
				if q.Priority != f.Priority {
					p.Report(cmp.Or(q.Settings.SpanOf("PRIORITY"), q.NameSpan()), "queue %s has priority %d but queue %s of the same slot pool %s has %d; the higher one takes its share first",
						q.Name, q.Priority, f.Name, q.SlotPool, f.Priority).
						Note(cmp.Or(f.Settings.SpanOf("PRIORITY"), f.NameSpan()), "queue %s's priority", f.Name)
				}
			}
		},
	}
}
