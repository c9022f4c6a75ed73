package daemon_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/lang"
	"github.com/lsfc/lsfc/lint"
	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/daemon"
	"github.com/lsfc/lsfc/runtime/localexec"
)

// loader compiles a configuration directory as lsfc check does.
func loader(dir string) func() (*compile.Policy, lang.Diagnostics, []string, error) {
	return func() (*compile.Policy, lang.Diagnostics, []string, error) {
		res, err := lint.Run([]string{dir}, lint.Options{})
		if err != nil {
			return nil, nil, nil, err
		}
		return res.Policy, res.Diagnostics, []string{dir}, nil
	}
}

// startReloading starts a daemon on the configuration in conf that reloads
// it on badmin reconfig and, with watch, when its files change.
func startReloading(t testing.TB, conf string, watch bool) (*daemon.Daemon, *client) {
	t.Helper()
	p, err := compileTree(conf)
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	logf := func(string, ...any) {}
	if tt, ok := t.(*testing.T); ok {
		logf = tt.Logf
	}
	d, err := daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: state, WrapperPath: []string{os.Args[0], localexec.WrapperArg},
		MinInterval: 5 * time.Millisecond, Load: loader(conf), Watch: watch, Dirs: []string{conf}, Logf: logf})
	if err != nil {
		t.Fatal(err)
	}
	return d, unixClient(state)
}

func (c *client) reconfig(t testing.TB) (api.Reload, int) {
	t.Helper()
	var out api.Reload
	req, _ := http.NewRequest("POST", c.base+"/v1/reconfig", nil)
	resp, err := c.http.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := jsonDecode(resp.Body, &out); err != nil {
		t.Fatal(err)
	}
	return out, resp.StatusCode
}

func (c *client) status(t testing.TB) api.Status {
	t.Helper()
	var st api.Status
	if code, err := c.call("GET", "/v1/status", nil, &st); err != nil || code != http.StatusOK {
		t.Fatalf("status: %d %v", code, err)
	}
	return st
}

// waitGeneration waits until the daemon's configuration generation is at
// least gen, and returns its status.
func (c *client) waitGeneration(t testing.TB, gen uint64) api.Status {
	t.Helper()
	var st api.Status
	if !eventually(func() bool {
		st = c.status(t)
		return st.Generation >= gen
	}) {
		t.Fatalf("generation %d, want %d; last reload %+v", st.Generation, gen, st.LastReload)
	}
	return st
}

// waitRefused waits until the last reload is a refused one after since.
func (c *client) waitRefused(t testing.TB, since time.Time) api.Status {
	t.Helper()
	var st api.Status
	if !eventually(func() bool {
		st = c.status(t)
		r := st.LastReload
		return r != nil && !r.OK && r.Time >= since.Unix()
	}) {
		t.Fatalf("no refused reload; last %+v", st.LastReload)
	}
	return st
}

const queuesGood = `Begin Queue
QUEUE_NAME = normal
PRIORITY   = 30
End Queue

Begin Queue
QUEUE_NAME = owned
PRIORITY   = 20
End Queue
`

