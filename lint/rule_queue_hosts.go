package lint

import (
	"strings"

	"github.com/lsfc/lsfc/lang"
)

// queueNoHosts finds queues whose hosts can run no batch job: every host
// is a client of lsf.cluster (server 0) or has a job slot limit of 0.
func queueNoHosts() *Analyzer {
	return &Analyzer{
		Code: "LSF502", Name: "queue-without-slots", Severity: lang.Warning,
		Summary: "a queue whose hosts can run no batch job",
		Doc: `What it finds: a queue whose HOSTS resolve only to hosts that cannot run
batch jobs: client hosts (server 0 in lsf.cluster) or hosts whose lsb.hosts
row sets MXJ = 0.

Why it matters: jobs submitted to the queue pend forever; bjobs says
"not enough job slots" without naming the cause.

Example: HOSTS = login_nodes, where every login node is a client host.

Fix: point HOSTS at server hosts, or give the hosts job slots.`,
		Run: func(p *Pass) {
			if !p.Has(lang.KindLSFCluster) {
				return
			}
			hosts := map[string]string{} // host → why it runs no job, or ""
			for _, h := range p.Policy.Hosts {
				switch {
				case !h.Server:
					hosts[h.Name] = "a client host"
				case h.Batch != nil && h.Batch.MXJ != nil && *h.Batch.MXJ == 0:
					hosts[h.Name] = "MXJ 0"
				default:
					hosts[h.Name] = ""
				}
			}
			for _, q := range p.Policy.Queues {
				st := q.Settings["HOSTS"]
				if st == nil || len(q.HostNames) == 0 {
					continue
				}
				why := map[string]bool{}
				usable := false
				for _, h := range q.HostNames {
					w, ok := hosts[h]
					if !ok || w == "" {
						usable = true
						break
					}
					why[w] = true
				}
				if usable {
					continue
				}
				var reasons []string
				for _, w := range []string{"a client host", "MXJ 0"} {
					if why[w] {
						reasons = append(reasons, w)
					}
				}
				p.Report(st.Span(), "queue %s runs on no host that takes batch jobs: each of its %d hosts is %s",
					q.Name, len(q.HostNames), strings.Join(reasons, " or "))
			}
		},
	}
}
