package lint

import (
	"strings"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
)

// resizeRules are the analyzers of resizable jobs (LSF534–LSF535).
func resizeRules() []*Analyzer {
	return []*Analyzer{resizeNotifyNotResizable(), resizableCompound()}
}

// profileResizable returns a profile's RESIZABLE_JOBS as written, "N"
// when unset, and whether it holds at all times.
func profileResizable(a *compile.Application) (string, bool) {
	st := a.Settings["RESIZABLE_JOBS"]
	if st == nil {
		return "N", true
	}
	v, ok := st.Value.(string)
	if !ok || !unconditional(st) {
		return "", false
	}
	return v, true
}

// resizeNotifyNotResizable finds a RESIZE_NOTIFY_CMD in a profile whose
// jobs are not resizable by the profile.
func resizeNotifyNotResizable() *Analyzer {
	return &Analyzer{
		Code: "LSF534", Name: "resize-notify-not-resizable", Severity: lang.Warning,
		Summary: "a RESIZE_NOTIFY_CMD in a profile whose jobs are not resizable",
		Doc: `What it finds: an application profile of lsb.applications that sets
RESIZE_NOTIFY_CMD while its RESIZABLE_JOBS is N (or unset).

Why it matters: the command is run only when the allocation of a resizable
job changes. The profile makes none of its jobs resizable, so the command
runs only for the jobs submitted to it with bsub -ar — most likely not what
was meant.

Example: RESIZE_NOTIFY_CMD = /apps/bin/resized, without RESIZABLE_JOBS.

Fix: set RESIZABLE_JOBS = Y (or auto) in the profile, or remove the
command.`,
		Run: func(p *Pass) {
			for _, a := range p.Policy.Applications {
				st := a.Settings["RESIZE_NOTIFY_CMD"]
				if st == nil {
					continue
				}
				if v, ok := profileResizable(a); ok && strings.EqualFold(v, "N") {
					p.Report(st.KeySpan(), "application profile %s sets RESIZE_NOTIFY_CMD but RESIZABLE_JOBS is N: the command runs only for its jobs submitted with bsub -ar; set RESIZABLE_JOBS = Y or auto",
						a.Name)
				}
			}
		},
	}
}

// resizableCompound finds a resizable profile whose jobs can never be
// accepted: a compound or alternative RES_REQ, or (for lsfc) a GPU_REQ.
func resizableCompound() *Analyzer {
	return &Analyzer{
		Code: "LSF535", Name: "resizable-compound", Severity: lang.Error,
		Summary: "a resizable profile whose jobs are all rejected",
		Doc: `What it finds: an application profile with RESIZABLE_JOBS = Y or auto whose
RES_REQ is a compound (n*{...} + ...) or alternative ({...} || {...})
requirement, or that sets GPU_REQ.

Why it matters: LSF rejects every such job ("Resizable job cannot have
compound or alternative resource requirements"); lsfc also rejects
resizable jobs that ask for GPUs, as it does not resize their GPUs. Every
submission to the profile fails.

Example: RESIZABLE_JOBS = auto with RES_REQ = 2*{span[hosts=1]} + 4*{-}.

Fix: give the profile a simple RES_REQ (and no GPU_REQ), or set
RESIZABLE_JOBS = N.`,
		Run: func(p *Pass) {
			for _, a := range p.Policy.Applications {
				v, ok := profileResizable(a)
				if !ok || strings.EqualFold(v, "N") {
					continue
				}
				key := a.Settings["RESIZABLE_JOBS"].KeySpan()
				if st := a.Settings["RES_REQ"]; st != nil && unconditional(st) {
					if r, ok := st.Value.(*compile.Requirement); ok && r != nil && (len(r.Alts) > 1 || len(r.Alts) == 1 && len(r.Alts[0]) > 1) {
						p.Report(key, "application profile %s has RESIZABLE_JOBS = %s and a compound or alternative RES_REQ: every job of it is rejected (Resizable job cannot have compound or alternative resource requirements)",
							a.Name, v)
					}
				}
				if a.Settings["GPU_REQ"] != nil {
					p.Report(key, "application profile %s has RESIZABLE_JOBS = %s and GPU_REQ: lsfc rejects every job of it, as it does not resize jobs that use GPUs",
						a.Name, v)
				}
			}
		},
	}
}
