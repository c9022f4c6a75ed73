//go:build workflows

// The workflow-engine suite: Toil and Snakemake, as Debian packages them,
// run unchanged against lsfc serve through the LSF command names. It needs
// the packages toil, snakemake and python3-pytest (and cwltool, which
// toil recommends); .ci/run installs them. Run it with
//
//	go test -tags workflows -run TestWorkflowEngines -v -timeout 30m ./cmd/lsfc
//
// (its runs may take longer than go test's default limit of 10 minutes).
package main

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/lsfc/lsfc/runtime/api"
)

// The Debian packages' interpreter, and Toil's own LSF tests in them.
const (
	debianPython   = "/usr/bin/python3"
	toilBatchTests = "/usr/lib/python3/dist-packages/toil/test/batchSystems/batchSystemTest.py"
)

// engine is one lsfc serve on a temporary state directory, with the LSF
// commands on PATH, and what the suite needs to run the engines.
type engine struct {
	t      *testing.T
	root   string   // the suite's temporary directory
	env    []string // PATH with the LSF commands, LSFC_STATE, TMPDIR
	client *api.Client
	inputs string // testdata/workflows
}

func TestWorkflowEngines(t *testing.T) {
	var missing []string
	for _, tool := range []string{"toil", "toil-cwl-runner", "snakemake", debianPython} {
		if _, err := exec.LookPath(tool); err != nil {
			missing = append(missing, tool)
		}
	}
	if err := exec.Command(debianPython, "-c", "import pytest").Run(); err != nil {
		missing = append(missing, "python3-pytest")
	}
	if _, err := os.Stat(toilBatchTests); err != nil {
		missing = append(missing, toilBatchTests)
	}
	if len(missing) > 0 {
		t.Fatalf("the workflow suite cannot run: missing %s (apt-get install toil snakemake python3-pytest cwltool)",
			strings.Join(missing, ", "))
	}
	e := startEngine(t)

	// Toil's workflow first, on a fresh daemon, so that the request
	// figures are its own.
	t.Run("toil workflow", func(t *testing.T) {
		dir := e.workdir(t, "toil_squares.py")
		first := e.nextJob(t)
		before := e.perf(t)
		start := time.Now()
		out := e.run(t, dir, 5*time.Minute, debianPython, "toil_squares.py", "file:"+filepath.Join(dir, "jobstore"))
		wall := time.Since(start)
		// Taken before the suite's own queries below.
		after := e.perf(t)
		if !regexp.MustCompile(`(?m)^RESULT 5$`).MatchString(out) {
			t.Fatalf("no RESULT 5 in the workflow's output:\n%s", tail(out))
		}
		jobs := e.jobsSince(t, first)
		if len(jobs) != 5 {
			t.Errorf("the workflow ran %d jobs, want 5 (root, three children, follow-on)", len(jobs))
		}
		for _, j := range jobs {
			if j.State != "DONE" {
				t.Errorf("job %d (%s) ended %s %s, want DONE", j.ID, j.Name, j.State, j.Term)
			}
		}
		// bjobs asks with one job list request, ids or not, counted
		// apart for -json; bjobs -l asks again for pending jobs.
		jsonLists := count(after, "job list json") - count(before, "job list json")
		lists := count(after, "job list") - count(before, "job list")
		queries := count(after, "job query") - count(before, "job query")
		if jsonLists == 0 {
			t.Errorf("Toil polled without bjobs -json: %d job lists, %d single-job queries", lists, queries)
		}
		// The daemon is fresh, so the quantiles are the workflow's.
		j := requestStats(after, "job list json")
		t.Logf("Toil workflow: %.1f s wall time, %d jobs; the daemon served %d bjobs requests (%d bjobs -json, %d other "+
			"job lists, %d single-job queries); bjobs -json response time p50 %.2f ms, p99 %.2f ms, max %.2f ms",
			wall.Seconds(), len(jobs), jsonLists+lists+queries, jsonLists, lists, queries, j.P50*1000, j.P99*1000, j.Max*1000)
		e.noJobLeft(t)
	})

	t.Run("toil LSFBatchSystemTest", func(t *testing.T) {
		dir := e.workdir(t)
		out, _ := e.runStatus(t, dir, 10*time.Minute, debianPython, "-m", "pytest", "-p", "no:cacheprovider", "-W", "ignore",
			"-rA", "-k", "LSFBatchSystemTest", toilBatchTests)
		passed := pytestSummary(out, "PASSED")
		failed := pytestSummary(out, "FAILED")
		// test_set_job_env fails on real LSF too: Toil 5.9.2's submitJob
		// changes the environment it shares between jobs (23 != 42).
		if len(passed) != 5 || !slices.Equal(failed, []string{"test_set_job_env"}) {
			t.Fatalf("passed %v, failed %v; want 5 passed and only test_set_job_env failed:\n%s", passed, failed, tail(out))
		}
		if !strings.Contains(out, "23 != 42") {
			t.Errorf("test_set_job_env failed for another reason than Toil's shared environment (23 != 42):\n%s", tail(out))
		}
		t.Logf("Toil LSFBatchSystemTest: passed %s; failed %s, as on real LSF", strings.Join(passed, " "), failed[0])
		e.noJobLeft(t)
	})

	t.Run("toil-cwl-runner", func(t *testing.T) {
		dir := e.workdir(t, "echo.cwl", "echo-job.yml")
		first := e.nextJob(t)
		e.run(t, dir, 5*time.Minute, "toil-cwl-runner", "--batchSystem", "lsf", "--statePollingWait", "1",
			"--jobStore", "file:"+filepath.Join(dir, "jobstore"), "--outdir", filepath.Join(dir, "out"), "echo.cwl", "echo-job.yml")
		if b, err := os.ReadFile(filepath.Join(dir, "out", "greeting.txt")); err != nil || string(b) != "hello from lsfc\n" {
			t.Errorf("greeting.txt = %q, %v; want the tool's message", b, err)
		}
		jobs := e.jobsSince(t, first)
		if len(jobs) == 0 {
			t.Errorf("toil-cwl-runner ran no job through bsub")
		}
		for _, j := range jobs {
			if j.State != "DONE" {
				t.Errorf("job %d (%s) of the CWL run ended %s %s, want DONE", j.ID, j.Name, j.State, j.Term)
			}
		}
		e.noJobLeft(t)
	})

	for _, c := range []struct {
		name string
		args []string
		// polls is whether Snakemake learns the jobs' ends from bjobs
		// (through the status helper), rather than from its own marker
		// files or bsub -K.
		polls bool
	}{
		{"snakemake --cluster", []string{"--cluster", "bsub -q normal -o logs/%J.out"}, false},
		{"snakemake --cluster-sync", []string{"--cluster-sync", "bsub -K -q normal -o logs/%J.out"}, false},
		{"snakemake --cluster-status", []string{"--cluster", "bsub -q short -o logs/%J.out", "--cluster-status", "./cluster_status.sh"}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := e.workdir(t, "Snakefile", "cluster_status.sh")
			first := e.nextJob(t)
			before := e.perf(t)
			start := time.Now()
			e.run(t, dir, 5*time.Minute, "snakemake", append(c.args, "--jobs", "3")...)
			wall := time.Since(start)
			after := e.perf(t)
			if b, err := os.ReadFile(filepath.Join(dir, "c.txt")); err != nil || string(b) != "1\n2\n" {
				t.Errorf("c.txt = %q, %v; want 1 and 2", b, err)
			}
			lists := count(after, "job list") - count(before, "job list")
			t.Logf("%s: %.1f s wall time; the daemon served %d bjobs requests", c.name, wall.Seconds(), lists)
			// The helper runs bjobs -o stat -noheader at least once for
			// each of the three jobs: Snakemake knows their ends from it.
			if c.polls && lists < 3 {
				t.Errorf("the status helper's bjobs reached the daemon %d times, want at least once per job (3)", lists)
			}
			jobs := e.jobsSince(t, first)
			if len(jobs) != 3 {
				t.Errorf("Snakemake ran %d jobs, want 3 (a1, a2, c)", len(jobs))
			}
			for _, j := range jobs {
				if j.State != "DONE" {
					t.Errorf("job %d ended %s %s, want DONE", j.ID, j.State, j.Term)
				}
				if _, err := os.Stat(filepath.Join(dir, "logs", fmt.Sprintf("%d.out", j.ID))); err != nil {
					t.Errorf("job %d's -o file: %v", j.ID, err)
				}
			}
			e.noJobLeft(t)
		})
	}

	p := e.perf(t)
	for _, r := range p.Requests {
		t.Logf("daemon requests: %-13s %6d  p50 %6.2f ms  p99 %6.2f ms  max %7.2f ms", r.Kind, r.Count, r.P50*1000,
			r.P99*1000, r.Max*1000)
	}
}

