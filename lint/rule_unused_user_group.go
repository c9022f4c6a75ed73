package lint

import (
	"github.com/lsfc/lsfc/lang"
)

// unusedUserGroup finds user groups of lsb.users that no other
// definition names, so that stale groups can be told from live ones.
func unusedUserGroup() *Analyzer {
	return &Analyzer{
		Code: "LSF522", Name: "unused-user-group", Severity: lang.Info,
		Summary: "a user group of lsb.users that nothing names",
		Doc: `What it finds: a user group of lsb.users that no queue's USERS,
ADMINISTRATORS or FAIRSHARE, no Limit's USERS or PER_USER, no other user
group (as a member or in USER_SHARES), no row of the User section ("grp"
or "grp@"), no DEFAULT_USER_GROUP, no host partition's USER_SHARES, no
service class and no other setting names. lsfc looks for the group's name
as a word anywhere in the tree (but in DESCRIPTION text), so a name used
in any value counts. It says nothing unless lsb.queues was read.

Why it matters: an unused group is usually left over from a retired
project or queue; it still has to be kept in step as people come and go,
and a reader assumes it grants or limits something.

Users may also name their group at submission (bsub -G) to charge a
fairshare or limit account, which lsfc cannot see: this is why the
finding is information only.

Example: lsb.users defines interns_2019 (ann bob), and no queue, limit,
share or other group mentions it.

Fix: remove the group, or use it where it was meant to be used; if users
submit with bsub -G to it, suppress the finding for that group.`,
		Run: func(p *Pass) {
			if !p.Has(lang.KindLSBQueues) || len(p.Policy.UserGroups) == 0 {
				return
			}
			idx := indexMentions(p.Tree, nameSeparators, lang.KindLSFShared)
			for _, g := range p.Policy.UserGroups {
				if idx.usedElsewhere(g.Name, g.Span()) {
					continue
				}
				p.Report(g.Span(), "user group %q is not used: no queue, limit, share, user row or other group names it", g.Name)
			}
		},
	}
}
