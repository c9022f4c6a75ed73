//go:build !lsfclient

package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/lsfc/lsfc/runtime"
	"github.com/lsfc/lsfc/runtime/mcsim"
	"github.com/lsfc/lsfc/runtime/sim"
	"github.com/lsfc/lsfc/runtime/simstats"
	"github.com/lsfc/lsfc/runtime/swf"
)

// runSimulateClusters replays a trace on several clusters with
// MultiCluster job forwarding between them; runSimulate checked the flags.
func runSimulateClusters(e env, f simFlags, wopts sim.WorkloadOptions) error {
	var sites []*mcsim.Site
	index := map[string]int{}
	for _, conf := range f.confs {
		p, err := loadPolicy(e, f.tf, conf)
		if err != nil {
			return err
		}
		if p.Cluster == "" {
			return exit(exitUsage, fmt.Errorf("%s: the configuration names no cluster (lsf.cluster.<name>, lsf.shared)", conf))
		}
		if _, dup := index[p.Cluster]; dup {
			return exit(exitUsage, fmt.Errorf("%s: cluster %s is given twice", conf, p.Cluster))
		}
		opts := runtime.ClusterOptions{SlotsPerHost: f.slotsPerHost}
		if f.hostCount > 0 {
			opts.Hosts = sim.SyntheticHosts(f.hostCount, f.slotsPerHost)
		}
		c, err := runtime.NewCluster(p, opts)
		if err != nil {
			return exit(exitFindings, fmt.Errorf("%s: %w", conf, err))
		}
		index[p.Cluster] = len(sites)
		sites = append(sites, &mcsim.Site{Policy: p, Cluster: c})
	}
	header, trace, err := readTrace(f.workload)
	if err != nil {
		return exit(exitFindings, fmt.Errorf("%s: %w", f.workload, err))
	}
	partMap, err := parsePartitionMap(f.partitionMap, header, index)
	if err != nil {
		return usageError("--partition-map: %v", err)
	}
	partOf := map[int]int{}
	for _, j := range trace {
		partOf[j.Number] = j.Partition
	}
	work, skipped := sim.Workload(header, trace, wopts)
	jobs := make([]mcsim.Job, len(work))
	for i, w := range work {
		jobs[i] = mcsim.Job{Job: w, Site: siteOf(partOf[w.TraceID], partMap, len(sites))}
	}
	opts := mcsim.Options{}
	if isTerminal(e.stderr) {
		opts.Progress = progressBar(e.stderr, strings.Join(f.confs, " + "))
	}
	res, err := mcsim.Simulate(sites, jobs, opts)
	if err != nil {
		return exit(exitFindings, err)
	}
	if opts.Progress != nil {
		fmt.Fprintln(e.stderr)
	}
	if err := writeClusters(e.stdout, f.format, res, len(skipped)); err != nil {
		return exit(exitUsage, err)
	}
	for _, site := range res.Sites {
		for _, w := range site.Warnings {
			fmt.Fprintf(e.stderr, "lsfc: warning: cluster %q: %s\n", site.Cluster, w)
		}
	}
	if n := len(res.Unbounded); n > 0 {
		fmt.Fprintf(e.stderr, "lsfc: warning: %s exited with a requeue exit value on each of %d runs, with no MAX_JOB_REQUEUE to bound the requeues: the simulation ended them, EXIT (the first: job %d)\n",
			plural(n, "job"), sim.DefaultMaxRequeues+1, res.Unbounded[0].TraceID)
	}
	if len(skipped) > 0 {
		fmt.Fprintf(e.stderr, "lsfc: %s of the trace skipped (no run time or processors)\n", plural(len(skipped), "job"))
	}
	return nil
}

// parsePartitionMap reads PARTITION=CLUSTER,...: a partition by number or
// by its name in the trace's header, a cluster by name.
func parsePartitionMap(s string, h *swf.Header, clusters map[string]int) (map[int]int, error) {
	out := map[int]int{}
	if s == "" {
		return out, nil
	}
	byName := map[string]int{}
	if h != nil {
		for n, name := range h.Partitions() {
			byName[name] = n
		}
	}
	for _, item := range strings.Split(s, ",") {
		part, cluster, ok := strings.Cut(strings.TrimSpace(item), "=")
		part, cluster = strings.TrimSpace(part), strings.TrimSpace(cluster)
		if !ok || part == "" || cluster == "" {
			return nil, fmt.Errorf("%q is not PARTITION=CLUSTER", item)
		}
		n, err := strconv.Atoi(part)
		if err != nil {
			var known bool
			if n, known = byName[part]; !known {
				return nil, fmt.Errorf("the trace has no partition %q", part)
			}
		}
		i, known := clusters[cluster]
		if !known {
			return nil, fmt.Errorf("no --conf is cluster %q", cluster)
		}
		out[n] = i
	}
	return out, nil
}

