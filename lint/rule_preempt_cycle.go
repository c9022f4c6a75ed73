package lint

import (
	"strings"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
)

// preemptCycle finds queues that name each other as preemption targets,
// directly or around a longer loop.
func preemptCycle() *Analyzer {
	return &Analyzer{
		Code: "LSF503", Name: "preemption-cycle", Severity: lang.Warning,
		Summary: "queues whose PREEMPTION lists preempt each other in a loop",
		Doc: `What it finds: a loop of queues where each may preempt the next, as the
queue lists of PREEMPTIVE[...] and PREEMPTABLE[...] say (A preempts B, B
preempts A, or a longer loop).

Why it matters: LSF preempts only queues of lower priority, so at least one
link of the loop never takes effect; the configuration says something the
scheduler will not do, and a later priority change can make jobs preempt
each other back and forth.

Example: short has PREEMPTION = PREEMPTIVE[long] and long has
PREEMPTION = PREEMPTIVE[short].

Fix: decide which queue wins and remove the link that points the other way.`,
		Run: func(p *Pass) {
			edges := preemptEdges(p.Policy)
			byName := map[string]*compile.Queue{}
			for _, q := range p.Policy.Queues {
				byName[q.Name] = q
			}
			state := map[string]int{}
			reported := map[string]bool{}
			var stack []string
			var visit func(name string)
			visit = func(name string) {
				state[name] = 1
				stack = append(stack, name)
				for _, next := range edges[name] {
					switch state[next] {
					case 0:
						visit(next)
					case 1:
						i := indexOf(stack, next)
						loop := append(append([]string{}, stack[i:]...), next)
						key := canonicalLoop(loop)
						if reported[key] {
							continue
						}
						reported[key] = true
						loop = rotateToSetting(loop, byName)
						first := byName[loop[0]]
						d := p.Report(first.Settings["PREEMPTION"].Span(), "preemption loop: %s; LSF preempts only lower-priority queues, so a link of the loop never applies",
							strings.Join(loop, " -> "))
						for _, n := range loop[1 : len(loop)-1] {
							if st := byName[n].Settings["PREEMPTION"]; st != nil {
								d.Note(st.Span(), "queue %s's PREEMPTION", n)
							}
						}
					}
				}
				stack = stack[:len(stack)-1]
				state[name] = 2
			}
			for _, q := range p.Policy.Queues {
				if state[q.Name] == 0 {
					visit(q.Name)
				}
			}
		},
	}
}

// preemptEdges returns, for each queue, the queues it names as ones it may
// preempt: its PREEMPTIVE list, and the queues whose PREEMPTABLE lists name
// it. Edges without a PREEMPTION setting at their source are kept too, so
// that the loop's notes can point at each link.
func preemptEdges(p *compile.Policy) map[string][]string {
	edges := map[string][]string{}
	known := map[string]bool{}
	for _, q := range p.Queues {
		known[q.Name] = true
	}
	add := func(from, to string) {
		if known[from] && known[to] && from != to && indexOf(edges[from], to) < 0 {
			edges[from] = append(edges[from], to)
		}
	}
	for _, q := range p.Queues {
		if q.Preemption == nil {
			continue
		}
		for _, r := range q.Preemption.PreemptiveQueues {
			add(q.Name, r.Name)
		}
		for _, r := range q.Preemption.PreemptableQueues {
			add(r.Name, q.Name)
		}
	}
	return edges
}

func indexOf(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// rotateToSetting returns the loop (its first queue repeated at its end)
// entered at its first queue that has a PREEMPTION setting, the one the
// finding is reported on. A queue of the loop may have none: an edge comes
// from the PREEMPTIVE list of its source or the PREEMPTABLE list of its
// target, so a queue only named by its neighbours sets nothing. Every loop
// has at least one link, hence one queue with a setting.
func rotateToSetting(loop []string, byName map[string]*compile.Queue) []string {
	ring := loop[:len(loop)-1]
	for i, n := range ring {
		if byName[n].Settings["PREEMPTION"] != nil {
			out := append(append([]string{}, ring[i:]...), ring[:i]...)
			return append(out, out[0])
		}
	}
	return loop
}

// canonicalLoop names a loop independently of where it was entered.
func canonicalLoop(loop []string) string {
	ring := loop[:len(loop)-1]
	best := 0
	for i := range ring {
		if ring[i] < ring[best] {
			best = i
		}
	}
	return strings.Join(append(append([]string{}, ring[best:]...), ring[:best]...), ">")
}
