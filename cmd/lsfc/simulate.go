//go:build !lsfclient

package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/compile/inventory"
	"github.com/lsfc/lsfc/lang"
	"github.com/lsfc/lsfc/lint"
	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/lsbacct"
	"github.com/lsfc/lsfc/runtime/sim"
	"github.com/lsfc/lsfc/runtime/simstats"
	"github.com/lsfc/lsfc/runtime/swf"
	"github.com/spf13/cobra"
)

type simFlags struct {
	tf           treeFlags
	conf         string
	confs        []string
	partitionMap string
	workload     string
	workloadFmt  string
	hosts        string
	hostCount    int
	slotsPerHost int
	queueMap     string
	slaMap       string
	format       string
	jobsOut      string
	report       string
	compare      string
}

func newSimulateCmd(e env) *cobra.Command {
	var f simFlags
	cmd := &cobra.Command{
		Use:   "simulate --conf PATH --workload FILE.swf[.gz]|lsb.events|lsb.acct|FILE.jsonl [flags]",
		Short: "Replay a workload trace through the scheduler on a configuration",
		Long: `simulate replays a Standard Workload Format trace (Parallel Workloads
Archive, plain or gzip) through lsfc's scheduler with a simulated executor
on a virtual clock: each job is submitted at its time with its processors,
run time, requested time (its run limit), user and queue, and a scheduling
cycle runs whenever something happens.

--workload also reads an LSF event log (lsb.events: each job with its
queue, user, user group, slots, -R, -M, -W and -x as bmod left them, and
its real run time from its last dispatch to its end; jobs that never
started or never ended in the log are reported as skipped) and lsfc's
own format, JSON lines of one bsub each ({"t": 12.5, "args": ["-q",
"normal", "-n", "4"], "run": 3600, "exit": 0, "user": "alice"}, its args
read as bsub reads its command line). The file's name tells the format
(lsb.events*; *.jsonl or *.ndjson; else SWF), or --workload-format.

The hosts are those of the configuration tree, each with the job slots
its lsb.hosts row gives (MXJ; "!" or none: --slots-per-host), or an
inventory (--hosts), or N identical hosts (--host-count, --slots-per-host).
Trace queues go to the default queue unless --queue-map names them (by
number or by the name in the trace's header); --sla-map sends a trace
queue's jobs to a service class (bsub -sla) the same way, and the report
gives each goal's active and delayed time and the share of it on time.
Jobs the trace cannot give,
or that ask for more slots than the cluster has, are reported as skipped.

--workload also takes an lsb.acct (LSF's, 10.1 or older, or lsfc serve's),
told by its name (lsb.acct*) or its first record: each job that ran is
submitted at its submission time with its queue (through --queue-map when
the configuration lacks it), user, name, slots, effective requirement,
-W, -m, -x and real run time (end - start), and ends as it did. Jobs that
never started are reported as skipped, and so are bad lines.
When the cluster cannot run a queue's jobs at all (its HOSTS name none
of the simulated hosts, no host meets the jobs' requirements, or the
hosts give a job fewer slots than it asks for), a warning on stderr and
in the JSON report's "warnings" names the queue, the jobs that never ran
(and those that ran, were requeued by an exit value and never ran
again) and why the first of them could not start.

A job that exits with one of its requeue exit values (bsub -Q in an lsfc
workload's args, else REQUEUE_EXIT_VALUES of its profile or queue) pends
again and runs anew, at most MAX_JOB_REQUEUE times, then is held (PSUSP)
until a bresume, as lsfc serve requeues it (with nothing to bound it, it
ends after 100 requeues); SUCCESS_EXIT_VALUES make a job DONE. The report
counts the requeues and the held jobs; every run counts in the
utilisation.

It prints the metrics: jobs, makespan, utilisation, wait and bounded
slowdown (mean, p50, p95, max) and preemptions per queue and per user,
and for each slot pool (SLOT_POOL, SLOT_SHARE) the share of its slots
each queue held, overall and while it competed with another queue of
the pool for slots, and how far that was from its share. --compare runs a
second configuration on the same trace and shows both side by side, then
the jobs whose start differs between them;
--report writes a self-contained HTML page with charts; --jobs-out writes
one JSON object per line per job.

With --conf given once per cluster, the clusters run together on one
clock, with MultiCluster job forwarding between them (SNDJOBS_TO,
RCVJOBS_FROM of their lsb.queues): the same forwarding decision,
acceptance, recalls and retries as lsfc serve, every MBD_SLEEP_TIME, in
process. Each trace job is submitted to the cluster of its partition
(SWF field 16): --partition-map PARTITION=CLUSTER,... (a partition by
number or by its name in the trace's header), else partition N goes to
the Nth cluster, round robin. It prints, per cluster, the jobs submitted,
forwarded, received, refused, returned and suspended, the jobs that ran
there and its utilisation.`,
		Example: `  lsfc simulate --conf testdata/clusters/demo --workload trace.swf.gz
  lsfc simulate --conf conf/ --workload LANL-CM5.swf.gz --host-count 32 --slots-per-host 32 --format json
  lsfc simulate --conf old/ --compare new/ --workload trace.swf --report whatif.html
  lsfc simulate --conf testdata/clusters/mc/east --conf testdata/clusters/mc/west --conf testdata/clusters/mc/north --workload LCG.swf.gz`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error { return runSimulate(e, f) },
	}
	fl := cmd.Flags()
	fl.StringArrayVar(&f.confs, "conf", nil, "configuration tree (an LSF_ENVDIR, a directory of lsb.* files, or files separated by commas); once per cluster for MultiCluster forwarding (required; no default)")
	fl.StringVar(&f.partitionMap, "partition-map", "", "with several --conf: trace partitions to clusters, PARTITION=CLUSTER,... (default: partition N to the Nth cluster, round robin; a job without one to the first)")
	fl.StringVar(&f.workload, "workload", "", "the workload: an SWF trace (plain or gzip), an LSF lsb.events or lsb.acct, or a JSON-lines file of bsub command lines (required; no default)")
	fl.StringVar(&f.workloadFmt, "workload-format", "auto", "the workload's format: swf, lsb.events (an LSF event log), lsb.acct (an LSF accounting log) or jsonl (one bsub per line); auto goes by the file's name (lsb.events*, lsb.acct*, *.jsonl), then by its first record, else swf")
	fl.StringVar(&f.hosts, "hosts", "", "a host inventory (YAML or JSON) replacing the configuration's hosts (default: the hosts of lsf.cluster)")
	fl.IntVar(&f.hostCount, "host-count", 0, "simulate N identical hosts, named sim00001 and on, instead of the configuration's; a queue whose HOSTS names hosts gets none of them (default 0: the configuration's hosts)")
	fl.IntVar(&f.slotsPerHost, "slots-per-host", 0, "job slots of each --host-count host (required with it), and of each host whose lsb.hosts MXJ is \"!\" or unset and whose CPUs and slots no inventory gives (default 0: one slot for MXJ \"!\", no slot limit for MXJ unset)")
	fl.StringVar(&f.queueMap, "queue-map", "", "trace queues to LSF queues: SWFQUEUE=LSFQUEUE,... (default: every job to the default queue, DEFAULT_QUEUE)")
	fl.StringVar(&f.slaMap, "sla-map", "", "trace queues to service classes (bsub -sla): SWFQUEUE=CLASS,... (default: no job in a service class)")
	fl.StringVar(&f.format, "format", "text", "output format: text or json")
	fl.StringVar(&f.jobsOut, "jobs-out", "", "write one JSON object per job to FILE (default: none written)")
	fl.StringVar(&f.report, "report", "", "write an HTML report with charts to FILE (default: none written)")
	fl.StringVar(&f.compare, "compare", "", "a second configuration to run on the same trace, shown side by side (default: none)")
	f.tf.register(cmd)
	return cmd
}

