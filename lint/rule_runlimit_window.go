package lint

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
)

// runlimitBeyondWindow finds queues whose run limit is longer than any
// opening of their run window: a job that needs its whole limit is
// always cut off by the window closing first.
func runlimitBeyondWindow() *Analyzer {
	return &Analyzer{
		Code: "LSF515", Name: "runlimit-beyond-run-window", Severity: lang.Warning,
		Summary: "a queue RUNLIMIT longer than the longest time its RUN_WINDOW stays open",
		Doc: `What it finds: a queue whose RUNLIMIT maximum is longer than the longest
stretch its RUN_WINDOW is open, counting windows that run over midnight or
over the week's end as one stretch. lsfc says nothing when the limit may
be shorter than written on some hosts: a RUNLIMIT normalised to a host or
model (RUNLIMIT = 60/hostA), or a DEFAULT_HOST_SPEC in the queue or in
lsb.params, unless ABS_RUNLIMIT = Y; nor without lsb.params, which may set
one. Without either, LSF normalises run limits to the fastest host, which
only makes them longer elsewhere.

Why it matters: when the run window closes, LSF suspends the queue's
running jobs (kills them with TERMINATE_WHEN = WINDOW); a job that runs
as long as the limit allows can never finish within one opening.

Example: RUN_WINDOW = 19:00-07:00 (12 hours a night) with RUNLIMIT = 24:00.

Fix: lower RUNLIMIT to fit the window, or widen the window; for jobs
that must run longer, use a queue without a run window.`,
		Run: func(p *Pass) {
			if !p.Has(lang.KindLSBParams) {
				return
			}
			abs := p.Policy.Parameters.AbsRunLimit
			clusterSpec := p.Policy.Params["DEFAULT_HOST_SPEC"] != nil
			for _, q := range p.Policy.Queues {
				lst, wst := q.Settings["RUNLIMIT"], q.Settings["RUN_WINDOW"]
				if lst == nil || wst == nil || !unconditional(lst) || !unconditional(wst) || len(q.RunWindow) == 0 {
					continue
				}
				lim, ok := lst.Value.(*compile.Limit)
				if !ok || !abs && (lim.Spec != "" || clusterSpec || q.Settings["DEFAULT_HOST_SPEC"] != nil) {
					continue
				}
				open := windowSet(q.RunWindow)
				if open.empty() || open.full() {
					continue
				}
				longest := 0
				for _, r := range open.runs(minutesPerWeek) {
					longest = max(longest, r.to-r.from)
				}
				if lim.Max <= float64(longest) {
					continue
				}
				what := "suspended"
				if slices.ContainsFunc(q.TerminateWhen, func(s string) bool { return strings.EqualFold(s, "WINDOW") }) {
					what = "killed"
				}
				p.Report(lst.Span(), "queue %s: RUNLIMIT %s is longer than its RUN_WINDOW is ever open (at most %s, %s): a job that runs to its limit is %s when the window closes",
					q.Name, minutesText(lim.Max), minutesText(float64(longest)), open.describe(), what).
					Note(wst.Span(), "RUN_WINDOW of queue %s", q.Name)
			}
		},
	}
}

// minutesText shows a length of time given in minutes: "90 minutes
// (1h30m)", "720 minutes (12h)".
func minutesText(m float64) string {
	whole := int64(m)
	if float64(whole) != m || whole < 60 {
		return num(m) + " minutes"
	}
	d := fmt.Sprintf("%dh", whole/60)
	if whole%60 != 0 {
		d += fmt.Sprintf("%02dm", whole%60)
	}
	return fmt.Sprintf("%d minutes (%s)", whole, d)
}
