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

// fairshareParams reads the factors from a settings set, on top of base.
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
type fairshare struct {
	params  FairshareParams
	entries []compile.Share
	// member tests membership of the user groups entries name.
	member map[string]func(string) bool
	// accounts holds the share accounts by name, list in creation order.
	accounts map[string]*account
	list     []*account
}

// An account is a share account: a user's, a group's (shares held
// together), or others'.
type account struct {
	Name   string
	Shares float64
	// cpu is the decayed CPU time of the account's jobs, in hours
	// (simulated jobs keep their slots busy); slots are the slots its
	// started jobs hold; jobs and startSum give the run time of its
	// started jobs.
	cpu      float64
	slots    int
	jobs     int
	startSum float64
	fair     *fairshare
}

// readFairshare reads FAIRSHARE, FAIRSHARE_QUEUES and the priority
// factors.
func (c *Cluster) readFairshare() {
	p := c.Policy
	c.Fairshare = fairshareParams(FairshareParams{CPUTimeFactor: 0.7, RunTimeFactor: 0.7, RunJobFactor: 3,
		HistHours: 5 * 3600}, p.Param)
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
		f := &fairshare{params: fairshareParams(c.Fairshare, get), entries: q.Def.Fairshare,
			member: map[string]func(string) bool{}, accounts: map[string]*account{}}
		for _, e := range f.entries {
			g := strings.TrimSuffix(e.Name, "@")
			if slices.ContainsFunc(p.UserGroups, func(ug *compile.UserGroup) bool { return ug.Name == g }) {
				f.member[g] = userFilter([]compile.UserItem{{Name: g}}, p)
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

// accountFor returns the share account a user's jobs are charged to: the
// user's own entry, else the first group entry that holds the user (a
// group's shares held together, group@ giving each member its own),
// else default (each user their own), else others (held together); nil
// when the user has no shares.
func (f *fairshare) accountFor(user string) *account {
	var name string
	var shares float64
	found := false
	for _, e := range f.entries {
		if e.Name == user {
			name, shares, found = user, e.Shares, true
			break
		}
	}
	for _, e := range f.entries {
		if found {
			break
		}
		g, each := strings.CutSuffix(e.Name, "@")
		if in := f.member[g]; in != nil && in(user) {
			name, shares, found = g, e.Shares, true
			if each {
				name = user
			}
		}
	}
	for _, key := range []string{"default", "others"} {
		if found {
			break
		}
		for _, e := range f.entries {
			if strings.EqualFold(e.Name, key) {
				name, shares, found = user, e.Shares, true
				if key == "others" {
					name = "others"
				}
				break
			}
		}
	}
	if !found {
		return nil
	}
	a := f.accounts[name]
	if a == nil {
		a = &account{Name: name, Shares: shares, fair: f}
		f.accounts[name] = a
		f.list = append(f.list, a)
	}
	return a
}

// priority returns an account's dynamic priority at now, with extra slots
// taken by the cycle: shares / (cpu_time × CPU_TIME_FACTOR + run_time ×
// RUN_TIME_FACTOR + (1 + job_slots) × RUN_JOB_FACTOR), times in hours.
// With every factor 0 the priority is the shares.
func (f *fairshare) priority(a *account, now Time, extra int) float64 {
	runTime := (float64(a.jobs)*float64(now) - a.startSum) / 3600
	p := f.params
	d := a.cpu*p.CPUTimeFactor + runTime*p.RunTimeFactor + float64(1+a.slots+extra)*p.RunJobFactor
	if d <= 0 {
		return a.Shares
	}
	return a.Shares / d
}

// chargeStart and chargeEnd keep an account's started jobs.
func (a *account) chargeStart(j *Job, n int) {
	a.slots += n
	a.jobs++
	a.startSum += float64(j.Start)
}

func (a *account) chargeEnd(j *Job, n int) {
	a.slots -= n
	a.jobs--
	a.startSum -= float64(j.Start)
}

// accrue brings the use that slot pools and fairshare accounts keep up to
// now. It is called before anything changes the slots jobs hold, so that
// each stretch of time is counted with the slots held during it.
func (c *Cluster) accrue(now Time) {
	if now == c.accrued || len(c.pools) == 0 && len(c.fairshares) == 0 {
		return
	}
	dt := float64(now - c.accrued)
	if c.accrued == 0 || dt < 0 {
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

// ShareAccounts returns a fairshare queue's accounts with their shares and
// dynamic priorities at now, highest priority first; nil for a queue
// without FAIRSHARE.
func (c *Cluster) ShareAccounts(q *Queue, now Time) []ShareAccount {
	if q.fair == nil {
		return nil
	}
	out := make([]ShareAccount, 0, len(q.fair.list))
	for _, a := range q.fair.list {
		out = append(out, ShareAccount{Name: a.Name, Shares: a.Shares, Priority: q.fair.priority(a, now, 0),
			Slots: a.slots, CPUHours: a.cpu})
	}
	slices.SortStableFunc(out, func(a, b ShareAccount) int { return cmp.Compare(b.Priority, a.Priority) })
	return out
}

// A ShareAccount is one account of a fairshare queue as bqueues -l shows
// it.
type ShareAccount struct {
	Name     string
	Shares   float64
	Priority float64
	Slots    int
	CPUHours float64
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
		addTo(&c.fairExtra, j.acct, n)
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
