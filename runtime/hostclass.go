package runtime

import (
	"cmp"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/lsfc/lsfc/compile"
)

// hostClasses groups hosts whose resource values are identical but for
// their names, so that a select is evaluated once per group rather than
// once per host. A select that reads hname is evaluated per host.
type hostClasses struct {
	of     []int                 // by host index: the host's class
	reps   []*Host               // a host of each class
	values []*compile.HostValues // each class's values (with its rep's name)
	memo   map[*compile.SelectProgram][]int8
	// nameSlot is the slot of hname (-1 when the Env has none); byHost
	// memoizes, per host, the selects that read it.
	nameSlot int
	byHost   map[*compile.SelectProgram][]int8

	// What lets the classes follow the hosts' updates one host at a
	// time: the hosts and Env they were built for, each host's Gen when
	// its class was found, each class's signature and number of hosts,
	// and the class of each signature.
	hosts []*Host
	env   *compile.Env
	gens  []int
	sigs  []string
	count []int
	bySig map[string]int
	live  int
}

// candidates is what the host filters decided for one job class: the
// hosts that may take its jobs, best first, and why the others may not.
type candidates struct {
	// queue is the class's queue, whose HOSTS preferences rank the hosts;
	// req the class's requirement.
	queue *Queue
	req   *Requirement
	// first is the first simple requirement of the class's, whose
	// order[] ranks hosts.
	first *compile.SimpleReq
	hosts []*Host
	// pos gives, by host index, the host's place in hosts, or -1.
	pos []int32
	// reasons gives, by host index, why a host was filtered out.
	reasons []Reason
	// terms holds, per simple requirement of the class, its hosts in the
	// order of its order[] section.
	terms map[*compile.SimpleReq][]*Host
	// summary is the reason most hosts were filtered out for, the jobs'
	// reason when no host is left.
	summary Reason
}

// refresh brings the host classes up to date, and the candidates, when
// the hosts changed since the last cycle (or the cluster is another one).
// When the same hosts are there, only those whose values were updated (a
// load report, the facts or GPUs an agent found) move to the class of
// their new values; the outcomes memoized for a class stay true, since a
// class's values never change. Once the classes no host is in outnumber
// the others, they are built anew. When the only changes were loads, the
// candidates of each class judge and place again the hosts updated
// alone (the host filters judge a host by its own state); after any
// other change they are forgotten.
func (s *Scheduler) refresh(c *cycle) {
	cl := c.cluster
	if s.cluster == cl && s.gen == cl.gen && s.classes.of != nil {
		return
	}
	same := s.cluster == cl && s.classes.sameHosts(cl)
	onlyLoads := same && cl.gen-s.gen == cl.loadGen-s.loadGen
	s.cluster, s.gen, s.loadGen = cl, cl.gen, cl.loadGen
	if !same {
		s.classes = buildHostClasses(cl)
		s.forgetCandidates()
		return
	}
	changed := s.classes.update(cl)
	if len(s.classes.reps) > 2*s.classes.live+64 {
		s.classes = buildHostClasses(cl)
	}
	if !onlyLoads {
		s.forgetCandidates()
		return
	}
	s.followHosts(c, changed)
}

// forgetCandidates drops every class's candidates.
func (s *Scheduler) forgetCandidates() {
	s.cands, s.candsKept = map[*jobClass]*candidates{}, 0
	s.candsByKey = map[string]*candidates{}
}

// followHosts brings the candidates of the classes up to date after the
// loads of the hosts changed (by index) changed: each is judged by the
// host filters again and put in its place among the others, whose order
// stays. The candidates of classes dropped are forgotten.
func (s *Scheduler) followHosts(c *cycle, changed []int) {
	if len(changed) == 0 {
		return
	}
	cl := c.cluster
	moved := make([]bool, len(cl.Hosts))
	for _, i := range changed {
		moved[i] = true
	}
	clear(s.candsByKey)
	for k, cd := range s.cands {
		if k.dropped {
			delete(s.cands, k)
			continue
		}
		s.candsByKey[k.key] = cd
		kept := cd.hosts[:0]
		for _, h := range cd.hosts {
			if !moved[h.Index] {
				kept = append(kept, h)
			}
		}
		clear(cd.hosts[len(kept):])
		cd.hosts = kept
		order := c.rankOrder(cd.queue, cd.first)
		for _, i := range changed {
			h := cl.Hosts[i]
			cd.reasons[i] = s.filter(c, k, h)
			if cd.reasons[i] == ReasonNone {
				at, _ := slices.BinarySearchFunc(cd.hosts, h, order)
				cd.hosts = slices.Insert(cd.hosts, at, h)
			}
		}
		for i := range cd.pos {
			cd.pos[i] = -1
		}
		for i, h := range cd.hosts {
			cd.pos[h.Index] = int32(i)
		}
		cd.summary = summaryOf(cd.reasons)
		clear(cd.terms)
	}
	s.candsKept = min(s.candsKept, len(s.cands))
}

