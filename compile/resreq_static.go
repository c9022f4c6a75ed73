package compile

import (
	"fmt"
	"math"
	"strings"
	"sync"

	celast "cel.dev/cel-go/common/ast"
	"cel.dev/cel-go/common/operators"
	"cel.dev/cel-go/common/types"
)

// A Truth is a three-valued verdict: false, true, or unknown.
type Truth uint8

// The truths.
const (
	False Truth = iota
	True
	Unknown
)

func (t Truth) String() string {
	switch t {
	case False:
		return "false"
	case True:
		return "true"
	}
	return "unknown"
}

// TruthOf returns True or False.
func TruthOf(b bool) Truth {
	if b {
		return True
	}
	return False
}

// Not, And and Or are Kleene's: a known false (true) decides && (||)
// whatever the other side is.
func (t Truth) Not() Truth {
	switch t {
	case False:
		return True
	case True:
		return False
	}
	return Unknown
}

// And is Kleene's conjunction.
func (t Truth) And(u Truth) Truth {
	switch {
	case t == False || u == False:
		return False
	case t == True && u == True:
		return True
	}
	return Unknown
}

// Or is Kleene's disjunction.
func (t Truth) Or(u Truth) Truth {
	switch {
	case t == True || u == True:
		return True
	case t == False && u == False:
		return False
	}
	return Unknown
}

// A Bounds holds the numbers a value may take: [Lo, Hi], each bound
// possibly infinite.
type Bounds struct{ Lo, Hi float64 }

// Point is the bounds of one known number.
func Point(x float64) Bounds { return Bounds{x, x} }

// AnyNumber is the bounds of a number nothing is known about.
func AnyNumber() Bounds { return Bounds{math.Inf(-1), math.Inf(1)} }

func (i Bounds) isPoint() bool { return i.Lo == i.Hi }

func hull(a, b Bounds) Bounds { return Bounds{math.Min(a.Lo, b.Lo), math.Max(a.Hi, b.Hi)} }

// StaticValues is what is known of one host without its load, by slot:
// the partial value table a static verdict is drawn from. NewStaticValues
// makes one where nothing is known.
type StaticValues struct {
	Name string
	// Def tells whether the host defines the resource; for a Boolean,
	// whether the host has it.
	Def []Truth
	// Num holds the numbers a Numeric resource may take.
	Num []Bounds
	// Str holds a String resource's value when StrKnown.
	Str      []string
	StrKnown []bool
}

// NewStaticValues returns the value table of a host named name of which
// nothing is known.
func (e *Env) NewStaticValues(name string) *StaticValues {
	n := len(e.res)
	v := &StaticValues{Name: name, Def: make([]Truth, n), Num: make([]Bounds, n), Str: make([]string, n), StrKnown: make([]bool, n)}
	for i := range v.Def {
		v.Def[i], v.Num[i] = Unknown, AnyNumber()
	}
	return v
}

// Judge evaluates the select on what v knows of a host, with closures
// compiled from the same checked CEL AST Match runs, read three-valued:
// False means that whatever the unknowns are, the host does not match;
// True that it matches whatever values the unknowns take, provided it
// defines every number and string the select reads (reading one it does
// not define fails the host at run time). A division by zero is unknown,
// strings that differ only in case (host names also by a domain) are
// unknown, as are orderings of strings. e must be the Env that compiled p.
func (p *SelectProgram) Judge(e *Env, v *StaticValues) Truth {
	p.static.once.Do(func() { p.static.fn = compileStatic(p.ast, p.wild, e) })
	return p.static.fn(v)
}

// Judge evaluates the clause as SelectProgram.Judge does.
func (c *Clause) Judge(e *Env, v *StaticValues) Truth {
	c.static.once.Do(func() { c.static.fn = compileStatic(c.ast, c.wild, e) })
	return c.static.fn(v)
}

// staticEval holds the three-valued closures of a checked AST, compiled
// on first use.
type staticEval struct {
	once sync.Once
	fn   judgeFunc
}

type (
	judgeFunc  func(v *StaticValues) Truth
	boundsFunc func(v *StaticValues) Bounds
	strJudge   func(v *StaticValues) (string, bool)
)

// compileStatic compiles a checked CEL expression of type bool into
// three-valued closures. The AST passed the checker, so an unexpected
// node is a bug.
func compileStatic(a *celast.AST, wild map[int64]bool, e *Env) judgeFunc {
	c := &staticCompiler{closureCompiler: closureCompiler{env: e, ast: a}, wild: wild, hname: -1}
	if _, slot, ok := e.Lookup("hname"); ok {
		c.hname = slot
	}
	fn, err := c.boolean(a.Expr())
	if err != nil {
		panic(fmt.Sprintf("compile: static closures: %v", err))
	}
	return fn
}

type staticCompiler struct {
	closureCompiler
	wild  map[int64]bool
	hname int
}

