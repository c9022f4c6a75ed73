package compile

import (
	"strings"

	"github.com/lsfc/lsfc/compile/schema"
	"github.com/lsfc/lsfc/lang"
)

// A ServiceClass is a service class of lsb.serviceclasses: a time-based
// SLA with velocity, throughput and deadline goals, or a guarantee
// consumer (GOALS = [GUARANTEE]).
type ServiceClass struct {
	Name string `json:"name"`
	// Priority ranks time-based classes, higher first.
	Priority int `json:"priority"`
	// Goals are the time-based goals in the order written; Guarantee is
	// set for GOALS = [GUARANTEE] instead.
	Goals     []Goal `json:"goals,omitempty"`
	Guarantee bool   `json:"guarantee,omitempty"`
	// ControlAction is CONTROL_ACTION, or nil.
	ControlAction *ControlAction `json:"controlAction,omitempty"`
	// UserGroup is USER_GROUP: who may submit (nil for all users).
	UserGroup   []UserItem `json:"userGroup,omitempty"`
	Description string     `json:"description,omitempty"`
	Settings    Settings   `json:"settings"`
	At          string     `json:"at"`
	span        lang.Span
}

// Span returns where the class is named.
func (s *ServiceClass) Span() lang.Span { return s.span }

// GoalKind is the kind of a time-based goal.
type GoalKind string

// The goal kinds.
const (
	// Velocity asks for a number of jobs running at any time.
	Velocity GoalKind = "VELOCITY"
	// Throughput asks for a number of jobs finished per hour.
	Throughput GoalKind = "THROUGHPUT"
	// Deadline asks that every job of the class finish by the end of the
	// goal's time window.
	Deadline GoalKind = "DEADLINE"
	// Guarantee makes the class a consumer of guaranteed resource pools.
	Guarantee GoalKind = "GUARANTEE"
)

// A Goal is one goal of a service class.
type Goal struct {
	Kind GoalKind `json:"kind"`
	// Target is the number of running jobs (velocity) or of finished jobs
	// per hour (throughput); 0 for a deadline.
	Target float64 `json:"target,omitempty"`
	// Windows are the time windows in which the goal is active; none
	// means always (not allowed for a deadline).
	Windows []Window  `json:"windows,omitempty"`
	Span    lang.Span `json:"-"`
}

// A ControlAction is CONTROL_ACTION: a command run each time a goal stays
// delayed for Period.
type ControlAction struct {
	// Period is VIOLATION_PERIOD, in seconds.
	Period  Duration `json:"period"`
	Command string   `json:"command"`
}

// subValue returns the part [from, to) of a value, positioned in its file.
func subValue(v lang.Value, from, to int) lang.Value {
	t := v.Text[from:to]
	return lang.Value{Text: t, Span: v.Src.SpanOf(from, to).Root(), Src: v.Src.Derive(t, []lang.Segment{{Off: 0, ParentOff: from}})}
}

// bracketed splits a value into its top-level "[...]" groups; text outside
// brackets is reported. It returns the groups' inner parts.
func (c *compiler) bracketed(v lang.Value, key string) ([]lang.Value, bool) {
	var out []lang.Value
	t := v.Text
	ok := true
	for i := 0; i < len(t); {
		switch t[i] {
		case ' ', '\t':
			i++
			continue
		case '[':
			depth, j := 0, i
			for ; j < len(t); j++ {
				if t[j] == '[' {
					depth++
				} else if t[j] == ']' {
					depth--
					if depth == 0 {
						break
					}
				}
			}
			if j == len(t) {
				c.valueError(v.Src.SpanOf(i, len(t)).Root(), key, "\"[\" is not closed")
				return out, false
			}
			out = append(out, subValue(v, i+1, j))
			i = j + 1
		default:
			j := i
			for j < len(t) && t[j] != '[' {
				j++
			}
			c.valueError(v.Src.SpanOf(i, j).Root(), key, "%q is outside a goal: write each goal in brackets, [VELOCITY n timeWindow(...)]", strings.TrimSpace(t[i:j]))
			ok = false
			i = j
		}
	}
	return out, ok
}

