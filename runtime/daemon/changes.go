package daemon

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/runtime/api"
)

// restartConfKey reports whether lsfc serve reads an lsf.conf key when it
// starts only: where its state is, and the daemons' ports.
func restartConfKey(k string) bool {
	switch k {
	case "LSB_SHAREDIR", "LSF_ENVDIR", "LSF_CONFDIR", "LSB_CONFDIR", "LSF_LOGDIR", "LSB_MBD_PORT", "LSB_SBD_PORT",
		"LSF_LIM_PORT", "LSF_RES_PORT", "LSF_SERVER_HOSTS", "LSF_MASTER_LIST":
		return true
	}
	return false
}

// newJobQueueKey reports whether a started job keeps an lsb.queues key
// from the configuration it started with: its limits and how it is run.
func newJobQueueKey(k string) bool {
	switch k {
	case "RUNLIMIT", "CPULIMIT", "MEMLIMIT", "PROCESSLIMIT", "STACKLIMIT", "CORELIMIT", "DATALIMIT", "FILELIMIT",
		"SWAPLIMIT", "THREADLIMIT", "RERUNNABLE", "TERMINATE_WHEN", "JOB_CONTROLS", "PRE_EXEC", "POST_EXEC",
		"JOB_STARTER", "NICE", "REQUEUE_EXIT_VALUES":
		return true
	}
	return false
}

// policyChanges lists the differences between two configurations, each
// with when it applies. Nothing that differs is left out.
func policyChanges(old, cur *compile.Policy) []api.Change {
	var out []api.Change
	add := func(applies, format string, args ...any) {
		out = append(out, api.Change{What: fmt.Sprintf(format, args...), Applies: applies})
	}
	settings := func(where string, a, b compile.Settings, applies func(key string) string) {
		for _, k := range unionKeys(a, b) {
			sa, sb := a[k], b[k]
			switch {
			case sa == nil:
				add(applies(k), "%s: %s = %s added", where, k, sb.Raw)
			case sb == nil:
				add(applies(k), "%s: %s = %s removed", where, k, sa.Raw)
			case sa.Raw != sb.Raw || sa.When != sb.When:
				add(applies(k), "%s: %s %s → %s", where, k, sa.Raw, sb.Raw)
			}
		}
	}
	live := func(string) string { return api.AppliesLive }
	settings("lsf.conf", old.Conf, cur.Conf, func(k string) string {
		if restartConfKey(k) {
			return api.AppliesRestart
		}
		switch k {
		case "LSB_STDOUT_DIRECT", "LSB_JOB_REPORT_MAIL", "LSB_MAILPROG", "LSB_MAILTO", "LSB_MAILSIZE_LIMIT":
			// A running job's output goes where it went when it started,
			// and its mail as it was asked for then.
			return api.AppliesNewJobs
		}
		return api.AppliesLive
	})
	if old.Cluster != cur.Cluster {
		add(api.AppliesRestart, "lsf.shared: cluster name %s → %s", old.Cluster, cur.Cluster)
	}
	named(old.Resources, cur.Resources, func(r *compile.ResourceDef) string { return r.Name }, "lsf.shared: resource", add)
	named(old.HostModels, cur.HostModels, func(m *compile.HostModel) string { return m.Name }, "lsf.shared: host model", add)
	if !slices.Equal(old.HostTypes, cur.HostTypes) {
		add(api.AppliesLive, "lsf.shared: host types %v → %v", old.HostTypes, cur.HostTypes)
	}
	if !slices.Equal(old.Admins, cur.Admins) {
		add(api.AppliesLive, "lsf.cluster: cluster administrators %v → %v", old.Admins, cur.Admins)
	}
	settings("lsf.cluster: Parameters", old.ClusterParams, cur.ClusterParams, live)
	named(old.Hosts, cur.Hosts, func(h *compile.HostDef) string { return h.Name }, "lsf.cluster: host", add)
	named(old.BatchHosts, cur.BatchHosts, func(b *compile.HostBatch) string { return b.Row }, "lsb.hosts: host row", add)
	named(old.HostGroups, cur.HostGroups, func(g *compile.HostGroup) string { return g.Name }, "lsb.hosts: host group", add)
	named(old.ComputeUnits, cur.ComputeUnits, func(g *compile.HostGroup) string { return g.Name }, "lsb.hosts: compute unit", add)
	settings("lsb.params", old.Params, cur.Params, live)
	oldQ, curQ := byName(old.Queues, func(q *compile.Queue) string { return q.Name }), byName(cur.Queues, func(q *compile.Queue) string { return q.Name })
	for _, name := range unionKeys(oldQ, curQ) {
		qa, qb := oldQ[name], curQ[name]
		switch {
		case qa == nil:
			add(api.AppliesLive, "lsb.queues: queue %s added", name)
		case qb == nil:
			add(api.AppliesLive, "lsb.queues: queue %s removed (its pending jobs go to %s)", name, "lost_and_found")
		default:
			settings("lsb.queues: queue "+name, qa.Settings, qb.Settings, func(k string) string {
				if newJobQueueKey(k) {
					return api.AppliesNewJobs
				}
				return api.AppliesLive
			})
		}
	}
	named(old.UserGroups, cur.UserGroups, func(g *compile.UserGroup) string { return g.Name }, "lsb.users: user group", add)
	named(old.UserLimits, cur.UserLimits, func(l *compile.UserLimit) string { return l.User }, "lsb.users: user", add)
	named(old.Limits, cur.Limits, func(l *compile.LimitDef) string { return l.Name }, "lsb.resources: limit", add)
	oldA, curA := byName(old.Applications, func(a *compile.Application) string { return a.Name }), byName(cur.Applications, func(a *compile.Application) string { return a.Name })
	for _, name := range unionKeys(oldA, curA) {
		aa, ab := oldA[name], curA[name]
		switch {
		case aa == nil:
			add(api.AppliesLive, "lsb.applications: profile %s added", name)
		case ab == nil:
			add(api.AppliesNewJobs, "lsb.applications: profile %s removed (pending jobs lose it; running jobs keep theirs)", name)
		default:
			settings("lsb.applications: profile "+name, aa.Settings, ab.Settings, func(string) string { return api.AppliesNewJobs })
		}
	}
	named(old.Sections, cur.Sections, func(s *compile.OtherSection) string { return s.File + " " + s.Name }, "section", add)
	return out
}