func (c *staticCompiler) boolean(x celast.Expr) (judgeFunc, error) {
	switch x.Kind() {
	case celast.LiteralKind:
		b, ok := x.AsLiteral().(types.Bool)
		if !ok {
			return nil, fmt.Errorf("literal %v is not a bool", x.AsLiteral())
		}
		t := TruthOf(bool(b))
		if c.wild[x.ID()] {
			t = Unknown
		}
		return func(*StaticValues) Truth { return t }, nil
	case celast.IdentKind:
		slot, _, err := c.slotOf(x.AsIdent())
		if err != nil {
			return nil, err
		}
		return func(v *StaticValues) Truth { return v.Def[slot] }, nil
	case celast.CallKind:
		return c.boolCall(x.AsCall())
	}
	return nil, fmt.Errorf("bool expression of kind %v", x.Kind())
}

func (c *staticCompiler) boolCall(call celast.CallExpr) (judgeFunc, error) {
	args := call.Args()
	switch fn := call.FunctionName(); fn {
	case operators.LogicalAnd, operators.LogicalOr:
		x, err := c.boolean(args[0])
		if err != nil {
			return nil, err
		}
		y, err := c.boolean(args[1])
		if err != nil {
			return nil, err
		}
		if fn == operators.LogicalOr {
			return func(v *StaticValues) Truth { return x(v).Or(y(v)) }, nil
		}
		return func(v *StaticValues) Truth { return x(v).And(y(v)) }, nil
	case operators.LogicalNot:
		x, err := c.boolean(args[0])
		if err != nil {
			return nil, err
		}
		return func(v *StaticValues) Truth { return x(v).Not() }, nil
	case operators.Conditional:
		cond, err := c.boolean(args[0])
		if err != nil {
			return nil, err
		}
		x, err := c.boolean(args[1])
		if err != nil {
			return nil, err
		}
		y, err := c.boolean(args[2])
		if err != nil {
			return nil, err
		}
		return func(v *StaticValues) Truth {
			switch cond(v) {
			case True:
				return x(v)
			case False:
				return y(v)
			}
			if a, b := x(v), y(v); a == b {
				return a
			}
			return Unknown
		}, nil
	case operators.Equals, operators.NotEquals, operators.Less, operators.LessEquals, operators.Greater, operators.GreaterEquals:
		return c.compare(fn, args[0], args[1])
	}
	return nil, fmt.Errorf("bool function %q", call.FunctionName())
}

// compare judges a comparison of two numbers, two strings or two
// booleans.
func (c *staticCompiler) compare(fn string, xe, ye celast.Expr) (judgeFunc, error) {
	switch c.kindOf(xe) {
	case "double":
		x, err := c.number(xe)
		if err != nil {
			return nil, err
		}
		y, err := c.number(ye)
		if err != nil {
			return nil, err
		}
		return func(v *StaticValues) Truth { return compareBounds(x(v), y(v), fn) }, nil
	case "string":
		x, err := c.str(xe)
		if err != nil {
			return nil, err
		}
		y, err := c.str(ye)
		if err != nil {
			return nil, err
		}
		hostName := c.isSlot(xe, c.hname) || c.isSlot(ye, c.hname)
		return func(v *StaticValues) Truth {
			a, ok1 := x(v)
			b, ok2 := y(v)
			if !ok1 || !ok2 {
				return Unknown
			}
			return compareStrings(a, b, fn, hostName)
		}, nil
	case "bool":
		x, err := c.boolean(xe)
		if err != nil {
			return nil, err
		}
		y, err := c.boolean(ye)
		if err != nil {
			return nil, err
		}
		return func(v *StaticValues) Truth {
			a, b := x(v), y(v)
			if a == Unknown || b == Unknown || (fn != operators.Equals && fn != operators.NotEquals) {
				return Unknown
			}
			return TruthOf((a == b) == (fn == operators.Equals))
		}, nil
	}
	return nil, fmt.Errorf("comparison of %s", c.kindOf(xe))
}

// isSlot reports whether x reads the value of the resource in slot.
func (c *staticCompiler) isSlot(x celast.Expr, slot int) bool {
	if x.Kind() != celast.IdentKind || slot < 0 {
		return false
	}
	s, defined, err := c.slotOf(x.AsIdent())
	return err == nil && !defined && s == slot
}

// compareBounds judges x op y for numbers within two bounds:
// known when every pair of values gives the same answer.
func compareBounds(x, y Bounds, fn string) Truth {
	switch fn {
	case operators.Less:
		switch {
		case x.Hi < y.Lo:
			return True
		case x.Lo >= y.Hi:
			return False
		}
	case operators.LessEquals:
		switch {
		case x.Hi <= y.Lo:
			return True
		case x.Lo > y.Hi:
			return False
		}
	case operators.Greater:
		return compareBounds(y, x, operators.Less)
	case operators.GreaterEquals:
		return compareBounds(y, x, operators.LessEquals)
	case operators.Equals:
		switch {
		case x.isPoint() && y.isPoint() && x.Lo == y.Lo && !math.IsInf(x.Lo, 0):
			return True
		case x.Hi < y.Lo || y.Hi < x.Lo:
			return False
		}
	case operators.NotEquals:
		return compareBounds(x, y, operators.Equals).Not()
	}
	return Unknown
}

