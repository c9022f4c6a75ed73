package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime/metrics"
	"runtime/pprof"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/lsfc/lsfc/lint"
	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/daemon"
)

// secret is the shared secret of the master's TCP listener.
const secret = "scale-bench"

// A config is one measurement's shape.
type config struct {
	agents, slots, jobs, submitters int
	interval, runMin, runMax        time.Duration
	warmup, measure                 time.Duration
	seed                            uint64
}

// A result is what one measurement found.
type result struct {
	agents        int
	submitRate    float64 // durable submissions per second
	cpu           float64 // the master's cores over the measurement (-1: not measured)
	p50, p99, max time.Duration
	started       float64 // jobs started per minute
	finished      float64 // jobs finished per minute
	pendingLeft   int64
	errors        int64
	heldRunning   int
	// The latency's parts (see fleet.lat): the share of the starts an
	// exchange held at the master brought, their latency, and for the
	// others the wait for their agent's next exchange and that
	// exchange's time.
	heldShare      float64
	held50, held99 time.Duration
	gap50, gap99   time.Duration
	exch50, exch99 time.Duration
	cpuPerJob      time.Duration // the master's CPU per job started (0: not measured)
	benchCPU       float64       // the agents' process's cores over the measurement
	// The master's own view (badmin perfmon): the p99 of its requests'
	// wait for the goroutine that holds the cluster, the worst of the
	// measurement's 5-s samples, and the time from a start to its
	// order's hand-off, over its last 10,000 dispatches.
	ownerWait99          time.Duration
	handoff50, handoff99 time.Duration
	// syncs and loads are the agents' exchanges and load reports the
	// master served per second.
	syncs, loads float64
	// sched50 and sched99 are the quantiles of the time the master's
	// goroutines waited, runnable, for a thread (its Go scheduler's
	// latencies), over the measurement.
	sched50, sched99 time.Duration
}

// A master is the daemon measured: where the agents reach it, and its
// CPU time so far.
type master struct {
	addr, state string
	cpu         func() (time.Duration, error)
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "master" {
		if err := runMaster(os.Args[2:]); err != nil {
			fmt.Fprintf(os.Stderr, "scale master: %v\n", err)
			os.Exit(1)
		}
		return
	}
	var (
		cfg        config
		agents     string
		profile    string
		runMean    time.Duration
		keep       bool
		masterLogs bool
	)
	flag.StringVar(&agents, "agents", "100,1000,5000", "agent counts to measure, separated by commas")
	flag.IntVar(&cfg.slots, "slots", 2, "job slots of each host (MXJ)")
	flag.IntVar(&cfg.jobs, "jobs", 100000, "jobs submitted, pending, before the measurement")
	flag.IntVar(&cfg.submitters, "submitters", 8, "concurrent submitting clients")
	flag.DurationVar(&cfg.interval, "interval", 5*time.Second, "the agents' report interval (lsfc sbatchd's default)")
	flag.DurationVar(&runMean, "run", 30*time.Second, "mean run time of a job, drawn uniformly between half and 1.5 times it")
	flag.DurationVar(&cfg.warmup, "warmup", 30*time.Second, "time from the opening of the hosts (every job submitted, every agent registered) to the measurement")
	flag.DurationVar(&cfg.measure, "measure", 60*time.Second, "length of the measurement")
	flag.Uint64Var(&cfg.seed, "seed", 1, "seed of the drawn run times and loads")
	flag.StringVar(&profile, "cpuprofile", "", "write the master's CPU profile over the measurement to this file (the agent count is added to its name)")
	flag.BoolVar(&keep, "keep", false, "keep the state directories")
	flag.BoolVar(&masterLogs, "v", false, "show the master's messages")
	flag.Parse()
	cfg.runMin, cfg.runMax = runMean/2, runMean*3/2
	var counts []int
	for s := range strings.SplitSeq(agents, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n <= 0 {
			fmt.Fprintf(os.Stderr, "scale: bad agent count %q\n", s)
			os.Exit(2)
		}
		counts = append(counts, n)
	}
	fmt.Printf("| agents | jobs pending | master CPU (cores) | dispatch p50 | dispatch p99 | started/min | finished/min | submissions/s | failed requests |\n")
	fmt.Printf("|---|---|---|---|---|---|---|---|---|\n")
	var parts []string
	for _, n := range counts {
		cfg.agents = n
		r, err := measureSpawned(cfg, profile, keep, masterLogs)
		if err != nil {
			fmt.Fprintf(os.Stderr, "scale: %d agents: %v\n", n, err)
			os.Exit(1)
		}
		fmt.Println(r.row(cfg))
		parts = append(parts, r.parts())
	}
	fmt.Printf("\n| agents | held exchange: share | p50 | p99 | next exchange: wait p50 | wait p99 | exchange p50 | exchange p99 | master: start→hand-off p50 | p99 | owner wait p99 | master CPU per start | agents' CPU (cores) | exchanges/s | load reports/s | master's runnable wait p50 | p99 |\n")
	fmt.Printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n")
	for _, p := range parts {
		fmt.Println(p)
	}
}

