package runtime

import (
	"strings"

	"github.com/lsfc/lsfc/compile"
)

// A limitRule is a Limit section of lsb.resources as the scheduler applies
// it. A job is subject to it when its user, queue, application and hosts
// are among the consumers the section names (a consumer type not named
// means all); USERS, QUEUES, HOSTS, APPS and PROJECTS limit their
// consumers together, PER_USER, PER_QUEUE, PER_HOST, PER_APP and
// PER_PROJECT each one apart.
type limitRule struct {
	name string
	// def is the section the rule comes from.
	def *compile.LimitDef
	// users admits a user (nil: every user).
	users    func(string) bool
	queues   *nameFilter
	apps     *nameFilter
	hosts    *nameFilter
	projects *nameFilter
	// per* split the usage by consumer.
	perUser, perQueue, perApp, perHost, perProject bool
	// slots, jobs and mem are the limits (-1 for none); mem in MB.
	slots, jobs, mem float64
	// use holds what the running jobs take, by consumer key.
	use map[string]*limitUse
	// mbPerUnit converts rusage amounts (in LSF_UNIT_FOR_LIMITS) to MB;
	// perTask counts them per slot (RESOURCE_RESERVE_PER_TASK) rather
	// than per host.
	mbPerUnit float64
	perTask   bool
}

type limitUse struct{ slots, jobs, mem float64 }

// A nameFilter is a consumer list of a Limit section: the names it gives,
// or all names (all) but those it excludes with "~name". A nil filter
// admits every name.
type nameFilter struct {
	all     bool
	in, out map[string]bool
}

// has reports whether the list names n.
func (f *nameFilter) has(n string) bool {
	switch {
	case f == nil:
		return true
	case f.out[n]:
		return false
	case f.all:
		return true
	}
	return f.in[n]
}

// add puts a name in the list, or out of it when excluded.
func (f *nameFilter) add(n string, exclude bool) {
	switch {
	case exclude:
		f.out[n] = true
	case strings.EqualFold(n, "all"):
		f.all = true
	default:
		f.in[n] = true
	}
}

// admitsAll reports whether the filter admits every name.
func (f *nameFilter) admitsAll() bool { return f == nil || (f.all && len(f.out) == 0) }

func newNameFilter() *nameFilter { return &nameFilter{in: map[string]bool{}, out: map[string]bool{}} }

// readLimits builds the rules of the Limit sections that limit slots,
// jobs or memory.
func readLimits(p *compile.Policy, c *Cluster) []*limitRule {
	var out []*limitRule
	for _, l := range p.Limits {
		r := newLimitRule(l, p, c)
		if r.slots < 0 && r.jobs < 0 && r.mem < 0 {
			continue
		}
		out = append(out, r)
	}
	return out
}

// newLimitRule reads a Limit section: its consumers and its slot, job
// and memory limits (-1 each when it sets none).
func newLimitRule(l *compile.LimitDef, p *compile.Policy, c *Cluster) *limitRule {
	set := l.Settings
	r := &limitRule{name: l.Name, def: l, slots: -1, jobs: -1, mem: -1, use: map[string]*limitUse{}, mbPerUnit: c.Env.Unit.Megabytes(), perTask: c.ReservePerTask}
	if st := set["SLOTS"]; st != nil {
		if x, ok := st.Value.(float64); ok {
			r.slots = x
		}
	}
	if st := set["JOBS"]; st != nil {
		if x, ok := st.Value.(float64); ok {
			r.jobs = x
		}
	}
	if st := set["MEM"]; st != nil {
		if mb, ok := st.Value.(float64); ok {
			r.mem = mb
		}
	}
	if st := set["USERS"]; st != nil {
		items, _ := st.Value.([]compile.UserItem)
		r.users = userFilter(items, p)
	}
	if st := set["PER_USER"]; st != nil {
		items, _ := st.Value.([]compile.UserItem)
		r.users, r.perUser = userFilter(items, p), true
	}
	r.queues, r.perQueue = nameSet(set, "QUEUES", "PER_QUEUE")
	r.apps, r.perApp = nameSet(set, "APPS", "PER_APP")
	r.projects, r.perProject = nameSet(set, "PROJECTS", "PER_PROJECT")
	r.hosts, r.perHost = hostSet(set, p)
	return r
}

// nameSet reads a consumer list (QUEUES or PER_QUEUE), where "~name"
// excludes a name from "all": nil for all.
func nameSet(set compile.Settings, together, apart string) (*nameFilter, bool) {
	for _, key := range []string{together, apart} {
		st := set[key]
		if st == nil {
			continue
		}
		names, _ := st.Value.([]string)
		f := newNameFilter()
		for _, n := range names {
			name, exclude := strings.CutPrefix(n, "~")
			f.add(name, exclude)
		}
		if f.admitsAll() {
			return nil, key == apart
		}
		return f, key == apart
	}
	return nil, false
}

