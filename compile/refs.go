package compile

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lsfc/lsfc/lang"
)

// crossChecks resolves the names each file uses in the others and checks
// the rules that span several definitions.
func (c *compiler) crossChecks() {
	c.hostGroupNames()
	for _, q := range c.p.Queues {
		c.queueHosts(q)
		c.queueRefs(q)
		c.queueConflicts(q)
	}
	c.crossQueueFairshare()
	c.absolutePriority()
	c.slotPools()
	c.paramRefs()
	c.userGroupRefs()
	c.limitRefs()
	c.sectionRefs()
	c.serviceClassNames()
}

// hostGroupNames reports host groups named like a host or "all".
func (c *compiler) hostGroupNames() {
	for _, g := range c.p.HostGroups {
		switch {
		case strings.EqualFold(g.Name, "all") || strings.EqualFold(g.Name, "others") || strings.EqualFold(g.Name, "default"):
			c.diags.Add(lang.Error, CodeReservedName, g.span, "a host group cannot be named %q: the word is reserved", g.Name)
		case c.hosts[g.Name] != nil:
			c.diags.Add(lang.Error, CodeDuplicate, g.span, "host group %q has the name of a host", g.Name).
				Note(c.hosts[g.Name].span, "host %s is defined here", g.Name)
		}
	}
}

// hostKeyword reports the words a host list takes besides names.
func hostKeyword(name string) bool {
	switch strings.ToLower(name) {
	case "all", "others", "none", "allremote", "default":
		return true
	}
	return false
}

// queueHosts checks a queue's HOSTS and resolves it to host names.
func (c *compiler) queueHosts(q *Queue) {
	if q.Hosts == nil {
		q.HostNames = c.allHosts()
		return
	}
	before := len(c.diags)
	var hosts []string
	var excluded []HostItem
	hasBase, others, external := false, false, false
	othersPref := 0
	// prefer records a host's preference; a host listed twice keeps the
	// higher one.
	prefer := func(h string, pref int) {
		if pref == 0 {
			return
		}
		if q.HostPref == nil {
			q.HostPref = map[string]int{}
		}
		if pref > q.HostPref[h] {
			q.HostPref[h] = pref
		}
	}
	for _, it := range q.Hosts {
		if it.Cluster != "" {
			c.clusterRef(it.Cluster, it.ClusterSpan, "HOSTS")
			continue
		}
		if it.Exclude {
			excluded = append(excluded, it)
			continue
		}
		if strings.EqualFold(it.Name, "others") {
			hasBase, others, othersPref = true, true, it.Pref
			continue
		}
		hs, ok := c.hostRef(it, "HOSTS")
		if !ok {
			continue
		}
		for _, h := range hs {
			prefer(h, it.Pref)
		}
		if strings.EqualFold(it.Name, "all") || c.hostGroups[it.Name] != nil {
			hasBase = true
		}
		if g := c.hostGroups[it.Name]; g != nil && g.External {
			external = true
		}
		if hosts == nil && len(q.Hosts) == 1 {
			// The common case, one group: share its sorted list.
			hosts = hs
			continue
		}
		hosts = append(hosts[:len(hosts):len(hosts)], hs...)
	}
	if len(q.Hosts) > 1 {
		hosts = slices.Clone(hosts)
		slices.Sort(hosts)
		hosts = slices.Compact(hosts)
	}
	if others {
		listed := hosts
		hosts = slices.Clone(hosts)
		for _, h := range c.allHosts() {
			if _, found := slices.BinarySearch(listed, h); !found {
				hosts = append(hosts, h)
				prefer(h, othersPref)
			}
		}
		slices.Sort(hosts)
	}
	if len(excluded) > 0 {
		drop := map[string]bool{}
		for _, it := range excluded {
			hs, ok := c.hostRef(it, "HOSTS")
			if !ok {
				continue
			}
			if !hasBase && c.dialect != Openlava {
				c.diags.Add(lang.Warning, CodeConflict, it.Span,
					"~%s excludes from nothing: LSF 10.1 excludes hosts only from all, others or a host group in the same list", it.Name)
			}
			for _, h := range hs {
				drop[h] = true
			}
		}
		hosts = slices.DeleteFunc(slices.Clone(hosts), func(h string) bool { return drop[h] })
		for h := range drop {
			delete(q.HostPref, h)
		}
	}
	if hosts == nil {
		hosts = []string{}
	}
	q.HostNames = hosts
	if len(q.HostNames) == 0 && !external && len(c.diags) == before && c.has[lang.KindLSFCluster] && !c.dynamicHosts && !mentions(q.Hosts, "none") && !remoteOnly(q.Hosts) {
		c.diags.Add(lang.Warning, CodeUnknownHost, q.Settings.spanOf("HOSTS"), "HOSTS of queue %s leaves no host: no job of the queue can run here", q.Name)
	}
}