// parts is the latency's breakdown of a result as a line of the second
// table main prints.
func (r result) parts() string {
	ms := func(d time.Duration) string { return d.Round(time.Millisecond).String() }
	per := "-"
	if r.cpuPerJob > 0 {
		per = r.cpuPerJob.Round(10 * time.Microsecond).String()
	}
	return fmt.Sprintf("| %d | %.0f %% | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %.2f | %.0f | %.0f | %s | %s |", r.agents, 100*r.heldShare, ms(r.held50), ms(r.held99),
		ms(r.gap50), ms(r.gap99), ms(r.exch50), ms(r.exch99), ms(r.handoff50), ms(r.handoff99), ms(r.ownerWait99), per, r.benchCPU, r.syncs, r.loads, r.sched50.Round(10*time.Microsecond), r.sched99.Round(10*time.Microsecond))
}

// quantiles returns the median and the 99th percentile of ds, which it
// sorts.
func quantiles(ds []time.Duration) (p50, p99 time.Duration) {
	if len(ds) == 0 {
		return 0, 0
	}
	slices.Sort(ds)
	return ds[len(ds)/2], ds[len(ds)*99/100]
}

// selfCPU returns the user and system time of this process.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// row is a result as a line of the Markdown table main prints.
func (r result) row(cfg config) string {
	cpu := "-"
	if r.cpu >= 0 {
		cpu = fmt.Sprintf("%.2f", r.cpu)
	}
	return fmt.Sprintf("| %d | %d→%d | %s | %s | %s | %.0f | %.0f | %.0f | %d |", r.agents, cfg.jobs, r.pendingLeft, cpu,
		r.p50.Round(time.Millisecond), r.p99.Round(time.Millisecond), r.started, r.finished, r.submitRate, r.errors)
}

// measureSpawned runs one measurement against a master in a process of
// its own, on a fresh cluster of cfg.agents hosts.
func measureSpawned(cfg config, profile string, keep, logs bool) (result, error) {
	dir, err := os.MkdirTemp("", "lsfc-scale-")
	if err != nil {
		return result{}, err
	}
	if !keep {
		defer os.RemoveAll(dir)
	}
	conf, state := filepath.Join(dir, "conf"), filepath.Join(dir, "state")
	if err := os.Mkdir(conf, 0o755); err != nil {
		return result{}, err
	}
	if err := writeTree(conf, cfg.agents, cfg.slots); err != nil {
		return result{}, err
	}
	addr, err := freeAddr()
	if err != nil {
		return result{}, err
	}
	prof := ""
	if profile != "" {
		prof = fmt.Sprintf("%s.%d", profile, cfg.agents)
	}
	self, err := os.Executable()
	if err != nil {
		return result{}, err
	}
	cmd := exec.Command(self, "master", "-conf", conf, "-state", state, "-listen", addr, "-cpuprofile", prof)
	cmd.Stdout = io.Discard
	// The master ends with this program, however it ends.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
	cmd.Stderr = io.Discard
	if logs {
		cmd.Stderr = os.Stderr
	}
	if err := cmd.Start(); err != nil {
		return result{}, err
	}
	defer func() {
		cmd.Process.Signal(syscall.SIGTERM)
		cmd.Wait()
	}()
	pid := cmd.Process.Pid
	m := master{addr: addr, state: state, cpu: func() (time.Duration, error) { return procCPU(pid) }}
	// The master answers once its configuration is compiled and its log
	// open.
	c := api.Dial(state)
	deadline := time.Now().Add(2 * time.Minute)
	for {
		if _, err := c.Status(context.Background()); err == nil {
			break
		}
		if time.Now().After(deadline) {
			return result{}, errors.New("the master did not answer in 2 minutes")
		}
		time.Sleep(100 * time.Millisecond)
	}
	// The profile and the master's scheduling latencies cover the
	// measurement: SIGUSR1 starts them, SIGUSR2 stops them and writes
	// the latencies' quantiles to the state directory.
	hooks := hooks{start: func() { cmd.Process.Signal(syscall.SIGUSR1) }, stop: func() { cmd.Process.Signal(syscall.SIGUSR2) }}
	res, err := measure(context.Background(), cfg, m, hooks)
	if err == nil {
		res.sched50, res.sched99 = readSched(filepath.Join(state, schedFile))
	}
	return res, err
}

