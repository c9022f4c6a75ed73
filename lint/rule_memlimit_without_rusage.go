package lint

import (
	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
)

// memlimitWithoutRusage finds memory limits without a memory reservation:
// the scheduler then places jobs with no regard to free memory, and the
// limit kills them on crowded hosts.
func memlimitWithoutRusage() *Analyzer {
	return &Analyzer{
		Code: "LSF513", Name: "memlimit-without-rusage", Severity: lang.Warning,
		Summary: "a MEMLIMIT without a memory reservation (rusage[mem])",
		Doc: `What it finds: a queue or application profile with MEMLIMIT whose
RES_REQ reserves no memory (no rusage[mem=...]), or that has no RES_REQ.
For a profile, lsfc also requires that no queue of lsb.queues reserves
memory, since a queue's reservation applies to the profile's jobs too;
without lsb.queues it says nothing about profiles.

Why it matters: the limit kills a job once it uses that much memory, but
without a reservation the scheduler places jobs without looking at free
memory: several large jobs land on one host, compete for its memory, and
are killed or swap.

Example: MEMLIMIT = 16G in a queue without RES_REQ.

Fix: reserve what jobs typically use: RES_REQ = rusage[mem=8G], next to
the limit.`,
		Run: func(p *Pass) {
			for _, q := range p.Policy.Queues {
				if st := memoryLimit(q.Settings); st != nil && !reservesSome(q.Settings) {
					p.Report(st.Span(), "queue %s limits memory (MEMLIMIT %s) but its RES_REQ reserves none: jobs are killed at the limit, yet placed with no regard to free memory; add rusage[mem=...]",
						q.Name, memoryLimitText(st))
				}
			}
			if !p.Has(lang.KindLSBQueues) {
				return
			}
			for _, q := range p.Policy.Queues {
				if reservesSome(q.Settings) || q.Settings["RES_REQ"] != nil && q.ResReq == nil {
					return // a queue reserves memory for profile jobs, or may
				}
			}
			for _, a := range p.Policy.Applications {
				if st := memoryLimit(a.Settings); st != nil && !reservesSome(a.Settings) {
					p.Report(st.Span(), "application profile %s limits memory (MEMLIMIT %s) but neither it nor any queue reserves memory: jobs are killed at the limit, yet placed with no regard to free memory; add rusage[mem=...] to its RES_REQ",
						a.Name, memoryLimitText(st))
				}
			}
		},
	}
}

// memoryLimit returns the MEMLIMIT of a queue or profile, when it is set
// outside any #if and could be read.
func memoryLimit(set compile.Settings) *compile.Setting {
	st := set["MEMLIMIT"]
	if st == nil || !unconditional(st) {
		return nil
	}
	if _, ok := st.Value.(*compile.Limit); !ok {
		return nil
	}
	return st
}

// memoryLimitText prints a MEMLIMIT setting (returned by memoryLimit)
// with its unit, as LSF_UNIT_FOR_LIMITS reads bare numbers: "16G", or
// "8G 16G" for a default and a maximum.
func memoryLimitText(st *compile.Setting) string {
	l := st.Value.(*compile.Limit)
	if l.Default != nil {
		return compile.FormatMemory(*l.Default) + " " + compile.FormatMemory(l.Max)
	}
	return compile.FormatMemory(l.Max)
}

// reservesSome reports whether RES_REQ may reserve memory: it reserves
// mem, or it could not be read, or it changes with an #if.
func reservesSome(set compile.Settings) bool {
	st := set["RES_REQ"]
	if st == nil {
		return false
	}
	for _, s := range withAlternatives(st) {
		r, ok := s.Value.(*compile.Requirement)
		if !ok || r == nil {
			return true
		}
		if _, found := memReservation(r); found {
			return true
		}
	}
	return false
}

// memReservation returns the first amount of mem a requirement reserves.
func memReservation(r *compile.Requirement) (compile.Amount, bool) {
	for _, alt := range r.Alts {
		for _, t := range alt {
			if t == nil || t.Simple == nil {
				continue
			}
			for _, usages := range t.Simple.Rusage {
				for _, u := range usages {
					for _, a := range u.Amounts {
						if a.Name == "mem" {
							return a, true
						}
					}
				}
			}
		}
	}
	return compile.Amount{}, false
}

// unconditional reports whether a setting holds at all times: it is
// written outside any #if and no #if arm gives the key another value.
func unconditional(st *compile.Setting) bool {
	return st.When == "" && len(st.Alternatives) == 0
}
