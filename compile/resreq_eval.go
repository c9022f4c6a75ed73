package compile

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	celast "cel.dev/cel-go/common/ast"
	"cel.dev/cel-go/common/operators"
	"cel.dev/cel-go/common/types"
)

// HostValues is one host's value table: the value of every resource of an
// Env, by slot. Booleans are 1 or 0 in Num; Has tells whether the host
// defines the resource (for a Boolean, whether the host has it).
type HostValues struct {
	Name string
	// Num holds numbers (NaN when undefined) and booleans (1 or 0).
	Num []float64
	Str []string
	Has []bool
	// Avail is, for consumable resources, the amount free for a
	// reservation (configured − max(reserved, used)); NaN when unknown.
	Avail []float64
	// FreeSlots is the host's free job slots (1 when unknown); Usable
	// tells whether its status lets it take jobs (ok or busy).
	FreeSlots int
	Usable    bool
}

// Values builds the value table of h for the resources of e. Memory
// amounts are converted to e.Unit (tmp and maxtmp stay in MB unless
// e.TmpUnit).
func (e *Env) Values(h *Host) *HostValues {
	n := len(e.res)
	v := &HostValues{Num: make([]float64, n), Str: make([]string, n), Has: make([]bool, n), Avail: make([]float64, n)}
	e.fill(h, v)
	return v
}

// fill writes h's values into v, whose slices have one entry per slot.
func (e *Env) fill(h *Host, v *HostValues) {
	v.Name = h.Name
	// An undefined number reads as NaN, so that the closures test
	// definedness with the value they load anyway.
	for slot, r := range e.res {
		if r.Type == Numeric {
			v.Num[slot] = math.NaN()
		}
	}
	v.FreeSlots, v.Usable = freeSlots(h), usable(h)
	setNum := func(name string, x float64, ok bool) {
		if r, slot, found := e.Lookup(name); found && ok {
			if r.Memory {
				x /= e.Unit.Megabytes()
			} else if isTmp(r.Name) && e.TmpUnit {
				x /= e.Unit.Megabytes()
			}
			v.Num[slot], v.Has[slot] = x, true
		}
	}
	setStr := func(name, s string) {
		if _, slot, ok := e.Lookup(name); ok && s != "" {
			v.Str[slot], v.Has[slot] = s, true
		}
	}
	setBool := func(name string, b bool) {
		if r, slot, ok := e.Lookup(name); ok && r.Type == Boolean && b {
			v.Num[slot], v.Has[slot] = 1, true
		}
	}
	setNum("ncpus", h.Ncpus, h.Ncpus > 0)
	setNum("nprocs", h.Nprocs, h.Nprocs > 0)
	setNum("ncores", h.Ncores, h.Ncores > 0)
	setNum("nthreads", h.Nthreads, h.Nthreads > 0)
	setNum("maxmem", h.Maxmem, h.Maxmem > 0)
	setNum("maxswp", h.Maxswp, h.Maxswp > 0)
	setNum("maxtmp", h.Maxtmp, h.Maxtmp > 0)
	setNum("cpuf", h.Cpuf, h.Cpuf > 0)
	setNum("slots", h.Slots, h.Slots >= 0)
	setNum("maxslots", h.MaxSlots, h.MaxSlots >= 0)
	setStr("type", h.Type)
	setStr("model", h.Model)
	setStr("hname", h.Name)
	status := h.Status
	if status == "" {
		status = "ok"
	}
	setStr("status", status)
	setBool("server", h.Server)
	for name, x := range h.Load {
		setNum(name, x, true)
	}
	for _, b := range h.Booleans {
		setBool(b, true)
	}
	for name, x := range h.Numbers {
		if r, _, ok := e.Lookup(name); ok && r.Type == Numeric && !r.Builtin {
			setNum(name, x, true)
		}
	}
	for name, s := range h.Strings {
		if r, _, ok := e.Lookup(name); ok && r.Type == String && !r.Builtin {
			setStr(name, s)
		}
	}
	for slot := range e.res {
		v.Avail[slot] = math.NaN()
		if e.res[slot].Consumable {
			if a, ok := e.available(slot, h, v); ok {
				v.Avail[slot] = a
			}
		}
	}
}

