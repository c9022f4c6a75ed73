package runtime

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/lsfc/lsfc/lang"
)

// A GPUDevice is one GPU of a host: its index on the host (what
// CUDA_VISIBLE_DEVICES names), its model and its memory in MB (0 when
// unknown).
type GPUDevice struct {
	Index int     `json:"index"`
	Model string  `json:"model,omitempty"`
	Mem   float64 `json:"mem,omitempty"`
}

// The site resources that declare a host's GPUs when the host reports no
// device of its own: the number of GPUs, their model and the memory of
// each, in MB.
const (
	gpuCountResource = "ngpus"
	gpuModelResource = "gpu_model"
	gpuMemResource   = "gpu_maxmem"
)

// declaredGPUs returns the GPUs the configuration gives a host: as many
// as its ngpus value, each of its gpu_model and gpu_maxmem.
func (c *Cluster) declaredGPUs(h *Host) []GPUDevice {
	v := c.Env.Values(h.Facts)
	num := func(name string) float64 {
		if _, slot, ok := c.Env.Lookup(name); ok && v.Has[slot] && !math.IsNaN(v.Num[slot]) {
			return v.Num[slot]
		}
		return 0
	}
	n := int(num(gpuCountResource))
	if n <= 0 {
		return nil
	}
	model := ""
	if _, slot, ok := c.Env.Lookup(gpuModelResource); ok && v.Has[slot] {
		model = v.Str[slot]
	}
	mem := num(gpuMemResource)
	out := make([]GPUDevice, min(n, 1024))
	for i := range out {
		out[i] = GPUDevice{Index: i, Model: model, Mem: mem}
	}
	return out
}

// SetGPUs records the GPUs a host's execution agent (or the daemon, for
// its own machine) found on it; they replace what the configuration
// declares. A nil or empty list brings the declared GPUs back.
func (c *Cluster) SetGPUs(h *Host, devs []GPUDevice) {
	if len(devs) == 0 {
		if h.gpusFound {
			h.GPUs, h.gpusFound = c.declaredGPUs(h), false
			c.gen++
			h.Gen++
		}
		return
	}
	if h.gpusFound && slices.Equal(h.GPUs, devs) {
		return
	}
	h.GPUs, h.gpusFound = slices.Clone(devs), true
	c.gen++
	h.Gen++
}

// SetGPUMemUsed records the memory in use on the host's GPUs, in MB by
// GPU index, as its agent (or the daemon, for its own machine) measured
// it; nil when it measures none. What jobs use of their GPUs changes
// nothing the scheduler decides: it is shown, not counted.
func (c *Cluster) SetGPUMemUsed(h *Host, used map[int]float64) {
	h.gpuMemUsed = used
}

// GPUsFound reports whether the host's GPUs are those its agent found
// rather than those the configuration declares.
func (h *Host) GPUsFound() bool { return h.gpusFound }

// jobGPU returns the GPU requirement of a job of queue q and profile app
// with bsub -gpu text (""  for none, "-" for the default): nil when the
// job asks for no GPU, else the merged requirement with LSF's defaults
// filled in. It is an error for -gpu not to parse, or to ask for what
// lsfc does not do.
func (c *Cluster) jobGPU(q *Queue, app *App, text string) (*lang.GPUReq, error) {
	var job lang.GPUReq
	if t := strings.TrimSpace(text); t != "" && t != "-" {
		var err error
		if job, err = lang.ParseGPUReq(t); err != nil {
			return nil, err
		}
	}
	var appReq, queueReq lang.GPUReq
	if app != nil && app.Def != nil && app.Def.GPUReq != nil {
		appReq = *app.Def.GPUReq
	}
	if q != nil && q.Def != nil && q.Def.GPUReq != nil {
		queueReq = *q.Def.GPUReq
	}
	if strings.TrimSpace(text) == "" && appReq.IsZero() && queueReq.IsZero() {
		return nil, nil
	}
	var cluster lang.GPUReq
	if c.Policy != nil {
		cluster = c.Policy.LSFConf.GPUReq
	}
	levels := []lang.GPUReq{job, appReq, queueReq, cluster}
	if !job.IsZero() && (c.Policy == nil || !c.Policy.Parameters.GPUReqMerge) {
		// Without GPU_REQ_MERGE, a job's own requirement stands alone.
		levels = levels[:1]
	}
	g := lang.MergeGPUReqs(levels...).Effective()
	if err := gpuSupported(g); err != nil {
		return nil, err
	}
	return &g, nil
}

