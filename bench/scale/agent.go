package main

import (
	"context"
	"math/rand/v2"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/lsfc/lsfc/runtime/api"
)

// A fleet is the simulated execution agents of one run, and what they
// saw.
type fleet struct {
	addr, secret string
	interval     time.Duration
	// runMin and runMax bound the run time drawn for each job.
	runMin, runMax time.Duration
	seed           uint64

	// measuring is set during the measurement: only then are latencies
	// kept and starts and ends counted.
	measuring atomic.Bool
	started   atomic.Int64
	finished  atomic.Int64
	// errors counts the failed requests.
	errors atomic.Int64
	// registered counts the agents whose first load report was taken.
	registered atomic.Int64
	// lastErr is the last request's failure.
	lastErr atomic.Value

	mu sync.Mutex
	// lat is each measured start's latency, from the master's decision
	// to the order in its agent's hands. held are those of the orders an
	// exchange waiting at the master since before the decision brought;
	// the others waited for their agent's next exchange: gap is from the
	// decision to that exchange's sending, exch from its sending to its
	// answer.
	lat, held, gap, exch []time.Duration
}

// An agent is one simulated execution agent.
type agent struct {
	f      *fleet
	host   string
	client *api.Client
	rng    *rand.Rand

	mu   sync.Mutex
	runs map[int64]*run
	// cancel cuts the exchange's wait short, when one waits.
	cancel context.CancelFunc
	// ack is the last order carried out in the session.
	ack uint64
	// holds is set once the master said it holds exchanges: they then
	// wait up to api.AgentHoldWait, as lsfc sbatchd's do once their runs
	// are recorded (these are at once) and their directories known
	// (these have none).
	holds bool
	// endTimes is set once the master said it reads the end times of
	// runs (AgentOrders.EndTimes): each end then carries its own, as
	// lsfc sbatchd's do.
	endTimes bool
}

// A run is a job the agent holds: running until its timer ends it, or
// ended and not yet acknowledged.
type run struct {
	start float64
	end   *api.AgentEnd
	timer *time.Timer
}

// localIP is the loopback address agent i speaks from.
func localIP(i int) net.IP {
	return net.IPv4(127, byte(1+i/(254*254)%254), byte(1+i/254%254), byte(1+i%254))
}

// newAgent returns the agent of host, the i-th of its fleet.
func (f *fleet) newAgent(i int, host string) *agent {
	return &agent{f: f, host: host, client: api.DialTCPFrom(f.addr, f.secret, "root", localIP(i)),
		rng: rand.New(rand.NewPCG(f.seed, uint64(i))), runs: map[int64]*run{}}
}

// run reports load and exchanges with the master until ctx ends. Its
// first load report comes after phase, so that a fleet's reports spread
// over the interval as those of hosts started at different times do.
func (a *agent) run(ctx context.Context, phase time.Duration, wg *sync.WaitGroup) {
	defer wg.Done()
	select {
	case <-ctx.Done():
		return
	case <-time.After(phase):
	}
	first := true
	for ctx.Err() == nil {
		if err := a.client.AgentLoad(ctx, a.load()); err != nil {
			if ctx.Err() == nil {
				a.f.failed(err)
			}
		} else if first {
			first = false
			a.f.registered.Add(1)
			wg.Add(1)
			go a.syncLoop(ctx, wg)
		}
		select {
		case <-ctx.Done():
		case <-time.After(a.f.interval):
		}
	}
}

// load is a load report: the static facts of a small server and load
// indices drawn around a busy host's.
func (a *agent) load() *api.AgentLoad {
	r := a.rng.Float64
	return &api.AgentLoad{Host: a.host, Interval: a.f.interval.Seconds(), Type: "X86_64", Model: "Intel_EM64T",
		Ncpus: 8, Nprocs: 1, Ncores: 4, Nthreads: 2, Maxmem: 32768, Maxswp: 8192, Maxtmp: 102400,
		Load: map[string]float64{"r15s": 4 * r(), "r1m": 4 * r(), "r15m": 4 * r(), "ut": r(), "pg": 10 * r(),
			"io": 100 * r(), "ls": 0, "it": 60 * r(), "tmp": 50000 + 1000*r(), "swp": 8000, "mem": 16000 + 8000*r()}}
}

