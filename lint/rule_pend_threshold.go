package lint

import (
	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
)

// pendThresholdWithoutEffect finds pending job thresholds that never
// apply: a row of lsb.users above lsb.params's cap, or a MAX_PEND_JOBS
// that the MAX_PEND_SLOTS beside it reaches first.
func pendThresholdWithoutEffect() *Analyzer {
	return &Analyzer{
		Code: "LSF560", Name: "pend-threshold-without-effect", Severity: lang.Info,
		Summary: "a MAX_PEND_JOBS or MAX_PEND_SLOTS that never applies",
		Doc: `What it finds: a row of lsb.users whose MAX_PEND_JOBS or MAX_PEND_SLOTS is
larger than the same key of lsb.params, and a MAX_PEND_JOBS (in a row of
lsb.users, or in lsb.params) larger than the MAX_PEND_SLOTS beside it.

Why it matters: lsb.params's thresholds hold for every user and group,
so a row's larger value never binds. Every pending job asks for one slot
at least, so the pending slots reach MAX_PEND_SLOTS before the pending
jobs reach a larger MAX_PEND_JOBS: submissions are refused with "Pending
job slot threshold reached." and the job threshold is never the one
users meet.

Example: MAX_PEND_JOBS = 5000 for a user in lsb.users while lsb.params
sets MAX_PEND_JOBS = 1000.

Fix: lower the row's value below lsb.params's (or raise lsb.params's),
and keep MAX_PEND_JOBS at or below MAX_PEND_SLOTS.`,
		Run: func(p *Pass) {
			params := p.Policy.Params
			capOf := map[string]float64{}
			for _, key := range []string{"MAX_PEND_JOBS", "MAX_PEND_SLOTS"} {
				if x, ok := steadyNumber(params[key]); ok && x > 0 {
					capOf[key] = x
				}
			}
			if jobs, ok := capOf["MAX_PEND_JOBS"]; ok {
				if slots, ok := capOf["MAX_PEND_SLOTS"]; ok && jobs > slots {
					pendJobsAboveSlots(p, "lsb.params", params, jobs, slots)
				}
			}
			for _, l := range p.Policy.UserLimits {
				for _, key := range []string{"MAX_PEND_JOBS", "MAX_PEND_SLOTS"} {
					st := l.Settings[key]
					x, ok := steadyNumber(st)
					if c, capped := capOf[key]; ok && capped && x > c {
						p.Report(st.Span(), "%s %s of %s in lsb.users never applies: lsb.params's %s of %s holds for every user and group",
							key, num(x), l.User, key, num(c)).
							Note(params[key].Span(), "%s of lsb.params", key)
					}
				}
				jobs, okJ := steadyNumber(l.Settings["MAX_PEND_JOBS"])
				slots, okS := steadyNumber(l.Settings["MAX_PEND_SLOTS"])
				if okJ && okS && jobs > slots {
					pendJobsAboveSlots(p, "the row of "+l.User+" in lsb.users", l.Settings, jobs, slots)
				}
			}
		},
	}
}

// pendJobsAboveSlots reports a MAX_PEND_JOBS larger than the
// MAX_PEND_SLOTS beside it.
func pendJobsAboveSlots(p *Pass, where string, set compile.Settings, jobs, slots float64) {
	p.Report(set["MAX_PEND_JOBS"].Span(), "MAX_PEND_JOBS %s of %s is never reached: every pending job asks for a slot at least, so MAX_PEND_SLOTS %s is reached first",
		num(jobs), where, num(slots)).
		Note(set["MAX_PEND_SLOTS"].Span(), "MAX_PEND_SLOTS of %s", where)
}