// gpuSupported reports the options of a GPU requirement lsfc does not
// act on: MPS daemons, MIG instances, GPU tiles per socket, blocks,
// packing and NVLink topology, AMD devices.
func gpuSupported(g lang.GPUReq) error {
	bad := func(opt string) error {
		return fmt.Errorf("GPU requirement option %s is not supported by lsfc", opt)
	}
	switch {
	case g.MPS != "" && g.MPS != "no":
		return bad("mps=" + g.MPS)
	case g.MIG != "":
		return bad("mig=" + g.MIG)
	case g.GTile != "":
		return bad("gtile=" + g.GTile)
	case g.Block == "yes":
		return bad("block=yes")
	case g.Gpack == "yes":
		return bad("gpack=yes")
	case g.GLink != "":
		return bad("glink=" + g.GLink)
	case g.GVendor == "amd":
		return bad("gvendor=amd")
	}
	return nil
}

// gpuExclusive reports whether a job's GPUs are its own alone:
// exclusive_process mode, or j_exclusive=yes.
func gpuExclusive(g *lang.GPUReq) bool {
	return g.Mode == lang.GPUExclusiveProcess || g.JExclusive == "yes"
}

// A gpuUse is what the jobs on one GPU hold: how many, whether one of
// them holds it alone, and the GPU memory they reserve (gmem).
type gpuUse struct {
	jobs, running, suspended int
	exclusive                bool
	mem                      float64
	// ids are the jobs on the GPU, in start order.
	ids []*Job
}

// gpuUses returns what the started jobs on a host hold of each of its
// GPUs, by position in h.GPUs, with the jobs on each.
func (h *Host) gpuUses() []gpuUse {
	use := make([]gpuUse, len(h.GPUs))
	h.gpuUsesInto(use, true, nil)
	return use
}

// gpuUsesInto adds to use (one per GPU of the host) what the started jobs
// on the host hold, and with ids the jobs themselves; the jobs skip
// reports (when not nil) are left out.
func (h *Host) gpuUsesInto(use []gpuUse, ids bool, skip func(*Job) bool) {
	for _, j := range h.jobs {
		if skip != nil && skip(j) {
			continue
		}
		for _, a := range j.Allocs {
			if a.Host != h {
				continue
			}
			for _, idx := range a.GPUs {
				i := gpuPos(h.GPUs, idx)
				if i < 0 {
					continue
				}
				u := &use[i]
				u.jobs++
				if ids {
					u.ids = append(u.ids, j)
				}
				if j.State == Run {
					u.running++
				} else {
					u.suspended++
				}
				if j.GPU != nil {
					u.exclusive = u.exclusive || gpuExclusive(j.GPU)
					u.mem += j.GPU.GMem
				}
			}
		}
	}
}

// gpuFits reports whether a GPU can take one more job of requirement g,
// given what it holds.
func gpuFits(d GPUDevice, u gpuUse, g *lang.GPUReq) bool {
	if u.exclusive || gpuExclusive(g) && u.jobs > 0 {
		return false
	}
	if g.GModel != "" && !gpuModelMatches(d.Model, g.GModel) {
		return false
	}
	if g.GModelMem > 0 && math.Abs(d.Mem-g.GModelMem) > 0.05*g.GModelMem {
		return false
	}
	if g.GMem > 0 && (d.Mem <= 0 || d.Mem-u.mem < g.GMem) {
		return false
	}
	return true
}

