package runtime

import (
	"math"
	"slices"
	"strings"

	"github.com/lsfc/lsfc/compile"
)

// A Queue is a batch queue as the scheduler sees it: the compiled
// settings it acts on, and what its jobs hold.
type Queue struct {
	Name string
	// Def is the compiled queue; nil for the automatic "default" queue of
	// a tree that defines none.
	Def      *compile.Queue
	Priority int
	// Order is the queue's place in lsb.queues, which breaks ties between
	// queues of equal priority when nothing else does.
	Order int

	// hostOK tells, by host index, whether HOSTS lets the queue use the
	// host.
	hostOK []bool
	// pref holds, by host index, the preference HOSTS gives a host
	// ("+N": higher is used first); nil when it gives none.
	pref []int
	// The slot limits; 0 means none. PJobLimit is per processor.
	QJobLimit, UJobLimit, HJobLimit int
	PJobLimit                       float64
	// AcceptInterval is JOB_ACCEPT_INTERVAL in seconds: the least time
	// between two dispatches to one host; 0 lets a host take several jobs
	// in one cycle.
	AcceptInterval float64
	RunWindow      []compile.Window
	DispatchWindow []compile.Window
	Thresholds     map[string]compile.Threshold
	// RunLimit is the default run limit in seconds (RUNLIMIT), 0 for none;
	// MaxRunLimit the most a job may ask for with -W.
	RunLimit, MaxRunLimit float64
	// CPULimit is the default CPU time limit in seconds (CPULIMIT), 0
	// for none; MaxCPULimit the most a job may ask for with -c; CPUSpec
	// the host or model they are normalised to ("" for none).
	CPULimit, MaxCPULimit float64
	CPUSpec               string
	// Overrun and Underrun are JOB_OVERRUN and JOB_UNDERRUN in seconds,
	// IdleFactor is JOB_IDLE; 0 for none.
	Overrun, Underrun, IdleFactor float64
	// Users admits a user to the queue.
	users func(user string) bool

	// Open is false after badmin qclose: no job is accepted. Active is
	// false after badmin qinact: no job is dispatched.
	Open, Active bool
	// Retired is set on the stand-in of a queue the configuration no
	// longer has, which keeps the jobs that started in it (see MoveLost).
	Retired bool

	// Used counts the slots of the queue's started jobs; byUser the same
	// per user; Pending the queue's pending jobs.
	Used    int
	byUser  map[string]int
	Pending int
	// started holds the started jobs of a queue with a RUN_WINDOW, whose
	// closing suspends them.
	started map[*Job]bool

	// preempts holds the queues whose jobs this queue's jobs may preempt,
	// with the preference PREEMPTIVE[q+N] gives each; nil when none.
	preempts map[*Queue]int
	// killOnPreempt is TERMINATE_WHEN=PREEMPT: a preempted job is killed
	// rather than suspended. maxPreempt is the queue's MAX_JOB_PREEMPT.
	killOnPreempt bool
	maxPreempt    int
	// pool is the queue's slot pool (SLOT_POOL), or nil; share its
	// SLOT_SHARE in percent.
	pool  *slotPool
	share int
	// reserve holds the queue's slot reservation and backfill settings.
	reserve queueReserve
	// fair is the queue's user fairshare (FAIRSHARE), or nil.
	fair *fairshare
	// aps is the queue's absolute priority scheduling (APS_PRIORITY, its
	// own or that of the queue whose QUEUE_GROUP names it); nil for none.
	aps *apsQueue
	// segment places the queue among queues of its priority: queues of
	// equal priority and segment are scheduled together first come first
	// served; a fairshare queue has a segment of its own, in file order.
	segment int
	// pendingSlots sums the slots asked for by the queue's pending jobs;
	// inbound counts those of them received from other clusters, held
	// those held (PSUSP).
	pendingSlots int
	inbound      int
	held         int
	// usable caches the slots of the hosts the queue may use, valid while
	// usableGen is the cluster's host generation plus one.
	usable    int
	usableGen uint64
}

// Accepts reports whether the queue admits the user's jobs (USERS).
func (q *Queue) Accepts(user string) bool { return q.users == nil || q.users(user) }

// Waiting returns how many of the queue's pending jobs are not held
// (PEND, not PSUSP): those a cycle may dispatch or forward.
func (q *Queue) Waiting() int { return q.Pending - q.held }

