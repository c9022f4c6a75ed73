package daemon

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"time"

	"github.com/lsfc/lsfc/runtime"
	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/apitls"
	"github.com/lsfc/lsfc/runtime/mc"
)

// MultiCluster job forwarding between daemons.
//
// Each cluster is its own lsfc serve with its own state. The daemons
// talk over their TCP listeners (--listen), with the one shared secret of
// the installation (--secret-file): a daemon presents its own secret to
// its peers, whose addresses are lsf.shared's Servers (mc.Peers).
//
// The submission cluster drives the exchange; the execution cluster only
// answers. A link goroutine of the submission cluster runs a round every
// MCInterval (MBD_SLEEP_TIME by default): a job a cycle forwards is
// delivered at the next round, and a job that comes back is forwarded
// again at the earliest one round later. For each peer its send-jobs queues name, or that holds
// one of its jobs, a round
//
//  1. delivers the jobs forwarded there and not yet answered (POST
//     /v1/mc/forward): the receive queue accepts (its job ID is
//     recorded), rejects (the job pends again at home, or is tried
//     elsewhere), or the peer cannot be reached (the job pends again
//     with "Remote cluster unreachable" and is forwarded again later).
//     A delivery whose answer is lost (a timeout, a connection cut
//     after the request went out) may have reached the peer: the job
//     stays sent there, and is delivered again, with the same sending
//     time, until the peer answers. A peer takes each sending at most
//     once: a job delivered again while its copy is there, or with the
//     sending time of a copy it has, gets that copy's ID, so a lost
//     answer duplicates nothing. After a restart, every job sent and
//     not answered is one whose delivery may have gone through;
//  2. recalls the jobs pending there past MAX_RSCHED_TIME × MBD_SLEEP_TIME
//     (POST /v1/mc/withdraw): the peer removes a copy that still pends
//     and marks it withdrawn, and the job returns home, pending again
//     or, past LSB_MC_INITFAIL_RETRY, PSUSP. A recall whose answer was
//     lost is made again, and a withdrawn copy the poll reports counts
//     as recalled, never as a job that failed;
//  3. polls the peer (POST /v1/mc/poll) for its receive queues (backlog,
//     pending MultiCluster jobs, exported hosts: what the next cycles'
//     forwarding decisions weigh) and the state of every job it received
//     from this cluster, and records at home what changed: accepted,
//     started (RUN on host@cluster), pending again, finished with its
//     exit code; a job suspended there shows USUSP or SSUSP here. A
//     job not answered yet is matched only by a copy of its own sending,
//     never by the finished copy of an earlier one. A copy the peer no
//     longer has returns home; a copy home does not expect (killed at
//     home, or sent elsewhere since) is killed there.
//
// The execution cluster's event log records what it took (a new job
// that names its home), what it refused (mc-reject, with the queue's
// reason) and what its home recalled (mc-recall).
//
// Status flows by polling, not by pushes: the execution cluster keeps
// its received jobs, finished ones until CLEAN_PERIOD, and the
// submission cluster asks. A peer that is down or restarting loses
// nothing: its jobs keep their last known state at home until it
// answers again, and the jobs forwarded meanwhile are tried elsewhere or
// wait.

// mcTimeout bounds one call to a peer.
const mcTimeout = 10 * time.Second

// mcPeerState is what the submission cluster last heard from a peer;
// holds is set when its last poll listed an unfinished copy of a job of
// this cluster, which the link follows until it ends there.
type mcPeerState struct {
	up     bool
	queues []api.MCQueue
	holds  bool
}

// mcWork is one peer's part of a round: where it answers, the jobs to
// deliver there and the jobs to recall.
type mcWork struct {
	peer    mc.Peer
	deliver []api.MCForward
	recall  []mcRecall
}

// mcRecall is a job to recall: its ID here and its copy's there.
type mcRecall struct{ job, remote int64 }

// mcResult is what a round heard from one peer.
type mcResult struct {
	cluster   string
	delivered []mcDelivery
	recalled  []int64
	poll      *api.MCPoll
}