// Match reports whether host h satisfies the select.
func (p *SelectProgram) Match(h *HostValues) bool { return p.fast(h) == triTrue }

// Match reports whether h satisfies the clause.
func (c *Clause) Match(h *HostValues) bool { return c.fast(h) == triTrue }

// The closures are typed: a boolean node gives a tri (false, true, or an
// error: a value the host does not define, a division by zero); a numeric
// node a float64 and whether it is defined; a string node likewise. The
// types come from the CEL checker, so no closure tests kinds at run time,
// and none allocates.
type tri uint8

const (
	triFalse tri = iota
	triTrue
	triErr
)

type (
	evalFunc func(h *HostValues) tri
	numFunc  func(h *HostValues) (float64, bool)
	strFunc  func(h *HostValues) (string, bool)
)

// compileClosure turns a checked CEL expression of type bool into Go
// closures that read a host's value table directly. It follows CEL's
// semantics: && and || absorb an error when the other side decides, every
// other operator propagates it.
func compileClosure(a *celast.AST, e *Env) (evalFunc, error) {
	c := &closureCompiler{env: e, ast: a}
	return c.boolean(c.ast.Expr())
}

type closureCompiler struct {
	env *Env
	ast *celast.AST
}

// kindOf returns the checked type of x: "bool", "double" or "string".
func (c *closureCompiler) kindOf(x celast.Expr) string {
	t := c.ast.GetType(x.ID())
	if t == nil {
		return ""
	}
	return t.String()
}

// slotOf parses a CEL variable name ("r12", "d12") into its slot.
func (c *closureCompiler) slotOf(name string) (int, bool, error) {
	slot, err := strconv.Atoi(name[1:])
	if err != nil || slot < 0 || slot >= len(c.env.res) || (name[0] != 'r' && name[0] != 'd') {
		return 0, false, fmt.Errorf("unknown variable %q", name)
	}
	return slot, name[0] == 'd', nil
}

func (c *closureCompiler) boolean(x celast.Expr) (evalFunc, error) {
	switch x.Kind() {
	case celast.LiteralKind:
		b, ok := x.AsLiteral().(types.Bool)
		if !ok {
			return nil, fmt.Errorf("literal %v is not a bool", x.AsLiteral())
		}
		v := triFalse
		if b {
			v = triTrue
		}
		return func(*HostValues) tri { return v }, nil
	case celast.IdentKind:
		slot, _, err := c.slotOf(x.AsIdent())
		if err != nil {
			return nil, err
		}
		// Booleans and defined(): presence, never an error.
		return func(h *HostValues) tri {
			if h.Has[slot] {
				return triTrue
			}
			return triFalse
		}, nil
	case celast.CallKind:
		return c.boolCall(x.AsCall())
	}
	return nil, fmt.Errorf("bool expression of kind %v", x.Kind())
}

func (c *closureCompiler) boolCall(call celast.CallExpr) (evalFunc, error) {
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
		// decide is the value that settles the result whatever the
		// other side is: false for &&, true for ||.
		decide := triFalse
		if fn == operators.LogicalOr {
			decide = triTrue
		}
		return func(h *HostValues) tri {
			a := x(h)
			if a == decide {
				return decide
			}
			b := y(h)
			if b == decide {
				return decide
			}
			if a == triErr || b == triErr {
				return triErr
			}
			return a
		}, nil
	case operators.LogicalNot:
		x, err := c.boolean(args[0])
		if err != nil {
			return nil, err
		}
		return func(h *HostValues) tri {
			switch x(h) {
			case triTrue:
				return triFalse
			case triFalse:
				return triTrue
			}
			return triErr
		}, nil
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
		return func(h *HostValues) tri {
			switch cond(h) {
			case triTrue:
				return x(h)
			case triFalse:
				return y(h)
			}
			return triErr
		}, nil
	case operators.Equals, operators.NotEquals, operators.Less, operators.LessEquals, operators.Greater, operators.GreaterEquals:
		return c.compare(fn, args[0], args[1])
	}
	return nil, fmt.Errorf("bool function %q", call.FunctionName())
}

