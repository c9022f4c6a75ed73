package mc

import (
	"slices"
	"strings"

	"github.com/lsfc/lsfc/lang"
)

// Needs are the parts of a job's -R that count when the submission
// cluster weighs remote resources (MC_PLUGIN_REMOTE_RESOURCE=y, or
// MC_PLUGIN_SCHEDULE_ENHANCE): the host types type==X allows, the Boolean
// resources defined(name) asks for, and same[type]. Every other part of
// the requirement is left to the execution cluster. The zero Needs asks
// for nothing.
type Needs struct {
	// Types are the host types the job may run on, sorted; nil allows any.
	Types []string
	// Defined are the Boolean resources the hosts must have, sorted.
	Defined []string
	// SameType asks for hosts of one type.
	SameType bool
}

// ParseNeeds reads the remote-resource needs of a job's -R string.
// fromType is the submission host's type, which type==local stands for
// ("" leaves type==local unconstrained, as type==any is). Only the first
// alternative of a requirement with alternatives ({...} || {...}) is
// read, and the terms of a compound requirement all apply to the job as
// a whole. In a select, type==X and defined(name) count where they must
// hold for the select to hold: at the top level, under &&, or as an ||
// of type==X tests only; under ! or in any other || they are left out,
// as are all other tests. A requirement that does not parse has no
// needs: the job was checked when it was submitted.
func ParseNeeds(resReq, fromType string) Needs {
	var n Needs
	if strings.TrimSpace(resReq) == "" {
		return n
	}
	r, diags := lang.ParseResReq(lang.NewSource("-R", resReq))
	if diags.HasErrors() || r == nil {
		return n
	}
	for _, s := range simples(r) {
		if sec := s.Section(lang.SecSelect); sec != nil && sec.Select != nil && sec.Select.Expr != nil {
			n.conjunct(sec.Select.Expr, fromType)
		}
		if sec := s.Section(lang.SecSame); sec != nil {
			for _, it := range sec.Items {
				if strings.EqualFold(it.Name.Text, "type") {
					n.SameType = true
				}
			}
		}
	}
	slices.Sort(n.Defined)
	n.Defined = slices.Compact(n.Defined)
	return n
}

// simples returns the simple requirements of a requirement's first
// alternative.
func simples(r *lang.ResReq) []*lang.Simple {
	if s := r.Simple(); s != nil {
		return []*lang.Simple{s}
	}
	if len(r.Alts) == 0 {
		return nil
	}
	var out []*lang.Simple
	for _, t := range r.Alts[0].Terms {
		if t.Simple != nil {
			out = append(out, t.Simple)
		}
	}
	return out
}

// conjunct records the needs of an expression that must hold.
func (n *Needs) conjunct(e lang.Expr, fromType string) {
	switch e := e.(type) {
	case *lang.Paren:
		n.conjunct(e.X, fromType)
	case *lang.Defined:
		n.Defined = append(n.Defined, e.Name.Text)
	case *lang.Binary:
		switch e.Op {
		case "&&":
			n.conjunct(e.X, fromType)
			n.conjunct(e.Y, fromType)
		case "==", "||":
			if types, ok := typeSet(e, fromType); ok && types != nil {
				n.allow(types)
			}
		}
	}
}

// allow narrows the allowed host types to those also in types.
func (n *Needs) allow(types []string) {
	slices.Sort(types)
	types = slices.Compact(types)
	if n.Types == nil {
		n.Types = types
		return
	}
	n.Types = slices.DeleteFunc(n.Types, func(t string) bool { return !slices.Contains(types, t) })
	if n.Types == nil {
		n.Types = []string{}
	}
}

// typeSet reads an expression made only of type==X tests joined by ||:
// the types it allows, nil for any (type==any, or type==local without a
// submission host type), and whether the expression is of that form.
func typeSet(e lang.Expr, fromType string) ([]string, bool) {
	switch e := e.(type) {
	case *lang.Paren:
		return typeSet(e.X, fromType)
	case *lang.Binary:
		switch e.Op {
		case "||":
			x, okx := typeSet(e.X, fromType)
			y, oky := typeSet(e.Y, fromType)
			if !okx || !oky {
				return nil, false
			}
			if x == nil || y == nil {
				return nil, true
			}
			return append(x, y...), true
		case "==":
			v, ok := typeTest(e)
			if !ok {
				return nil, false
			}
			switch {
			case strings.EqualFold(v, "any"):
				return nil, true
			case strings.EqualFold(v, "local"):
				if fromType == "" {
					return nil, true
				}
				return []string{fromType}, true
			}
			return []string{v}, true
		}
	}
	return nil, false
}

// typeTest reads type==X (or X==type): X and true.
func typeTest(b *lang.Binary) (string, bool) {
	isType := func(e lang.Expr) bool {
		id, ok := e.(*lang.Ident)
		return ok && id.Name == "type"
	}
	value := func(e lang.Expr) (string, bool) {
		switch v := e.(type) {
		case *lang.Ident:
			return v.Name, true
		case *lang.Literal:
			if v.Kind == lang.LitString || v.Kind == lang.LitWord {
				return v.Str, true
			}
		}
		return "", false
	}
	switch {
	case isType(b.X):
		return value(b.Y)
	case isType(b.Y):
		return value(b.X)
	}
	return "", false
}
