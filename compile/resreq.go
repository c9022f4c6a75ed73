package compile

import (
	"fmt"
	"strings"
	"time"

	"github.com/lsfc/lsfc/lang"
)

// A Requirement is a resource requirement checked against an Env: its
// alternatives, each a list of compound terms, each a checked simple
// requirement.
type Requirement struct {
	// AST is the parsed requirement.
	AST *lang.ResReq
	// Alts are the alternatives; a simple requirement has one alternative
	// of one term with Count 0.
	Alts [][]*TermReq
}

// Simple returns the requirement when it is simple, else nil.
func (r *Requirement) Simple() *SimpleReq {
	if len(r.Alts) == 1 && len(r.Alts[0]) == 1 && r.Alts[0][0].Count == 0 {
		return r.Alts[0][0].Simple
	}
	return nil
}

// String prints the requirement in canonical form.
func (r *Requirement) String() string { return r.AST.String() }

// A TermReq is one term of a compound requirement: Count slots (0 for a
// simple requirement) with requirement Simple.
type TermReq struct {
	Count  int
	Simple *SimpleReq
}

// A SimpleReq is a checked simple requirement.
type SimpleReq struct {
	AST *lang.Simple
	// Select is nil when the requirement has no select section.
	Select   *SelectProgram
	Order    []OrderKey
	Rusage   [][]*UsageReq // alternatives (||) of usage strings
	Span     SpanReq
	Same     []int // slots
	Cu       []*lang.ReqItem
	Affinity []*lang.AffTerm
}

// An OrderKey is one key of order[].
type OrderKey struct {
	Slot int
	Name string
	// Ascending is true when hosts with smaller values come first: for
	// increasing indices (r1m, ut, ...), reversed by "-".
	Ascending bool
}

// A UsageReq is one usage string of rusage[]: amounts reserved together,
// for Duration (0: the job's lifetime), decaying linearly to 0 when Decay.
type UsageReq struct {
	Amounts  []Amount
	Duration time.Duration
	Decay    bool
	Span     lang.Span
}

// An Amount is one resource reserved by a usage string.
type Amount struct {
	Slot  int
	Name  string
	Value float64 // in the Env's units (memory in Env.Unit)
	// Phases are the values of a multi-phase reservation, with their
	// durations and decays; Value is then the first phase's.
	Phases []Phase
	// Per is "job", "task", "host" or "" (LSF's default).
	Per  string
	Span lang.Span
}

// A Phase is one step of a multi-phase reservation.
type Phase struct {
	Value    float64
	Duration time.Duration // 0 for the last: until the job ends
	Decay    bool
}

// SpanReq is the span[] section.
type SpanReq struct {
	// Hosts is 1 for span[hosts=1], -1 for span[hosts=-1] (no queue
	// span), 0 when unset.
	Hosts int
	// Ptile is N of span[ptile=N]; 0 when unset.
	Ptile int
	// PtileMXJ is true for ptile='!' (the host's MXJ).
	PtileMXJ bool
	// PtileBy holds per-type or per-model ptile values; PtileKey tells
	// which ("type" or "model").
	PtileBy  map[string]int
	PtileKey string
	// Block is N of span[block=N].
	Block int
	// Stripe is set by span[stripe] (Stripe -1) or span[stripe=N].
	Stripe int
}