// gpuModelMatches reports whether a GPU's model is the one asked for:
// the same name, or one that contains it (a brand or model type alone),
// blanks, underscores, dashes and case aside.
func gpuModelMatches(model, want string) bool {
	norm := func(s string) string {
		return strings.ToLower(strings.NewReplacer(" ", "", "_", "", "-", "").Replace(s))
	}
	return strings.Contains(norm(model), norm(want))
}

// gpusNeeded returns how many GPUs a job of requirement g needs on a host
// where it gets slots slots.
func gpusNeeded(g *lang.GPUReq, slots int) int {
	if g.PerTask {
		return g.Num * slots
	}
	return g.Num
}

// gpuRoom returns the slots a host can give a job of requirement g by its
// GPUs, as the cycle leaves them (planned holds what the cycle gave jobs
// there so far): all when the host has Num free GPUs that fit (per task:
// as many slots as Num of them each), else none.
func gpuRoom(h *Host, planned []gpuPlan, g *lang.GPUReq, skip func(*Job) bool) int {
	if len(h.GPUs) == 0 {
		return 0
	}
	// Most hosts have few GPUs: their counts stay on the stack.
	var buf [16]gpuUse
	var use []gpuUse
	if len(h.GPUs) <= len(buf) {
		use = buf[:len(h.GPUs)]
	} else {
		use = make([]gpuUse, len(h.GPUs))
	}
	h.gpuUsesInto(use, false, skip)
	addPlanned(h, use, planned)
	free := 0
	for i, d := range h.GPUs {
		if gpuFits(d, use[i], g) {
			free++
		}
	}
	if g.PerTask {
		return free / g.Num
	}
	if free >= g.Num {
		return math.MaxInt32
	}
	return 0
}

// A gpuPlan is a GPU the cycle gave a job.
type gpuPlan struct {
	index int
	g     *lang.GPUReq
}

// gpuPick returns the indices of up to n GPUs of the host that can take
// a job of requirement g: those with the fewest jobs first, then by
// index.
func gpuPick(h *Host, planned []gpuPlan, g *lang.GPUReq, n int, skip func(*Job) bool) []int {
	if len(h.GPUs) == 0 || n <= 0 {
		return nil
	}
	use := make([]gpuUse, len(h.GPUs))
	h.gpuUsesInto(use, false, skip)
	addPlanned(h, use, planned)
	var fit []int
	for i, d := range h.GPUs {
		if gpuFits(d, use[i], g) {
			fit = append(fit, i)
		}
	}
	slices.SortStableFunc(fit, func(a, b int) int { return use[a].jobs - use[b].jobs })
	out := make([]int, 0, min(n, len(fit)))
	for _, i := range fit[:min(n, len(fit))] {
		out = append(out, h.GPUs[i].Index)
	}
	slices.Sort(out)
	return out
}

// addPlanned adds to use what the cycle gave jobs of the host's GPUs.
func addPlanned(h *Host, use []gpuUse, planned []gpuPlan) {
	for _, p := range planned {
		for i, d := range h.GPUs {
			if d.Index == p.index {
				use[i].jobs++
				use[i].running++
				use[i].exclusive = use[i].exclusive || gpuExclusive(p.g)
				use[i].mem += p.g.GMem
			}
		}
	}
}

// gpuLimiter keeps a job that asks for GPUs off the hosts without enough
// free GPUs that fit its requirement (num, mode, j_exclusive, gmodel,
// gmem).
type gpuLimiter struct{}

func (gpuLimiter) Name() string { return "GPU" }
func (gpuLimiter) Room(st CycleState, kv ClassInfo, jv JobInfo, hv HostInfo) (int, Reason) {
	c, k, h := st.c, kv.k, hv.h
	if k == nil || k.gpu == nil {
		return math.MaxInt32, ReasonNone
	}
	return gpuRoom(h, c.gpuTaken(h, k.queue, jv.j), k.gpu, c.gpuGone(k.queue, k.gpu)), ReasonHostGPU
}

