package compile

import (
	"fmt"
	"math"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/lsfc/lsfc/lang"
)

// MatchOptions configure Match.
type MatchOptions struct {
	// Slots is the number of job slots the job asks for (bsub -n);
	// 0 means 1.
	Slots int
	// Explain fills MatchResult.Hosts and Clauses: every host with its
	// verdict on each term of the alternative explained, and a count per
	// part of the requirement. Without it only Matched is filled (and
	// Verdict when nothing matches).
	Explain bool
}

// A MatchResult is the outcome of testing a requirement against hosts.
type MatchResult struct {
	// Matched are the indices (in the HostTable) of the hosts that satisfy
	// the requirement, best first.
	Matched []int
	// Hosts are all hosts tested, in table order, each with one verdict
	// per term; filled only with MatchOptions.Explain.
	Hosts []*HostMatch
	// Clauses count, for each part of the requirement, the hosts that
	// satisfy it on its own.
	Clauses []ClauseCount
	// Alt is the index of the alternative that matched, or -1.
	Alt int
	// Explained is the index of the alternative Hosts and Clauses
	// explain: the one that matched, else the first.
	Explained int
	// Verdict, when no host matches, tells why: VerdictNever or
	// VerdictNow.
	Verdict Verdict
	// Placement is not empty when span[] or same[] could not be met by
	// the matching hosts: it says why.
	Placement string
}

// Verdict says why a requirement matches no host.
type Verdict uint8

// The verdicts.
const (
	VerdictMatch Verdict = iota
	// VerdictNever: every host fails on static facts (type, model,
	// configured resources): no change of load will help.
	VerdictNever
	// VerdictNow: some host fails only on load, reservations or status:
	// the requirement may be met later.
	VerdictNow
)

func (v Verdict) String() string {
	switch v {
	case VerdictNever:
		return "never satisfiable on these hosts"
	case VerdictNow:
		return "not satisfiable now (load or reservations)"
	}
	return "satisfiable"
}

// A HostMatch is the outcome for one host.
type HostMatch struct {
	Host   *Host
	Values *HostValues
	// OK is true when the host takes part in the job for some term.
	OK bool
	// Terms hold the host's verdict for each term of the alternative
	// explained, in order: exactly one per term (one for a simple
	// requirement).
	Terms []TermVerdict
	// Slots is the number of slots the host can give (free slots, or 1
	// when unknown).
	Slots int
}

// A TermVerdict is one host's outcome for one term of a requirement.
type TermVerdict struct {
	// Term is the term's number, from 1.
	Term    int
	Outcome Outcome
	// Reasons say why: every part the host fails (OutcomeRejected), or
	// the one placement rule that left it out (OutcomeUnplaced); none
	// when the host is used.
	Reasons []Reason
}

// Outcome is what became of a host for one term.
type Outcome uint8

// The outcomes.
const (
	// OutcomeUsed: the host satisfies the term and the job is placed on
	// it.
	OutcomeUsed Outcome = iota
	// OutcomeUnplaced: the host satisfies every part of the term, but
	// span[] or same[] leaves it out of the placement.
	OutcomeUnplaced
	// OutcomeRejected: the host fails some part of the term.
	OutcomeRejected
)

func (o Outcome) String() string {
	switch o {
	case OutcomeUnplaced:
		return "not placed"
	case OutcomeRejected:
		return "rejected"
	}
	return "matches"
}

// A Reason is one failed part of a requirement on one host.
type Reason struct {
	// Part is the clause or section that failed, as written.
	Part string
	// Values shows the host's values of the resources the part reads.
	Values string
	// Static is true when the part depends only on static host facts.
	Static bool
}

// A ClauseCount is how many hosts satisfy one part of a requirement.
type ClauseCount struct {
	Part    string
	Matches int
	Static  bool
}

// A HostTable holds hosts with their value tables for one Env, built once
// and matched against many requirements. It caches the ranking of its
// hosts by each order[] it has seen, so that requirements sharing an
// order pay for one sort.
type HostTable struct {
	Hosts  []*Host
	Values []*HostValues

	mu    sync.Mutex
	ranks map[string][]int
}