// compare compiles a comparison of two numbers, two strings or two
// booleans (the checker made sure the sides agree).
func (c *closureCompiler) compare(fn string, xe, ye celast.Expr) (evalFunc, error) {
	test := cmpTest(fn)
	switch c.kindOf(xe) {
	case "double":
		// The common case "resource op constant" reads the slot directly.
		if xe.Kind() == celast.IdentKind && ye.Kind() == celast.LiteralKind {
			slot, _, err := c.slotOf(xe.AsIdent())
			if err != nil {
				return nil, err
			}
			return slotConstCompare(fn, slot, float64(ye.AsLiteral().(types.Double))), nil
		}
		x, err := c.number(xe)
		if err != nil {
			return nil, err
		}
		y, err := c.number(ye)
		if err != nil {
			return nil, err
		}
		return func(h *HostValues) tri {
			a, ok := x(h)
			if !ok {
				return triErr
			}
			b, ok := y(h)
			if !ok {
				return triErr
			}
			return triOf(test(cmpFloat(a, b)))
		}, nil
	case "string":
		if xe.Kind() == celast.IdentKind && ye.Kind() == celast.LiteralKind {
			slot, _, err := c.slotOf(xe.AsIdent())
			if err != nil {
				return nil, err
			}
			k := string(ye.AsLiteral().(types.String))
			return func(h *HostValues) tri {
				if !h.Has[slot] {
					return triErr
				}
				return triOf(test(strings.Compare(h.Str[slot], k)))
			}, nil
		}
		x, err := c.str(xe)
		if err != nil {
			return nil, err
		}
		y, err := c.str(ye)
		if err != nil {
			return nil, err
		}
		return func(h *HostValues) tri {
			a, ok := x(h)
			if !ok {
				return triErr
			}
			b, ok := y(h)
			if !ok {
				return triErr
			}
			return triOf(test(strings.Compare(a, b)))
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
		return func(h *HostValues) tri {
			a, b := x(h), y(h)
			if a == triErr || b == triErr {
				return triErr
			}
			return triOf(test(int(a) - int(b))) // false < true
		}, nil
	}
	return nil, fmt.Errorf("comparison of %s", c.kindOf(xe))
}

// slotConstCompare compiles "resource op constant", the most common
// comparison, into one closure per operator that loads the value once: an
// undefined value is NaN, which every test but != rejects, so the error
// check comes after the test.
func slotConstCompare(fn string, slot int, k float64) evalFunc {
	switch fn {
	case operators.Equals:
		return func(h *HostValues) tri {
			if x := h.Num[slot]; x == k {
				return triTrue
			} else if x != x {
				return triErr
			}
			return triFalse
		}
	case operators.NotEquals:
		return func(h *HostValues) tri {
			if x := h.Num[slot]; x != x {
				return triErr
			} else if x != k {
				return triTrue
			}
			return triFalse
		}
	case operators.Less:
		return func(h *HostValues) tri {
			if x := h.Num[slot]; x < k {
				return triTrue
			} else if x != x {
				return triErr
			}
			return triFalse
		}
	case operators.LessEquals:
		return func(h *HostValues) tri {
			if x := h.Num[slot]; x <= k {
				return triTrue
			} else if x != x {
				return triErr
			}
			return triFalse
		}
	case operators.Greater:
		return func(h *HostValues) tri {
			if x := h.Num[slot]; x > k {
				return triTrue
			} else if x != x {
				return triErr
			}
			return triFalse
		}
	}
	return func(h *HostValues) tri { // >=
		if x := h.Num[slot]; x >= k {
			return triTrue
		} else if x != x {
			return triErr
		}
		return triFalse
	}
}

// cmpNaN is cmpFloat's result for unordered numbers: every test but != is
// false for it.
const cmpNaN = 2

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	case a == b:
		return 0
	}
	return cmpNaN
}