// gpuGone returns which started jobs hold no GPU for a job of queue q
// and requirement g in this cycle: those preempted (and so killed) this
// cycle and, while the cycle looks for what preemption could give, the
// GPU jobs q may preempt that would give their GPUs up. It returns nil
// when there are none.
func (c *cycle) gpuGone(q *Queue, g *lang.GPUReq) func(*Job) bool {
	probe := c.probe && g != nil && c.preemptive(q)
	if len(c.victims) == 0 && !probe {
		return nil
	}
	return func(j *Job) bool {
		return c.victims[j] || probe && c.cluster.preemptable(j, q) && gpuReleases(j)
	}
}

// gpuReleases reports whether preempting a GPU job gives its GPUs to
// the preempting job. LSF preempts a GPU job for another GPU job only
// when it holds its GPUs alone (exclusive_process mode or
// j_exclusive=yes) and leaves them when preempted: a job stopped in
// place keeps its GPU contexts, so lsfc requires the job to be killed
// (TERMINATE_WHEN=PREEMPT in its queue).
func gpuReleases(j *Job) bool {
	return j.GPU != nil && gpuExclusive(j.GPU) && j.Queue.killOnPreempt
}

// gpuTaken returns what the cycle holds of a host's GPUs for a job of
// queue q (j nil: for its class as a whole): the GPUs it gave jobs, and
// those pending jobs reserve there, unless the job may borrow them as a
// backfill job.
func (c *cycle) gpuTaken(h *Host, q *Queue, j *Job) []gpuPlan {
	p := c.gpuPlanned[h.Index]
	if c.rsv == nil || len(c.rsv.gpus[h.Index]) == 0 {
		return p
	}
	if borrows(q) && (j == nil || c.mayBorrow(j, h)) {
		return p
	}
	return append(slices.Clip(p), c.rsv.gpus[h.Index]...)
}

// takeGPUs gives a dispatched job its GPUs on each of its hosts, and
// records them in the cycle.
func (c *cycle) takeGPUs(j *Job, allocs []Alloc) {
	if j.GPU == nil {
		return
	}
	for i := range allocs {
		h := allocs[i].Host
		idx := gpuPick(h, c.gpuTaken(h, j.Queue, j), j.GPU, gpusNeeded(j.GPU, allocs[i].Slots), c.gpuGone(j.Queue, j.GPU))
		allocs[i].GPUs = idx
		if c.gpuPlanned == nil {
			c.gpuPlanned = map[int][]gpuPlan{}
		}
		for _, x := range idx {
			c.gpuPlanned[h.Index] = append(c.gpuPlanned[h.Index], gpuPlan{x, j.GPU})
		}
	}
}

// GPUsOn returns the indices of the GPUs the job holds on a host, in
// order (what CUDA_VISIBLE_DEVICES names there); nil for none.
func (j *Job) GPUsOn(host string) []int {
	for _, a := range j.Allocs {
		if a.Host.Name == host && len(a.GPUs) > 0 {
			return slices.Clone(a.GPUs)
		}
	}
	return nil
}

// gpuReason returns why the jobs of a class the cycle can place no more
// of wait: for jobs that ask for GPUs, that none of the class's hosts has
// enough free GPUs that fit when so, else too few job slots.
func (c *cycle) gpuReason(r *classRun) Reason {
	if r.k.gpu == nil {
		return ReasonSlots
	}
	for _, h := range r.cand.hosts {
		if gpuRoom(h, c.gpuTaken(h, r.k.queue, nil), r.k.gpu, c.gpuGone(r.k.queue, r.k.gpu)) > 0 {
			return ReasonSlots
		}
	}
	return ReasonHostGPU
}

// A GPUState is one GPU of a host as bhosts -gpu shows it: the device,
// the jobs on it (running and suspended), whether one of them holds it
// alone, and the GPU memory they reserve, in MB.
type GPUState struct {
	GPUDevice
	Jobs, Running, Suspended int
	Exclusive                bool
	Reserved                 float64
	// MemUsed is the memory in use on the GPU, in MB, as the host's agent
	// last measured it; MemUsedKnown is false when it measures none.
	MemUsed      float64
	MemUsedKnown bool
	// RunJobs and SuspJobs are the IDs of the running and the suspended
	// jobs on the GPU.
	RunJobs, SuspJobs []int64
}