// mcDelivery is a peer's answer to one forwarded job: the job's ID
// there, a rejection, no answer because the peer could not be reached
// (unreachable: the job did not get there), or none for another reason
// (lost: it may have got there).
type mcDelivery struct {
	job         int64
	id          int64
	rejected    string
	unreachable bool
	lost        bool
}

// mcLoop runs the rounds of the link until the daemon stops.
func (d *Daemon) mcLoop(ctx context.Context) {
	defer close(d.mcDone)
	t := d.clk.NewTimer(time.Hour)
	defer t.Stop()
	for {
		resetTimer(t, d.mcRound(ctx))
		select {
		case <-ctx.Done():
			return
		case <-t.C():
		}
	}
}

// mcInterval is the time between two rounds (on the owning goroutine).
func (d *Daemon) mcInterval() time.Duration {
	if d.cfg.MCInterval > 0 {
		return d.cfg.MCInterval
	}
	return time.Duration(max(d.cluster.SleepTime, 1) * float64(time.Second))
}

// mcRound runs one round with every peer that has work, and returns
// when the next is due.
func (d *Daemon) mcRound(ctx context.Context) time.Duration {
	// What the round needs of the cluster and its configuration is read
	// on the owning goroutine: a reload may change both.
	type plan struct {
		work  []mcWork
		self  string
		every time.Duration
	}
	v, err := d.do(ctx, func() (any, []Record, func(), error) {
		return plan{d.mcWorkList(), d.cfg.Policy.Cluster, d.mcInterval()}, nil, nil, nil
	})
	if err != nil {
		return time.Second
	}
	pl := v.(plan)
	self := pl.self
	if d.mcDown == nil {
		d.mcDown = map[string]string{}
	}
	for _, w := range pl.work {
		res := mcResult{cluster: w.peer.Name}
		for _, f := range w.deliver {
			dl := mcDelivery{job: f.FromJob}
			err := d.mcCall(ctx, self, w.peer, func(c *api.Client, ctx context.Context) error {
				r, err := c.MCForward(ctx, &f)
				if err == nil {
					dl.id, dl.rejected = r.ID, r.Rejected
				}
				return err
			})
			var ae *api.APIError
			switch {
			case errors.As(err, &ae) && ae.Status < 500:
				dl.rejected = ae.Message
			case err != nil && undelivered(err):
				dl.unreachable = true
			case err != nil:
				dl.lost = true
				d.cfg.Logf("job %d: no answer from cluster %s (%v); it is delivered again at the next round", f.FromJob, w.peer.Name, err)
			}
			res.delivered = append(res.delivered, dl)
		}
		for _, rc := range w.recall {
			err := d.mcCall(ctx, self, w.peer, func(c *api.Client, ctx context.Context) error {
				r, err := c.MCWithdraw(ctx, &api.MCWithdraw{From: self, FromJob: rc.job, ID: rc.remote})
				if err == nil && r.Removed {
					res.recalled = append(res.recalled, rc.job)
				}
				return err
			})
			if err != nil {
				d.cfg.Logf("recall of job %d from cluster %s: %v", rc.job, w.peer.Name, err)
			}
		}
		err := d.mcCall(ctx, self, w.peer, func(c *api.Client, ctx context.Context) error {
			p, err := c.MCPoll(ctx, self)
			res.poll = p
			return err
		})
		// A peer that does not answer is logged when that starts or its
		// error changes, and once when it answers again, not every round.
		switch {
		case err != nil && ctx.Err() == nil:
			if msg := err.Error(); d.mcDown[w.peer.Name] != msg {
				d.mcDown[w.peer.Name] = msg
				d.cfg.Logf("cluster %s: %v", w.peer.Name, err)
			}
		case err == nil && d.mcDown[w.peer.Name] != "":
			delete(d.mcDown, w.peer.Name)
			d.cfg.Logf("cluster %s answers again", w.peer.Name)
		}
		v, err := d.do(ctx, func() (any, []Record, func(), error) {
			kills, recs := d.mcReconcile(res)
			return kills, recs, nil, nil
		})
		if err != nil {
			return time.Second
		}
		for _, id := range v.([]int64) {
			err := d.mcCall(ctx, self, w.peer, func(c *api.Client, ctx context.Context) error {
				_, err := c.MCWithdraw(ctx, &api.MCWithdraw{From: self, FromJob: id, Kill: true})
				return err
			})
			if err != nil {
				d.cfg.Logf("kill of job %d at cluster %s: %v", id, w.peer.Name, err)
			}
		}
	}
	return pl.every
}