// TestReconfig: badmin reconfig refuses a configuration with errors and
// the old one keeps serving; a good one is adopted with its changes
// listed; a queue that goes moves its pending jobs to lost_and_found and
// leaves running jobs alone, in their queue.
func TestReconfig(t *testing.T) {
	conf := writeConf(t)
	d, c := startReloading(t, conf, false)
	defer d.Close()
	queues := filepath.Join(conf, "lsb.queues")
	running := c.submit(t, api.SubmitRequest{Command: "sleep 30", Queue: "owned", Cwd: t.TempDir()})
	c.waitState(t, running.ID, "RUN")
	pending := c.submit(t, api.SubmitRequest{Command: "true", Queue: "owned", Hold: true})

	os.WriteFile(queues, []byte("Begin Queue\nQUEUE_NAME = normal\nPRIORITY = thirty\nEnd Queue\n"), 0o644)
	r, code := c.reconfig(t)
	if r.OK || code != http.StatusConflict || r.Generation != 1 || len(r.Diagnostics) == 0 || !strings.Contains(r.Diagnostics[0], "lsb.queues:") {
		t.Fatalf("broken configuration: %d %+v", code, r)
	}
	if st := c.status(t); st.Generation != 1 || st.LastReload == nil || st.LastReload.OK {
		t.Errorf("status after a refused reload: %+v", st)
	}
	if j := c.job(t, pending.ID); j.Queue != "owned" {
		t.Errorf("a refused reload moved job %d to %s", pending.ID, j.Queue)
	}

	os.WriteFile(queues, []byte("Begin Queue\nQUEUE_NAME = normal\nPRIORITY = 30\nRUNLIMIT = 60\nEnd Queue\n"), 0o644)
	r, code = c.reconfig(t)
	if !r.OK || code != http.StatusOK || r.Generation != 2 {
		t.Fatalf("good configuration: %d %+v", code, r)
	}
	var what []string
	for _, ch := range r.Changes {
		what = append(what, ch.What+" ["+ch.Applies+"]")
	}
	for _, want := range []string{"lsb.queues: queue owned removed (its pending jobs go to lost_and_found) [live]",
		"lsb.queues: queue normal: RUNLIMIT = 60 added [new-jobs]"} {
		if !slices.Contains(what, want) {
			t.Errorf("changes %q lack %q", what, want)
		}
	}
	if j := c.job(t, pending.ID); j.Queue != "lost_and_found" || j.State != "PSUSP" {
		t.Errorf("pending job of the removed queue: %s in %s", j.State, j.Queue)
	}
	if j := c.job(t, running.ID); j.State != "RUN" || j.Queue != "owned" {
		t.Errorf("running job of the removed queue: %s in %s, want RUN in owned", j.State, j.Queue)
	}
	c.call("POST", fmt.Sprintf("/v1/jobs/%d/kill", running.ID), nil, nil)
	c.waitState(t, running.ID, "EXIT")
	if next := c.submit(t, api.SubmitRequest{Command: "true", Hold: true}); next.ID != pending.ID+1 {
		t.Errorf("next job %d after reconfig, want %d", next.ID, pending.ID+1)
	}
}

