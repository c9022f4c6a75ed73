package lint

import (
	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
)

// limitWithoutEffect finds per-user and per-host slot limits of a queue
// that are larger than the queue-wide one, so that they never bind and
// only mislead whoever reads them.
func limitWithoutEffect() *Analyzer {
	return &Analyzer{
		Code: "LSF517", Name: "limit-without-effect", Severity: lang.Info,
		Summary: "a queue's UJOB_LIMIT or HJOB_LIMIT larger than its QJOB_LIMIT",
		Doc: `What it finds: a queue whose per-user slot limit (UJOB_LIMIT) or per-host
slot limit (HJOB_LIMIT) is larger than its limit for the whole queue
(QJOB_LIMIT).

Why it matters: no user and no host can hold more slots of the queue than
the whole queue may, so the larger limit never applies; it suggests a
share of the queue that nobody gets, and a later change of QJOB_LIMIT
silently changes what it means.

Example: QJOB_LIMIT = 50 with UJOB_LIMIT = 64.

Fix: lower the per-user or per-host limit below QJOB_LIMIT, or remove it.`,
		Run: func(p *Pass) {
			for _, q := range p.Policy.Queues {
				qst := q.Settings["QJOB_LIMIT"]
				qmax, ok := steadyNumber(qst)
				if !ok || qmax == 0 {
					continue // no queue limit, or LSF518's
				}
				for _, key := range []string{"UJOB_LIMIT", "HJOB_LIMIT"} {
					st := q.Settings[key]
					x, ok := steadyNumber(st)
					if !ok || x <= qmax {
						continue
					}
					who := "user"
					if key == "HJOB_LIMIT" {
						who = "host"
					}
					p.Report(st.Span(), "queue %s: %s %s never applies: no %s can use more than the %s slots QJOB_LIMIT allows the whole queue",
						q.Name, key, num(x), who, num(qmax)).
						Note(qst.Span(), "QJOB_LIMIT of queue %s", q.Name)
				}
			}
		},
	}
}

// steadyNumber returns the number of a setting written outside any #if.
func steadyNumber(st *compile.Setting) (float64, bool) {
	if st == nil || !unconditional(st) {
		return 0, false
	}
	x, ok := st.Value.(float64)
	return x, ok
}
