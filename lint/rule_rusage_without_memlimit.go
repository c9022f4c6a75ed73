package lint

import (
	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
)

// rusageWithoutMemlimit finds memory reservations without a memory limit:
// the reservation only steers placement, and nothing stops a job from
// using more than it reserved.
func rusageWithoutMemlimit() *Analyzer {
	return &Analyzer{
		Code: "LSF514", Name: "rusage-without-memlimit", Severity: lang.Info,
		Summary: "a memory reservation (rusage[mem]) without a MEMLIMIT",
		Doc: `What it finds: a queue or application profile whose RES_REQ reserves
memory (rusage[mem=...]) but that sets no MEMLIMIT. For a profile, lsfc
also requires that no queue of lsb.queues sets MEMLIMIT, since a queue's
limit applies to the profile's jobs too; without lsb.queues it says
nothing about profiles.

Why it matters: the reservation only tells the scheduler how much memory
a job will use; nothing holds the job to it. A job that uses more than it
reserved takes memory the scheduler promised to the jobs placed next to
it, and the host swaps or the kernel kills a process.

Example: RES_REQ = rusage[mem=4000] in a queue without MEMLIMIT.

Fix: set a limit a little above the reservation (MEMLIMIT = 6000), or ask
users to give one with bsub -M.`,
		Run: func(p *Pass) {
			check := func(owner string, set compile.Settings, r *compile.Requirement) {
				if r == nil || set["MEMLIMIT"] != nil || !unconditional(set["RES_REQ"]) {
					return
				}
				a, ok := memReservation(r)
				if !ok {
					return
				}
				p.Report(a.Span.Root(), "%s reserves memory (%s=%s) but sets no MEMLIMIT: a job may use more than it reserved and take the memory of the jobs placed next to it",
					owner, a.Name, p.Policy.Env().FormatAmount(a.Slot, a.Value))
			}
			for _, q := range p.Policy.Queues {
				check("queue "+q.Name, q.Settings, q.ResReq)
			}
			if !p.Has(lang.KindLSBQueues) {
				return
			}
			for _, q := range p.Policy.Queues {
				if q.Settings["MEMLIMIT"] != nil {
					return // the queue's limit applies to profile jobs
				}
			}
			for _, a := range p.Policy.Applications {
				check("application profile "+a.Name, a.Settings, a.ResReq)
			}
		},
	}
}
