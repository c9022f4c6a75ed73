package lint

import (
	"fmt"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
)

// windowAlwaysClosed finds time windows that hold no minute of the week:
// a queue or host that is meant to be open part of the time is never
// open at all.
func windowAlwaysClosed() *Analyzer {
	return &Analyzer{
		Code: "LSF528", Name: "window-always-closed", Severity: lang.Warning,
		Summary: "a RUN_WINDOW or DISPATCH_WINDOW that is never open",
		Doc: `What it finds: a queue's RUN_WINDOW or DISPATCH_WINDOW, or a DISPATCH_WINDOW
of lsb.hosts' Host section, every window of which starts and ends at the
same time (8:00-8:00, 5:18:00-5:18:00), so that it is open at no minute of
the week. A value set in an #if arm is checked too: it is never open
while it is in force.

Why it matters: an unset window is always open, but a window that holds
no time is always closed: the queue never runs or never dispatches its
jobs, the host never starts a job. bqueues shows the queue inactive
(Inact_Win) and bhosts the host closed (closed_Wind), with no hint at the
configuration.

Example: RUN_WINDOW = 19:00-19:00, meant to be 19:00-07:00.

Fix: give each window the end it was meant to have, or remove the key to
keep the queue or host always open.`,
		Run: func(p *Pass) {
			check := func(st *compile.Setting, what string) {
				if st == nil {
					return
				}
				for _, v := range append([]*compile.Setting{st}, st.Alternatives...) {
					ws, _ := v.Value.([]compile.Window)
					if len(ws) > 0 && windowSet(ws).empty() {
						p.Report(v.Span(), "%s is never open: each of its windows starts and ends at the same time", what)
					}
				}
			}
			for _, q := range p.Policy.Queues {
				check(q.Settings["RUN_WINDOW"], fmt.Sprintf("RUN_WINDOW of queue %q", q.Name))
				check(q.Settings["DISPATCH_WINDOW"], fmt.Sprintf("DISPATCH_WINDOW of queue %q", q.Name))
			}
			for _, b := range p.Policy.BatchHosts {
				check(b.Settings["DISPATCH_WINDOW"], fmt.Sprintf("DISPATCH_WINDOW of lsb.hosts row %q", b.Row))
			}
		},
	}
}
