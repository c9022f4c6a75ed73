package runtime

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/lsfc/lsfc/compile"
)

// FairshareParams are the factors of the dynamic user priority (lsb.params,
// or a queue's own).
type FairshareParams struct {
	CPUTimeFactor, RunTimeFactor, RunJobFactor float64
	// HistHours is HIST_HOURS in seconds: after it, an hour of use counts
	// as a tenth of an hour; 0 keeps use undecayed.
	HistHours float64
}

// decay returns the factor by which use shrinks over dt seconds.
func (f FairshareParams) decay(dt float64) float64 {
	if f.HistHours <= 0 || dt <= 0 {
		return 1
	}
	return math.Pow(0.1, dt/f.HistHours)
}

// fairshareParams reads a queue's own factors, on top of base.
func fairshareParams(base FairshareParams, get func(string) any) FairshareParams {
	f := base
	if x, ok := get("CPU_TIME_FACTOR").(float64); ok {
		f.CPUTimeFactor = x
	}
	if x, ok := get("RUN_TIME_FACTOR").(float64); ok {
		f.RunTimeFactor = x
	}
	if x, ok := get("RUN_JOB_FACTOR").(float64); ok {
		f.RunJobFactor = x
	}
	if d, ok := get("HIST_HOURS").(compile.Duration); ok {
		f.HistHours = float64(d)
	}
	return f
}

// A fairshare is the user fairshare of a queue (FAIRSHARE =
// USER_SHARES[...]), shared by the queues of its FAIRSHARE_QUEUES.
//
// Its accounts form a tree. The queue's entries are the top level; an
// entry that names a user group with USER_SHARES of its own (lsb.users) is
// a group account whose children are the accounts of that USER_SHARES, and
// so on down (hierarchical fairshare). A group account's use is the sum of
// its subtree's; siblings compete by their own dynamic priority, and a
// job's place is that of its account's line from the top: the first level
// where two lines differ decides, each deeper level breaking a tie.
type fairshare struct {
	params FairshareParams
	// root holds the queue's entries; it is no account of its own.
	root *account
	// member tests membership of the user groups entries name; trees
	// holds the share trees (USER_SHARES) of groups, by name.
	member map[string]func(string) bool
	trees  map[string][]compile.Share
	// accounts holds the share accounts by path, list in creation order
	// (a group before the accounts under it).
	accounts map[string]*account
	list     []*account
	// deep is set once some account has accounts under it.
	deep bool
}

// An account is a share account: a user's, a group's (shares held
// together, or a share tree of its own), or others'.
type account struct {
	Name   string
	Shares float64
	// path names the account in its tree: the names from the top,
	// joined by "/"; parent is the level above (the fairshare's root for
	// the top level); line holds the accounts from the top level down to
	// this one. entries is, for a group with a share tree, its
	// USER_SHARES; nil for an account jobs are charged to.
	path     string
	parent   *account
	line     []*account
	entries  []compile.Share
	children []*account
	// cpu is the decayed CPU time of the account's jobs, in hours
	// (simulated jobs keep their slots busy); slots are the slots its
	// started jobs hold; jobs and startSum give the run time of its
	// started jobs. A group's are its subtree's.
	cpu      float64
	slots    int
	jobs     int
	startSum float64
	fair     *fairshare
}