func runSimulate(e env, f simFlags) error {
	if len(f.confs) > 0 {
		f.conf = f.confs[0]
	}
	switch several := len(f.confs) > 1; {
	case f.conf == "":
		return usageError("--conf is required")
	case f.workload == "":
		return usageError("--workload is required")
	case f.format != "text" && f.format != "json":
		return usageError("unknown --format %q (want text or json)", f.format)
	case f.hostCount < 0 || f.slotsPerHost < 0:
		return usageError("--host-count and --slots-per-host must not be negative")
	case f.hostCount > 0 && f.hosts != "":
		return usageError("--hosts and --host-count exclude each other")
	case f.hostCount > 0 && f.slotsPerHost == 0:
		return usageError("--host-count needs --slots-per-host")
	case several && (f.compare != "" || f.report != "" || f.jobsOut != "" || f.hosts != ""):
		return usageError("--compare, --report, --jobs-out and --hosts take one --conf")
	case !several && f.partitionMap != "":
		return usageError("--partition-map needs --conf once per cluster")
	}
	queueMap, err := parseQueueMap(f.queueMap)
	if err != nil {
		return usageError("--queue-map: %v", err)
	}
	slaMap, err := parseQueueMap(f.slaMap)
	if err != nil {
		return usageError("--sla-map: %v", err)
	}
	wopts := sim.WorkloadOptions{QueueMap: queueMap, SlaMap: slaMap}
	format, err := workloadFormat(f.workload, f.workloadFmt)
	if err != nil {
		return usageError("%v", err)
	}
	if len(f.confs) > 1 {
		if format != "swf" {
			return usageError("--workload %s takes one --conf", format)
		}
		return runSimulateClusters(e, f, wopts)
	}
	replay, err := readWorkload(e, f.workload, format, wopts)
	if err != nil {
		return exit(exitFindings, fmt.Errorf("%s: %w", f.workload, err))
	}
	configs := []string{f.conf}
	if f.compare != "" {
		configs = append(configs, f.compare)
	}
	var results []*sim.ReplayResult
	for _, conf := range configs {
		p, err := loadPolicy(e, f.tf, conf)
		if err != nil {
			return err
		}
		if err := mapTargetsExist(queueMap, p); err != nil {
			return usageError("--queue-map: %v in %s", err, conf)
		}
		opts := sim.ReplayOptions{QueueMap: queueMap, SlaMap: slaMap, SlotsPerHost: f.slotsPerHost}
		switch {
		case f.hostCount > 0:
			opts.Hosts = sim.SyntheticHosts(f.hostCount, f.slotsPerHost)
		case f.hosts != "":
			if opts.Hosts, err = readHosts(e, f.hosts, p); err != nil {
				return err
			}
		}
		if isTerminal(e.stderr) {
			opts.Progress = progressBar(e.stderr, conf)
		}
		res, err := replay(p, opts)
		if err != nil {
			return exit(exitFindings, fmt.Errorf("%s: %w", conf, err))
		}
		if opts.Progress != nil {
			fmt.Fprintln(e.stderr)
		}
		results = append(results, res)
	}
	sums := make([]*simstats.Summary, len(results))
	for i, r := range results {
		sums[i] = simstats.Summarize(r.Records, r.TotalSlots)
		sums[i].Pools = simstats.SummarizePools(r.Pools, sums[i].LastEnd)
		sums[i].Exceptions.HostsClosed = r.Sim.HostsClosed
		sums[i].SummarizeClasses(r.ServiceClasses)
		sums[i].Warnings = r.Warnings
	}
	for i, r := range results {
		prefix := "lsfc: warning: "
		if len(results) > 1 {
			prefix += configs[i] + ": "
		}
		for _, w := range r.Warnings {
			fmt.Fprintf(e.stderr, "%s%s\n", prefix, w)
		}
		if n := len(r.Sim.Unbounded); n > 0 {
			j := r.Sim.Unbounded[0]
			id := j.TraceID
			if j.Index() > 0 {
				id = int(api.ElementID(int64(id), j.Index()))
			}
			label := strconv.Itoa(id)
			if l, ok := r.Labels[id]; ok {
				label = l
			}
			fmt.Fprintf(e.stderr, "%s%s exited with a requeue exit value on each of %d runs, with no MAX_JOB_REQUEUE to bound the requeues: the simulation ended them, EXIT (the first: job %s)\n",
				prefix, plural(n, "job"), sim.DefaultMaxRequeues+1, label)
		}
	}
	var diffs []startDiff
	if len(results) == 2 {
		diffs = startDiffs(results[0], results[1])
	}
	if err := writeSummary(e.stdout, f, configs, sums, diffs); err != nil {
		return exit(exitUsage, err)
	}
	if f.jobsOut != "" {
		if err := writeJobs(f.jobsOut, results[0]); err != nil {
			return exit(exitUsage, err)
		}
	}
	if f.report != "" {
		var runs []simstats.Run
		for i, s := range sums {
			runs = append(runs, simstats.Run{Name: configs[i], Summary: s})
		}
		var b bytes.Buffer
		if err := simstats.WriteHTML(&b, runs); err != nil {
			return exit(exitInternal, err)
		}
		if err := writeAtomic(f.report, b.Bytes()); err != nil {
			return exit(exitUsage, err)
		}
	}
	skipped := 0
	for _, r := range results[0].Records {
		if r.State == simstats.StateSkipped {
			skipped++
		}
	}
	if skipped > 0 {
		fmt.Fprintf(e.stderr, "lsfc: %s skipped (see --jobs-out for each job's reason)\n", plural(skipped, "job"))
	}
	return nil
}

