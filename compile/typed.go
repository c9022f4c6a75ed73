package compile

import (
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/lsfc/lsfc/compile/schema"
	"github.com/lsfc/lsfc/lang"
	"github.com/lsfc/lsfc/runtime/api"
)

// typed reads a value by its key's type. It reports what cannot be read
// and returns the typed value (nil and false when unreadable).
func (c *compiler) typed(v lang.Value, k *schema.Key) (any, bool) {
	switch k.Type {
	case schema.String, schema.Path, schema.Command:
		return v.Text, true
	case schema.Name:
		ws := words(unparen(v))
		if len(ws) != 1 {
			c.valueError(v.Span, k.Name, "give one name, not %d words", len(ws))
			return nil, false
		}
		return ws[0].text, true
	case schema.Names:
		return wordTexts(words(unparen(v))), true
	case schema.Int, schema.Float:
		x, ok := c.number(v, k, k.Type == schema.Int)
		if !ok {
			return nil, false
		}
		return x, true
	case schema.Bool:
		b, ok := c.boolean(v, k)
		if !ok {
			return nil, false
		}
		return b, true
	case schema.Enum:
		e, ok := c.enum(v, k, false)
		if !ok {
			return nil, false
		}
		return e[0], true
	case schema.EnumList:
		e, ok := c.enum(unparen(v), k, true)
		if !ok {
			return nil, false
		}
		return e, true
	case schema.Memory:
		w, ok := c.oneWord(v, k.Name)
		if !ok {
			return nil, false
		}
		mb, ok := c.memory(w, k.Name, c.unitOf(k))
		if !ok {
			return nil, false
		}
		return mb, true
	case schema.Duration:
		w, ok := c.oneWord(v, k.Name)
		if !ok {
			return nil, false
		}
		d, ok := c.duration(w, k)
		if !ok {
			return nil, false
		}
		return d, true
	case schema.Limit:
		l, ok := c.limit(v, k)
		if !ok {
			return nil, false
		}
		return l, true
	case schema.Window:
		w, ok := c.windows(v, k.Name)
		if !ok {
			return nil, false
		}
		return w, true
	case schema.Threshold:
		w, ok := c.oneWord(v, k.Name)
		if !ok {
			return nil, false
		}
		th, ok := c.threshold(w, k.Name)
		if !ok {
			return nil, false
		}
		return th, true
	case schema.Hosts:
		return c.hostItems(v, k.Name), true
	case schema.Users:
		return userItems(v), true
	case schema.ResReq:
		r := c.resReq(v, k.Name)
		return r, r != nil
	case schema.Special:
		return c.special(v, k)
	}
	return v.Text, true
}

func wordTexts(ws []word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.text
	}
	return out
}

// oneWord returns the single word of a value.
func (c *compiler) oneWord(v lang.Value, key string) (word, bool) {
	ws := words(unparen(v))
	if len(ws) != 1 {
		c.valueError(v.Span, key, "give one value, not %d words", len(ws))
		return word{}, false
	}
	return ws[0], true
}

// resReq parses and compiles a resource requirement written in a file;
// its diagnostics point inside the value. STOP_COND and RESUME_COND take a
// select string only.
func (c *compiler) resReq(v lang.Value, key string) *Requirement {
	p := lang.ResReqParser{AllowRepeats: c.dialect == Openlava}
	r, ds := p.Parse(v.Src)
	c.diags = append(c.diags, ds...)
	if r == nil || ds.HasErrors() {
		return nil
	}
	req, ds := c.env.CompileResReq(r, SelectOptions{InConfig: true})
	if !c.has[lang.KindLSFShared] {
		// Without lsf.shared the site resources are unknown: a name that
		// is not built in may well be declared there.
		open := ds[:0]
		for _, d := range ds {
			if d.Code == CodeUnknownResource && strings.HasPrefix(d.Message, "unknown resource") {
				continue
			}
			open = append(open, d)
		}
		ds = open
	}
	c.diags = append(c.diags, ds...)
	if req == nil {
		return nil
	}
	if key == "STOP_COND" || key == "RESUME_COND" {
		for _, alt := range r.Alts {
			for _, t := range alt.Terms {
				for _, sec := range t.Simple.Sections {
					if sec.Kind != lang.SecSelect {
						c.valueError(sec.Span, key, "only a select string is allowed; LSF ignores the %s[] section", sec.Kind)
					}
				}
			}
		}
	}
	return req
}

