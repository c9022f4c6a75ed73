package lint

import (
	"github.com/lsfc/lsfc/lang"
)

// dispatchOutsideRun finds queues whose DISPATCH_WINDOW is open while
// their RUN_WINDOW is closed: the part outside the run window promises a
// dispatch that cannot take place.
func dispatchOutsideRun() *Analyzer {
	return &Analyzer{
		Code: "LSF524", Name: "dispatch-outside-run-window", Severity: lang.Warning,
		Summary: "a queue whose DISPATCH_WINDOW is open at times its RUN_WINDOW is closed",
		Doc: `What it finds: a queue with both RUN_WINDOW and DISPATCH_WINDOW whose
dispatch window is open at some minute of the week when the run window is
closed. lsfc compares the windows minute by minute over a week: a window
without days applies every day, and one that ends before it starts runs
overnight (or over the week's end). Windows set in #if arms are left
alone.

Why it matters: while the run window is closed the queue is inactive and
its running jobs are suspended, so a job cannot start then whatever the
dispatch window says; a job dispatched at the edge is suspended at once.
The dispatch window says something the queue never does, which usually
means one of the two windows is wrong (often a daily window against one
with days, or an overnight window written the wrong way round).

Example: RUN_WINDOW = 19:00-07:00 with DISPATCH_WINDOW = 18:00-06:00:
dispatch is open 18:00-19:00 while the queue cannot run jobs.

Fix: make the dispatch window a part of the run window, or drop
DISPATCH_WINDOW if the run window is what was meant.`,
		Run: func(p *Pass) {
			for _, q := range p.Policy.Queues {
				run, disp := q.Settings["RUN_WINDOW"], q.Settings["DISPATCH_WINDOW"]
				if run == nil || disp == nil || len(q.RunWindow) == 0 || len(q.DispatchWindow) == 0 || !steady(run) || !steady(disp) {
					continue
				}
				rs, ds := windowSet(q.RunWindow), windowSet(q.DispatchWindow)
				if rs.empty() || ds.empty() {
					continue // never open: LSF528
				}
				out := ds.minus(rs)
				if out.empty() {
					continue
				}
				p.Report(disp.Span(), "DISPATCH_WINDOW of queue %q is open %s while its RUN_WINDOW is closed: no job of the queue can start then",
					q.Name, out.describe()).
					Note(run.Span(), "RUN_WINDOW is open %s", rs.describe())
			}
		},
	}
}