// syncLoop keeps the exchange going, as lsfc sbatchd's does.
func (a *agent) syncLoop(ctx context.Context, wg *sync.WaitGroup) {
	defer wg.Done()
	var session string
	var taken uint64
	for ctx.Err() == nil {
		req := a.request(session)
		rctx, cancel := context.WithCancel(ctx)
		if req.Wait > 0 {
			a.mu.Lock()
			a.cancel = cancel
			a.mu.Unlock()
			if a.ends() > len(req.Ends) {
				cancel()
			}
		}
		sent := time.Now()
		out, err := a.client.AgentSync(rctx, req)
		a.mu.Lock()
		a.cancel = nil
		a.mu.Unlock()
		cut := rctx.Err() != nil && ctx.Err() == nil
		cancel()
		if err != nil {
			if cut || ctx.Err() != nil {
				continue
			}
			a.f.failed(err)
			select {
			case <-ctx.Done():
			case <-time.After(min(a.f.interval, time.Second)):
			}
			continue
		}
		now := time.Now()
		a.mu.Lock()
		a.holds, a.endTimes = out.Hold, out.EndTimes
		a.mu.Unlock()
		if out.Session != session {
			session, taken = out.Session, 0
			a.mu.Lock()
			a.ack = 0
			a.mu.Unlock()
		}
		a.forget(out.Done, false)
		a.forget(out.Kill, true)
		for _, o := range out.Orders {
			if o.Seq <= taken {
				continue
			}
			a.take(o, sent, now)
			taken = o.Seq
		}
	}
}

// request builds the next exchange; it waits for orders only when it has
// no end to report.
func (a *agent) request(session string) *api.AgentSync {
	a.mu.Lock()
	defer a.mu.Unlock()
	req := &api.AgentSync{Host: a.host, Interval: a.f.interval.Seconds(), Session: session, Ack: a.ack}
	for id, r := range a.runs {
		req.Known = append(req.Known, api.AgentRun{Job: id, Start: r.start})
		if r.end != nil {
			req.Ends = append(req.Ends, *r.end)
		}
	}
	if len(req.Ends) == 0 {
		req.Wait = a.f.interval.Seconds()
		if a.holds {
			req.Wait = max(a.f.interval, api.AgentHoldWait).Seconds()
		}
	}
	return req
}

// ends counts the ends not yet acknowledged.
func (a *agent) ends() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	n := 0
	for _, r := range a.runs {
		if r.end != nil {
			n++
		}
	}
	return n
}

// take carries out an order received at now, in the answer of an
// exchange sent at sent: a job starts its run, a kill ends it.
func (a *agent) take(o api.AgentOrder, sent, now time.Time) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.ack = o.Seq
	r := a.runs[o.Job]
	switch {
	case o.Spec != nil:
		if r != nil && r.start == o.Start {
			return // sent again: it runs once
		}
		if a.f.measuring.Load() {
			at := time.Unix(0, int64(o.Start*1e9))
			a.f.mu.Lock()
			a.f.lat = append(a.f.lat, now.Sub(at))
			if sent.Before(at) {
				a.f.held = append(a.f.held, now.Sub(at))
			} else {
				a.f.gap = append(a.f.gap, sent.Sub(at))
				a.f.exch = append(a.f.exch, now.Sub(sent))
			}
			a.f.mu.Unlock()
			a.f.started.Add(1)
		}
		d := a.f.runMin + time.Duration(a.rng.Int64N(int64(a.f.runMax-a.f.runMin)+1))
		nr := &run{start: o.Start}
		a.runs[o.Job] = nr
		id := o.Job
		nr.timer = time.AfterFunc(d, func() { a.ended(id, nr, 0) })
	case o.Signal == "KILL" && r != nil && r.start == o.Start && r.end == nil:
		r.timer.Stop()
		go a.ended(o.Job, r, 9)
	}
}

// ended records the end of a run and cuts the exchange's wait short.
func (a *agent) ended(id int64, r *run, signal int) {
	a.mu.Lock()
	if a.runs[id] != r || r.end != nil {
		a.mu.Unlock()
		return
	}
	r.end = &api.AgentEnd{AgentRun: api.AgentRun{Job: id, Start: r.start}, Signal: signal, CPU: 0.01}
	if a.endTimes {
		r.end.End = float64(time.Now().UnixNano()) / 1e9
	}
	cancel := a.cancel
	a.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// forget drops the runs the master acknowledged (or no longer counts on).
func (a *agent) forget(list []api.AgentRun, kill bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, k := range list {
		r := a.runs[k.Job]
		if r == nil || r.start != k.Start {
			continue
		}
		r.timer.Stop()
		delete(a.runs, k.Job)
		if !kill && r.end != nil && a.f.measuring.Load() {
			a.f.finished.Add(1)
		}
	}
}

// failed counts a failed request.
func (f *fleet) failed(err error) {
	f.errors.Add(1)
	f.lastErr.Store(err.Error())
}