// mcCall calls a peer at its addresses in order, until one answers, as
// cluster self. When no address answers, the error is one that may have
// reached the peer if any did (see undelivered), else the last.
func (d *Daemon) mcCall(ctx context.Context, self string, p mc.Peer, fn func(*api.Client, context.Context) error) error {
	if len(p.Addrs) == 0 {
		return &net.OpError{Op: "dial", Net: "tcp", Err: fmt.Errorf("cluster %s has no Servers in lsf.shared", p.Name)}
	}
	var err, reached error
	for _, addr := range p.Addrs {
		cctx, cancel := context.WithTimeout(ctx, mcTimeout)
		err = fn(d.peerClient(addr, self), cctx)
		cancel()
		var ae *api.APIError
		if err == nil || errors.As(err, &ae) && ae.Status != http.StatusServiceUnavailable {
			return err
		}
		if reached == nil && !undelivered(err) {
			reached = err
		}
	}
	if reached != nil {
		return reached
	}
	return err
}

// peerClient returns the client of a peer's daemon at addr, acting as
// cluster self: Config.PeerClient's, else one over TCP with the shared
// secret, speaking TLS with PeerTLS when set.
func (d *Daemon) peerClient(addr, self string) *api.Client {
	if d.cfg.PeerClient != nil {
		return d.cfg.PeerClient(addr, self)
	}
	c := api.DialTCP(addr, d.cfg.Secret, self)
	if d.cfg.PeerTLS != nil {
		apitls.Use(c, d.cfg.PeerTLS)
	}
	return c
}

// mcCaller checks that a MultiCluster request comes from the cluster it
// names: a peer known by its certificate may act only for the cluster
// the certificate names; one that showed the shared secret for any.
func mcCaller(r *http.Request, from string) error {
	if id := who(r); id.Cert && id.User != from {
		return errorf(http.StatusForbidden, "the certificate of %q may not act for cluster %q", id.User, truncate(from))
	}
	return nil
}

// undelivered reports whether a call's error shows that the request never
// reached the peer's daemon: no connection was made, or the peer said it
// serves no requests (a standby master). Any other failure, a timeout
// or a connection cut, may have come after the peer acted on it.
func undelivered(err error) bool {
	var ae *api.APIError
	if errors.As(err, &ae) {
		return ae.Status == http.StatusServiceUnavailable
	}
	var oe *net.OpError
	return errors.As(err, &oe) && oe.Op == "dial"
}

// mcWorkList returns the peers to talk to in this round, in lsf.shared
// order: those a send-jobs queue with pending jobs names (the forwarding
// decision weighs what they report), those a job of this cluster is sent
// to, and those whose last poll listed an unfinished copy of one, with
// the jobs to deliver and to recall. A peer is
// first contacted, and its address resolved, when there is such work: a
// daemon whose send-jobs queues are empty talks to no peer, so that it
// starts and runs offline.
func (d *Daemon) mcWorkList() []mcWork {
	if d.cfg.Policy.Cluster == "" {
		// A configuration without a cluster name has no peers.
		return nil
	}
	want := map[string]bool{}
	for _, q := range d.cfg.Policy.Queues {
		if !q.Sends() {
			continue
		}
		if rq := d.cluster.Queue(q.Name); rq == nil || rq.Pending == 0 {
			continue
		}
		for _, dst := range q.SendTo {
			want[dst.Cluster] = true
		}
	}
	for name, st := range d.mcPeers {
		// A copy home no longer expects (its job killed here) is
		// killed there at the peer's next poll.
		if st.holds {
			want[name] = true
		}
	}
	deliver := map[string][]api.MCForward{}
	for _, j := range d.cluster.Forwarded() {
		want[j.Remote.Cluster] = true
		if j.Remote.ID == 0 && j.State == runtime.Pend {
			deliver[j.Remote.Cluster] = append(deliver[j.Remote.Cluster], d.mcForward(j))
		}
	}
	recall := map[string][]mcRecall{}
	for _, id := range d.mcLedger().Overdue(d.now()) {
		j := d.cluster.Job(id)
		recall[j.Remote.Cluster] = append(recall[j.Remote.Cluster], mcRecall{id, j.Remote.ID})
	}
	var out []mcWork
	for _, p := range mc.Peers(d.cfg.Policy) {
		if want[p.Name] {
			out = append(out, mcWork{peer: p, deliver: deliver[p.Name], recall: recall[p.Name]})
		}
	}
	return out
}