// named reports the elements of two lists, matched by name, that were
// added, removed or changed (compared by their JSON form, without
// positions); these all apply live.
func named[T any](old, cur []T, name func(T) string, where string, add func(string, string, ...any)) {
	a, b := byName(old, name), byName(cur, name)
	for _, n := range unionKeys(a, b) {
		x, okA := a[n]
		y, okB := b[n]
		switch {
		case !okA:
			add(api.AppliesLive, "%s %s added", where, n)
		case !okB:
			add(api.AppliesLive, "%s %s removed", where, n)
		case canonical(x) != canonical(y):
			add(api.AppliesLive, "%s %s changed", where, n)
		}
	}
}

// canonical returns an element's JSON form without its positions.
func canonical(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	var m any
	if json.Unmarshal(b, &m) != nil {
		return string(b)
	}
	dropPositions(m)
	b, _ = json.Marshal(m)
	return string(b)
}

// dropPositions removes "at" keys (positions) from a decoded JSON value.
func dropPositions(v any) {
	switch v := v.(type) {
	case map[string]any:
		delete(v, "at")
		for _, x := range v {
			dropPositions(x)
		}
	case []any:
		for _, x := range v {
			dropPositions(x)
		}
	}
}

func byName[T any](list []T, name func(T) string) map[string]T {
	m := make(map[string]T, len(list))
	for _, x := range list {
		m[name(x)] = x
	}
	return m
}

func unionKeys[V any](a, b map[string]V) []string {
	keys := slices.Collect(maps.Keys(a))
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, strings.Compare)
	return keys
}
