// Package mcsim replays a workload on several clusters at once, with
// MultiCluster job forwarding between them (lsfc simulate with --conf
// given once per cluster). Every cluster has its own scheduler, as
// sim.Simulate runs it; they share one virtual clock, and the
// forwarding is runtime/mc's, as lsfc serve runs it: a cycle's Phase II
// decision is an mc.Planner over what the other clusters last reported,
// Phase III is mc.Accept at the receiving queue, and the submission
// cluster's mc.Ledger recalls jobs past MAX_RSCHED_TIME and suspends
// them past LSB_MC_INITFAIL_RETRY. Only the transport differs: where the
// daemons call each other over TCP every MBD_SLEEP_TIME (deliver,
// recall, poll), each cluster here runs the same round in process, on
// the simulated clock, against the other clusters' state.
package mcsim

import (
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/runtime"
	"github.com/lsfc/lsfc/runtime/mc"
	"github.com/lsfc/lsfc/runtime/sim"
	"github.com/lsfc/lsfc/runtime/simstats"
)

// A Site is one cluster of a simulation: its policy and its cluster (of
// the policy's hosts, or an inventory's).
type Site struct {
	Policy  *compile.Policy
	Cluster *runtime.Cluster
}

// A Job is a job of the workload and the cluster it is submitted to (an
// index of the sites).
type Job struct {
	sim.Job
	Site int
}

// Options configure Simulate.
type Options struct {
	// Progress, when not nil, is called now and then with the jobs ended
	// so far and their total.
	Progress func(done, total int)
}

// An Outcome is what became of one job of the workload.
type Outcome struct {
	Job Job
	// Rejected is why the submission cluster refused the job, or nil.
	Rejected error
	// Home is the job at its submission cluster.
	Home *runtime.Job
	// Ran is the job that ran (Home, or its copy at another cluster)
	// and RanAt the index of that cluster; nil and -1 when it never
	// started.
	Ran   *runtime.Job
	RanAt int
	// Forwards counts the times the job was sent to another cluster.
	Forwards int
	// EarlierRuns are the runs of the job at home that ended in a
	// requeue on its exit values (or a hold, at its MAX_JOB_REQUEUE), in
	// order: all its runs but the last for a job that ended, all of them
	// for one still pending or held. Home.ExitRequeues counts the
	// requeues.
	EarlierRuns []sim.RunSpan
}

// SiteStats are the counts of one cluster.
type SiteStats struct {
	Cluster string `json:"cluster"`
	Slots   int    `json:"slots"`
	// Submitted counts the workload's jobs submitted here, Rejected
	// those its queues refused.
	Submitted int `json:"submitted"`
	Rejected  int `json:"rejected"`
	// Forwarded counts the jobs of this cluster sent elsewhere at least
	// once, Sent the sendings; RanRemotely those that ran elsewhere.
	Forwarded   int `json:"forwarded"`
	Sent        int `json:"sent"`
	RanRemotely int `json:"ranRemotely"`
	// Received counts the jobs other clusters sent that a receive-jobs
	// queue here took; Refused those it refused.
	Received int `json:"received"`
	Refused  int `json:"refused"`
	// Returned counts the jobs of this cluster that came back, by cause
	// (rejected, recalled); Suspended those suspended (PSUSP) past
	// LSB_MC_INITFAIL_RETRY.
	Returned  map[string]int `json:"returned"`
	Suspended int            `json:"suspended"`
	// Requeues counts the times jobs of this cluster went back to pending
	// on their exit values (REQUEUE_EXIT_VALUES, bsub -Q); Held the times
	// one was held (PSUSP) instead, its MAX_JOB_REQUEUE reached;
	// Unbounded the jobs ended after sim.DefaultMaxRequeues requeues,
	// which no MAX_JOB_REQUEUE bounded.
	Requeues  int `json:"requeues,omitempty"`
	Held      int `json:"held,omitempty"`
	Unbounded int `json:"unbounded,omitempty"`
	// Ran counts the jobs that started here (local and received); Done
	// and Exit those that ended.
	Ran  int `json:"ran"`
	Done int `json:"done"`
	Exit int `json:"exit"`
	// Cycles and Rounds count the scheduling cycles and forwarding
	// rounds.
	Cycles int `json:"cycles"`
	Rounds int `json:"rounds"`
	// SlotSeconds is the slot time the jobs that ran here used, every
	// run of a requeued job counted;
	// Utilization that over the cluster's slots × the simulated span.
	SlotSeconds float64 `json:"slotSeconds"`
	Utilization float64 `json:"utilization"`
	// MeanWait is the mean time from submission to start of the jobs of
	// this cluster that started, here or elsewhere.
	MeanWait float64 `json:"meanWait"`
	// Warnings name the queues of this cluster whose jobs never ran,
	// here or elsewhere, with why the cluster could not run the first
	// of them (see runtime.Engine.Unrunnable); the totals of several
	// clusters have none.
	Warnings []simstats.Warning `json:"warnings"`
}