// compareStrings judges equality of two known strings. Only an exact match
// or a clear difference is known: values that differ in case only (or, for
// host names, by a domain) are unknown, and ordering is never judged.
func compareStrings(x, y, fn string, hostName bool) Truth {
	if fn != operators.Equals && fn != operators.NotEquals {
		return Unknown
	}
	eq := False
	switch {
	case x == y:
		eq = True
	case strings.EqualFold(x, y):
		eq = Unknown
	case hostName && sameHost(x, y):
		eq = Unknown
	}
	if fn == operators.NotEquals {
		return eq.Not()
	}
	return eq
}

// sameHost reports whether two host names may name one host: one is the
// other with a domain.
func sameHost(a, b string) bool {
	a, b = strings.ToLower(a), strings.ToLower(b)
	return strings.HasPrefix(a, b+".") || strings.HasPrefix(b, a+".")
}

func (c *staticCompiler) number(x celast.Expr) (boundsFunc, error) {
	switch x.Kind() {
	case celast.LiteralKind:
		d, ok := x.AsLiteral().(types.Double)
		if !ok {
			return nil, fmt.Errorf("literal %v is not a double", x.AsLiteral())
		}
		i := Point(float64(d))
		return func(*StaticValues) Bounds { return i }, nil
	case celast.IdentKind:
		slot, _, err := c.slotOf(x.AsIdent())
		if err != nil {
			return nil, err
		}
		return func(v *StaticValues) Bounds { return v.Num[slot] }, nil
	case celast.CallKind:
		return c.numCall(x.AsCall())
	}
	return nil, fmt.Errorf("number expression of kind %v", x.Kind())
}

func (c *staticCompiler) numCall(call celast.CallExpr) (boundsFunc, error) {
	args := call.Args()
	switch fn := call.FunctionName(); fn {
	case operators.Negate:
		x, err := c.number(args[0])
		if err != nil {
			return nil, err
		}
		return func(v *StaticValues) Bounds {
			i := x(v)
			return Bounds{-i.Hi, -i.Lo}
		}, nil
	case operators.Conditional:
		cond, err := c.boolean(args[0])
		if err != nil {
			return nil, err
		}
		x, err := c.number(args[1])
		if err != nil {
			return nil, err
		}
		y, err := c.number(args[2])
		if err != nil {
			return nil, err
		}
		return func(v *StaticValues) Bounds {
			switch cond(v) {
			case True:
				return x(v)
			case False:
				return y(v)
			}
			return hull(x(v), y(v))
		}, nil
	case operators.Add, operators.Subtract, operators.Multiply, operators.Divide, "lsf_div":
		x, err := c.number(args[0])
		if err != nil {
			return nil, err
		}
		y, err := c.number(args[1])
		if err != nil {
			return nil, err
		}
		switch fn {
		case operators.Add:
			return func(v *StaticValues) Bounds {
				a, b := x(v), y(v)
				return Bounds{a.Lo + b.Lo, a.Hi + b.Hi}
			}, nil
		case operators.Subtract:
			return func(v *StaticValues) Bounds {
				a, b := x(v), y(v)
				return Bounds{a.Lo - b.Hi, a.Hi - b.Lo}
			}, nil
		}
		// Products and quotients are judged on exact values only; a
		// division by zero fails the host, which says nothing here.
		mul := fn == operators.Multiply
		return func(v *StaticValues) Bounds {
			a, b := x(v), y(v)
			if !a.isPoint() || !b.isPoint() || math.IsInf(a.Lo, 0) || math.IsInf(b.Lo, 0) {
				return AnyNumber()
			}
			if mul {
				return Point(a.Lo * b.Lo)
			}
			if b.Lo == 0 {
				return AnyNumber()
			}
			return Point(a.Lo / b.Lo)
		}, nil
	}
	return nil, fmt.Errorf("number function %q", call.FunctionName())
}

func (c *staticCompiler) str(x celast.Expr) (strJudge, error) {
	switch x.Kind() {
	case celast.LiteralKind:
		sv, ok := x.AsLiteral().(types.String)
		if !ok {
			return nil, fmt.Errorf("literal %v is not a string", x.AsLiteral())
		}
		s := string(sv)
		return func(*StaticValues) (string, bool) { return s, true }, nil
	case celast.IdentKind:
		slot, _, err := c.slotOf(x.AsIdent())
		if err != nil {
			return nil, err
		}
		return func(v *StaticValues) (string, bool) { return v.Str[slot], v.StrKnown[slot] }, nil
	}
	return nil, fmt.Errorf("string expression of kind %v", x.Kind())
}
