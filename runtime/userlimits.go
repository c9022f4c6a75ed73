package runtime

import (
	"math"
	"slices"
	"strings"

	"github.com/lsfc/lsfc/compile"
)

// A userLimit is a row of lsb.users' User section: MAX_JOBS (job slots in
// the cluster) and JL/P (job slots per processor of a host) for a user,
// for a group as a whole, for each member of a group (group@), or for
// every other user (default).
type userLimit struct {
	name string
	// member tests membership of a group row; nil for a user or default.
	member func(string) bool
	// each is set for group@: the limits apply to each member.
	each    bool
	maxJobs int     // 0: none
	jlp     float64 // 0: none
}

// readUserLimits reads the User section of lsb.users.
func (c *Cluster) readUserLimits() {
	p := c.Policy
	groups := map[string]bool{}
	for _, g := range p.UserGroups {
		groups[g.Name] = true
	}
	for _, l := range p.UserLimits {
		ul := &userLimit{name: l.User}
		if l.MaxJobs != nil && *l.MaxJobs > 0 {
			ul.maxJobs = int(*l.MaxJobs)
		}
		if l.JLP != nil && *l.JLP > 0 {
			ul.jlp = *l.JLP
		}
		if ul.maxJobs == 0 && ul.jlp == 0 {
			continue
		}
		name, each := strings.CutSuffix(l.User, "@")
		switch {
		case groups[name]:
			ul.name, ul.each = name, each
			ul.member = userFilter([]compile.UserItem{{Name: name}}, p)
			if each {
				c.memberLimits = append(c.memberLimits, ul)
			} else {
				c.groupLimits = append(c.groupLimits, ul)
			}
		case compile.EveryUser(l.User):
			c.defaultLimit = ul
		default:
			c.userLimits[l.User] = ul
		}
	}
}

// limitFor returns the row that limits one user on their own: theirs,
// else that of the first group@ holding them, else default; nil for none.
func (c *Cluster) limitFor(user string) *userLimit {
	if l := c.userLimits[user]; l != nil {
		return l
	}
	for _, l := range c.memberLimits {
		if l.member(user) {
			return l
		}
	}
	return c.defaultLimit
}

// groupsOf returns the group rows whose group holds the user.
func (c *Cluster) groupsOf(user string) []*userLimit {
	var out []*userLimit
	for _, l := range c.groupLimits {
		if l.member(user) {
			out = append(out, l)
		}
	}
	return out
}

// userMaxJobsFilter applies MAX_JOBS of lsb.users: the user's own limit
// (where, once preemption is configured, the user's preempted jobs do not
// count) and the limits of the groups the user belongs to (where they
// count unless PREEMPT_FOR=GROUP_MAX).
type userMaxJobsFilter struct{}

func (userMaxJobsFilter) Name() string { return "MAX_JOBS" }
func (userMaxJobsFilter) Check(st CycleState, jv JobInfo) Reason {
	c, j := st.c, jv.j
	cl := c.cluster
	if l := cl.limitFor(j.User); l != nil && l.maxJobs > 0 {
		used := cl.userJobs[j.User] + c.userUsed[j.User]
		if cl.preemption {
			used -= cl.userPreempted[j.User]
		}
		if used+j.Slots > l.maxJobs {
			return ReasonUserMaxJobs
		}
	}
	for _, g := range cl.groupsOf(j.User) {
		if g.maxJobs <= 0 {
			continue
		}
		used := cl.groupJobs[g.name] + c.groupUsed[g.name]
		if cl.PreemptFor.GroupMax {
			used -= cl.groupPreempted[g.name]
		}
		if used+j.Slots > g.maxJobs {
			return ReasonGroupMaxJobs
		}
	}
	return ReasonNone
}

// userProcLimiter applies JL/P of lsb.users: the job slots a user (or a
// group as a whole) may hold per processor of a host. Preempted jobs do
// not count with PREEMPT_FOR=USER_JLP (a user's limit) or GROUP_JLP (a
// group's).
type userProcLimiter struct{}

func (userProcLimiter) Name() string { return "JL/P" }
func (userProcLimiter) Room(st CycleState, _ ClassInfo, jv JobInfo, hv HostInfo) (int, Reason) {
	c, j, h := st.c, jv.j, hv.h
	cl := c.cluster
	room := math.MaxInt32
	if j == nil || (len(cl.userLimits) == 0 && len(cl.memberLimits) == 0 && cl.defaultLimit == nil && len(cl.groupLimits) == 0) {
		return room, ReasonNone
	}
	cpus := max(1.0, h.Facts.Ncpus)
	if l := cl.limitFor(j.User); l != nil && l.jlp > 0 {
		used := h.UserSlots(j.User) + c.hostUser[hostUser{h, j.User}]
		if cl.PreemptFor.UserJLP {
			used -= h.preemptedUser[j.User]
		}
		room = min(room, int(l.jlp*cpus)-used)
	}
	for _, g := range cl.groupsOf(j.User) {
		if g.jlp <= 0 {
			continue
		}
		used := 0
		for u, n := range h.byUser {
			if g.member(u) {
				used += n
				if cl.PreemptFor.GroupJLP {
					used -= h.preemptedUser[u]
				}
			}
		}
		for hu, n := range c.hostUser {
			if hu.h == h && g.member(hu.user) {
				used += n
			}
		}
		room = min(room, int(g.jlp*cpus)-used)
	}
	return room, ReasonHostUserProcLimit
}

// UserJobLimits returns the limits lsb.users sets on one user on their
// own, as busers shows them: MAX_JOBS (0: none) and JL/P (0: none), from
// the user's row, else the first group@ row holding them, else default.
func (c *Cluster) UserJobLimits(user string) (maxJobs int, jlp float64) {
	if l := c.limitFor(user); l != nil {
		return l.maxJobs, l.jlp
	}
	return 0, 0
}

// LimitedUsers returns, sorted, the users lsb.users names in rows of
// their own.
func (c *Cluster) LimitedUsers() []string {
	out := make([]string, 0, len(c.userLimits))
	for name := range c.userLimits {
		out = append(out, name)
	}
	slices.Sort(out)
	return out
}
