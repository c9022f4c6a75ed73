package lint

import (
	"strings"

	"github.com/lsfc/lsfc/lang"
)

// mcPeerNoAddress finds clusters that queues forward to or receive from
// but that lsf.shared gives no Servers for.
func mcPeerNoAddress() *Analyzer {
	return &Analyzer{
		Code: "LSF542", Name: "mc-peer-no-address", Severity: lang.Warning,
		Summary: "a cluster that queues exchange jobs with, with no Servers in lsf.shared",
		Doc: `What it finds: a cluster named in SNDJOBS_TO or RCVJOBS_FROM whose row
in lsf.shared's Cluster section has no Servers.

Why it matters: clusters find each other through Servers: lsfc reaches a
peer's daemon at host or host:port of its Servers (the port defaults to
LSB_MBD_PORT). A cluster without them is never reachable; jobs forwarded
to it pend as if its daemon were down.

Example: a Cluster row "peer ()" with SNDJOBS_TO = recv@peer.

Fix: list the peer's master candidates in Servers, as host or host:port.`,
		Run: func(p *Pass) {
			for _, c := range p.Policy.Clusters {
				if c.Name == p.Policy.Cluster || len(c.Addrs) > 0 || len(c.Servers) > 0 {
					continue
				}
				var users []string
				for _, q := range p.Policy.Queues {
					used := false
					for _, d := range q.SendTo {
						used = used || d.Cluster == c.Name
					}
					for _, f := range q.ReceiveFrom {
						used = used || f == c.Name
					}
					if used {
						users = append(users, q.Name)
					}
				}
				if len(users) > 0 {
					what := "queue " + users[0] + " exchanges"
					if len(users) > 1 {
						what = "queues " + strings.Join(users, ", ") + " exchange"
					}
					p.Report(c.Span(), "cluster %s has no Servers in lsf.shared, so it cannot be reached, but %s jobs with it", c.Name, what)
				}
			}
		},
	}
}
