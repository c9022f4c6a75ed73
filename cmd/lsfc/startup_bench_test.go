package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lsfc/lsfc/lint"
	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/daemon"
	"github.com/lsfc/lsfc/runtime/localexec"
)

// The start-up benchmarks run the built binaries as processes, each op
// one run of a command after one run of a baseline (an empty Go program
// built here, or lsfc version): absolute times on a shared machine vary
// several-fold, so each reports the two medians (base-ms, cmd-ms) and
// their ratio, measured side by side.

// startupBins are the binaries the start-up benchmarks run.
type startupBins struct {
	empty, lsfc, client string
}

// buildStartupBins builds an empty Go program, lsfc and lsfc-client into
// a temporary directory, outside the timing.
func buildStartupBins(tb testing.TB) startupBins {
	tb.Helper()
	dir := tb.TempDir()
	src := filepath.Join(dir, "empty")
	if err := os.Mkdir(src, 0o755); err != nil {
		tb.Fatal(err)
	}
	for name, text := range map[string]string{
		"go.mod":  "module empty\n\ngo 1.26\n",
		"main.go": "package main\n\nfunc main() {}\n",
	} {
		if err := os.WriteFile(filepath.Join(src, name), []byte(text), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	bins := startupBins{empty: filepath.Join(dir, "empty-bin"), lsfc: filepath.Join(dir, "lsfc"), client: filepath.Join(dir, clientBinary)}
	build := exec.Command("go", "build", "-o", bins.empty, ".")
	build.Dir = src
	if out, err := build.CombinedOutput(); err != nil {
		tb.Fatalf("go build (empty program): %v\n%s", err, out)
	}
	if out, err := exec.Command("go", "build", "-o", bins.lsfc, ".").CombinedOutput(); err != nil {
		tb.Fatalf("go build: %v\n%s", err, out)
	}
	buildClient(tb, bins.client)
	return bins
}

// startDemoDaemon starts lsfc serve's daemon on the demo tree in this
// process and returns its state directory. Its jobs are held (bsub -H) in
// the benchmarks, so that none runs while commands are timed.
func startDemoDaemon(tb testing.TB) string {
	tb.Helper()
	res, err := lint.Run([]string{filepath.Join("..", "..", "testdata", "clusters", "demo")}, lint.Options{})
	if err != nil || res.Diagnostics.HasErrors() {
		tb.Fatalf("demo tree: %v %v", err, res.Diagnostics.Err())
	}
	state, err := os.MkdirTemp("", "lsfc") // short: the Unix socket's path is limited
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { os.RemoveAll(state) })
	d, err := daemon.Start(context.Background(), daemon.Config{Policy: res.Policy, StateDir: state,
		WrapperPath: []string{os.Args[0], localexec.WrapperArg}})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { d.Close() })
	return state
}

// benchPair times base and cmd, one run of each per op, and reports the
// median of each in milliseconds and the ratio of the medians. A command
// that fails ends the benchmark.
func benchPair(b *testing.B, env []string, base []string, cmd []string) {
	b.Helper()
	var bt, ct []time.Duration
	for b.Loop() {
		bt = append(bt, timeRun(b, env, base))
		ct = append(ct, timeRun(b, env, cmd))
	}
	mb, mc := medianMs(bt), medianMs(ct)
	b.ReportMetric(mb, "base-ms")
	b.ReportMetric(mc, "cmd-ms")
	b.ReportMetric(mc/mb, "ratio")
}

// timeRun runs argv as a process with env and returns how long it took
// from its start to its end; a command that fails ends the benchmark.
func timeRun(b *testing.B, env, argv []string) time.Duration {
	b.Helper()
	c := exec.Command(argv[0], argv[1:]...)
	c.Env = env
	start := time.Now()
	if out, err := c.CombinedOutput(); err != nil {
		b.Fatalf("%s: %v\n%s", strings.Join(argv, " "), err, out)
	}
	return time.Since(start)
}

// medianMs returns the median of ds in milliseconds; it sorts ds.
func medianMs(ds []time.Duration) float64 {
	slices.Sort(ds)
	return float64(ds[len(ds)/2]) / float64(time.Millisecond)
}

// BenchmarkStartVersion times "version" of lsfc and of lsfc-client
// against the empty program's start.
func BenchmarkStartVersion(b *testing.B) {
	bins := buildStartupBins(b)
	for _, bin := range []string{bins.client, bins.lsfc} {
		b.Run(filepath.Base(bin), func(b *testing.B) {
			benchPair(b, os.Environ(), []string{bins.empty}, []string{bin, "version"})
		})
	}
}