// A Result is a simulation's outcome.
type Result struct {
	Jobs  []Outcome
	Sites []SiteStats
	// Start and End are the first submission and the last event.
	Start, End runtime.Time
	// Unbounded are the jobs ended after sim.DefaultMaxRequeues requeues
	// on their exit values, which no MAX_JOB_REQUEUE bounded, in the
	// order they ended.
	Unbounded []*runtime.Job
}

// node is a site while the simulation runs.
type node struct {
	index  int
	name   string
	policy *compile.Policy
	c      *runtime.Cluster
	e      *runtime.Engine
	ledger *mc.Ledger
	opts   mc.Options
	sends  bool
	// forwarded holds this cluster's jobs at other clusters; copies the
	// jobs other clusters sent here that are not over, by ID.
	forwarded map[int64]*runtime.Job
	copies    map[int64]*runtime.Job
	// outbox holds the jobs sent and not delivered yet, in the order
	// they were sent; unanswered counts them by destination.
	outbox     []*runtime.Job
	unanswered map[mc.Dest]int
	// news holds the jobs of this cluster whose copy elsewhere changed
	// (started, suspended, resumed, ended) since the last round: what
	// the next poll finds.
	news map[int64]bool
	// times counts the sendings of each job of this cluster.
	times map[int64]int
	// reports are what the other clusters last reported of their
	// receive-jobs queues, by cluster; exported caches the hosts this
	// cluster exports for each of its queues.
	reports  map[string][]mc.QueueState
	exported map[*runtime.Queue][]mc.HostInfo
	stats    *SiteStats
	// nextRound is when the next forwarding round is due (Never: none
	// is); dirty is set when something happened that the next cycle
	// must see.
	nextRound runtime.Time
	dirty     bool
}

