package lint

import (
	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
)

// queueHostsNeverOpen finds queues whose time windows never overlap the
// dispatch windows of their hosts: each setting looks sensible alone, but
// together they leave no minute of the week when a job of the queue can
// start.
func queueHostsNeverOpen() *Analyzer {
	return &Analyzer{
		Code: "LSF529", Name: "queue-window-misses-hosts", Severity: lang.Warning,
		Summary: "a queue whose time windows never overlap its hosts' dispatch windows",
		Doc: `What it finds: a queue with RUN_WINDOW or DISPATCH_WINDOW whose hosts all have
a DISPATCH_WINDOW in lsb.hosts (their own row, or the group, model, type
or default row that applies to them) and none of these is ever open while
the queue is: the minutes the queue's windows hold open and the minutes
each host's window holds open never meet in the week. Windows are
compared as LSF524 compares them (daily windows repeat every
day, windows that end before they start run overnight). The rule says
nothing unless lsf.cluster and lsb.hosts were read, when hosts may join
dynamically, when the queue names a host group filled by egroup, or when
a window is set in an #if arm.

Why it matters: a job starts only when its queue is active and
dispatching and its host's dispatch window is open. When these never
coincide the queue dispatches nothing, ever: its jobs pend with the host
"closed by dispatch window" while each window, read alone, looks right.

Example: queue night has RUN_WINDOW = 19:00-07:00 and HOSTS = desktops,
whose lsb.hosts row has DISPATCH_WINDOW = (08:00-18:00).

Fix: widen the queue's windows or the hosts' so that they overlap, or
point the queue at hosts that are open when it is.`,
		Run: func(p *Pass) {
			if !p.Has(lang.KindLSFCluster) || !p.Has(lang.KindLSBHosts) || dynamicHosts(p.Policy) {
				return
			}
			hosts := map[string]*compile.HostDef{}
			for _, h := range p.Policy.Hosts {
				hosts[h.Name] = h
			}
			external := map[string]bool{}
			for _, g := range append(append([]*compile.HostGroup{}, p.Policy.HostGroups...), p.Policy.ComputeUnits...) {
				external[g.Name] = g.External
			}
			for _, q := range p.Policy.Queues {
				run, disp := q.Settings["RUN_WINDOW"], q.Settings["DISPATCH_WINDOW"]
				if len(q.RunWindow) == 0 && len(q.DispatchWindow) == 0 || !steady(run) || !steady(disp) || len(q.HostNames) == 0 {
					continue
				}
				unknown := false
				for _, it := range q.Hosts {
					unknown = unknown || !it.Exclude && external[it.Name]
				}
				if unknown {
					continue
				}
				open := fullWeek()
				if len(q.RunWindow) > 0 {
					open = open.and(windowSet(q.RunWindow))
				}
				if len(q.DispatchWindow) > 0 {
					open = open.and(windowSet(q.DispatchWindow))
				}
				if open.empty() {
					continue // LSF524, LSF528
				}
				row, ok := closedHosts(q, hosts, open)
				if !ok {
					continue
				}
				at := disp
				if len(q.DispatchWindow) == 0 {
					at = run
				}
				p.Report(at.Span(), "queue %q is open %s, when none of its %d hosts takes jobs: their lsb.hosts DISPATCH_WINDOW never overlaps the queue's windows, so no job of the queue is ever dispatched",
					q.Name, open.describe(), len(q.HostNames)).
					Note(row.Settings["DISPATCH_WINDOW"].Span(), "lsb.hosts row %q opens %s", row.Row, windowSet(row.DispatchWindow).describe())
			}
		},
	}
}

// closedHosts reports whether every host of a queue has a dispatch window
// that misses the minutes the queue is open, and returns a row with such
// a window that is open at some time (a host row never open at all is
// LSF528's). It reports false as soon as a host may take a job.
func closedHosts(q *compile.Queue, hosts map[string]*compile.HostDef, open *weekSet) (*compile.HostBatch, bool) {
	var example *compile.HostBatch
	for _, name := range q.HostNames {
		h := hosts[name]
		if h == nil || h.Batch == nil || len(h.Batch.DispatchWindow) == 0 {
			return nil, false
		}
		st := h.Batch.Settings["DISPATCH_WINDOW"]
		if st == nil || !steady(st) {
			return nil, false
		}
		hs := windowSet(h.Batch.DispatchWindow)
		if !hs.and(open).empty() {
			return nil, false
		}
		if example == nil && !hs.empty() {
			example = h.Batch
		}
	}
	return example, example != nil
}