// startEngine builds lsfc and lsfc-client, links the LSF command names to
// lsfc-client and starts lsfc serve on the workflow example cluster, its
// host wf01 standing for this machine.
func startEngine(t *testing.T) *engine {
	root := t.TempDir()
	bin := filepath.Join(root, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	lsfc := filepath.Join(bin, "lsfc")
	if out, err := exec.Command("go", "build", "-o", bin, ".", "../lsfc-job").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	// The LSF command names are links to the LSF commands' own build, as
	// the README installs them.
	buildClient(t, filepath.Join(bin, clientBinary))
	for _, name := range lsfCommandNames() {
		target := clientBinary
		if name == "sbatchd" { // the execution agent is lsfc's own
			target = "lsfc"
		}
		if err := os.Symlink(target, filepath.Join(bin, name)); err != nil {
			t.Fatal(err)
		}
	}
	state := filepath.Join(root, "state")
	tmp := filepath.Join(root, "tmp")
	if err := os.Mkdir(tmp, 0o755); err != nil {
		t.Fatal(err)
	}
	repo, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	e := &engine{t: t, root: root, client: api.Dial(state), inputs: filepath.Join(repo, "testdata", "workflows")}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "PATH=") && !strings.HasPrefix(kv, "LSFC_STATE=") && !strings.HasPrefix(kv, "TMPDIR=") &&
			!strings.HasPrefix(kv, "LSF_ENVDIR=") {
			e.env = append(e.env, kv)
		}
	}
	e.env = append(e.env, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "LSFC_STATE="+state, "TMPDIR="+tmp)

	logf, err := os.Create(filepath.Join(root, "serve.log"))
	if err != nil {
		t.Fatal(err)
	}
	serve := exec.Command(lsfc, "serve", "--conf", filepath.Join(repo, "testdata", "clusters", "workflow"), "--host", "wf01",
		"--no-watch")
	serve.Env, serve.Stdout, serve.Stderr = e.env, logf, logf
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		serve.Process.Signal(syscall.SIGINT)
		serve.Wait()
		logf.Close()
		if t.Failed() {
			b, _ := os.ReadFile(logf.Name())
			t.Logf("lsfc serve's log:\n%s", b)
		}
	})
	for deadline := time.Now().Add(20 * time.Second); ; {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		_, err := e.client.Status(ctx)
		cancel()
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("lsfc serve did not answer: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return e
}

// workdir returns a new directory for one run, with copies of the named
// inputs of testdata/workflows.
func (e *engine) workdir(t *testing.T, inputs ...string) string {
	dir, err := os.MkdirTemp(e.root, "run")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range inputs {
		src := filepath.Join(e.inputs, name)
		b, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, fi.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// runStatus runs a program in dir with the suite's environment, for at
// most timeout, and returns its combined output and error.
func (e *engine) runStatus(t *testing.T, dir string, timeout time.Duration, name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env = dir, e.env
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("%s did not finish within %v:\n%s", name, timeout, tail(out.String()))
	}
	return out.String(), err
}

// run is runStatus for a program that must succeed.
func (e *engine) run(t *testing.T, dir string, timeout time.Duration, name string, args ...string) string {
	out, err := e.runStatus(t, dir, timeout, name, args...)
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, tail(out))
	}
	return out
}

