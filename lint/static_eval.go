package lint

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
)

// This file gathers what the configuration alone says about each host,
// without a running cluster, into the partial value table a select's
// compiled form judges (compile.SelectProgram.Judge): the same closures
// that match hosts at run time, read three-valued. Only facts the files
// fix are used: a host's type, model and name, its Boolean resources
// (present in RESOURCES is 1, absent is 0, as LSF reads them), the static
// values of RESOURCES (res=value) and of the ResourceMap. Everything else
// (load indices, free slots, ncpus, maxmem, values an elim reports) is
// unknown, and an unknown never makes an expression false: a verdict of
// false is a proof that the host fails, whatever the load.
//
// A static Numeric value is only an upper bound: rusage[] may reserve
// any site Numeric resource, and the scheduler compares what is left.
// Numbers are therefore bounds: ngpus=4 is at most 4, so ngpus>8 is
// false but ngpus>2 unknown.

// A staticVal is what the files say of a resource's value on one host: a
// Boolean or string when known is set, a number as bounds.
type staticVal struct {
	typ   compile.ResType
	known bool
	b     bool
	iv    compile.Bounds
	s     string
	// undefined marks a resource no fact gives the host; its value is
	// unknown, but defined() of it is false.
	undefined bool
}

func boolVal(t compile.Truth) staticVal {
	return staticVal{typ: compile.Boolean, known: t != compile.Unknown, b: t == compile.True}
}

func unknownVal(t compile.ResType) staticVal { return staticVal{typ: t, iv: compile.AnyNumber()} }

// atMost is the bounds of a static value that reservations may lower.
func atMost(x float64) compile.Bounds { return compile.Bounds{Lo: math.Inf(-1), Hi: x} }

// A staticHost is one host of lsf.cluster with the facts its row gives.
type staticHost struct {
	def *compile.HostDef
	// booleans are the Boolean resources of RESOURCES ("!name", an
	// exclusive resource, counts as present).
	booleans map[string]bool
	// values are the res=value items of RESOURCES.
	values map[string]string
	// table is the partial value table selects are judged on, made on
	// first use.
	table *compile.StaticValues
}

// staticFacts are the facts of a Policy a select is judged on.
type staticFacts struct {
	env    *compile.Env
	hosts  []*staticHost // server hosts, in lsf.cluster order
	byName map[string]*staticHost
	// instances are the ResourceMap locations of each site resource.
	instances map[string][]instance
}

// An instance is one ResourceMap location: value@[hosts], or [hosts]
// without a value (an elim reports it).
type instance struct {
	value    string
	hasValue bool
	hosts    []string // names, "all", "default", "others"
	excluded []string // ~name
}

// newStaticFacts gathers the facts of p's server hosts. It returns nil
// when no verdict may be drawn: no lsf.cluster, no server host, or hosts
// may join the cluster without being listed in it.
func newStaticFacts(p *Pass) *staticFacts {
	pol := p.Policy
	if !p.Has(lang.KindLSFCluster) || pol.Env() == nil {
		return nil
	}
	if pol.Conf["LSF_DYNAMIC_HOST_WAIT_TIME"] != nil || pol.ClusterParams["LSF_HOST_ADDR_RANGE"] != nil {
		return nil
	}
	f := &staticFacts{env: pol.Env(), byName: map[string]*staticHost{}, instances: map[string][]instance{}}
	for _, h := range pol.Hosts {
		sh := &staticHost{def: h, booleans: map[string]bool{}, values: map[string]string{}}
		for _, r := range h.Resources {
			name, value, hasValue := strings.Cut(strings.TrimPrefix(r, "!"), "=")
			if hasValue {
				sh.values[name] = value
			} else {
				sh.booleans[name] = true
			}
		}
		f.byName[strings.ToLower(h.Name)] = sh
		if h.Server {
			f.hosts = append(f.hosts, sh)
		}
	}
	if len(f.hosts) == 0 {
		return nil
	}
	for _, r := range pol.Resources {
		for _, text := range r.Instances {
			f.instances[r.Name] = append(f.instances[r.Name], parseInstance(text))
		}
	}
	return f
}

// parseInstance reads "value@[host ...]" or "[host ...]".
func parseInstance(text string) instance {
	var in instance
	open := strings.IndexByte(text, '[')
	if open < 0 {
		// Not a location compile could read: treat it as covering every
		// host with an unknown value.
		in.hosts = []string{"default"}
		return in
	}
	if v, ok := strings.CutSuffix(text[:open], "@"); ok {
		in.value, in.hasValue = v, true
	}
	for _, w := range strings.Fields(strings.TrimSuffix(text[open+1:], "]")) {
		if n, ok := strings.CutPrefix(w, "~"); ok {
			in.excluded = append(in.excluded, strings.ToLower(n))
			continue
		}
		in.hosts = append(in.hosts, strings.ToLower(w))
	}
	return in
}

