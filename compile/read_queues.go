package compile

import (
	"github.com/lsfc/lsfc/compile/schema"
	"github.com/lsfc/lsfc/lang"
)

// readUsers reads lsb.users: user groups, per-user limits and user maps.
func (c *compiler) readUsers(f *lang.File) {
	defs := map[string]lang.Span{}
	br := map[string]*lang.Branch{}
	c.sections(f, func(s *lang.Section, ss *schema.Section) {
		switch ss.Name {
		case "UserGroup":
			for _, r := range c.table(f.Kind, s, ss) {
				name := r.set.str("GROUP_NAME")
				sp := r.set.spanOf("GROUP_NAME")
				if name == "" || !c.define(defs, br, "user group", name, sp, r.row.Branch) {
					continue
				}
				g := &UserGroup{Name: name, At: at(sp), span: sp, set: r.set}
				if st := r.set["GROUP_MEMBER"]; st != nil {
					g.Members = userItems(st.val)
				}
				if st := r.set["USER_SHARES"]; st != nil {
					g.Shares, _ = st.Value.([]Share)
				}
				c.userGroups[name] = g
				c.p.UserGroups = append(c.p.UserGroups, g)
			}
		case "User":
			for _, r := range c.table(f.Kind, s, ss) {
				name := r.set.str("USER_NAME")
				if name == "" {
					continue
				}
				c.p.UserLimits = append(c.p.UserLimits, &UserLimit{User: name, MaxJobs: r.set.num("MAX_JOBS"), JLP: r.set.num("JL/P"),
					Settings: r.set, At: at(r.set.spanOf("USER_NAME")), span: r.set.spanOf("USER_NAME")})
			}
		default:
			c.otherSection(f, s, ss)
		}
	})
}

// readQueues reads lsb.queues.
func (c *compiler) readQueues(f *lang.File) {
	defs := map[string]lang.Span{}
	br := map[string]*lang.Branch{}
	c.sections(f, func(s *lang.Section, ss *schema.Section) {
		set := c.keyValues(f.Kind, s.Assigns, ss)
		c.required(s, ss, set)
		name := set.str("QUEUE_NAME")
		if name == "" || !c.define(defs, br, "queue", name, set.spanOf("QUEUE_NAME"), s.Branch) {
			return
		}
		q := &Queue{Name: name, Priority: 1, Settings: set, At: at(s.Name.Span), span: s.Span(), nameSpan: set.spanOf("QUEUE_NAME"), section: s}
		c.queueFields(q, set)
		c.queues[name] = q
		c.p.Queues = append(c.p.Queues, q)
	})
}

// queueFields copies the typed settings a scheduler needs into q's fields.
func (c *compiler) queueFields(q *Queue, set Settings) {
	if p := set.integer("PRIORITY"); p != nil {
		q.Priority = *p
	}
	for k, st := range set {
		switch v := st.Value.(type) {
		case Threshold:
			if q.Thresholds == nil {
				q.Thresholds = map[string]Threshold{}
			}
			q.Thresholds[k] = v
		case []UserItem:
			if k == "USERS" {
				q.Users = v
			}
		case []HostItem:
			if k == "HOSTS" {
				q.Hosts = v
			}
		case *Requirement:
			switch k {
			case "RES_REQ":
				q.ResReq = v
			case "STOP_COND":
				q.StopCond = v
			case "RESUME_COND":
				q.ResumeCond = v
			}
		case *Preemption:
			q.Preemption = v
		case []Share:
			if k == "FAIRSHARE" {
				q.Fairshare = v
			}
		case []QueueAtCluster:
			q.SendTo = v
		case *AcceptInterval:
			q.AcceptInterval = v
		case *lang.GPUReq:
			q.GPUReq = v
		}
	}
	q.FairshareQueues = set.list("FAIRSHARE_QUEUES")
	q.SlotPool = set.str("SLOT_POOL")
	q.SlotShare = set.integer("SLOT_SHARE")
	q.MaxSlotsInPool = set.integer("MAX_SLOTS_IN_POOL")
	q.ReceiveFrom = set.list("RCVJOBS_FROM")
	if st := set["RUN_WINDOW"]; st != nil {
		q.RunWindow, _ = st.Value.([]Window)
	}
	if st := set["DISPATCH_WINDOW"]; st != nil {
		q.DispatchWindow, _ = st.Value.([]Window)
	}
	q.TerminateWhen = set.list("TERMINATE_WHEN")
	if st := set["EXCLUSIVE"]; st != nil {
		switch v := st.Value.(type) {
		case bool:
			q.Exclusive = v
		case string:
			q.Exclusive, q.ExclusiveCU = true, v
		}
	}
	q.Rerunnable = set.flag("RERUNNABLE")
}

