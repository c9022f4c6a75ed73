package compile

import (
	"slices"

	"github.com/lsfc/lsfc/lang"
)

// Merge returns a job's effective resource requirement from the queue's
// RES_REQ, the application profile's and the job's -R, as LSF 10.1
// combines them (any may be nil):
//
//   - select: the selects of all levels must hold (ANDed);
//   - order, span, cu, affinity: the job's, else the application's, else
//     the queue's;
//   - rusage: merged per resource: the job's value wins over the
//     application's, which wins over the queue's; a duration or decay the
//     winning level leaves out is kept from the level below. When a level
//     uses "||" alternatives, the highest such level's rusage is taken as
//     it is (lsfc does not merge alternatives);
//   - same: the resources of all levels.
//
// A compound or alternative job requirement is kept; the queue's and
// application's simple requirement is merged into each of its terms, with
// their same[] ignored. The diagnostics report a job reservation of a
// built-in load index above the queue's, which LSF rejects ("Cannot
// exceed queue's resource reservation").
func (e *Env) Merge(queue, app, job *lang.ResReq) (*lang.ResReq, lang.Diagnostics) {
	var diags lang.Diagnostics
	qs, as := simpleOf(queue), simpleOf(app)
	if job != nil && job.Simple() == nil && len(job.Alts) > 0 {
		out := &lang.ResReq{Span: job.Span}
		for _, alt := range job.Alts {
			c := &lang.Compound{Braced: alt.Braced, Span: alt.Span}
			for _, t := range alt.Terms {
				s := e.mergeSimple(qs, as, t.Simple, true, &diags)
				c.Terms = append(c.Terms, &lang.Term{Count: t.Count, CountSpan: t.CountSpan, Braced: t.Braced, Simple: s, Span: t.Span})
			}
			out.Alts = append(out.Alts, c)
		}
		return out, diags
	}
	s := e.mergeSimple(qs, as, simpleOf(job), false, &diags)
	out := &lang.ResReq{}
	if len(s.Sections) > 0 {
		out.Alts = []*lang.Compound{{Terms: []*lang.Term{{Simple: s}}}}
	}
	return out, diags
}

func simpleOf(r *lang.ResReq) *lang.Simple {
	if r == nil {
		return nil
	}
	return r.Simple()
}

func (e *Env) mergeSimple(queue, app, job *lang.Simple, jobCompound bool, diags *lang.Diagnostics) *lang.Simple {
	levels := []*lang.Simple{job, app, queue} // highest first
	out := &lang.Simple{}
	// select: AND of every level's.
	var sel lang.Expr
	for _, l := range levels {
		sec := section(l, lang.SecSelect)
		if sec == nil {
			continue
		}
		x := sec.Select.Expr
		if x == nil {
			x, _ = e.legacyExpr(sec.Select.Legacy)
		}
		x = &lang.Paren{X: x, Span: lang.ExprSpan(x)}
		if sel == nil {
			sel = x
		} else {
			sel = &lang.Binary{Op: "&&", X: sel, Y: x}
		}
	}
	if sel != nil {
		if p, ok := sel.(*lang.Paren); ok {
			sel = p.X
		}
		out.Sections = append(out.Sections, &lang.ReqSection{Kind: lang.SecSelect, Select: &lang.Select{Expr: sel}})
	}
	// order, span, cu, affinity: the highest level that has one.
	for _, k := range []lang.SectionKind{lang.SecOrder, lang.SecSpan, lang.SecCu, lang.SecAffinity} {
		for _, l := range levels {
			if sec := section(l, k); sec != nil {
				out.Sections = append(out.Sections, sec)
				break
			}
		}
	}
	if r := e.mergeRusage(queue, app, job, diags); r != nil {
		out.Sections = append(out.Sections, r)
	}
	// same: every level's resources, once each.
	var items []*lang.ReqItem
	seen := map[string]bool{}
	for _, l := range slices.Backward(levels) {
		if jobCompound && l != job {
			continue
		}
		if sec := section(l, lang.SecSame); sec != nil {
			for _, it := range sec.Items {
				if !seen[it.Name.Text] {
					seen[it.Name.Text] = true
					items = append(items, it)
				}
			}
		}
	}
	if items != nil {
		out.Sections = append(out.Sections, &lang.ReqSection{Kind: lang.SecSame, Items: items})
	}
	return out
}

func section(s *lang.Simple, k lang.SectionKind) *lang.ReqSection {
	if s == nil {
		return nil
	}
	return s.Section(k)
}

// rusageEntry is one resource of a flattened rusage section.
type rusageEntry struct {
	item            *lang.UsageItem
	duration, decay *lang.UsageItem
}