// sameHosts reports whether the classes were built for cl's hosts, in the
// same order, and its Env.
func (hc *hostClasses) sameHosts(cl *Cluster) bool {
	return hc.env == cl.Env && slices.Equal(hc.hosts, cl.Hosts)
}

// update moves each host whose Gen changed to the class of its values,
// and returns the indices of those hosts.
func (hc *hostClasses) update(cl *Cluster) []int {
	var sig strings.Builder
	var changed []int
	for i, h := range cl.Hosts {
		if h.Gen == hc.gens[i] {
			continue
		}
		changed = append(changed, i)
		hc.gens[i] = h.Gen
		v := cl.Env.Values(h.Facts)
		key := hc.signature(&sig, v)
		if key == hc.sigs[i] {
			continue
		}
		old := hc.of[i]
		if hc.count[old]--; hc.count[old] == 0 {
			hc.live--
		}
		hc.sigs[i] = key
		hc.of[i] = hc.classOf(key, h, v)
		for _, memo := range hc.byHost {
			memo[i] = 0
		}
	}
	return changed
}

// classOf returns the class of a signature, making it with h as its
// representative when there is none, and counts h in it.
func (hc *hostClasses) classOf(key string, h *Host, v *compile.HostValues) int {
	ci, ok := hc.bySig[key]
	if !ok {
		ci = len(hc.reps)
		hc.bySig[key] = ci
		hc.reps = append(hc.reps, h)
		hc.values = append(hc.values, v)
		hc.count = append(hc.count, 0)
	}
	if hc.count[ci] == 0 {
		hc.live++
	}
	hc.count[ci]++
	return ci
}

// signature returns what tells a host's values apart from another's, but
// for its name.
func (hc *hostClasses) signature(sig *strings.Builder, v *compile.HostValues) string {
	sig.Reset()
	var buf [32]byte
	for k := range v.Num {
		if v.Has[k] && k != hc.nameSlot {
			sig.Write(strconv.AppendFloat(buf[:0], v.Num[k], 'g', -1, 64))
			sig.WriteByte('|')
			sig.WriteString(v.Str[k])
		}
		sig.WriteByte(0)
	}
	return sig.String()
}

// prune forgets the candidates of the job classes the cluster dropped,
// and the outcomes of the selects that neither a class left nor a queue's
// STOP_COND or RESUME_COND has, once the candidates have doubled since
// they were last pruned: while the hosts stay the same, these caches
// would otherwise keep every requirement ever seen. The cost is O(1)
// amortized per class; a select forgotten and met again is evaluated
// anew, to the same outcome.
func (s *Scheduler) prune(cl *Cluster) {
	if len(s.cands) < 2*s.candsKept+64 {
		return
	}
	keep := map[*compile.SelectProgram]bool{}
	// The candidates of classes dropped go, also from candsByKey, which
	// keeps them for a class made again with the same key.
	clear(s.candsByKey)
	for k, cd := range s.cands {
		if k.dropped {
			delete(s.cands, k)
			continue
		}
		s.candsByKey[k.key] = cd
		if k.req != nil {
			selectsOf(k.req.C, keep)
		}
	}
	for _, q := range cl.Queues {
		if q.Def != nil {
			selectsOf(q.Def.StopCond, keep)
			selectsOf(q.Def.ResumeCond, keep)
		}
	}
	unkept := func(p *compile.SelectProgram, _ []int8) bool { return !keep[p] }
	maps.DeleteFunc(s.classes.memo, unkept)
	maps.DeleteFunc(s.classes.byHost, unkept)
	s.candsKept = len(s.cands)
}

// selectsOf adds to set the select programs of a requirement's terms.
func selectsOf(r *compile.Requirement, set map[*compile.SelectProgram]bool) {
	if r == nil {
		return
	}
	for _, alt := range r.Alts {
		for _, t := range alt {
			if t.Simple != nil && t.Simple.Select != nil {
				set[t.Simple.Select] = true
			}
		}
	}
}

