package lint

import (
	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
)

// unusedResource finds site resources of lsf.shared that nothing in the
// tree uses, so that stale declarations can be removed before they
// mislead whoever reads lsf.shared next.
func unusedResource() *Analyzer {
	return &Analyzer{
		Code: "LSF520", Name: "unused-resource", Severity: lang.Info,
		Summary: "a site resource of lsf.shared that no file uses",
		Doc: `What it finds: a resource declared in lsf.shared's Resource section that no
other file names: no host's RESOURCES, no ResourceMap, no RES_REQ,
STOP_COND or RESUME_COND of a queue or application profile, no load
threshold, no RESOURCE of a Limit, no other section. lsfc looks for the
name as a word anywhere in the tree, so a name used in any value counts.
It says nothing unless both lsf.cluster and lsb.queues were read, nor when
hosts may join dynamically (LSF_HOST_ADDR_RANGE,
LSF_DYNAMIC_HOST_WAIT_TIME): such hosts set their resources in their own
lsf.conf (LSF_LOCAL_RESOURCES).

Why it matters: a resource no host has and no policy uses is usually left
over from a template or a retired machine; it still shows in lshosts and
lsinfo and invites users to request it. A Boolean resource no host has
makes every job that requests it pend.

lsfc cannot see the requirements users give at submission (bsub -R),
elim scripts, resource connector templates or esub scripts: a resource
used only there is reported too. This is why the finding is information
only.

Example: lsf.shared declares "bigmem", but no host of lsf.cluster lists it
in RESOURCES and no queue asks for it.

Fix: give the resource to the hosts that have it, or remove the
declaration; if users request it with bsub -R, suppress the finding for
that resource.`,
		Run: func(p *Pass) {
			if !p.Has(lang.KindLSFCluster) || !p.Has(lang.KindLSBQueues) || dynamicHosts(p.Policy) {
				return
			}
			idx := indexMentions(p.Tree, resourceSeparators, lang.KindLSFShared)
			for _, r := range p.Policy.Resources {
				if len(idx[r.Name]) > 0 || compile.SelectsNcpusCount(r.Name) {
					continue
				}
				p.Report(r.Span(), "resource %q is declared but nothing uses it: no host has it, no ResourceMap locates it, and no requirement, threshold or limit names it", r.Name)
			}
		},
	}
}