// readFairshare reads FAIRSHARE, FAIRSHARE_QUEUES, the share trees of
// user groups and the priority factors.
func (c *Cluster) readFairshare() {
	p := c.Policy
	c.Fairshare = FairshareParams{CPUTimeFactor: p.Parameters.CPUTimeFactor, RunTimeFactor: p.Parameters.RunTimeFactor,
		RunJobFactor: p.Parameters.RunJobFactor, HistHours: p.Parameters.HistHours.Seconds()}
	trees := map[string][]compile.Share{}
	for _, ug := range p.UserGroups {
		if len(ug.Shares) > 0 {
			trees[ug.Name] = ug.Shares
		}
	}
	for _, q := range c.Queues {
		if q.Def == nil || len(q.Def.Fairshare) == 0 {
			continue
		}
		set := q.Def.Settings
		get := func(key string) any {
			if st := set[key]; st != nil {
				return st.Value
			}
			return nil
		}
		f := &fairshare{params: fairshareParams(c.Fairshare, get), trees: trees,
			member: map[string]func(string) bool{}, accounts: map[string]*account{}}
		f.root = &account{entries: q.Def.Fairshare, fair: f}
		// The groups any level of the tree may name.
		named := map[string]bool{}
		var visit func(entries []compile.Share, depth int)
		visit = func(entries []compile.Share, depth int) {
			for _, e := range entries {
				g := strings.TrimSuffix(e.Name, "@")
				if named[g] {
					continue
				}
				named[g] = true
				if sub := trees[g]; sub != nil && depth < maxShareDepth {
					visit(sub, depth+1)
				}
			}
		}
		visit(f.root.entries, 0)
		for _, ug := range p.UserGroups {
			if named[ug.Name] {
				f.member[ug.Name] = userFilter([]compile.UserItem{{Name: ug.Name}}, p)
			}
		}
		q.fair = f
		c.fairshares = append(c.fairshares, f)
	}
	// The queues a fairshare queue leads share its accounts.
	for _, q := range c.Queues {
		if q.fair == nil || q.Def == nil {
			continue
		}
		for _, name := range q.Def.FairshareQueues {
			if s := c.queueByName[name]; s != nil && s != q {
				s.fair = q.fair
			}
		}
	}
}

// maxShareDepth bounds a share tree, whose groups could name each other.
const maxShareDepth = 16

// accountFor returns the account a user's jobs are charged to, going down
// the tree from the top level: at each level the user's own entry, else
// the first group entry that holds the user (a group's shares held
// together, group@ giving each member its own), else default or default@
// (each user their own), else others (held together); a group with a share tree of
// its own is gone into. With ug (bsub -G), a level's entry for that
// group, when the user is in it, is taken before the others. It returns
// nil when the user has no shares at some level.
func (f *fairshare) accountFor(user, ug string) *account {
	node := f.root
	for node.entries != nil {
		name, shares, group, ok := f.match(node.entries, user, ug)
		if !ok {
			return nil
		}
		node = f.child(node, name, shares, group)
	}
	return node
}

// match finds a user's entry among a level's entries: the account's name
// and shares, and the group it stands for when it is a group's collective
// account. ug, when not "", is the group the job asked to be charged
// to (bsub -G), whose entry wins at the level that has it.
func (f *fairshare) match(entries []compile.Share, user, ug string) (name string, shares float64, group string, ok bool) {
	holds := func(e compile.Share) (string, bool, bool) {
		g, each := strings.CutSuffix(e.Name, "@")
		in := f.member[g]
		return g, each, in != nil && in(user)
	}
	for _, e := range entries {
		if g, each, in := holds(e); ug != "" && g == ug && in {
			if each {
				return user, e.Shares, "", true
			}
			return g, e.Shares, g, true
		}
	}
	for _, e := range entries {
		if e.Name == user {
			return user, e.Shares, "", true
		}
	}
	for _, e := range entries {
		if g, each, in := holds(e); in {
			if each {
				return user, e.Shares, "", true
			}
			return g, e.Shares, g, true
		}
	}
	for _, e := range entries {
		if compile.EveryUser(e.Name) {
			return user, e.Shares, "", true
		}
	}
	for _, e := range entries {
		if strings.EqualFold(e.Name, "others") {
			return "others", e.Shares, "", true
		}
	}
	return "", 0, "", false
}