// Table builds the value tables of hosts, all in a few contiguous arrays
// so that evaluating a select over every host walks memory in order.
func (e *Env) Table(hosts []*Host) *HostTable {
	n := len(e.res)
	num := make([]float64, n*len(hosts))
	avail := make([]float64, n*len(hosts))
	str := make([]string, n*len(hosts))
	has := make([]bool, n*len(hosts))
	vals := make([]HostValues, len(hosts))
	t := &HostTable{Hosts: hosts, Values: make([]*HostValues, len(hosts))}
	for i, h := range hosts {
		lo, hi := i*n, (i+1)*n
		v := &vals[i]
		v.Num, v.Avail, v.Str, v.Has = num[lo:hi:hi], avail[lo:hi:hi], str[lo:hi:hi], has[lo:hi:hi]
		e.fill(h, v)
		t.Values[i] = v
	}
	return t
}

// Match tests req against the hosts of t (built by this Env) and returns
// the matching hosts, best first by the requirement's order[] (LSF's
// default r15s:pg when it has none), with, when opts.Explain is set, a
// verdict for every host on every term. Alternatives are tried left to
// right, and the first that matches is explained (the first of all when
// none does); a compound requirement matches when every term finds its
// slots.
func (e *Env) Match(req *Requirement, t *HostTable, opts MatchOptions) *MatchResult {
	slots := max(1, opts.Slots)
	var first *MatchResult
	for i, alt := range req.Alts {
		res := e.matchAlt(alt, t, slots, opts.Explain)
		if len(res.Matched) == 0 && !opts.Explain {
			// Say why: the explaining pass sets the verdict.
			res = e.matchAlt(alt, t, slots, true)
		}
		res.Alt, res.Explained = -1, i
		if len(res.Matched) > 0 {
			res.Alt = i
			return res
		}
		if first == nil {
			first = res
		}
	}
	if first == nil { // the empty requirement: every host
		first = e.matchSimple(&SimpleReq{AST: &lang.Simple{}}, t, slots, opts.Explain)
		first.Alt = 0
	}
	return first
}

// matchAlt tests one alternative: a list of terms sharing the hosts.
func (e *Env) matchAlt(terms []*TermReq, t *HostTable, slots int, explain bool) *MatchResult {
	if len(terms) == 1 {
		return e.matchSimple(terms[0].Simple, t, slots, explain)
	}
	// A compound requirement: each term needs its count of slots among
	// the hosts it matches.
	var out *MatchResult
	var placement []string
	for i, term := range terms {
		r := e.matchSimple(term.Simple, t, max(1, term.Count), true)
		for j := range r.Clauses {
			r.Clauses[j].Part = fmt.Sprintf("term %d: %s", i+1, r.Clauses[j].Part)
		}
		free := 0
		for _, m := range r.Matched {
			free += t.Values[m].FreeSlots
		}
		if free < term.Count {
			placement = append(placement, fmt.Sprintf("term %d needs %d slots, its hosts have %d", i+1, term.Count, free))
		}
		if out == nil {
			out = r
			continue
		}
		out.Clauses = append(out.Clauses, r.Clauses...)
		for k, hm := range out.Hosts {
			tv := r.Hosts[k].Terms[0]
			tv.Term = i + 1
			hm.Terms = append(hm.Terms, tv)
			hm.OK = hm.OK || r.Hosts[k].OK
		}
		out.Matched = unionMatched(out.Matched, r.Matched)
	}
	if len(placement) > 0 {
		out.Placement = strings.Join(placement, "; ")
		out.Matched = nil
		out.Verdict = VerdictNow
		// No host takes part in a job that cannot be placed.
		for _, hm := range out.Hosts {
			hm.OK = false
			for k, tv := range hm.Terms {
				if tv.Outcome == OutcomeUsed {
					hm.Terms[k] = TermVerdict{Term: tv.Term, Outcome: OutcomeUnplaced,
						Reasons: []Reason{{Part: "placement", Values: out.Placement}}}
				}
			}
		}
	}
	return out
}

func unionMatched(a, b []int) []int {
	seen := map[int]bool{}
	for _, m := range a {
		seen[m] = true
	}
	for _, m := range b {
		if !seen[m] {
			a = append(a, m)
		}
	}
	return a
}

