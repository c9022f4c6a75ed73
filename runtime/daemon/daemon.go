// Package daemon is lsfc serve: the batch daemon that owns a state
// directory, keeps the cluster's state in a durable event log, runs
// scheduling cycles as things happen, starts jobs as real processes
// through the local executor, and answers LSF's commands over an API.
//
// Every change of state is a record of the event log (see Record), and
// no client is told of a change before its transaction is on disk (group
// commit: the changes of many clients share one fdatasync). A job starts
// only once its start is on disk, so a daemon that dies never loses track
// of a process it started. At start, the log is replayed on a cluster
// built from the configuration, and the jobs that were started are
// recovered from the executor: those that finished while the daemon was
// down end with their real exit status, those still running are watched
// again, and those lost run again when they are rerunnable, else exit.
// A job's files outlive its finish until a compaction seals it, so that
// a finish cut off with a damaged tail of the log is found again rather
// than the job run twice (jobfiles.go). A full disk stops nothing: new
// work is refused until space is back (diskspace.go).
//
// One goroutine owns the cluster: API requests, job exits and timers are
// its inputs, so the cluster is never shared. Reads answer from memory.
package daemon

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
	"github.com/lsfc/lsfc/runtime"
	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/localexec"
	"k8s.io/utils/clock"
)

// Config configures a daemon.
type Config struct {
	// Policy is the compiled configuration.
	Policy *compile.Policy
	// StateDir holds the lock, the event log and the jobs' files, all
	// private to the daemon's user (the directory is made 0700). The
	// socket is in its sibling run directory (api.RunDir).
	StateDir string
	// New lets the daemon start an empty cluster where the state
	// directory shows a daemon ran before (a lock, job files, a kept
	// log) but its event log is missing or empty. Without it that is an
	// error; a state directory that is new or empty needs no New.
	New bool
	// Listen, when set, is a TCP address to listen on as well; Secret is
	// the shared secret its clients must present.
	Listen string
	Secret string
	// TLS, when set, makes the TCP listener speak TLS with it. A client
	// certificate verified by its ClientCAs names the user, or the
	// cluster of a MultiCluster peer; a client without one shows Secret.
	// With ClientCAs, Secret may be "".
	TLS *tls.Config
	// PeerTLS, when set, is how the MultiCluster link speaks TLS to the
	// peers' listeners, its certificate naming this cluster.
	PeerTLS *tls.Config
	// Conn bounds the connections of both listeners: their timeouts and
	// how many one peer may hold (zero fields: the defaults).
	Conn ConnLimits
	// MinInterval is the least time between two scheduling cycles (0:
	// JOB_SCHEDULING_INTERVAL's minimum when lsb.params sets it, else
	// 100 ms).
	MinInterval time.Duration
	// CompactEvery is the number of transactions after which the log is
	// compacted (0: 20,000).
	CompactEvery int
	// Logf receives the daemon's messages (nil: standard error).
	Logf func(format string, args ...any)
	// Version is reported by the status call.
	Version string
	// WrapperPath overrides how the executor starts its job wrapper
	// (tests); nil runs this program with the wrapper argument.
	WrapperPath []string
	// Load compiles the configuration again, as lsfc check does, for
	// badmin reconfig and the watch: the Policy (nil when it has
	// errors), every diagnostic, and the directories of its files.
	Load func() (*compile.Policy, lang.Diagnostics, []string, error)
	// Watch reloads the configuration whenever a file in Dirs (the
	// directories of its files) changes.
	Watch bool
	Dirs  []string
	// MCInterval is the time between two rounds of MultiCluster
	// forwarding with the peers (0: MBD_SLEEP_TIME); see multicluster.go.
	MCInterval time.Duration
	// PeerClient returns the client the MultiCluster link calls a peer's
	// daemon at addr with, as cluster self (tests); nil dials addr over
	// TCP with Secret.
	PeerClient func(addr, self string) *api.Client
	// Host is the configuration's name of this machine, where the jobs
	// run: the host whose load indices are this machine's (empty: the
	// machine's host name).
	Host string
	// HostLost is how long a host whose execution agent is silent stays
	// unavail or unreach, its jobs UNKWN, before it is lost: its
	// rerunnable jobs rerun elsewhere and the others exit (0: 10 minutes).
	HostLost time.Duration
	// Store keeps the event log elsewhere than the state directory's
	// lsb.events (lsfc serve --etcd); with one, every host's jobs run
	// through its execution agent.
	Store Store
	// Clock is the daemon's time: its cycles, housekeeping and run
	// limits, CLEAN_PERIOD, its agents' silences, the MultiCluster
	// rounds, and the times of its records (nil: the real clock). Tests
	// give a testing clock and step it. The response times badmin
	// perfmon shows are measured on the real clock all the same.
	Clock clock.WithTicker

	// noAcct leaves lsb.acct unwritten, for the benchmark that measures
	// what writing it costs (export_test.go).
	noAcct bool
	// wrapLog, when set, wraps the journal the daemon opens, for tests
	// that watch what is appended.
	wrapLog func(Journal) Journal
}

// A Daemon is a running lsfc serve.
type Daemon struct {
	cfg    Config
	limits ConnLimits // cfg.Conn with its defaults
	perf   *perf
	// reqc compiles the requirements of submissions for the current
	// cluster; request handlers read it, the owner replaces it with
	// the cluster.
	reqc atomic.Pointer[runtime.ReqCompiler]

	// mcDown holds, for each peer cluster that does not answer, the
	// error last logged; only the MultiCluster goroutine uses it.
	mcDown  map[string]string
	cluster *runtime.Cluster
	engine  *runtime.Engine
	clk     clock.WithTicker
	clock   engineClock
	store   Store
	log     Journal
	enc     recordEncoder // the owning goroutine's, for its transactions
	// plentyUntil is when cannotRecord looks at the file system again,
	// in Unix nanoseconds, after it last found plenty of space.
	plentyUntil atomic.Int64
	acct        *acctWriter
	exec        *localexec.Executor
	agents      *agents
	lock        *Lock
	load        *localexec.Sampler
	host        string // this machine's name
	sender      string // the daemon's user, who job reports come from (reportSender)
	started     time.Time
	recovery    string

	calls chan *call
	exits chan localexec.Result
	// cycled is closed once the next scheduling cycle's starts are
	// durable and handed on (its agents' orders queued); the owner
	// replaces it as each cycle begins.
	cycled chan struct{}
	quit   chan struct{}
	done   chan struct{}
	once   sync.Once
	err    error

	servers []serverCloser
	// Reconfiguration: reloadMu serialises reloads; generation numbers
	// the configurations adopted (1 at start); lastReload is the last
	// outcome. The watch goroutine takes its directories from watchDirs
	// (rewatch says they changed) and closes watchDone when it stops.
	reloadMu   sync.Mutex
	generation uint64
	lastReload *api.Reload
	watchMu    sync.Mutex
	watchDirs  []string
	confFiles  map[string]bool // the files the configuration was read from, absolute
	rewatch    chan struct{}
	watchDone  chan struct{}
	cpus       int
	// used names what shows the state directory held a cluster before
	// this start ("" for a new directory).
	used string
	// noSpace is the refusal last logged for want of space ("" when the
	// daemon takes work); owned by the loop.
	noSpace string
	// killed holds the jobs a kill reached; killedMu guards it, as kills
	// are sent after their records are durable, off the owning goroutine.
	killedMu sync.Mutex
	killed   map[int64]bool
	// settled holds the local jobs whose finish is durable but may still
	// be lost with the log's tail: their status files stay until a
	// compaction seals the finish (see settle); settledMu guards it, as
	// finishes become durable off the owning goroutine.
	settledMu sync.Mutex
	settled   []int64
	// sealing holds the settled jobs whose finish the compaction under
	// way seals (guarded by settledMu).
	sealing []int64
	// dropped maps a job whose files a requeue dropped to its Epoch
	// then: the settle of the run before, which may come after, leaves
	// the files of the next run alone (guarded by settledMu).
	dropped map[int64]int
	// lastDeferred is the last transaction appended deferred (a
	// finish), until it is seen durable (see finishesDurable).
	lastDeferred Committed
	// compacting is set while a compaction writes its snapshot off the
	// owning goroutine; compactDone brings its outcome back, and
	// compactWG lets Close wait for it before closing the log.
	compacting   bool
	compactDone  chan error
	compactWG    sync.WaitGroup
	addr         string // the TCP listener's address
	sinceCompact int
	loadAt       time.Time // when this machine's load was last read
	// localGPUs are this machine's GPUs, read with its first load; nil
	// before.
	localGPUs []runtime.GPUDevice
	// localGPUUsed is the memory in use on those GPUs as last measured,
	// by a measure that runs beside the loop (nvidia-smi may be slow);
	// measuring is set while one runs.
	localGPUUsed atomic.Pointer[map[int]float64]
	measuring    atomic.Bool

	cpuAt     time.Time // when the CPU time of jobs in JOB_IDLE queues was last read
	lastCycle time.Time
	dirty     bool
	wake      runtime.Time
	// notices are the exception records of job ends (underruns), which
	// the next transaction carries after the records it is given.
	notices []Record
	// tokens maps the token of a submission to its job, tokenOf back;
	// owned by the loop.
	tokens  map[string]int64
	tokenOf map[int64]string
	// ranIn holds, for finished jobs that ran elsewhere than in the
	// directory they asked for, the directory they ran in; owned by the
	// loop.
	ranIn map[int64]string
	// runsIn holds the directories the jobs the agents run run in, as
	// the agents last reported them; owned by the loop.
	runsIn map[int64]string
	// placed holds, for the runs of started jobs, whether the local
	// executor or an agent runs each (see runsLocally); owned by the
	// loop.
	placed map[int64]placement
	// keptMost holds the most entries tokenOf, ranIn and placed held
	// since each was last built (see pruned).
	keptMost struct{ tokens, ranIn, placed int }
	// hostPre holds the jobs whose start waits for the host-based
	// pre-execution commands on the hosts of other agents (hostexec.go);
	// hostPostFailed the finished jobs whose host-based post-execution
	// commands failed on such a host while their own still run.
	hostPre        map[int64]*hostWait
	hostPostFailed map[int64]bool
	// MultiCluster forwarding: what each peer last reported, and the
	// jobs whose last delivery may have reached its peer without an
	// answer (both owned by the loop); the end of the link.
	mcPeers     map[string]*mcPeerState
	mcUncertain map[int64]bool
	mcDone      chan struct{}
	mcCancel    context.CancelFunc
	// stopAfter undoes the stop registered on Start's context.
	stopAfter func() bool
}