// child returns the account name under parent, making it on first use; a
// group's collective account takes the group's share tree, unless the
// group is already on the line above (a tree that names itself).
func (f *fairshare) child(parent *account, name string, shares float64, group string) *account {
	path := name
	if parent != f.root {
		path = parent.path + "/" + name
	}
	if a := f.accounts[path]; a != nil {
		return a
	}
	a := &account{Name: name, Shares: shares, path: path, parent: parent, fair: f}
	a.line = append(slices.Clip(parent.line), a)
	if sub := f.trees[group]; sub != nil && len(a.line) < maxShareDepth &&
		!slices.ContainsFunc(parent.line, func(o *account) bool { return o.Name == group }) {
		a.entries = sub
		f.deep = true
	}
	parent.children = append(parent.children, a)
	f.accounts[path] = a
	f.list = append(f.list, a)
	return a
}

// priority returns an account's dynamic priority at now, with extra slots
// taken by the cycle: shares / (cpu_time × CPU_TIME_FACTOR + run_time ×
// RUN_TIME_FACTOR + (1 + job_slots) × RUN_JOB_FACTOR), times in hours; a
// group's use is its subtree's. With every factor 0 the priority is the
// shares.
func (f *fairshare) priority(a *account, now Time, extra int) float64 {
	runTime := (float64(a.jobs)*float64(now) - a.startSum) / 3600
	p := f.params
	d := a.cpu*p.CPUTimeFactor + runTime*p.RunTimeFactor + float64(1+a.slots+extra)*p.RunJobFactor
	if d <= 0 {
		return a.Shares
	}
	return a.Shares / d
}

// compareLines orders two accounts of one fairshare by their lines from
// the top level, the higher priority first: at the first level where the
// lines hold different accounts the higher priority wins, a tie going on
// to the next level. prio gives an account's priority.
func compareLines(a, b *account, prio func(*account) float64) int {
	for i := range min(len(a.line), len(b.line)) {
		x, y := a.line[i], b.line[i]
		if x == y {
			continue
		}
		if px, py := prio(x), prio(y); px != py {
			return cmp.Compare(py, px)
		}
	}
	return 0
}

// chargeStart and chargeEnd keep an account's started jobs.
// Each charges the account and the groups above it.
func (a *account) chargeStart(j *Job, n int) {
	for _, x := range a.line {
		x.slots += n
		x.jobs++
		x.startSum += float64(j.Start)
	}
}

func (a *account) chargeEnd(j *Job, n int) {
	for _, x := range a.line {
		x.slots -= n
		x.jobs--
		x.startSum -= float64(j.Start)
	}
}

// accrue brings the use that slot pools and fairshare accounts keep up to
// now. It is called before anything changes the slots jobs hold, so that
// each stretch of time is counted with the slots held during it.
func (c *Cluster) accrue(now Time) {
	if c.accrued != 0 && now <= c.accrued || len(c.pools) == 0 && len(c.fairshares) == 0 {
		// An event dated at or before the last accrual (a job's end an
		// execution agent reported late, by its own clock) adds nothing,
		// and leaves the accrual where it is: moved back, the time since
		// would be counted twice.
		return
	}
	dt := float64(now - c.accrued)
	if c.accrued == 0 {
		dt = 0
	}
	c.accrued = now
	c.accruePools(dt)
	c.accrueFairshare(dt)
}

// accrueFairshare adds the CPU time of started jobs over the last dt
// seconds to their accounts, decaying the past over HIST_HOURS.
func (c *Cluster) accrueFairshare(dt float64) {
	for _, f := range c.fairshares {
		decay := f.params.decay(dt)
		for _, a := range f.list {
			a.cpu = a.cpu*decay + float64(a.slots)*dt/3600
		}
	}
}

// ShareAccounts returns every account of a fairshare queue's tree with
// its shares, use and dynamic priority at now: the levels in tree order
// (ShareTree's), each level's accounts highest priority first; nil for a
// queue without FAIRSHARE.
func (c *Cluster) ShareAccounts(q *Queue, now Time) []ShareAccount {
	var out []ShareAccount
	for _, l := range c.ShareTree(q, now) {
		out = append(out, l.Accounts...)
	}
	return out
}

