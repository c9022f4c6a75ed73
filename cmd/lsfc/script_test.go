package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lsfc/lsfc/internal/etcdtest"
	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/localexec"
	"github.com/rogpeppe/go-internal/testscript"
)

func TestMain(m *testing.M) {
	// Daemons started in-process by the tests run their jobs' wrappers
	// as this binary with WrapperArg.
	if len(os.Args) > 1 && os.Args[1] == localexec.WrapperArg {
		os.Exit(localexec.WrapperMain(os.Args[2:]))
	}
	testscript.Main(m, scriptCommands)
}

// scriptCommands are the programs the scripts run, this binary under
// their names. lsfc serve, run by the scripts, finds the job starter next
// to itself, in the scripts' bin directory, as in an installation
// (and lsfc-master, serve_master_test.go).
var scriptCommands = map[string]func(){
	"lsfc":                func() { os.Exit(Main()) },
	localexec.StarterName: func() { os.Exit(localexec.WrapperMain(os.Args[1:])) },
}

// TestScripts runs the command-line scripts of testdata/script. $DEMO is
// the bundled demo tree.
func TestScripts(t *testing.T) {
	demo, err := filepath.Abs(filepath.Join("..", "..", "testdata", "clusters", "demo"))
	if err != nil {
		t.Fatal(err)
	}
	workloads, err := filepath.Abs(filepath.Join("..", "..", "testdata", "workloads"))
	if err != nil {
		t.Fatal(err)
	}
	editors, err := filepath.Abs(filepath.Join("..", "..", "editors"))
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir: filepath.Join("..", "..", "testdata", "script"),
		Setup: func(env *testscript.Env) error {
			env.Setenv("DEMO", demo)
			env.Setenv("WORKLOADS", workloads)
			env.Setenv("EDITORS", editors)
			env.Setenv("LSF_ENVDIR", "")
			return nil
		},
		UpdateScripts: testkit.Updating(),
		Cmds: map[string]func(*testscript.TestScript, bool, []string){"exitcode": exitCode, "waitdaemon": waitDaemon,
			"waitjob": scriptWaitJob, "etcd": scriptEtcd, "freeport": freePort,
			"waitload": scriptWaitLoad, "timeat": scriptTimeAt, "hourwindow": scriptHourWindow},
	})
}

// exitCode runs "exitcode N PROGRAM ARGS..." and checks that PROGRAM exits
// with status N; its output is then matched as exec's is.
func exitCode(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exitcode N program [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exitcode: %v", err)
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exitcode: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited with %d, want %d", args[1], got, want)
	}
}

// waitDaemon waits until the lsfc serve of $LSFC_STATE answers.
func waitDaemon(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: waitdaemon")
	}
	c := scriptClient(ts)
	deadline := time.Now().Add(20 * time.Second)
	for {
		if _, err := c.Status(context.Background()); err == nil {
			return
		} else if time.Now().After(deadline) {
			ts.Fatalf("waitdaemon: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// scriptWaitJob runs "waitjob ID STATE..." and waits until the job of
// $LSFC_STATE's daemon is in one of the states; POST_DONE and POST_ERR
// are states of its post-execution commands.
func scriptWaitJob(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: waitjob ID STATE...")
	}
	job, indices, err := api.ParseJobIDList(args[0])
	if err != nil || len(indices) > 1 {
		ts.Fatalf("waitjob: %q: want a job ID or one array element, ID[INDEX]", args[0])
	}
	id := job
	if len(indices) == 1 {
		id = api.ElementID(job, indices[0])
	}
	c := scriptClient(ts)
	deadline := time.Now().Add(20 * time.Second)
	for {
		j, err := c.Job(context.Background(), id)
		if err == nil && (slices.Contains(args[1:], j.State) || j.PostExec != "" && slices.Contains(args[1:], j.PostExec)) {
			return
		}
		if time.Now().After(deadline) {
			if err != nil {
				ts.Fatalf("waitjob: %v", err)
			}
			ts.Fatalf("waitjob: job %s is %s (%s), not %v", args[0], j.State, j.Reason, args[1:])
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// scriptWaitLoad runs "waitload HOST" and waits until the daemon has a
// load report of the host: its agent (lsfc sbatchd) has reached the
// master.
func scriptWaitLoad(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: waitload HOST")
	}
	c := scriptClient(ts)
	deadline := time.Now().Add(20 * time.Second)
	for {
		hosts, err := c.Hosts(context.Background())
		for _, h := range hosts {
			if h.Name == args[0] && len(h.Load) > 0 {
				return
			}
		}
		if time.Now().After(deadline) {
			ts.Fatalf("waitload: no load of %s (%v)", args[0], err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// scriptClient is a client of the daemon the script's LSF commands talk
// to: the master candidates of $LSFC_MASTER, else the daemon of
// $LSFC_STATE.
func scriptClient(ts *testscript.TestScript) *api.Client {
	if m := ts.Getenv("LSFC_MASTER"); m != "" {
		return api.DialTCP(m, ts.Getenv("LSFC_SECRET"), currentUser())
	}
	return api.Dial(ts.Getenv("LSFC_STATE"))
}

// scriptEtcd runs "etcd N": it starts an etcd cluster of N embedded
// members for the script and sets $ETCD to their client URLs.
func scriptEtcd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: etcd N")
	}
	n, err := strconv.Atoi(args[0])
	if err != nil || n < 1 {
		ts.Fatalf("etcd: bad member count %q", args[0])
	}
	c, err := etcdtest.Launch(n, ts.MkAbs("etcd-data"))
	if err != nil {
		ts.Fatalf("etcd: %v", err)
	}
	ts.Defer(c.Close)
	ts.Setenv("ETCD", strings.Join(c.Endpoints, ","))
}

// freePort runs "freeport NAME...": each NAME is set to a loopback
// address whose port was free a moment ago.
// scriptTimeAt runs "timeat NAME MINUTES": it sets $NAME to the time
// MINUTES from now, as brsvadd -b and -e take it
// (year:month:day:hour:minute, local time).
func scriptTimeAt(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: timeat NAME MINUTES")
	}
	m, err := strconv.Atoi(args[1])
	if err != nil {
		ts.Fatalf("timeat: %v", err)
	}
	t := time.Now().Add(time.Duration(m) * time.Minute)
	ts.Setenv(args[0], t.Format("2006:1:2:15:4"))
}

// scriptHourWindow runs "hourwindow NAME": it sets $NAME to a daily
// window of brsvadd -t that is open now and for at least an hour: from
// the start of this hour (UTC, the cluster's time) to two hours on.
func scriptHourWindow(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: hourwindow NAME")
	}
	h := time.Now().UTC().Hour()
	ts.Setenv(args[0], fmt.Sprintf("%d:0-%d:0", h, (h+2)%24))
}

func freePort(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) == 0 {
		ts.Fatalf("usage: freeport NAME...")
	}
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	for _, name := range args {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			ts.Fatalf("freeport: %v", err)
		}
		ls = append(ls, l)
		ts.Setenv(name, l.Addr().String())
	}
}