func mentions(items []HostItem, name string) bool {
	for _, it := range items {
		if strings.EqualFold(it.Name, name) {
			return true
		}
	}
	return false
}

// remoteOnly reports a host list naming only remote resources.
func remoteOnly(items []HostItem) bool {
	for _, it := range items {
		if it.Cluster == "" && !strings.EqualFold(it.Name, "allremote") {
			return false
		}
	}
	return true
}

// hostRef resolves one item of a host list (queue HOSTS, limit HOSTS,
// partition HOSTS): a host, a host group, a compute unit, all, others or
// none. It reports an unknown name and returns false.
func (c *compiler) hostRef(it HostItem, key string) ([]string, bool) {
	switch {
	case strings.EqualFold(it.Name, "all"):
		return c.allHosts(), true
	case hostKeyword(it.Name):
		return nil, true
	case c.hostGroups[it.Name] != nil:
		return c.hostGroups[it.Name].Hosts, true
	case c.hosts[it.Name] != nil:
		return []string{it.Name}, true
	}
	if cu := c.computeUnits[it.Name]; cu != nil {
		return cu.Hosts, true
	}
	if hosts, isPattern := c.patternHosts(it.Name, it.Span, key); isPattern {
		return hosts, true
	}
	if !c.has[lang.KindLSFCluster] && !c.has[lang.KindLSBHosts] {
		return nil, false
	}
	if !c.has[lang.KindLSFCluster] {
		// Only groups are known: a name that is none may be a host.
		return nil, false
	}
	c.unknownHost(it.Name, it.Span, key, true)
	return nil, false
}

// queueRefs checks the queue names and clusters a queue refers to.
func (c *compiler) queueRefs(q *Queue) {
	if p := q.Preemption; p != nil {
		for _, r := range append(slices.Clone(p.PreemptiveQueues), p.PreemptableQueues...) {
			if c.queueRef(r.Name, r.Span, "PREEMPTION") && r.Name == q.Name {
				c.diags.Add(lang.Warning, CodeConflict, r.Span, "PREEMPTION of queue %s names the queue itself", q.Name)
			}
		}
	}
	if st := q.Settings["FAIRSHARE_QUEUES"]; st != nil {
		for _, w := range words(unparen(st.val)) {
			c.queueRef(w.text, w.span, "FAIRSHARE_QUEUES")
		}
	}
	for _, d := range q.SendTo {
		c.clusterRef(d.Cluster, d.ClusterSpan, "SNDJOBS_TO")
		if d.Cluster == c.p.Cluster && c.p.Cluster != "" {
			c.diags.Add(lang.Error, CodeConflict, d.Span, "SNDJOBS_TO names the local cluster %s; jobs are forwarded to remote clusters only", d.Cluster)
		}
	}
	if st := q.Settings["RCVJOBS_FROM"]; st != nil {
		for _, w := range words(unparen(st.val)) {
			if !strings.EqualFold(w.text, "allclusters") {
				c.clusterRef(w.text, w.span, "RCVJOBS_FROM")
			}
		}
	}
	for _, s := range q.Fairshare {
		c.shareRef(s, "FAIRSHARE")
	}
	if st := q.Settings["DEFAULT_HOST_SPEC"]; st != nil {
		c.hostSpecRef(st)
	}
}

