package compile

import (
	"slices"
	"strings"

	"github.com/lsfc/lsfc/compile/schema"
	"github.com/lsfc/lsfc/lang"
)

// readParams reads lsb.params.
func (c *compiler) readParams(f *lang.File) {
	if c.p.Params == nil {
		c.p.Params = Settings{}
	}
	c.sections(f, func(s *lang.Section, ss *schema.Section) {
		set := c.keyValues(f.Kind, s.Assigns, ss)
		for _, k := range set.keys() {
			c.put(c.p.Params, k, set[k])
		}
	})
}

// A batchRow is a row of lsb.hosts' Host section, kept until the hosts it
// applies to are known.
type batchRow struct {
	b    *HostBatch
	span lang.Span
}

// readHosts reads lsb.hosts: batch host rows, host groups, host
// partitions and compute units.
func (c *compiler) readHosts(f *lang.File) {
	groupDefs := map[string]lang.Span{}
	cuDefs := map[string]lang.Span{}
	br := map[string]*lang.Branch{}
	c.sections(f, func(s *lang.Section, ss *schema.Section) {
		switch ss.Name {
		case "Host":
			for _, r := range c.table(f.Kind, s, ss) {
				c.batchHost(r)
			}
		case "HostGroup":
			for _, r := range c.table(f.Kind, s, ss) {
				name := r.set.str("GROUP_NAME")
				sp := r.set.spanOf("GROUP_NAME")
				if name == "" || !c.define(groupDefs, br, "host group", name, sp, r.row.Branch) {
					continue
				}
				g := &HostGroup{Name: name, At: at(sp), span: sp, set: r.set}
				if st := r.set["GROUP_MEMBER"]; st != nil {
					g.Members = c.hostItems(st.val, "GROUP_MEMBER")
				}
				c.hostGroups[name] = g
				c.p.HostGroups = append(c.p.HostGroups, g)
			}
		case "ComputeUnit":
			for _, r := range c.table(f.Kind, s, ss) {
				name := r.set.str("NAME")
				sp := r.set.spanOf("NAME")
				if name == "" || !c.define(cuDefs, br, "compute unit", name, sp, r.row.Branch) {
					continue
				}
				cu := &HostGroup{Name: name, Type: r.set.str("TYPE"), At: at(sp), span: sp, set: r.set}
				if st := r.set["MEMBER"]; st != nil {
					cu.Members = c.hostItems(st.val, "MEMBER")
				}
				c.checkCUType(r)
				c.computeUnits[name] = cu
				c.p.ComputeUnits = append(c.p.ComputeUnits, cu)
			}
		default:
			c.otherSection(f, s, ss)
		}
	})
}

// checkCUType checks a compute unit's TYPE against COMPUTE_UNIT_TYPES.
func (c *compiler) checkCUType(r tableRow) {
	if typ := r.set.str("TYPE"); typ != "" && c.p.Params["COMPUTE_UNIT_TYPES"] != nil {
		var types []string
		for _, t := range strings.Fields(c.p.Params.str("COMPUTE_UNIT_TYPES")) {
			types = append(types, strings.TrimSuffix(t, "!"))
		}
		if !slices.Contains(types, typ) {
			d := c.diags.Add(lang.Error, CodeUnknownModel, r.set.spanOf("TYPE"),
				"compute unit type %q is not in COMPUTE_UNIT_TYPES of lsb.params (%s)", typ, strings.Join(types, " "))
			if s := lang.Suggest(typ, types); s != "" {
				d.Message += "; did you mean " + quote(s) + "?"
				d.Suggest(replaceWith(s), r.set.spanOf("TYPE"), s)
			}
			d.Note(c.p.Params.spanOf("COMPUTE_UNIT_TYPES"), "COMPUTE_UNIT_TYPES is set here")
		}
	}
}

// batchHost reads one row of lsb.hosts' Host section.
func (c *compiler) batchHost(r tableRow) {
	name := r.set.str("HOST_NAME")
	if name == "" {
		return
	}
	b := &HostBatch{Row: name, Settings: r.set, At: at(r.set.spanOf("HOST_NAME")), span: r.set.spanOf("HOST_NAME")}
	if x := r.set.num("MXJ"); x != nil {
		n := int(*x)
		b.MXJ = &n
	}
	b.JLU = r.set.integer("JL/U")
	if st := r.set["DISPATCH_WINDOW"]; st != nil {
		b.DispatchWindow, _ = st.Value.([]Window)
	}
	for k, st := range r.set {
		if th, ok := st.Value.(Threshold); ok {
			if b.Thresholds == nil {
				b.Thresholds = map[string]Threshold{}
			}
			b.Thresholds[k] = th
		}
	}
	c.batchRows = append(c.batchRows, batchRow{b: b, span: b.span})
	c.p.BatchHosts = append(c.p.BatchHosts, b)
}

