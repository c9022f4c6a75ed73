package lint

import (
	"strings"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
)

// queueNoUsers finds queues that no user can submit to: USERS names only
// exclusions, or only user groups without members.
func queueNoUsers() *Analyzer {
	return &Analyzer{
		Code: "LSF501", Name: "queue-without-users", Severity: lang.Warning,
		Summary: "a queue whose USERS leaves no user who can submit to it",
		Doc: `What it finds: a queue whose USERS list names only ~exclusions, or only
user groups of lsb.users that have no members (and are not filled by
egroup).

Why it matters: every bsub -q to the queue is rejected for every user but
the administrators; the queue exists for nobody.

Example: USERS = ~alice, or USERS = interns where interns has GROUP_MEMBER ().

Fix: add the users or groups meant to use the queue, or write USERS = all
with exclusions after it (all ~alice).`,
		Run: func(p *Pass) {
			groups := map[string]*compile.UserGroup{}
			for _, g := range p.Policy.UserGroups {
				groups[g.Name] = g
			}
			for _, q := range p.Policy.Queues {
				st := q.Settings["USERS"]
				if st == nil || len(q.Users) == 0 {
					continue
				}
				reason := noUsersReason(q.Users, groups, p.Has(lang.KindLSBUsers))
				if reason != "" {
					p.Report(st.Span(), "no user can submit to queue %s: %s", q.Name, reason)
				}
			}
		},
	}
}

// noUsersReason says why a USERS list admits nobody, or returns "".
func noUsersReason(users []compile.UserItem, groups map[string]*compile.UserGroup, haveUsers bool) string {
	positive, empty := 0, 0
	var emptyNames []string
	for _, u := range users {
		if u.Exclude {
			continue
		}
		positive++
		g := groups[u.Name]
		if haveUsers && g != nil && groupEmpty(g, groups, map[string]bool{}) {
			empty++
			emptyNames = append(emptyNames, u.Name)
		}
	}
	switch {
	case positive == 0:
		return "USERS names only exclusions (write all ~user to exclude users)"
	case empty == positive:
		return "its user groups (" + strings.Join(emptyNames, ", ") + ") have no members"
	}
	return ""
}

// groupEmpty reports whether a user group has no member at all, following
// member groups; a group filled by egroup ("!") or holding all is not.
func groupEmpty(g *compile.UserGroup, groups map[string]*compile.UserGroup, seen map[string]bool) bool {
	if seen[g.Name] {
		return true
	}
	seen[g.Name] = true
	for _, m := range g.Members {
		if m.Exclude {
			continue
		}
		sub := groups[m.Name]
		if sub == nil || !groupEmpty(sub, groups, seen) {
			return false
		}
	}
	return true
}