// readApplications reads lsb.applications.
func (c *compiler) readApplications(f *lang.File) {
	defs := map[string]lang.Span{}
	br := map[string]*lang.Branch{}
	c.sections(f, func(s *lang.Section, ss *schema.Section) {
		set := c.keyValues(f.Kind, s.Assigns, ss)
		c.required(s, ss, set)
		name := set.str("NAME")
		if name == "" || !c.define(defs, br, "application profile", name, set.spanOf("NAME"), s.Branch) {
			return
		}
		a := &Application{Name: name, Settings: set, At: at(s.Name.Span), span: set.spanOf("NAME")}
		if st := set["RES_REQ"]; st != nil {
			a.ResReq, _ = st.Value.(*Requirement)
		}
		if st := set["GPU_REQ"]; st != nil {
			a.GPUReq, _ = st.Value.(*lang.GPUReq)
		}
		c.apps[name] = a
		c.p.Applications = append(c.p.Applications, a)
	})
}

// readResources reads lsb.resources: Limit sections in either form, and
// the other sections as settings.
func (c *compiler) readResources(f *lang.File) {
	defs := map[string]lang.Span{}
	br := map[string]*lang.Branch{}
	c.sections(f, func(s *lang.Section, ss *schema.Section) {
		if ss.Name != "Limit" {
			c.otherSection(f, s, ss)
			return
		}
		if s.Form == lang.FormTable {
			for _, r := range c.table(f.Kind, s, ss) {
				c.limitDef(r.set, r.row.Whole, r.row.Branch, defs, br)
			}
			return
		}
		c.limitDef(c.keyValues(f.Kind, s.Assigns, ss), s.Name.Span, s.Branch, defs, br)
	})
}

// limitKeys are the keys of a Limit that set a limit (the others say to
// whom it applies).
var limitKeys = []string{"SLOTS", "SLOTS_PER_PROCESSOR", "MEM", "SWP", "TMP", "JOBS", "RESOURCE", "ELIGIBLE_PEND_JOBS", "JOBS_PER_SCHED_CYCLE"}

// limitDef records one Limit.
func (c *compiler) limitDef(set Settings, sp lang.Span, branch *lang.Branch, defs map[string]lang.Span, br map[string]*lang.Branch) {
	name := set.str("NAME")
	if name != "" && !c.define(defs, br, "limit", name, set.spanOf("NAME"), branch) {
		return
	}
	limits := false
	for _, k := range limitKeys {
		limits = limits || set[k] != nil
	}
	if !limits {
		c.diags.Add(lang.Warning, CodeMissingKey, sp, "this Limit sets no limit (SLOTS, MEM, SWP, TMP, JOBS, RESOURCE ...); LSF ignores it")
	}
	c.p.Limits = append(c.p.Limits, &LimitDef{Name: name, Settings: set, At: at(sp), span: sp})
}

// readOther reads a file the Policy keeps only as settings (lsb.modules,
// lsb.serviceclasses, other lsb.* files with a schema).
func (c *compiler) readOther(f *lang.File) {
	if schema.Lookup(f.Kind) == nil {
		return
	}
	c.sections(f, func(s *lang.Section, ss *schema.Section) { c.otherSection(f, s, ss) })
}

// otherSection keeps a section as settings (key = value) or rows (table).
func (c *compiler) otherSection(f *lang.File, s *lang.Section, ss *schema.Section) {
	o := &OtherSection{File: f.Kind.String(), Name: ss.Name, At: at(s.Name.Span)}
	if s.Form == lang.FormTable {
		for _, r := range c.table(f.Kind, s, ss) {
			o.Rows = append(o.Rows, r.set)
		}
	} else {
		o.Settings = c.keyValues(f.Kind, s.Assigns, ss)
		c.required(s, ss, o.Settings)
	}
	o.section = s
	c.p.Sections = append(c.p.Sections, o)
}
