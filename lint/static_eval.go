package lint

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
)

// This file judges select expressions on what the configuration alone
// says about each host, without a running cluster. Only facts the files
// fix are used: a host's type, model and name, its Boolean resources
// (present in RESOURCES is 1, absent is 0, as LSF reads them), the static
// values of RESOURCES (res=value) and of the ResourceMap. Everything else
// (load indices, free slots, ncpus, maxmem, values an elim reports) is
// unknown, and an unknown never makes an expression false: a verdict of
// false is a proof that the host fails, whatever the load.
//
// A static Numeric value is only an upper bound: rusage[] may reserve
// any site Numeric resource, and the scheduler compares what is left.
// Numbers are therefore intervals: ngpus=4 is at most 4, so ngpus>8 is
// false but ngpus>2 unknown.

// A tri is a three-valued truth: false, true or unknown.
type tri uint8

const (
	triFalse tri = iota
	triTrue
	triUnknown
)

func (t tri) String() string {
	switch t {
	case triFalse:
		return "false"
	case triTrue:
		return "true"
	}
	return "unknown"
}

func triOf(b bool) tri {
	if b {
		return triTrue
	}
	return triFalse
}

func (t tri) not() tri {
	switch t {
	case triFalse:
		return triTrue
	case triTrue:
		return triFalse
	}
	return triUnknown
}

// and and or are Kleene's: a known false (true) decides && (||) whatever
// the other side is.
func (t tri) and(u tri) tri {
	switch {
	case t == triFalse || u == triFalse:
		return triFalse
	case t == triTrue && u == triTrue:
		return triTrue
	}
	return triUnknown
}

func (t tri) or(u tri) tri {
	switch {
	case t == triTrue || u == triTrue:
		return triTrue
	case t == triFalse && u == triFalse:
		return triFalse
	}
	return triUnknown
}

// A valKind is the type of a value in a select expression.
type valKind uint8

const (
	kindBad valKind = iota // not a resource: unknown
	kindBool
	kindNum
	kindStr
)

func kindOf(t compile.ResType) valKind {
	switch t {
	case compile.Boolean:
		return kindBool
	case compile.Numeric:
		return kindNum
	case compile.String:
		return kindStr
	}
	return kindBad
}

// An interval holds the numbers a value may take: [lo, hi], each bound
// possibly infinite.
type interval struct{ lo, hi float64 }

func point(x float64) interval { return interval{x, x} }

// anyNumber is the interval of a number nothing is known about.
func anyNumber() interval { return interval{math.Inf(-1), math.Inf(1)} }

// atMost is the interval of a static value that reservations may lower.
func atMost(x float64) interval { return interval{math.Inf(-1), x} }

func (i interval) isPoint() bool { return i.lo == i.hi }

// A staticVal is the value of an expression on one host, when known: a
// Boolean or string when known is set, a number as an interval.
type staticVal struct {
	kind  valKind
	known bool
	b     bool
	iv    interval
	s     string
	// hostName marks the value of hname, whose comparisons tolerate case
	// and domain differences.
	hostName bool
	// undefined marks a resource no fact gives the host; its value is
	// unknown, but defined() of it is false.
	undefined bool
}

func boolVal(t tri) staticVal {
	return staticVal{kind: kindBool, known: t != triUnknown, b: t == triTrue}
}

func unknownVal(k valKind) staticVal { return staticVal{kind: k, iv: anyNumber()} }

func numVal(i interval) staticVal { return staticVal{kind: kindNum, iv: i} }