// TestWatch: the daemon reloads when a file changes, however it is
// written — an editor's write-to-temporary-and-rename, a truncate and
// write in place, the whole directory removed and made again — and a
// half-written (broken) file is refused, then adopted once whole.
func TestWatch(t *testing.T) {
	conf := writeConf(t)
	d, c := startReloading(t, conf, true)
	defer d.Close()
	queues := filepath.Join(conf, "lsb.queues")
	gen := uint64(1)
	next := func(how string, write func()) {
		t.Helper()
		write()
		gen++
		st := c.waitGeneration(t, gen)
		if !st.LastReload.OK {
			t.Fatalf("%s: %+v", how, st.LastReload)
		}
	}
	next("rename over", func() {
		tmp := queues + ".swp"
		os.WriteFile(tmp, []byte(queuesGood+"\nBegin Queue\nQUEUE_NAME = renamed\nPRIORITY = 10\nEnd Queue\n"), 0o644)
		os.Rename(tmp, queues)
	})
	next("truncate and write", func() {
		f, err := os.OpenFile(queues, os.O_WRONLY|os.O_TRUNC, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(queuesGood + "\nBegin Queue\nQUEUE_NAME = inplace\nPRIORITY = 10\nEnd Queue\n")
		f.Close()
	})
	next("directory replaced", func() {
		files := map[string][]byte{}
		entries, _ := os.ReadDir(conf)
		for _, e := range entries {
			b, _ := os.ReadFile(filepath.Join(conf, e.Name()))
			files[e.Name()] = b
		}
		files["lsb.queues"] = []byte(queuesGood + "\nBegin Queue\nQUEUE_NAME = newdir\nPRIORITY = 10\nEnd Queue\n")
		os.RemoveAll(conf)
		// A real wait: the directory is gone for a moment, as when a
		// configuration manager replaces it, and the watch, on the
		// file system's real events, must see it come back.
		time.Sleep(50 * time.Millisecond)
		os.Mkdir(conf, 0o755)
		for name, b := range files {
			os.WriteFile(filepath.Join(conf, name), b, 0o644)
		}
	})
	// Half written: refused, the old configuration serves; whole: adopted.
	since := time.Now().Add(-time.Second)
	os.WriteFile(queues, []byte(queuesGood+"\nBegin Queue\nQUEUE_NAME = half\nPRIO"), 0o644)
	st := c.waitRefused(t, since)
	if st.Generation != gen {
		t.Fatalf("a broken file changed the generation: %+v", st)
	}
	next("completed", func() {
		os.WriteFile(queues, []byte(queuesGood+"\nBegin Queue\nQUEUE_NAME = half\nPRIORITY = 10\nEnd Queue\n"), 0o644)
	})
	var qs []api.Queue
	c.call("GET", "/v1/queues", nil, &qs)
	if !slices.ContainsFunc(qs, func(q api.Queue) bool { return q.Name == "half" }) {
		t.Errorf("queues after the last reload: %+v", qs)
	}
}

// TestReloadUnderLoad applies hundreds of random edits, a share of them
// broken, while clients submit and jobs run: every broken one is refused
// with its diagnostics, every good one becomes live, no job is lost, and
// the daemon always answers.
func TestReloadUnderLoad(t *testing.T) {
	conf := writeConf(t)
	d, c := startReloading(t, conf, false)
	defer d.Close()
	queues := filepath.Join(conf, "lsb.queues")
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	var acked []int64
	for w := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 0; ; n++ {
				select {
				case <-stop:
					return
				default:
				}
				var out api.SubmitResponse
				code, err := c.call("POST", "/v1/jobs", api.SubmitRequest{Command: fmt.Sprintf("exit %d", n%3),
					Cwd: conf, Stdout: "/dev/null", Queue: "normal"}, &out)
				if err != nil {
					t.Errorf("client %d: %v", w, err)
					return
				}
				if code == http.StatusOK {
					mu.Lock()
					acked = append(acked, out.ID)
					mu.Unlock()
				}
			}
		}()
	}
	rng := rand.New(rand.NewPCG(3, 4))
	edits := 200
	if testkit.Short() {
		edits = 40
	}
	gen := uint64(1)
	for i := range edits {
		limit := 1 + rng.IntN(50)
		text := fmt.Sprintf("Begin Queue\nQUEUE_NAME = normal\nPRIORITY = %d\nUJOB_LIMIT = %d\nEnd Queue\n", 20+rng.IntN(20), limit)
		if rng.IntN(3) > 0 {
			text += fmt.Sprintf("\nBegin Queue\nQUEUE_NAME = extra%d\nPRIORITY = 10\nEnd Queue\n", i)
		}
		broken := rng.IntN(4) == 0
		if broken {
			switch rng.IntN(3) {
			case 0:
				text = strings.Replace(text, "UJOB_LIMIT = ", "UJOB_LIMIT = x", 1)
			case 1:
				text += "Begin Queue\nQUEUE_NAME = bad\n"
			case 2:
				text += "Begin Queue\nQUEUE_NAME = bad\nHOSTS = nosuchhost\nEnd Queue\n"
			}
		}
		if err := os.WriteFile(queues, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		r, code := c.reconfig(t)
		switch {
		case broken && (r.OK || code != http.StatusConflict || len(r.Diagnostics) == 0 || r.Generation != gen):
			t.Fatalf("edit %d (broken) was not refused: %d %+v\n%s", i, code, r, text)
		case !broken && (!r.OK || r.Generation != gen+1):
			t.Fatalf("edit %d (good) was not adopted: %d %+v\n%s", i, code, r, text)
		case !broken:
			gen++
		}
	}
	close(stop)
	wg.Wait()
	// Every acknowledged job is there, and each ends.
	for _, id := range acked {
		c.waitState(t, id, "DONE", "EXIT")
	}
	t.Logf("%d edits, generation %d, %d jobs submitted meanwhile", edits, gen, len(acked))
}

// BenchmarkWatchReload measures the time from a configuration file being
// written to the new configuration being live (its generation adopted):
// the watch's settling, the compile, the swap.
func BenchmarkWatchReload(b *testing.B) {
	conf := writeConf(b)
	d, c := startReloading(b, conf, true)
	defer d.Close()
	queues := filepath.Join(conf, "lsb.queues")
	var lat []time.Duration
	gen := uint64(1)
	b.ResetTimer()
	for i := range b.N {
		text := fmt.Sprintf("%s\nBegin Queue\nQUEUE_NAME = q%d\nPRIORITY = 10\nEnd Queue\n", queuesGood, i)
		t0 := time.Now()
		os.WriteFile(queues, []byte(text), 0o644)
		gen++
		c.waitGeneration(b, gen)
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "ms-p50")
	b.ReportMetric(float64(lat[(len(lat)*99)/100].Microseconds())/1000, "ms-p99")
}

func jsonDecode(r io.Reader, v any) error { return json.NewDecoder(r).Decode(v) }