// resolveHosts expands host groups and compute units, reports references
// to unknown hosts and groups and cycles among groups, and gives each host
// the lsb.hosts row that applies to it.
func (c *compiler) resolveHosts() {
	state := map[*HostGroup]int{} // 0 unvisited, 1 in progress, 2 done
	for _, g := range c.p.HostGroups {
		c.expandGroup(g, state, nil)
	}
	for _, cu := range c.p.ComputeUnits {
		c.expandGroup(cu, state, nil)
	}
	c.applyBatchRows()
}

// expandGroup resolves the members of a host group or compute unit to
// host names, depth first; a member that leads back to a group in
// progress is a cycle.
func (c *compiler) expandGroup(g *HostGroup, state map[*HostGroup]int, path []*HostGroup) {
	if state[g] != 0 {
		return
	}
	state[g] = 1
	path = append(path, g)
	var lists [][]string
	var excluded []HostItem
	for _, m := range g.Members {
		if m.Exclude {
			excluded = append(excluded, m)
			continue
		}
		lists = append(lists, c.memberHosts(g, m, state, path))
	}
	var hosts []string
	switch len(lists) {
	case 0:
		hosts = []string{}
	case 1:
		hosts = lists[0] // sorted already, and shared read-only
	default:
		for _, l := range lists {
			hosts = append(hosts, l...)
		}
		slices.Sort(hosts)
		hosts = slices.Compact(hosts)
	}
	if len(excluded) > 0 {
		drop := map[string]bool{}
		for _, m := range excluded {
			for _, h := range c.memberHosts(g, m, state, path) {
				drop[h] = true
			}
		}
		hosts = slices.DeleteFunc(slices.Clone(hosts), func(h string) bool { return drop[h] })
	}
	if hosts == nil {
		hosts = []string{}
	}
	g.Hosts = hosts
	state[g] = 2
}

// memberHosts resolves one member of a host group or compute unit to
// sorted host names.
func (c *compiler) memberHosts(g *HostGroup, m HostItem, state map[*HostGroup]int, path []*HostGroup) []string {
	name := m.Name
	switch {
	case m.Cluster != "":
		// A remote host lent through MultiCluster: valid, not local.
		c.clusterRef(m.Cluster, m.ClusterSpan, "GROUP_MEMBER")
		return nil
	case strings.EqualFold(name, "all"):
		return c.allHosts()
	case name == "!":
		// The members come from the egroup executable at run time.
		g.External = true
		return nil
	case strings.EqualFold(name, "none"), strings.EqualFold(name, "allremote"):
		return nil
	}
	sub := c.hostGroups[name]
	if sub == nil {
		sub = c.computeUnits[name]
	}
	if sub != nil {
		if state[sub] == 1 {
			what := "host group"
			if sub.Type != "" {
				what = "compute unit"
			}
			d := c.diags.Add(lang.Error, CodeCycle, m.Span, "%s %q includes itself through %s", what, name, cyclePath(path, name))
			d.Note(sub.span, "%s %s is defined here", what, name)
			return nil
		}
		c.expandGroup(sub, state, path)
		g.External = g.External || sub.External
		return sub.Hosts
	}
	if c.hosts[name] != nil {
		return []string{name}
	}
	if hosts, isPattern := c.patternHosts(name, m.Span, "GROUP_MEMBER"); isPattern {
		return hosts
	}
	c.unknownHost(name, m.Span, "GROUP_MEMBER", true)
	return nil
}

// cyclePath prints the groups of a cycle: "a -> b -> a".
func cyclePath(path []*HostGroup, back string) string {
	var names []string
	for i := len(path) - 1; i >= 0; i-- {
		names = append([]string{path[i].Name}, names...)
		if path[i].Name == back {
			break
		}
	}
	return strings.Join(append(names, back), " -> ")
}

// allHosts returns every host of lsf.cluster that runs batch jobs,
// sorted. The slice is shared: callers must not modify it.
func (c *compiler) allHosts() []string {
	if c.all == nil {
		c.all = []string{}
		for _, h := range c.p.Hosts {
			if h.Server {
				c.all = append(c.all, h.Name)
			}
		}
		slices.Sort(c.all)
	}
	return c.all
}

// patternHosts resolves a name written in condensed notation or with
// wildcards, reporting one that cannot be read or that matches no host of
// lsf.cluster; isPattern is false for a plain name.
func (c *compiler) patternHosts(name string, sp lang.Span, key string) (hosts []string, isPattern bool) {
	hosts, isPattern, err := c.pattern(name)
	switch {
	case err != nil:
		c.valueError(sp, key, "%v", err)
	case isPattern && len(hosts) == 0 && c.has[lang.KindLSFCluster]:
		c.diags.Add(lang.Warning, CodeUnknownHost, sp, "%s: %q matches no host of lsf.cluster", key, name)
	}
	return hosts, isPattern
}

