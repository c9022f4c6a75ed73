package lint

import (
	"strings"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
)

// fairshareUserWithoutShare finds users and groups a fairshare queue
// admits by USERS but gives no share: LSF rejects their jobs, so USERS
// promises access the queue does not give.
func fairshareUserWithoutShare() *Analyzer {
	return &Analyzer{
		Code: "LSF526", Name: "fairshare-user-without-share", Severity: lang.Warning,
		Summary: "a user or group of a fairshare queue's USERS that gets no share",
		Doc: `What it finds: a queue with FAIRSHARE (its own, or that of the queue leading
it in cross-queue fairshare) whose USERS names a user, a user group or
all that the share assignment does not cover: no [name, n], no
[group@, n] or [group, n] for a group holding the user, no [default, n]
and no [others, n]. A group counts as covered when each of its members
is. Names that are not user groups of lsb.users are taken for users; the
rule says nothing unless lsb.users was read, and leaves alone groups
filled by egroup.

Why it matters: to submit to a fairshare queue a user must both be
allowed by USERS and have a share; even administrators without a share
are rejected. The user named in USERS gets "no share" errors from bsub
while the queue's configuration seems to admit them.

Example: USERS = chemists physicists with FAIRSHARE =
USER_SHARES[[chemists, 3]]: the physicists cannot submit.

Fix: give the user or group a share ([physicists, 2]), or add
[default, 1] so that every user allowed by USERS gets one.`,
		Run: func(p *Pass) {
			if !p.Has(lang.KindLSBUsers) {
				return
			}
			gs := userGroupsOf(p.Policy)
			for _, q := range p.Policy.Queues {
				if q.Settings["USERS"] == nil || len(q.Users) == 0 {
					continue
				}
				shares, owner := fairshareOf(p.Policy, q)
				if len(shares) == 0 || hasDefaultShare(shares, gs) {
					continue
				}
				c := shareCover{shares: shares, gs: gs}
				fs := owner.Settings["FAIRSHARE"].Span()
				for _, u := range q.Users {
					if u.Exclude {
						continue
					}
					var d *lang.Diagnostic
					switch missing := c.uncovered(u.Name, map[string][]string{}); {
					case strings.EqualFold(u.Name, "all"):
						d = p.Report(u.Span, "USERS of queue %q admits all users, but FAIRSHARE gives shares only to %s and has no default share: other users cannot submit",
							q.Name, shareNames(shares))
					case missing == nil:
						continue
					case gs[u.Name] != nil && (len(missing) > 1 || missing[0] != u.Name):
						d = p.Report(u.Span, "user group %q may submit to queue %q by USERS, but FAIRSHARE gives no share to it nor to members %s: they cannot submit",
							u.Name, q.Name, abbrevNames(quoteAll(missing)))
					case gs[u.Name] != nil:
						d = p.Report(u.Span, "user group %q may submit to queue %q by USERS, but FAIRSHARE gives it no share: its members cannot submit", u.Name, q.Name)
					default:
						d = p.Report(u.Span, "user %q may submit to queue %q by USERS, but FAIRSHARE gives the user no share: LSF rejects the user's jobs", u.Name, q.Name)
					}
					if owner != q {
						d.Note(fs, "the FAIRSHARE of queue %q applies to queue %q in cross-queue fairshare", owner.Name, q.Name)
					} else {
						d.Note(fs, "FAIRSHARE has no [default, n] share")
					}
				}
			}
		},
	}
}

// A shareCover tells which users a share assignment without a default
// share covers.
type shareCover struct {
	shares []compile.Share
	gs     userGroups
}

// uncovered returns the users (or groups) under name that get no share:
// nil when name is covered, [name] for a user or a group covered in no
// part, the uncovered members of a group covered in part. A group filled
// by egroup is taken as covered: its members are unknown.
func (c shareCover) uncovered(name string, memo map[string][]string) []string {
	if c.direct(name) {
		return nil
	}
	g := c.gs[name]
	if g == nil {
		return []string{name}
	}
	if res, done := memo[name]; done {
		return res // nil while in progress: a cycle, which the compiler reports
	}
	memo[name] = nil
	res := c.members(name, g, memo)
	memo[name] = res
	return res
}

// members returns the uncovered users under a group that no share names.
func (c shareCover) members(name string, g *compile.UserGroup, memo map[string][]string) []string {
	if c.gs.external(name) {
		return nil
	}
	if c.gs.everyone(name) {
		return []string{name}
	}
	var missing []string
	covered := false
	for _, m := range g.Members {
		if m.Exclude {
			continue
		}
		sub := c.uncovered(m.Name, memo)
		if len(sub) == 1 && sub[0] == m.Name {
			missing = append(missing, m.Name)
			continue
		}
		covered = true
		missing = append(missing, sub...)
	}
	if !covered && len(missing) > 0 {
		return []string{name}
	}
	return uniqueNames(missing)
}

// uniqueNames drops repeated names, keeping the first of each: a user may
// be reached through two member groups.
func uniqueNames(names []string) []string {
	seen := map[string]bool{}
	out := names[:0]
	for _, n := range names {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	return out
}

// direct reports whether name is given a share by name (name, name@) or
// through a group of the assignment that holds it.
func (c shareCover) direct(name string) bool {
	for _, s := range c.shares {
		group := strings.TrimSuffix(s.Name, "@")
		if group == name || c.gs.holds(group, name) {
			return true
		}
	}
	return false
}

// shareNames lists the names of a share assignment.
func shareNames(shares []compile.Share) string {
	names := make([]string, len(shares))
	for i, s := range shares {
		names[i] = s.Name
	}
	return abbrevNames(quoteAll(names))
}