// TestRetiredHostAcrossRestart: a reconfiguration removes a host while a
// job runs there; the job keeps running, and a daemon restarted on the
// new configuration still finds it there and sees it end.
func TestRetiredHostAcrossRestart(t *testing.T) {
	conf := writeConf(t)
	p, err := compileTree(conf)
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	start := func() *daemon.Daemon {
		d, err := daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: state, WrapperPath: []string{os.Args[0], localexec.WrapperArg},
			MinInterval: 5 * time.Millisecond, Load: loader(conf), Logf: t.Logf})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	d := start()
	c := unixClient(state)
	cwd := t.TempDir()
	job := c.submit(t, api.SubmitRequest{Command: "touch started; sleep 1; exit 4", Hosts: []string{"hostB"}, Cwd: cwd})
	c.waitState(t, job.ID, "RUN")
	// RUN is the scheduler's word; the process starts once the start is
	// durable. Wait for it, so that the daemon stops with the job running.
	waitFor(t, "the job's process to start", func() bool {
		_, err := os.Stat(filepath.Join(cwd, "started"))
		return err == nil
	})
	cluster := filepath.Join(conf, "lsf.cluster.test")
	text, _ := os.ReadFile(cluster)
	os.WriteFile(cluster, []byte(strings.Replace(string(text), "hostB     !      !     1       ()\n", "", 1)), 0o644)
	if r, code := c.reconfig(t); !r.OK {
		t.Fatalf("reconfig: %d %+v", code, r)
	}
	d.Close()
	// The next daemon runs the new configuration, without hostB.
	if p, err = compileTree(conf); err != nil {
		t.Fatal(err)
	}
	if p.Host("hostB") != nil {
		t.Fatal("hostB is still configured")
	}
	d = start()
	defer d.Close()
	if j := c.job(t, job.ID); j.State != "RUN" || !slices.Contains(j.ExecHosts, "hostB") {
		t.Fatalf("after restart the job is %s on %v", j.State, j.ExecHosts)
	}
	if j := c.waitState(t, job.ID, "EXIT", "DONE"); j.ExitCode != 4 {
		t.Errorf("the job ended %s %d, want EXIT 4", j.State, j.ExitCode)
	}
}

// TestReconfigKeepsJobsAcrossRestart: a reconfiguration that changes
// nothing leaves every job as bjobs shows it (a finished job's execution
// hosts above all); one that removes a queue moves its pending job to
// lost_and_found and leaves its running and finished jobs in it, says so
// once, and a daemon restarted on the new configuration finds every job
// as it was, and says nothing of lost queues.
func TestReconfigKeepsJobsAcrossRestart(t *testing.T) {
	conf := writeConf(t)
	p, err := compileTree(conf)
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	var mu sync.Mutex
	var logged []string
	start := func() *daemon.Daemon {
		d, err := daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: state, WrapperPath: []string{os.Args[0], localexec.WrapperArg},
			MinInterval: 5 * time.Millisecond, Load: loader(conf), Logf: func(format string, args ...any) {
				mu.Lock()
				logged = append(logged, fmt.Sprintf(format, args...))
				mu.Unlock()
				t.Logf(format, args...)
			}})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	d := start()
	c := unixClient(state)
	cwd := t.TempDir()
	done := c.submit(t, api.SubmitRequest{Command: "true", Queue: "owned", Hosts: []string{"hostB"}, Cwd: cwd})
	c.waitState(t, done.ID, "DONE")
	running := c.submit(t, api.SubmitRequest{Command: "touch started; sleep 3", Queue: "owned", Cwd: cwd})
	pending := c.submit(t, api.SubmitRequest{Command: "true", Queue: "owned", Hold: true})
	c.waitState(t, running.ID, "RUN")
	waitFor(t, "the job's process to start", func() bool {
		_, err := os.Stat(filepath.Join(cwd, "started"))
		return err == nil
	})
	before := map[int64]api.Job{done.ID: c.job(t, done.ID), pending.ID: c.job(t, pending.ID)}
	if hosts := before[done.ID].ExecHosts; !slices.Equal(hosts, []string{"hostB"}) {
		t.Fatalf("finished job ran on %q, want hostB", hosts)
	}
	if r, code := c.reconfig(t); !r.OK || len(r.Warnings) > 0 {
		t.Fatalf("reconfig without changes: %d %+v", code, r)
	}
	for id, want := range before {
		if got := c.job(t, id); !reflect.DeepEqual(got, want) {
			t.Errorf("job %d after a reconfig without changes:\nwant %+v\n got %+v", id, want, got)
		}
	}

	os.WriteFile(filepath.Join(conf, "lsb.queues"), []byte(queuesGood[:strings.Index(queuesGood, "\nBegin Queue\nQUEUE_NAME = owned")]), 0o644)
	r, code := c.reconfig(t)
	if want := []string{fmt.Sprintf("job %d: queue owned is gone: job moved to lost_and_found", pending.ID)}; !r.OK || !slices.Equal(r.Warnings, want) {
		t.Fatalf("reconfig without queue owned: %d %+v, want the warnings %q", code, r, want)
	}
	check := func(when string) {
		t.Helper()
		if j := c.job(t, running.ID); j.State != "RUN" || j.Queue != "owned" {
			t.Errorf("%s: running job of the removed queue: %s in %s, want RUN in owned", when, j.State, j.Queue)
		}
		if j := c.job(t, pending.ID); j.State != "PSUSP" || j.Queue != "lost_and_found" {
			t.Errorf("%s: pending job of the removed queue: %s in %s, want PSUSP in lost_and_found", when, j.State, j.Queue)
		}
		if j := c.job(t, done.ID); !reflect.DeepEqual(j, before[done.ID]) {
			t.Errorf("%s: finished job of the removed queue:\nwant %+v\n got %+v", when, before[done.ID], j)
		}
	}
	check("after the reconfig")
	if r, code := c.reconfig(t); !r.OK || len(r.Warnings) > 0 {
		t.Errorf("a second reconfig: %d %+v, want no warning", code, r)
	}
	check("after a second reconfig")
	d.Close()

	if p, err = compileTree(conf); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	logged = nil
	mu.Unlock()
	d = start()
	defer d.Close()
	check("after a restart")
	mu.Lock()
	for _, line := range logged {
		if strings.Contains(line, "is gone") || strings.Contains(line, "lost_and_found") {
			t.Errorf("the restarted daemon says %q", line)
		}
	}
	mu.Unlock()
	if j := c.waitState(t, running.ID, "DONE", "EXIT"); j.Queue != "owned" || j.State != "DONE" {
		t.Errorf("the running job of the removed queue ended %s in %s, want DONE in owned", j.State, j.Queue)
	}
}