func flattenRusage(sec *lang.ReqSection) (map[string]*rusageEntry, []string) {
	m := map[string]*rusageEntry{}
	var order []string
	for _, u := range sec.Rusage[0] {
		dur, dec := u.Find("duration"), u.Find("decay")
		for _, it := range u.Items {
			if it.Name.Text == "duration" || it.Name.Text == "decay" {
				continue
			}
			if _, ok := m[it.Name.Text]; !ok {
				order = append(order, it.Name.Text)
			}
			m[it.Name.Text] = &rusageEntry{item: it, duration: dur, decay: dec}
		}
	}
	return m, order
}

func (e *Env) mergeRusage(queue, app, job *lang.Simple, diags *lang.Diagnostics) *lang.ReqSection {
	levels := []*lang.Simple{queue, app, job} // lowest first
	var secs []*lang.ReqSection
	for _, l := range levels {
		if sec := section(l, lang.SecRusage); sec != nil {
			secs = append(secs, sec)
		}
	}
	if len(secs) == 0 {
		return nil
	}
	for i := len(secs) - 1; i >= 0; i-- {
		if len(secs[i].Rusage) > 1 {
			return secs[i]
		}
	}
	merged := map[string]*rusageEntry{}
	var order []string
	for _, sec := range secs {
		m, names := flattenRusage(sec)
		for _, n := range names {
			ent := m[n]
			if prev, ok := merged[n]; ok {
				if ent.duration == nil {
					ent.duration = prev.duration
				}
				if ent.decay == nil {
					ent.decay = prev.decay
				}
			} else {
				order = append(order, n)
			}
			merged[n] = ent
		}
	}
	e.checkQueueRusage(section(queue, lang.SecRusage), section(job, lang.SecRusage), diags)
	// Regroup the resources into usage strings by duration and decay.
	type group struct {
		usage *lang.Usage
		first *rusageEntry
	}
	var groups []*group
	byKey := map[string]*group{}
	for _, n := range order {
		ent := merged[n]
		k := usageItemText(ent.duration) + "\x00" + usageItemText(ent.decay)
		g, ok := byKey[k]
		if !ok {
			g = &group{usage: &lang.Usage{}, first: ent}
			byKey[k] = g
			groups = append(groups, g)
		}
		g.usage.Items = append(g.usage.Items, ent.item)
	}
	out := &lang.ReqSection{Kind: lang.SecRusage, Rusage: [][]*lang.Usage{nil}}
	for _, g := range groups {
		for _, it := range []*lang.UsageItem{g.first.duration, g.first.decay} {
			if it != nil {
				g.usage.Items = append(g.usage.Items, it)
			}
		}
		out.Rusage[0] = append(out.Rusage[0], g.usage)
	}
	return out
}

// usageItemText prints a usage item's value (or phases) for comparison.
func usageItemText(it *lang.UsageItem) string {
	if it == nil {
		return ""
	}
	if it.Value != nil {
		return it.Value.Text
	}
	var b []byte
	for _, p := range it.Phases {
		b = append(b, p.Text...)
		b = append(b, ' ')
	}
	return string(b)
}

// checkQueueRusage reports a job reserving more of a built-in load index
// than the queue, or for longer.
func (e *Env) checkQueueRusage(queue, job *lang.ReqSection, diags *lang.Diagnostics) {
	if queue == nil || job == nil || len(queue.Rusage) > 1 || len(job.Rusage) > 1 {
		return
	}
	qm, _ := flattenRusage(queue)
	jm, _ := flattenRusage(job)
	for name, j := range jm {
		q, ok := qm[name]
		r, _, known := e.Lookup(name)
		if !ok || !known || !r.Builtin || !r.Dynamic || j.item.Value == nil || q.item.Value == nil {
			continue
		}
		jv, _ := e.amount(r, j.item.Value, &lang.Diagnostics{})
		qv, _ := e.amount(r, q.item.Value, &lang.Diagnostics{})
		if jv > qv {
			js, qs := e.FormatAmounts(r, jv, qv)
			diags.Add(lang.Error, CodeMerge, j.item.Span,
				"the job reserves %s of %s but the queue allows at most %s (LSF rejects it: cannot exceed the queue's resource reservation)",
				js, name, qs).Note(q.item.Span, "the queue's reservation")
		}
		if j.duration != nil && q.duration != nil && j.duration.Value != nil && q.duration.Value != nil {
			jd, _ := parseDuration(j.duration.Value)
			qd, _ := parseDuration(q.duration.Value)
			if jd > qd {
				diags.Add(lang.Error, CodeMerge, j.duration.Span,
					"the job reserves %s for %s, longer than the queue's %s", name, j.duration.Value.Text, q.duration.Value.Text).
					Note(q.duration.Span, "the queue's duration")
			}
		}
	}
}