// queueRef reports a queue name lsb.queues does not define; it reports
// whether the queue exists.
func (c *compiler) queueRef(name string, sp lang.Span, key string) bool {
	if c.queues[name] != nil {
		return true
	}
	if !c.has[lang.KindLSBQueues] {
		return false
	}
	d := c.diags.Add(lang.Error, CodeUnknownQueue, sp, "%s names queue %q, which lsb.queues does not define", key, name)
	if s := lang.Suggest(name, sortedKeys(c.queues)); s != "" {
		d.Message += "; did you mean " + quote(s) + "?"
		d.Suggest(replaceWith(s), sp, s)
	}
	return false
}

// shareRef checks one share assignment: "group@" must name a user group.
func (c *compiler) shareRef(s Share, key string) {
	name, each := strings.CutSuffix(s.Name, "@")
	if !each {
		return
	}
	c.userGroupRef(name, s.Span, key)
}

// userGroupRef reports a user group lsb.users does not define; all and
// default (of "default@", every user on their own) name no group.
func (c *compiler) userGroupRef(name string, sp lang.Span, key string) {
	if c.userGroups[name] != nil || strings.EqualFold(name, "all") || EveryUser(name) || !c.has[lang.KindLSBUsers] {
		return
	}
	d := c.diags.Add(lang.Error, CodeUnknownUserGroup, sp, "%s names user group %q, which lsb.users does not define", key, name)
	if s := lang.Suggest(name, sortedKeys(c.userGroups)); s != "" {
		d.Message += "; did you mean " + quote(s) + "?"
		d.Suggest(replaceWith(s), sp, s)
	}
}

// hostSpecRef checks DEFAULT_HOST_SPEC: a host or a host model.
func (c *compiler) hostSpecRef(st *Setting) {
	name, _ := st.Value.(string)
	if name == "" || !c.has[lang.KindLSFCluster] || !c.has[lang.KindLSFShared] || c.hosts[name] != nil {
		return
	}
	if _, ok := c.models[name]; ok {
		return
	}
	d := c.diags.Add(lang.Error, CodeUnknownModel, st.span, "DEFAULT_HOST_SPEC names %q, which is neither a host of lsf.cluster nor a model of lsf.shared", name)
	if s := lang.Suggest(name, append(sortedKeys(c.hosts), sortedKeys(c.models)...)); s != "" {
		d.Message += "; did you mean " + quote(s) + "?"
	}
}

// queueConflicts reports settings of one queue that exclude each other.
func (c *compiler) queueConflicts(q *Queue) {
	set := q.Settings
	if set["PROCLIMIT"] != nil && set["TASKLIMIT"] != nil {
		c.diags.Add(lang.Warning, CodeConflict, set["PROCLIMIT"].key, "queue %s sets both PROCLIMIT and TASKLIMIT; TASKLIMIT replaces PROCLIMIT, which is ignored", q.Name).
			Note(set["TASKLIMIT"].key, "TASKLIMIT is set here")
	}
	if (set["SLOT_POOL"] == nil) != (set["SLOT_SHARE"] == nil) {
		have, lack := "SLOT_POOL", "SLOT_SHARE"
		if set["SLOT_POOL"] == nil {
			have, lack = lack, have
		}
		c.diags.Add(lang.Error, CodeSlotPool, set[have].key, "queue %s sets %s without %s; a queue joins a slot pool only with both", q.Name, have, lack)
	}
	if q.Preemption != nil && q.Preemption.Preemptable && set.flag("BACKFILL") {
		c.diags.Add(lang.Warning, CodeConflict, set["BACKFILL"].key, "queue %s is both a backfill queue and preemptable; LSF does not backfill preemptable queues", q.Name).
			Note(set["PREEMPTION"].key, "PREEMPTABLE is set here")
	}
	if set["SLOT_RESERVE"] != nil && set["RESOURCE_RESERVE"] != nil {
		c.diags.Add(lang.Warning, CodeConflict, set["SLOT_RESERVE"].key, "queue %s sets both SLOT_RESERVE and RESOURCE_RESERVE; RESOURCE_RESERVE reserves slots too and SLOT_RESERVE is ignored", q.Name).
			Note(set["RESOURCE_RESERVE"].key, "RESOURCE_RESERVE is set here")
	}
	if set["INTERRUPTIBLE_BACKFILL"] != nil && set.flag("BACKFILL") {
		c.diags.Add(lang.Warning, CodeConflict, set["INTERRUPTIBLE_BACKFILL"].key, "queue %s is both a backfill queue and an interruptible backfill queue; LSF takes INTERRUPTIBLE_BACKFILL only in a queue without BACKFILL", q.Name).
			Note(set["BACKFILL"].key, "BACKFILL is set here")
	}
	if len(q.SendTo) > 0 && (mentions(q.Hosts, "allremote") || hasRemote(q.Hosts)) {
		c.diags.Add(lang.Warning, CodeConflict, set["SNDJOBS_TO"].key, "queue %s names remote hosts in HOSTS; LSF ignores SNDJOBS_TO for it", q.Name).
			Note(set["HOSTS"].key, "HOSTS is set here")
	}
	if q.ExclusiveCU != "" && len(c.computeUnits) == 0 && c.has[lang.KindLSBHosts] {
		c.diags.Add(lang.Error, CodeConflict, set["EXCLUSIVE"].span, "EXCLUSIVE=%s needs compute units, and lsb.hosts defines none", q.ExclusiveCU)
	}
}

