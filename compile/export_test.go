package compile

import (
	"sync"

	"strconv"

	"cel.dev/cel-go/cel"
	celast "cel.dev/cel-go/common/ast"
	"cel.dev/cel-go/common/types"
	"cel.dev/cel-go/common/types/ref"
	"cel.dev/cel-go/interpreter"
)

// MatchCEL reports whether h satisfies the select by running cel-go's
// interpreter on the checked AST the closures were compiled from: the
// reference Match is tested against. e must be the Env that compiled p.
func (p *SelectProgram) MatchCEL(e *Env, h *HostValues) bool {
	prog := p.celProgram(e)
	boxed, ok := testBoxed.Load(h)
	if !ok {
		boxed, _ = testBoxed.LoadOrStore(h, box(e, h))
	}
	out, _, err := prog.Eval(hostActivation{env: e, h: h, boxed: boxed.([]ref.Val)})
	if err != nil {
		return false
	}
	b, ok := out.(types.Bool)
	return ok && bool(b)
}

// CELString returns the checked CEL expression in CEL's syntax, for
// messages.
func (p *SelectProgram) CELString() string {
	pb, err := celast.ToProto(p.ast)
	if err != nil {
		return err.Error()
	}
	s, err := cel.AstToString(cel.CheckedExprToAst(pb))
	if err != nil {
		return err.Error()
	}
	return s
}

func (p *SelectProgram) celProgram(e *Env) cel.Program {
	if prog, ok := testPrograms.Load(p); ok {
		return prog.(cel.Program)
	}
	env, err := refEnv(e)
	if err != nil {
		panic(err)
	}
	pb, err := celast.ToProto(p.ast)
	if err != nil {
		panic(err)
	}
	prog, err := env.Program(cel.CheckedExprToAst(pb), cel.EvalOptions(cel.OptOptimize))
	if err != nil {
		panic(err)
	}
	testPrograms.Store(p, prog)
	return prog
}

// refEnv returns cel-go's environment for the resources of e, with
// lsf_div bound.
func refEnv(e *Env) (*cel.Env, error) {
	if env, ok := testEnvs.Load(e); ok {
		return env.(*cel.Env), nil
	}
	opts := []cel.EnvOption{
		cel.Function("lsf_div", cel.Overload("lsf_div_double_double",
			[]*cel.Type{cel.DoubleType, cel.DoubleType}, cel.DoubleType,
			cel.BinaryBinding(func(a, b ref.Val) ref.Val {
				d := b.(types.Double)
				if d == 0 {
					return types.NewErr("division by zero")
				}
				return a.(types.Double) / d
			}))),
	}
	for i, r := range e.res {
		opts = append(opts, cel.Variable(celName(i), celType(r.Type)), cel.Variable(celDefined(i), cel.BoolType))
	}
	env, err := cel.NewEnv(opts...)
	if err == nil {
		testEnvs.Store(e, env)
	}
	return env, err
}

// box returns the CEL values of h's value table, by slot.
func box(e *Env, h *HostValues) []ref.Val {
	boxed := make([]ref.Val, len(h.Num))
	for i, r := range e.res {
		switch r.Type {
		case Boolean:
			boxed[i] = types.Bool(h.Has[i])
		case Numeric:
			boxed[i] = types.Double(h.Num[i])
		case String:
			boxed[i] = types.String(h.Str[i])
		}
	}
	return boxed
}

// hostActivation resolves CEL variables from a host's value table.
type hostActivation struct {
	env   *Env
	h     *HostValues
	boxed []ref.Val
}

func (a hostActivation) ResolveName(name string) (any, bool) {
	if len(name) < 2 {
		return nil, false
	}
	slot, err := strconv.Atoi(name[1:])
	if err != nil || slot < 0 || slot >= len(a.h.Has) {
		return nil, false
	}
	if name[0] == 'd' {
		return types.Bool(a.h.Has[slot]), true
	}
	if a.env.res[slot].Type != Boolean && !a.h.Has[slot] {
		return nil, false // undefined on this host: reading it is an error
	}
	return a.boxed[slot], true
}

func (hostActivation) Parent() interpreter.Activation { return nil }

// The reference programs, environments and host values, cached for the
// tests and benchmarks.
var testPrograms, testEnvs, testBoxed sync.Map