// special reads the values with a grammar of their own.
func (c *compiler) special(v lang.Value, k *schema.Key) (any, bool) {
	switch k.Name {
	case "PREEMPTION":
		return c.preemption(v), true
	case "FAIRSHARE":
		return c.fairshare(v), true
	case "APS_PRIORITY":
		a := c.apsPriority(v)
		return a, a != nil
	case "USER_SHARES":
		u := unparen(v)
		s, ok := c.userShares(u.Text, 0, u.Src, k.Name)
		return s, ok
	case "SNDJOBS_TO":
		return c.sendTo(v), true
	case "RCVJOBS_FROM":
		return wordTexts(words(unparen(v))), true
	case "JOB_SCHEDULING_INTERVAL":
		in := c.schedulingInterval(v)
		return in, in != nil
	case "JOB_ACCEPT_INTERVAL":
		a := c.acceptInterval(v)
		return a, a != nil
	case "MXJ":
		return c.mxj(v)
	case "GPU_REQ", "LSB_GPU_REQ":
		return c.gpuReq(v, k.Name)
	case "GROUP_MEMBER", "MEMBER", "RESOURCES", "LOCATION":
		// Host and user groups share GROUP_MEMBER; the section readers
		// resolve the names.
		return wordTexts(words(unparen(v))), true
	case "PEND_TIME_LIMIT", "ELIGIBLE_PEND_TIME_LIMIT", "JOB_ACTION_WARNING_TIME", "ESTIMATED_RUNTIME", "RUNTIME":
		w, ok := c.oneWord(v, k.Name)
		if !ok {
			return nil, false
		}
		m, spec, ok := c.timeLimit(w, k.Name)
		if !ok {
			return nil, false
		}
		return &Limit{Max: m, Spec: spec}, true
	case "PROCLIMIT", "TASKLIMIT":
		l, ok := c.limit(v, k)
		return l, ok
	case "IMPT_JOBBKLG", "IMPT_SLOTBKLG", "IMPT_TASKBKLG", "MAX_RSCHED_TIME":
		if strings.EqualFold(strings.TrimSpace(v.Text), "infinit") {
			return "infinit", true
		}
		x, ok := c.number(v, &schema.Key{Name: k.Name, Range: ">=0"}, true)
		return x, ok
	case "NO_PREEMPT_RUN_TIME", "NO_PREEMPT_FINISH_TIME":
		t := strings.TrimSpace(v.Text)
		pct := strings.HasSuffix(t, "%")
		x, ok := parseNumber(strings.TrimSuffix(t, "%"))
		if !ok || x < 0 || (pct && x > 100) {
			c.valueError(v.Span, k.Name, "%q is not minutes or a percentage (0%% to 100%%)", v.Text)
			return nil, false
		}
		return t, true
	case "SLOT_RESERVE", "RESOURCE_RESERVE":
		return c.maxReserveTime(v, k.Name)
	case "REQUEUE_EXIT_VALUES", "SUCCESS_EXIT_VALUES":
		return c.exitValues(v, k.Name)
	case "ACCT_ARCHIVE_TIME":
		t := strings.TrimSpace(v.Text)
		if _, ok := ParseClock(t); !ok {
			c.valueError(v.Span, k.Name, "%q is not a time of day hh:mm", v.Text)
			return nil, false
		}
		return t, true
	case "EXCLUSIVE":
		t := strings.TrimSpace(v.Text)
		if b, ok := parseBool(t); ok {
			return b, true
		}
		if hasPrefixFold(t, "CU[") && strings.HasSuffix(t, "]") {
			return t, true
		}
		c.valueError(v.Span, k.Name, "%q is not Y, N or CU[cu_type]", v.Text)
		return nil, false
	case "MEM", "SWP", "TMP":
		return c.limitAmount(v, k)
	case "GOALS":
		g, ok := c.goals(v)
		return g, ok && g != nil
	case "CONTROL_ACTION":
		a, ok := c.controlAction(v)
		return a, ok
	case "RESOURCE":
		u := unparen(v)
		pairs, ok := c.pairs(u.Text, 0, u.Src, k.Name, false)
		return pairs, ok
	}
	return v.Text, true
}

// mxj reads MXJ: a whole number, or "!" for one slot per CPU.
func (c *compiler) mxj(v lang.Value) (any, bool) {
	t := strings.TrimSpace(v.Text)
	if t == "!" {
		return -1.0, true
	}
	x, ok := c.number(v, &schema.Key{Name: "MXJ", Range: ">=0"}, true)
	return x, ok
}

// exitValues reads REQUEUE_EXIT_VALUES or SUCCESS_EXIT_VALUES with the
// parser the daemon and bsub -Q use (api.ParseExitValues), so that what
// lint takes the daemon takes: "[all] [~code ...] [code ...]
// [EXCLUDE(code ...)]", exit codes 0 to 255, all and ~code in requeue
// values only. A ~code without all has a code of its own (LSF212).
func (c *compiler) exitValues(v lang.Value, key string) (any, bool) {
	text, off := v.Text, 0
	if len(text) >= 2 && text[0] == '"' && text[len(text)-1] == '"' {
		text, off = text[1:len(text)-1], 1
	}
	_, err := api.ParseExitValues(text, key == "REQUEUE_EXIT_VALUES")
	if err == nil {
		return v.Text, true
	}
	var e *api.ExitValuesError
	if !errors.As(err, &e) {
		c.valueError(v.Span, key, "%v", err)
		return nil, false
	}
	sp := v.Src.SpanOf(off+e.Start, off+e.End)
	if e.ExceptWithoutAll {
		at := v.Src.SpanOf(off+e.Start, off+e.Start)
		c.diags.Add(lang.Error, CodeExceptWithoutAll, sp,
			"%s: %q excludes an exit code from all, which the value does not give", key, text[e.Start:e.End]).
			Suggest("write all before the ~codes: every exit code but these", at, "all ")
		return nil, false
	}
	c.valueError(sp, key, "%s", e.Msg)
	return nil, false
}