// ShareTree returns a fairshare queue's share tree as bqueues shows it:
// the top level first (Path ""), then under each group account that has a
// share tree of its own, depth first, the level below it; in each level
// the accounts highest priority first, then by name. Accounts appear once
// a job of theirs was submitted. nil for a queue without FAIRSHARE.
func (c *Cluster) ShareTree(q *Queue, now Time) []ShareLevel {
	if q.fair == nil {
		return nil
	}
	// The use since the last accrual counts as accrue would count it.
	dt := 0.0
	if c.accrued != 0 && now > c.accrued {
		dt = float64(now - c.accrued)
	}
	decay := q.fair.params.decay(dt)
	var out []ShareLevel
	var walk func(a *account)
	walk = func(a *account) {
		level := ShareLevel{Path: a.path, Accounts: make([]ShareAccount, 0, len(a.children))}
		for _, x := range a.children {
			at := *x
			at.cpu = x.cpu*decay + float64(x.slots)*dt/3600
			level.Accounts = append(level.Accounts, ShareAccount{Name: x.Name, Path: x.path, Group: x.entries != nil,
				Shares: x.Shares, Priority: q.fair.priority(&at, now, 0), Slots: x.slots, CPUHours: at.cpu,
				RunSeconds: float64(x.jobs)*float64(now) - x.startSum})
		}
		slices.SortStableFunc(level.Accounts, func(a, b ShareAccount) int {
			return cmp.Or(cmp.Compare(b.Priority, a.Priority), cmp.Compare(a.Name, b.Name))
		})
		out = append(out, level)
		for _, sa := range level.Accounts {
			if sa.Group {
				walk(q.fair.accounts[sa.Path])
			}
		}
	}
	walk(q.fair.root)
	return out
}

// A ShareLevel is one level of a share tree: the accounts under the group
// account at Path ("" for the queue's own entries).
type ShareLevel struct {
	Path     string
	Accounts []ShareAccount
}

// A ShareAccount is one account of a fairshare queue as bqueues -l shows
// it. Path names it in the tree; Group is set for a group account with a
// share tree of its own. Slots are the slots its started jobs hold,
// CPUHours its decayed CPU time, RunSeconds the run time of its started
// jobs; a group's are its subtree's.
type ShareAccount struct {
	Name       string
	Path       string
	Group      bool
	Shares     float64
	Priority   float64
	Slots      int
	CPUHours   float64
	RunSeconds float64
}

// fairRejection is the reason a fairshare queue refuses a user.
func fairRejection(user string) string {
	return fmt.Sprintf("user %s has no shares in the queue's FAIRSHARE", user)
}

// The cycle's side.

// accountOf returns the account a class's jobs are charged to, or nil.
func (c *cycle) accountOf(k *jobClass) *account { return k.acct }

// fairPriority returns an account's priority as the cycle leaves it.
func (c *cycle) fairPriority(a *account) float64 {
	return a.fair.priority(a, c.now, c.fairExtra[a])
}

// chargeFair counts in the cycle the slots a dispatched job takes from its
// account.
func (c *cycle) chargeFair(j *Job, n int) {
	if j.acct != nil {
		for _, a := range j.acct.line {
			addTo(&c.fairExtra, a, n)
		}
	}
}

// segmentQueues places queues of equal priority: LSF schedules the jobs
// of queues of equal priority together, first come first served, except
// that a fairshare queue's jobs go as a group, in lsb.queues order, before
// those of the queues that follow it.
func (c *Cluster) segmentQueues() {
	for i := 0; i < len(c.Queues); {
		j := i
		for j < len(c.Queues) && c.Queues[j].Priority == c.Queues[i].Priority {
			j++
		}
		level := slices.Clone(c.Queues[i:j])
		slices.SortStableFunc(level, func(a, b *Queue) int { return cmp.Compare(a.Order, b.Order) })
		fair := 0
		for _, q := range level {
			if q.fair != nil {
				q.segment = 2*fair + 1
				fair++
			} else {
				q.segment = 2 * fair
			}
		}
		i = j
	}
}