// Simulate replays jobs on the sites. Site names are their policies'
// cluster names, which must be set and distinct; a site forwards to the
// others its send-jobs queues name.
func Simulate(sites []*Site, jobs []Job, opts Options) (*Result, error) {
	if len(sites) == 0 {
		return nil, errors.New("no cluster to simulate")
	}
	clock := &runtime.VirtualClock{}
	nodes := make([]*node, len(sites))
	byName := map[string]*node{}
	res := &Result{Jobs: make([]Outcome, len(jobs)), Sites: make([]SiteStats, len(sites))}
	for i, s := range sites {
		name := s.Policy.Cluster
		if name == "" {
			return nil, fmt.Errorf("cluster %d has no name (lsf.shared's Cluster section and lsf.cluster.<name>)", i+1)
		}
		if byName[name] != nil {
			return nil, fmt.Errorf("cluster %s is given twice", name)
		}
		res.Sites[i] = SiteStats{Cluster: name, Slots: s.Cluster.TotalSlots(), Returned: map[string]int{}}
		n := &node{index: i, name: name, policy: s.Policy, c: s.Cluster, e: runtime.NewEngine(s.Cluster, clock, nil),
			ledger: mc.NewLedger(s.Policy, max(s.Cluster.SleepTime, 1)), opts: mc.OptionsOf(s.Policy),
			forwarded: map[int64]*runtime.Job{}, copies: map[int64]*runtime.Job{}, unanswered: map[mc.Dest]int{},
			news: map[int64]bool{}, times: map[int64]int{}, reports: map[string][]mc.QueueState{},
			exported: map[*runtime.Queue][]mc.HostInfo{}, stats: &res.Sites[i], nextRound: runtime.Never, dirty: true}
		for _, q := range s.Policy.Queues {
			n.sends = n.sends || q.Sends()
		}
		nodes[i], byName[name] = n, n
	}
	ev := &sim.Queue{}
	for i, j := range jobs {
		if math.IsNaN(float64(j.At)) || math.IsInf(float64(j.At), 0) {
			return nil, errors.New("a job's submission time is not a number")
		}
		if j.Site < 0 || j.Site >= len(sites) {
			return nil, fmt.Errorf("job %d goes to cluster %d of %d", i+1, j.Site+1, len(sites))
		}
		res.Jobs[i] = Outcome{Job: j, RanAt: -1}
		ev.Push(sim.Event{At: j.At, Kind: sim.Submit, Index: i})
	}
	if len(jobs) > 0 {
		res.Start = jobs[0].At
		for _, j := range jobs {
			res.Start = min(res.Start, j.At)
		}
	}
	// Every cluster starts knowing the others' receive-jobs queues, as
	// a daemon does after its first round.
	for _, n := range nodes {
		n.report(nodes)
	}
	done := 0
	wakes := make([]runtime.Time, len(nodes))
	for i := range wakes {
		wakes[i] = runtime.Never
	}
	var progress runtime.Time
	// runs holds the runs of the jobs requeued or held on their exit
	// values (Outcome.EarlierRuns).
	runs := map[*runtime.Job][]sim.RunSpan{}
	// foresee pushes the end of a job that runs from now on site s.
	foresee := func(s int, j *runtime.Job, t runtime.Time) { ev.Foresee(j, t, s) }
	// changed tells the home cluster of a copy that it changed.
	changed := func(j *runtime.Job) {
		if h := j.Sub.Home; h != nil {
			if home := byName[h.Cluster]; home != nil {
				home.news[h.ID] = true
			}
		}
	}
	for steps := 1; ; steps++ {
		t := ev.Next()
		for i, n := range nodes {
			t = min(t, wakes[i], n.nextRound)
		}
		if t == runtime.Never || ev.Len() == 0 && t-progress > 8*24*3600 {
			break
		}
		clock.T = t
		for ev.Len() > 0 && ev.Next() <= t {
			progress = t
			x := ev.Pop()
			switch x.Kind {
			case sim.Submit:
				o := &res.Jobs[x.Index]
				n := nodes[o.Job.Site]
				n.stats.Submitted++
				j, err := n.c.Submit(o.Job.Submission, t)
				if err != nil {
					o.Rejected = err
					n.stats.Rejected++
					done++
					continue
				}
				o.Home, n.dirty = j, true
				if n.sends && n.nextRound == runtime.Never {
					n.nextRound = t
				}
			case sim.End:
				j := x.Job
				if x.Epoch != j.Epoch || !j.State.Started() {
					continue
				}
				nodes[x.Site].dirty = true
				if j.Sub.Home != nil {
					// A copy received from another cluster ends as its
					// run ends; its home cluster learns it.
					sim.Finish(nodes[x.Site].e, j, x.AtRunLimit)
					changed(j)
					continue
				}
				// A job of this cluster may be requeued on its exit
				// values, as in a simulation of one cluster.
				start, st := j.Start, nodes[x.Site].stats
				switch sim.EndRun(nodes[x.Site].e, j, x.AtRunLimit, t, sim.DefaultMaxRequeues) {
				case sim.Requeued:
					st.Requeues++
					runs[j] = append(runs[j], sim.RunSpan{Start: start, End: t})
					continue
				case sim.Held:
					st.Held++
					runs[j] = append(runs[j], sim.RunSpan{Start: start, End: t})
				case sim.Unbounded:
					st.Unbounded++
					res.Unbounded = append(res.Unbounded, j)
				}
				done++
			}
		}
		// The forwarding rounds due: deliveries, recalls, and what the
		// other clusters' jobs did.
		for _, n := range nodes {
			if n.nextRound > t {
				continue
			}
			ended := n.round(byName, nodes, t)
			done += ended
			if ended > 0 || n.stats.Rounds == 1 {
				progress = t
			}
			n.nextRound = runtime.Never
			if len(n.forwarded) > 0 || n.sends && n.pendingToSend() {
				n.nextRound = t.Add(max(n.c.SleepTime, 1))
			}
		}
		// A cycle where something happened or something waited for
		// this time.
		for i, n := range nodes {
			if !n.dirty && wakes[i] > t {
				continue
			}
			n.dirty = false
			_, resumed, windowChange := n.e.ApplyRunWindows()
			for _, j := range resumed {
				foresee(i, j, t)
				changed(j)
			}
			if n.sends {
				n.e.Forward = n.planner()
			}
			p := n.e.Schedule()
			n.stats.Cycles++
			for _, d := range p.Dispatches {
				n.stats.Ran++
				foresee(i, d.Job, t)
				changed(d.Job)
				progress = t
			}
			for _, f := range p.Forwards {
				n.sent(f)
				if n.nextRound == runtime.Never {
					n.nextRound = t
				}
			}
			for _, pr := range p.Preemptions {
				if pr.Kill && pr.Victim.Sub.Home == nil {
					done++
				}
				changed(pr.Victim)
			}
			for _, sp := range p.Suspends {
				changed(sp.Job)
			}
			for _, j := range slices.Concat(p.Resumes, p.LoadResumes) {
				foresee(i, j, t)
				changed(j)
			}
			wakes[i] = min(p.Wake, windowChange)
		}
		if opts.Progress != nil && steps%4096 == 0 {
			opts.Progress(done, len(jobs))
		}
	}
	if opts.Progress != nil {
		opts.Progress(done, len(jobs))
	}
	// The simulation ends with the last thing that happened, not with
	// the rounds and wake-ups that found nothing more to do.
	res.End = progress
	finish(res, nodes, byName, runs)
	warn(res, nodes)
	return res, nil
}