// mcForward is what a forwarded job's receive queue gets: the job as it
// was submitted, without what only means something here (its
// dependency, its hosts, its application profile, a hold).
func (d *Daemon) mcForward(j *runtime.Job) api.MCForward {
	s := j.Sub
	f := api.MCForward{From: d.cfg.Policy.Cluster, FromJob: j.ID, Sent: float64(j.Remote.SentAt), Queue: j.Remote.Queue, User: s.User,
		Group: s.Group, UID: s.UID, GID: s.GID, FromType: s.FromType,
		Job: api.SubmitRequest{Command: s.Command, Name: s.Name, ResReq: s.ResReq, Slots: s.Slots,
			Priority: s.Priority, RunLimit: s.RunLimit, MemLimit: s.MemLimit, MemHard: s.MemHard, Rerunnable: s.Rerunnable,
			Exclusive: s.Exclusive, GPU: s.GPU, Cwd: s.Cwd, Env: s.Env, Umask: s.Umask, Stdout: s.Stdout, Stderr: s.Stderr,
			FromHost: s.FromHost, Project: s.Project, OutOverwrite: s.OutOverwrite, ErrOverwrite: s.ErrOverwrite,
			Interactive: submissionInteractive(s.Interactive), MaxSlots: s.MaxSlots, AutoResize: s.AutoResize,
			ResizeNotify: s.ResizeNotify}}
	execRequest(s.Exec, &f.Job)
	mailRequest(s.Mail, &f.Job)
	return f
}

// submissionInteractive is the API's form of an interactive job's
// submitter: an interactive job forwarded to another cluster is reached
// by bsub there too, its wrapper connecting back wherever it runs.
func submissionInteractive(in *runtime.Interactive) *api.Interactive {
	if in == nil {
		return nil
	}
	return &api.Interactive{Mode: in.Mode, Addrs: in.Addrs, Token: in.Token, Tty: in.Tty}
}

// mcLedger books the forwarded jobs and failed remote starts of the
// cluster as they stand: the ledger follows from the jobs, which the
// event log keeps.
func (d *Daemon) mcLedger() *mc.Ledger {
	l := mc.NewLedger(d.cfg.Policy, d.cluster.SleepTime)
	booked := d.cluster.JobsWhere(func(j *runtime.Job) bool {
		return !j.State.Finished() && (j.Remote != nil || j.MCFailures > 0)
	})
	for _, j := range booked {
		l.Restore(j.ID, j.Queue.Name, j.Remote, j.State.Started(), j.MCFailures)
	}
	return l
}