// nextJob returns the id the next submission gets: one more than the
// highest id the daemon holds.
func (e *engine) nextJob(t *testing.T) int64 {
	var last int64
	for _, j := range e.jobs(t) {
		last = max(last, j.ID)
	}
	return last + 1
}

// jobsSince returns every job from id first on, in id order.
func (e *engine) jobsSince(t *testing.T, first int64) []api.Job {
	var out []api.Job
	for _, j := range e.jobs(t) {
		if j.ID >= first {
			out = append(out, j)
		}
	}
	slices.SortFunc(out, func(a, b api.Job) int { return int(a.ID - b.ID) })
	return out
}

// jobs returns every job the daemon holds, finished ones included.
func (e *engine) jobs(t *testing.T) []api.Job {
	jobs, err := e.client.Jobs(context.Background(), api.JobQuery{User: "all", All: true})
	if err != nil {
		t.Fatal(err)
	}
	return jobs
}

// noJobLeft checks that no job is left unfinished.
func (e *engine) noJobLeft(t *testing.T) {
	jobs, err := e.client.Jobs(context.Background(), api.JobQuery{User: "all"})
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range jobs {
		t.Errorf("job %d (%s) was left behind, %s", j.ID, j.Name, j.State)
	}
}

func (e *engine) perf(t *testing.T) *api.Perf {
	p, err := e.client.Perf(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// requestStats returns the figures of one kind of request.
func requestStats(p *api.Perf, kind string) api.RequestStats {
	for _, r := range p.Requests {
		if r.Kind == kind {
			return r
		}
	}
	return api.RequestStats{Kind: kind}
}

func count(p *api.Perf, kind string) int64 { return requestStats(p, kind).Count }

// pytestSummary returns the names of the tests pytest -rA reports with a word
// (PASSED, FAILED), in its order.
func pytestSummary(out, word string) []string {
	var names []string
	re := regexp.MustCompile(`(?m)^` + word + ` \S+::(\w+)`)
	for _, m := range re.FindAllStringSubmatch(out, -1) {
		names = append(names, m[1])
	}
	return names
}

// tail returns the last lines of a program's output, for a failure.
func tail(out string) string {
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-60):], "\n")
}