// report gives every other cluster what this one exports to it: its
// receive-jobs queues that take their jobs, with their backlog, pending
// MultiCluster jobs and hosts.
func (n *node) report(nodes []*node) {
	for _, o := range nodes {
		if o == n {
			continue
		}
		var states []mc.QueueState
		for _, q := range n.c.Queues {
			if q.Def == nil || !q.Def.ReceivesFrom(o.name) {
				continue
			}
			states = append(states, mc.StateOf(n.name, q.Def, o.name, n.c.InboundPending(q), n.hostsOf(q)))
		}
		o.reports[n.name] = states
	}
}

// hostsOf returns the hosts the cluster exports for queue q: those the
// queue uses, with their type, Boolean resources and slots. The hosts of
// a simulation do not change, so they are worked out once.
func (n *node) hostsOf(q *runtime.Queue) []mc.HostInfo {
	if hosts, ok := n.exported[q]; ok {
		return hosts
	}
	hosts := []mc.HostInfo{}
	for _, h := range n.c.Hosts {
		if h.Retired || !q.UsesHost(h) {
			continue
		}
		slots := h.MaxSlots
		if slots < 0 {
			slots = max(int(h.Facts.Ncpus), 1)
		}
		hosts = append(hosts, mc.HostInfo{Name: h.Name, Type: h.Facts.Type, Booleans: h.Facts.Booleans, Slots: slots})
	}
	n.exported[q] = hosts
	return hosts
}

// pendingToSend reports whether a send-jobs queue has pending jobs that
// are not held: jobs that the next reports may let go elsewhere.
func (n *node) pendingToSend() bool {
	for _, q := range n.c.Queues {
		if q.Def != nil && q.Def.Sends() && q.Waiting() > 0 {
			return true
		}
	}
	return false
}

