package lint

import (
	"sort"
	"strconv"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
)

// thresholdInverted finds loadSched/loadStop pairs the wrong way round.
func thresholdInverted() *Analyzer {
	return &Analyzer{
		Code: "LSF507", Name: "threshold-inverted", Severity: lang.Warning,
		Summary: "a loadSched/loadStop pair where jobs are stopped before the dispatch threshold is reached",
		Doc: `What it finds: a load threshold in lsb.queues or lsb.hosts whose loadStop
lies on the dispatch side of its loadSched: for indices where more is
busier (r15s, r1m, r15m, ut, pg, io, ls and increasing site indices) a
loadStop below loadSched; for the others (it, tmp, swp, mem) a loadStop
above loadSched.

Why it matters: LSF dispatches a job while the load is better than
loadSched and suspends it when the load is worse than loadStop; with the
pair inverted, a job dispatched between the two values is suspended at
once, and dispatching and suspending alternate.

Example: r1m = 2.0/0.7 (dispatch below 2.0, suspend above 0.7).

Fix: swap the two values: r1m = 0.7/2.0.`,
		Run: func(p *Pass) {
			check := func(owner string, ths map[string]compile.Threshold, set compile.Settings) {
				for _, name := range sortedNames(ths) {
					th := ths[name]
					if th.Sched == nil || th.Stop == nil {
						continue
					}
					inc, ok := increasing(p.Policy, name)
					if !ok {
						continue
					}
					s, t := *th.Sched, *th.Stop
					if inc && t < s || !inc && t > s {
						dir := "above"
						if !inc {
							dir = "below"
						}
						stopAt, schedAt := thresholdValues(p.Policy, name, t, s)
						p.Report(set.SpanOf(name), "%s: %s = %s/%s suspends jobs at %s before dispatch stops at %s (loadStop must be %s loadSched for %s); swap the two",
							owner, name, num(s), num(t), stopAt, schedAt, dir, name).
							Suggest(replaceWith(num(t)+"/"+num(s)), set.SpanOf(name), num(t)+"/"+num(s))
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

// increasing reports whether a larger value of a load index means a busier
// host, and whether the index is known.
func increasing(p *compile.Policy, name string) (inc, ok bool) {
	r, _, ok := p.Env().Lookup(name)
	if !ok {
		return false, false
	}
	return r.Increasing, true
}

func sortedNames[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// thresholdValues formats a loadStop and a loadSched of the load index
// name: memory indices (mem, swp, tmp, whose thresholds are in MB) with
// their unit, both in the unit of the first; others as numbers.
func thresholdValues(p *compile.Policy, name string, stop, sched float64) (string, string) {
	if r, _, ok := p.Env().Lookup(name); ok && (r.Memory || r.Name == "tmp") {
		return compile.FormatMemoryPair(stop, sched)
	}
	return num(stop), num(sched)
}

func num(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }

func replaceWith(s string) string { return "replace with " + strconv.Quote(s) }
