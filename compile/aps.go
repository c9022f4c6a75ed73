package compile

import (
	"slices"
	"strings"

	"github.com/lsfc/lsfc/lang"
)

// APSPriority is a queue's APS_PRIORITY: absolute priority scheduling.
// Weight, Limit and Grace hold, by factor or subfactor name (APSFactors'
// names), its WEIGHT, its LIMIT (a cap on the value) and its GRACE_PERIOD
// in seconds (the time a job pends before the factor counts). A factor
// with no weight of its own weighs 1 when one of its subfactors has one.
type APSPriority struct {
	Weight map[string]float64 `json:"weight,omitempty"`
	Limit  map[string]float64 `json:"limit,omitempty"`
	Grace  map[string]float64 `json:"grace,omitempty"`
	// Spans of the factors, by name, where the value names them.
	Spans map[string]lang.Span `json:"-"`
}

// apsFactors returns the factors of APS_PRIORITY and their subfactors: FS, the
// dynamic priority of the job's fairshare account; RSRC, the resources it
// asks for (PROC slots, MEM and SWAP reserved by rusage); WORK, its user
// priority (JPRIORITY, bsub -sp) and its queue's priority (QPRIORITY).
func apsFactors() []apsFactor {
	return []apsFactor{
		{"FS", nil},
		{"RSRC", []string{"PROC", "MEM", "SWAP"}},
		{"WORK", []string{"JPRIORITY", "QPRIORITY"}},
	}
}

type apsFactor struct {
	Name string
	Subs []string
}

// APSFactors returns the factors of APS_PRIORITY, each with its
// subfactors, in the order LSF documents them.
func APSFactors() map[string][]string {
	out := map[string][]string{}
	for _, f := range apsFactors() {
		out[f.Name] = slices.Clone(f.Subs)
	}
	return out
}

// apsParent returns the factor a name stands for or belongs to, "" for
// an unknown name.
func apsParent(name string) string {
	for _, f := range apsFactors() {
		if f.Name == name || slices.Contains(f.Subs, name) {
			return f.Name
		}
	}
	return ""
}

// apsPriority reads APS_PRIORITY = WEIGHT[[factor, value] ...]
// LIMIT[[factor, value] ...] GRACE_PERIOD[[factor, value[s|m|h]] ...], each
// part optional. Values must be above 0; a grace period without a unit is
// in hours.
func (c *compiler) apsPriority(v lang.Value) *APSPriority {
	const key = "APS_PRIORITY"
	a := &APSPriority{Weight: map[string]float64{}, Limit: map[string]float64{}, Grace: map[string]float64{},
		Spans: map[string]lang.Span{}}
	t := v.Text
	ok := true
	for i := 0; i < len(t); {
		if t[i] == ' ' || t[i] == '\t' {
			i++
			continue
		}
		open := strings.IndexByte(t[i:], '[')
		if open < 0 {
			c.valueError(v.Src.SpanOf(i, len(t)), key, "expected WEIGHT[...], LIMIT[...] or GRACE_PERIOD[...]")
			return nil
		}
		part := strings.ToUpper(strings.TrimSpace(t[i : i+open]))
		var into map[string]float64
		switch part {
		case "WEIGHT":
			into = a.Weight
		case "LIMIT":
			into = a.Limit
		case "GRACE_PERIOD":
			into = a.Grace
		default:
			c.valueError(v.Src.SpanOf(i, i+open), key, "unknown part %q: expected WEIGHT, LIMIT or GRACE_PERIOD", strings.TrimSpace(t[i:i+open]))
			return nil
		}
		// The part's brackets: [ [f, v] [f, v] ].
		start := i + open + 1
		depth, end := 1, -1
		for k := start; k < len(t) && end < 0; k++ {
			switch t[k] {
			case '[':
				depth++
			case ']':
				if depth--; depth == 0 {
					end = k
				}
			}
		}
		if end < 0 {
			c.valueError(v.Src.SpanOf(i, len(t)), key, "%s[ is not closed", part)
			return nil
		}
		inner := t[start:end]
		if part == "GRACE_PERIOD" {
			ok = c.apsGrace(inner, start, v.Src, a) && ok
		} else {
			pairs, pok := c.pairs(inner, start, v.Src, key, false)
			ok = pok && ok
			for _, p := range pairs {
				ok = c.apsEntry(a, into, strings.ToUpper(p.Name), p.Value, p.Span) && ok
			}
		}
		i = end + 1
	}
	if !ok {
		return nil
	}
	// A subfactor's weight gives its factor a weight of 1 when it has none.
	for name := range a.Weight {
		if parent := apsParent(name); parent != name {
			if _, set := a.Weight[parent]; !set {
				a.Weight[parent] = 1
			}
		}
	}
	return a
}

// apsEntry records one [factor, value] of a part.
func (c *compiler) apsEntry(a *APSPriority, into map[string]float64, name string, x float64, sp lang.Span) bool {
	const key = "APS_PRIORITY"
	switch {
	case apsParent(name) == "":
		c.valueError(sp, key, "unknown factor %q (factors: FS, RSRC with PROC, MEM, SWAP; WORK with JPRIORITY, QPRIORITY)", name)
		return false
	case x <= 0:
		c.valueError(sp, key, "the value of %s must be above 0", name)
		return false
	}
	into[name] = x
	if _, seen := a.Spans[name]; !seen {
		a.Spans[name] = sp
	}
	return true
}

// apsGrace reads GRACE_PERIOD's [factor, value[s|m|h]] entries.
func (c *compiler) apsGrace(text string, base int, src *lang.Source, a *APSPriority) bool {
	const key = "APS_PRIORITY"
	ok := true
	for i := 0; i < len(text); {
		if text[i] == ' ' || text[i] == '\t' {
			i++
			continue
		}
		j := strings.IndexByte(text[i:], ']')
		if text[i] != '[' || j < 0 {
			c.valueError(src.SpanOf(base+i, base+len(text)), key, "expected \"[factor, time]\"")
			return false
		}
		sp := src.SpanOf(base+i, base+i+j+1)
		name, val, found := strings.Cut(text[i+1:i+j], ",")
		name, val = strings.ToUpper(strings.TrimSpace(name)), strings.TrimSpace(val)
		unit := 3600.0
		switch {
		case strings.HasSuffix(val, "s"):
			unit, val = 1, strings.TrimSuffix(val, "s")
		case strings.HasSuffix(val, "m"):
			unit, val = 60, strings.TrimSuffix(val, "m")
		case strings.HasSuffix(val, "h"):
			val = strings.TrimSuffix(val, "h")
		}
		x, numOK := parseNumber(val)
		if !found || !numOK {
			c.valueError(sp, key, "%q is not [factor, time[s|m|h]]", text[i+1:i+j])
			ok = false
		} else {
			ok = c.apsEntry(a, a.Grace, name, x*unit, sp) && ok
		}
		i += j + 1
	}
	return ok
}