// matchSimple tests a simple requirement. Without explain it evaluates the
// whole select once per host and allocates only for the matching hosts.
func (e *Env) matchSimple(s *SimpleReq, t *HostTable, slots int, explain bool) *MatchResult {
	res := &MatchResult{}
	rank := e.rank(t, s.Order)
	if !explain {
		// Evaluate in host order (memory order), then list in rank order.
		ok := make([]bool, len(t.Hosts))
		n := e.evalHosts(s, t.Values, ok)
		res.Matched = make([]int, 0, n)
		for _, i := range rank {
			if ok[i] {
				res.Matched = append(res.Matched, i)
			}
		}
		e.place(s, t, res, slots)
		return res
	}
	var clauses []*Clause
	if s.Select != nil {
		clauses = s.Select.Clauses
	}
	counts := make([]int, len(clauses))
	rusageCount, statusCount, slotCount := 0, 0, 0
	for i, h := range t.Hosts {
		v := t.Values[i]
		hm := &HostMatch{Host: h, Values: v, OK: true, Slots: freeSlots(h)}
		var reasons []Reason
		for c, cl := range clauses {
			if cl.Match(v) {
				counts[c]++
				continue
			}
			reasons = append(reasons, Reason{Part: cl.Text, Values: e.showValuesIn(v, cl.Refs, literalUnit(cl.Expr)), Static: cl.Static})
		}
		if e.rusageFits(s.Rusage, v) {
			rusageCount++
		} else {
			reasons = append(reasons, e.rusageReason(s.Rusage, h, v))
		}
		if usable(h) {
			statusCount++
		} else {
			reasons = append(reasons, Reason{Part: "host status", Values: "status=" + status(h)})
		}
		if hm.Slots > 0 {
			slotCount++
		} else {
			reasons = append(reasons, Reason{Part: "a free job slot", Values: "slots=0"})
		}
		tv := TermVerdict{Term: 1}
		if len(reasons) > 0 {
			hm.OK = false
			tv = TermVerdict{Term: 1, Outcome: OutcomeRejected, Reasons: reasons}
		}
		hm.Terms = []TermVerdict{tv}
		res.Hosts = append(res.Hosts, hm)
	}
	for _, i := range rank {
		if res.Hosts[i].OK {
			res.Matched = append(res.Matched, i)
		}
	}
	for c, cl := range clauses {
		res.Clauses = append(res.Clauses, ClauseCount{Part: "select[" + cl.Text + "]", Matches: counts[c], Static: cl.Static})
	}
	if s.Rusage != nil {
		res.Clauses = append(res.Clauses, ClauseCount{Part: rusageText(s), Matches: rusageCount})
	}
	res.Clauses = append(res.Clauses,
		ClauseCount{Part: "host status ok", Matches: statusCount},
		ClauseCount{Part: "a free job slot", Matches: slotCount})
	candidates := res.Matched
	left := e.place(s, t, res, slots)
	placed := make(map[int]bool, len(res.Matched))
	for _, i := range res.Matched {
		placed[i] = true
	}
	for _, i := range candidates {
		if placed[i] {
			continue
		}
		hm := res.Hosts[i]
		hm.OK = false
		why := left[i]
		if why.Part == "" {
			why = Reason{Part: "placement", Values: res.Placement}
		}
		hm.Terms[0] = TermVerdict{Term: 1, Outcome: OutcomeUnplaced, Reasons: []Reason{why}}
	}
	if len(res.Matched) == 0 && res.Verdict == VerdictMatch {
		res.Verdict = VerdictNever
		for _, hm := range res.Hosts {
			if !hm.OK && !anyStatic(hm.Terms[0].Reasons) {
				res.Verdict = VerdictNow
			}
		}
	}
	return res
}

// parallelHosts is the table size from which evalHosts splits the work
// between goroutines.
const parallelHosts = 4096

// evalHosts sets ok[i] for every host that passes s's select, status, free
// slots and rusage, and returns how many do. Large tables are split across
// the CPUs; each goroutine writes its own part of ok.
func (e *Env) evalHosts(s *SimpleReq, values []*HostValues, ok []bool) int {
	eval := func(lo, hi int) int {
		n := 0
		for i := lo; i < hi; i++ {
			v := values[i]
			if v.Usable && v.FreeSlots > 0 && (s.Select == nil || s.Select.Match(v)) && e.rusageFits(s.Rusage, v) {
				ok[i] = true
				n++
			}
		}
		return n
	}
	parts := min(runtime.GOMAXPROCS(0), len(values)/parallelHosts)
	if parts < 2 {
		return eval(0, len(values))
	}
	counts := make([]int, parts)
	var wg sync.WaitGroup
	for p := range parts {
		lo, hi := p*len(values)/parts, (p+1)*len(values)/parts
		wg.Add(1)
		go func() {
			defer wg.Done()
			counts[p] = eval(lo, hi)
		}()
	}
	wg.Wait()
	n := 0
	for _, c := range counts {
		n += c
	}
	return n
}