// GPUStates returns the host's GPUs with what its started jobs hold of
// each, in device order.
func (h *Host) GPUStates() []GPUState {
	use := h.gpuUses()
	out := make([]GPUState, len(h.GPUs))
	for i, d := range h.GPUs {
		u := use[i]
		out[i] = GPUState{GPUDevice: d, Jobs: u.jobs, Running: u.running, Suspended: u.suspended, Exclusive: u.exclusive, Reserved: u.mem}
		out[i].MemUsed, out[i].MemUsedKnown = h.gpuMemUsed[d.Index]
		for _, j := range u.ids {
			if j.State == Run {
				out[i].RunJobs = append(out[i].RunJobs, j.ID)
			} else {
				out[i].SuspJobs = append(out[i].SuspJobs, j.ID)
			}
		}
	}
	return out
}

// gpuPos returns the position of the GPU of index idx among devs, or -1.
func gpuPos(devs []GPUDevice, idx int) int {
	for i, d := range devs {
		if d.Index == idx {
			return i
		}
	}
	return -1
}

// gpuCapable reports whether a host could ever give a job of requirement
// g its GPUs: it has enough GPUs of the model and memory asked for, busy
// or not. Any host is capable for a job that asks for no GPU.
func gpuCapable(h *Host, g *lang.GPUReq) bool {
	if g == nil {
		return true
	}
	n := 0
	for _, d := range h.GPUs {
		if gpuFits(d, gpuUse{}, g) {
			n++
		}
	}
	return n >= g.Num
}

// A gpuTrack follows a host's GPUs as a reservation looks ahead: what
// the started jobs on each hold (they leave as they end), and what the
// cycle gave or reserved there (which stays).
type gpuTrack struct {
	use, fixed []gpuUse
}

// newGPUTrack returns a host's GPUs as they stand for a job of queue q.
func (c *cycle) newGPUTrack(h *Host, q *Queue, j *Job) *gpuTrack {
	t := &gpuTrack{use: make([]gpuUse, len(h.GPUs)), fixed: make([]gpuUse, len(h.GPUs))}
	h.gpuUsesInto(t.use, true, c.gpuGone(q, j.GPU))
	addPlanned(h, t.fixed, c.gpuTaken(h, q, j))
	return t
}

// free returns how many of the host's GPUs can take a job of
// requirement g.
func (t *gpuTrack) free(h *Host, g *lang.GPUReq) int {
	n := 0
	for i, d := range h.GPUs {
		u, f := t.use[i], t.fixed[i]
		u.jobs += f.jobs
		u.exclusive = u.exclusive || f.exclusive
		u.mem += f.mem
		if gpuFits(d, u, g) {
			n++
		}
	}
	return n
}

// end takes a job that ends off the host's GPUs.
func (t *gpuTrack) end(h *Host, j *Job) {
	for _, a := range j.Allocs {
		if a.Host != h {
			continue
		}
		for _, idx := range a.GPUs {
			i := gpuPos(h.GPUs, idx)
			if i < 0 {
				continue
			}
			u := &t.use[i]
			u.ids = slices.DeleteFunc(u.ids, func(o *Job) bool { return o == j })
			u.jobs, u.mem, u.exclusive = len(u.ids), 0, false
			for _, o := range u.ids {
				if o.GPU != nil {
					u.exclusive = u.exclusive || gpuExclusive(o.GPU)
					u.mem += o.GPU.GMem
				}
			}
		}
	}
}

// gpuSlots bounds the n slots a host may give a job of requirement g by
// its free GPUs that fit: for GPUs per task, as many slots as Num of
// them each; else all n when Num of them are free, none otherwise.
func gpuSlots(g *lang.GPUReq, free, n int) int {
	switch {
	case g.Num <= 0:
		return n
	case g.PerTask:
		return min(n, free/g.Num)
	case free < g.Num:
		return 0
	}
	return n
}