// UsesHost reports whether HOSTS lets the queue use the host.
func (q *Queue) UsesHost(h *Host) bool { return q.hostOK == nil || q.hostOK[h.Index] }

// HostPref returns the preference HOSTS gives a host: 0 unless "+N" set one.
func (q *Queue) HostPref(h *Host) int {
	if q.pref == nil {
		return 0
	}
	return q.pref[h.Index]
}

// UserSlots returns the slots the user's jobs of the queue hold.
func (q *Queue) UserSlots(user string) int { return q.byUser[user] }

// PendingSlots returns the slots the queue's pending jobs ask for.
func (q *Queue) PendingSlots() int { return q.pendingSlots }

// newQueue builds the runtime queue of a compiled one.
func newQueue(p *compile.Policy, cq *compile.Queue, order int, hosts []*Host, sleep float64, defaultAccept float64) *Queue {
	q := &Queue{Name: cq.Name, Def: cq, Priority: cq.Priority, Order: order, Open: true, Active: true,
		RunWindow: cq.RunWindow, DispatchWindow: cq.DispatchWindow, Thresholds: cq.Thresholds, byUser: map[string]int{}}
	set := cq.Settings
	intOf := func(key string) int {
		if st := set[key]; st != nil {
			if x, ok := st.Value.(float64); ok {
				return int(x)
			}
		}
		return 0
	}
	q.QJobLimit, q.UJobLimit, q.HJobLimit = intOf("QJOB_LIMIT"), intOf("UJOB_LIMIT"), intOf("HJOB_LIMIT")
	if st := set["PJOB_LIMIT"]; st != nil {
		q.PJobLimit, _ = st.Value.(float64)
	}
	q.AcceptInterval = defaultAccept
	if ai := cq.AcceptInterval; ai != nil {
		q.AcceptInterval = acceptSeconds(ai, sleep)
	}
	if st := set["RUNLIMIT"]; st != nil {
		if l, ok := st.Value.(*compile.Limit); ok {
			q.RunLimit, q.MaxRunLimit = l.Max*60, l.Max*60
			if l.Default != nil {
				q.RunLimit = *l.Default * 60
			}
		}
	}
	if st := set["CPULIMIT"]; st != nil {
		if l, ok := st.Value.(*compile.Limit); ok {
			q.CPULimit, q.MaxCPULimit, q.CPUSpec = l.Max*60, l.Max*60, l.Spec
			if l.Default != nil {
				q.CPULimit = *l.Default * 60
			}
		}
	}
	q.reserve = readReserve(cq)
	q.hostOK, q.pref = queueHosts(cq, p, hosts)
	q.users = userFilter(cq.Users, p)
	return q
}

// acceptSeconds turns JOB_ACCEPT_INTERVAL into seconds: a multiple of
// MBD_SLEEP_TIME, or a time given with s or m.
func acceptSeconds(ai *compile.AcceptInterval, sleep float64) float64 {
	switch {
	case ai.Time != nil:
		return float64(*ai.Time)
	case ai.Multiple != nil:
		return *ai.Multiple * sleep
	}
	return 0
}

// queueHosts resolves HOSTS against the cluster's hosts: which hosts the
// queue may use (nil: every host) and their preferences (nil: none).
// Hosts that the configuration does not list (an inventory's or simulated
// hosts) are taken when HOSTS includes all or others and does not exclude
// them; "others+N" gives them preference N.
func queueHosts(cq *compile.Queue, p *compile.Policy, hosts []*Host) ([]bool, []int) {
	if cq.Hosts == nil {
		return nil, nil
	}
	named := map[string]bool{}
	for _, h := range cq.HostNames {
		named[h] = true
	}
	known := map[string]bool{}
	for _, h := range p.Hosts {
		known[h.Name] = true
	}
	wide, widePref, excluded := false, 0, map[string]bool{}
	for _, it := range cq.Hosts {
		switch {
		case it.Exclude:
			excluded[it.Name] = true
		case strings.EqualFold(it.Name, "all"), strings.EqualFold(it.Name, "others"):
			wide, widePref = true, max(widePref, it.Pref)
		}
	}
	ok := make([]bool, len(hosts))
	var pref []int
	if cq.HostPref != nil || widePref != 0 {
		pref = make([]int, len(hosts))
	}
	for i, h := range hosts {
		switch {
		case named[h.Name]:
			ok[i] = true
			if pref != nil {
				pref[i] = cq.HostPref[h.Name]
			}
		case wide && !known[h.Name] && !excluded[h.Name]:
			ok[i] = true
			if pref != nil {
				pref[i] = widePref
			}
		}
	}
	return ok, pref
}