// loadPolicy compiles a configuration; errors are printed and end the
// command with exit code 1.
func loadPolicy(e env, tf treeFlags, conf string) (*compile.Policy, error) {
	res, err := loadTree(e, tf, conf)
	if err != nil {
		return nil, err
	}
	return res.Policy, nil
}

// loadTree compiles the tree conf names (paths separated by commas) as
// lsfc check does, and refuses it, printing its errors, when it has any.
func loadTree(e env, tf treeFlags, conf string) (*lint.Result, error) {
	opts, err := tf.options(e)
	if err != nil {
		return nil, err
	}
	res, err := lint.Run(strings.Split(conf, ","), opts)
	if err != nil {
		return nil, exit(exitUsage, err)
	}
	if res.Diagnostics.HasErrors() {
		var errs lang.Diagnostics
		for _, d := range res.Diagnostics {
			if d.Severity == lang.Error {
				errs = append(errs, d)
			}
		}
		errs.WriteText(e.stderr)
		return nil, exit(exitFindings, fmt.Errorf("%s: the configuration has errors (lsfc check %s)", conf, conf))
	}
	return res, nil
}

// readTrace reads a whole SWF trace.
func readTrace(path string) (*swf.Header, []swf.Job, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer fh.Close()
	r, err := swf.NewReader(bufio.NewReaderSize(fh, 1<<16))
	if err != nil {
		return nil, nil, err
	}
	jobs, err := r.ReadAll()
	if err != nil {
		return nil, nil, err
	}
	return r.Header(), jobs, nil
}

