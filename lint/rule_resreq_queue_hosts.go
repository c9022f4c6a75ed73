package lint

import (
	"strings"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
)

// resreqNotOnQueueHosts finds a queue whose RES_REQ only hosts outside
// its HOSTS can satisfy: the two settings were written for different
// machines, and the queue's jobs pend although matching hosts exist.
func resreqNotOnQueueHosts() *Analyzer {
	return &Analyzer{
		Code: "LSF511", Name: "resreq-not-on-queue-hosts", Severity: lang.Warning,
		Summary: "a queue RES_REQ that some hosts satisfy, but none of the queue's own",
		Doc: `What it finds: a queue whose RES_REQ select is false on every host its
HOSTS resolves to, while hosts elsewhere in the cluster may satisfy it.
The select is judged as for LSF510: on the static facts of lsf.cluster
(type, model, name, Boolean resources, static values), an unknown never
counting against a host. Nothing is said when HOSTS names a host
lsf.cluster does not list, an egroup or another cluster's hosts, when
HOSTS or RES_REQ changes with an #if, nor when hosts may join the cluster
dynamically.

Why it matters: the queue dispatches only to its own hosts, so its jobs
pend forever, although lshosts -R shows hosts that match the requirement.

Example: HOSTS = cn_hosts with RES_REQ = select[gpu], while only the
hosts of gpu_hosts have the gpu resource.

Fix: point HOSTS at the hosts the requirement is written for, or correct
the requirement.`,
		Run: func(p *Pass) {
			f := newStaticFacts(p)
			if f == nil {
				return
			}
			external := map[string]bool{}
			for _, g := range p.Policy.HostGroups {
				external[g.Name] = g.External
			}
			for _, q := range p.Policy.Queues {
				st := q.Settings["HOSTS"]
				if q.ResReq == nil || st == nil || len(q.HostNames) == 0 || queueRemote(q) ||
					!unconditional(st) || !unconditional(q.Settings["RES_REQ"]) {
					continue
				}
				open := false
				for _, it := range q.Hosts {
					open = open || external[it.Name]
				}
				var own []*staticHost
				inQueue := map[*staticHost]bool{}
				for _, name := range q.HostNames {
					h := f.host(name)
					if h == nil {
						open = true
						break
					}
					if h.def.Server {
						own = append(own, h)
						inQueue[h] = true
					}
				}
				if open || len(own) == 0 {
					continue
				}
				if _, never := f.failing(q.ResReq, f.hosts); never {
					continue // LSF510
				}
				t, none := f.failing(q.ResReq, own)
				if !none {
					continue
				}
				var others []string
				for _, h := range f.hosts {
					if !inQueue[h] && f.judge(t.prog, h) != compile.False {
						others = append(others, h.def.Name)
					}
				}
				elsewhere := ""
				switch {
				case len(others) > 3:
					elsewhere = " (only hosts outside the queue, such as " + strings.Join(others[:3], ", ") + ", may)"
				case len(others) > 0:
					elsewhere = " (only hosts outside the queue may: " + strings.Join(others, ", ") + ")"
				}
				h := own[0]
				p.Report(t.sec.Span.Root(), "queue %s: none of its %d hosts satisfies select[%s] of its RES_REQ%s; on %s, for example, %s",
					q.Name, len(own), t.prog.Text, elsewhere, h.def.Name, f.explain(t.prog, h)).
					Note(st.Span(), "HOSTS of queue %s", q.Name)
			}
		},
	}
}