// userFilter returns the USERS test of a queue: nil when every user is
// admitted. User groups of lsb.users are expanded, nested groups included.
func userFilter(items []compile.UserItem, p *compile.Policy) func(string) bool {
	if items == nil {
		return nil
	}
	groups := map[string]*compile.UserGroup{}
	for _, g := range p.UserGroups {
		groups[g.Name] = g
	}
	var member func(user string, items []compile.UserItem, depth int) bool
	member = func(user string, items []compile.UserItem, depth int) bool {
		in := false
		for _, it := range items {
			hit := false
			switch g := groups[it.Name]; {
			case strings.EqualFold(it.Name, "all"):
				hit = true
			case it.Name == user:
				hit = true
			case g != nil && depth < 32:
				hit = member(user, g.Members, depth+1)
			}
			if hit {
				if it.Exclude {
					return false
				}
				in = true
			}
		}
		return in
	}
	return func(user string) bool { return member(user, items, 0) }
}

// windowOpen reports whether a list of time windows is open at t (in the
// local time of the cluster, which lsfc takes as UTC in simulation); an
// empty list is always open.
func windowOpen(ws []compile.Window, t Time) bool {
	if len(ws) == 0 {
		return true
	}
	st := t.Std()
	now := minuteOfWeek(int(st.Weekday()), st.Hour(), st.Minute())
	for _, w := range ws {
		if inWindow(w, now) {
			return true
		}
	}
	return false
}

// nextWindowChange returns the first time after t at which a list of
// windows opens or closes, or Never for an empty list or one that never
// changes. Windows change only at their ends, so only those are tried.
func nextWindowChange(ws []compile.Window, t Time) Time {
	if len(ws) == 0 {
		return Never
	}
	st := t.Std()
	now := minuteOfWeek(int(st.Weekday()), st.Hour(), st.Minute())
	var ends []int
	for _, w := range ws {
		for _, c := range []compile.Clock{w.From, w.To} {
			if c.Day < 0 {
				for d := range 7 {
					ends = append(ends, minuteOfWeek(d, c.Hour, c.Minute))
				}
			} else {
				ends = append(ends, minuteOfWeek(c.Day%7, c.Hour, c.Minute))
			}
		}
	}
	// Minutes from now to each end, in order.
	steps := make([]int, 0, len(ends))
	for _, e := range ends {
		d := ((e-now)%minutesPerWeek + minutesPerWeek) % minutesPerWeek
		if d == 0 {
			d = minutesPerWeek
		}
		steps = append(steps, d)
	}
	slices.Sort(steps)
	open := windowOpen(ws, t)
	base := Time(math.Floor(float64(t)/60) * 60)
	for _, d := range slices.Compact(steps) {
		at := base.Add(float64(d) * 60)
		if windowOpen(ws, at) != open {
			return at
		}
	}
	return Never
}

const minutesPerWeek = 7 * 24 * 60

func minuteOfWeek(day, hour, minute int) int { return (day*24+hour)*60 + minute }

// inWindow reports whether minute now of the week lies in w. A window
// without days repeats every day; one that ends before it starts wraps
// past midnight (or the week's end).
func inWindow(w compile.Window, now int) bool {
	if w.From.Day < 0 {
		day := now % (24 * 60)
		from, to := w.From.Hour*60+w.From.Minute, w.To.Hour*60+w.To.Minute
		if from <= to {
			return day >= from && day < to
		}
		return day >= from || day < to
	}
	from := minuteOfWeek(w.From.Day, w.From.Hour, w.From.Minute)
	to := minuteOfWeek(w.To.Day, w.To.Hour, w.To.Minute)
	if from <= to {
		return now >= from && now < to
	}
	return now >= from || now < to
}

// UsersInclude reports whether a user list (USERS, ADMINISTRATORS ...)
// names a user, directly, through a user group of lsb.users, or by all.
func UsersInclude(items []compile.UserItem, p *compile.Policy, user string) bool {
	if f := userFilter(items, p); f != nil {
		return f(user)
	}
	return false
}