// TestQueueGoneAtStart: a daemon started on a configuration without a
// queue that its log's jobs are in moves the pending ones to
// lost_and_found, once: the next start finds them there and says
// nothing.
func TestQueueGoneAtStart(t *testing.T) {
	conf := writeConf(t)
	state := t.TempDir()
	var mu sync.Mutex
	var logged []string
	start := func() *daemon.Daemon {
		p, err := compileTree(conf)
		if err != nil {
			t.Fatal(err)
		}
		d, err := daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: state, WrapperPath: []string{os.Args[0], localexec.WrapperArg},
			MinInterval: 5 * time.Millisecond, Logf: func(format string, args ...any) {
				mu.Lock()
				logged = append(logged, fmt.Sprintf(format, args...))
				mu.Unlock()
			}})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	said := func() []string {
		mu.Lock()
		defer mu.Unlock()
		var out []string
		for _, line := range logged {
			if strings.Contains(line, "is gone") {
				out = append(out, line)
			}
		}
		logged = nil
		return out
	}
	d := start()
	c := unixClient(state)
	held := c.submit(t, api.SubmitRequest{Command: "true", Queue: "owned", Hold: true})
	d.Close()
	os.WriteFile(filepath.Join(conf, "lsb.queues"), []byte(queuesGood[:strings.Index(queuesGood, "\nBegin Queue\nQUEUE_NAME = owned")]), 0o644)
	said()
	d = start()
	if j := c.job(t, held.ID); j.Queue != "lost_and_found" || j.State != "PSUSP" {
		t.Errorf("held job of the removed queue: %s in %s, want PSUSP in lost_and_found", j.State, j.Queue)
	}
	if got, want := said(), []string{fmt.Sprintf("replay: job %d: queue owned is gone: job moved to lost_and_found", held.ID)}; !slices.Equal(got, want) {
		t.Errorf("the first start on the new configuration says %q, want %q", got, want)
	}
	d.Close()
	d = start()
	defer d.Close()
	if j := c.job(t, held.ID); j.Queue != "lost_and_found" || j.State != "PSUSP" {
		t.Errorf("after a second start: %s in %s, want PSUSP in lost_and_found", j.State, j.Queue)
	}
	if got := said(); len(got) > 0 {
		t.Errorf("the second start says %q", got)
	}
}
