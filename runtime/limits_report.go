package runtime

import (
	"cmp"
	"slices"
	"strings"

	"github.com/lsfc/lsfc/compile"
)

// A LimitReport is one Limit section of lsb.resources as blimits shows
// it: how it is written, what it limits, and what running jobs use of it.
type LimitReport struct {
	Name string
	// Enforced tells that the section limits slots, jobs or memory, the
	// resources the scheduler counts; a section that limits only others
	// (TMP, SWP, RESOURCE ...) is read but has no usage.
	Enforced bool
	// Settings are the section's keys and values as written, NAME left
	// out, in the order of the file.
	Settings []LimitSetting
	// Slots, Jobs and Mem are the limits, -1 for none; Mem in MB.
	Slots, Jobs, Mem float64
	// Use holds what running jobs take, one entry for each consumer that
	// takes some, in the order of the consumers' names.
	Use []LimitConsumerUse
}

// A LimitSetting is one key of a Limit section and its value as written.
type LimitSetting struct{ Key, Value string }

// A LimitConsumerUse is what the running jobs of one consumer of a
// Limit take. User, Queue, Host, Project and App name the consumer along
// the section's PER_ keys (PER_USER ...), "" along the others.
type LimitConsumerUse struct {
	User, Queue, Host, Project, App string
	Slots, Jobs                     int
	// Mem is in MB.
	Mem float64
}

// A LimitFilter picks the Limit sections and consumers blimits shows:
// the sections named (Names), and those that apply to the users, queues,
// hosts, projects or applications given; a user group given stands for
// its members, a host group for its hosts. An empty list, or one that
// holds "all", picks all.
type LimitFilter struct {
	Names, Users, Queues, Hosts, Projects, Apps []string
}

// Limits returns the Limit sections of lsb.resources the filter picks, in
// the order of the file, with what running jobs use of each. Of a section
// with PER_ keys, only the consumers the filter picks are kept.
func (c *Cluster) Limits(f LimitFilter) []LimitReport {
	if c.Policy == nil {
		return nil
	}
	enforced := map[*compile.LimitDef]*limitRule{}
	for _, r := range c.limits {
		enforced[r.def] = r
	}
	m := c.limitMatcher(f)
	var out []LimitReport
	for _, def := range c.Policy.Limits {
		r := enforced[def]
		rep := LimitReport{Name: def.Name, Enforced: r != nil, Settings: limitSettings(def)}
		if r == nil {
			r = newLimitRule(def, c.Policy, c)
		}
		if !m.rule(r) {
			continue
		}
		rep.Slots, rep.Jobs, rep.Mem = r.slots, r.jobs, r.mem
		if rep.Enforced {
			keys := make([]string, 0, len(r.use))
			for k := range r.use {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, key := range keys {
				u := r.use[key]
				row := consumerOf(key)
				if !m.row(row) {
					continue
				}
				row.Slots, row.Jobs, row.Mem = int(u.slots), int(u.jobs), u.mem
				rep.Use = append(rep.Use, row)
			}
		}
		out = append(out, rep)
	}
	return out
}

// consumerOf splits a consumer key (see limitRule.key) into its names.
func consumerOf(key string) LimitConsumerUse {
	parts := strings.Split(key, "\x00")
	for len(parts) < 5 {
		parts = append(parts, "")
	}
	return LimitConsumerUse{User: parts[0], Queue: parts[1], App: parts[2], Host: parts[3], Project: parts[4]}
}

// limitSettings returns a section's settings as written, in the order of
// the file, NAME left out.
func limitSettings(def *compile.LimitDef) []LimitSetting {
	keys := make([]string, 0, len(def.Settings))
	for k := range def.Settings {
		if k != "NAME" {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(a, b string) int {
		return cmp.Or(cmp.Compare(def.Settings[a].Span().Start, def.Settings[b].Span().Start), strings.Compare(a, b))
	})
	out := make([]LimitSetting, len(keys))
	for i, k := range keys {
		out[i] = LimitSetting{k, def.Settings[k].Raw}
	}
	return out
}

// A limitMatcher answers whether a rule, and a consumer of it, is one a
// LimitFilter picks.
type limitMatcher struct {
	f LimitFilter
	// users admit a user the filter names, directly or through a group.
	users []func(string) bool
	// hosts are the hosts the filter names, host groups expanded.
	hosts map[string]bool
}

func (c *Cluster) limitMatcher(f LimitFilter) *limitMatcher {
	for _, l := range []*[]string{&f.Names, &f.Users, &f.Queues, &f.Hosts, &f.Projects, &f.Apps} {
		if slices.Contains(*l, "all") {
			*l = nil
		}
	}
	m := &limitMatcher{f: f}
	for _, u := range f.Users {
		if g := c.UserGroupMembers(u); g != nil {
			m.users = append(m.users, g)
			continue
		}
		m.users = append(m.users, func(name string) bool { return name == u })
	}
	if len(f.Hosts) > 0 {
		m.hosts = map[string]bool{}
		groups := hostGroupIndex(c.Policy)
		for _, h := range f.Hosts {
			if g := groups[h]; g != nil {
				for _, member := range g.Hosts {
					m.hosts[member] = true
				}
				continue
			}
			m.hosts[h] = true
		}
	}
	return m
}

// rule reports whether the rule is one the filter picks: named by it, and
// applying to one of the users, queues, hosts, projects and applications
// it gives of each kind.
func (m *limitMatcher) rule(r *limitRule) bool {
	anyOf := func(names []string, has func(string) bool) bool {
		return len(names) == 0 || slices.ContainsFunc(names, has)
	}
	userHas := func(u string) bool {
		return r.users == nil || r.users(u)
	}
	hostHas := func(h string) bool { return r.hosts.has(h) }
	hosts := make([]string, 0, len(m.hosts))
	for h := range m.hosts {
		hosts = append(hosts, h)
	}
	return (len(m.f.Names) == 0 || slices.Contains(m.f.Names, r.name)) &&
		anyOf(m.f.Users, userHas) && anyOf(m.f.Queues, r.queues.has) && anyOf(hosts, hostHas) &&
		anyOf(m.f.Projects, r.projects.has) && anyOf(m.f.Apps, r.apps.has)
}

// row reports whether a consumer of a picked rule is one the filter picks:
// along each PER_ key, the consumer's name must be one the filter gives.
func (m *limitMatcher) row(u LimitConsumerUse) bool {
	pick := func(name string, given []string, has func(string) bool) bool {
		return name == "" || len(given) == 0 || has(name)
	}
	return pick(u.User, m.f.Users, func(n string) bool {
		return slices.ContainsFunc(m.users, func(admit func(string) bool) bool { return admit(n) })
	}) &&
		pick(u.Queue, m.f.Queues, func(n string) bool { return slices.Contains(m.f.Queues, n) }) &&
		pick(u.Host, m.f.Hosts, func(n string) bool { return m.hosts[n] }) &&
		pick(u.Project, m.f.Projects, func(n string) bool { return slices.Contains(m.f.Projects, n) }) &&
		pick(u.App, m.f.Apps, func(n string) bool { return slices.Contains(m.f.Apps, n) })
}
