package lint

import (
	"github.com/lsfc/lsfc/lang"
)

// ptileExceedsSlots finds a queue whose span[ptile=N] asks for more slots
// on one host than any of the queue's hosts can give, so that larger
// parallel jobs can never start.
func ptileExceedsSlots() *Analyzer {
	return &Analyzer{
		Code: "LSF516", Name: "ptile-exceeds-slots", Severity: lang.Warning,
		Summary: "a queue span[ptile=N] larger than the job slots of every host of the queue",
		Doc: `What it finds: a queue whose RES_REQ asks for span[ptile=N] while no host
of the queue can give a job N slots: each host's MXJ in lsb.hosts is
smaller than N, or the queue's HJOB_LIMIT is. lsfc says nothing when a
host's slots are unknown: no lsb.hosts row sets its MXJ, its MXJ is "!"
(one per CPU) or unlimited, or lsf.cluster does not list it. Only simple
requirements with a plain number are checked.

Why it matters: LSF places exactly N slots of the job on each host; a job
of N slots or more needs a host with N free slots, which the queue does
not have, so it pends forever. Smaller jobs fit on one host and run,
which hides the mistake until someone submits a large one. (A job that
gives its own span[] with bsub -R is not bound by the queue's.)

Example: RES_REQ = span[ptile=32] in a queue whose hosts have MXJ = 16.

Fix: lower ptile to the hosts' slot count, or raise MXJ (or HJOB_LIMIT)
where the hosts really have that many cores.`,
		Run: func(p *Pass) {
			for _, q := range p.Policy.Queues {
				if q.ResReq == nil || q.ResReq.Simple() == nil || !unconditional(q.Settings["RES_REQ"]) {
					continue
				}
				s := q.ResReq.Simple()
				n := s.Span.Ptile
				if n <= 1 || s.Span.PtileMXJ || s.Span.PtileBy != nil {
					continue
				}
				at := ptileSpan(s.AST)
				if !at.IsValid() {
					continue
				}
				hjob := -1.0
				if st := q.Settings["HJOB_LIMIT"]; st != nil && unconditional(st) {
					if x, ok := st.Value.(float64); ok {
						hjob = x
					}
				}
				if hjob > 0 && hjob < float64(n) {
					p.Report(at, "queue %s: span[ptile=%d] asks for %d slots on each host, but HJOB_LIMIT lets the queue use only %s per host: a job of %d slots or more that gives no span[] of its own never starts",
						q.Name, n, n, num(hjob), n).
						Note(q.Settings["HJOB_LIMIT"].Span(), "HJOB_LIMIT of queue %s", q.Name)
					continue
				}
				if !p.Has(lang.KindLSFCluster) || !p.Has(lang.KindLSBHosts) || len(q.HostNames) == 0 || queueRemote(q) {
					continue
				}
				most, known := 0, true
				for _, name := range q.HostNames {
					h := p.Policy.Host(name)
					if h == nil {
						known = false
						break
					}
					if !h.Server {
						continue
					}
					if h.Batch == nil || h.Batch.MXJ == nil || *h.Batch.MXJ < 0 {
						known = false
						break
					}
					most = max(most, *h.Batch.MXJ)
				}
				if !known || most == 0 || most >= n {
					continue
				}
				p.Report(at, "queue %s: span[ptile=%d] asks for %d slots on each host, but none of its hosts has more than %d (MXJ in lsb.hosts): a job of %d slots or more that gives no span[] of its own never starts",
					q.Name, n, n, most, n)
			}
		},
	}
}

// ptileSpan returns where the ptile value of a simple requirement is
// written, in its file.
func ptileSpan(s *lang.Simple) lang.Span {
	sec := s.Section(lang.SecSpan)
	if sec == nil {
		return lang.Span{}
	}
	for _, it := range sec.Items {
		if it.Name.Text == "ptile" && it.Value != nil {
			return it.Value.Span.Root()
		}
	}
	return lang.Span{}
}
