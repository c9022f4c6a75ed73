package lint

import (
	"github.com/lsfc/lsfc/lang"
)

// mcReceiveUnpaired finds RCVJOBS_FROM clusters that, when their
// configuration is given, forward nothing to the queue.
func mcReceiveUnpaired() *Analyzer {
	return &Analyzer{
		Code: "LSF541", Name: "mc-receive-unpaired", Severity: lang.Warning,
		Summary: "a RCVJOBS_FROM cluster whose queues never forward to this queue",
		Doc: `What it finds: with the configuration of the sending cluster given
(lsfc lint --peer), a cluster named in a queue's RCVJOBS_FROM none of
whose send-jobs queues names this queue of this cluster in SNDJOBS_TO.

Why it matters: the queue waits for jobs that never come; usually a
queue name differs between the two clusters' files.

Example: RCVJOBS_FROM = peer in queue recv, while peer's queue has
SNDJOBS_TO = receive@demo.

Fix: make the sending queue's SNDJOBS_TO name this queue, or drop the
cluster from RCVJOBS_FROM.`,
		Run: func(p *Pass) {
			local := p.Policy.Cluster
			if local == "" {
				return // which cluster this is cannot be told
			}
			for _, q := range p.Policy.Queues {
				st := q.Settings["RCVJOBS_FROM"]
				if st == nil {
					continue
				}
				for _, from := range q.ReceiveFrom {
					peer := p.Peers[from]
					if peer == nil {
						continue
					}
					if !sendsTo(peer.Queues, local, q.Name) {
						p.Report(wordSpan(st, from), "queue %s receives jobs from %s, but no queue of %s forwards to %s@%s", q.Name, from, from, q.Name, local)
					}
				}
			}
		},
	}
}