// mcReconcile records at home what a round heard from a peer, and
// returns the jobs of that peer to kill there: copies home does not
// expect.
func (d *Daemon) mcReconcile(res mcResult) (kills []int64, recs []Record) {
	now := d.now()
	add := func(r Record) bool {
		if _, err := apply(d.cluster, r); err != nil {
			d.cfg.Logf("cluster %s: %s of job %d: %v", res.cluster, r.Type, r.Job, err)
			return false
		}
		recs = append(recs, r)
		return true
	}
	uncertain := d.mcUncertainJobs()
	var ledger *mc.Ledger
	ret := func(j *runtime.Job, cause mc.Cause, why string) {
		if ledger == nil {
			ledger = d.mcLedger()
		}
		state, reason := runtime.Pend, cause.ReturnReason()
		if out, err := ledger.Return(j.ID, cause); err == nil && out == mc.Suspend {
			state, reason = runtime.PSusp, runtime.ReasonMCInitFail
		}
		delete(uncertain, j.ID)
		add(Record{Type: KindReturn, At: now, Job: j.ID, Text: cause.String(), Reason: reason, State: state.String(), Why: why})
	}
	forwardedHere := func(id int64) *runtime.Job {
		j := d.cluster.Job(id)
		if j == nil || j.Remote == nil || j.Remote.Cluster != res.cluster || j.State.Finished() {
			return nil
		}
		return j
	}
	st := d.mcPeers[res.cluster]
	if st == nil {
		st = &mcPeerState{}
		d.mcPeers[res.cluster] = st
	}
	for _, dl := range res.delivered {
		j := forwardedHere(dl.job)
		if j == nil || j.Remote.ID != 0 {
			continue
		}
		switch {
		case dl.id > 0:
			delete(uncertain, j.ID)
			add(Record{Type: KindAccept, At: now, Job: j.ID, Remote: dl.id})
		case dl.lost:
			st.up = false
			uncertain[j.ID] = true
		case dl.unreachable && uncertain[j.ID]:
			// An earlier delivery may be there: the job waits for the
			// peer to answer rather than go anywhere else.
			st.up = false
		case dl.unreachable:
			st.up = false
			ret(j, mc.Unreachable, "")
		default:
			d.cfg.Logf("job %d: rejected by queue %s of cluster %s: %s", j.ID, j.Remote.Queue, res.cluster, dl.rejected)
			ret(j, mc.Rejected, dl.rejected)
		}
	}
	for _, id := range res.recalled {
		if j := forwardedHere(id); j != nil && j.State == runtime.Pend {
			ret(j, mc.Recalled, "")
		}
	}
	if res.poll == nil {
		st.up = false
		d.dirty = true
		return nil, recs
	}
	st.up, st.queues, st.holds = true, res.poll.Queues, false
	seen := map[int64]bool{}
	for _, rj := range res.poll.Jobs {
		state, ok := runtime.ParseJobState(rj.State)
		if !ok {
			continue
		}
		st.holds = st.holds || !state.Finished()
		j := forwardedHere(rj.FromJob)
		switch {
		case j == nil:
		case j.Remote.ID != 0 && j.Remote.ID != rj.ID:
			j = nil // a copy of an earlier sending
		case j.Remote.ID == 0 && runtime.Time(rj.Sent) != j.Remote.SentAt:
			j = nil // not the copy of this sending
		}
		if j == nil {
			if h := d.cluster.Job(rj.FromJob); h != nil && !state.Finished() && h.State == runtime.Pend && h.Remote == nil && !res.recalledJob(rj.FromJob) {
				// A copy of a sending home took back: it is there, so
				// the job is there.
				sent := runtime.Time(rj.Sent)
				if sent == 0 {
					sent = now
				}
				if add(Record{Type: KindForward, At: sent, Job: h.ID, Cluster: res.cluster, Queue: d.mcQueueOf(h, res.poll)}) {
					j = h
				}
			}
		}
		if j == nil {
			if !state.Finished() {
				kills = append(kills, rj.FromJob)
			}
			continue
		}
		seen[j.ID] = true
		if j.Remote.ID == 0 {
			delete(uncertain, j.ID)
			add(Record{Type: KindAccept, At: now, Job: j.ID, Remote: rj.ID})
		}
		at := func(t float64) runtime.Time {
			if t > 0 {
				return runtime.Time(t)
			}
			return now
		}
		switch {
		case rj.Withdrawn:
			// Recalled, and the answer to the recall was lost.
			if j.State == runtime.Pend {
				ret(j, mc.Recalled, "")
			}
		case state.Pending() && j.State.Started():
			add(Record{Type: KindRemoteRequeue, At: now, Job: j.ID})
		case state.Started() && j.State.Pending():
			add(Record{Type: KindRemoteStart, At: at(rj.Start), Job: j.ID, Hosts: rj.Hosts})
			if state != runtime.Run && state != runtime.Unknown {
				add(Record{Type: KindRemoteState, At: now, Job: j.ID, State: state.String()})
			}
		case state.Started() && state != runtime.Unknown && state != j.State:
			add(Record{Type: KindRemoteState, At: now, Job: j.ID, State: state.String()})
		case state.Finished():
			if j.State.Pending() && rj.Start > 0 {
				add(Record{Type: KindRemoteStart, At: at(rj.Start), Job: j.ID, Hosts: rj.Hosts})
			}
			if state == runtime.Zombie {
				state = runtime.Exit
			}
			add(Record{Type: KindRemoteFinish, At: at(rj.End), Job: j.ID, State: state.String(), Code: rj.ExitCode, Term: rj.Term})
		}
	}
	for _, j := range d.cluster.Forwarded() {
		if j.Remote.Cluster != res.cluster || j.Remote.ID == 0 || seen[j.ID] {
			continue
		}
		// The peer answers and no longer has the job: it comes back.
		d.cfg.Logf("job %d: cluster %s no longer has its job %d; it comes back", j.ID, res.cluster, j.Remote.ID)
		if j.State.Started() {
			add(Record{Type: KindRemoteRequeue, At: now, Job: j.ID})
		}
		ret(j, mc.Unreachable, "")
	}
	d.dirty = true
	return kills, recs
}

