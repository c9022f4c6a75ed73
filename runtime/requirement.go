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
	// key names the requirement among the cluster's: the submission host
	// type it was compiled for and its Text. The same text compiled for
	// another type is another requirement: its type==local (bsub's
	// default select) is that type.
	key string

	// res caches amounts.
	res     []reservation
	resDone bool
	// users counts the unfinished jobs whose requirement this is (see
	// useRequirement); one none uses leaves the cluster's cache.
	users int
}

// alts returns the requirement's alternatives, each a list of terms.
func (r *Requirement) alts() [][]*compile.TermReq {
	if r == nil || r.C == nil {
		return nil
	}
	return r.C.Alts
}

// amounts returns the rusage amounts of the requirement's first
// alternative and term (the usual, simple requirement), with the
// duration and decay of their usage strings; computed once.
func (r *Requirement) amounts() []reservation {
	if r == nil || r.resDone {
		if r == nil {
			return nil
		}
		return r.res
	}
	r.resDone = true
	alts := r.alts()
	if len(alts) == 0 || len(alts[0]) == 0 {
		return nil
	}
	s := alts[0][0].Simple
	if s == nil || len(s.Rusage) == 0 {
		return nil
	}
	for _, u := range s.Rusage[0] {
		for _, am := range u.Amounts {
			r.res = append(r.res, reservation{Amount: am, dur: u.Duration.Seconds(), decay: u.Decay})
		}
	}
	return r.res
}

// A reservation is one rusage amount with its duration (0: the job's
// life) and decay, or with its phases.
type reservation struct {
	compile.Amount
	dur   float64
	decay bool
}

// timed reports whether the amount reserved changes while the job runs.
func (r reservation) timed() bool { return r.dur > 0 || len(r.Phases) > 0 }

// at returns the amount reserved elapsed seconds after the job started:
// the whole amount for its duration, or falling linearly to 0 over it with
// decay, then nothing; a multi-phase reservation walks its phases, the
// last lasting until the job ends.
func (r reservation) at(elapsed float64) float64 {
	if len(r.Phases) == 0 {
		return phaseAt(r.Value, r.dur, r.decay, elapsed)
	}
	for _, ph := range r.Phases {
		d := ph.Duration.Seconds()
		if d <= 0 || elapsed < d {
			return phaseAt(ph.Value, d, ph.Decay, elapsed)
		}
		elapsed -= d
	}
	return 0
}

func phaseAt(v, dur float64, decay bool, elapsed float64) float64 {
	switch {
	case dur <= 0:
		return v
	case elapsed >= dur:
		return 0
	case decay:
		return v * (1 - elapsed/dur)
	}
	return v
}

// nextChange returns how long after the start the amount next changes
// after elapsed: the end of the current phase, or never (-1). A decaying
// amount changes all the time; decaying reports it.
func (r reservation) nextChange(elapsed float64) (at float64, decaying bool) {
	if len(r.Phases) == 0 {
		if r.dur > 0 && elapsed < r.dur {
			return r.dur, r.decay
		}
		return -1, false
	}
	t := 0.0
	for _, ph := range r.Phases {
		d := ph.Duration.Seconds()
		if d <= 0 {
			return -1, false // the last phase lasts until the job ends
		}
		if elapsed < t+d {
			return t + d, ph.Decay
		}
		t += d
	}
	return -1, false
}

// requirement returns the effective requirement of a job submitted to q
// with profile app and -R text, compiled once per distinct text; nil when
// none of the three asks for anything. The cache holds it until no
// unfinished job uses it (see dropUnusedRequirements).
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
	// Jobs from hosts of one type whose merged text is the same share one
	// Requirement, whatever the queue, profile and -R that led there
	// ("select[mem>1]" and "select[ mem > 1 ]" alike): its amounts are
	// worked out once, its jobs are one class, and the scheduler's
	// outcomes of its selects, kept by program, serve them all. The
	// shared one is found by its key.
	shared := fromType + "\x00" + merged.String()
	r := c.reqShared[shared]
	if r == nil {
		r = &Requirement{Text: merged.String(), C: compiled, key: shared}
		c.reqShared[shared] = r
	}
	c.reqs[key] = r
	return r, diags
}

// useRequirement keeps the count of the unfinished jobs that use each
// requirement right for a job whose Req or state may have changed: a job
// counts for its Req from its submission (or restoration) until it
// finishes. Called wherever a job's Req is set or it finishes; calling it
// again changes nothing.
func (c *Cluster) useRequirement(j *Job) {
	r := j.Req
	if j.State.Finished() {
		r = nil
	}
	if j.reqUsed == r {
		return
	}
	if j.reqUsed != nil {
		j.reqUsed.users--
	}
	if r != nil {
		r.users++
	}
	j.reqUsed = r
}

// dropUnusedRequirements forgets the compiled requirements no unfinished
// job uses (those of jobs that finished, and those compiled only to check
// a submission), once the cache has doubled since it was last swept: a
// daemon that sees a new -R string now and then keeps a cache the size of
// what its jobs use, at an amortized cost of O(1) per entry. A job
// submitted later with a forgotten text compiles it anew.
func (c *Cluster) dropUnusedRequirements() {
	if len(c.reqs) < 2*c.reqsKept+64 {
		return
	}
	for key, r := range c.reqs {
		// A nil entry (nothing asked for) is one per queue and profile.
		if r != nil && r.users == 0 {
			delete(c.reqs, key)
			if c.reqShared[r.key] == r {
				delete(c.reqShared, r.key)
			}
		}
	}
	c.reqsKept = len(c.reqs)
}