// CompileResReq checks r against e and compiles it. The diagnostics point
// into the Source r was parsed from. The requirement is nil when there are
// errors.
func (e *Env) CompileResReq(r *lang.ResReq, opts SelectOptions) (*Requirement, lang.Diagnostics) {
	var diags lang.Diagnostics
	req := &Requirement{AST: r}
	for _, alt := range r.Alts {
		var terms []*TermReq
		for _, t := range alt.Terms {
			s, ds := e.compileSimple(t.Simple, opts)
			diags = append(diags, ds...)
			terms = append(terms, &TermReq{Count: t.Count, Simple: s})
		}
		req.Alts = append(req.Alts, terms)
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return req, diags
}

func (e *Env) compileSimple(s *lang.Simple, opts SelectOptions) (*SimpleReq, lang.Diagnostics) {
	var diags lang.Diagnostics
	out := &SimpleReq{AST: s}
	for _, sec := range s.Sections {
		switch sec.Kind {
		case lang.SecSelect, lang.SecFilter:
			if out.Select != nil {
				continue // a repeat, reported by the parser
			}
			p, ds := e.CompileSelect(sec.Select, opts)
			diags = append(diags, ds...)
			out.Select = p
		case lang.SecOrder:
			out.Order = e.order(sec, &diags)
		case lang.SecRusage:
			out.Rusage = e.rusage(sec, &diags)
		case lang.SecSpan:
			out.Span = e.span(sec, &diags)
		case lang.SecSame:
			out.Same = e.same(sec, &diags)
		case lang.SecCu:
			out.Cu = sec.Items
			checkCu(sec, &diags)
		case lang.SecAffinity:
			out.Affinity = sec.Affinity
			checkAffinity(sec, &diags)
		}
	}
	e.checkSpanSame(s, out, &diags)
	if opts.LocalTypeDefault && opts.FromType != "" && !diags.HasErrors() && !e.namesStringOrBool(out.Select) {
		local := &lang.Binary{Op: "==", X: &lang.Ident{Name: "type"}, Y: &lang.Ident{Name: "local"}}
		var expr lang.Expr = local
		if out.Select != nil {
			expr = &lang.Binary{Op: "&&", X: &lang.Paren{X: out.Select.Expr}, Y: local}
		}
		p, ds := e.CompileSelect(&lang.Select{Expr: expr}, opts)
		diags = append(diags, ds...)
		out.Select = p
	}
	return out, diags
}

// namesStringOrBool reports whether a select reads a String or Boolean
// resource, which lifts bsub's implicit type==local.
func (e *Env) namesStringOrBool(p *SelectProgram) bool {
	if p == nil {
		return false
	}
	for _, slot := range p.Refs {
		if t := e.res[slot].Type; t == String || t == Boolean {
			return true
		}
	}
	return false
}

// resolve looks up a resource name, reporting an unknown one.
func (e *Env) resolve(w lang.Word, diags *lang.Diagnostics) (*Resource, int, bool) {
	return e.resolveFrom(w, diags, nil)
}

// resolveFrom looks up a resource name, reporting an unknown one with the
// closest name among the resources fit accepts (all when fit is nil).
func (e *Env) resolveFrom(w lang.Word, diags *lang.Diagnostics, fit func(*Resource) bool) (*Resource, int, bool) {
	r, slot, ok := e.Lookup(w.Text)
	if !ok {
		msg := fmt.Sprintf("unknown resource %q", w.Text)
		var names []string
		for i := range e.res {
			if fit == nil || fit(&e.res[i]) {
				names = append(names, e.res[i].Name)
			}
		}
		if s := lang.Suggest(w.Text, names); s != "" {
			msg += fmt.Sprintf(" (did you mean %q?)", s)
		}
		*diags = append(*diags, &lang.Diagnostic{Severity: lang.Error, Code: CodeUnknownResource, Span: w.Span, Message: msg})
	}
	return r, slot, ok
}

func (e *Env) order(sec *lang.ReqSection, diags *lang.Diagnostics) []OrderKey {
	var keys []OrderKey
	for _, k := range sec.Order {
		r, slot, ok := e.resolve(k.Name, diags)
		if !ok {
			continue
		}
		if r.Type != Numeric {
			diags.Add(lang.Error, CodeOrder, k.Name.Span, "order[] sorts by numbers; %q is a %s resource", k.Name.Text, strings.ToLower(r.Type.String()))
			continue
		}
		keys = append(keys, OrderKey{Slot: slot, Name: r.Name, Ascending: r.Increasing != k.Minus})
	}
	return keys
}

func (e *Env) rusage(sec *lang.ReqSection, diags *lang.Diagnostics) [][]*UsageReq {
	var out [][]*UsageReq
	for _, alt := range sec.Rusage {
		var usages []*UsageReq
		for _, u := range alt {
			usages = append(usages, e.usage(u, diags))
		}
		out = append(out, usages)
	}
	return out
}

// usage checks one usage string: consumable numeric resources, each once,
// a duration in minutes (or with an s, m or h suffix), a decay of 0 or 1.
func (e *Env) usage(u *lang.Usage, diags *lang.Diagnostics) *UsageReq {
	out := &UsageReq{Span: u.Span}
	seen := map[string]*lang.UsageItem{}
	var durations, decays []*lang.Literal
	for _, it := range u.Items {
		name := it.Name.Text
		switch name {
		case "duration":
			durations = it.Phases
			if it.Value != nil {
				durations = []*lang.Literal{it.Value}
			}
			for _, d := range durations {
				dur, ok := parseDuration(d)
				if !ok {
					diags.Add(lang.Error, CodeRusage, d.Span, "duration %q: give minutes, or a number with s, m or h", d.Text)
				}
				if it.Value != nil {
					out.Duration = dur
				}
			}
			continue
		case "decay":
			decays = it.Phases
			if it.Value != nil {
				decays = []*lang.Literal{it.Value}
			}
			for _, d := range decays {
				if d.Kind != lang.LitNumber || d.Unit != "" || (d.Num != 0 && d.Num != 1) {
					diags.Add(lang.Error, CodeRusage, d.Span, "decay is 0 (constant) or 1 (linear), not %q", d.Text)
				}
			}
			if it.Value != nil {
				out.Decay = it.Value.Num == 1
			}
			continue
		}
		r, slot, ok := e.resolveFrom(it.Name, diags, reservable)
		if !ok {
			continue
		}
		if first, dup := seen[r.Name]; dup {
			diags.Add(lang.Error, CodeRusage, it.Name.Span, "%s is reserved twice in one usage string", name).
				Note(first.Name.Span, "first reserved here")
			continue
		}
		seen[r.Name] = it
		if !reservable(r) {
			diags.Add(lang.Error, CodeRusage, it.Name.Span, "%q is not a consumable resource: rusage[] reserves numeric resources only", name)
			continue
		}
		if it.Per != "" && it.Per != "job" && it.Per != "task" && it.Per != "host" {
			diags.Add(lang.Error, CodeRusage, it.PerSpan, "reservation method %q: write /job, /task or /host", it.Per)
		}
		a := Amount{Slot: slot, Name: r.Name, Per: it.Per, Span: it.Span}
		values := it.Phases
		if it.Value != nil {
			values = []*lang.Literal{it.Value}
		}
		for _, v := range values {
			x, ok := e.amount(r, v, diags)
			if ok {
				a.Phases = append(a.Phases, Phase{Value: x})
			}
		}
		if len(a.Phases) > 0 {
			a.Value = a.Phases[0].Value
		}
		if it.Phases == nil {
			a.Phases = nil
		}
		out.Amounts = append(out.Amounts, a)
	}
	e.phases(out, durations, decays, diags)
	if out.Decay && out.Duration == 0 && len(decays) == 1 {
		diags.Add(lang.Warning, CodeRusage, decays[0].Span, "decay without a duration has no effect")
	}
	return out
}

// reservable reports whether rusage[] may reserve r.
func reservable(r *Resource) bool { return r.Type == Numeric && (r.Consumable || r.Builtin) }

// amount reads a reserved value: a non-negative number, with a memory
// unit for memory resources.
func (e *Env) amount(r *Resource, v *lang.Literal, diags *lang.Diagnostics) (float64, bool) {
	if v.Kind != lang.LitNumber {
		diags.Add(lang.Error, CodeRusage, v.Span, "%s needs a number, not %q", r.Name, v.Text)
		return 0, false
	}
	if v.Unit == "" {
		return v.Num, true
	}
	if !r.Memory && !isTmp(r.Name) {
		diags.Add(lang.Error, CodeUnit, v.Span, "%q has a unit but %s is not an amount of memory", v.Text, r.Name)
		return 0, false
	}
	mb, err := ParseMemory(v.Text, MB)
	if err != nil {
		diags.Add(lang.Error, CodeUnit, v.Span, "unknown unit in %q: memory units are K, M, G, T, P, E, Z (optionally followed by B)", v.Text)
		return 0, false
	}
	target := e.Unit
	if isTmp(r.Name) && !e.TmpUnit {
		target = MB
	}
	return mb / target.Megabytes(), true
}

// phases checks a multi-phase reservation: every phase but the last has a
// duration, and values never increase.
func (e *Env) phases(u *UsageReq, durations, decays []*lang.Literal, diags *lang.Diagnostics) {
	for i := range u.Amounts {
		a := &u.Amounts[i]
		if a.Phases == nil {
			continue
		}
		n := len(a.Phases)
		if len(durations) < n-1 || len(durations) > n {
			diags.Add(lang.Error, CodeRusage, a.Span, "%s has %d phases: give a duration for each phase but the last (%d given)", a.Name, n, len(durations))
			continue
		}
		for j := range a.Phases {
			if j < len(durations) {
				a.Phases[j].Duration, _ = parseDuration(durations[j])
			}
			if j < len(decays) {
				a.Phases[j].Decay = decays[j].Num == 1
			}
			if j > 0 && a.Phases[j].Value > a.Phases[j-1].Value {
				diags.Add(lang.Error, CodeRusage, a.Span, "phase %d of %s reserves more than phase %d: phases may only stay level or decrease", j+1, a.Name, j)
			}
		}
	}
}

// parseDuration reads a rusage duration: minutes, or a number with an s,
// m or h suffix.
func parseDuration(l *lang.Literal) (time.Duration, bool) {
	if l.Kind != lang.LitNumber || l.Num < 0 {
		return 0, false
	}
	unit := time.Minute
	switch strings.ToLower(l.Unit) {
	case "", "m":
	case "s":
		unit = time.Second
	case "h":
		unit = time.Hour
	default:
		return 0, false
	}
	return time.Duration(l.Num * float64(unit)), true
}

var spanKeys = []string{"hosts", "ptile", "block", "stripe"}

func (e *Env) span(sec *lang.ReqSection, diags *lang.Diagnostics) SpanReq {
	var sp SpanReq
	var ptileAt lang.Span
	addPtile := func(key *lang.Literal, count *lang.Literal, at lang.Span) {
		n, ok := posInt(count)
		if !ok {
			diags.Add(lang.Error, CodeSpan, count.Span, "ptile for %s must be a positive whole number", key.Text)
			return
		}
		kind := ""
		switch {
		case e.types != nil && e.types[key.Str]:
			kind = "type"
		case e.models != nil && e.models[key.Str]:
			kind = "model"
		case e.types == nil && e.models == nil:
			kind = sp.PtileKey
			if kind == "" {
				kind = "type"
			}
		default:
			diags.Add(lang.Error, CodeSpan, key.Span, "%q in ptile is neither a host type nor a host model", key.Text)
			return
		}
		if sp.PtileKey != "" && sp.PtileKey != kind {
			diags.Add(lang.Error, CodeSpan, at, "a ptile list mixes host types and host models")
			return
		}
		if sp.PtileBy == nil {
			sp.PtileBy = map[string]int{}
		}
		sp.PtileKey = kind
		sp.PtileBy[key.Str] = n
	}
	for _, it := range sec.Items {
		if it.Pair {
			if !ptileAt.IsValid() {
				diags.Add(lang.Error, CodeSpan, it.Span, "%s:%s must follow ptile=", it.Name.Text, it.Count.Text)
				continue
			}
			addPtile(&lang.Literal{Kind: lang.LitWord, Text: it.Name.Text, Str: it.Name.Text, Span: it.Name.Span}, it.Count, it.Span)
			continue
		}
		switch it.Name.Text {
		case "hosts":
			n, ok := posInt(it.Value)
			switch {
			case it.Minus && ok && n == 1:
				sp.Hosts = -1
			case !it.Minus && ok && n == 1:
				sp.Hosts = 1
			default:
				diags.Add(lang.Error, CodeSpan, it.Span, "span[hosts=...] takes 1 (one host) or -1 (ignore the queue's span)")
			}
		case "ptile":
			ptileAt = it.Span
			switch {
			case it.Value == nil:
				diags.Add(lang.Error, CodeSpan, it.Span, "ptile needs a value")
			case it.Value.Kind == lang.LitString && it.Value.Str == "!":
				sp.PtileMXJ = true
			case it.Count != nil:
				addPtile(it.Value, it.Count, it.Span)
			default:
				n, ok := posInt(it.Value)
				if !ok || it.Minus {
					diags.Add(lang.Error, CodeSpan, it.Value.Span, "ptile must be a positive whole number, '!' or TYPE:N")
				}
				sp.Ptile = n
			}
		case "block":
			n, ok := posInt(it.Value)
			if !ok || it.Minus {
				diags.Add(lang.Error, CodeSpan, it.Span, "block must be a positive whole number")
			}
			sp.Block = n
		case "stripe":
			sp.Stripe = -1
			if it.Value != nil {
				n, ok := posInt(it.Value)
				if !ok || it.Minus {
					diags.Add(lang.Error, CodeSpan, it.Span, "stripe takes a positive whole number")
				}
				sp.Stripe = n
			}
		default:
			msg := fmt.Sprintf("unknown span option %q", it.Name.Text)
			if s := lang.Suggest(it.Name.Text, spanKeys); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			*diags = append(*diags, &lang.Diagnostic{Severity: lang.Error, Code: CodeSpan, Span: it.Name.Span, Message: msg})
		}
	}
	if sp.Hosts == 1 && (sp.Ptile > 0 || sp.PtileMXJ || sp.PtileBy != nil) {
		diags.Add(lang.Error, CodeSpan, sec.Span, "span[hosts=1] and ptile exclude each other")
	}
	return sp
}

// posInt reads a positive whole number without a unit.
func posInt(l *lang.Literal) (int, bool) {
	if l == nil || l.Kind != lang.LitNumber || l.Unit != "" || l.Num < 1 || l.Num != float64(int(l.Num)) {
		return 0, false
	}
	return int(l.Num), true
}

func (e *Env) same(sec *lang.ReqSection, diags *lang.Diagnostics) []int {
	var out []int
	for _, it := range sec.Items {
		r, slot, ok := e.resolve(it.Name, diags)
		if !ok {
			continue
		}
		if r.Dynamic {
			diags.Add(lang.Error, CodeSame, it.Name.Span, "same[] takes static resources; %s changes with load", r.Name)
			continue
		}
		out = append(out, slot)
	}
	return out
}

// checkSpanSame checks rules that join span[] and same[]: a per-type ptile
// list needs same[type] (same[model] for models), and ptile='!' may not go
// with same[type:model].
func (e *Env) checkSpanSame(s *lang.Simple, r *SimpleReq, diags *lang.Diagnostics) {
	has := func(name string) bool {
		for _, slot := range r.Same {
			if e.res[slot].Name == name {
				return true
			}
		}
		return false
	}
	spanSec := s.Section(lang.SecSpan)
	if spanSec == nil {
		return
	}
	if r.Span.PtileBy != nil && !has(r.Span.PtileKey) {
		diags.Add(lang.Error, CodeSpan, spanSec.Span, "a per-%s ptile list needs same[%s]", r.Span.PtileKey, r.Span.PtileKey)
	}
	if r.Span.PtileMXJ && has("type") && has("model") {
		diags.Add(lang.Error, CodeSpan, spanSec.Span, "ptile='!' cannot be used with same[type:model]")
	}
}

var cuKeys = map[string]bool{"type": true, "pref": true, "maxcus": true, "usablecuslots": true, "balance": false, "excl": false}

func checkCu(sec *lang.ReqSection, diags *lang.Diagnostics) {
	seen := map[string]bool{}
	for _, it := range sec.Items {
		name := it.Name.Text
		needsValue, known := cuKeys[name]
		switch {
		case !known:
			msg := fmt.Sprintf("unknown cu option %q", name)
			if s := lang.Suggest(name, []string{"type", "pref", "maxcus", "usablecuslots", "balance", "excl"}); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			*diags = append(*diags, &lang.Diagnostic{Severity: lang.Error, Code: CodeCuAffinity, Span: it.Name.Span, Message: msg})
			continue
		case needsValue && it.Value == nil:
			diags.Add(lang.Error, CodeCuAffinity, it.Span, "cu option %s needs a value", name)
		case !needsValue && it.Value != nil:
			diags.Add(lang.Error, CodeCuAffinity, it.Span, "cu option %s takes no value", name)
		}
		seen[name] = true
		switch name {
		case "pref":
			if it.Value != nil && !oneOf(it.Value.Text, "config", "maxavail", "minavail", "bestfit") {
				diags.Add(lang.Error, CodeCuAffinity, it.Value.Span, "cu pref is config, maxavail, minavail or bestfit, not %q", it.Value.Text)
			}
		case "maxcus", "usablecuslots":
			if _, ok := posInt(it.Value); it.Value != nil && !ok {
				diags.Add(lang.Error, CodeCuAffinity, it.Value.Span, "cu %s must be a positive whole number", name)
			}
		}
	}
	if seen["balance"] && seen["usablecuslots"] {
		diags.Add(lang.Error, CodeCuAffinity, sec.Span, "balance and usablecuslots cannot both be used in cu[]")
	}
}

func oneOf(s string, options ...string) bool {
	for _, o := range options {
		if s == o {
			return true
		}
	}
	return false
}

var (
	affinityUnits = []string{"numa", "socket", "core", "thread", "mcm", "cpu"}
	affinityKeys  = map[string][]string{
		"cpubind":    {"numa", "socket", "core", "thread"},
		"membind":    {"localonly", "localprefer"},
		"distribute": {"pack", "balance", "any"},
	}
)

// checkAffinity checks the processor unit and the cpubind, membind and
// distribute options of affinity[].
func checkAffinity(sec *lang.ReqSection, diags *lang.Diagnostics) {
	for i, t := range sec.Affinity {
		name := t.Name.Text
		if i == 0 {
			if !oneOf(name, affinityUnits...) {
				msg := fmt.Sprintf("unknown processor unit %q", name)
				if s := lang.Suggest(name, affinityUnits); s != "" {
					msg += fmt.Sprintf(" (did you mean %q?)", s)
				}
				*diags = append(*diags, &lang.Diagnostic{Severity: lang.Error, Code: CodeCuAffinity, Span: t.Name.Span, Message: msg})
			}
			continue
		}
		values, ok := affinityKeys[name]
		if !ok {
			msg := fmt.Sprintf("unknown affinity option %q", name)
			if s := lang.Suggest(name, []string{"cpubind", "membind", "distribute"}); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			*diags = append(*diags, &lang.Diagnostic{Severity: lang.Error, Code: CodeCuAffinity, Span: t.Name.Span, Message: msg})
			continue
		}
		if t.Value == nil || t.Value.Name.Text == "" || !oneOf(t.Value.Name.Text, values...) {
			diags.Add(lang.Error, CodeCuAffinity, t.Span, "%s takes %s", name, strings.Join(values, ", "))
		}
	}
}