type serverCloser interface{ Close() error }

// A call is one request for the owning goroutine: fn runs there; its
// records are committed before reply gets the result, and after then
// runs (outside the goroutine) to act on what was decided.
type call struct {
	fn    func() (v any, recs []Record, after func(), err error)
	reply chan callResult
	// queued is when the call was queued for the owner.
	queued time.Time
	// state settles, between the caller that may stop waiting and the
	// owner that may hand it the call's after to run, which of them
	// runs it (see run and do).
	state atomic.Int32
}

// The states of a call whose records wait to be durable.
const (
	callWaiting  = iota // the caller waits
	callAnswered        // the owner handed the caller the outcome to settle
	callLeft            // the caller stopped waiting before that
)

type callResult struct {
	v   any
	err error
	// durable, when not nil, is closed once the call's records are
	// durable (or failed for good): the caller then takes the outcome
	// from commit and runs after (see settle), with no goroutine of the
	// owner's waiting for it.
	durable <-chan struct{}
	commit  Committed
	after   func()
}

// settle waits for a call's records to be durable and then runs its
// after, and returns the call's outcome.
func (r callResult) settle() (any, error) {
	if r.commit == nil {
		return r.v, r.err
	}
	if err := r.commit.Wait(); err != nil {
		return nil, fmt.Errorf("event log: %w", err)
	}
	if r.after != nil {
		r.after()
	}
	return r.v, nil
}

// doneCommit is a commit that tells, by a channel, when it is durable.
type doneCommit interface {
	Committed
	Done() <-chan struct{}
}

// errShutdown answers calls made while the daemon stops.
var errShutdown = errors.New("the daemon is shutting down")

// Start opens the state directory (taking its lock), replays the event
// log, recovers the jobs, and starts serving. It returns once the daemon
// answers on its socket. The daemon runs until ctx ends or Close is
// called, whichever comes first; either way it stops as Close says, and
// Done is closed once it has.
func Start(ctx context.Context, cfg Config) (*Daemon, error) {
	if cfg.Logf == nil {
		cfg.Logf = func(format string, args ...any) { fmt.Fprintf(os.Stderr, "lsfc serve: "+format+"\n", args...) }
	}
	if cfg.CompactEvery <= 0 {
		cfg.CompactEvery = 20000
	}
	used := usedBy(cfg.StateDir)
	lock, err := LockDir(cfg.StateDir)
	if err != nil {
		return nil, err
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.RealClock{}
	}
	d := &Daemon{cfg: cfg, limits: cfg.Conn.withDefaults(), lock: lock, calls: make(chan *call, 1024), cycled: make(chan struct{}), compactDone: make(chan error, 1), exits: make(chan localexec.Result, 1024),
		clk: cfg.Clock, clock: engineClock{cfg.Clock},
		quit: make(chan struct{}), done: make(chan struct{}), started: cfg.Clock.Now(), killed: map[int64]bool{},
		perf: newPerf(time.Now()), generation: 1, tokens: map[string]int64{}, tokenOf: map[int64]string{}, ranIn: map[int64]string{}, runsIn: map[int64]string{}, placed: map[int64]placement{}, hostPre: map[int64]*hostWait{}, hostPostFailed: map[int64]bool{}, mcPeers: map[string]*mcPeerState{},
		mcDone: make(chan struct{}), watchDirs: slices.Clone(cfg.Dirs), rewatch: make(chan struct{}, 1), watchDone: make(chan struct{})}
	fail := func(err error) (*Daemon, error) {
		d.closeResources()
		return nil, err
	}
	d.used = used
	d.store = cfg.Store
	if d.store == nil {
		d.store = newFileStore(cfg.StateDir, used != "" && !cfg.New)
	}
	d.host = cfg.Host
	d.sender = daemonUser()
	if d.host == "" {
		d.host, _ = os.Hostname()
	}
	// Jobs run on this machine: a host whose MXJ is "!" and whose CPUs
	// the configuration does not give has this machine's, counted as
	// EGO_DEFINE_NCPUS (or the host's define_ncpus_* resource) says.
	facts := localexec.NewSampler().Facts()
	d.cpus = int(cfg.Policy.HostNcpus(d.host, facts.Ncpus, facts.Nprocs, facts.Ncores, facts.Nthreads))
	// Hosts the log's jobs ran on that the configuration no longer has
	// (a reconfiguration removed them while jobs ran there) are kept,
	// retired, so that those jobs are found again.
	retired, err := d.goneHosts()
	if err != nil {
		return fail(err)
	}
	if d.cluster, err = runtime.NewCluster(cfg.Policy, runtime.ClusterOptions{SlotsPerHost: d.cpus, Retired: retired}); err != nil {
		return fail(err)
	}
	d.reqc.Store(d.cluster.ReqCompiler())
	if cfg.MinInterval <= 0 {
		cfg.MinInterval = 100 * time.Millisecond
		if cfg.Policy.Parameters.JobSchedulingInterval.Set {
			cfg.MinInterval = time.Duration(d.cluster.SessionInterval * float64(time.Second))
		}
		d.cfg.MinInterval = cfg.MinInterval
	}
	d.engine = runtime.NewEngine(d.cluster, d.clock, nil)
	if err := d.openLog(); err != nil {
		return fail(err)
	}
	if err := d.openAcct(); err != nil {
		return fail(err)
	}
	exec, err := localexec.New(filepath.Join(cfg.StateDir, "jobs"), func(r localexec.Result) { d.exits <- r })
	if err != nil {
		return fail(err)
	}
	if cfg.WrapperPath != nil {
		exec.WrapperPath = cfg.WrapperPath
	}
	exec.Logf = cfg.Logf
	d.exec = exec
	if err := d.checkSpool(); err != nil {
		return fail(err)
	}
	d.load = localexec.NewSampler()
	var hosts []string
	for _, h := range d.cluster.Hosts {
		hosts = append(hosts, h.Name)
	}
	if d.agents, err = openAgents(cfg.StateDir, strconv.FormatInt(d.started.UnixNano(), 36), cfg.Store != nil, hosts); err != nil {
		return fail(err)
	}
	if err := d.moveLost(); err != nil {
		return fail(err)
	}
	if err := d.recoverJobs(); err != nil {
		return fail(err)
	}
	for _, act := range d.recoverNotifications() {
		act()
	}
	// The log replays jobs finished long ago: those past CLEAN_PERIOD
	// are forgotten before the first request.
	d.clean(d.now())
	if d.idleRetired() {
		// Retired hosts whose jobs ended while no daemon ran: gone now.
		n, _, err := d.cluster.Reconfigure(cfg.Policy, runtime.ClusterOptions{SlotsPerHost: d.cpus})
		if err != nil {
			return fail(err)
		}
		if err := d.commit(lostRecords(d.cluster, n, d.now())); err != nil {
			return fail(err)
		}
		d.cluster, d.engine = n, runtime.NewEngine(n, d.clock, nil)
		d.reqc.Store(n.ReqCompiler())
	}
	if err := d.listen(); err != nil {
		return fail(err)
	}
	if cfg.Watch {
		if err := d.startWatch(); err != nil {
			return fail(err)
		}
	} else {
		close(d.watchDone)
	}
	go d.loop()
	mcCtx, cancel := context.WithCancel(ctx)
	d.mcCancel = cancel
	go d.mcLoop(mcCtx)
	d.stopAfter = context.AfterFunc(ctx, d.stop)
	d.noteNotActedOn(cfg.Policy)
	return d, nil
}