func hasRemote(items []HostItem) bool {
	for _, it := range items {
		if it.Cluster != "" {
			return true
		}
	}
	return false
}

// crossQueueFairshare checks FAIRSHARE_QUEUES: the parent needs FAIRSHARE,
// a queue belongs to at most one parent-child set, children's own
// FAIRSHARE is ignored, and host partition fairshare cannot coexist with
// queue fairshare.
func (c *compiler) crossQueueFairshare() {
	parentOf := map[string]*Queue{}
	parentSpan := map[string]lang.Span{}
	for _, q := range c.p.Queues {
		st := q.Settings["FAIRSHARE_QUEUES"]
		if st == nil {
			continue
		}
		if q.Fairshare == nil {
			c.diags.Add(lang.Error, CodeConflict, st.key, "queue %s sets FAIRSHARE_QUEUES without FAIRSHARE; cross-queue fairshare needs the share tree in the parent queue", q.Name)
			continue
		}
		for _, w := range words(unparen(st.val)) {
			child := c.queues[w.text]
			if child == nil || child == q {
				continue
			}
			q.FairshareQueues = appendUnique(q.FairshareQueues, child.Name)
			if prev := parentOf[child.Name]; prev != nil && prev != q {
				c.diags.Add(lang.Error, CodeConflict, w.span, "queue %s is already a child of queue %s; a queue belongs to one cross-queue fairshare set", child.Name, prev.Name).
					Note(parentSpan[child.Name], "listed here")
				continue
			}
			parentOf[child.Name] = q
			parentSpan[child.Name] = w.span
			if fs := child.Settings["FAIRSHARE"]; fs != nil {
				c.diags.Add(lang.Warning, CodeConflict, fs.key, "queue %s is a child of queue %s in cross-queue fairshare; LSF ignores its own FAIRSHARE", child.Name, q.Name).
					Note(w.span, "made a child here")
			}
		}
	}
	for _, q := range c.p.Queues {
		if parent := parentOf[q.Name]; parent != nil && q.Settings["FAIRSHARE_QUEUES"] != nil {
			c.diags.Add(lang.Error, CodeConflict, q.Settings["FAIRSHARE_QUEUES"].key, "queue %s is a child of queue %s and cannot lead its own cross-queue fairshare set", q.Name, parent.Name)
		}
	}
	var fairQueue *Queue
	for _, q := range c.p.Queues {
		if q.Fairshare != nil {
			fairQueue = q
			break
		}
	}
	for _, o := range c.p.Sections {
		if o.Name == "HostPartition" && fairQueue != nil && o.Settings["USER_SHARES"] != nil {
			c.diags.Add(lang.Error, CodeConflict, o.Settings["USER_SHARES"].key,
				"host partition fairshare and queue fairshare cannot be used in one cluster").
				Note(fairQueue.Settings["FAIRSHARE"].key, "queue %s uses queue fairshare", fairQueue.Name)
			break
		}
	}
}

