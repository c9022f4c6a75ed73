package runtime

import (
	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
)

// A Requirement is an effective resource requirement: a queue's, an
// application profile's and a job's merged as LSF 10.1 merges them, and
// compiled once for every job with the same text.
type Requirement struct {
	// Text is the merged requirement in canonical form; it names the
	// requirement in caches and messages.
	Text string
	C    *compile.Requirement
}

// alts returns the requirement's alternatives, each a list of terms.
func (r *Requirement) alts() [][]*compile.TermReq {
	if r == nil || r.C == nil {
		return nil
	}
	return r.C.Alts
}

// amounts returns the rusage amounts of the requirement's first
// alternative and term (the usual, simple requirement).
func (r *Requirement) amounts() []compile.Amount {
	alts := r.alts()
	if len(alts) == 0 || len(alts[0]) == 0 {
		return nil
	}
	s := alts[0][0].Simple
	if s == nil || len(s.Rusage) == 0 {
		return nil
	}
	var out []compile.Amount
	for _, u := range s.Rusage[0] {
		out = append(out, u.Amounts...)
	}
	return out
}

// requirement returns the effective requirement of a job submitted to q
// with profile app and -R text, compiled once per distinct text; nil when
// none of the three asks for anything.
func (c *Cluster) requirement(q *Queue, app *App, jobR, fromType string) (*Requirement, lang.Diagnostics) {
	var queueReq, appReq *lang.ResReq
	if q.Def != nil && q.Def.ResReq != nil {
		queueReq = q.Def.ResReq.AST
	}
	if app != nil && app.Def.ResReq != nil {
		appReq = app.Def.ResReq.AST
	}
	key := q.Name + "\x00" + fromType + "\x00" + jobR
	if app != nil {
		key += "\x00" + app.Name
	}
	if r, ok := c.reqs[key]; ok {
		return r, nil
	}
	var jobReq *lang.ResReq
	var diags lang.Diagnostics
	if jobR != "" {
		jobReq, diags = lang.ParseResReq(lang.NewSource("-R", jobR))
		if diags.HasErrors() {
			return nil, diags
		}
	}
	if queueReq == nil && appReq == nil && jobReq == nil {
		if fromType == "" {
			c.reqs[key] = nil
			return nil, nil
		}
		// A job that asks for nothing runs on hosts of its submission
		// host's type, as bsub's default select[type==local] says.
		jobReq, _ = lang.ParseResReq(lang.NewSource("-R", "select[type==local]"))
	}
	merged, ds := c.Env.Merge(queueReq, appReq, jobReq)
	diags = append(diags, ds...)
	if diags.HasErrors() {
		return nil, diags
	}
	compiled, ds := c.Env.CompileResReq(merged, compile.SelectOptions{FromType: fromType, InConfig: fromType == "",
		LocalTypeDefault: fromType != ""})
	diags = append(diags, ds...)
	if compiled == nil || diags.HasErrors() {
		return nil, diags
	}
	r := &Requirement{Text: merged.String(), C: compiled}
	// Jobs whose merged text is the same share one Requirement.
	for _, old := range c.reqs {
		if old != nil && old.Text == r.Text {
			r = old
			break
		}
	}
	c.reqs[key] = r
	return r, diags
}