// noteNotActedOn logs, one line per file, the keys the policy's files set
// that lsfc reads and checks but does not act on, so that an
// administrator is not left thinking they take effect.
func (d *Daemon) noteNotActedOn(p *compile.Policy) {
	if p == nil {
		return
	}
	for _, line := range p.NotActedOn() {
		d.cfg.Logf("%s", line)
	}
}

// openLog opens the event log and replays it on the cluster.
func (d *Daemon) openLog() error {
	var warnings []string
	replayed := 0
	replay := func(seq uint64, payloads [][]byte) error {
		replayed++
		for _, p := range payloads {
			r, err := decode(p)
			if err != nil {
				return fmt.Errorf("transaction %d: %w", seq, err)
			}
			w, err := apply(d.cluster, r)
			if err != nil {
				return fmt.Errorf("transaction %d: %w", seq, err)
			}
			if r.Token != "" {
				if a := d.arrayOfRecord(r); a != nil {
					// An array's submission is known by its first element.
					d.noteToken(r.Token, a.Elements[0].ID)
				} else if r.Job != 0 {
					d.noteToken(r.Token, r.Job)
				} else if r.Image != nil {
					d.noteToken(r.Token, r.Image.ID)
				}
			}
			d.noteRanIn(r)
			if w != "" {
				warnings = append(warnings, w)
			}
		}
		d.sinceCompact++
		return nil
	}
	log, note, err := d.store.Open(replay)
	if err != nil {
		return err
	}
	if d.cfg.wrapLog != nil {
		log = d.cfg.wrapLog(log)
	}
	d.log = log
	d.noteRecovery(note)
	for _, w := range warnings {
		d.cfg.Logf("replay: %s", w)
	}
	if replayed == 0 {
		if d.cfg.Store != nil && d.used != "" && !d.cfg.New {
			// The file store refuses a missing log itself (Options.Existing).
			log.Close()
			d.log = nil
			return fmt.Errorf("state directory %s has held a cluster (it has %s) but the event log %s is empty: restore the log, or start a new empty cluster with lsfc serve --new",
				d.cfg.StateDir, d.used, d.store)
		}
		// A new log starts with the format of its records.
		return d.commit([]Record{formatRecord()})
	}
	return nil
}

// goneHosts reads the event log a first time, before its replay, for the
// hosts its jobs started on that the configuration does not have. (This
// first read is the one that cuts a torn tail, if there is one.)
func (d *Daemon) goneHosts() ([]*compile.Host, error) {
	gone := map[string]bool{}
	note := func(allocs []runtime.AllocImage) {
		for _, a := range allocs {
			if d.cfg.Policy.Host(a.Host) == nil {
				gone[a.Host] = true
			}
		}
	}
	scan := func(_ uint64, payloads [][]byte) error {
		for _, p := range payloads {
			r, err := decode(p)
			if err != nil {
				continue // the replay that follows reports it
			}
			note(r.Allocs)
			if r.Image != nil {
				note(r.Image.Allocs)
			}
		}
		return nil
	}
	l, repaired, err := d.store.Open(scan)
	if err != nil {
		return nil, err
	}
	// This first open is the one that finds and cuts a torn tail: it
	// reports it.
	d.noteRecovery(repaired)
	if err := l.Close(); err != nil {
		return nil, err
	}
	var out []*compile.Host
	for _, name := range slices.Sorted(maps.Keys(gone)) {
		out = append(out, &compile.Host{Name: name, Server: true, Status: "ok", Slots: -1, MaxSlots: -1,
			Booleans: []string{}, Exclusive: []string{}, Numbers: map[string]float64{}, Strings: map[string]string{},
			Load: map[string]float64{}, Reserved: map[string]float64{}})
	}
	return out, nil
}

// noteRecovery keeps and logs what opening the log repaired.
func (d *Daemon) noteRecovery(note string) {
	if note != "" {
		d.recovery = note
		d.cfg.Logf("%s", d.recovery)
	}
}

// idleRetired reports whether a retired host runs no job any more.
func (d *Daemon) idleRetired() bool {
	for _, h := range d.cluster.Hosts {
		if h.Retired && len(h.Jobs()) == 0 {
			return true
		}
	}
	return false
}

// moveLost moves to lost_and_found, and logs the move of, the pending
// jobs the log left in queues this configuration does not have (a
// daemon started on a configuration without some of its queues).
func (d *Daemon) moveLost() error {
	from := map[int64]string{}
	for _, j := range d.cluster.Jobs() {
		from[j.ID] = j.Queue.Name
	}
	var recs []Record
	now := d.now()
	for _, j := range d.cluster.MoveLost() {
		d.cfg.Logf("replay: job %d: queue %s is gone: job moved to %s", j.ID, from[j.ID], runtime.LostAndFound)
		recs = append(recs, Record{Type: KindLost, At: now, Job: j.ID})
	}
	return d.commit(recs)
}

// commit appends records to the log and waits until they are durable
// (at start, before the loop runs); no records, nothing.
func (d *Daemon) commit(recs []Record) error {
	if len(recs) == 0 {
		return nil
	}
	c, err := d.append(recs)
	if err != nil {
		return err
	}
	return c.Wait()
}

