// Package failover runs lsfc serve as one of several master candidates
// that share their state through etcd (lsfc serve --etcd), as LSF's
// master candidates share lsb.events on a file server: one leads and
// schedules; the others wait, answer clients with the leader's address,
// and one of them takes over when the leader dies.
//
// The election is etcd's (a lease and a key under the cluster's prefix):
// the candidate whose key is oldest leads, for as long as its lease is
// kept alive. The leader's event log is in etcd too (package etcdlog),
// every write of it fenced by the leader's key: a master whose lease ran
// out, because it died or because a partition cut it from the etcd
// quorum, or whose key was deleted, can never write again, and it stops
// serving when it notices: when its lease is gone, or at once when its
// log refuses a write.
// The next leader replays the log from etcd and resumes: the jobs, their
// states and the hosts' are those every acknowledged request left. Jobs
// run on execution agents (lsfc sbatchd), which keep them running across
// the change and report to whichever master leads.
package failover

import (
	"context"
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/daemon"
	"github.com/lsfc/lsfc/runtime/etcdlog"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/concurrency"
)

// Config configures a master candidate.
type Config struct {
	// Client is the etcd client (the candidate does not close it).
	Client *clientv3.Client
	// Prefix is where the cluster's keys live in etcd (default
	// "/lsfc/CLUSTER/").
	Prefix string
	// TTL is the lease of the leader's key: how long after a leader dies
	// another candidate takes over (default 3 s; whole seconds).
	TTL time.Duration
	// Advertise is the address clients and agents reach this candidate
	// at (default: Daemon.Listen, with this machine's name for an empty
	// or unspecified host).
	Advertise string
	// Daemon configures the daemon this candidate runs while it leads:
	// Listen and Secret are required, and Store is set here.
	Daemon daemon.Config
	// Started, if not nil, is called each time this candidate starts
	// leading, with its daemon.
	Started func(*daemon.Daemon)
}

// A Candidate is a running master candidate.
type Candidate struct {
	cfg    Config
	name   string // the cluster's
	logf   func(string, ...any)
	cancel context.CancelFunc
	done   chan struct{}
	err    error

	mu      sync.Mutex
	d       *daemon.Daemon
	leading bool
}

// Start starts a candidate: it answers on Daemon.Listen at once (with
// the leader's address while it does not lead) and campaigns until ctx
// ends or Close, whichever comes first. Either way it stops as Close
// says, and Done is closed once it has.
func Start(ctx context.Context, cfg Config) (*Candidate, error) {
	if cfg.Client == nil {
		return nil, errors.New("a master candidate needs etcd")
	}
	if cfg.Daemon.Listen == "" || cfg.Daemon.Secret == "" {
		return nil, errors.New("a master candidate needs --listen and the shared secret: clients and agents reach the leader over TCP")
	}
	name := cfg.Daemon.Policy.Cluster
	if name == "" {
		name = "default"
	}
	if cfg.Prefix == "" {
		cfg.Prefix = "/lsfc/" + name + "/"
	}
	if !strings.HasSuffix(cfg.Prefix, "/") {
		cfg.Prefix += "/"
	}
	if cfg.TTL <= 0 {
		cfg.TTL = 3 * time.Second
	}
	if cfg.Advertise == "" {
		cfg.Advertise = advertised(cfg.Daemon.Listen)
	}
	logf := cfg.Daemon.Logf
	if logf == nil {
		logf = func(format string, args ...any) { fmt.Fprintf(os.Stderr, "lsfc serve: "+format+"\n", args...) }
		cfg.Daemon.Logf = logf
	}
	ctx, cancel := context.WithCancel(ctx)
	c := &Candidate{cfg: cfg, name: name, logf: logf, cancel: cancel, done: make(chan struct{})}
	go func() {
		defer close(c.done)
		c.err = c.run(ctx)
	}()
	return c, nil
}

// advertised turns a listening address into one others can dial.
func advertised(listen string) string {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return listen
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		if name, err := os.Hostname(); err == nil {
			host = name
		}
	}
	return net.JoinHostPort(host, port)
}

// Close stops the candidate, as the end of Start's context does, and
// waits until it has stopped: a leader resigns at once, so that another
// takes over without waiting for its lease. Jobs keep running on their
// agents.
func (c *Candidate) Close() error {
	c.cancel()
	<-c.done
	return c.err
}

// Advertise returns the address clients and agents reach it at.
func (c *Candidate) Advertise() string { return c.cfg.Advertise }

// Done is closed when the candidate has stopped.
func (c *Candidate) Done() <-chan struct{} { return c.done }

// Err returns why the candidate stopped, once Done is closed.
func (c *Candidate) Err() error {
	select {
	case <-c.done:
		return c.err
	default:
		return nil
	}
}

// Leading returns the daemon while this candidate leads, else nil: nil
// too once the daemon has stopped.
func (c *Candidate) Leading() *daemon.Daemon {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.leading || isDone(c.d.Done()) {
		return nil
	}
	return c.d
}