// mcUncertainJobs returns the jobs whose last delivery may have reached
// their peer without an answer. The daemon starts with every job sent
// and not answered among them: a delivery may have been under way when
// the last one stopped.
func (d *Daemon) mcUncertainJobs() map[int64]bool {
	if d.mcUncertain == nil {
		d.mcUncertain = map[int64]bool{}
		for _, j := range d.cluster.Forwarded() {
			if j.Remote.ID == 0 {
				d.mcUncertain[j.ID] = true
			}
		}
	}
	return d.mcUncertain
}

// recalledJob reports whether the round recalled a job.
func (res mcResult) recalledJob(id int64) bool { return slices.Contains(res.recalled, id) }

// mcQueueOf returns the receive queue of a peer a job found there went
// to: the first destination of its queue that the peer lists.
func (d *Daemon) mcQueueOf(j *runtime.Job, p *api.MCPoll) string {
	if j.Queue.Def != nil {
		for _, dst := range j.Queue.Def.SendTo {
			remote := dst.Remote(j.Queue.Name)
			for _, q := range p.Queues {
				if q.Queue == remote {
					return remote
				}
			}
		}
	}
	return j.Queue.Name
}

// mcForwarder returns the forwarding planner of the next cycle, from what
// the peers last reported; nil when no queue forwards.
func (d *Daemon) mcForwarder() runtime.Forwarder {
	p := d.cfg.Policy
	sends := false
	for _, q := range p.Queues {
		sends = sends || q.Sends()
	}
	if !sends {
		return nil
	}
	unanswered := map[mc.Dest]int{}
	for _, j := range d.cluster.Forwarded() {
		if j.Remote.ID == 0 {
			unanswered[mc.Dest{Cluster: j.Remote.Cluster, Queue: j.Remote.Queue}]++
		}
	}
	reports := map[string][]mc.QueueState{}
	for name, st := range d.mcPeers {
		if !st.up {
			continue
		}
		states := []mc.QueueState{}
		for _, q := range st.queues {
			s := mc.QueueState{Cluster: name, Queue: q.Queue, Receives: true, Backlog: q.Backlog, Pending: q.Pending}
			for _, h := range q.Hosts {
				s.Hosts = append(s.Hosts, mc.HostInfo{Name: h.Name, Type: h.Type, Booleans: h.Booleans, Slots: h.Slots})
			}
			states = append(states, s)
		}
		reports[name] = states
	}
	return mc.PlannerFor(p, reports, unanswered, mc.OptionsOf(p))
}

// sortedKeys returns a map's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// The execution cluster's side: the routes of the TCP listener that
// peers call.

