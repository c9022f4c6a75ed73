package lint

import (
	"slices"
	"strconv"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
)

// hostInNoQueue finds server hosts that no queue sends jobs to: capacity
// that is paid for and idle, usually because a host was added to
// lsf.cluster but not to the host group its queues use.
func hostInNoQueue() *Analyzer {
	return &Analyzer{
		Code: "LSF527", Name: "host-in-no-queue", Severity: lang.Info,
		Summary: "a server host that no queue's HOSTS includes",
		Doc: `What it finds: a server host of lsf.cluster (server 1) that the HOSTS of
every queue of lsb.queues leaves out. A queue without HOSTS uses every
host, and "others" in HOSTS takes the hosts no other item names, so the
finding needs every queue to have an explicit HOSTS that misses the host.
Management host candidates (LSF_MASTER_LIST of lsf.conf) and hosts whose
lsb.hosts row sets MXJ = 0 are left alone: they are usually kept free of
jobs on purpose. The rule says nothing when a queue names a host group
filled by egroup or a name lsfc cannot resolve, nor when lsb.resources
exports hosts to other clusters (HostExport) or reserves them
(ResourceReservation).

Why it matters: the host runs LSF daemons and shows in bhosts, but no
batch job ever runs on it; the usual cause is a host added to lsf.cluster
but not to the host group its queues use.

Example: lsf.cluster lists cn05, and every queue has HOSTS = cn_hosts,
where cn_hosts is (cn01 cn02 cn03 cn04).

Fix: add the host to the host group or queue meant to use it, or set
MXJ = 0 in lsb.hosts if it is to run no batch job.`,
		Run: func(p *Pass) {
			if !p.Has(lang.KindLSFCluster) || !p.Has(lang.KindLSBQueues) || len(p.Policy.Queues) == 0 {
				return
			}
			for _, o := range p.Policy.Sections {
				if o.Name == "HostExport" || o.Name == "ResourceReservation" {
					return // hosts lent to other clusters or reserved run jobs of no local queue
				}
			}
			groups := map[string]*compile.HostGroup{}
			for _, g := range p.Policy.HostGroups {
				groups[g.Name] = g
			}
			for _, g := range p.Policy.ComputeUnits {
				groups[g.Name] = g
			}
			hosts := map[string]bool{}
			for _, h := range p.Policy.Hosts {
				hosts[h.Name] = true
			}
			used := map[string]bool{}
			for _, q := range p.Policy.Queues {
				for _, it := range q.Hosts {
					if it.Exclude {
						continue
					}
					if it.Cluster != "" || hostKeywordOrPattern(it.Name) || hosts[it.Name] {
						continue
					}
					if g := groups[it.Name]; g == nil || g.External {
						return // unknown hosts: any host may be among them
					}
				}
				for _, h := range q.HostNames {
					used[h] = true
				}
			}
			masters := map[string]bool{}
			for _, n := range p.Policy.LSFConf.MasterList {
				masters[n] = true
			}
			// Hosts of one condensed row ("cn[05-08]") share a span and
			// one finding.
			var order []lang.Span
			idle := map[lang.Span][]string{}
			for _, h := range p.Policy.Hosts {
				if !h.Server || used[h.Name] || masters[h.Name] || h.Batch != nil && h.Batch.MXJ != nil && *h.Batch.MXJ == 0 {
					continue
				}
				if idle[h.Span()] == nil {
					order = append(order, h.Span())
				}
				idle[h.Span()] = append(idle[h.Span()], h.Name)
			}
			for _, sp := range order {
				names := idle[sp]
				if len(names) == 1 {
					p.Report(sp, "host %q is in no queue's HOSTS: no batch job runs on it", names[0])
					continue
				}
				slices.Sort(names)
				p.Report(sp, "hosts %s are in no queue's HOSTS: no batch job runs on them", abbrevNames(quoteAll(names)))
			}
		},
	}
}

// quoteAll quotes each name, as messages quote user text.
func quoteAll(names []string) []string {
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = strconv.Quote(n)
	}
	return out
}
