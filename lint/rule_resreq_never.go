package lint

import (
	"strings"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
)

// resreqNever finds a RES_REQ whose select no host of the cluster can
// ever satisfy, judged on the static facts of lsf.cluster only, so that a
// queue or profile whose jobs would pend forever is caught before users
// submit to it.
func resreqNever() *Analyzer {
	return &Analyzer{
		Code: "LSF510", Name: "resreq-never-satisfied", Severity: lang.Warning,
		Summary: "a RES_REQ whose select no host of lsf.cluster can ever satisfy",
		Doc: `What it finds: a RES_REQ of a queue or application profile whose select
is false on every server host of lsf.cluster, whatever the load. lsfc
judges the select on the facts the files fix: each host's type, model and
name, its Boolean resources (a Boolean a host's RESOURCES does not list
is 0 there, as LSF reads it), and the static values of RESOURCES
(res=value) and of the ResourceMap. Load indices, free slots, ncpus,
maxmem and other values only a running cluster knows are unknown, and an
unknown never counts against a host. With an alternative (||) or
compound requirement, every alternative must have a term no host can
take. Nothing is said when hosts may join the cluster dynamically, for a
RES_REQ that changes with an #if, nor for a queue that forwards jobs to,
or borrows hosts from, other clusters (nor then for profiles).

Why it matters: jobs submitted to the queue (or with the profile) pend
forever; bjobs -p only says that no host matches.

Example: RES_REQ = select[type==LINUXPPC64 && gpu] while no POWER host
has the gpu resource.

Fix: correct the select (a misspelt type, a resource the hosts do not
have), or give the hosts the resource in lsf.cluster.`,
		Run: func(p *Pass) {
			f := newStaticFacts(p)
			if f == nil {
				return
			}
			remote := false
			for _, q := range p.Policy.Queues {
				if queueRemote(q) {
					remote = true
					continue
				}
				if q.ResReq != nil && unconditional(q.Settings["RES_REQ"]) {
					f.reportNever(p, "queue "+q.Name, q.ResReq)
				}
			}
			if remote {
				// Jobs with any profile may run in another cluster.
				return
			}
			for _, a := range p.Policy.Applications {
				if a.ResReq != nil && unconditional(a.Settings["RES_REQ"]) {
					f.reportNever(p, "application profile "+a.Name, a.ResReq)
				}
			}
		},
	}
}

// reportNever reports r when no host of the cluster can take it.
func (f *staticFacts) reportNever(p *Pass, owner string, r *compile.Requirement) {
	t, never := f.failing(r, f.hosts)
	if !never {
		return
	}
	// A job's own compound requirement may replace a compound one.
	who := "its jobs"
	if r.Simple() == nil {
		who = "jobs that keep it"
	}
	h := f.hosts[0]
	p.Report(t.sec.Span.Root(), "%s: no host of lsf.cluster satisfies select[%s] of its RES_REQ, so %s pend forever; on %s, for example, %s",
		owner, t.prog.Text, who, h.def.Name, f.explain(t.prog, h))
}

// queueRemote reports whether a queue's jobs may run outside the local
// cluster: it forwards jobs (SNDJOBS_TO) or uses borrowed hosts
// (host@cluster, allremote).
func queueRemote(q *compile.Queue) bool {
	if len(q.SendTo) > 0 || q.Settings["SNDJOBS_TO"] != nil {
		return true
	}
	for _, it := range q.Hosts {
		if it.Cluster != "" || strings.EqualFold(it.Name, "allremote") {
			return true
		}
	}
	return false
}