// host returns the facts of a host by name, or nil when lsf.cluster does
// not list it.
func (f *staticFacts) host(name string) *staticHost { return f.byName[strings.ToLower(name)] }

// mapped returns what the ResourceMap says of resource name on host h:
// whether an instance covers it, and the values of the covering
// instances ("" with ok false for an instance without a value).
func (f *staticFacts) mapped(name string, h *staticHost) (covered bool, values []string, allValued bool) {
	ins := f.instances[name]
	host := strings.ToLower(h.def.Name)
	listed := false
	for _, in := range ins {
		for _, n := range in.hosts {
			if n == host {
				listed = true
			}
		}
	}
	allValued = true
	for _, in := range ins {
		excluded := false
		for _, n := range in.excluded {
			excluded = excluded || n == host
		}
		if excluded {
			continue
		}
		covers := false
		for _, n := range in.hosts {
			switch n {
			case host, "all", "default":
				covers = true
			case "others":
				covers = covers || !listed
			}
		}
		if !covers {
			continue
		}
		covered = true
		if in.hasValue {
			values = append(values, in.value)
		} else {
			allValued = false
		}
	}
	return covered, values, allValued
}

// resolve returns the resource named name, its value on h, and whether
// defined(name) holds there.
func (f *staticFacts) resolve(name string, h *staticHost) (*compile.Resource, staticVal, compile.Truth) {
	r, _, ok := f.env.Lookup(name)
	if !ok {
		return nil, unknownVal(0), compile.Unknown
	}
	k := r.Type
	if r.Dynamic {
		return r, unknownVal(k), compile.Unknown
	}
	if r.Builtin {
		switch r.Name {
		case "type", "model":
			v := h.def.Type
			if r.Name == "model" {
				v = h.def.Model
			}
			if v == "" || strings.EqualFold(v, "default") {
				return r, unknownVal(k), compile.True
			}
			return r, staticVal{typ: compile.String, known: true, s: v}, compile.True
		case "hname":
			return r, staticVal{typ: compile.String, known: true, s: h.def.Name}, compile.True
		case "server":
			t := compile.TruthOf(h.def.Server)
			return r, boolVal(t), t
		}
		return r, unknownVal(k), compile.Unknown
	}
	covered, mapValues, allValued := f.mapped(r.Name, h)
	switch r.Type {
	case compile.Boolean:
		t := compile.False
		switch {
		case h.booleans[r.Name]:
			t = compile.True
		case covered:
			t = compile.Unknown
		}
		return r, boolVal(t), t
	case compile.Numeric, compile.String:
		// A value in the host's RESOURCES takes precedence over the
		// ResourceMap.
		values := mapValues
		if v, ok := h.values[r.Name]; ok {
			values, covered, allValued = []string{v}, true, true
		}
		if len(values) == 0 && !covered {
			v := unknownVal(k)
			v.undefined = true
			return r, v, compile.False
		}
		if !allValued || len(values) == 0 {
			return r, unknownVal(k), compile.True
		}
		for _, v := range values[1:] {
			if v != values[0] {
				return r, unknownVal(k), compile.True
			}
		}
		if r.Type == compile.String {
			return r, staticVal{typ: compile.String, known: true, s: values[0]}, compile.True
		}
		x, err := strconv.ParseFloat(values[0], 64)
		if err != nil {
			return r, unknownVal(k), compile.True
		}
		return r, staticVal{typ: compile.Numeric, iv: atMost(x)}, compile.True
	}
	return r, unknownVal(k), compile.Unknown
}

// table returns the partial value table of h, made once.
func (f *staticFacts) table(h *staticHost) *compile.StaticValues {
	if h.table != nil {
		return h.table
	}
	v := f.env.NewStaticValues(h.def.Name)
	for slot, r := range f.env.Resources() {
		_, val, def := f.resolve(r.Name, h)
		v.Def[slot] = def
		switch {
		case r.Type == compile.Numeric:
			v.Num[slot] = val.iv
		case r.Type == compile.String && val.known:
			v.Str[slot], v.StrKnown[slot] = val.s, true
		}
	}
	h.table = v
	return v
}

// judge returns the truth of a select on host h.
func (f *staticFacts) judge(p *compile.SelectProgram, h *staticHost) compile.Truth {
	return p.Judge(f.env, f.table(h))
}