// freeSlots returns the free job slots of h, 1 when unknown.
func freeSlots(h *Host) int {
	if h.Slots < 0 {
		return 1
	}
	return int(h.Slots)
}

// usable reports whether h's status lets it take jobs: ok or busy, also
// with lsload's "-" prefix (the host's RES is down, which batch jobs do
// not need).
func usable(h *Host) bool {
	st := strings.TrimPrefix(status(h), "-")
	return st == "ok" || st == "busy"
}

func anyStatic(rs []Reason) bool {
	for _, r := range rs {
		if r.Static {
			return true
		}
	}
	return false
}

func status(h *Host) string {
	if h.Status == "" {
		return "ok"
	}
	return h.Status
}

func rusageText(s *SimpleReq) string {
	if sec := s.AST.Section(lang.SecRusage); sec != nil {
		return sec.String()
	}
	return "rusage[]"
}

// showValues prints a host's values of the given slots: "mem=1000M
// type=X86_64 gpu=undefined", memory in the unit of bare numbers.
func (e *Env) showValues(v *HostValues, slots []int) string {
	return e.showValuesIn(v, slots, nil)
}

// literalUnit returns the unit of the first number of x written with a
// memory unit ("100G" in "mem > 100G"), or nil when it has none: a
// clause's values are shown in the unit its numbers are written in.
func literalUnit(x lang.Expr) *Unit {
	switch x := x.(type) {
	case *lang.Literal:
		if x.Kind == lang.LitNumber && x.Unit != "" {
			if u, ok := memSuffixUnit(x.Unit, MB); ok {
				return &u
			}
		}
	case *lang.Binary:
		if u := literalUnit(x.X); u != nil {
			return u
		}
		return literalUnit(x.Y)
	case *lang.Unary:
		return literalUnit(x.X)
	case *lang.Paren:
		return literalUnit(x.X)
	}
	return nil
}

// showValuesIn is showValues with memory in unit, when not nil.
func (e *Env) showValuesIn(v *HostValues, slots []int, unit *Unit) string {
	parts := make([]string, 0, len(slots))
	for _, s := range slots {
		r := e.res[s]
		switch {
		case r.Type == Boolean:
			parts = append(parts, fmt.Sprintf("%s=%v", r.Name, v.Has[s]))
		case !v.Has[s]:
			parts = append(parts, r.Name+" undefined")
		case r.Type == String:
			parts = append(parts, fmt.Sprintf("%s=%s", r.Name, v.Str[s]))
		default:
			x := e.FormatValue(&r, v.Num[s])
			if mb, ok := e.megabytes(&r, v.Num[s]); ok && unit != nil {
				x = FormatMemoryIn(mb, *unit)
			}
			parts = append(parts, fmt.Sprintf("%s=%s", r.Name, x))
		}
	}
	return strings.Join(parts, " ")
}

func formatNum(x float64) string {
	if math.Abs(x) < 1e15 {
		return strconv.FormatFloat(math.Round(x*1000)/1000, 'f', -1, 64)
	}
	return strconv.FormatFloat(x, 'g', 6, 64)
}

// rusageFits reports whether one of the rusage alternatives fits on the
// host: for every amount, the available amount (see HostValues.Avail) is
// at least the amount. An amount whose availability is unknown fits.
func (e *Env) rusageFits(alts [][]*UsageReq, v *HostValues) bool {
	if len(alts) == 0 {
		return true
	}
	for _, alt := range alts {
		if fitsAlt(alt, v) {
			return true
		}
	}
	return false
}

func fitsAlt(alt []*UsageReq, v *HostValues) bool {
	for _, u := range alt {
		for _, a := range u.Amounts {
			if avail := v.Avail[a.Slot]; avail < a.Value { // false for NaN
				return false
			}
		}
	}
	return true
}

// rusageReason explains why no rusage alternative fits: for each amount
// of the first alternative that does not fit, what is available beside
// what the job reserves, memory in one unit.
func (e *Env) rusageReason(alts [][]*UsageReq, h *Host, v *HostValues) Reason {
	var shown []string
	for _, u := range alts[0] {
		for _, a := range u.Amounts {
			avail := v.Avail[a.Slot]
			if math.IsNaN(avail) || avail >= a.Value {
				continue
			}
			want, have := e.FormatAmounts(&e.res[a.Slot], a.Value, avail)
			shown = append(shown, fmt.Sprintf("%s available %s, the job reserves %s", a.Name, have, want))
		}
	}
	return Reason{Part: "rusage", Values: strings.Join(shown, ", ")}
}

