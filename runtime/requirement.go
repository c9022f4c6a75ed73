package runtime

import (
	"strings"
	"sync"

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
// none of the three asks for anything. pre, when it holds the requirement
// compiled from the same inputs, spares compiling it here. The cache holds
// it until no unfinished job uses it (see dropUnusedRequirements).
func (c *Cluster) requirement(q *Queue, app *App, jobR, fromType string, pre ...*Precompiled) (*Requirement, lang.Diagnostics) {
	queueReq, appReq := resReqs(q, app)
	key := q.Name + "\x00" + fromType + "\x00" + jobR
	if app != nil {
		key += "\x00" + app.Name
	}
	if r, ok := c.reqs[key]; ok {
		return r, nil
	}
	in := reqInputs{env: c.Env, queue: queueReq, app: appReq, jobR: jobR, fromType: fromType}
	var r *Requirement
	var diags lang.Diagnostics
	found := false
	for _, p := range pre {
		if r, diags, found = p.lookup(in); found {
			break
		}
	}
	if !found {
		r, diags = in.compile()
	}
	if diags.HasErrors() {
		return nil, diags
	}
	if r == nil {
		c.reqs[key] = nil
		return nil, diags
	}
	// Jobs from hosts of one type whose merged text is the same share one
	// Requirement, whatever the queue, profile and -R that led there
	// ("select[mem>1]" and "select[ mem > 1 ]" alike): its amounts are
	// worked out once, its jobs are one class, and the scheduler's
	// outcomes of its selects, kept by program, serve them all. The
	// shared one is found by its key. The cluster's own copy is made, as
	// a precompiled requirement may be handed to other submissions.
	shared := fromType + "\x00" + r.Text
	if old := c.reqShared[shared]; old != nil {
		r = old
	} else {
		r = &Requirement{Text: r.Text, C: r.C, key: shared}
		c.reqShared[shared] = r
	}
	c.reqs[key] = r
	return r, diags
}

// resReqs returns the RES_REQ of q and of app, each nil when unset.
func resReqs(q *Queue, app *App) (queueReq, appReq *lang.ResReq) {
	if q.Def != nil && q.Def.ResReq != nil {
		queueReq = q.Def.ResReq.AST
	}
	if app != nil && app.Def.ResReq != nil {
		appReq = app.Def.ResReq.AST
	}
	return queueReq, appReq
}

// reqInputs are what an effective requirement is compiled from.
type reqInputs struct {
	env        *compile.Env
	queue, app *lang.ResReq
	jobR       string
	fromType   string
}

// compile merges and compiles the requirement; nil without errors when
// nothing is asked for. It reads only its inputs, which are immutable,
// so it may run on any goroutine.
func (in reqInputs) compile() (*Requirement, lang.Diagnostics) {
	var jobReq *lang.ResReq
	var diags lang.Diagnostics
	if in.jobR != "" {
		jobReq, diags = lang.ParseResReq(lang.NewSource("-R", in.jobR))
		if diags.HasErrors() {
			return nil, diags
		}
	}
	if in.queue == nil && in.app == nil && jobReq == nil {
		if in.fromType == "" {
			return nil, nil
		}
		// A job that asks for nothing runs on hosts of its submission
		// host's type, as bsub's default select[type==local] says.
		jobReq, _ = lang.ParseResReq(lang.NewSource("-R", "select[type==local]"))
	}
	merged, ds := in.env.Merge(in.queue, in.app, jobReq)
	diags = append(diags, ds...)
	if diags.HasErrors() {
		return nil, diags
	}
	compiled, ds := in.env.CompileResReq(merged, compile.SelectOptions{FromType: in.fromType, InConfig: in.fromType == "",
		LocalTypeDefault: in.fromType != ""})
	diags = append(diags, ds...)
	if compiled == nil || diags.HasErrors() {
		return nil, diags
	}
	return &Requirement{Text: merged.String(), C: compiled}, diags
}

// A ReqCompiler compiles the -R of submissions away from the goroutine
// that owns the cluster, so that a new requirement does not hold up
// scheduling. It holds what compiling reads, as Cluster.ReqCompiler found
// it; it is immutable (but for its cache) and safe for concurrent use.
type ReqCompiler struct {
	env      *compile.Env
	queues   map[string]*lang.ResReq // every queue, nil without RES_REQ
	defaults []string
	apps     map[string]*lang.ResReq
	types    map[string]string // host name → type
	cache    precompiledCache
}

// precompiledCache holds the requirements a ReqCompiler compiled, keyed by
// their inputs without the Env: those of the last precompiledGeneration
// distinct inputs compiled or met again, and of the generation before, so
// that a daemon that sees ever new -R strings keeps only those in use.
type precompiledCache struct {
	mu             sync.Mutex
	current, older map[reqInputs]*precompiledReq
}

// precompiledGeneration is the number of entries in a generation of a
// ReqCompiler's cache.
const precompiledGeneration = 1024

// load returns the entry of in, moving it to the current generation when
// it is of the one before.
func (pc *precompiledCache) load(in reqInputs) (*precompiledReq, bool) {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if e, ok := pc.current[in]; ok {
		return e, true
	}
	e, ok := pc.older[in]
	if ok {
		pc.storeLocked(in, e)
	}
	return e, ok
}

// loadOrStore returns the entry of in, storing e when there is none.
func (pc *precompiledCache) loadOrStore(in reqInputs, e *precompiledReq) *precompiledReq {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	if old, ok := pc.current[in]; ok {
		return old
	}
	if old, ok := pc.older[in]; ok {
		e = old
	}
	pc.storeLocked(in, e)
	return e
}

func (pc *precompiledCache) storeLocked(in reqInputs, e *precompiledReq) {
	if pc.current == nil || len(pc.current) >= precompiledGeneration {
		pc.older, pc.current = pc.current, map[reqInputs]*precompiledReq{}
	}
	delete(pc.older, in)
	pc.current[in] = e
}

// ReqCompiler returns a compiler of the cluster's requirements as its
// configuration stands now. It must be called by the owner of c; the
// compiler may then be used anywhere.
func (c *Cluster) ReqCompiler() *ReqCompiler {
	rc := &ReqCompiler{env: c.Env, queues: map[string]*lang.ResReq{}, apps: map[string]*lang.ResReq{}, types: map[string]string{}}
	for _, q := range c.Queues {
		rc.queues[q.Name], _ = resReqs(q, nil)
	}
	for _, q := range c.DefaultQueues {
		rc.defaults = append(rc.defaults, q.Name)
	}
	for name, a := range c.Apps {
		_, rc.apps[name] = resReqs(&Queue{}, a)
	}
	for _, h := range c.Hosts {
		if h.Facts != nil {
			rc.types[h.Name] = h.Facts.Type
		}
	}
	return rc
}

// A Precompiled holds a submission's requirement compiled by a
// ReqCompiler for each queue the submission may go to. The cluster uses
// it only when the inputs it was compiled from are still the cluster's;
// otherwise it compiles the requirement itself.
type Precompiled struct {
	entries []*precompiledReq
}

type precompiledReq struct {
	in    reqInputs
	req   *Requirement
	diags lang.Diagnostics
}

// Compile compiles the requirement of a job submitted with -R jobR to
// queue (the default queues when empty) with profile app from host
// fromHost. It returns nil when there is nothing to compile: no -R, or
// names the cluster does not know (the owner rejects those).
func (rc *ReqCompiler) Compile(queue, app, jobR, fromHost string) *Precompiled {
	if rc == nil || jobR == "" {
		return nil
	}
	appReq, ok := rc.apps[app]
	if app != "" && !ok {
		return nil
	}
	names := rc.defaults
	if queue != "" {
		names = strings.Fields(queue)
	}
	pre := &Precompiled{}
	for _, name := range names {
		queueReq, ok := rc.queues[name]
		if !ok {
			continue
		}
		in := reqInputs{queue: queueReq, app: appReq, jobR: jobR, fromType: rc.types[fromHost]}
		if e, ok := rc.cache.load(in); ok {
			pre.entries = append(pre.entries, e)
			continue
		}
		full := in
		full.env = rc.env
		r, diags := full.compile()
		pre.entries = append(pre.entries, rc.cache.loadOrStore(in, &precompiledReq{in: full, req: r, diags: diags}))
	}
	if len(pre.entries) == 0 {
		return nil
	}
	return pre
}

// lookup returns the requirement compiled from in, when p holds it.
func (p *Precompiled) lookup(in reqInputs) (*Requirement, lang.Diagnostics, bool) {
	if p == nil {
		return nil, nil, false
	}
	for _, e := range p.entries {
		if e.in == in {
			return e.req, e.diags, true
		}
	}
	return nil, nil, false
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