// BenchmarkStartBsub times "bsub -H true" (a trivial job, held so that
// nothing runs while commands are timed) against an idle daemon, through
// the bsub name of lsfc-client and of lsfc.
func BenchmarkStartBsub(b *testing.B) {
	bins := buildStartupBins(b)
	state := startDemoDaemon(b)
	env := append(os.Environ(), "LSFC_STATE="+state)
	for _, bin := range []string{bins.client, bins.lsfc} {
		b.Run(filepath.Base(bin), func(b *testing.B) {
			benchPair(b, env, []string{bins.empty}, []string{bin, "bsub", "-H", "-o", "/dev/null", "true"})
		})
	}
}

// BenchmarkStartBjobs1000 times "bjobs -u all" listing 1,000 jobs.
func BenchmarkStartBjobs1000(b *testing.B) {
	bins := buildStartupBins(b)
	state := startDemoDaemon(b)
	c := api.Dial(state)
	for i := range 1000 {
		if _, err := c.Submit(context.Background(), &api.SubmitRequest{Command: "true", Hold: true, Cwd: os.TempDir()}); err != nil {
			b.Fatalf("submission %d: %v", i, err)
		}
	}
	env := append(os.Environ(), "LSFC_STATE="+state)
	for _, bin := range []string{bins.client, bins.lsfc} {
		b.Run(filepath.Base(bin), func(b *testing.B) {
			benchPair(b, env, []string{bins.empty}, []string{bin, "bjobs", "-u", "all"})
		})
	}
}

// BenchmarkStartBhostsR times the what-if of a requirement on the live
// state of an idle daemon, bhosts -R through lsfc-client, beside lsid (a
// process start and one API round trip that evaluates nothing).
func BenchmarkStartBhostsR(b *testing.B) {
	bins := buildStartupBins(b)
	state := startDemoDaemon(b)
	env := append(os.Environ(), "LSFC_STATE="+state)
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"bhosts-R", []string{"bhosts", "-R", "select[ssd && mem>1000] order[ut]"}},
		{"lsid", []string{"lsid"}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			benchPair(b, env, []string{bins.empty}, append([]string{bins.client}, tc.args...))
		})
	}
}

// BenchmarkResReqMatchCached times lsfc resreq match --conf on the demo
// tree against lsfc's own start (lsfc version), in each op one run of
// each: with the environment cache warm, and with no cache directory to
// keep one in.
func BenchmarkResReqMatchCached(b *testing.B) {
	bins := buildStartupBins(b)
	repo := filepath.Join("..", "..")
	args := []string{bins.lsfc, "resreq", "match", "-R", "select[ssd && mem>1000] order[ut]",
		"--hosts", filepath.Join(repo, "testdata", "hosts", "demo.yaml"), "--conf", filepath.Join(repo, "testdata", "clusters", "demo")}
	var base []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "XDG_CACHE_HOME=") && !strings.HasPrefix(kv, "HOME=") {
			base = append(base, kv)
		}
	}
	cached := append(slices.Clone(base), "XDG_CACHE_HOME="+b.TempDir())
	uncached := append(slices.Clone(base), "HOME="+filepath.Join(b.TempDir(), "absent"))
	timeRun(b, cached, args) // fills the cache
	var vt, ct, ut []time.Duration
	for b.Loop() {
		vt = append(vt, timeRun(b, base, []string{bins.lsfc, "version"}))
		ct = append(ct, timeRun(b, cached, args))
		ut = append(ut, timeRun(b, uncached, args))
	}
	mv, mc, mu := medianMs(vt), medianMs(ct), medianMs(ut)
	b.ReportMetric(mv, "version-ms")
	b.ReportMetric(mc, "cached-ms")
	b.ReportMetric(mu, "uncached-ms")
	b.ReportMetric(mc/mv, "cached-ratio")
	b.ReportMetric(mu/mv, "uncached-ratio")
}

// floorSource is the least Go client of the daemon: it dials the socket
// (its first argument), sends one request by hand (its second: "status",
// as lsid asks, or "submit", a held job as bsub -H sends) and reads the
// answer, with nothing but the runtime, net and os linked. A client built
// in Go can hardly start and be answered faster; BenchmarkStartFloor puts
// it beside the commands.
const floorSource = `package main

import (
	"bytes"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
)

func main() {
	c, err := net.Dial("unix", os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	req := "GET /v1/status HTTP/1.1\r\nHost: lsfc\r\nConnection: close\r\n\r\n"
	if os.Args[2] == "submit" {
		body := "{\"command\":\"true\",\"hold\":true,\"cwd\":\"/tmp\",\"stdout\":\"/dev/null\",\"token\":\"floor-" + strconv.Itoa(os.Getpid()) + "-" + os.Args[3] + "\"}"
		req = "POST /v1/jobs HTTP/1.1\r\nHost: lsfc\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: " +
			strconv.Itoa(len(body)) + "\r\n\r\n" + body
	}
	if _, err := io.WriteString(c, req); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	answer, err := io.ReadAll(c)
	if err != nil || !bytes.HasPrefix(answer, []byte("HTTP/1.1 200 ")) {
		fmt.Fprintf(os.Stderr, "%v: %q\n", err, answer)
		os.Exit(1)
	}
}
`