// isLSBAcct reports whether a workload is an lsb.acct file: its name
// begins with lsb.acct, or its first line that is not blank or a comment
// is a JOB_FINISH record.
func isLSBAcct(path string) bool {
	if strings.HasPrefix(filepath.Base(path), lsbacct.FileName) {
		return true
	}
	fh, err := os.Open(path)
	if err != nil {
		return false
	}
	defer fh.Close()
	sc := bufio.NewScanner(fh)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		return strings.HasPrefix(line, `"JOB_FINISH" `)
	}
	return false
}

// readAcctWorkload reads the records of an lsb.acct; its bad lines are
// reported on standard error and skipped.
func readAcctWorkload(e env, path string) ([]lsbacct.Record, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	s := lsbacct.NewScanner(fh, path)
	var recs []lsbacct.Record
	for s.Scan() {
		recs = append(recs, *s.Record())
	}
	for _, p := range s.Problems() {
		fmt.Fprintf(e.stderr, "lsfc: warning: %v (skipped)\n", p)
	}
	if n := s.NumProblems() - len(s.Problems()); n > 0 {
		fmt.Fprintf(e.stderr, "lsfc: warning: %s: %d more bad lines skipped\n", path, n)
	}
	return recs, s.Err()
}

// readHosts reads a host inventory, its memory amounts in the
// configuration's unit.
func readHosts(e env, path string, p *compile.Policy) ([]*compile.Host, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, exit(exitUsage, err)
	}
	inv, diags := inventory.Read(lang.NewSource(path, string(b)), p.Env().Unit)
	if diags.HasErrors() {
		diags.WriteText(e.stderr)
		return nil, exit(exitFindings, fmt.Errorf("%s: the inventory has errors", path))
	}
	return inv.Hosts, nil
}

// mapTargetsExist reports the first queue a --queue-map sends jobs to
// that p does not define: those jobs would wait forever.
func mapTargetsExist(m map[string]string, p *compile.Policy) error {
	targets := slices.Sorted(maps.Values(m))
	for _, q := range targets {
		if p.Queue(q) == nil {
			return fmt.Errorf("queue %q is not defined", q)
		}
	}
	return nil
}