// limitAmount reads MEM, SWP or TMP of a Limit: an amount of memory, or a
// percentage of each host's (meaningful with PER_HOST only).
func (c *compiler) limitAmount(v lang.Value, k *schema.Key) (any, bool) {
	w, ok := c.oneWord(v, k.Name)
	if !ok {
		return nil, false
	}
	if t, pct := strings.CutSuffix(w.text, "%"); pct {
		x, ok := parseNumber(t)
		if !ok || x < 0 || x > 100 {
			c.valueError(w.span, k.Name, "%q is not a percentage from 0 to 100", w.text)
			return nil, false
		}
		return w.text, true
	}
	// MB by default; LSF_UNIT_FOR_LIMITS may only make the unit larger.
	unit := max(c.limitUnit, MB)
	if c.dialect == Openlava {
		unit = MB
	}
	mb, ok := c.memory(w, k.Name, unit)
	if !ok {
		return nil, false
	}
	return mb, true
}

// A Pair is one [name, number] entry of a list such as a limit's
// RESOURCE or a DISTRIBUTION.
type Pair struct {
	Name  string    `json:"name"`
	Value float64   `json:"value"`
	Span  lang.Span `json:"-"`
}

// pairs reads "[name, n] [name, n] ..." at offset base of src. With
// shares, each number must be a positive whole number.
func (c *compiler) pairs(text string, base int, src *lang.Source, key string, shares bool) ([]Pair, bool) {
	var out []Pair
	ok := true
	for i := 0; i < len(text); {
		if text[i] == ' ' || text[i] == '\t' {
			i++
			continue
		}
		if text[i] != '[' {
			c.valueError(src.SpanOf(base+i, base+i+1), key, "expected \"[name, number]\"")
			return out, false
		}
		j := strings.IndexByte(text[i:], ']')
		if j < 0 {
			c.valueError(src.SpanOf(base+i, base+len(text)), key, "\"[\" is not closed")
			return out, false
		}
		entry := text[i+1 : i+j]
		sp := src.SpanOf(base+i, base+i+j+1)
		name, n, found := strings.Cut(entry, ",")
		name, n = strings.TrimSpace(name), strings.TrimSpace(n)
		x, numOK := parseNumber(n)
		switch {
		case !found || name == "":
			c.valueError(sp, key, "%q is not [name, number]", entry)
			ok = false
		case shares && (!numOK || x <= 0 || x != float64(int64(x))):
			c.valueError(sp, key, "shares %q must be a positive whole number", n)
			ok = false
		case !numOK || x < 0:
			c.valueError(sp, key, "%q is not a number of at least 0", n)
			ok = false
		default:
			out = append(out, Pair{Name: name, Value: x, Span: sp})
		}
		i += j + 1
	}
	return out, ok
}

// ParseClock reads a time of day "hh:mm" (00:00 to 23:59) and returns its
// minutes after midnight.
func ParseClock(s string) (int, bool) {
	h, m, ok := strings.Cut(s, ":")
	if !ok || len(h) < 1 || len(h) > 2 || len(m) != 2 {
		return 0, false
	}
	hh, err1 := strconv.Atoi(h)
	mm, err2 := strconv.Atoi(m)
	if err1 != nil || err2 != nil || hh < 0 || hh > 23 || mm < 0 || mm > 59 || h[0] == '+' || h[0] == '-' || m[0] == '+' || m[0] == '-' {
		return 0, false
	}
	return hh*60 + mm, true
}

// maxReserveTime reads SLOT_RESERVE and RESOURCE_RESERVE:
// MAX_RESERVE_TIME[n], n a whole number of MBD_SLEEP_TIME periods, at
// least 1. It returns n.
func (c *compiler) maxReserveTime(v lang.Value, key string) (any, bool) {
	t := strings.TrimSpace(v.Text)
	inner, ok := strings.CutPrefix(strings.ToUpper(t), "MAX_RESERVE_TIME[")
	if ok {
		inner, ok = strings.CutSuffix(inner, "]")
	}
	n, isNum := parseNumber(strings.TrimSpace(inner))
	if !ok || !isNum || n < 1 || n != math.Trunc(n) || n > 1e9 {
		c.valueError(v.Span, key, "%q is not MAX_RESERVE_TIME[integer], a whole number of MBD_SLEEP_TIME periods of at least 1", v.Text)
		return nil, false
	}
	return n, true
}