// FormatValue formats x, a value of r in the Env's units, the way it is
// compared with the bare numbers of a select: an amount of memory in the
// unit those numbers are in, with its letter ("175308.8M" when
// LSF_UNIT_FOR_LIMITS is MB); other values as plain numbers.
func (e *Env) FormatValue(r *Resource, x float64) string {
	if mb, ok := e.megabytes(r, x); ok {
		return FormatMemoryIn(mb, e.unitOf(r))
	}
	return formatNum(x)
}

// FormatAmount formats x, an amount of the resource in slot in the Env's
// units, as a reservation is shown: memory with FormatMemory ("3.9G"),
// other amounts as plain numbers. A slot out of range prints the number.
func (e *Env) FormatAmount(slot int, x float64) string {
	if slot < 0 || slot >= len(e.res) {
		return formatNum(x)
	}
	if mb, ok := e.megabytes(&e.res[slot], x); ok {
		return FormatMemory(mb)
	}
	return formatNum(x)
}

// FormatAmounts formats two amounts of r, in the Env's units, that one
// message compares: amounts of memory both in the unit FormatMemoryPair
// picks for a, each with its unit letter; other amounts as plain numbers.
func (e *Env) FormatAmounts(r *Resource, a, b float64) (string, string) {
	amb, ok := e.megabytes(r, a)
	if !ok {
		return formatNum(a), formatNum(b)
	}
	bmb, _ := e.megabytes(r, b)
	return FormatMemoryPair(amb, bmb)
}

// unitOf returns the unit bare numbers of the memory resource r are in.
func (e *Env) unitOf(r *Resource) Unit {
	if isTmp(r.Name) && !e.TmpUnit {
		return MB
	}
	return e.Unit
}

// megabytes converts x, a value of r in the Env's units, to megabytes,
// and reports whether r is an amount of memory: mem, swp, maxmem, maxswp
// and site resources declared as memory follow LSF_UNIT_FOR_LIMITS; tmp
// and maxtmp are in MB unless LSF_ENABLE_TMP_UNIT makes them follow it
// too.
func (e *Env) megabytes(r *Resource, x float64) (float64, bool) {
	switch {
	case r.Memory, isTmp(r.Name) && e.TmpUnit:
		return x * e.Unit.Megabytes(), true
	case isTmp(r.Name):
		return x, true
	}
	return x, false
}

// available returns how much of the resource in slot is free on h, in the
// Env's units, and whether it is known.
func (e *Env) available(slot int, h *Host, v *HostValues) (float64, bool) {
	r := e.res[slot]
	conv := 1.0
	if r.Memory || (isTmp(r.Name) && e.TmpUnit) {
		conv = 1 / e.Unit.Megabytes()
	}
	reserved := h.Reserved[r.Name] * conv
	configured := -1.0
	switch r.Name {
	case "mem":
		configured = h.Maxmem
	case "swp":
		configured = h.Maxswp
	case "tmp":
		configured = h.Maxtmp
	}
	if configured > 0 {
		configured *= conv
	}
	if r.Dynamic {
		load, ok := h.Load[r.Name]
		if !ok {
			return 0, false
		}
		if !r.Memory && !isTmp(r.Name) && r.Builtin {
			return 0, false // r1m, ut, ...: a reservation adjusts load; no capacity to check
		}
		load *= conv
		if configured > 0 {
			used := configured - load
			return configured - math.Max(reserved, used), true
		}
		return load - reserved, true
	}
	if !v.Has[slot] {
		return 0, true // the host does not have the resource at all
	}
	used := h.Load[r.Name] * conv
	return v.Num[slot] - math.Max(reserved, used), true
}

// rank returns the indices of t's hosts, best first by keys (LSF's default
// r15s:pg when nil), cached per key list. LSF sorts by each key in turn
// from the right, so the leftmost key decides and the others break ties;
// a host without a value comes after hosts with one; hosts whose status
// is not ok come last; remaining ties go by name.
func (e *Env) rank(t *HostTable, keys []OrderKey) []int {
	if keys == nil {
		keys = e.defaultOrder()
	}
	var id strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&id, "%d:%v;", k.Slot, k.Ascending)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if r, ok := t.ranks[id.String()]; ok {
		return r
	}
	order := make([]int, len(t.Hosts))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		i, j := order[a], order[b]
		if oi, oj := status(t.Hosts[i]) == "ok", status(t.Hosts[j]) == "ok"; oi != oj {
			return oi
		}
		vi, vj := t.Values[i], t.Values[j]
		for _, k := range keys {
			hi, hj := vi.Has[k.Slot], vj.Has[k.Slot]
			if hi != hj {
				return hi
			}
			if !hi || vi.Num[k.Slot] == vj.Num[k.Slot] {
				continue
			}
			if k.Ascending {
				return vi.Num[k.Slot] < vj.Num[k.Slot]
			}
			return vi.Num[k.Slot] > vj.Num[k.Slot]
		}
		return t.Hosts[i].Name < t.Hosts[j].Name
	})
	if t.ranks == nil {
		t.ranks = map[string][]int{}
	}
	t.ranks[id.String()] = order
	return order
}