func appendUnique(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}

// slotPools checks queue-based fairshare pools: the shares of a pool, its
// queues' host sets, and where MAX_SLOTS_IN_POOL is set.
func (c *compiler) slotPools() {
	pools := map[string][]*Queue{}
	var names []string
	for _, q := range c.p.Queues {
		if q.SlotPool == "" || q.SlotShare == nil {
			continue
		}
		if pools[q.SlotPool] == nil {
			names = append(names, q.SlotPool)
		}
		pools[q.SlotPool] = append(pools[q.SlotPool], q)
	}
	for _, name := range names {
		qs := pools[name]
		first := qs[0]
		sum := 0
		for _, q := range qs {
			sum += *q.SlotShare
		}
		if sum > 100 {
			last := qs[len(qs)-1]
			d := c.diags.Add(lang.Warning, CodeSlotPool, last.Settings["SLOT_SHARE"].span,
				"the SLOT_SHARE of pool %s sums to %d percent; LSF scales the shares down, so no queue gets the share it names", name, sum)
			for _, q := range qs[:len(qs)-1] {
				d.Note(q.Settings["SLOT_SHARE"].span, "queue %s takes %d", q.Name, *q.SlotShare)
			}
		}
		for _, q := range qs[1:] {
			if !slices.Equal(q.HostNames, first.HostNames) {
				c.diags.Add(lang.Error, CodeSlotPool, q.Settings.spanOf("SLOT_POOL"),
					"queue %s is in pool %s but runs on other hosts than queue %s (%s); all queues of a pool must use the same hosts",
					q.Name, name, first.Name, hostDiff(q.HostNames, first.HostNames)).
					Note(first.Settings.spanOf("SLOT_POOL"), "queue %s joins the pool here", first.Name)
			}
			for _, k := range []string{"MAX_SLOTS_IN_POOL", "USE_PRIORITY_IN_POOL"} {
				if st := q.Settings[k]; st != nil {
					c.diags.Add(lang.Warning, CodeSlotPool, st.key, "%s is read from the first queue of a pool only (%s); LSF ignores it in queue %s", k, first.Name, q.Name).
						Note(first.Settings.spanOf("SLOT_POOL"), "the first queue of pool %s", name)
				}
			}
		}
	}
}

// hostDiff describes how two sorted host lists differ.
func hostDiff(a, b []string) string {
	var only, missing []string
	for _, h := range a {
		if _, found := slices.BinarySearch(b, h); !found {
			only = append(only, h)
		}
	}
	for _, h := range b {
		if _, found := slices.BinarySearch(a, h); !found {
			missing = append(missing, h)
		}
	}
	var parts []string
	if len(only) > 0 {
		parts = append(parts, "only it has "+abbrev(only))
	}
	if len(missing) > 0 {
		parts = append(parts, "it lacks "+abbrev(missing))
	}
	return strings.Join(parts, "; ")
}

