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
	// maxPendJobs and maxPendSlots are MAX_PEND_JOBS and MAX_PEND_SLOTS:
	// the pending jobs, and the slots they ask for, past which new
	// submissions are refused; -1 for none.
	maxPendJobs, maxPendSlots int
}

// readUserLimits reads the User section of lsb.users.
func (c *Cluster) readUserLimits() {
	p := c.Policy
	groups := map[string]bool{}
	for _, g := range p.UserGroups {
		groups[g.Name] = true
	}
	for _, l := range p.UserLimits {
		ul := &userLimit{name: l.User, maxPendJobs: -1, maxPendSlots: -1}
		if l.MaxJobs != nil && *l.MaxJobs > 0 {
			ul.maxJobs = int(*l.MaxJobs)
		}
		if l.JLP != nil && *l.JLP > 0 {
			ul.jlp = *l.JLP
		}
		ul.maxPendJobs = settingCount(l.Settings["MAX_PEND_JOBS"])
		ul.maxPendSlots = settingCount(l.Settings["MAX_PEND_SLOTS"])
		if ul.maxJobs == 0 && ul.jlp == 0 && ul.maxPendJobs < 0 && ul.maxPendSlots < 0 {
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
	cpus := max(1.0, h.CPUs)
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
	for _, g := range c.groupLimits {
		if g.name == user {
			// A user group's own row, for the group as a whole.
			return g.maxJobs, g.jlp
		}
	}
	if c.UserGroupMembers(user) != nil {
		// A user group without a row of its own has no limit.
		return 0, 0
	}
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

// settingCount returns a whole-number setting of lsb.users, -1 when it
// is not set or is "-".
func settingCount(st *compile.Setting) int {
	if st == nil {
		return -1
	}
	if x, ok := st.Value.(float64); ok && x >= 0 {
		return int(min(x, math.MaxInt32))
	}
	return -1
}

// LSF's answers to a submission that would take a user or user group
// past its pending job threshold (MAX_PEND_JOBS) or its pending job slot
// threshold (MAX_PEND_SLOTS).
const (
	PendJobThreshold  = "Pending job threshold reached."
	PendSlotThreshold = "Pending job slot threshold reached."
)

// A PendThresholdError refuses a submission that would take a user or a
// user group past a pending job threshold; bsub tries it again later.
type PendThresholdError struct {
	// Slots tells that the threshold is MAX_PEND_SLOTS.
	Slots bool
	// Who is the user or the user group whose threshold it is, and Max
	// the threshold.
	Who string
	Max int
}

func (e *PendThresholdError) Error() string {
	if e.Slots {
		return PendSlotThreshold
	}
	return PendJobThreshold
}

// A pendLimit is one pending job threshold that applies to a submission:
// whose it is, the jobs and slots it allows (-1: any), and who counts.
type pendLimit struct {
	who         string
	jobs, slots int
	member      func(string) bool
	pendJobs    int
	pendSlots   int
}

// pendLimits returns the pending job thresholds on a user: lsb.params's
// MAX_PEND_JOBS and MAX_PEND_SLOTS, the user's own row of lsb.users
// (theirs, a group@ row holding them, or default), and the rows of the
// groups the user belongs to.
func (c *Cluster) pendLimits(user string) []*pendLimit {
	var out []*pendLimit
	self := func(u string) bool { return u == user }
	if p := c.Policy; p != nil && (p.Parameters.MaxPendJobs > 0 || p.Parameters.MaxPendSlots > 0) {
		l := &pendLimit{who: user, jobs: -1, slots: -1, member: self}
		if n := p.Parameters.MaxPendJobs; n > 0 {
			l.jobs = n
		}
		if n := p.Parameters.MaxPendSlots; n > 0 {
			l.slots = n
		}
		out = append(out, l)
	}
	if l := c.limitFor(user); l != nil && (l.maxPendJobs >= 0 || l.maxPendSlots >= 0) {
		out = append(out, &pendLimit{who: user, jobs: l.maxPendJobs, slots: l.maxPendSlots, member: self})
	}
	for _, g := range c.groupsOf(user) {
		if g.maxPendJobs >= 0 || g.maxPendSlots >= 0 {
			out = append(out, &pendLimit{who: g.name, jobs: g.maxPendJobs, slots: g.maxPendSlots, member: g.member})
		}
	}
	return out
}

// CheckPendThresholds checks that a submission of jobs pending jobs,
// of slots slots in all, leaves its user and the user's groups within
// their pending job thresholds: nil when it does, else a
// *PendThresholdError. Every pending job counts (PEND and PSUSP), each
// element of an array as a job; a user's jobs count towards every group
// that holds the user.
func (c *Cluster) CheckPendThresholds(user string, jobs, slots int) error {
	lims := c.pendLimits(user)
	if len(lims) == 0 {
		return nil
	}
	in := map[string][]bool{}
	for _, j := range c.jobs {
		if !j.State.Pending() {
			continue
		}
		m, ok := in[j.User]
		if !ok {
			m = make([]bool, len(lims))
			for i, l := range lims {
				m[i] = l.member(j.User)
			}
			in[j.User] = m
		}
		for i, l := range lims {
			if m[i] {
				l.pendJobs++
				l.pendSlots += j.Slots
			}
		}
	}
	for _, l := range lims {
		if l.jobs >= 0 && l.pendJobs+jobs > l.jobs {
			return &PendThresholdError{Who: l.who, Max: l.jobs}
		}
	}
	for _, l := range lims {
		if l.slots >= 0 && l.pendSlots+slots > l.slots {
			return &PendThresholdError{Slots: true, Who: l.who, Max: l.slots}
		}
	}
	return nil
}

// PendThresholds returns the pending job thresholds lsb.users sets on a
// user on their own, or on a user group as a whole, as busers -w shows
// them (MPEND, MPJOBS): MAX_PEND_SLOTS and MAX_PEND_JOBS, -1 for none.
// lsb.params's values stand where the row sets none, or a larger one.
func (c *Cluster) PendThresholds(name string) (slots, jobs int) {
	slots, jobs = -1, -1
	var l *userLimit
	for _, g := range c.groupLimits {
		if g.name == name {
			l = g
		}
	}
	if l == nil && c.UserGroupMembers(name) == nil {
		l = c.limitFor(name)
	}
	if l != nil {
		slots, jobs = l.maxPendSlots, l.maxPendJobs
	}
	if p := c.Policy; p != nil {
		if n := p.Parameters.MaxPendSlots; n > 0 && (slots < 0 || n < slots) {
			slots = n
		}
		if n := p.Parameters.MaxPendJobs; n > 0 && (jobs < 0 || n < jobs) {
			jobs = n
		}
	}
	return slots, jobs
}

// UserGroupMembers returns the test of membership of the user group of
// lsb.users named name (members through subgroups too), nil when there
// is no such group.
func (c *Cluster) UserGroupMembers(name string) func(string) bool {
	if c.Policy == nil {
		return nil
	}
	for _, g := range c.Policy.UserGroups {
		if g.Name == name {
			return userFilter([]compile.UserItem{{Name: name}}, c.Policy)
		}
	}
	return nil
}