// buildHostClasses groups the hosts by their values.
func buildHostClasses(cl *Cluster) hostClasses {
	n := len(cl.Hosts)
	hc := hostClasses{of: make([]int, n), memo: map[*compile.SelectProgram][]int8{}, nameSlot: -1,
		hosts: slices.Clone(cl.Hosts), env: cl.Env, gens: make([]int, n), sigs: make([]string, n), bySig: map[string]int{}}
	if _, slot, ok := cl.Env.Lookup("hname"); ok {
		hc.nameSlot = slot
	}
	var sig strings.Builder
	for i, h := range cl.Hosts {
		v := cl.Env.Values(h.Facts)
		key := hc.signature(&sig, v)
		hc.gens[i], hc.sigs[i] = h.Gen, key
		hc.of[i] = hc.classOf(key, h, v)
	}
	return hc
}

// matches reports whether a select holds on a host, evaluating it once
// per host class.
func (c *cycle) matches(p *compile.SelectProgram, h *Host) bool {
	if p == nil {
		return true
	}
	hc := &c.s.classes
	if hc.nameSlot >= 0 && slices.Contains(p.Refs, hc.nameSlot) {
		return c.matchesByName(p, h)
	}
	memo := hc.memo[p]
	if len(memo) < len(hc.reps) {
		// Classes made since the select was first met are unknown to it.
		memo = append(memo, make([]int8, len(hc.reps)-len(memo))...)
		hc.memo[p] = memo
	}
	ci := hc.of[h.Index]
	if memo[ci] == 0 {
		c.plan.Stats.Evaluations++
		if p.Match(hc.values[ci]) {
			memo[ci] = 1
		} else {
			memo[ci] = -1
		}
	}
	return memo[ci] == 1
}

// matchesByName evaluates a select that reads the host name, once per
// host: the host's class values with its own name.
func (c *cycle) matchesByName(p *compile.SelectProgram, h *Host) bool {
	hc := &c.s.classes
	if hc.byHost == nil {
		hc.byHost = map[*compile.SelectProgram][]int8{}
	}
	memo := hc.byHost[p]
	if memo == nil {
		memo = make([]int8, len(hc.of))
		hc.byHost[p] = memo
	}
	if memo[h.Index] == 0 {
		c.plan.Stats.Evaluations++
		if p.Match(hc.named(h)) {
			memo[h.Index] = 1
		} else {
			memo[h.Index] = -1
		}
	}
	return memo[h.Index] == 1
}

// named returns the values of a host's class with the host's own name.
func (hc *hostClasses) named(h *Host) *compile.HostValues {
	base := hc.values[hc.of[h.Index]]
	if base.Name == h.Name {
		return base
	}
	v := *base
	v.Name = h.Name
	if hc.nameSlot >= 0 {
		v.Str = slices.Clone(base.Str)
		v.Str[hc.nameSlot] = h.Name
	}
	return &v
}

// selects reports whether some term of some alternative of the class's
// requirement selects the host.
func (c *cycle) selects(k *jobClass, h *Host) bool {
	for _, alt := range k.req.alts() {
		for _, t := range alt {
			if t.Simple == nil || c.matches(t.Simple.Select, h) {
				return true
			}
		}
	}
	return len(k.req.alts()) == 0
}

// loadUnavailable reports whether the select of the class reads a load
// index (a built-in dynamic resource: mem, r15s, ut ...) the host does
// not report, as a host of the configuration that no agent stands for:
// LSF's reason for the host is then that its load is unavailable, not
// that the requirement fails on it.
func (c *cycle) loadUnavailable(k *jobClass, h *Host) bool {
	env := c.cluster.Env
	if env == nil {
		return false
	}
	for _, alt := range k.req.alts() {
		for _, t := range alt {
			if t.Simple == nil || t.Simple.Select == nil {
				continue
			}
			for _, slot := range t.Simple.Select.Refs {
				if r := env.At(slot); r.Builtin && r.Dynamic {
					if _, ok := h.Facts.Load[r.Name]; !ok {
						return true
					}
				}
			}
		}
	}
	return false
}