// buildFloor builds floorSource into a temporary directory.
func buildFloor(tb testing.TB) string {
	tb.Helper()
	src := filepath.Join(tb.TempDir(), "floor")
	if err := os.Mkdir(src, 0o755); err != nil {
		tb.Fatal(err)
	}
	for name, text := range map[string]string{"go.mod": "module floor\n\ngo 1.26\n", "main.go": floorSource} {
		if err := os.WriteFile(filepath.Join(src, name), []byte(text), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	bin := filepath.Join(src, "floor-bin")
	// Linked statically, as lsfc-client is: a dynamic link alone costs
	// more than the request.
	build := exec.Command("go", "build", "-tags", "netgo,osusergo", "-o", bin, ".")
	build.Dir = src
	if out, err := build.CombinedOutput(); err != nil {
		tb.Fatalf("go build (floor client): %v\n%s", err, out)
	}
	return bin
}

// BenchmarkStartFloor times, in each op, the empty program, the least Go
// client (floorSource) and lsfc-client's command asking the same of an
// idle daemon: lsid against a status request, bsub -H against a held
// job's submission (acknowledged once durable). It reports the three
// medians and the ratios to the empty program: the floor's ratio bounds
// what any Go client of the daemon can reach on this machine.
func BenchmarkStartFloor(b *testing.B) {
	bins := buildStartupBins(b)
	floor := buildFloor(b)
	state := startDemoDaemon(b)
	sock := api.SocketPath(state)
	env := append(os.Environ(), "LSFC_STATE="+state)
	for _, tc := range []struct {
		name, req string
		cmd       []string
	}{
		{"lsid", "status", []string{bins.client, "lsid"}},
		{"bsub", "submit", []string{bins.client, "bsub", "-H", "-o", "/dev/null", "true"}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			var et, ft, ct []time.Duration
			n := 0
			for b.Loop() {
				n++
				et = append(et, timeRun(b, env, []string{bins.empty}))
				ft = append(ft, timeRun(b, env, []string{floor, sock, tc.req, strconv.Itoa(n)}))
				ct = append(ct, timeRun(b, env, tc.cmd))
			}
			me, mf, mc := medianMs(et), medianMs(ft), medianMs(ct)
			b.ReportMetric(me, "empty-ms")
			b.ReportMetric(mf, "floor-ms")
			b.ReportMetric(mc, "cmd-ms")
			b.ReportMetric(mf/me, "floor-ratio")
			b.ReportMetric(mc/me, "cmd-ratio")
		})
	}
}

// celFloorSource is a program that links CEL, as lsfc must (lint, resreq
// and serve compile select expressions with it), and does nothing:
// linking cel-go brings its packages' initialisation and protobuf's
// registry of descriptors into every start. BenchmarkStartLinkFloor puts
// it beside lsfc version.
const celFloorSource = `package main

import "cel.dev/cel-go/cel"

var newEnv = cel.NewEnv

func main() {
	if newEnv == nil {
		panic("unreachable")
	}
}
`

// BenchmarkStartLinkFloor times, in each op, the empty program, the
// program that only links CEL (celFloorSource, built with this module's
// cel-go) and lsfc version. Its cel-ratio bounds what lsfc version can
// reach while lsfc holds the commands that compile expressions.
func BenchmarkStartLinkFloor(b *testing.B) {
	bins := buildStartupBins(b)
	dir := b.TempDir()
	src := filepath.Join(dir, "celfloor.go")
	if err := os.WriteFile(src, []byte(celFloorSource), 0o644); err != nil {
		b.Fatal(err)
	}
	cel := filepath.Join(dir, "celfloor")
	// Built from this package's directory, so that the file resolves its
	// import through this module's go.mod.
	if out, err := exec.Command("go", "build", "-o", cel, src).CombinedOutput(); err != nil {
		b.Fatalf("go build (CEL floor): %v\n%s", err, out)
	}
	var et, lt, vt []time.Duration
	for b.Loop() {
		et = append(et, timeRun(b, os.Environ(), []string{bins.empty}))
		lt = append(lt, timeRun(b, os.Environ(), []string{cel}))
		vt = append(vt, timeRun(b, os.Environ(), []string{bins.lsfc, "version"}))
	}
	me, ml, mv := medianMs(et), medianMs(lt), medianMs(vt)
	b.ReportMetric(me, "empty-ms")
	b.ReportMetric(ml, "cel-ms")
	b.ReportMetric(mv, "version-ms")
	b.ReportMetric(ml/me, "cel-ratio")
	b.ReportMetric(mv/me, "version-ratio")
}