// defaultOrder is LSF's order for jobs that give none: r15s:pg.
func (e *Env) defaultOrder() []OrderKey {
	var keys []OrderKey
	for _, n := range []string{"r15s", "pg"} {
		if r, slot, ok := e.Lookup(n); ok {
			keys = append(keys, OrderKey{Slot: slot, Name: n, Ascending: r.Increasing})
		}
	}
	return keys
}

// place applies span[] and same[] to the matching hosts for a job of
// slots slots: it keeps the hosts that can take part (span[hosts=1]: those
// with all the slots free; otherwise those with a free slot), then the
// best group of same[] that can hold the job. It returns, for the
// matching hosts it leaves out while the job is placed, why; when the job
// cannot be placed, res.Placement says why instead.
func (e *Env) place(s *SimpleReq, t *HostTable, res *MatchResult, slots int) map[int]Reason {
	if len(res.Matched) == 0 {
		return nil
	}
	groups := [][]int{res.Matched}
	var keys []string
	if len(s.Same) > 0 {
		byKey := map[string]int{}
		groups = nil
		for _, i := range res.Matched { // best first, so groups are too
			k := e.showValues(t.Values[i], s.Same)
			g, ok := byKey[k]
			if !ok {
				g = len(groups)
				byKey[k] = g
				groups = append(groups, nil)
				keys = append(keys, k)
			}
			groups[g] = append(groups[g], i)
		}
	}
	var why string
	for gi, g := range groups {
		hosts, left, reason := spanFits(s.Span, t, g, slots)
		if reason != "" {
			if why == "" {
				why = reason
			}
			continue
		}
		res.Matched = hosts
		if len(s.Same) == 0 {
			return left
		}
		same := "same[" + e.explainNames(s.Same) + "]"
		for gj, other := range groups {
			if gj == gi {
				continue
			}
			for _, i := range other {
				left[i] = Reason{Part: same, Values: fmt.Sprintf("%s; the job is placed on %s", keys[gj], keys[gi])}
			}
		}
		return left
	}
	if len(s.Same) > 0 {
		why = fmt.Sprintf("no group of hosts with the same %s can hold %d slots (%s)", e.explainNames(s.Same), slots, why)
	}
	res.Placement = why
	res.Matched = nil
	res.Verdict = VerdictNow
	return nil
}

// spanFits returns the hosts (indices into t) that can take part in
// placing slots slots under sp, with why each other host cannot, or why
// the slots cannot be placed.
func spanFits(sp SpanReq, t *HostTable, hosts []int, slots int) ([]int, map[int]Reason, string) {
	usable := hosts[:0:0]
	left := map[int]Reason{}
	got := 0
	for _, i := range hosts {
		n := t.Values[i].FreeSlots
		switch {
		case sp.Hosts == 1 && n < slots:
			left[i] = Reason{Part: "span[hosts=1]", Values: fmt.Sprintf("%d free slots, %d needed on one host", n, slots)}
			continue
		case sp.Ptile > 0:
			n = min(n, sp.Ptile)
		}
		if n > 0 {
			usable = append(usable, i)
			got += n
		} else {
			left[i] = Reason{Part: "a free job slot", Values: "slots=0"}
		}
	}
	switch {
	case sp.Hosts == 1 && len(usable) == 0:
		return nil, nil, fmt.Sprintf("span[hosts=1]: no host has %d free slots", slots)
	case sp.Ptile > 0 && got < slots:
		return nil, nil, fmt.Sprintf("span[ptile=%d]: the hosts give %d of %d slots", sp.Ptile, got, slots)
	case got < slots:
		return nil, nil, fmt.Sprintf("the matching hosts have %d free slots, the job needs %d", got, slots)
	}
	return usable, left, ""
}