// abbrev prints at most five names of a list.
func abbrev(names []string) string {
	if len(names) <= 5 {
		return strings.Join(names, " ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:5], " "), len(names)-5)
}

// paramRefs checks the names lsb.params refers to.
func (c *compiler) paramRefs() {
	set := c.p.Params
	if st := set["DEFAULT_QUEUE"]; st != nil {
		for _, w := range words(unparen(st.val)) {
			c.queueRef(w.text, w.span, "DEFAULT_QUEUE")
		}
	}
	if st := set["DEFAULT_APPLICATION"]; st != nil && c.has[lang.KindLSBApplications] {
		if name, _ := st.Value.(string); name != "" && c.apps[name] == nil {
			c.unknownApp(name, st.span, "DEFAULT_APPLICATION")
		}
	}
	if st := set["DEFAULT_USER_GROUP"]; st != nil {
		if name, _ := st.Value.(string); name != "" {
			c.userGroupRef(name, st.span, "DEFAULT_USER_GROUP")
		}
	}
	if st := set["DEFAULT_HOST_SPEC"]; st != nil {
		c.hostSpecRef(st)
	}
}

// userGroupRefs checks lsb.users: cycles among user groups, shares of
// members, and limits of "group@".
func (c *compiler) userGroupRefs() {
	state := map[string]int{}
	var visit func(g *UserGroup, path []string)
	visit = func(g *UserGroup, path []string) {
		state[g.Name] = 1
		path = append(path, g.Name)
		for _, m := range g.Members {
			sub := c.userGroups[m.Name]
			if sub == nil {
				continue
			}
			switch state[sub.Name] {
			case 1:
				i := slices.Index(path, sub.Name)
				c.diags.Add(lang.Error, CodeCycle, m.Span, "user group %q includes itself through %s", sub.Name,
					strings.Join(append(slices.Clone(path[i:]), sub.Name), " -> ")).
					Note(sub.span, "group %s is defined here", sub.Name)
			case 0:
				visit(sub, path)
			}
		}
		state[g.Name] = 2
	}
	for _, g := range c.p.UserGroups {
		if state[g.Name] == 0 {
			visit(g, nil)
		}
		for _, s := range g.Shares {
			name := strings.TrimSuffix(s.Name, "@")
			if EveryUser(name) || name == "others" {
				continue
			}
			if len(g.Members) > 0 && !memberOf(g, "!") && !memberOf(g, name) && !slices.ContainsFunc(g.Members, func(m UserItem) bool { return strings.EqualFold(m.Name, "all") }) {
				c.diags.Add(lang.Warning, CodeUnknownUserGroup, s.Span, "USER_SHARES of group %s gives shares to %q, which is not a member of the group", g.Name, name)
			}
			c.shareRef(s, "USER_SHARES")
		}
	}
	for _, l := range c.p.UserLimits {
		if name, each := strings.CutSuffix(l.User, "@"); each {
			c.userGroupRef(name, l.span, "USER_NAME")
		}
	}
}

func memberOf(g *UserGroup, name string) bool {
	return slices.ContainsFunc(g.Members, func(m UserItem) bool { return m.Name == name && !m.Exclude })
}

// limitRefs checks the names lsb.resources limits use.
func (c *compiler) limitRefs() {
	for _, l := range c.p.Limits {
		set := l.Settings
		for _, k := range []string{"HOSTS", "PER_HOST"} {
			if items, ok := set[k].valueOf().([]HostItem); ok {
				for _, it := range items {
					if it.Cluster == "" {
						c.hostRef(it, k)
					}
				}
			}
		}
		for _, k := range []string{"QUEUES", "PER_QUEUE"} {
			if st := set[k]; st != nil {
				for _, w := range words(unparen(st.val)) {
					if name := strings.TrimPrefix(w.text, "~"); !strings.EqualFold(name, "all") {
						c.queueRef(name, w.span, k)
					}
				}
			}
		}
		for _, k := range []string{"APPS", "PER_APP"} {
			if st := set[k]; st != nil && c.has[lang.KindLSBApplications] {
				for _, w := range words(unparen(st.val)) {
					if name := strings.TrimPrefix(w.text, "~"); !strings.EqualFold(name, "all") && c.apps[name] == nil {
						c.unknownApp(name, w.span, k)
					}
				}
			}
		}
		if pairs, ok := set["RESOURCE"].valueOf().([]Pair); ok {
			for _, p := range pairs {
				if _, _, known := c.env.Lookup(p.Name); !known && c.has[lang.KindLSFShared] {
					var cands []string
					for _, r := range c.env.Resources() {
						if reservable(&r) {
							cands = append(cands, r.Name)
						}
					}
					c.undeclared(p.Name, p.Span, "lsf.shared", "a Limit's RESOURCE", cands)
				}
			}
		}
	}
}

// valueOf returns a setting's value, or nil for a missing setting.
func (s *Setting) valueOf() any {
	if s == nil {
		return nil
	}
	return s.Value
}

// sectionRefs checks the hosts of host partitions and the other sections
// that name hosts, and that a host is in one partition at most.
func (c *compiler) sectionRefs() {
	type owner struct {
		name string
		span lang.Span
	}
	partition := map[string]owner{}
	for _, o := range c.p.Sections {
		items, ok := o.Settings["HOSTS"].valueOf().([]HostItem)
		if !ok {
			continue
		}
		from := map[string]lang.Span{} // host → the item that brings it
		var order []string
		for _, it := range items {
			if it.Exclude || it.Cluster != "" {
				continue
			}
			hosts, _ := c.hostRef(it, "HOSTS")
			for _, h := range hosts {
				if _, seen := from[h]; !seen {
					from[h] = it.Span
					order = append(order, h)
				}
			}
		}
		for _, it := range items {
			if it.Exclude && it.Cluster == "" {
				hosts, _ := c.hostRef(it, "HOSTS")
				for _, h := range hosts {
					delete(from, h)
				}
			}
		}
		if o.Name != "HostPartition" {
			continue
		}
		name := o.Settings.str("HPART_NAME")
		type clash struct {
			d    *lang.Diagnostic
			more int
		}
		clashes := map[string]*clash{} // by the other partition
		var others []string
		for _, h := range order {
			sp, in := from[h]
			if !in {
				continue
			}
			prev, dup := partition[h]
			if !dup {
				partition[h] = owner{name, sp}
				continue
			}
			if cl := clashes[prev.name]; cl != nil {
				cl.more++
				continue
			}
			d := c.diags.Add(lang.Error, CodeConflict, sp, "host %s is in host partitions %s and %s; a host belongs to one partition at most", h, prev.name, name).
				Note(prev.span, "host partition %s takes it here", prev.name)
			clashes[prev.name] = &clash{d: d}
			others = append(others, prev.name)
		}
		for _, p := range others {
			if cl := clashes[p]; cl.more > 0 {
				cl.d.Message += fmt.Sprintf(" (and %d more hosts of both)", cl.more)
			}
		}
		if st := o.Settings["USER_SHARES"]; st != nil {
			shares, _ := st.Value.([]Share)
			for _, s := range shares {
				c.shareRef(s, "USER_SHARES")
			}
		}
	}
}

// unknownApp reports an application profile lsb.applications does not
// define.
func (c *compiler) unknownApp(name string, sp lang.Span, key string) {
	d := c.diags.Add(lang.Error, CodeUnknownApp, sp, "%s names application profile %q, which lsb.applications does not define", key, name)
	if s := lang.Suggest(name, sortedKeys(c.apps)); s != "" {
		d.Message += "; did you mean " + quote(s) + "?"
		d.Suggest(replaceWith(s), sp, s)
	}
}

// absolutePriority checks APS_PRIORITY: LSF ignores FAIRSHARE_QUEUES in
// an APS queue, and the FS factor in a queue without FAIRSHARE.
func (c *compiler) absolutePriority() {
	for _, q := range c.p.Queues {
		st := q.Settings["APS_PRIORITY"]
		if st == nil {
			continue
		}
		a, _ := st.Value.(*APSPriority)
		if fq := q.Settings["FAIRSHARE_QUEUES"]; fq != nil {
			c.diags.Add(lang.Warning, CodeConflict, fq.key, "queue %s sets APS_PRIORITY, so LSF ignores its FAIRSHARE_QUEUES; use QUEUE_GROUP for absolute priority across queues", q.Name).
				Note(st.key, "APS_PRIORITY is set here")
		}
		if a != nil && q.Fairshare == nil && a.Weight["FS"] > 0 {
			sp, ok := a.Spans["FS"]
			if !ok {
				sp = st.key
			}
			c.diags.Add(lang.Warning, CodeConflict, sp, "the FS factor of APS_PRIORITY needs FAIRSHARE in queue %s; LSF ignores it here", q.Name)
		}
	}
}
