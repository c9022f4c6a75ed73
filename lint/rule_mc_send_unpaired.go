package lint

import (
	"github.com/lsfc/lsfc/lang"
)

// mcSendUnpaired finds SNDJOBS_TO destinations that the remote cluster's
// configuration, when given, does not pair with a receive-jobs queue.
func mcSendUnpaired() *Analyzer {
	return &Analyzer{
		Code: "LSF540", Name: "mc-send-unpaired", Severity: lang.Error,
		Summary: "a SNDJOBS_TO destination that the remote cluster's queues do not receive",
		Doc: `What it finds: with the configuration of the remote cluster given
(lsfc lint --peer), a SNDJOBS_TO destination queue@cluster whose queue
that cluster does not define, or whose RCVJOBS_FROM names neither this
cluster nor allclusters.

Why it matters: job forwarding needs both sides to agree. The remote
queue refuses every job this queue forwards there (or the destination is
never tried), so the jobs pend at home or go elsewhere.

Example: SNDJOBS_TO = recv@peer while queue recv of peer has
RCVJOBS_FROM = other.

Fix: name the cluster in the remote queue's RCVJOBS_FROM, or correct the
queue name in SNDJOBS_TO.`,
		Run: func(p *Pass) {
			local := p.Policy.Cluster
			if local == "" {
				return // which cluster this is cannot be told
			}
			for _, q := range p.Policy.Queues {
				if !q.Sends() {
					continue
				}
				for _, d := range q.SendTo {
					peer := p.Peers[d.Cluster]
					if peer == nil {
						continue
					}
					remote := d.Remote(q.Name)
					rq := peer.Queue(remote)
					switch {
					case rq == nil:
						p.Report(d.Span, "queue %s forwards to %s@%s, but cluster %s defines no queue %s", q.Name, remote, d.Cluster, d.Cluster, remote)
					case !rq.ReceivesFrom(local):
						p.Report(d.Span, "queue %s forwards to %s@%s, but that queue does not receive jobs from %s (its RCVJOBS_FROM does not name it)",
							q.Name, remote, d.Cluster, local).Note(rq.Span(), "queue %s of cluster %s", remote, d.Cluster)
					}
				}
			}
		},
	}
}