// siteOf is the cluster a job of partition part goes to: the map's, else
// partition N to the Nth cluster, round robin (partitions below 1, and
// jobs without one, to the first).
func siteOf(part int, m map[int]int, n int) int {
	if i, ok := m[part]; ok {
		return i
	}
	if part < 1 {
		return 0
	}
	return (part - 1) % n
}

// writeClusters prints the clusters' figures and the totals.
func writeClusters(w io.Writer, format string, res *mcsim.Result, skipped int) error {
	total := mcsim.SiteStats{Cluster: "total", Returned: map[string]int{}, Warnings: []simstats.Warning{}}
	slotSeconds := 0.0
	for _, s := range res.Sites {
		total.Slots += s.Slots
		total.Submitted += s.Submitted
		total.Rejected += s.Rejected
		total.Forwarded += s.Forwarded
		total.Sent += s.Sent
		total.RanRemotely += s.RanRemotely
		total.Received += s.Received
		total.Refused += s.Refused
		total.Suspended += s.Suspended
		total.Requeues += s.Requeues
		total.Held += s.Held
		total.Unbounded += s.Unbounded
		total.Ran += s.Ran
		total.Done += s.Done
		total.Exit += s.Exit
		total.Cycles += s.Cycles
		total.Rounds += s.Rounds
		for k, v := range s.Returned {
			total.Returned[k] += v
		}
		slotSeconds += s.SlotSeconds
	}
	waited, started := 0.0, 0
	for _, o := range res.Jobs {
		if o.Ran != nil {
			waited += float64(o.Ran.Start - o.Home.Submit)
			started++
		}
	}
	if started > 0 {
		total.MeanWait = waited / float64(started)
	}
	total.SlotSeconds = slotSeconds
	span := float64(res.End - res.Start)
	if span > 0 && total.Slots > 0 {
		total.Utilization = slotSeconds / (float64(total.Slots) * span)
	}
	if format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Jobs     int               `json:"jobs"`
			Skipped  int               `json:"skipped"`
			Span     float64           `json:"span"`
			Clusters []mcsim.SiteStats `json:"clusters"`
			Total    mcsim.SiteStats   `json:"total"`
		}{len(res.Jobs), skipped, span, res.Sites, total})
	}
	fmt.Fprintf(w, "%d jobs on %d clusters, %s simulated\n\n", len(res.Jobs), len(res.Sites), humanSpan(span))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "CLUSTER\tSLOTS\tSUBMITTED\tREJECTED\tFORWARDED\tSENT\tRAN_ELSEWHERE\tRECEIVED\tREFUSED\tRETURNED\tSUSPENDED\tDISPATCHED\tUTIL\tMEAN_WAIT\t")
	for _, s := range append(res.Sites, total) {
		returned := 0
		for _, v := range s.Returned {
			returned += v
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%d\t%.1f%%\t%s\t\n", s.Cluster, s.Slots, s.Submitted,
			s.Rejected, s.Forwarded, s.Sent, s.RanRemotely, s.Received, s.Refused, returned, s.Suspended, s.Ran,
			100*s.Utilization, humanSpan(s.MeanWait))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if total.Requeues+total.Held > 0 {
		// Requeues on exit values, by cluster of submission.
		fmt.Fprintln(w)
		tw = tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "CLUSTER\tREQUEUES\tHELD\t")
		for _, s := range append(res.Sites, total) {
			fmt.Fprintf(tw, "%s\t%d\t%d\t\n", s.Cluster, s.Requeues, s.Held)
		}
		return tw.Flush()
	}
	return nil
}

// humanSpan writes seconds as a short duration.
func humanSpan(sec float64) string {
	switch {
	case sec >= 86400:
		return fmt.Sprintf("%.1fd", sec/86400)
	case sec >= 3600:
		return fmt.Sprintf("%.1fh", sec/3600)
	case sec >= 60:
		return fmt.Sprintf("%.1fm", sec/60)
	}
	return fmt.Sprintf("%.0fs", sec)
}