// cmpTest returns the test of a three-way comparison result for a CEL
// comparison function.
func cmpTest(fn string) func(int) bool {
	switch fn {
	case operators.Equals:
		return func(c int) bool { return c == 0 }
	case operators.NotEquals:
		return func(c int) bool { return c != 0 }
	case operators.Less:
		return func(c int) bool { return c == -1 }
	case operators.LessEquals:
		return func(c int) bool { return c == -1 || c == 0 }
	case operators.Greater:
		return func(c int) bool { return c == 1 }
	}
	return func(c int) bool { return c == 1 || c == 0 }
}

func triOf(b bool) tri {
	if b {
		return triTrue
	}
	return triFalse
}

func (c *closureCompiler) number(x celast.Expr) (numFunc, error) {
	switch x.Kind() {
	case celast.LiteralKind:
		d, ok := x.AsLiteral().(types.Double)
		if !ok {
			return nil, fmt.Errorf("literal %v is not a double", x.AsLiteral())
		}
		v := float64(d)
		return func(*HostValues) (float64, bool) { return v, true }, nil
	case celast.IdentKind:
		slot, _, err := c.slotOf(x.AsIdent())
		if err != nil {
			return nil, err
		}
		return func(h *HostValues) (float64, bool) {
			x := h.Num[slot]
			return x, x == x
		}, nil
	case celast.CallKind:
		return c.numCall(x.AsCall())
	}
	return nil, fmt.Errorf("number expression of kind %v", x.Kind())
}

func (c *closureCompiler) numCall(call celast.CallExpr) (numFunc, error) {
	args := call.Args()
	switch fn := call.FunctionName(); fn {
	case operators.Negate:
		x, err := c.number(args[0])
		if err != nil {
			return nil, err
		}
		return func(h *HostValues) (float64, bool) {
			a, ok := x(h)
			return -a, ok
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
		return func(h *HostValues) (float64, bool) {
			switch cond(h) {
			case triTrue:
				return x(h)
			case triFalse:
				return y(h)
			}
			return 0, false
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
			return func(h *HostValues) (float64, bool) {
				a, ok1 := x(h)
				b, ok2 := y(h)
				return a + b, ok1 && ok2
			}, nil
		case operators.Subtract:
			return func(h *HostValues) (float64, bool) {
				a, ok1 := x(h)
				b, ok2 := y(h)
				return a - b, ok1 && ok2
			}, nil
		case operators.Multiply:
			return func(h *HostValues) (float64, bool) {
				a, ok1 := x(h)
				b, ok2 := y(h)
				return a * b, ok1 && ok2
			}, nil
		case operators.Divide:
			return func(h *HostValues) (float64, bool) {
				a, ok1 := x(h)
				b, ok2 := y(h)
				return a / b, ok1 && ok2
			}, nil
		}
		return func(h *HostValues) (float64, bool) {
			a, ok1 := x(h)
			b, ok2 := y(h)
			return a / b, ok1 && ok2 && b != 0
		}, nil
	}
	return nil, fmt.Errorf("number function %q", call.FunctionName())
}

func (c *closureCompiler) str(x celast.Expr) (strFunc, error) {
	switch x.Kind() {
	case celast.LiteralKind:
		sv, ok := x.AsLiteral().(types.String)
		if !ok {
			return nil, fmt.Errorf("literal %v is not a string", x.AsLiteral())
		}
		v := string(sv)
		return func(*HostValues) (string, bool) { return v, true }, nil
	case celast.IdentKind:
		slot, _, err := c.slotOf(x.AsIdent())
		if err != nil {
			return nil, err
		}
		return func(h *HostValues) (string, bool) { return h.Str[slot], h.Has[slot] }, nil
	}
	return nil, fmt.Errorf("string expression of kind %v", x.Kind())
}