// Leader returns the address of the candidate that leads, as etcd has it
// ("" when none does).
func (c *Candidate) Leader(ctx context.Context) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	resp, err := c.cfg.Client.Get(ctx, c.cfg.Prefix+"election/", clientv3.WithFirstCreate()...)
	if err != nil {
		return "", err
	}
	if len(resp.Kvs) == 0 {
		return "", nil
	}
	return string(resp.Kvs[0].Value), nil
}

func ttlSeconds(d time.Duration) int {
	return max(1, int((d+time.Second-1)/time.Second))
}

func sleep(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

// run campaigns, leads while elected, and campaigns again when it lost
// the leadership, until ctx ends. While it does not lead, the standby
// server answers on the address.
func (c *Candidate) run(ctx context.Context) error {
	// The election's calls to etcd go through cli, whose own context
	// ends stopWait after ctx: when Close interrupts a campaign, etcd's
	// Campaign withdraws the candidate's key with the client's context,
	// and a candidate that cannot reach etcd must still stop.
	stopCtx, stop := lingering(ctx, stopWait)
	defer stop()
	cli := clientv3.NewCtxClient(stopCtx, clientv3.WithZapLogger(c.cfg.Client.GetLogger()))
	cli.KV, cli.Lease, cli.Watcher = c.cfg.Client.KV, c.cfg.Client.Lease, c.cfg.Client.Watcher
	var standby *http.Server
	defer func() {
		if standby != nil {
			standby.Close()
		}
	}()
	for ctx.Err() == nil {
		if standby == nil {
			var err error
			if standby, err = c.standby(); err != nil {
				return err
			}
		}
		err := c.term(ctx, cli, func() {
			standby.Close() // the daemon takes the address
			standby = nil
		})
		if err != nil && ctx.Err() == nil {
			c.logf("%v; standing by again", err)
			if standby == nil {
				if standby, err = c.standby(); err != nil {
					return err
				}
			}
			sleep(ctx, time.Second)
		}
	}
	return nil
}

// stopWait bounds what a candidate that stops still asks of etcd: to
// resign, or to withdraw from a campaign.
const stopWait = 2 * time.Second

// lingering returns a context that ends d after parent does, or when
// stop is called.
func lingering(parent context.Context, d time.Duration) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancel(context.WithoutCancel(parent))
	unhook := context.AfterFunc(parent, func() { time.AfterFunc(d, cancel) })
	return ctx, func() {
		unhook()
		cancel()
	}
}

// term is one campaign and, if won, one term as leader. cli is the
// etcd client of the election (run's).
func (c *Candidate) term(ctx context.Context, cli *clientv3.Client, elected func()) error {
	s, err := concurrency.NewSession(cli, concurrency.WithTTL(ttlSeconds(c.cfg.TTL)), concurrency.WithContext(ctx))
	if err != nil {
		return fmt.Errorf("etcd session: %w", err)
	}
	defer s.Close()
	e := concurrency.NewElection(s, c.cfg.Prefix+"election")
	if err := e.Campaign(ctx, c.cfg.Advertise); err != nil {
		if ctx.Err() != nil {
			return nil
		}
		return fmt.Errorf("campaign: %w", err)
	}
	won := time.Now()
	c.logf("elected master of cluster %s (etcd key %s, revision %d)", c.name, e.Key(), e.Rev())
	elected()
	cfg := c.cfg.Daemon
	store := &etcdStore{cli: c.cfg.Client, prefix: c.cfg.Prefix + "events/",
		fence: etcdlog.LeaderFence(e.Key(), e.Rev()), fenced: make(chan struct{})}
	cfg.Store = store
	var d *daemon.Daemon
	// The address may take a moment to be free of the standby's server.
	for i := 0; ; i++ {
		d, err = daemon.Start(ctx, cfg)
		if err == nil || i == 20 || !errors.Is(err, syscall.EADDRINUSE) {
			break
		}
		sleep(ctx, 50*time.Millisecond)
	}
	if err != nil {
		resign(e)
		return fmt.Errorf("starting the master: %w", err)
	}
	c.mu.Lock()
	c.d, c.leading = d, true
	c.mu.Unlock()
	c.logf("master of cluster %s serving at %s, %s after its election", c.name, c.cfg.Advertise, time.Since(won).Round(time.Millisecond))
	if c.cfg.Started != nil {
		c.cfg.Started(d)
	}
	defer func() {
		c.mu.Lock()
		c.d, c.leading = nil, false
		c.mu.Unlock()
	}()
	select {
	case <-ctx.Done():
	case <-s.Done():
	case <-d.Done():
	case <-store.fenced:
	}
	switch {
	case ctx.Err() != nil:
		// Close: hand the leadership over at once.
		err := d.Close()
		resign(e)
		return err
	case isDone(s.Done()):
		// The lease ran out: another candidate may lead already, and
		// every write of this one is refused.
		d.Close()
		return errors.New("the etcd lease ran out: no longer the master")
	case isDone(store.fenced):
		// The election key is gone though the lease lives (deleted, or
		// the lease revoked): the log refused a write, and the daemon's
		// memory is ahead of it.
		d.Close()
		resign(e)
		return errors.New("the event log in etcd refused a write: another master leads; no longer the master")
	default:
		err := d.Err()
		resign(e)
		return fmt.Errorf("the master stopped: %v", err)
	}
}

