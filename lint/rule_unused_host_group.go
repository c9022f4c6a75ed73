package lint

import (
	"github.com/lsfc/lsfc/lang"
)

// unusedHostGroup finds host groups of lsb.hosts that no other definition
// names: dead configuration that still has to be kept in step with the
// hosts.
func unusedHostGroup() *Analyzer {
	return &Analyzer{
		Code: "LSF521", Name: "unused-host-group", Severity: lang.Info,
		Summary: "a host group of lsb.hosts that nothing names",
		Doc: `What it finds: a host group of lsb.hosts that no queue's HOSTS, no Limit's
HOSTS or PER_HOST, no host partition, no other host group or compute
unit, no row of lsb.hosts' Host section and no other section names. lsfc
looks for the group's name as a word anywhere in the tree (but in
DESCRIPTION text), so a name used in any value counts. It says nothing
unless lsb.queues was read.

Why it matters: an unused group is usually left over from a retired
queue or partition; it still has to be kept in step when hosts come and
go, and a reader assumes it means something.

Users may also name host groups at submission (bsub -m) and in advance
reservations (brsvadd -m), which lsfc cannot see: this is why the finding
is information only.

Example: lsb.hosts defines old_nodes (node[01-16]), and no queue, limit or
partition mentions old_nodes.

Fix: remove the group, or use it where it was meant to be used; if users
name it with bsub -m, suppress the finding for that group.`,
		Run: func(p *Pass) {
			if !p.Has(lang.KindLSBQueues) || len(p.Policy.HostGroups) == 0 {
				return
			}
			idx := indexMentions(p.Tree, nameSeparators, lang.KindLSFShared)
			for _, g := range p.Policy.HostGroups {
				if idx.usedElsewhere(g.Name, g.Span()) {
					continue
				}
				p.Report(g.Span(), "host group %q is not used: no queue, limit, partition, host row or other group names it", g.Name)
			}
		},
	}
}