// hostSet reads HOSTS or PER_HOST into the set of host names, host
// groups expanded and "~host" or "~group" excluded: nil for all.
func hostSet(set compile.Settings, p *compile.Policy) (*nameFilter, bool) {
	for _, key := range []string{"HOSTS", "PER_HOST"} {
		st := set[key]
		if st == nil {
			continue
		}
		items, _ := st.Value.([]compile.HostItem)
		f := newNameFilter()
		groups := hostGroupIndex(p)
		for _, it := range items {
			if g := groups[it.Name]; g != nil {
				for _, h := range g.Hosts {
					f.add(h, it.Exclude)
				}
				continue
			}
			f.add(it.Name, it.Exclude)
		}
		if f.admitsAll() {
			return nil, key == "PER_HOST"
		}
		return f, key == "PER_HOST"
	}
	return nil, false
}

// hostGroupIndex returns the host groups of lsb.hosts by name.
func hostGroupIndex(p *compile.Policy) map[string]*compile.HostGroup {
	groups := make(map[string]*compile.HostGroup, len(p.HostGroups))
	for _, g := range p.HostGroups {
		groups[g.Name] = g
	}
	return groups
}

// hostBound reports whether the rule counts per host or only on some
// hosts, so that it is checked host by host.
func (r *limitRule) hostBound() bool { return r.perHost || r.hosts != nil }

// applies reports whether the job is a consumer of the rule (on host h,
// for host-bound rules; h may be nil for the others).
func (r *limitRule) applies(j *Job, h *Host) bool {
	switch {
	case r.users != nil && !r.users(j.User):
		return false
	case !r.queues.has(j.Queue.Name):
		return false
	case !r.apps.has(appName(j)):
		return false
	case !r.projects.has(j.Project()):
		return false
	case r.hosts != nil && (h == nil || !r.hosts.has(h.Name)):
		return false
	}
	return true
}

// key names the consumer a job's use counts against.
func (r *limitRule) key(j *Job, h *Host) string {
	var b strings.Builder
	if r.perUser {
		b.WriteString(j.User)
	}
	b.WriteByte(0)
	if r.perQueue {
		b.WriteString(j.Queue.Name)
	}
	b.WriteByte(0)
	if r.perApp && j.App != nil {
		b.WriteString(j.App.Name)
	}
	b.WriteByte(0)
	if r.perHost && h != nil {
		b.WriteString(h.Name)
	}
	b.WriteByte(0)
	if r.perProject {
		b.WriteString(j.Project())
	}
	return b.String()
}

// account adds (sign 1) or removes (sign -1) a started job's use.
func (r *limitRule) account(j *Job, sign int) {
	add := func(key string, slots, jobs, mem float64) {
		u := r.use[key]
		if u == nil {
			u = &limitUse{}
			r.use[key] = u
		}
		s := float64(sign)
		u.slots += s * slots
		u.jobs += s * jobs
		u.mem += s * mem
		if u.slots <= 0 && u.jobs <= 0 && u.mem <= 0 {
			delete(r.use, key)
		}
	}
	if !r.hostBound() {
		if r.applies(j, nil) {
			add(r.key(j, nil), float64(j.Slots), 1, r.jobMem(j))
		}
		return
	}
	for i, a := range j.Allocs {
		if r.applies(j, a.Host) {
			jobs := 0.0
			if i == 0 {
				jobs = 1
			}
			add(r.key(j, a.Host), float64(a.Slots), jobs, r.jobMem(j)*float64(a.Slots)/float64(max(1, j.Slots)))
		}
	}
}

// jobMem returns the memory a job reserves (rusage[mem]), in MB: once per
// host, or once per slot with RESOURCE_RESERVE_PER_TASK or /task, as the
// hosts' reservations count it; a job on several hosts counts, before it
// is placed, as on one.
func (r *limitRule) jobMem(j *Job) float64 {
	for _, a := range j.Req.amounts() {
		if a.Name != "mem" {
			continue
		}
		switch {
		case a.Per == "task" || (a.Per == "" && r.perTask):
			return a.Value * r.mbPerUnit * float64(max(1, j.Slots))
		case a.Per == "job":
			return a.Value * r.mbPerUnit
		}
		return a.Value * r.mbPerUnit
	}
	return 0
}

// room returns how much the consumer key may still take: slots, jobs and
// memory (negative limits are none: a large number).
func (r *limitRule) room(key string, planned *limitUse) (slots, jobs, mem float64) {
	u := r.use[key]
	var used limitUse
	if u != nil {
		used = *u
	}
	if planned != nil {
		used.slots += planned.slots
		used.jobs += planned.jobs
		used.mem += planned.mem
	}
	left := func(limit, use float64) float64 {
		if limit < 0 {
			return 1e18
		}
		return limit - use
	}
	return left(r.slots, used.slots), left(r.jobs, used.jobs), left(r.mem, used.mem)
}

// appName is the name of the job's application profile, "" for none: a
// list of names does not hold it, "all" does.
func appName(j *Job) string {
	if j.App == nil {
		return ""
	}
	return j.App.Name
}