// pattern expands a name written in condensed notation ("hostA[1-10,12]",
// "rack[1:2]n[01-16]") or with wildcards ("hostA*") against the hosts of
// lsf.cluster; isPattern is false for a plain name.
func (c *compiler) pattern(name string) (hosts []string, isPattern bool, err error) {
	cond, ok, err := parseCondensed(name)
	switch {
	case ok && err != nil:
		return nil, true, err
	case ok && cond.size() <= len(c.p.Hosts):
		for _, h := range cond.expand() {
			if c.hosts[h] != nil {
				hosts = append(hosts, h)
			}
		}
	case ok:
		for _, h := range c.p.Hosts {
			if cond.match(h.Name) {
				hosts = append(hosts, h.Name)
			}
		}
	case strings.ContainsAny(name, "*?"):
		for _, h := range c.p.Hosts {
			if wildcard(name, h.Name) {
				hosts = append(hosts, h.Name)
			}
		}
	default:
		return nil, false, nil
	}
	slices.Sort(hosts)
	return slices.Compact(hosts), true, nil
}

// wildcard matches a name against a pattern where * is any run of
// characters and ? one character. It runs in time linear in the product
// of the lengths: a star remembers where to resume instead of recursing.
func wildcard(pattern, name string) bool {
	p, n := 0, 0
	star, mark := -1, 0
	for n < len(name) {
		switch {
		case p < len(pattern) && (pattern[p] == '?' || pattern[p] == name[n]):
			p++
			n++
		case p < len(pattern) && pattern[p] == '*':
			star, mark = p, n
			p++
		case star >= 0:
			mark++
			p, n = star+1, mark
		default:
			return false
		}
	}
	for p < len(pattern) && pattern[p] == '*' {
		p++
	}
	return p == len(pattern)
}

// applyBatchRows gives each host the lsb.hosts row that applies to it:
// its own row, else the first range or wildcard row that names it, else
// the first host group row that holds it, else its model's row, else its
// type's, else default.
func (c *compiler) applyBatchRows() {
	exact := map[string]*HostBatch{} // rows naming a host, group, model, type or default
	firstAt := map[string]lang.Span{}
	fromPattern := map[string]*HostBatch{}
	fromGroup := map[string]*HostBatch{}
	for _, r := range c.batchRows {
		name := r.b.Row
		if strings.EqualFold(name, "default") {
			name = "default"
		}
		known := name == "default" || c.hosts[name] != nil || c.hostGroups[name] != nil ||
			c.models[name].IsValid() || c.types[name].IsValid()
		if !known {
			if hosts, isPattern := c.patternHosts(name, r.span, "HOST_NAME"); isPattern {
				for _, h := range hosts {
					if fromPattern[h] == nil {
						fromPattern[h] = r.b
					}
				}
				continue
			}
			c.unknownHost(name, r.span, "HOST_NAME", false)
			continue
		}
		if exact[name] != nil {
			c.diags.Add(lang.Error, CodeDuplicate, r.span, "lsb.hosts has two rows for %q; LSF uses the first", name).
				Note(firstAt[name], "the first row for %s", name)
			continue
		}
		exact[name], firstAt[name] = r.b, r.span
		if g := c.hostGroups[name]; g != nil && c.hosts[name] == nil {
			for _, h := range g.Hosts {
				if fromGroup[h] == nil {
					fromGroup[h] = r.b
				}
			}
		}
	}
	for _, h := range c.p.Hosts {
		b := exact[h.Name]
		if b == nil {
			b = fromPattern[h.Name]
		}
		if b == nil {
			b = fromGroup[h.Name]
		}
		if b == nil && h.Model != "" {
			b = exact[h.Model]
		}
		if b == nil && h.Type != "" {
			b = exact[h.Type]
		}
		if b == nil {
			b = exact["default"]
		}
		h.Batch = b
		if b != nil {
			h.BatchRow = b.Row
		}
	}
}

// unknownHost reports a name that is no host (nor host group, when
// groups is true) of the cluster. Hosts are checked only when lsf.cluster
// was read; with dynamic hosts allowed, an unknown host is a warning.
func (c *compiler) unknownHost(name string, sp lang.Span, key string, groups bool) {
	if !c.has[lang.KindLSFCluster] {
		return
	}
	sev := lang.Error
	if c.dynamicHosts {
		sev = lang.Warning
	}
	what := "host"
	if len(c.hostNames) != len(c.hosts) || len(c.hostOrGroupNames) != len(c.hosts)+len(c.hostGroups) {
		// Sorted once per state of the tree: LOCATION is checked before
		// lsb.hosts defines the groups.
		c.hostNames = sortedKeys(c.hosts)
		c.hostOrGroupNames = append(slices.Clone(c.hostNames), sortedKeys(c.hostGroups)...)
	}
	cands := c.hostNames
	if groups {
		what = "host or host group"
		cands = c.hostOrGroupNames
	}
	d := c.diags.Add(sev, CodeUnknownHost, sp, "%s: %q is no %s of this cluster", key, name, what)
	if s := lang.Suggest(name, cands); s != "" {
		d.Message += "; did you mean " + quote(s) + "?"
		d.Suggest(replaceWith(s), sp, s)
	}
}