// A staticHost is one host of lsf.cluster with the facts its row gives.
type staticHost struct {
	def *compile.HostDef
	// booleans are the Boolean resources of RESOURCES ("!name", an
	// exclusive resource, counts as present).
	booleans map[string]bool
	// values are the res=value items of RESOURCES.
	values map[string]string
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
func (f *staticFacts) resolve(name string, h *staticHost) (*compile.Resource, staticVal, tri) {
	r, _, ok := f.env.Lookup(name)
	if !ok {
		return nil, unknownVal(kindBad), triUnknown
	}
	k := kindOf(r.Type)
	if r.Dynamic {
		return r, unknownVal(k), triUnknown
	}
	if r.Builtin {
		switch r.Name {
		case "type", "model":
			v := h.def.Type
			if r.Name == "model" {
				v = h.def.Model
			}
			if v == "" || strings.EqualFold(v, "default") {
				return r, unknownVal(k), triTrue
			}
			return r, staticVal{kind: kindStr, known: true, s: v}, triTrue
		case "hname":
			return r, staticVal{kind: kindStr, known: true, s: h.def.Name, hostName: true}, triTrue
		case "server":
			t := triOf(h.def.Server)
			return r, boolVal(t), t
		}
		return r, unknownVal(k), triUnknown
	}
	covered, mapValues, allValued := f.mapped(r.Name, h)
	switch r.Type {
	case compile.Boolean:
		t := triFalse
		switch {
		case h.booleans[r.Name]:
			t = triTrue
		case covered:
			t = triUnknown
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
			return r, v, triFalse
		}
		if !allValued || len(values) == 0 {
			return r, unknownVal(k), triTrue
		}
		for _, v := range values[1:] {
			if v != values[0] {
				return r, unknownVal(k), triTrue
			}
		}
		if r.Type == compile.String {
			return r, staticVal{kind: kindStr, known: true, s: values[0]}, triTrue
		}
		x, err := strconv.ParseFloat(values[0], 64)
		if err != nil {
			return r, unknownVal(k), triTrue
		}
		return r, numVal(atMost(x)), triTrue
	}
	return r, unknownVal(k), triUnknown
}

// eval returns the truth of a select expression on host h.
func (f *staticFacts) eval(e lang.Expr, h *staticHost) tri {
	return f.cond(f.value(e, h))
}

// cond reads a value as a condition: a number is true when not 0.
func (f *staticFacts) cond(v staticVal) tri {
	switch {
	case v.kind == kindNum:
		return compareNumbers(v.iv, point(0), "!=")
	case v.kind == kindBool && v.known:
		return triOf(v.b)
	}
	return triUnknown
}

// asNum reads a value as a number: a Boolean is 1 or 0.
func asNum(v staticVal) interval {
	switch {
	case v.kind == kindNum:
		return v.iv
	case v.kind == kindBool && v.known && v.b:
		return point(1)
	case v.kind == kindBool && v.known:
		return point(0)
	case v.kind == kindBool:
		return interval{0, 1}
	}
	return anyNumber()
}

// peek returns the type of e as the compiler infers it, without values.
func (f *staticFacts) peek(e lang.Expr) valKind {
	if t, ok := f.env.TypeOf(e); ok {
		return kindOf(t)
	}
	return kindBad
}

// value evaluates e on h.
func (f *staticFacts) value(e lang.Expr, h *staticHost) staticVal {
	switch e := e.(type) {
	case *lang.Paren:
		return f.value(e.X, h)
	case *lang.Ident:
		_, v, _ := f.resolve(e.Name, h)
		return v
	case *lang.Defined:
		_, _, d := f.resolve(e.Name.Text, h)
		return boolVal(d)
	case *lang.Literal:
		switch {
		case e.Kind != lang.LitNumber:
			return staticVal{kind: kindStr, known: true, s: e.Str}
		case e.Unit != "":
			// A memory unit is converted for the resource it is compared
			// with; memory resources are never known here anyway.
			return unknownVal(kindNum)
		}
		return numVal(point(e.Num))
	case *lang.Unary:
		x := f.value(e.X, h)
		if e.Op == "!" {
			if x.kind == kindStr {
				return unknownVal(kindBool)
			}
			return boolVal(f.cond(x).not())
		}
		n := asNum(x)
		return numVal(interval{-n.hi, -n.lo})
	case *lang.Binary:
		return f.binary(e, h)
	}
	return unknownVal(kindBad)
}

func (f *staticFacts) binary(e *lang.Binary, h *staticHost) staticVal {
	switch e.Op {
	case "&&":
		return boolVal(f.eval(e.X, h).and(f.eval(e.Y, h)))
	case "||":
		return boolVal(f.eval(e.X, h).or(f.eval(e.Y, h)))
	case "+", "-", "*", "/":
		x, y := asNum(f.value(e.X, h)), asNum(f.value(e.Y, h))
		switch e.Op {
		case "+":
			return numVal(interval{x.lo + y.lo, x.hi + y.hi})
		case "-":
			return numVal(interval{x.lo - y.hi, x.hi - y.lo})
		}
		// Products and quotients are judged on exact values only.
		if !x.isPoint() || !y.isPoint() || math.IsInf(x.lo, 0) || math.IsInf(y.lo, 0) {
			return unknownVal(kindNum)
		}
		if e.Op == "*" {
			return numVal(point(x.lo * y.lo))
		}
		if y.lo == 0 {
			return unknownVal(kindNum) // LSF fails the host; say nothing
		}
		return numVal(point(x.lo / y.lo))
	}
	return boolVal(f.compare(e, h))
}

// compare judges a comparison the way the compiler lowers it: a bare word
// facing a String resource is a string, "any" matches every type or
// model, and "local" (the submission host's) is unknown here.
func (f *staticFacts) compare(e *lang.Binary, h *staticHost) tri {
	op := e.Op
	if op == "=" {
		op = "=="
	}
	xt, yt := f.peek(e.X), f.peek(e.Y)
	xw, xIsWord := e.X.(*lang.Ident)
	yw, yIsWord := e.Y.(*lang.Ident)
	switch {
	case xt == kindStr && yIsWord && yt != kindStr:
		return f.compareWord(e.X, yw.Name, op, h)
	case yt == kindStr && xIsWord && xt != kindStr:
		return f.compareWord(e.Y, xw.Name, lang.Mirror(op), h)
	}
	x, y := f.value(e.X, h), f.value(e.Y, h)
	switch {
	case xt == kindStr || yt == kindStr:
		if x.kind != kindStr || y.kind != kindStr || !x.known || !y.known {
			return triUnknown
		}
		return compareStrings(x, y, op)
	case xt == kindBool && yt == kindBool && (op == "==" || op == "!="):
		t := f.cond(x)
		u := f.cond(y)
		if t == triUnknown || u == triUnknown {
			return triUnknown
		}
		return triOf((t == u) == (op == "=="))
	}
	return compareNumbers(asNum(x), asNum(y), op)
}

// compareNumbers judges x op y for numbers that lie in two intervals: known
// when every pair of values gives the same answer.
func compareNumbers(x, y interval, op string) tri {
	switch op {
	case "<":
		switch {
		case x.hi < y.lo:
			return triTrue
		case x.lo >= y.hi:
			return triFalse
		}
	case "<=":
		switch {
		case x.hi <= y.lo:
			return triTrue
		case x.lo > y.hi:
			return triFalse
		}
	case ">":
		return compareNumbers(y, x, "<")
	case ">=":
		return compareNumbers(y, x, "<=")
	case "==":
		switch {
		case x.isPoint() && y.isPoint() && x.lo == y.lo && !math.IsInf(x.lo, 0):
			return triTrue
		case x.hi < y.lo || y.hi < x.lo:
			return triFalse
		}
	case "!=":
		return compareNumbers(x, y, "==").not()
	}
	return triUnknown
}

// compareWord judges str op word. Only a String resource facing a word is
// judged: a word facing a quoted string ("location=='cloud'" where
// location is no resource) says nothing about hosts.
func (f *staticFacts) compareWord(str lang.Expr, word, op string, h *staticHost) tri {
	id, ok := str.(*lang.Ident)
	if !ok {
		return triUnknown
	}
	if r, _, ok := f.env.Lookup(id.Name); ok && (r.Name == "type" || r.Name == "model") {
		switch word {
		case "any":
			if op == "==" || op == "<=" || op == ">=" {
				return triTrue
			}
			return triUnknown
		case "local":
			return triUnknown
		}
	}
	x := f.value(str, h)
	if x.kind != kindStr || !x.known {
		return triUnknown
	}
	return compareStrings(x, staticVal{kind: kindStr, known: true, s: word}, op)
}

// compareStrings judges equality of two known strings. Only an exact match
// or a clear difference is known: values that differ in case only (or, for
// host names, by a domain) are unknown, and ordering is never judged.
func compareStrings(x, y staticVal, op string) tri {
	if op != "==" && op != "!=" {
		return triUnknown
	}
	eq := triFalse
	switch {
	case x.s == y.s:
		eq = triTrue
	case strings.EqualFold(x.s, y.s):
		eq = triUnknown
	case (x.hostName || y.hostName) && sameHost(x.s, y.s):
		eq = triUnknown
	}
	if op == "!=" {
		return eq.not()
	}
	return eq
}

// sameHost reports whether two host names may name one host: one is the
// other with a domain.
func sameHost(a, b string) bool {
	a, b = strings.ToLower(a), strings.ToLower(b)
	return strings.HasPrefix(a, b+".") || strings.HasPrefix(b, a+".")
}

// explain says why e is false on h: the first top-level && operand that
// is false there, with the facts of h it reads ("type==X86_64 is false:
// type is \"AARCH64\"").
func (f *staticFacts) explain(e lang.Expr, h *staticHost) string {
	part := e
	for _, c := range compile.Conjuncts(e) {
		if f.eval(c, h) == triFalse {
			part = c
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
			if !(xIsWord && yt == kindStr && xt != kindStr) {
				walk(e.X)
			}
			if !(yIsWord && xt == kindStr && yt != kindStr) {
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
	case v.kind == kindNum && !math.IsInf(v.iv.hi, 0):
		return fmt.Sprintf("%s is at most %s", r.Name, f.env.FormatValue(r, v.iv.hi))
	case !v.known:
		return ""
	case r.Name == "server":
		if v.b {
			return "it is a server host"
		}
		return "it is a client host"
	case v.kind == kindBool && v.b:
		return fmt.Sprintf("it has %s", r.Name)
	case v.kind == kindBool:
		return fmt.Sprintf("it lacks %s", r.Name)
	case v.kind == kindStr:
		return fmt.Sprintf("%s is %q", r.Name, v.s)
	}
	return ""
}

// A selectTerm is the select of one term of a requirement.
type selectTerm struct {
	expr lang.Expr
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
			terms = append(terms, selectTerm{expr: t.Simple.Select.Expr, sec: sec})
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
			if f.falseOnAll(t.expr, hosts) {
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

// falseOnAll reports whether e is false on every host.
func (f *staticFacts) falseOnAll(e lang.Expr, hosts []*staticHost) bool {
	for _, h := range hosts {
		if f.eval(e, h) != triFalse {
			return false
		}
	}
	return true
}