// handleMCForward takes a job a submission cluster forwards to one of
// this cluster's receive-jobs queues (Phase III, mc.Accept).
func (d *Daemon) handleMCForward(w http.ResponseWriter, r *http.Request) {
	var req api.MCForward
	if err := readJSON(r, &req); err != nil {
		reply(w, nil, err)
		return
	}
	if err := validMCForward(&req); err != nil {
		reply(w, nil, err)
		return
	}
	if err := mcCaller(r, req.From); err != nil {
		reply(w, nil, err)
		return
	}
	v, err := d.do(r.Context(), func() (any, []Record, func(), error) {
		c := d.cluster
		sent := runtime.Time(req.Sent)
		for _, j := range c.Inbound(req.From) {
			if h := j.Sub.Home; h.ID == req.FromJob && (!j.State.Finished() || sent != 0 && h.Sent == sent) {
				return api.MCForwardResponse{ID: j.ID}, nil, nil, nil
			}
		}
		s := req.Job
		sub := runtime.Submission{Name: s.Name, User: req.User, Group: req.Group, Queue: req.Queue, Slots: s.Slots,
			ResReq: s.ResReq, Priority: s.Priority, RunLimit: s.RunLimit, FromType: req.FromType, Command: s.Command,
			Env: s.Env, Cwd: s.Cwd, Umask: s.Umask, Stdout: s.Stdout, Stderr: s.Stderr, FromHost: s.FromHost,
			UID: req.UID, GID: req.GID, Rerunnable: s.Rerunnable, MemLimit: s.MemLimit, MemHard: s.MemHard, Exclusive: s.Exclusive,
			GPU: s.GPU, Project: s.Project, Home: &runtime.Home{Cluster: req.From, ID: req.FromJob, Sent: sent},
			OutOverwrite: s.OutOverwrite, ErrOverwrite: s.ErrOverwrite, Mail: submitMail(&s),
			MaxSlots: s.MaxSlots, AutoResize: s.AutoResize, ResizeNotify: s.ResizeNotify}
		if in := s.Interactive; in != nil {
			sub.Interactive = &runtime.Interactive{Mode: in.Mode, Addrs: in.Addrs, Token: in.Token, Tty: in.Tty}
		}
		exe, xerr := d.submitExec(&s, d.now())
		if xerr != nil {
			return nil, nil, nil, xerr
		}
		sub.Exec = exe
		pending := 0
		if q := c.Queue(req.Queue); q != nil {
			pending = c.InboundPending(q)
		}
		in := mc.Inbound{From: req.From, FromJob: req.FromJob, Queue: req.Queue, Sub: sub}
		err := mc.Accept(c, in, pending)
		var j *runtime.Job
		if err == nil {
			j, err = c.Submit(sub, d.now())
		}
		var rej *runtime.Rejection
		switch {
		case errors.As(err, &rej):
			d.cfg.Logf("job %d of cluster %s: rejected by queue %s: %v", req.FromJob, req.From, req.Queue, err)
			return api.MCForwardResponse{Rejected: err.Error()},
				[]Record{{Type: KindMCReject, At: d.now(), Cluster: req.From, Remote: req.FromJob, Queue: req.Queue, Text: err.Error()}}, nil, nil
		case err != nil:
			return nil, nil, nil, err
		}
		im := j.Image()
		return api.MCForwardResponse{ID: j.ID}, []Record{{Type: KindNew, At: j.Submit, Job: j.ID, Image: &im}}, nil, nil
	})
	reply(w, v, err)
}

// validMCForward checks a forwarded job's fields.
func validMCForward(req *api.MCForward) error {
	switch {
	case checkName("cluster", req.From) != nil:
		return errorf(http.StatusBadRequest, "bad cluster name %q", truncate(req.From))
	case req.FromJob <= 0:
		return errorf(http.StatusBadRequest, "bad job id %d", req.FromJob)
	case checkName("queue", req.Queue) != nil:
		return errorf(http.StatusBadRequest, "bad queue name %q", truncate(req.Queue))
	case checkName("user", req.User) != nil:
		return errorf(http.StatusBadRequest, "bad user name %q", truncate(req.User))
	}
	return validSubmit(&req.Job)
}

