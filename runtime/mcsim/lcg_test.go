package mcsim_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/runtime"
	"github.com/lsfc/lsfc/runtime/mcsim"
	"github.com/lsfc/lsfc/runtime/sim"
	"github.com/lsfc/lsfc/runtime/swf"
)

// lcg reads the LCG grid trace (188,041 jobs, 170 partitions) and the
// three clusters of testdata/clusters/mc; partition N goes to cluster
// (N-1) mod 3, as lsfc simulate maps partitions by default.
func lcg(t testing.TB) ([]*compile.Policy, []mcsim.Job) {
	t.Helper()
	fh, err := os.Open(filepath.Join(testkit.CorpusDir(t, "swf"), "LCG.swf.gz"))
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	r, err := swf.NewReader(fh)
	if err != nil {
		t.Fatal(err)
	}
	trace, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var policies []*compile.Policy
	for _, name := range []string{"east", "west", "north"} {
		tree, diags, err := compile.Load([]string{filepath.Join("..", "..", "testdata", "clusters", "mc", name)}, compile.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if diags.HasErrors() {
			t.Fatal(diags.Err())
		}
		p, diags := compile.Compile(tree, compile.Options{})
		if diags.HasErrors() {
			t.Fatal(diags.Err())
		}
		policies = append(policies, p)
	}
	work, skipped := sim.Workload(r.Header(), trace, sim.WorkloadOptions{})
	if len(skipped) > 0 {
		t.Fatalf("%d jobs of the trace skipped", len(skipped))
	}
	part := map[int]int{}
	for _, j := range trace {
		part[j.Number] = j.Partition
	}
	jobs := make([]mcsim.Job, len(work))
	for i, w := range work {
		jobs[i] = mcsim.Job{Job: w, Site: max(part[w.TraceID]-1, 0) % len(policies)}
	}
	return policies, jobs
}

// lcgSites makes the three clusters, each of 80 hosts of 8 slots: 1,920
// slots for a trace that keeps about 1,580 busy on average, so that the
// clusters fill up at its peaks and forward to one another.
func lcgSites(t testing.TB, policies []*compile.Policy) []*mcsim.Site {
	var sites []*mcsim.Site
	for _, p := range policies {
		c, err := runtime.NewCluster(p, runtime.ClusterOptions{Hosts: sim.SyntheticHosts(80, 8), SlotsPerHost: 8})
		if err != nil {
			t.Fatal(err)
		}
		sites = append(sites, &mcsim.Site{Policy: p, Cluster: c})
	}
	return sites
}

// TestLCG replays the whole LCG trace on three clusters and checks what
// forwarding must keep: every job of the workload is accounted for at
// home (ended where it ran, or held at home past LSB_MC_INITFAIL_RETRY),
// no job ran in two clusters, every copy a cluster took stands for a job
// of its home, and the counts of the clusters agree with one another.
func TestLCG(t *testing.T) {
	if testing.Short() {
		t.Skip("the LCG replay takes seconds")
	}
	policies, jobs := lcg(t)
	if testkit.Short() {
		jobs = jobs[:30000] // the trace's first 30,000 jobs (LSFC_LONG=1: all)
	}
	sites := lcgSites(t, policies)
	res, err := mcsim.Simulate(sites, jobs, mcsim.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ended, held := 0, 0
	for i, o := range res.Jobs {
		switch {
		case o.Rejected != nil:
			t.Fatalf("job %d rejected: %v", i+1, o.Rejected)
		case o.Ran != nil && o.Ran.State.Finished() && o.Home.State == o.Ran.State:
			ended++
		case o.Ran == nil && o.Home.State == runtime.PSusp && o.Home.Reason == runtime.ReasonMCInitFail:
			held++
		default:
			t.Fatalf("job %d (trace %d) is %s at home (%s)", i+1, o.Job.TraceID, o.Home.State, o.Home.Reason)
		}
	}
	if ended+held != len(jobs) || ended < len(jobs)*3/4 {
		t.Errorf("%d jobs ended and %d held of %d", ended, held, len(jobs))
	}
	// Copies: each stands for a job of a cluster of the replay, and at
	// most one copy of a job started.
	type homeJob struct {
		cluster string
		id      int64
	}
	started := map[homeJob]int{}
	for i, s := range sites {
		for _, j := range s.Cluster.Jobs() {
			h := j.Sub.Home
			if h == nil {
				continue
			}
			if indexOf(res, h.Cluster) < 0 || h.Cluster == res.Sites[i].Cluster {
				t.Fatalf("a copy at %s comes from cluster %q", res.Sites[i].Cluster, h.Cluster)
			}
			if len(j.Allocs) > 0 {
				started[homeJob{h.Cluster, h.ID}]++
			}
		}
	}
	for k, n := range started {
		if n > 1 {
			t.Errorf("job %d of %s started %d times elsewhere", k.id, k.cluster, n)
		}
	}
	var total mcsim.SiteStats
	for _, s := range res.Sites {
		total.Forwarded += s.Forwarded
		total.Sent += s.Sent
		total.Received += s.Received
		total.Refused += s.Refused
		total.RanRemotely += s.RanRemotely
		total.Suspended += s.Suspended
		if s.Utilization <= 0 || s.Utilization > 1 {
			t.Errorf("cluster %s: utilisation %g", s.Cluster, s.Utilization)
		}
		returned := 0
		for _, n := range s.Returned {
			returned += n
		}
		if s.Sent != returned+s.RanRemotely+countAway(res, s.Cluster) {
			t.Errorf("cluster %s sent %d jobs: %d returned, %d ran elsewhere, %d still away", s.Cluster, s.Sent, returned, s.RanRemotely, countAway(res, s.Cluster))
		}
	}
	if total.Forwarded == 0 || total.RanRemotely == 0 {
		t.Errorf("no job forwarded or run remotely: %+v", total)
	}
	if total.Sent != total.Received+total.Refused {
		t.Errorf("%d sendings, %d received and %d refused", total.Sent, total.Received, total.Refused)
	}
	if total.Suspended != held {
		t.Errorf("%d jobs suspended by the rounds, %d held at the end", total.Suspended, held)
	}
	t.Logf("%d jobs: %d forwarded (%d sendings), %d ran remotely, %d held", len(jobs), total.Forwarded, total.Sent, total.RanRemotely, held)
}

// indexOf returns the index of the named cluster, or -1.
func indexOf(res *mcsim.Result, name string) int {
	for i, s := range res.Sites {
		if s.Cluster == name {
			return i
		}
	}
	return -1
}

// countAway counts the jobs of a cluster that are at another cluster and
// have not ended (none, once a replay is over).
func countAway(res *mcsim.Result, cluster string) int {
	n := 0
	for _, o := range res.Jobs {
		if o.Home != nil && res.Sites[o.Job.Site].Cluster == cluster && o.Home.Remote != nil && !o.Home.State.Finished() {
			n++
		}
	}
	return n
}

// BenchmarkSimulateLCG replays the LCG trace on the three clusters.
func BenchmarkSimulateLCG(b *testing.B) {
	policies, jobs := lcg(b)
	b.ReportAllocs()
	forwarded := 0
	for b.Loop() {
		res, err := mcsim.Simulate(lcgSites(b, policies), jobs, mcsim.Options{})
		if err != nil {
			b.Fatal(err)
		}
		for _, s := range res.Sites {
			forwarded += s.Forwarded
		}
	}
	b.ReportMetric(float64(forwarded)/float64(b.N), "forwarded/op")
	b.ReportMetric(float64(len(jobs)*b.N)/b.Elapsed().Seconds(), "jobs/s")
}
