package runtime

import (
	"fmt"
	"maps"
	"slices"

	"github.com/lsfc/lsfc/compile"
)

// Reconfigure builds the cluster a new Policy describes, with this
// cluster's jobs, as badmin reconfig does: pending jobs are taken again
// by the new configuration (their queue's new requirement, limits and
// profile; a job whose queue is gone goes to lost_and_found), started
// jobs keep their queue, hosts, state and run limit, even when their
// queue is gone; finished jobs keep everything bjobs and bacct show of
// them; a host that is gone but still runs jobs is kept, closed, until
// they end; what hosts' agents reported (facts, whether they answer)
// holds until they report again, and the exits that count towards hosts'
// exit rates still count. The operators' states of queues and
// hosts (closed, inactive), job numbers, and the use that fairshare and
// slot pools keep carry over by name. This cluster is left as it was: the
// caller swaps the two between cycles.
func (c *Cluster) Reconfigure(p *compile.Policy, opts ClusterOptions) (*Cluster, []string, error) {
	var retired []*compile.Host
	for _, h := range c.Hosts {
		if len(h.jobs) > 0 && p.Host(h.Name) == nil && opts.Hosts == nil {
			retired = append(retired, h.Facts)
		}
	}
	opts.Retired = retired
	n, err := NewCluster(p, opts)
	if err != nil {
		return nil, nil, err
	}
	var warnings []string
	for _, g := range c.JobGroups() {
		ng, err := n.addJobGroup(g.Path, g.Owner, g.Limit, "", g.Implicit, true)
		if err != nil {
			return nil, nil, err
		}
		// Its idle time (bgdel -d) goes on; a job restored below makes
		// it busy again.
		ng.Limit, ng.Implicit, ng.IdleSince = g.Limit, g.Implicit, g.IdleSince
		if g.SLA != "" && n.slaByName[g.SLA] != nil {
			ng.SLA = g.SLA
		}
	}
	for _, r := range c.advRsvs {
		if w := n.PutAdvRsv(*r); w != "" {
			warnings = append(warnings, w)
		}
	}
	for _, j := range c.Jobs() {
		nj, w, err := n.Restore(j.Image())
		if err != nil {
			return nil, nil, err
		}
		// A reservation goes on over a reconfiguration: when it began is
		// kept (it is not in the image; see reserve.go).
		nj.rsvSince = j.rsvSince
		if w != "" {
			warnings = append(warnings, "job "+j.Label()+": "+w)
		}
	}
	for _, j := range n.MoveLost() {
		warnings = append(warnings, fmt.Sprintf("job %s: queue %s is gone: job moved to %s", j.Label(), c.Job(j.ID).Queue.Name, LostAndFound))
	}
	n.nextID = max(n.nextID, c.nextID)
	n.nextSeq = max(n.nextSeq, c.nextSeq)
	n.minSeq = min(n.minSeq, c.minSeq)
	for _, q := range c.Queues {
		if nq := n.queueByName[q.Name]; nq != nil {
			nq.Open, nq.Active = q.Open, q.Active
		}
	}
	for _, h := range c.Hosts {
		if nh := n.hostByName[h.Name]; nh != nil && h.gpusFound {
			// The GPUs a host's agent found stay until it reports again.
			n.SetGPUs(nh, h.GPUs)
		}
		if nh := n.hostByName[h.Name]; nh != nil {
			n.SetGPUMemUsed(nh, h.gpuMemUsed)
		}
		if nh := n.hostByName[h.Name]; nh != nil && !nh.Retired && h.Status != HostOK {
			n.SetHostStatus(nh, h.Status)
			nh.ExitClosed = h.ExitClosed && nh.Status == HostClosedAdm
		}
		if nh := n.hostByName[h.Name]; nh != nil && !nh.Retired && opts.Hosts == nil {
			// What the host's agent reported of it where the configuration
			// says nothing ("!" type or model, CPUs, memory) holds until
			// the agent reports again.
			if def := c.Policy.Host(h.Name); def != nil {
				f, typ, model := h.Facts, "", ""
				if def.Type == "" {
					typ = f.Type
				}
				if def.Model == "" {
					model = f.Model
				}
				n.SetFacts(nh, typ, model, f.Ncpus, f.Maxmem, f.Maxswp, f.Maxtmp)
			}
		}
		if nh := n.hostByName[h.Name]; nh != nil {
			// A host whose agent does not answer stays so, and its jobs
			// UNKWN, until the agent is heard again.
			n.SetHostDown(nh, h.Down)
			nh.LastDispatch, nh.loadCheck = h.LastDispatch, h.loadCheck
			if len(h.Facts.Load) > 0 {
				n.SetLoad(nh, maps.Clone(h.Facts.Load))
			}
		}
	}
	// The exits that count towards hosts' exit rates.
	for _, h := range c.exitHosts {
		if nh := n.hostByName[h.Name]; nh != nil && len(h.exits) > 0 && !nh.exitListed {
			nh.exits, nh.exitListed = slices.Clone(h.exits), true
			n.exitHosts = append(n.exitHosts, nh)
		}
	}
	n.accrued = c.accrued
	// Fairshare history: by queue and account.
	for _, q := range c.Queues {
		nq := n.queueByName[q.Name]
		if q.fair == nil || nq == nil || nq.fair == nil {
			continue
		}
		// Accounts jobs are charged to are made for their users first, so
		// that the groups above them exist too; then each account found
		// at the same place of the new tree keeps its use.
		for _, a := range q.fair.list {
			if a.entries == nil && nq.fair.accounts[a.path] == nil {
				nq.fair.accountFor(a.Name, "")
			}
		}
		for _, a := range q.fair.list {
			if na := nq.fair.accounts[a.path]; na != nil {
				na.cpu = a.cpu
			}
		}
	}
	for _, pool := range c.pools {
		for q, use := range pool.use {
			if nq := n.queueByName[q.Name]; nq != nil && nq.pool != nil {
				nq.pool.use[nq] = use
			}
		}
	}
	return n, warnings, nil
}