// handleMCPoll tells a submission cluster about the queues that receive
// its jobs and the jobs it sent.
func (d *Daemon) handleMCPoll(w http.ResponseWriter, r *http.Request) {
	var req api.MCPollRequest
	if err := readJSON(r, &req); err != nil {
		reply(w, nil, err)
		return
	}
	if checkName("cluster", req.From) != nil {
		reply(w, nil, errorf(http.StatusBadRequest, "bad cluster name %q", truncate(req.From)))
		return
	}
	if err := mcCaller(r, req.From); err != nil {
		reply(w, nil, err)
		return
	}
	v, err := d.do(r.Context(), func() (any, []Record, func(), error) {
		c := d.cluster
		out := api.MCPoll{Queues: []api.MCQueue{}, Jobs: []api.MCJob{}}
		for _, q := range c.Queues {
			if q.Def == nil || !q.Def.ReceivesFrom(req.From) {
				continue
			}
			mq := api.MCQueue{Queue: q.Name, Backlog: q.Def.Backlog(), Pending: c.InboundPending(q)}
			for _, h := range c.Hosts {
				if h.Retired || !q.UsesHost(h) {
					continue
				}
				slots := h.MaxSlots
				if slots < 0 {
					slots = max(int(h.Facts.Ncpus), 1)
				}
				mq.Hosts = append(mq.Hosts, api.MCHost{Name: h.Name, Type: h.Facts.Type, Booleans: h.Facts.Booleans, Slots: slots})
			}
			out.Queues = append(out.Queues, mq)
		}
		for _, j := range c.Inbound(req.From) {
			mj := api.MCJob{FromJob: j.Sub.Home.ID, ID: j.ID, Sent: float64(j.Sub.Home.Sent), Withdrawn: j.Withdrawn,
				State: j.State.String(), Start: float64(j.Start), End: float64(j.End), ExitCode: j.ExitCode, Term: j.Term}
			for _, h := range j.HostNames() {
				mj.Hosts = append(mj.Hosts, h+"@"+d.cfg.Policy.Cluster)
			}
			out.Jobs = append(out.Jobs, mj)
		}
		return out, nil, nil, nil
	})
	reply(w, v, err)
}

// handleMCWithdraw recalls a job a submission cluster sent, while it
// pends, or kills it.
func (d *Daemon) handleMCWithdraw(w http.ResponseWriter, r *http.Request) {
	var req api.MCWithdraw
	if err := readJSON(r, &req); err != nil {
		reply(w, nil, err)
		return
	}
	if checkName("cluster", req.From) != nil || req.FromJob <= 0 {
		reply(w, nil, errorf(http.StatusBadRequest, "bad cluster name or job id"))
		return
	}
	if err := mcCaller(r, req.From); err != nil {
		reply(w, nil, err)
		return
	}
	v, err := d.do(r.Context(), func() (any, []Record, func(), error) {
		now := d.now()
		for _, j := range d.cluster.Inbound(req.From) {
			switch {
			case j.Sub.Home.ID != req.FromJob || !req.Kill && req.ID != 0 && j.ID != req.ID:
				continue
			case j.Withdrawn && !req.Kill && req.ID != 0:
				// Recalled before, and the answer was lost.
				return api.MCWithdrawResponse{Removed: true, State: j.State.String()}, nil, nil, nil
			case j.State.Finished():
				continue
			case j.State.Pending():
				if err := d.cluster.Withdraw(j, now); err != nil {
					return nil, nil, nil, err
				}
				d.cfg.Logf("job %d: recalled by cluster %s (its job %d)", j.ID, req.From, req.FromJob)
				return api.MCWithdrawResponse{Removed: true, State: j.State.String()},
					[]Record{{Type: KindMCRecall, At: now, Job: j.ID, Cluster: req.From, Remote: req.FromJob}}, nil, nil
			case req.Kill:
				j.Term = "TERM_OWNER"
				return api.MCWithdrawResponse{Removed: true, State: j.State.String()},
					[]Record{{Type: KindKill, At: now, Job: j.ID, Term: j.Term}}, d.killAct(j.ID), nil
			}
			return api.MCWithdrawResponse{State: j.State.String()}, nil, nil, nil
		}
		return api.MCWithdrawResponse{}, nil, nil, nil
	})
	reply(w, v, err)
}
