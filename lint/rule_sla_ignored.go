package lint

import (
	"github.com/lsfc/lsfc/lang"
)

// slaEgoKeys finds the keys of EGO-enabled SLA scheduling in service
// classes: lsfc has no EGO to take hosts from, and schedules the class's
// jobs on the cluster's own hosts by its goals.
func slaEgoKeys() *Analyzer {
	return &Analyzer{
		Code: "LSF550", Name: "sla-ego-keys", Severity: lang.Info,
		Summary: "a service class key of EGO-enabled SLA scheduling, which lsfc ignores",
		Doc: `What it finds: CONSUMER, EGO_RES_REQ, EGO_RESOURCE_GROUP or
MAX_HOST_IDLE_TIME in a ServiceClass section of lsb.serviceclasses.

Why it matters: these keys only take effect with EGO-enabled SLA
scheduling, where the class borrows hosts from an EGO consumer. lsfc's
scheduler has no EGO: it schedules the class's jobs on the cluster's own
hosts, by the class's goals and priority, and the keys change nothing. A
cluster that relies on EGO to grow the class's hosts behaves differently
under lsfc serve and lsfc simulate.

Example: EGO_RES_REQ = mem>1000 in a class with a velocity goal.

Fix: nothing if the file is shared with an LSF cluster that uses EGO;
otherwise remove the keys.`,
		Run: func(p *Pass) {
			for _, sc := range p.Policy.ServiceClasses {
				for _, k := range []string{"CONSUMER", "EGO_RES_REQ", "EGO_RESOURCE_GROUP", "MAX_HOST_IDLE_TIME"} {
					if st := sc.Settings[k]; st != nil {
						p.Report(st.KeySpan(), "%s of service class %q is for EGO-enabled SLA scheduling; lsfc schedules the class on the cluster's hosts and ignores it", k, sc.Name)
					}
				}
			}
		},
	}
}

// slaGuarantee finds guarantee service classes: lsfc accepts their jobs
// (bsub -sla) but reserves no pool slots for them.
func slaGuarantee() *Analyzer {
	return &Analyzer{
		Code: "LSF551", Name: "sla-guarantee", Severity: lang.Info,
		Summary: "a guarantee service class, whose jobs lsfc schedules without the guarantee",
		Doc: `What it finds: a ServiceClass section with GOALS = [GUARANTEE].

Why it matters: in LSF, a guarantee class owns slots, hosts or packages of
the GuaranteedResourcePool sections of lsb.resources, which are kept for
its jobs. lsfc reads the class and accepts jobs submitted to it with bsub
-sla, but schedules them by their queue alone: no resources are kept for
them, so the waits lsfc serve and lsfc simulate show for other work are
shorter than LSF's, and those of the class's jobs may be longer.

Example: NAME = bigMemSLA, GOALS = [GUARANTEE], ACCESS_CONTROL =
QUEUES[normal].

Fix: nothing, if the difference is understood; a time-based goal
(VELOCITY) gives a class a number of running jobs that lsfc does enforce.`,
		Run: func(p *Pass) {
			for _, sc := range p.Policy.ServiceClasses {
				if sc.Guarantee {
					sp := sc.Span()
					if st := sc.Settings["GOALS"]; st != nil {
						sp = st.Span()
					}
					p.Report(sp, "service class %q is a guarantee class; lsfc accepts its jobs but keeps no pool resources for them", sc.Name)
				}
			}
		},
	}
}
