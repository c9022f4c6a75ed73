package lint

import (
	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
)

// thresholdNever finds loadSched values no host can meet.
func thresholdNever() *Analyzer {
	return &Analyzer{
		Code: "LSF508", Name: "threshold-never-met", Severity: lang.Warning,
		Summary: "a loadSched that no host can ever meet",
		Doc: `What it finds: a loadSched in lsb.queues or lsb.hosts that no load
can meet — below 0 for an index where more is busier (r1m = -1: the run
queue is never shorter than nothing) — or that every load meets, which is
below 0 for the others (mem = -1).

Why it matters: a queue whose loadSched cannot be met never dispatches a
job, and a host whose loadSched cannot be met never receives one; a
threshold always met does nothing.

Example: r1m = -0.5/2.0 in a queue.

Fix: give a threshold the index can reach, or remove the line.`,
		Run: func(p *Pass) {
			check := func(owner string, ths map[string]compile.Threshold, set compile.Settings) {
				for _, name := range sortedNames(ths) {
					th := ths[name]
					if th.Sched == nil {
						continue
					}
					inc, ok := increasing(p.Policy, name)
					if !ok {
						continue
					}
					s := *th.Sched
					switch {
					case inc && s < 0:
						p.Report(set.SpanOf(name), "%s: %s loadSched %s can never be met: %s is never below 0, so no job is dispatched", owner, name, num(s), name)
					case !inc && s < 0:
						p.Report(set.SpanOf(name), "%s: %s loadSched %s is always met: %s is never below 0; the threshold has no effect", owner, name, num(s), name)
					}
				}
			}
			for _, q := range p.Policy.Queues {
				check("queue "+q.Name, q.Thresholds, q.Settings)
			}
			for _, b := range p.Policy.BatchHosts {
				check("lsb.hosts row "+b.Row, b.Thresholds, b.Settings)
			}
		},
	}
}