// goals reads GOALS: "[VELOCITY n [timeWindow(w ...)]]",
// "[THROUGHPUT n [timeWindow(w ...)]]", "[DEADLINE timeWindow(w ...)]", any
// number of them, or "[GUARANTEE]" (a goal of kind Guarantee).
func (c *compiler) goals(v lang.Value) ([]Goal, bool) {
	const key = "GOALS"
	groups, ok := c.bracketed(v, key)
	var out []Goal
	guarantee := false
	for _, g := range groups {
		ws := words(g)
		if len(ws) == 0 {
			c.valueError(g.Span, key, "an empty goal: write VELOCITY, THROUGHPUT, DEADLINE or GUARANTEE")
			ok = false
			continue
		}
		kind := GoalKind(strings.ToUpper(ws[0].text))
		rest := ws[1:]
		goal := Goal{Kind: kind, Span: g.Span}
		switch kind {
		case Guarantee:
			if len(rest) > 0 {
				c.valueError(rest[0].span, key, "GUARANTEE takes no value")
				ok = false
			}
			guarantee = true
			out = append(out, goal)
			continue
		case Velocity, Throughput:
			if len(rest) == 0 {
				c.valueError(g.Span, key, "%s needs a number of jobs", kind)
				ok = false
				continue
			}
			x, good := parseNumber(rest[0].text)
			if !good || x <= 0 || (kind == Velocity && x != float64(int64(x))) {
				what := "a positive number of jobs per hour"
				if kind == Velocity {
					what = "a positive whole number of running jobs"
				}
				c.valueError(rest[0].span, key, "%s %q is not %s", kind, rest[0].text, what)
				ok = false
				continue
			}
			goal.Target = x
			rest = rest[1:]
		case Deadline:
		default:
			c.valueError(ws[0].span, key, "unknown goal %q (want VELOCITY, THROUGHPUT, DEADLINE or GUARANTEE)", ws[0].text)
			ok = false
			continue
		}
		if len(rest) > 0 {
			// timeWindow(w ...) or timeWindow (w ...).
			w := rest[0]
			name, inner, found := strings.Cut(w.text, "(")
			start := w.span.Start + len(name) + 1
			if !found && len(rest) > 1 && strings.HasPrefix(rest[1].text, "(") {
				rest = rest[1:]
				inner, found, start = rest[0].text[1:], true, rest[0].span.Start+1
			}
			switch {
			case !found || !strings.EqualFold(strings.TrimSpace(name), "timeWindow") || !strings.HasSuffix(inner, ")"):
				c.valueError(w.span, key, "%q is not timeWindow(time_window ...)", w.text)
				ok = false
				continue
			case len(rest) > 1:
				c.valueError(rest[1].span, key, "unexpected %q after the time window", rest[1].text)
				ok = false
			}
			windows, good := c.windows(subValue(g, start, start+len(inner)-1), key)
			ok = ok && good
			goal.Windows = windows
		}
		if kind == Deadline && len(goal.Windows) == 0 {
			c.valueError(g.Span, key, "a DEADLINE goal needs a time window: its deadline is the window's end")
			ok = false
			continue
		}
		out = append(out, goal)
	}
	if guarantee && len(out) > 1 {
		c.diags.Add(lang.Error, CodeConflict, v.Span, "GOALS: GUARANTEE cannot be combined with time-based goals")
		ok = false
	}
	if len(out) == 0 && ok {
		c.valueError(v.Span, key, "no goal: write at least one of [VELOCITY n], [THROUGHPUT n], [DEADLINE timeWindow(...)]")
		ok = false
	}
	return out, ok
}

// controlAction reads CONTROL_ACTION = VIOLATION_PERIOD[minutes] CMD [command].
func (c *compiler) controlAction(v lang.Value) (*ControlAction, bool) {
	const key = "CONTROL_ACTION"
	t := v.Text
	bad := func() (*ControlAction, bool) {
		c.valueError(v.Span, key, "%q is not VIOLATION_PERIOD[minutes] CMD [command]", t)
		return nil, false
	}
	rest := strings.TrimSpace(t)
	if !hasPrefixFold(rest, "VIOLATION_PERIOD[") {
		return bad()
	}
	rest = rest[len("VIOLATION_PERIOD["):]
	num, rest, found := strings.Cut(rest, "]")
	if !found {
		return bad()
	}
	minutes, good := parseNumber(strings.TrimSpace(num))
	if !good || minutes <= 0 {
		c.valueError(v.Span, key, "VIOLATION_PERIOD %q is not a positive number of minutes", num)
		return nil, false
	}
	rest = strings.TrimSpace(rest)
	if !hasPrefixFold(rest, "CMD") {
		return bad()
	}
	rest = strings.TrimSpace(rest[len("CMD"):])
	if !strings.HasPrefix(rest, "[") || !strings.HasSuffix(rest, "]") || strings.TrimSpace(rest[1:len(rest)-1]) == "" {
		return bad()
	}
	return &ControlAction{Period: Duration(minutes * 60), Command: strings.TrimSpace(rest[1 : len(rest)-1])}, true
}