// recoverJobs asks the executor about every job the log says started:
// those that ended while the daemon was down finish with their real
// status, those still running are watched again, and those lost rerun or
// exit.
func (d *Daemon) recoverJobs() error {
	var ids []int64
	for _, j := range d.cluster.Jobs() {
		// A finished job may still run its post-execution commands.
		running := j.State.Started() || j.State.Finished() && j.PostExec == runtime.PostRunning
		if running && j.Remote == nil && d.runsLocally(j) {
			ids = append(ids, j.ID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	var recs []Record
	var ended []int64
	now := d.now()
	for _, r := range d.exec.Recover(ids) {
		// A job that ended while the daemon was down ends when its
		// status file says, not at the restart: its finish is the one
		// the daemon would have written (and a client may have seen).
		rec, ok := d.ended(r, d.endOf(r, now))
		if ok {
			recs = append(recs, rec)
		}
		switch {
		case r.PostReport:
			if j := d.cluster.Job(r.JobID); j == nil || j.State.Finished() {
				ended = append(ended, r.JobID)
			}
		case ok && rec.Type == KindFinish && !r.PostPending:
			ended = append(ended, rec.Job)
		}
	}
	// A kill acknowledged before the daemon stopped may not have reached
	// the job: housekeeping sends it again.
	if err := d.commit(recs); err != nil {
		return err
	}
	for _, id := range ended {
		d.settle(id)
	}
	return nil
}

// noteRanIn remembers, from a record replayed, the directory a finished
// job ran in when it was not the one asked for; a job requeued forgets it.
func (d *Daemon) noteRanIn(r Record) {
	switch {
	case r.Type == KindRequeue || r.Type == KindBrequeue || r.Type == KindExitRequeue:
		delete(d.ranIn, r.Job)
	case r.Cwd == "":
	case r.Job != 0:
		d.ranIn[r.Job] = r.Cwd
	case r.Image != nil:
		d.ranIn[r.Image.ID] = r.Cwd
	}
}

// arrayOfRecord returns the array an array record made, or nil.
func (d *Daemon) arrayOfRecord(r Record) *runtime.Array {
	if r.Type != KindArray || r.Image == nil {
		return nil
	}
	if a := d.cluster.Array(r.Image.ID); a != nil && len(a.Elements) > 0 {
		return a
	}
	return nil
}

// noteToken remembers the token of a job's submission and returns it.
func (d *Daemon) noteToken(token string, id int64) string {
	if token != "" {
		d.tokens[token], d.tokenOf[id] = id, token
	}
	return token
}

// now returns the time on the daemon's clock.
func (d *Daemon) now() runtime.Time { return d.clock.Now() }

// engineClock is the daemon's clock as the engine reads it (nil: the
// real clock).
type engineClock struct{ c clock.PassiveClock }

// Now returns the clock's time.
func (e engineClock) Now() runtime.Time {
	if e.c == nil {
		return runtime.RealClock{}.Now()
	}
	return runtime.Time(float64(e.c.Now().UnixNano()) / 1e9)
}

// resetTimer makes t fire after dt, dropping a tick it gave that nobody
// took (a testing clock's timer keeps it, and would block on the next).
func resetTimer(t clock.Timer, dt time.Duration) {
	if !t.Stop() {
		select {
		case <-t.C():
		default:
		}
	}
	t.Reset(dt)
}

// append writes records, and the pending notices after them, as one
// transaction of the log.
func (d *Daemon) append(recs []Record) (Committed, error) {
	return d.appendAs(recs, false)
}

// finishDelay is how long the finish of a job's processes may wait for a
// sync that another transaction calls for (see commitFinishThen).
const finishDelay = 20 * time.Millisecond

// appendAs is append; a deferred transaction calls for no sync of its
// own, and waits at most finishDelay for one (see commitFinishThen).
func (d *Daemon) appendAs(recs []Record, deferred bool) (Committed, error) {
	if len(d.notices) > 0 {
		recs = append(slices.Clip(recs), d.notices...)
		d.notices = nil
	}
	payloads, err := d.enc.encode(recs)
	if err != nil {
		return nil, err
	}
	d.sinceCompact++
	var c Committed
	if dj, ok := d.log.(deferJournal); ok && deferred {
		c, err = dj.AppendDeferred(payloads, finishDelay)
		if err == nil {
			d.lastDeferred = c
		}
	} else {
		c, err = d.log.Append(payloads)
	}
	if err == nil {
		d.noteFinishes(c, recs)
	}
	return c, err
}

// Close stops the daemon, as the end of Start's context does, and waits
// until it has stopped: it stops answering, ends its goroutines and
// releases the state directory. Jobs keep running; the next daemon
// recovers them. Close after the context ended only waits, and returns
// the same error.
func (d *Daemon) Close() error {
	if d.stopAfter != nil {
		d.stopAfter()
	}
	d.stop()
	<-d.done
	<-d.watchDone
	if d.mcCancel != nil {
		<-d.mcDone
	}
	return d.err
}

// stop tells the daemon's goroutines to end (once).
func (d *Daemon) stop() {
	d.once.Do(func() {
		close(d.quit)
		if d.mcCancel != nil {
			d.mcCancel()
		}
	})
}

// Done is closed when the daemon has stopped (Close, the end of Start's
// context, or a failure of its log); Err then tells why.
func (d *Daemon) Done() <-chan struct{} { return d.done }

// Err returns why the daemon stopped, nil after Close or the end of
// Start's context.
func (d *Daemon) Err() error {
	select {
	case <-d.done:
		return d.err
	default:
		return nil
	}
}

// closeResources closes what Start opened.
func (d *Daemon) closeResources() {
	for _, s := range d.servers {
		s.Close()
	}
	if d.exec != nil {
		d.exec.Close()
	}
	if d.acct != nil {
		// Before the event log: the records wait for its transactions.
		if err := d.acct.close(); err != nil && d.err == nil {
			d.err = fmt.Errorf("lsb.acct: %w", err)
		}
	}
	// A compaction under way finishes first: its file takes the log's
	// place, or is dropped.
	d.compactWG.Wait()
	if d.log != nil {
		if err := d.log.Close(); err != nil && d.err == nil {
			d.err = err
		}
	}
	d.lock.Release()
}

// loop is the goroutine that owns the cluster.
func (d *Daemon) loop() {
	defer close(d.done)
	defer d.closeResources()
	tick := d.clk.NewTicker(time.Second)
	defer tick.Stop()
	// The first cycle runs at once; then the timer brings the next.
	d.dirty = true
	timer := d.clk.NewTimer(d.maybeSchedule())
	defer timer.Stop()
	for {
		select {
		case <-d.quit:
			d.drain()
			return
		case c := <-d.calls:
			d.run(c)
		case r := <-d.exits:
			d.exited(r)
		case <-d.agents.ready:
			d.applyLoads()
		case <-tick.C():
			d.housekeep()
		case err := <-d.compactDone:
			d.compacted(err)
		case <-timer.C():
		}
		if d.err != nil {
			d.cfg.Logf("stopping: %v", d.err)
			d.drain()
			return
		}
		// Take what else is waiting before a cycle, so that a burst of
		// submissions shares one cycle.
		for more := true; more; {
			select {
			case c := <-d.calls:
				d.run(c)
			case r := <-d.exits:
				d.exited(r)
			case <-d.agents.ready:
				d.applyLoads()
			default:
				more = false
			}
		}
		resetTimer(timer, d.maybeSchedule())
	}
}

// drain answers the calls still waiting with errShutdown.
func (d *Daemon) drain() {
	for {
		select {
		case c := <-d.calls:
			c.reply <- callResult{err: errShutdown}
		default:
			return
		}
	}
}

// do runs fn on the owning goroutine and waits for its result, durable.
// When ctx ends first, do stops waiting and returns ctx's error: a call
// not yet queued is not made, and one queued runs and commits all the
// same, its result unread.
func (d *Daemon) do(ctx context.Context, fn func() (any, []Record, func(), error)) (any, error) {
	c := &call{fn: fn, reply: make(chan callResult, 1), queued: time.Now()}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	select {
	case d.calls <- c:
	case <-d.done:
		return nil, errShutdown
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	select {
	case r := <-c.reply:
		return d.await(ctx, r)
	case <-ctx.Done():
		if !c.state.CompareAndSwap(callWaiting, callLeft) {
			// The outcome is on its way, and its after is this
			// caller's to run once the records are durable.
			r := <-c.reply
			go r.settle()
		}
		return nil, ctx.Err()
	case <-d.done:
		// The loop stopped; a call it took before has its answer, one
		// that reached the queue after its last drain never will.
		select {
		case r := <-c.reply:
			return d.await(ctx, r)
		default:
			return nil, errShutdown
		}
	}
}

// await returns a call's outcome once its records are durable. When ctx
// ends first it stops waiting, and the call's after still runs once they
// are.
func (d *Daemon) await(ctx context.Context, r callResult) (any, error) {
	if r.durable == nil {
		return r.settle()
	}
	select {
	case <-r.durable:
		return r.settle()
	case <-ctx.Done():
		go r.settle()
		return nil, ctx.Err()
	}
}

// run executes a call and commits its records; the reply waits for the
// commit, on another goroutine, so that the owner goes on.
func (d *Daemon) run(c *call) {
	if !c.queued.IsZero() {
		d.perf.note(kindOwnerWait, time.Since(c.queued))
	}
	v, recs, after, err := c.fn()
	if err != nil || len(recs) == 0 {
		if err == nil && after != nil {
			after()
		}
		c.reply <- callResult{v: v, err: err}
		return
	}
	d.dirty = true
	commit, aerr := d.append(recs)
	if aerr != nil {
		d.fail(aerr)
		c.reply <- callResult{err: errShutdown}
		return
	}
	if dc, ok := commit.(doneCommit); ok {
		// The caller waits for the records to be durable itself, and
		// runs after; one that stopped waiting has it run here.
		r := callResult{v: v, durable: dc.Done(), commit: commit, after: after}
		if c.state.CompareAndSwap(callWaiting, callAnswered) {
			c.reply <- r
		} else {
			go r.settle()
		}
		return
	}
	go func() {
		if err := commit.Wait(); err != nil {
			c.reply <- callResult{err: fmt.Errorf("event log: %w", err)}
			return
		}
		if after != nil {
			after()
		}
		c.reply <- callResult{v: v}
	}()
}

// fail stops the daemon after its log failed: memory is now ahead of the
// disk, and going on would acknowledge what a restart would forget.
func (d *Daemon) fail(err error) {
	if d.err == nil {
		d.err = fmt.Errorf("event log: %w", err)
	}
}

// commitThen commits records from the owning goroutine and runs after
// once they are durable.
func (d *Daemon) commitThen(recs []Record, after func()) {
	d.commitAs(recs, false, nil, after)
}

// commitFinishThen is commitThen for the finish of a job's processes,
// whose transaction calls for no sync of its own: it shares the next
// sync another transaction calls for (a start, a submission, another
// cycle's records), and waits for one no longer than finishDelay. Where
// jobs end by the hundred a second this saves a sync per job. Durability
// does not need one:
//
//   - nobody is told of the finish as of an acknowledged change: it comes
//     from the job's processes, not from a client's request, and what a
//     client reads of the job (DONE or EXIT, from memory) is what the
//     daemon recovers if it dies before the finish is on disk;
//   - if it dies then, the log replays the job as running; its status
//     and pid files are still there (after, which settles them, runs only
//     once the finish is durable), and the next daemon finishes it with
//     the real exit status its processes left (recoverJobs): the same
//     record, written again;
//   - whatever is recorded after the finish and depends on it (a start on
//     the slots it freed, a dependent job's start, a kill answered as
//     "already finished" that a client acts on) is in a later transaction
//     of the same log, and the log makes a transaction durable only with
//     all those before it: no acknowledged change can outlive a crash that
//     the finish it rests on did not;
//   - its lsb.acct record is written, as before, once it is durable.
func (d *Daemon) commitFinishThen(recs []Record, after func()) {
	d.commitAs(recs, true, nil, after)
}

// commitAs commits records, deferred or not, and runs after once they are
// durable. before, if not nil, runs meanwhile, off the owning goroutine:
// it must do nothing that a crash before the records are durable would
// leave for the next daemon to take for their effect (the jobs of a
// start made ready, not started: see localexec's Prepare).
func (d *Daemon) commitAs(recs []Record, deferred bool, before, after func()) {
	if len(recs) == 0 {
		if before != nil {
			before()
		}
		if after != nil {
			after()
		}
		return
	}
	commit, err := d.appendAs(recs, deferred)
	if err != nil {
		d.fail(err)
		return
	}
	go func() {
		if before != nil {
			before()
		}
		if err := commit.Wait(); err != nil {
			return // the writer's sticky error stops the daemon at the next append
		}
		if after != nil {
			after()
		}
	}()
}

// maybeSchedule runs a cycle when something changed and the least
// interval has passed, and returns how long to sleep.
func (d *Daemon) maybeSchedule() time.Duration {
	now := d.clk.Now()
	if !d.dirty && d.wake > d.now() {
		return min(d.wake.Std().Sub(now), time.Second)
	}
	if !d.dirty && d.wake == 0 {
		return time.Second
	}
	if since := now.Sub(d.lastCycle); since < d.cfg.MinInterval {
		return d.cfg.MinInterval - since
	}
	if err := d.cannotRecord(); err != nil {
		// No start could be recorded: the cycle waits for space.
		d.noteNoSpace(err)
		return time.Second
	}
	d.noteNoSpace(nil)
	d.schedule()
	d.lastCycle = now
	d.dirty = false
	if d.wake > 0 && d.wake < runtime.Never {
		return max(d.wake.Std().Sub(d.clk.Now()), d.cfg.MinInterval)
	}
	return time.Second
}

// schedule runs one cycle, logs what it decided, and acts once that is on
// disk: starts processes, stops and continues them.
func (d *Daemon) schedule() {
	cycled := d.cycled
	d.cycled = make(chan struct{})
	now := d.now()
	var recs []Record
	var acts []func()
	// preps make the local jobs about to start ready while their start
	// records become durable.
	var preps []localexec.Spec
	suspended, resumed, windowNext := d.engine.ApplyRunWindows()
	for _, j := range suspended {
		recs = append(recs, Record{Type: KindSuspend, At: now, Job: j.ID, Reason: j.Reason})
		acts = append(acts, d.signalAct(j.ID, syscall.SIGSTOP))
	}
	for _, j := range resumed {
		recs = append(recs, Record{Type: KindResume, At: now, Job: j.ID})
		acts = append(acts, d.signalAct(j.ID, syscall.SIGCONT))
	}
	d.engine.Forward = d.mcForwarder()
	p := d.engine.Schedule()
	for _, f := range p.Forwards {
		recs = append(recs, Record{Type: KindForward, At: now, Job: f.Job.ID, Cluster: f.Cluster, Queue: f.Queue})
	}
	for _, ev := range p.Exceptions {
		recs = append(recs, exceptionRecord(ev, now))
		d.cfg.Logf("exception: %s", ev)
	}
	for _, a := range p.SLAActions {
		d.cfg.Logf("sla control action: %s", a)
		runControlAction(a.Command, d.cfg.Logf)
	}
	for _, pr := range p.Preemptions {
		v := pr.Victim
		if pr.Revoke || pr.HoldSignal {
			recs = append(recs, Record{Type: KindResizePreempt, At: now, Job: v.ID})
		}
		if pr.Kill {
			recs = append(recs, Record{Type: KindFinish, At: now, Job: v.ID, State: "EXIT", Code: v.ExitCode, Term: v.Term})
			acts = append(acts, d.killAct(v.ID))
			continue
		}
		recs = append(recs, Record{Type: KindSuspend, At: now, Job: v.ID, Reason: runtime.ReasonPreempted})
		if !p.Unsignalled[v] {
			acts = append(acts, d.signalAct(v.ID, syscall.SIGSTOP))
		}
	}
	for _, j := range p.RsvKills {
		recs = append(recs, Record{Type: KindFinish, At: now, Job: j.ID, State: "EXIT", Code: j.ExitCode, Term: j.Term})
		acts = append(acts, d.killAct(j.ID))
	}
	for _, j := range p.Resumes {
		recs = append(recs, Record{Type: KindResume, At: now, Job: j.ID})
		if !p.Unsignalled[j] {
			acts = append(acts, d.signalAct(j.ID, syscall.SIGCONT))
		}
	}
	for _, s := range p.Suspends {
		recs = append(recs, Record{Type: KindSuspend, At: now, Job: s.Job.ID, Reason: s.Reason})
		acts = append(acts, d.signalAct(s.Job.ID, syscall.SIGSTOP))
	}
	for _, j := range p.LoadResumes {
		recs = append(recs, Record{Type: KindResume, At: now, Job: j.ID})
		acts = append(acts, d.signalAct(j.ID, syscall.SIGCONT))
	}
	for _, disp := range p.Dispatches {
		j := disp.Job
		// The start's time is the job's own, so that a replay gives the
		// job the same start (an agent knows the run by it).
		rec := Record{Type: KindStart, At: j.Start, Job: j.ID}
		for _, a := range disp.Allocs {
			rec.Allocs = append(rec.Allocs, runtime.AllocImage{Host: a.Host.Name, Slots: a.Slots, GPUs: a.GPUs})
		}
		recs = append(recs, rec)
		spec := d.spec(j)
		acts = append(acts, d.startAct(j, spec))
		if _, waits := d.hostPre[j.ID]; !waits && d.agentOf(j) == nil {
			preps = append(preps, spec)
		}
	}
	recs = append(recs, growRecords(p, now)...)
	acts = append(acts, d.growActs(p)...)
	d.wake = min(p.Wake, windowNext)
	if p.Wake == runtime.Never && windowNext == runtime.Never {
		d.wake = 0
	}
	var before func()
	if len(preps) > 0 {
		before = func() {
			for _, s := range preps {
				d.exec.Prepare(s)
			}
		}
	}
	d.commitAs(recs, false, before, func() {
		for _, act := range acts {
			act()
		}
		close(cycled)
	})
	if d.sinceCompact >= d.cfg.CompactEvery && d.cannotRecord() == nil {
		d.compact()
	}
}

// signalAct returns an action that signals a job's processes.
func (d *Daemon) signalAct(id int64, sig syscall.Signal) func() {
	if act := d.agentSignalAct(id, sig); act != nil {
		return act
	}
	return func() {
		if err := d.exec.Signal(id, sig); err != nil {
			d.cfg.Logf("job %d: %v", id, err)
		}
	}
}

// wasKilled reports whether a kill reached a job's processes.
func (d *Daemon) wasKilled(id int64) bool {
	d.killedMu.Lock()
	defer d.killedMu.Unlock()
	return d.killed[id]
}

// killAct returns an action that kills a job's processes; a kill that
// reached them is remembered, so that housekeeping tries again only those
// that did not.
func (d *Daemon) killAct(id int64) func() {
	if act := d.agentSignalAct(id, syscall.SIGKILL); act != nil {
		return act
	}
	term := ""
	if j := d.cluster.Job(id); j != nil {
		term = j.Term
	}
	return func() {
		d.exec.NoteTerm(id, term)
		if d.exec.Kill(id) == nil {
			d.killedMu.Lock()
			d.killed[id] = true
			d.killedMu.Unlock()
		}
	}
}

// spec returns what the executor needs to run a job: LSB_JOBNAME is its
// name, or its command when it has none (as LSF names such a job), and
// LSB_PROJECT_NAME its project. A job received
// from another cluster names its output files (%J) by its id there, the
// one its owner knows; LSB_JOBID is its id here, as in LSF.
func (d *Daemon) spec(j *runtime.Job) localexec.Spec {
	s := j.Sub
	name := j.Name
	if name == "" {
		name = s.Command
	}
	out := localexec.Spec{JobID: j.ID, Name: name, Queue: j.Queue.Name, User: j.User, Command: s.Command,
		Env: projectEnv(s.Env, j.Project()), Cwd: s.Cwd, Umask: s.Umask, Stdout: s.Stdout, Stderr: s.Stderr, Hosts: j.HostNames(),
		UID: s.UID, GID: s.GID, MemLimit: d.memLimitKB(j), Report: d.report(j),
		OutOverwrite: s.OutOverwrite, ErrOverwrite: s.ErrOverwrite,
		ProcessTracking: d.cfg.Policy.LSFConf.ProcessTracking, CgroupAcct: d.cfg.Policy.LSFConf.CgroupAcct}
	if len(j.Allocs) > 0 {
		out.GPUs = j.GPUsOn(j.Allocs[0].Host.Name)
	}
	if s.Home != nil {
		// An element of an array at home: its files and LSB_JOBINDEX
		// are the element's there.
		home, index := api.SplitID(s.Home.ID)
		out.OutputID, out.Index = home, index
	}
	if a := j.Array(); a != nil {
		out.Index, out.IndexEnd, out.IndexStep = j.Index(), a.End, a.Step
		out.Name = j.Name + "[" + strconv.Itoa(out.Index) + "]"
	}
	if in := s.Interactive; in != nil {
		out.Interactive = &localexec.Interactive{Mode: in.Mode, Addrs: in.Addrs, Token: in.Token, Tty: in.Tty}
	}
	d.execSpec(j, &out)
	return out
}

// projectEnv returns a job's submission environment with LSB_PROJECT_NAME
// set to its project, in place of any value the submitter had.
func projectEnv(env []string, project string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if !strings.HasPrefix(kv, "LSB_PROJECT_NAME=") {
			out = append(out, kv)
		}
	}
	return append(out, "LSB_PROJECT_NAME="+project)
}

// memLimitKB returns the memory limit, in KB, that job j's wrapper
// enforces on the sum of its processes' memory (Job.MemLimit), or 0.
// As LSF does, lsfc enforces a job's memory limit itself only when
// lsf.conf sets LSB_JOB_MEMLIMIT or LSB_MEMLIMIT_ENFORCE, or the job
// asked for a hard limit (bsub -M N!); otherwise LSF hands the limit to
// the operating system as each process's RLIMIT_RSS, which Linux does
// not enforce, and so the job is not held to it.
func (d *Daemon) memLimitKB(j *runtime.Job) int64 {
	conf := &d.cfg.Policy.LSFConf
	if !j.Sub.MemHard && !conf.JobMemLimit && !conf.MemLimitEnforce {
		return 0
	}
	return int64(j.MemLimit() * 1024)
}

// exited handles the end of a job's processes, or of the post-execution
// commands that ran on after it.
func (d *Daemon) exited(r localexec.Result) {
	if r.MailErr != "" {
		d.cfg.Logf("job %s: %s", api.FormatJobID(r.JobID), r.MailErr)
	}
	id := r.JobID
	if r.PostReport {
		// The job's files go once the end of its post-execution
		// commands is durable (at once when there is none to record).
		rec, ok := d.ended(r, d.now())
		var recs []Record
		if ok {
			recs = []Record{rec}
		}
		if j := d.cluster.Job(id); j == nil {
			d.commitThen(recs, func() { d.settle(id) })
		} else if j.State.Finished() {
			d.commitThen(recs, d.settleRun(id, j.Epoch))
		} else {
			d.commitThen(recs, nil)
		}
		return
	}
	rec, ok := d.ended(r, d.endOf(r, d.now()))
	if !ok {
		return
	}
	d.dirty = true
	if rec.Type != KindFinish || r.PostPending {
		// A job whose post-execution commands run on keeps its files
		// until they end.
		d.commitThen([]Record{rec}, nil)
		return
	}
	epoch := 0
	if j := d.cluster.Job(id); j != nil {
		epoch = j.Epoch
	}
	d.commitFinishThen([]Record{rec}, d.settleRun(id, epoch))
}

// endOf returns when a job's processes ended: the time their wrapper
// recorded in their status file (Result.End), so that the end is the
// same whether the daemon learns of it at once or after a restart. It is
// now when the wrapper recorded none (a lost job), when the job's
// post-execution commands ran as part of it (its end is theirs, which
// the status file does not hold), when the daemon runs on a clock of its
// own (a test's), and when the recorded time is not between the job's
// start and now.
func (d *Daemon) endOf(r localexec.Result, now runtime.Time) runtime.Time {
	if _, real := d.clk.(clock.RealClock); !real || r.End.IsZero() || r.PostReport || r.PostExec != "" && !r.PostPending {
		return now
	}
	j := d.cluster.Job(r.JobID)
	end := runtime.Time(float64(r.End.UnixNano()) / 1e9)
	if j == nil || end < j.Start || end > now {
		return now
	}
	return end
}

// ended applies the end of a job's processes to the cluster and returns
// its record: DONE for exit status 0, else EXIT; a job whose processes
// were lost reruns when it is rerunnable.
func (d *Daemon) ended(r localexec.Result, now runtime.Time) (Record, bool) {
	if r.PostReport {
		return d.postEnded(r, now)
	}
	j := d.cluster.Job(r.JobID)
	if j == nil || !j.State.Started() {
		if j != nil && j.State.Finished() && d.runsLocally(j) && !r.PostPending {
			// Its end was recorded before its processes ended (a
			// preemption that kills it): its files go like any other's.
			d.settle(j.ID)
		}
		return Record{}, false
	}
	delete(d.ranIn, j.ID)
	delete(d.runsIn, j.ID)
	if requeueAsked(j) {
		return d.requeueEnded(j, now)
	}
	if r.NotStarted {
		// Its start was logged but its processes never ran (the daemon
		// died in between): it is still to be run. What its start left
		// goes first, so that a pending job never has files (checkSpool).
		d.dropFiles(j.ID)
		if err := d.cluster.Requeue(j, now); err != nil {
			d.cfg.Logf("job %d: %v", j.ID, err)
			return Record{}, false
		}
		return Record{Type: KindRequeue, At: now, Job: j.ID}, true
	}
	if r.Lost {
		// A job killed while its host did not answer (ZOMBI) exits,
		// rerunnable or not.
		if j.Rerunnable() && j.Term == "" {
			d.cfg.Logf("job %d: its processes are lost; it is rerunnable and goes back to pending", j.ID)
			d.dropFiles(j.ID)
			if err := d.cluster.Requeue(j, now); err != nil {
				d.cfg.Logf("job %d: %v", j.ID, err)
				return Record{}, false
			}
			return Record{Type: KindRequeue, At: now, Job: j.ID}, true
		}
		d.cfg.Logf("job %d: its processes are lost; it exits", j.ID)
	}
	post := postExecRecord(j, r, now)
	if !r.Lost {
		d.hostPostOrders(j, r)
	}
	if r.PreExecFailed {
		if rec, ok := d.preExecEnded(j, r.PreExecCode, now); ok {
			d.notices = append(d.notices, post...)
			return rec, true
		}
	}
	d.notices = append(d.notices, post...)
	code := r.ExitCode
	if r.Signal != 0 {
		code = 128 + r.Signal
	}
	if r.Lost {
		code = 255
	}
	state := runtime.Done
	if code != 0 {
		state = runtime.Exit
	}
	if j.KilledDone {
		// bkill -d: recorded as DONE whatever the signal did.
		state, code = runtime.Done, 0
	}
	term := j.Term
	if r.CwdNotExist && term == "" {
		term = "TERM_CWD_NOTEXIST"
	}
	if r.CPULimitExceeded && term == "" {
		term = "TERM_CPULIMIT"
		d.cfg.Logf("job %d: killed past its CPU time limit", j.ID)
	}
	if r.LimitTerm != "" && term == "" {
		term = r.LimitTerm
		d.cfg.Logf("job %d: killed past its limit (%s)", j.ID, term)
	}
	if r.MemLimitExceeded && term == "" {
		term = "TERM_MEMLIMIT"
		d.cfg.Logf("job %d: killed past its memory limit of %s", j.ID, compile.FormatMemory(float64(d.memLimitKB(j))/1024))
	}
	if term == "" && code != 0 && !j.KilledDone && !r.Lost && !r.PostPending && j.Sub.Interactive == nil {
		// Its own exit, not a kill: its requeue exit values may send it
		// back to pending (REQUEUE_EXIT_VALUES wins over
		// SUCCESS_EXIT_VALUES), its success values make it DONE.
		rec, requeued, success := d.exitRequeue(j, code, now)
		if requeued {
			return rec, true
		}
		if success {
			state = runtime.Done
		}
	}
	cpu, mem := r.CPUTime.Seconds(), float64(r.MaxRSS)/1024
	d.cluster.RecordUsage(j, cpu, mem)
	if err := d.cluster.Finish(j, state, code, term, now); err != nil {
		d.cfg.Logf("job %d: %v", j.ID, err)
		return Record{}, false
	}
	if r.Err != "" {
		d.cfg.Logf("job %d: %s", j.ID, r.Err)
	}
	if j.Exceptions&runtime.ExcUnderrun != 0 {
		// The notice to the administrator, and its record, which goes
		// to the log with the finish.
		ev := runtime.ExceptionEvent{Job: j, Kind: runtime.ExcUnderrun,
			Value: float64(j.End-j.Start) / 60, Threshold: j.Queue.Underrun / 60}
		d.notices = append(d.notices, exceptionRecord(ev, now))
		d.cfg.Logf("exception: %s", ev)
	}
	rec := Record{Type: KindFinish, At: now, Job: j.ID, State: state.String(), Code: code, Term: term, CPU: cpu, Mem: mem}
	if r.Cwd != "" && r.Cwd != j.Sub.Cwd {
		rec.Cwd = r.Cwd
		d.ranIn[j.ID] = r.Cwd
	}
	return rec, true
}

// housekeep runs every second: run limits, this machine's load, and
// forgetting jobs finished longer than CLEAN_PERIOD ago.
func (d *Daemon) housekeep() {
	now := d.now()
	var recs []Record
	var acts []func()
	// Only started jobs with a run limit or a kill logged have anything
	// to do here; the others, pending ones above all, are not sorted.
	due := d.cluster.StartedWhere(func(j *runtime.Job) bool {
		return j.RunLimit > 0 || j.Term != "" || j.TermTime() > 0
	})
	for _, j := range due {
		if rec, act, ok := d.deadline(j, now); ok {
			recs, acts = append(recs, rec), append(acts, act)
			continue
		}
		switch {
		case j.Remote != nil:
			// At another cluster, which enforces its limits.
		case deadlineWaits(j, now):
			// Signalled at its termination time: it has its grace.
		case j.State == runtime.Run && j.RunLimit > 0 && j.Term == "" && j.Ran+float64(now-j.RunSince) >= j.RunLimit:
			j.Term = "TERM_RUNLIMIT"
			recs = append(recs, Record{Type: KindKill, At: now, Job: j.ID, Term: j.Term})
			acts = append(acts, d.killAct(j.ID))
		case j.Term != "" && d.hostPre[j.ID] != nil:
			// Killed before it started, waiting for the host-based
			// commands of other hosts: it ends now.
			if rec, ok := d.endUnstarted(j, now); ok {
				recs = append(recs, rec)
			}
		case j.State.Started() && j.Term != "" && !d.wasKilled(j.ID):
			// A kill logged but not delivered (the daemon restarted, or
			// the job was still starting): deliver it.
			acts = append(acts, d.killAct(j.ID))
		}
	}
	recs = append(recs, d.checkAgents(d.clk.Now())...)
	d.commitThen(recs, func() {
		for _, a := range acts {
			a()
		}
	})
	if every := time.Duration(min(max(d.cluster.SbdSleep, 1), 15) * float64(time.Second)); d.cfg.Store == nil && d.clk.Since(d.loadAt) >= every {
		d.loadAt = d.clk.Now()
		if load, ok := d.load.Sample(); ok {
			// This machine's load is that of the host named like it. The
			// other hosts of the configuration report none: their load
			// indices pass every threshold, as an index a host does not
			// report does.
			if h := d.cluster.Host(d.host); h != nil {
				d.cluster.SetLoad(h, load)
				if d.localGPUs == nil {
					// Read once: the GPUs of a machine do not come and go
					// while it runs.
					d.localGPUs = []runtime.GPUDevice{}
					for _, g := range d.load.GPUs() {
						d.localGPUs = append(d.localGPUs, runtime.GPUDevice{Index: g.Index, Model: g.Model, Mem: g.Mem})
					}
				}
				d.cluster.SetGPUs(h, d.localGPUs)
				if len(d.localGPUs) > 0 {
					if used := d.localGPUUsed.Load(); used != nil {
						d.cluster.SetGPUMemUsed(h, *used)
					}
					if d.measuring.CompareAndSwap(false, true) {
						go func() {
							defer d.measuring.Store(false)
							used := d.load.GPUMemUsed()
							d.localGPUUsed.Store(&used)
						}()
					}
				}
				d.dirty = true
			}
		}
	}
	if every := time.Duration(d.cluster.Exceptions.CheckEvery * float64(time.Second)); d.clk.Since(d.cpuAt) >= every {
		d.cpuAt = d.clk.Now()
		d.sampleCPU()
	}
	d.clean(now)
}

// clean forgets the jobs finished longer than CLEAN_PERIOD ago, and what
// the daemon kept of them.
func (d *Daemon) clean(now runtime.Time) {
	clean := d.cfg.Policy.Parameters.CleanPeriod.Seconds()
	old := d.cluster.FinishedBefore(now.Add(-clean))
	ids := make([]int64, 0, len(old))
	for _, j := range old {
		ids = append(ids, j.ID)
		d.cluster.Forget(j)
		d.killedMu.Lock()
		delete(d.killed, j.ID)
		d.killedMu.Unlock()
	}
	d.forgetKept(ids)
}

// sampleCPU reads the CPU time of the running jobs of queues with
// JOB_IDLE, whose idle factor the next cycle looks at.
func (d *Daemon) sampleCPU() {
	var ids []int64
	idle := d.cluster.StartedWhere(func(j *runtime.Job) bool {
		return j.State == runtime.Run && j.Remote == nil && j.Queue.IdleFactor > 0 && j.Exceptions&runtime.ExcIdle == 0
	})
	for _, j := range idle {
		ids = append(ids, j.ID)
	}
	if len(ids) == 0 || d.exec == nil {
		return
	}
	for id, cpu := range d.exec.CPUTimes(ids) {
		if j := d.cluster.Job(id); j != nil {
			d.cluster.SetCPUTime(j, cpu.Seconds())
		}
	}
	d.dirty = true
}

// compact replaces the log with a snapshot of the cluster: every job it
// keeps, the queues' and hosts' states, and the next job number. The
// owner takes the snapshot's records, and the log's mark with them; when
// the log can be compacted at a mark (the file log can), encoding and
// writing the snapshot happen on another goroutine while the owner goes
// on answering, and transactions appended meanwhile follow the snapshot
// in the new file. The outcome comes back to the owner (compacted).
func (d *Daemon) compact() {
	if d.compacting {
		return
	}
	recs := d.snapshot()
	d.settledMu.Lock()
	d.sealing = d.settled
	d.settled = nil
	d.settledMu.Unlock()
	d.sinceCompact = 0
	lm, ok := d.log.(markJournal)
	if !ok {
		payloads, err := encode(recs)
		if err == nil {
			err = d.log.Compact(payloads)
		}
		d.compacted(err)
		return
	}
	mark := lm.Mark()
	d.compacting = true
	d.compactWG.Add(1)
	go func() {
		defer d.compactWG.Done()
		payloads, err := encode(recs)
		if err == nil {
			err = lm.CompactAt(mark, payloads)
		}
		d.compactDone <- err
	}()
}

// snapshot returns the records of a compaction's snapshot, and forgets
// the tokens, directories and placements of the jobs it does not keep.
// The records hold copies of the jobs' images: the owner may go on
// changing the jobs while they are encoded.
func (d *Daemon) snapshot() []Record {
	groups := jobGroupRecords(d.cluster)
	rsvs := rsvRecords(d.cluster, d.now())
	jobs := d.cluster.Jobs()
	queues, hosts := d.cluster.Control()
	// Sized once: grown by appends, the records of a hundred thousand
	// jobs would be copied over and over while the owner answers nothing.
	recs := make([]Record, 0, 2+len(groups)+len(rsvs)+len(jobs)+len(queues)+2*len(hosts))
	recs = append(recs, formatRecord())
	recs = append(recs, groups...)
	recs = append(recs, rsvs...)
	images := make([]runtime.JobImage, len(jobs))
	for i, j := range jobs {
		images[i] = j.Image()
		recs = append(recs, Record{Type: KindJob, Image: &images[i], Token: d.tokenOf[j.ID], Cwd: d.ranIn[j.ID]})
	}
	d.forgetGone()
	for _, name := range slices.Sorted(maps.Keys(queues)) {
		q := queues[name]
		recs = append(recs, Record{Type: KindQueue, Queue: name, Open: q.Open, Active: q.Active})
	}
	for _, name := range slices.Sorted(maps.Keys(hosts)) {
		recs = append(recs, Record{Type: KindHost, Host: name, Text: hosts[name].String()})
		if h := d.cluster.Host(name); h != nil && h.ExitClosed {
			recs = append(recs, Record{Type: KindException, Host: name, Text: exitRateText})
		}
	}
	return append(recs, Record{Type: KindState, NextID: d.cluster.NextID()})
}

// forgetGone drops the tokens, directories and placements of the jobs the
// cluster no longer has. The daemon drops them as it forgets each job
// (clean); a snapshot makes sure of it.
func (d *Daemon) forgetGone() {
	var gone []int64
	add := func(id int64) {
		if d.cluster.Job(id) == nil {
			gone = append(gone, id)
		}
	}
	for id := range d.tokenOf {
		add(id)
	}
	for id := range d.ranIn {
		add(id)
	}
	for id := range d.placed {
		add(id)
	}
	d.forgetKept(gone)
}

// forgetKept drops the tokens, directories and placements the daemon kept
// of jobs the cluster has forgotten.
func (d *Daemon) forgetKept(ids []int64) {
	if len(ids) == 0 {
		return
	}
	most := &d.keptMost
	most.tokens, most.ranIn, most.placed = max(most.tokens, len(d.tokenOf)), max(most.ranIn, len(d.ranIn)), max(most.placed, len(d.placed))
	for _, id := range ids {
		if t, ok := d.tokenOf[id]; ok {
			// The token may name a later job by now: a submission
			// retried after its first job was forgotten.
			if d.tokens[t] == id {
				delete(d.tokens, t)
			}
			delete(d.tokenOf, id)
		}
		delete(d.ranIn, id)
		delete(d.placed, id)
	}
	var rebuilt bool
	if d.tokenOf, rebuilt = shrunk(d.tokenOf, &most.tokens); rebuilt {
		d.tokens = make(map[string]int64, len(d.tokenOf))
		for id, t := range d.tokenOf {
			d.tokens[t] = id
		}
	}
	d.ranIn, _ = shrunk(d.ranIn, &most.ranIn)
	d.placed, _ = shrunk(d.placed, &most.placed)
}

// shrunk returns m, or a new map holding its entries when it built one. A
// Go map keeps its room when entries go: once m holds under a quarter of
// the most it held (*most), its entries move to a map of their size, so
// that a burst of jobs long gone does not keep its room for good, and
// nothing is allocated otherwise.
func shrunk[V any](m map[int64]V, most *int) (map[int64]V, bool) {
	if 4*len(m) >= *most {
		return m, false
	}
	kept := make(map[int64]V, len(m))
	for id, v := range m {
		kept[id] = v
	}
	*most = len(kept)
	return kept, true
}

// compacted takes, on the owning goroutine, the outcome of a compaction.
func (d *Daemon) compacted(err error) {
	d.compacting = false
	d.settledMu.Lock()
	sealed := d.sealing
	d.sealing = nil
	if err != nil {
		d.settled = append(sealed, d.settled...)
	}
	d.settledMu.Unlock()
	if err != nil {
		if errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EDQUOT) {
			// The log is as it was: the next compaction is tried after
			// as many transactions again.
			d.cfg.Logf("compaction: %v", err)
			return
		}
		d.fail(err)
		return
	}
	// The snapshot holds the ends of the jobs settled before it: their
	// files go.
	for _, id := range sealed {
		if err := d.exec.Cleanup(id); err != nil {
			d.cfg.Logf("job %d: %v", id, err)
		}
	}
}

// checkName rejects names with characters LSF does not allow.
func checkName(kind, s string) error {
	if s == "" || len(s) > 256 || strings.ContainsAny(s, " \t\n\x00/") {
		return fmt.Errorf("bad %s name %q", kind, s)
	}
	return nil
}

// Status returns the daemon's status.
func (d *Daemon) status() api.Status {
	st := api.Status{Cluster: d.cfg.Policy.Cluster, Master: d.host, StateDir: d.cfg.StateDir, Started: d.started.Unix(),
		EventLog: d.store.String(), LogRecovered: d.recovery, Version: d.cfg.Version, Generation: d.generation, LastReload: d.lastReload}
	at := map[string]int{}
	for _, j := range d.cluster.Forwarded() {
		at[j.Remote.Cluster]++
	}
	for _, name := range sortedKeys(d.mcPeers) {
		st.Peers = append(st.Peers, api.Peer{Cluster: name, Up: d.mcPeers[name].up, Forwarded: at[name]})
	}
	// Counted in one look at each job: none is kept, so none is sorted.
	d.cluster.JobsWhere(func(j *runtime.Job) bool {
		st.Jobs++
		switch {
		case j.State.Pending():
			st.Pending++
		case j.State == runtime.Run:
			st.Running++
		}
		return false
	})
	return st
}

// runControlAction runs a service class's CONTROL_ACTION command with
// /bin/sh, as mbatchd does, without waiting for it: the scheduler goes
// on, and the command's failure is logged.
func runControlAction(command string, logf func(string, ...any)) {
	cmd := exec.Command("/bin/sh", "-c", command)
	if err := cmd.Start(); err != nil {
		logf("sla control action %q: %v", command, err)
		return
	}
	go func() {
		if err := cmd.Wait(); err != nil {
			logf("sla control action %q: %v", command, err)
		}
	}()
}