// hooks are called as the measurement starts and stops (nil: none).
type hooks struct{ start, stop func() }

// measure submits cfg.jobs jobs to m with its hosts closed, starts
// cfg.agents agents, opens the hosts once every agent has registered,
// lets the cluster settle for cfg.warmup and measures for cfg.measure.
func measure(ctx context.Context, cfg config, m master, h hooks) (result, error) {
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	defer func() {
		cancel()
		wg.Wait()
	}()
	res := result{agents: cfg.agents, cpu: -1}
	// The hosts are closed while the jobs are submitted and the agents
	// register: no job starts before its host's agent has registered (it
	// would run through the master's local executor), and submissions
	// are measured on a quiet master.
	if err := hostOps(ctx, m.state, cfg, "close"); err != nil {
		return result{}, err
	}
	// Submissions over the socket, as bsub's, from a few clients at once.
	t0 := time.Now()
	var next atomic.Int64
	var subErr atomic.Value
	var sw sync.WaitGroup
	for range cfg.submitters {
		sw.Add(1)
		go func() {
			defer sw.Done()
			c := api.Dial(m.state)
			for next.Add(1) <= int64(cfg.jobs) {
				if _, err := c.Submit(ctx, &api.SubmitRequest{Command: "true"}); err != nil {
					subErr.Store(err)
					return
				}
			}
		}()
	}
	sw.Wait()
	if err, ok := subErr.Load().(error); ok {
		return result{}, fmt.Errorf("submit: %w", err)
	}
	res.submitRate = float64(cfg.jobs) / time.Since(t0).Seconds()
	f := &fleet{addr: m.addr, secret: secret, interval: cfg.interval, runMin: cfg.runMin, runMax: cfg.runMax, seed: cfg.seed}
	for i := range cfg.agents {
		a := f.newAgent(i, hostName(i))
		wg.Add(1)
		go a.run(ctx, cfg.interval*time.Duration(i)/time.Duration(cfg.agents), &wg)
	}
	deadline := time.Now().Add(cfg.interval + 2*time.Minute)
	for f.registered.Load() < int64(cfg.agents) {
		if time.Now().After(deadline) {
			return result{}, fmt.Errorf("%d of %d agents registered in time (last failure: %v)", f.registered.Load(), cfg.agents, f.lastErr.Load())
		}
		time.Sleep(50 * time.Millisecond)
	}
	if err := hostOps(ctx, m.state, cfg, "open"); err != nil {
		return result{}, err
	}
	time.Sleep(cfg.warmup)
	f.errors.Store(0)
	var cpu0 time.Duration
	if m.cpu != nil {
		var err error
		if cpu0, err = m.cpu(); err != nil {
			return result{}, err
		}
	}
	if h.start != nil {
		h.start()
	}
	t1, self0 := time.Now(), selfCPU()
	f.measuring.Store(true)
	pc := api.Dial(m.state)
	sec := func(s float64) time.Duration { return time.Duration(s * float64(time.Second)) }
	counts := func(p *api.Perf) (syncs, loads int64) {
		for _, k := range p.Requests {
			switch k.Kind {
			case "agent sync":
				syncs = k.Count
			case "agent load":
				loads = k.Count
			}
		}
		return syncs, loads
	}
	var syncs0, loads0 int64
	if p, err := pc.Perf(ctx); err == nil {
		syncs0, loads0 = counts(p)
	}
	sample := func() {
		p, err := pc.Perf(ctx)
		if err != nil {
			return
		}
		s, l := counts(p)
		res.syncs = float64(s-syncs0) / time.Since(t1).Seconds()
		res.loads = float64(l-loads0) / time.Since(t1).Seconds()
		for _, k := range p.Requests {
			switch k.Kind {
			case "owner wait":
				res.ownerWait99 = max(res.ownerWait99, sec(k.P99))
			case "agent dispatch":
				res.handoff50, res.handoff99 = sec(k.P50), sec(k.P99)
			}
		}
	}
	for end := t1.Add(cfg.measure); time.Until(end) > 0; {
		time.Sleep(min(5*time.Second, time.Until(end)))
		sample()
	}
	f.measuring.Store(false)
	wall := time.Since(t1)
	res.benchCPU = (selfCPU() - self0).Seconds() / wall.Seconds()
	if h.stop != nil {
		h.stop()
	}
	if m.cpu != nil {
		cpu1, err := m.cpu()
		if err != nil {
			return result{}, err
		}
		res.cpu = (cpu1 - cpu0).Seconds() / wall.Seconds()
		if n := f.started.Load(); n > 0 {
			res.cpuPerJob = (cpu1 - cpu0) / time.Duration(n)
		}
	}
	f.mu.Lock()
	lat, held, gap, exch := slices.Clone(f.lat), slices.Clone(f.held), slices.Clone(f.gap), slices.Clone(f.exch)
	f.mu.Unlock()
	res.p50, res.p99 = quantiles(lat)
	if len(lat) > 0 {
		res.max = lat[len(lat)-1]
		res.heldShare = float64(len(held)) / float64(len(lat))
	}
	res.held50, res.held99 = quantiles(held)
	res.gap50, res.gap99 = quantiles(gap)
	res.exch50, res.exch99 = quantiles(exch)
	res.started = float64(f.started.Load()) / wall.Minutes()
	res.finished = float64(f.finished.Load()) / wall.Minutes()
	res.errors = f.errors.Load()
	if st, err := api.Dial(m.state).Status(ctx); err == nil {
		res.pendingLeft = int64(st.Pending)
		res.heldRunning = st.Running
	}
	return res, nil
}

