package lint

import (
	"github.com/lsfc/lsfc/lang"
)

// mcPluginInterval finds MC_PLUGIN_SCHEDULE_ENHANCE without
// MC_PLUGIN_UPDATE_INTERVAL.
func mcPluginInterval() *Analyzer {
	return &Analyzer{
		Code: "LSF543", Name: "mc-plugin-without-interval", Severity: lang.Warning,
		Summary: "MC_PLUGIN_SCHEDULE_ENHANCE without MC_PLUGIN_UPDATE_INTERVAL",
		Doc: `What it finds: MC_PLUGIN_SCHEDULE_ENHANCE set in lsb.params while
MC_PLUGIN_UPDATE_INTERVAL is not set.

Why it matters: the enhanced forwarding scheduler weighs what execution
clusters report about their queues, and they report it every
MC_PLUGIN_UPDATE_INTERVAL; without it the submission cluster decides on
information that is never refreshed.

Example: MC_PLUGIN_SCHEDULE_ENHANCE = RESOURCE_ONLY alone in lsb.params.

Fix: set MC_PLUGIN_UPDATE_INTERVAL (seconds) in lsb.params of every
cluster.`,
		Run: func(p *Pass) {
			st := p.Policy.Params["MC_PLUGIN_SCHEDULE_ENHANCE"]
			if st == nil || st.Raw == "" || p.Policy.Params["MC_PLUGIN_UPDATE_INTERVAL"] != nil {
				return
			}
			p.Report(st.Span(), "MC_PLUGIN_SCHEDULE_ENHANCE needs MC_PLUGIN_UPDATE_INTERVAL: without it the remote queues' information is never refreshed")
		},
	}
}