// serviceClass builds a service class from a ServiceClass section read as
// settings, and checks what only the whole section tells.
func (c *compiler) serviceClass(s *lang.Section, set Settings, defs map[string]lang.Span, br map[string]*lang.Branch) {
	name := set.str("NAME")
	if name == "" || !c.define(defs, br, "service class", name, set.spanOf("NAME"), s.Branch) {
		return
	}
	sc := &ServiceClass{Name: name, Settings: set, At: at(s.Name.Span), span: set.spanOf("NAME")}
	if st := set["GOALS"]; st != nil {
		goals, _ := st.Value.([]Goal)
		for _, g := range goals {
			if g.Kind != Guarantee {
				sc.Goals = append(sc.Goals, g)
			}
		}
		// GUARANTEE combined with other goals was reported; the class
		// counts as time-based then.
		sc.Guarantee = len(goals) > 0 && len(sc.Goals) == 0
	}
	if st := set["CONTROL_ACTION"]; st != nil {
		sc.ControlAction, _ = st.Value.(*ControlAction)
	}
	if st := set["USER_GROUP"]; st != nil {
		sc.UserGroup, _ = st.Value.([]UserItem)
		for _, u := range sc.UserGroup {
			if c.userGroups[u.Name] != nil || strings.EqualFold(u.Name, "all") {
				continue
			}
			if s := lang.Suggest(u.Name, sortedKeys(c.userGroups)); s != "" && s != u.Name {
				// A user name cannot be checked; one close to a group's
				// is likely a misspelt group.
				c.diags.Add(lang.Warning, CodeUnknownUserGroup, u.Span, "USER_GROUP of service class %q names %q, which is no user group of lsb.users (did you mean %q?); LSF takes it as a user name", name, u.Name, s).
					Suggest(replaceWith(s), u.Span, s)
			}
		}
	}
	sc.Description = set.str("DESCRIPTION")
	if len(sc.Description) > 512 {
		c.diags.Add(lang.Warning, CodeOutOfRange, set.spanOf("DESCRIPTION"), "DESCRIPTION of service class %q has %d characters; LSF keeps the first 512", name, len(sc.Description))
	}
	if p := set.num("PRIORITY"); p != nil {
		sc.Priority = int(*p)
	}
	switch {
	case sc.Guarantee:
		for _, k := range []string{"PRIORITY", "CONTROL_ACTION", "USER_GROUP"} {
			if set[k] != nil {
				c.diags.Add(lang.Error, CodeConflict, set[k].key, "service class %q has GOALS = [GUARANTEE], which does not take %s", name, k).
					Note(set["GOALS"].span, "the guarantee goal is set here")
			}
		}
	case len(sc.Goals) > 0:
		if set["PRIORITY"] == nil {
			c.diags.Add(lang.Error, CodeMissingKey, s.Name.Span, "service class %q has time-based goals but no PRIORITY; LSF requires one", name)
		}
		for _, k := range []string{"ACCESS_CONTROL", "AUTO_ATTACH"} {
			if set[k] != nil {
				c.diags.Add(lang.Warning, CodeConflict, set[k].key, "%s applies to guarantee service classes only; service class %q has time-based goals and LSF ignores it", k, name)
			}
		}
	}
	c.p.ServiceClasses = append(c.p.ServiceClasses, sc)
}

// serviceClassNames reports service classes named like a user group or a
// host partition, which LSF does not allow.
func (c *compiler) serviceClassNames() {
	parts := map[string]lang.Span{}
	for _, o := range c.p.Sections {
		if o.Name == "HostPartition" && o.Settings != nil {
			if st := o.Settings["HPART_NAME"]; st != nil {
				if n, ok := st.Value.(string); ok {
					parts[n] = st.span
				}
			}
		}
	}
	for _, sc := range c.p.ServiceClasses {
		if g := c.userGroups[sc.Name]; g != nil {
			c.diags.Add(lang.Error, CodeDuplicate, sc.span, "service class %q has the name of a user group", sc.Name).
				Note(g.span, "user group %s is defined here", sc.Name)
		}
		if sp, ok := parts[sc.Name]; ok {
			c.diags.Add(lang.Error, CodeDuplicate, sc.span, "service class %q has the name of a host partition", sc.Name).
				Note(sp, "host partition %s is defined here", sc.Name)
		}
	}
}

// readServiceClasses reads lsb.serviceclasses: each section is kept as
// settings (in Sections) and as a ServiceClass.
func (c *compiler) readServiceClasses(f *lang.File) {
	defs := map[string]lang.Span{}
	br := map[string]*lang.Branch{}
	c.sections(f, func(s *lang.Section, ss *schema.Section) {
		c.otherSection(f, s, ss)
		if o := c.p.Sections[len(c.p.Sections)-1]; ss.Name == "ServiceClass" && o.Settings != nil {
			c.serviceClass(s, o.Settings, defs, br)
		}
	})
}