// candidatesFor returns the hosts the host filters let a class use,
// computed once while the hosts stay the same.
func (s *Scheduler) candidatesFor(c *cycle, k *jobClass) *candidates {
	if cd := s.cands[k]; cd != nil {
		return cd
	}
	// A class made again after it was dropped (its last job left) is
	// what it was: its key names its queue, requirement, account, asked
	// hosts and other traits, and the hosts have not changed since.
	if cd := s.candsByKey[k.key]; cd != nil && cd.queue == k.queue && cd.req == k.req {
		s.cands[k] = cd
		return cd
	}
	cl := c.cluster
	cd := &candidates{queue: k.queue, req: k.req, pos: make([]int32, len(cl.Hosts)), reasons: make([]Reason, len(cl.Hosts)),
		terms: map[*compile.SimpleReq][]*Host{}, hosts: make([]*Host, 0, len(cl.Hosts))}
	for _, h := range cl.Hosts {
		cd.pos[h.Index] = -1
		if cd.reasons[h.Index] = s.filter(c, k, h); cd.reasons[h.Index] == ReasonNone {
			cd.hosts = append(cd.hosts, h)
		}
	}
	cd.summary = summaryOf(cd.reasons)
	if alts := k.req.alts(); len(alts) > 0 && len(alts[0]) > 0 {
		cd.first = alts[0][0].Simple
	}
	cd.hosts = c.rank(k.queue, cd.first, cd.hosts)
	for i, h := range cd.hosts {
		cd.pos[h.Index] = int32(i)
	}
	s.cands[k] = cd
	s.candsByKey[k.key] = cd
	return cd
}

// filter returns why the host filters keep a class's jobs off a host,
// ReasonNone when none does.
func (s *Scheduler) filter(c *cycle, k *jobClass, h *Host) Reason {
	for _, f := range s.Plugins.HostFilters {
		if r := f.Filter(CycleState{c}, ClassInfo{k}, HostInfo{h}); r != ReasonNone {
			return r
		}
	}
	return ReasonNone
}

// summaryOf returns the reason most hosts were filtered out for
// (ReasonNoHosts when none was).
func summaryOf(reasons []Reason) Reason {
	var counts [reasonCount]int
	for _, r := range reasons {
		if r != ReasonNone && r < reasonCount {
			counts[r]++
		}
	}
	summary, best := ReasonNoHosts, 0
	for r := ReasonNone; r < reasonCount; r++ {
		if counts[r] > best {
			summary, best = r, counts[r]
		}
	}
	return summary
}

// termHosts returns the candidates of a class that a simple requirement
// selects, in the order of its order[] section.
func (c *cycle) termHosts(cd *candidates, sr *compile.SimpleReq) []*Host {
	if sr == nil {
		return cd.hosts
	}
	if hs, ok := cd.terms[sr]; ok {
		return hs
	}
	var hs []*Host
	// A select that reads what the cycle changes is judged by
	// currentSlots, on the values of the moment.
	dynamic := c.readsSlots(sr.Select)
	for _, h := range cd.hosts {
		if dynamic || c.matches(sr.Select, h) {
			hs = append(hs, h)
		}
	}
	hs = c.rank(cd.queue, sr, hs)
	cd.terms[sr] = hs
	return hs
}

// rank orders hosts for a queue's job: by the preference the queue's HOSTS
// gives them (higher first), then by a requirement's order[] keys (LSF's
// r15s:pg when it has none): the leftmost key decides, the others break
// ties; a host without a value comes after those with one; then by name.
func (c *cycle) rank(q *Queue, sr *compile.SimpleReq, hosts []*Host) []*Host {
	out := slices.Clone(hosts)
	slices.SortStableFunc(out, c.rankOrder(q, sr))
	return out
}

// rankOrder returns the order rank sorts hosts in; no two hosts are
// equal in it, as their names differ.
func (c *cycle) rankOrder(q *Queue, sr *compile.SimpleReq) func(a, b *Host) int {
	env := c.cluster.Env
	var keys []compile.OrderKey
	if sr != nil {
		keys = sr.Order
	}
	if len(keys) == 0 {
		for _, name := range []string{"r15s", "pg"} {
			if r, slot, ok := env.Lookup(name); ok {
				keys = append(keys, compile.OrderKey{Slot: slot, Name: r.Name, Ascending: true})
			}
		}
	}
	hc := &c.s.classes
	return func(a, b *Host) int {
		if d := cmp.Compare(q.HostPref(b), q.HostPref(a)); d != 0 {
			return d
		}
		va, vb := hc.values[hc.of[a.Index]], hc.values[hc.of[b.Index]]
		for _, k := range keys {
			x, y := va.Num[k.Slot], vb.Num[k.Slot]
			xn, yn := math.IsNaN(x), math.IsNaN(y)
			switch {
			case xn && yn:
				continue
			case xn:
				return 1
			case yn:
				return -1
			}
			if x != y {
				if k.Ascending {
					return cmp.Compare(x, y)
				}
				return cmp.Compare(y, x)
			}
		}
		return strings.Compare(a.Name, b.Name)
	}
}