// parseQueueMap reads "1=normal,interactive=short".
func parseQueueMap(s string) (map[string]string, error) {
	m := map[string]string{}
	if s == "" {
		return m, nil
	}
	for _, item := range strings.Split(s, ",") {
		from, to, ok := strings.Cut(strings.TrimSpace(item), "=")
		if !ok || from == "" || to == "" {
			return nil, fmt.Errorf("%q is not SWFQUEUE=LSFQUEUE", item)
		}
		m[from] = to
	}
	return m, nil
}

// writeSummary prints the metrics of one run, or of two side by side
// followed by the jobs whose start differs between them.
func writeSummary(w io.Writer, f simFlags, names []string, sums []*simstats.Summary, diffs []startDiff) error {
	if f.format == "json" {
		if len(sums) == 1 {
			return sums[0].WriteJSON(w)
		}
		var runs []json.RawMessage
		for _, s := range sums {
			var b bytes.Buffer
			if err := s.WriteJSON(&b); err != nil {
				return err
			}
			runs = append(runs, json.RawMessage(b.Bytes()))
		}
		out := struct {
			Jobs int               `json:"jobs"`
			Runs []json.RawMessage `json:"runs"`
			Conf []string          `json:"configurations"`
			// StartDiffs are the jobs whose start differs, A being the
			// first configuration.
			StartDiffs []startDiff `json:"startDiffs"`
		}{sums[0].Jobs, runs, names, diffs}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	if len(sums) == 2 {
		if err := simstats.WriteComparison(w, [2]string{names[0], names[1]}, sums[0], sums[1]); err != nil {
			return err
		}
		writeStartDiffs(w, [2]string{names[0], names[1]}, sums[0].Jobs, diffs)
		return nil
	}
	return sums[0].WriteText(w)
}

// jobLine is one line of --jobs-out.
type jobLine struct {
	ID int `json:"id"`
	// Job names the job as its workload does ("1234[5]" for an LSF
	// array element), when that is not its ID.
	Job    string   `json:"job,omitempty"`
	Queue  string   `json:"queue"`
	User   string   `json:"user"`
	Submit float64  `json:"submit"`
	Start  *float64 `json:"start"`
	End    *float64 `json:"end"`
	Hosts  []string `json:"hosts"`
	State  string   `json:"state"`
	Reason string   `json:"reason,omitempty"`
	// Exceptions are the job exceptions the job raised (overrun ...).
	Exceptions string `json:"exceptions,omitempty"`
	// Requeued counts the times the job went back to pending on its exit
	// values; Start and End are its last run's. EarlierRuns are, as
	// [start, end], its runs that ended in a requeue (or a hold, at its
	// MAX_JOB_REQUEUE): those before the last of a DONE or EXIT job, all
	// those of a PEND or PSUSP one.
	Requeued    int          `json:"requeued,omitempty"`
	EarlierRuns [][2]float64 `json:"earlier_runs,omitempty"`
}

// writeJobs writes one JSON object per job.
func writeJobs(path string, res *sim.ReplayResult) error {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	for _, r := range res.Records {
		l := jobLine{ID: r.ID, Job: res.Labels[r.ID], Queue: r.Queue, User: r.User, Submit: r.Submit, Hosts: r.Hosts, State: r.State, Reason: res.Reasons[r.ID],
			Exceptions: r.Exceptions, Requeued: r.Requeued}
		if l.Hosts == nil {
			l.Hosts = []string{}
		}
		for _, e := range r.EarlierRuns {
			l.EarlierRuns = append(l.EarlierRuns, [2]float64{e.Start, e.End})
		}
		if r.State == simstats.StateDone || r.State == simstats.StateExit {
			start, end := r.Start, r.End
			l.Start, l.End = &start, &end
		}
		if err := enc.Encode(l); err != nil {
			return err
		}
	}
	return writeAtomic(path, b.Bytes())
}

// isTerminal reports whether w is a terminal, where a progress bar makes
// sense.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// progressBar returns a Progress function drawing a bar on w at most ten
// times a second.
func progressBar(w io.Writer, name string) func(done, total int) {
	var last time.Time
	return func(done, total int) {
		if time.Since(last) < 100*time.Millisecond && done < total {
			return
		}
		last = time.Now()
		const width = 30
		filled := 0
		if total > 0 {
			filled = width * done / total
		}
		fmt.Fprintf(w, "\r%s [%s%s] %d/%d jobs", name, strings.Repeat("=", filled), strings.Repeat(" ", width-filled), done, total)
	}
}
