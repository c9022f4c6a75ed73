package lint

import (
	"github.com/lsfc/lsfc/lang"
)

// zeroLimit finds slot and job limits of 0, which stop every job they
// cover from being dispatched: usually a placeholder or a typo, and a
// confusing way to close a queue.
func zeroLimit() *Analyzer {
	return &Analyzer{
		Code: "LSF518", Name: "zero-limit", Severity: lang.Warning,
		Summary: "a job slot or job limit of 0, which lets nothing run",
		Doc: `What it finds: QJOB_LIMIT, HJOB_LIMIT, UJOB_LIMIT or PJOB_LIMIT = 0 in a
queue, SLOTS = 0 or JOBS = 0 in a Limit section of lsb.resources, and
MAX_PEND_JOBS or MAX_PEND_SLOTS = 0 in a row of lsb.users (every
submission of the row's users is refused, for a new job pends first).

Why it matters: a limit of 0 lets no job of what it covers run: the
queue (or each user of it, each host, each processor) gets no slot, and
the consumers of the Limit get none. Jobs pend with a limit reason that
does not say the limit is 0 on purpose; a 0 is often a placeholder or a
typo for an empty value.

Example: UJOB_LIMIT = 0 in a queue meant to be unlimited per user.

Fix: remove the line for no limit, or give the intended number. To stop a
queue on purpose, use badmin qclose or qinact; to keep users or queues
off hosts, use the queue's HOSTS or USERS.`,
		Run: func(p *Pass) {
			for _, q := range p.Policy.Queues {
				for _, key := range []string{"QJOB_LIMIT", "HJOB_LIMIT", "UJOB_LIMIT", "PJOB_LIMIT"} {
					st := q.Settings[key]
					if x, ok := steadyNumber(st); ok && x == 0 {
						p.Report(st.Span(), "queue %s: %s = 0 lets no job of the queue run: nothing is ever dispatched from it%s",
							q.Name, key, zeroWho(key))
					}
				}
			}
			for _, l := range p.Policy.UserLimits {
				for _, key := range []string{"MAX_PEND_JOBS", "MAX_PEND_SLOTS"} {
					st := l.Settings[key]
					if x, ok := steadyNumber(st); ok && x == 0 {
						p.Report(st.Span(), "lsb.users: %s = 0 for %s refuses every submission: no job of theirs can be pending, and a new job pends first", key, l.User)
					}
				}
			}
			for _, l := range p.Policy.Limits {
				name := "a Limit"
				if l.Name != "" {
					name = "Limit " + l.Name
				}
				for _, key := range []string{"SLOTS", "JOBS"} {
					st := l.Settings[key]
					if x, ok := steadyNumber(st); ok && x == 0 {
						p.Report(st.Span(), "%s: %s = 0 lets no job of its consumers run: none of their jobs is ever dispatched", name, key)
					}
				}
			}
		},
	}
}

// zeroWho says whom a zero queue limit leaves without slots.
func zeroWho(key string) string {
	switch key {
	case "HJOB_LIMIT":
		return " (no host may run one)"
	case "UJOB_LIMIT":
		return " (no user may run one)"
	case "PJOB_LIMIT":
		return " (no processor may run one)"
	}
	return ""
}