// hostOps applies op (badmin hclose or hopen) to every host.
func hostOps(ctx context.Context, state string, cfg config, op string) error {
	var next atomic.Int64
	errs := make(chan error, cfg.submitters)
	for range cfg.submitters {
		go func() {
			c := api.Dial(state)
			for i := next.Add(1) - 1; i < int64(cfg.agents); i = next.Add(1) - 1 {
				if _, err := c.HostOp(ctx, hostName(int(i)), op); err != nil {
					errs <- fmt.Errorf("host %s: %s: %w", hostName(int(i)), op, err)
					return
				}
			}
			errs <- nil
		}()
	}
	var first error
	for range cfg.submitters {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	return first
}

// schedFile is where the master writes its scheduling latencies over
// the measurement, in its state directory.
const schedFile = "sched-latencies"

// schedLatencies returns the Go scheduler's histogram of the time
// goroutines waited, runnable, for a thread to run them.
func schedLatencies() *metrics.Float64Histogram {
	s := []metrics.Sample{{Name: "/sched/latencies:seconds"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindFloat64Histogram {
		return nil
	}
	return s[0].Value.Float64Histogram()
}

// histQuantiles returns the median and 99th percentile of what the
// histogram b counted since a (the upper bounds of their buckets).
func histQuantiles(a, b *metrics.Float64Histogram) (p50, p99 time.Duration) {
	if a == nil || b == nil || len(a.Counts) != len(b.Counts) {
		return 0, 0
	}
	var total uint64
	for i := range b.Counts {
		total += b.Counts[i] - a.Counts[i]
	}
	var seen uint64
	for i := range b.Counts {
		seen += b.Counts[i] - a.Counts[i]
		d := time.Duration(min(b.Buckets[i+1], 1e9) * float64(time.Second))
		if p50 == 0 && seen*2 >= total {
			p50 = d
		}
		if seen*100 >= total*99 {
			return p50, d
		}
	}
	return p50, 0
}

// readSched reads the quantiles the master wrote, waiting a little for
// them.
func readSched(path string) (p50, p99 time.Duration) {
	for range 50 {
		if data, err := os.ReadFile(path); err == nil {
			fmt.Sscan(string(data), &p50, &p99)
			return p50, p99
		}
		time.Sleep(100 * time.Millisecond)
	}
	return 0, 0
}

// freeAddr returns a loopback address with a free TCP port.
func freeAddr() (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer ln.Close()
	return ln.Addr().String(), nil
}

// procCPU returns the user and system time of process pid.
func procCPU(pid int) (time.Duration, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	// The fields after the command's name, which is in parentheses.
	i := strings.LastIndexByte(string(data), ')')
	if i < 0 {
		return 0, fmt.Errorf("/proc/%d/stat: unreadable", pid)
	}
	fields := strings.Fields(string(data[i+1:]))
	if len(fields) < 13 {
		return 0, fmt.Errorf("/proc/%d/stat: unreadable", pid)
	}
	utime, err1 := strconv.ParseInt(fields[11], 10, 64)
	stime, err2 := strconv.ParseInt(fields[12], 10, 64)
	if err1 != nil || err2 != nil {
		return 0, fmt.Errorf("/proc/%d/stat: unreadable", pid)
	}
	const ticks = 100 // USER_HZ on Linux
	return time.Duration(utime+stime) * time.Second / ticks, nil
}

// runMaster is the master's process: the daemon on a configuration tree,
// compiled and started as lsfc serve does, with a TCP listener for the
// agents, until SIGTERM. SIGUSR1 starts a CPU profile, SIGUSR2 stops it.
func runMaster(args []string) error {
	fs := flag.NewFlagSet("master", flag.ContinueOnError)
	conf := fs.String("conf", "", "configuration tree")
	state := fs.String("state", "", "state directory")
	listen := fs.String("listen", "", "TCP address")
	profile := fs.String("cpuprofile", "", "CPU profile file")
	if err := fs.Parse(args); err != nil {
		return err
	}
	res, err := lint.Run([]string{*conf}, lint.Options{})
	if err != nil {
		return err
	}
	if res.Diagnostics.HasErrors() {
		return res.Diagnostics.Err()
	}
	sig := make(chan os.Signal, 4)
	signal.Notify(sig, syscall.SIGTERM, os.Interrupt, syscall.SIGUSR1, syscall.SIGUSR2)
	d, err := daemon.Start(context.Background(), daemon.Config{Policy: res.Policy, StateDir: *state, Listen: *listen, Secret: secret,
		Logf: func(format string, args ...any) { fmt.Fprintf(os.Stderr, "lsfc serve: "+format+"\n", args...) }})
	if err != nil {
		return err
	}
	var pf *os.File
	var sched0 *metrics.Float64Histogram
	for s := range sig {
		switch s {
		case syscall.SIGUSR1:
			sched0 = schedLatencies()
			if *profile != "" && pf == nil {
				if pf, err = os.Create(*profile); err != nil {
					return err
				}
				if err := pprof.StartCPUProfile(pf); err != nil {
					return err
				}
			}
		case syscall.SIGUSR2:
			if pf != nil {
				pprof.StopCPUProfile()
				pf.Close()
				pf = nil
			}
			if sched0 != nil {
				p50, p99 := histQuantiles(sched0, schedLatencies())
				os.WriteFile(filepath.Join(*state, schedFile), fmt.Appendf(nil, "%d %d\n", p50, p99), 0o644)
			}
		default:
			if pf != nil {
				pprof.StopCPUProfile()
				pf.Close()
			}
			return d.Close()
		}
	}
	return nil
}
