package lint

import (
	"strings"

	"github.com/lsfc/lsfc/lang"
)

// percentLimitWithoutPerHost finds Limit sections that give memory, swap
// or /tmp as a percentage where LSF takes none, and therefore ignores the
// whole section.
func percentLimitWithoutPerHost() *Analyzer {
	return &Analyzer{
		Code: "LSF519", Name: "percent-limit-without-per-host", Severity: lang.Warning,
		Summary: "a Limit with MEM, SWP or TMP as a percentage but without PER_HOST",
		Doc: `What it finds: a Limit section of lsb.resources whose MEM, SWP or TMP is a
percentage (MEM = 90%) while the section has no PER_HOST, or has HOSTS.

Why it matters: a percentage is a share of each host's memory, swap or
/tmp, so LSF takes one only together with PER_HOST; otherwise it ignores
the whole Limit section, with its other limits, and the consumers it was
written for run unlimited.

Example: Begin Limit / QUEUES = short / MEM = 50% / End Limit.

Fix: add PER_HOST (PER_HOST = all, or the hosts meant) in place of HOSTS,
or give an amount (MEM = 64G).`,
		Run: func(p *Pass) {
			for _, l := range p.Policy.Limits {
				perHost := l.Settings["PER_HOST"] != nil
				hosts := l.Settings["HOSTS"] != nil
				if perHost && !hosts {
					continue
				}
				name := "a Limit"
				if l.Name != "" {
					name = "Limit " + l.Name
				}
				why := "without PER_HOST"
				if hosts {
					why = "with HOSTS"
				}
				for _, key := range []string{"MEM", "SWP", "TMP"} {
					st := l.Settings[key]
					if st == nil {
						continue
					}
					if v, ok := st.Value.(string); ok && strings.HasSuffix(v, "%") {
						p.Report(st.Span(), "%s: %s = %s is a share of each host's, which LSF takes only with PER_HOST; given %s, LSF ignores the whole Limit section",
							name, key, v, why)
					}
				}
			}
		},
	}
}