// planner is the Phase II decision of the next cycle, over the other
// clusters' last reports and the jobs sent and not yet delivered, as
// the daemon makes it.
func (n *node) planner() runtime.Forwarder {
	return mc.PlannerFor(n.policy, n.reports, n.unanswered, n.opts)
}

// sent books a job a cycle forwarded.
func (n *node) sent(f runtime.Forward) {
	j := f.Job
	if err := n.ledger.Forwarded(j.ID, j.Queue.Name, &mc.Target{Cluster: f.Cluster, Queue: f.Queue}, j.Remote.SentAt); err != nil {
		return
	}
	if n.times[j.ID] == 0 {
		n.stats.Forwarded++
	}
	n.times[j.ID]++
	n.stats.Sent++
	n.forwarded[j.ID] = j
	n.outbox = append(n.outbox, j)
	n.unanswered[mc.Dest{Cluster: f.Cluster, Queue: f.Queue}]++
}

// round is one forwarding round of the submission cluster n with every
// cluster that holds its jobs: deliver the jobs sent, recall those
// overdue, and record what became of those whose copy changed. It
// returns how many of the workload's jobs ended at home.
func (n *node) round(byName map[string]*node, nodes []*node, now runtime.Time) int {
	n.stats.Rounds++
	n.dirty = true
	ended := 0
	back := func(j *runtime.Job, cause mc.Cause) {
		out, _ := n.ledger.Return(j.ID, cause)
		suspend := out == mc.Suspend
		reason := cause.ReturnReason()
		if suspend {
			reason = runtime.ReasonMCInitFail
			n.stats.Suspended++
		}
		_ = n.c.ForwardReturned(j, reason, cause.Counts(), suspend)
		n.stats.Returned[cause.String()]++
		delete(n.forwarded, j.ID)
	}
	// Deliver: Phase III at the receive-jobs queue.
	outbox := n.outbox
	n.outbox = nil
	for _, j := range outbox {
		n.unanswered[mc.Dest{Cluster: j.Remote.Cluster, Queue: j.Remote.Queue}]--
		r := byName[j.Remote.Cluster]
		if r == nil {
			back(j, mc.Unreachable)
			continue
		}
		sub := forwardedSubmission(j, n.name)
		q := r.c.Queue(j.Remote.Queue)
		pending := 0
		if q != nil {
			pending = r.c.InboundPending(q)
		}
		err := mc.Accept(r.c, mc.Inbound{From: n.name, FromJob: j.ID, Queue: j.Remote.Queue, Sub: sub}, pending)
		var copyJob *runtime.Job
		if err == nil {
			copyJob, err = r.c.Submit(sub, now)
		}
		if err != nil {
			r.stats.Refused++
			back(j, mc.Rejected)
			continue
		}
		r.stats.Received++
		r.copies[copyJob.ID] = copyJob
		r.dirty = true
		_ = n.c.ForwardAccepted(j, copyJob.ID, now)
		_ = n.ledger.Accept(j.ID, copyJob.ID, now)
	}
	for _, id := range n.ledger.Overdue(now) {
		j := n.forwarded[id]
		if j == nil {
			continue
		}
		r := byName[j.Remote.Cluster]
		if cp := r.copies[j.Remote.ID]; cp != nil && cp.State.Pending() {
			_ = r.c.Withdraw(cp, now)
			r.dirty = true
			delete(r.copies, cp.ID)
			delete(n.news, id)
			back(j, mc.Recalled)
		}
	}
	// Poll: what the copies that changed did.
	for _, id := range slices.Sorted(maps.Keys(n.news)) {
		delete(n.news, id)
		j := n.forwarded[id]
		if j == nil || j.Remote.ID == 0 {
			continue
		}
		r := byName[j.Remote.Cluster]
		cp := r.copies[j.Remote.ID]
		if cp == nil {
			continue
		}
		switch {
		case cp.State.Pending() && j.State.Started():
			_ = n.c.RemoteRequeued(j)
		case (cp.State.Started() || cp.State.Finished()) && j.State.Pending():
			_ = n.c.RemoteStarted(j, remoteHosts(cp, r.name), cp.Start)
			_ = n.ledger.Start(j.ID)
		}
		switch {
		case cp.State.Started() && cp.State != runtime.Unknown && cp.State != j.State:
			_ = n.c.RemoteState(j, cp.State)
		case cp.State.Finished():
			state := cp.State
			if state == runtime.Zombie {
				state = runtime.Exit
			}
			_ = n.c.Finish(j, state, cp.ExitCode, cp.Term, cp.End)
			n.ledger.Finish(j.ID)
			delete(n.forwarded, j.ID)
			delete(r.copies, cp.ID)
			ended++
		}
	}
	// What the others export now.
	for _, o := range nodes {
		if o != n {
			o.report([]*node{n})
		}
	}
	return ended
}