func isDone(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// resign gives the leadership up at once, so that another candidate need
// not wait for the lease.
func resign(e *concurrency.Election) {
	ctx, cancel := context.WithTimeout(context.Background(), stopWait)
	defer cancel()
	e.Resign(ctx)
}

// standby answers every request on the daemon's address, while this
// candidate does not lead, with 503 and the leader's address.
func (c *Candidate) standby() (*http.Server, error) {
	ln, err := listenRetry(c.cfg.Daemon.Listen)
	if err != nil {
		return nil, fmt.Errorf("listen %s: %w", c.cfg.Daemon.Listen, err)
	}
	if c.cfg.Daemon.TLS != nil {
		// The clients of a candidate speak TLS to it, leading or not.
		ln = tls.NewListener(ln, c.cfg.Daemon.TLS.Clone())
	}
	srv := &http.Server{ReadHeaderTimeout: 10 * time.Second, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		leader, err := c.Leader(r.Context())
		if leader == c.cfg.Advertise {
			leader = "" // this candidate's old term: it no longer leads
		}
		msg := "this master candidate does not lead, and no master leads yet: try again shortly"
		switch {
		case err != nil:
			msg = "this master candidate does not lead, and cannot reach etcd to learn which does: " + err.Error()
		case leader != "":
			msg = "this master candidate does not lead: the master is at " + leader
		}
		w.Header().Set(api.HeaderLeader, leader)
		w.Header().Set("Connection", "close") // no body is waited for
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusServiceUnavailable)
		json.NewEncoder(w).Encode(api.Error{Error: msg})
	})}
	// Bounded as the daemon's listeners are.
	srv.ReadTimeout, srv.WriteTimeout, srv.IdleTimeout = 30*time.Second, 30*time.Second, 2*time.Minute
	go srv.Serve(ln)
	return srv, nil
}

// listenRetry listens on addr, waiting a little while the address is
// released by a server just closed.
func listenRetry(addr string) (net.Listener, error) {
	var err error
	for range 40 {
		var ln net.Listener
		if ln, err = net.Listen("tcp", addr); err == nil {
			return ln, nil
		}
		if !errors.Is(err, syscall.EADDRINUSE) {
			return nil, err
		}
		time.Sleep(50 * time.Millisecond)
	}
	return nil, err
}

// etcdStore is the daemon's Store of a candidate: the event log in etcd,
// fenced by the candidate's election key.
type etcdStore struct {
	cli    *clientv3.Client
	prefix string
	fence  []clientv3.Cmp
	// fenced is closed once the fence refused a write: the candidate
	// then stops its daemon at once, whose memory holds what the log
	// refused.
	fenced chan struct{}
	once   sync.Once
}

// refused notes an error of the log.
func (s *etcdStore) refused(err error) {
	if errors.Is(err, etcdlog.ErrFenced) {
		s.once.Do(func() { close(s.fenced) })
	}
}

type etcdJournal struct {
	*etcdlog.Log
	store *etcdStore
}

func (j etcdJournal) Append(records [][]byte) (daemon.Committed, error) {
	c, err := j.Log.Append(records)
	if err != nil {
		j.store.refused(err)
		return nil, err
	}
	return etcdCommit{c, j.store}, nil
}

func (j etcdJournal) Compact(snapshot [][]byte) error {
	err := j.Log.Compact(snapshot)
	j.store.refused(err)
	return err
}

type etcdCommit struct {
	etcdlog.Commit
	store *etcdStore
}

func (c etcdCommit) Wait() error {
	err := c.Commit.Wait()
	c.store.refused(err)
	return err
}

func (s *etcdStore) String() string {
	return fmt.Sprintf("etcd %s, fenced by the master's election key", s.prefix)
}

func (s *etcdStore) Open(replay func(uint64, [][]byte) error) (daemon.Journal, string, error) {
	l, rec, err := etcdlog.Open(context.Background(), s.cli, etcdlog.Options{Prefix: s.prefix, Fence: s.fence, Replay: replay})
	if err != nil {
		return nil, "", err
	}
	note := ""
	if rec.Dropped != 0 {
		note = fmt.Sprintf("an incomplete transaction (%d) at the end of the event log in etcd was removed", rec.Dropped)
	}
	return etcdJournal{l, s}, note, nil
}