// explain says why select p is false on h: the first top-level &&
// operand that is false there, with the facts of h it reads
// ("type==X86_64 is false: type is \"AARCH64\"").
func (f *staticFacts) explain(p *compile.SelectProgram, h *staticHost) string {
	part := p.Expr
	parts := compile.Conjuncts(p.Expr)
	for i, c := range p.Clauses {
		if c.Judge(f.env, f.table(h)) == compile.False && i < len(parts) {
			part = parts[i]
			break
		}
	}
	msg := fmt.Sprintf("%q is false", lang.ExprString(part))
	var facts []string
	seen := map[string]bool{}
	for _, name := range f.names(part) {
		if seen[name] {
			continue
		}
		seen[name] = true
		if s := f.describe(name, h); s != "" {
			facts = append(facts, s)
		}
	}
	if len(facts) > 0 {
		msg += " (" + strings.Join(facts, ", ") + ")"
	}
	return msg
}

// names returns the resources e reads, in order, leaving out the bare
// words compared with String resources.
func (f *staticFacts) names(e lang.Expr) []string {
	var out []string
	var walk func(lang.Expr)
	walk = func(e lang.Expr) {
		switch e := e.(type) {
		case *lang.Paren:
			walk(e.X)
		case *lang.Ident:
			out = append(out, e.Name)
		case *lang.Defined:
			out = append(out, e.Name.Text)
		case *lang.Unary:
			walk(e.X)
		case *lang.Binary:
			xt, yt := f.peek(e.X), f.peek(e.Y)
			_, xIsWord := e.X.(*lang.Ident)
			_, yIsWord := e.Y.(*lang.Ident)
			if !(xIsWord && yt == compile.String && xt != compile.String) {
				walk(e.X)
			}
			if !(yIsWord && xt == compile.String && yt != compile.String) {
				walk(e.Y)
			}
		}
	}
	walk(e)
	return out
}

// describe states the fact h gives about a resource, or "" when none.
func (f *staticFacts) describe(name string, h *staticHost) string {
	r, v, _ := f.resolve(name, h)
	if r == nil {
		return ""
	}
	switch {
	case v.undefined:
		return fmt.Sprintf("%s is not defined there", r.Name)
	case v.typ == compile.Numeric && !math.IsInf(v.iv.Hi, 0):
		return fmt.Sprintf("%s is at most %s", r.Name, f.env.FormatValue(r, v.iv.Hi))
	case !v.known:
		return ""
	case r.Name == "server":
		if v.b {
			return "it is a server host"
		}
		return "it is a client host"
	case v.typ == compile.Boolean && v.b:
		return fmt.Sprintf("it has %s", r.Name)
	case v.typ == compile.Boolean:
		return fmt.Sprintf("it lacks %s", r.Name)
	case v.typ == compile.String:
		return fmt.Sprintf("%s is %q", r.Name, v.s)
	}
	return ""
}

// A selectTerm is the select of one term of a requirement.
type selectTerm struct {
	prog *compile.SelectProgram
	sec  *lang.ReqSection
}

// selects returns, for each alternative of r, the select of each of its
// terms that has one.
func selects(r *compile.Requirement) [][]selectTerm {
	var out [][]selectTerm
	for _, alt := range r.Alts {
		var terms []selectTerm
		for _, t := range alt {
			if t == nil || t.Simple == nil || t.Simple.Select == nil {
				continue
			}
			var sec *lang.ReqSection
			for _, s := range t.Simple.AST.Sections {
				if s.Kind == lang.SecSelect || s.Kind == lang.SecFilter {
					sec = s
					break
				}
			}
			if sec == nil {
				continue
			}
			terms = append(terms, selectTerm{prog: t.Simple.Select, sec: sec})
		}
		out = append(out, terms)
	}
	return out
}

// failing returns the select term that keeps r off every host of hosts:
// for each alternative, a term whose select is false on all of them. It
// returns false when some alternative may be placed on some host.
func (f *staticFacts) failing(r *compile.Requirement, hosts []*staticHost) (selectTerm, bool) {
	if len(hosts) == 0 || len(r.Alts) == 0 {
		return selectTerm{}, false
	}
	var first selectTerm
	for i, terms := range selects(r) {
		found := false
		for _, t := range terms {
			if f.falseOnAll(t.prog, hosts) {
				if i == 0 {
					first = t
				}
				found = true
				break
			}
		}
		if !found {
			return selectTerm{}, false
		}
	}
	return first, true
}

// falseOnAll reports whether select p is false on every host.
func (f *staticFacts) falseOnAll(p *compile.SelectProgram, hosts []*staticHost) bool {
	for _, h := range hosts {
		if f.judge(p, h) != compile.False {
			return false
		}
	}
	return true
}

// peek returns the type the compiler gives e, or 0 for none.
func (f *staticFacts) peek(e lang.Expr) compile.ResType {
	t, _ := f.env.TypeOf(e)
	return t
}