// forwardedSubmission is the job a receive-jobs queue gets: as submitted,
// without what only means something at home (as the daemon sends it).
func forwardedSubmission(j *runtime.Job, home string) runtime.Submission {
	s := j.Sub
	s.Queue, s.Depend, s.Hosts, s.App, s.Hold = j.Remote.Queue, "", nil, "", false
	s.Home = &runtime.Home{Cluster: home, ID: j.ID, Sent: j.Remote.SentAt}
	return s
}

// remoteHosts names a copy's hosts host@cluster.
func remoteHosts(j *runtime.Job, cluster string) []string {
	var out []string
	for _, h := range j.HostNames() {
		out = append(out, h+"@"+cluster)
	}
	return out
}

// finish fills in the outcomes and the clusters' figures.
func finish(res *Result, nodes []*node, byName map[string]*node, runs map[*runtime.Job][]sim.RunSpan) {
	span := float64(res.End - res.Start)
	waits := make([]float64, len(nodes))
	started := make([]int, len(nodes))
	for i := range res.Jobs {
		o := &res.Jobs[i]
		h := o.Home
		if h == nil {
			continue
		}
		home := nodes[o.Job.Site]
		o.Forwards = home.times[h.ID]
		// The runs that ended in a requeue or a hold were at home.
		o.EarlierRuns = runs[h]
		for _, r := range o.EarlierRuns {
			home.stats.SlotSeconds += float64(h.Slots) * float64(r.End-r.Start)
		}
		ran, at := h, home.index
		if h.Remote != nil && h.Remote.ID != 0 {
			if r := byName[h.Remote.Cluster]; r != nil {
				if cp := r.c.Job(h.Remote.ID); cp != nil {
					ran, at = cp, r.index
				}
			}
		}
		if len(ran.Allocs) == 0 {
			continue // it never started
		}
		o.Ran, o.RanAt = ran, at
		if at != home.index {
			home.stats.RanRemotely++
		}
		waits[home.index] += float64(ran.Start - h.Submit)
		started[home.index]++
		end := ran.End
		if !ran.State.Finished() {
			end = res.End
		}
		nodes[at].stats.SlotSeconds += float64(ran.Slots) * float64(end-ran.Start)
		switch ran.State {
		case runtime.Done:
			nodes[at].stats.Done++
		case runtime.Exit:
			nodes[at].stats.Exit++
		}
	}
	for i, n := range nodes {
		if started[i] > 0 {
			n.stats.MeanWait = waits[i] / float64(started[i])
		}
		if span > 0 && n.stats.Slots > 0 {
			n.stats.Utilization = n.stats.SlotSeconds / (float64(n.stats.Slots) * span)
		}
	}
}

// warn gives each cluster the queues whose jobs still pend at home.
func warn(res *Result, nodes []*node) {
	home := make([][]*runtime.Job, len(nodes))
	for _, o := range res.Jobs {
		if o.Home != nil {
			home[o.Job.Site] = append(home[o.Job.Site], o.Home)
		}
	}
	for i, n := range nodes {
		n.stats.Warnings = []simstats.Warning{}
		for _, u := range n.e.Unrunnable(home[i]) {
			n.stats.Warnings = append(n.stats.Warnings, simstats.Warning{Queue: u.Queue, Jobs: u.Jobs, Requeued: u.Requeued, Job: u.Job.TraceID, Reason: u.Reason})
		}
	}
}
