package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lsfc/lsfc/runtime/api"
)

// fakeServe answers the API on the socket of a state directory with the
// fixture jobs, queues and hosts, as lsfc serve would.
type fakeServe struct {
	mu      sync.Mutex
	subs    []api.SubmitRequest
	polls   map[int64]int // GET /v1/jobs/{id} calls so far
	formats []string      // the Format of each job list asked for
	fields  [][]string    // the Fields of each job list asked for
	// allFields makes the job lists carry every field, whatever they ask
	// for.
	allFields bool
	// limitQueries are the queries of each limit list asked for.
	limitQueries []url.Values
	// noExecHost leaves LSB_SUBK_SHOW_EXEC_HOST=Y out of lsf.conf.
	noExecHost bool
}

func (f *fakeServe) handler() http.Handler {
	mux := http.NewServeMux()
	reply := func(w http.ResponseWriter, code int, v any) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		json.NewEncoder(w).Encode(v)
	}
	mux.HandleFunc("POST /v1/jobs", func(w http.ResponseWriter, r *http.Request) {
		var req api.SubmitRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			reply(w, 400, api.Error{Error: err.Error()})
			return
		}
		if req.Queue == "closed" {
			reply(w, 400, api.Error{Error: "closed: The queue has been closed; job not submitted"})
			return
		}
		f.mu.Lock()
		f.subs = append(f.subs, req)
		f.mu.Unlock()
		id := map[string]int64{"done": 2001, "fail": 2002, "killed": 2003}[req.Name]
		if id == 0 {
			id = 1001
		}
		queue := req.Queue
		if queue == "" {
			queue = "normal"
		}
		reply(w, 200, api.SubmitResponse{ID: id, Queue: queue, Default: req.Queue == ""})
	})
	mux.HandleFunc("GET /v1/jobs", func(w http.ResponseWriter, r *http.Request) {
		q, err := api.ParseJobQuery(r.URL.Query())
		if err != nil {
			reply(w, 400, api.Error{Error: err.Error()})
			return
		}
		f.mu.Lock()
		f.formats = append(f.formats, q.Format)
		f.fields = append(f.fields, q.Fields)
		all := f.allFields
		f.mu.Unlock()
		// The fields asked for, and no other, as the daemon sends them.
		var mask api.JobFieldMask
		if !all {
			mask, _ = api.ParseJobFieldMask(strings.Join(q.Fields, ","))
		}
		out := []api.Job{}
		for _, j := range fixtureJobs() {
			if len(q.IDs) > 0 && !slices.Contains(q.IDs, j.ID) {
				continue
			}
			if len(q.IDs) == 0 && !q.All && finishedState(j.State) {
				continue
			}
			mask.Apply(&j)
			out = append(out, j)
		}
		reply(w, 200, out)
	})
	mux.HandleFunc("GET /v1/jobs/{id}", func(w http.ResponseWriter, r *http.Request) {
		id, _ := strconv.ParseInt(r.PathValue("id"), 10, 64)
		f.mu.Lock()
		n := f.polls[id]
		f.polls[id]++
		f.mu.Unlock()
		// Jobs 2001-2003 move on at each poll: pending, running, ended.
		j := api.Job{ID: id, User: "ann", Queue: "normal", State: "PEND", Submit: fixtureTime}
		switch {
		case id == 2003 && n >= 1:
			j.State, j.Term = "EXIT", "TERM_OWNER"
		case id >= 2001 && id <= 2002 && n >= 1:
			j.State, j.Start, j.ExecHosts = "RUN", fixtureTime+1, []string{"hostB"}
			if n >= 2 && id == 2001 {
				j.State = "DONE"
			}
			if n >= 2 && id == 2002 {
				j.State, j.ExitCode = "EXIT", 3
			}
		case id < 2000:
			for _, fj := range fixtureJobs() {
				if fj.ID == id {
					reply(w, 200, fj)
					return
				}
			}
			reply(w, 404, api.Error{Error: fmt.Sprintf("Job <%d> is not found", id)})
			return
		}
		reply(w, 200, j)
	})
	mux.HandleFunc("GET /v1/conf", func(w http.ResponseWriter, r *http.Request) {
		conf := map[string]string{"LSF_UNIT_FOR_LIMITS": "MB", "LSB_MBD_PORT": "6881", "LSB_SUBK_SHOW_EXEC_HOST": "Y"}
		f.mu.Lock()
		if f.noExecHost {
			delete(conf, "LSB_SUBK_SHOW_EXEC_HOST")
		}
		f.mu.Unlock()
		reply(w, 200, conf)
	})
	mux.HandleFunc("GET /v1/perf", func(w http.ResponseWriter, r *http.Request) {
		reply(w, 200, api.Perf{Since: fixtureTime, Requests: []api.RequestStats{
			{Kind: "job query", Count: 120, P50: 0.0004, P90: 0.0012, P99: 0.0031, Max: 0.0125},
			{Kind: "submit", Count: 5, P50: 0.002, P90: 0.003, P99: 0.003, Max: 0.003}}})
	})
	mux.HandleFunc("POST /v1/jobs/{id}/{action}", func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		switch {
		case id == "1005":
			reply(w, 403, api.Error{Error: "Job <1005>: User permission denied"})
		case id == "404":
			reply(w, 404, api.Error{Error: "Job <404>: No matching job found"})
		case r.PathValue("action") == "kill":
			reply(w, 200, api.ActionResponse{Message: "Job <" + id + "> is being terminated"})
		default:
			reply(w, 200, api.ActionResponse{Message: "Job <" + id + "> " + r.PathValue("action")})
		}
	})
	mux.HandleFunc("GET /v1/queues", func(w http.ResponseWriter, r *http.Request) { reply(w, 200, fixtureQueues()) })
	mux.HandleFunc("POST /v1/queues/{name}/{op}", func(w http.ResponseWriter, r *http.Request) {
		if r.PathValue("name") != "normal" {
			reply(w, 404, api.Error{Error: r.PathValue("name") + ": No such queue"})
			return
		}
		reply(w, 200, api.ActionResponse{Message: "Queue <normal> is closed"})
	})
	mux.HandleFunc("GET /v1/hosts", func(w http.ResponseWriter, r *http.Request) { reply(w, 200, fixtureHosts()) })
	mux.HandleFunc("GET /v1/limits", func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.limitQueries = append(f.limitQueries, r.URL.Query())
		f.mu.Unlock()
		out := []api.Limit{}
		for _, l := range fixtureLimits() {
			if names := r.URL.Query()["name"]; len(names) == 0 || slices.Contains(names, l.Name) {
				out = append(out, l)
			}
		}
		reply(w, 200, out)
	})
	mux.HandleFunc("GET /v1/status", func(w http.ResponseWriter, r *http.Request) {
		reply(w, 200, api.Status{Cluster: "demo", Master: "hostA", StateDir: "/state", Jobs: 4, Running: 1, Pending: 1})
	})
	mux.HandleFunc("GET /v1/params", func(w http.ResponseWriter, r *http.Request) {
		reply(w, 200, map[string]string{"RESOURCE_RESERVE_PER_TASK": "N", "MBD_SLEEP_TIME": "10"})
	})
	mux.HandleFunc("GET /v1/apps", func(w http.ResponseWriter, r *http.Request) { reply(w, 200, fixtureApps()) })
	mux.HandleFunc("GET /v1/cluster", func(w http.ResponseWriter, r *http.Request) { reply(w, 200, fixtureCluster()) })
	return mux
}

// startFakeServe serves a fakeServe in a new state directory and returns
// the directory.
func startFakeServe(t *testing.T) (*fakeServe, string) {
	t.Helper()
	dir := t.TempDir()
	if len(dir) > 90 { // the Unix socket path limit
		d, err := os.MkdirTemp("/tmp", "lsfc")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(d) })
		dir = d
	}
	if err := os.MkdirAll(api.RunDir(dir), 0o755); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("unix", api.SocketPath(dir))
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeServe{polls: map[int64]int{}}
	srv := httptest.NewUnstartedServer(f.handler())
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)
	return f, dir
}

// runLSF runs lsfc with args and the environment vars, and returns its
// exit code, standard output and standard error.
func runLSF(t *testing.T, vars map[string]string, args ...string) (int, string, string) {
	t.Helper()
	var stdout, stderr bytes.Buffer
	e := env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr, getenv: func(k string) string { return vars[k] }}
	code := run(args, e)
	return code, stdout.String(), stderr.String()
}

func TestLSFCommands(t *testing.T) {
	f, dir := startFakeServe(t)
	st := []string{"--state", dir}
	for _, tc := range []struct {
		name         string
		args         []string
		code         int
		stdout       string
		stderrSubstr string
	}{
		{"bsub queue", []string{"bsub", "-q", "normal", "echo", "hi"}, 0, "Job <1001> is submitted to queue <normal>.\n", ""},
		{"bsub default queue", []string{"bsub", "-cwd", ".", "-M", "2147MB", "true"}, 0, "Job <1001> is submitted to default queue <normal>.\n", ""},
		{"bsub -M in the cluster's unit", []string{"bsub", "-M", "100", "true"}, 0, "Job <1001> is submitted to default queue <normal>.\n", ""},
		{"bsub rejected", []string{"bsub", "-q", "closed", "true"}, exitLSF, "", "closed: The queue has been closed; job not submitted\n"},
		{"bsub bad option", []string{"bsub", "-Z", "true"}, exitUsage, "", `bsub: unknown option "-Z"`},
		{"bsub -K done", []string{"bsub", "-K", "-J", "done", "true"}, 0, "Job <2001> is submitted to default queue <normal>.\n",
			"<<Waiting for dispatch ...>>\n<<Starting on hostB>>\n<<Job is finished>>\n"},
		{"bsub -K exit code", []string{"bsub", "-K", "-J", "fail", "false"}, 3, "Job <2002> is submitted to default queue <normal>.\n",
			"<<Starting on hostB>>\n<<Job is finished>>\n"},
		{"bsub -K killed pending", []string{"bsub", "-K", "-J", "killed", "true"}, 126, "Job <2003> is submitted to default queue <normal>.\n",
			"<<Waiting for dispatch ...>>\n<<Terminated while pending>>\n"},
		{"bjobs stat", []string{"bjobs", "-o", "stat", "-noheader", "1003"}, 0, "DONE\n", ""},
		{"bjobs json unknown", []string{"bjobs", "-json", "-o", "jobid stat", "1003", "404"}, 0,
			"{\n  \"COMMAND\":\"bjobs\",\n  \"JOBS\":2,\n  \"RECORDS\":[\n    {\n      \"JOBID\":\"1003\",\n      \"STAT\":\"DONE\"\n    },\n    {\n      \"ERROR\":\"Job <404> is not found\"\n    }\n  ]\n}\n", ""},
		{"bjobs unknown", []string{"bjobs", "404"}, exitLSF, "", "Job <404> is not found\n"},
		{"bjobs -o aliases", []string{"bjobs", "-o", "jobid name stat", "1003"}, 0, "JOBID JOB_NAME STAT\n1003 ok DONE\n", ""},
		{"bjobs -o aliases widths", []string{"bjobs", "-o", "ID: NAME:- stat:", "1003"}, 0,
			"JOBID     JOB_NAME STAT\n1003            ok DONE\n", ""},
		{"bjobs -o refused field", []string{"bjobs", "-o", "jobid pids", "1003"}, exitUsage, "", `field "pids" is not supported by lsfc`},
		{"bjobs submitted line", []string{"bjobs", "-o", "jobid stat", "-noheader", "Job <1004> is submitted to queue <normal>."}, 0, "1004 EXIT\n", ""},
		{"bjobs bad id", []string{"bjobs", "x1"}, exitLSF, "", "x1: Illegal job ID.\n"},
		{"bjobs pending", []string{"bjobs", "-p", "-noheader", "-o", "jobid"}, 0, "1002\n", ""},
		{"bjobs exceptions", []string{"bjobs", "-x", "-a", "-noheader", "-o", "jobid stat"}, 0, "1004 EXIT\n", ""},
		{"bjobs no exception", []string{"bjobs", "-x"}, 0, "", "No job with an exception found\n"},
		{"bjobs -J", []string{"bjobs", "-a", "-J", "toil_job_*", "-noheader", "-o", "jobid"}, 0, "1001\n", ""},
		{"bjobs -J command", []string{"bjobs", "-J", "python3 *.py*", "-noheader", "-o", "jobid"}, 0, "1002\n", ""},
		{"bjobs -J none", []string{"bjobs", "-a", "-J", "nosuch"}, 0, "", "Job <nosuch> is not found\n"},
		{"bjobs -sum", []string{"bjobs", "-sum"}, 0, "RUN        SSUSP       USUSP      UNKNOWN    PEND       FWD_PEND  PSUSP    \n" +
			"3          0           0          0          1          0         0        \n", ""},
		{"bkill", []string{"bkill", "1001", "1002"}, 0, "Job <1001> is being terminated\nJob <1002> is being terminated\n", ""},
		{"bkill denied", []string{"bkill", "1005", "1001"}, exitLSF, "Job <1001> is being terminated\n", "Job <1005>: User permission denied\n"},
		{"bkill all", []string{"bkill", "0"}, 0, "Job <1001> is being terminated\nJob <1002> is being terminated\n", ""},
		{"btop position", []string{"btop", "1002", "3"}, exitUsage, "", "only position 1 is supported"},
		{"bswitch", []string{"bswitch", "short", "1002"}, 0, "Job <1002> switch\n", ""},
		{"bmod nothing", []string{"bmod", "1002"}, exitUsage, "", "nothing to change"},
		{"bmod", []string{"bmod", "-n", "2", "1002"}, 0, "Job <1002> modify\n", ""},
		{"bmod min,max", []string{"bmod", "-n", "2,4", "1002"}, exitUsage, "", "bmod changes the number of tasks to one number"},
		{"bresize bad spec", []string{"bresize", "release", "0*hostA", "1002"}, exitLSF, "", "want N*host"},
		{"bresize bad range", []string{"bresize", "request", "4,2", "1002"}, exitLSF, "", "want [MIN,]MAX"},
		{"bresize no subcommand", []string{"bresize"}, exitLSF, "", "give a subcommand"},
		{"bqueues missing", []string{"bqueues", "normal", "nosuch"}, exitLSF,
			"QUEUE_NAME      PRIO STATUS          MAX JL/U JL/P JL/H NJOBS  PEND   RUN  SUSP\nnormal           30  Open:Active       -    -    -    -     4     1     3     0\n",
			"nosuch: No such queue\n"},
		{"bhosts missing", []string{"bhosts", "-json", "nosuch"}, exitLSF, "{\n  \"COMMAND\":\"bhosts\",\n  \"HOSTS\":0,\n  \"RECORDS\":[]\n}\n",
			"nosuch: Bad host name, host group name or cluster name\n"},
		{"badmin qclose", []string{"badmin", "qclose", "normal", "nosuch"}, exitLSF, "Queue <normal> is closed\n", "nosuch: No such queue\n"},
		{"badmin unknown", []string{"badmin", "reconfigure"}, exitUsage, "", `unknown subcommand "reconfigure"`},
		{"bparams", []string{"bparams", "-a"}, 0, "MBD_SLEEP_TIME = 10\nRESOURCE_RESERVE_PER_TASK = N\n", ""},
		{"lsadmin showconf", []string{"lsadmin", "showconf", "lim"}, 0, "LSB_MBD_PORT = 6881\nLSB_SUBK_SHOW_EXEC_HOST = Y\nLSF_UNIT_FOR_LIMITS = MB\n", ""},
		{"lsadmin other", []string{"lsadmin", "reconfig"}, exitUsage, "", "only showconf lim"},
		{"badmin perfmon", []string{"badmin", "perfmon", "view"}, 0, "Requests served since " + time.Unix(fixtureTime, 0).Format("Mon Jan _2 15:04:05 2006") + "\n\n" +
			"REQUEST            COUNT    P50_MS    P90_MS    P99_MS    MAX_MS\n" +
			"job query            120      0.40      1.20      3.10     12.50\n" +
			"submit                 5      2.00      3.00      3.00      3.00\n", ""},
		{"badmin perfmon start", []string{"badmin", "perfmon", "start"}, exitUsage, "", "only perfmon view"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{tc.args[0]}, append(slices.Clone(st), tc.args[1:]...)...)
			code, stdout, stderr := runLSF(t, nil, args...)
			if code != tc.code {
				t.Errorf("exit code = %d, want %d (stderr %q)", code, tc.code, stderr)
			}
			if stdout != tc.stdout {
				t.Errorf("stdout mismatch\n got: %q\nwant: %q", stdout, tc.stdout)
			}
			if !strings.Contains(stderr, tc.stderrSubstr) || (tc.stderrSubstr == "" && stderr != "") {
				t.Errorf("stderr = %q, want %q in it", stderr, tc.stderrSubstr)
			}
		})
	}

	// What bsub sent: the command words joined, the process's context.
	wd, _ := os.Getwd()
	sub := f.subs[0]
	if sub.Command != "echo hi" || sub.Queue != "normal" || sub.Cwd != wd || len(sub.Env) == 0 || sub.FromHost == "" {
		t.Errorf("first submission = %+v, want echo hi in normal from %s with the environment", sub, wd)
	}
	if sub := f.subs[1]; sub.MemLimit != 2147 || sub.Cwd != wd {
		t.Errorf("second submission: MemLimit %g, Cwd %q; want 2147 and %q", sub.MemLimit, sub.Cwd, wd)
	}
	// The fixture's lsf.conf has LSF_UNIT_FOR_LIMITS = MB.
	if sub := f.subs[2]; sub.MemLimit != 100 {
		t.Errorf("-M 100: MemLimit %g MB, want 100 (LSF_UNIT_FOR_LIMITS = MB)", sub.MemLimit)
	}
}

// TestLsid checks lsid's shape: LSF's first line, which Toil reads the
// release from, lsfc's version, then the cluster and the master.
func TestLsid(t *testing.T) {
	_, dir := startFakeServe(t)
	code, stdout, stderr := runLSF(t, nil, "lsid", "--state", dir)
	if code != 0 || stderr != "" {
		t.Fatalf("lsid: exit %d, stderr %q", code, stderr)
	}
	lines := strings.Split(stdout, "\n")
	first := regexp.MustCompile(`^IBM Spectrum LSF Standard 10\.1\.0\.\d+, [A-Z][a-z]{2} \d{2} \d{4}$`)
	if len(lines) != 6 || !first.MatchString(lines[0]) {
		t.Fatalf("lsid printed %q, want LSF's first line \"IBM Spectrum LSF Standard 10.1.0.N, Mon DD YYYY\"", stdout)
	}
	// Toil's version check: the text between "Standard " and the comma.
	if m := regexp.MustCompile(`IBM Spectrum LSF Standard (.*),`).FindStringSubmatch(stdout); m == nil || m[1] != lsfLevel {
		t.Errorf("Toil's pattern finds %q, want %q", m, lsfLevel)
	}
	want := []string{"lsfc " + version() + ", an implementation of IBM Spectrum LSF's commands", "",
		"My cluster name is demo", "My master name is hostA", ""}
	if got := lines[1:]; !slices.Equal(got, want) {
		t.Errorf("lsid after the first line:\n got: %q\nwant: %q", got, want)
	}
	if got := lsidBanner(time.Date(2022, 4, 5, 12, 0, 0, 0, time.UTC)); !strings.HasPrefix(got, "IBM Spectrum LSF Standard "+lsfLevel+", Apr 05 2022\n") {
		t.Errorf("lsidBanner(5 April 2022) = %q, want the date as Apr 05 2022", got)
	}
}

// TestBjobsJSONFormat checks that bjobs -json says so in its query, so
// that the daemon counts its requests apart (badmin perfmon view).
func TestBjobsJSONFormat(t *testing.T) {
	f, dir := startFakeServe(t)
	for _, args := range [][]string{
		{"bjobs", "--state", dir, "-json", "-o", "user exit_code stat exit_reason pend_reason", "1003"},
		{"bjobs", "--state", dir, "-l", "1003"},
		{"bjobs", "--state", dir, "-o", "stat", "-noheader", "1003"},
	} {
		if code, _, stderr := runLSF(t, nil, args...); code != 0 {
			t.Fatalf("%v: exit %d, stderr %q", args, code, stderr)
		}
	}
	if want := []string{"json", "", ""}; !slices.Equal(f.formats, want) {
		t.Errorf("formats asked for = %q, want %q", f.formats, want)
	}
}

// TestBjobsFewFields checks that a listing in the default layout, or
// with -o or -json and no option that needs more, asks for a few fields,
// and prints what it prints with all of them; other layouts ask for
// every field.
func TestBjobsFewFields(t *testing.T) {
	f, dir := startFakeServe(t)
	allColumns := strings.Join(jobFieldNames(), " ")
	for _, tc := range []struct {
		args   []string
		fields []string
	}{
		{nil, api.JobRowFields}, {[]string{"-u", "all"}, api.JobRowFields}, {[]string{"-a"}, api.JobRowFields},
		{[]string{"-w", "-a"}, api.JobRowFields}, {[]string{"-noheader", "-a"}, api.JobRowFields},
		{[]string{"-d"}, api.JobRowFields}, {[]string{"-r"}, api.JobRowFields}, {[]string{"-s"}, api.JobRowFields},
		{[]string{"-q", "normal", "-a"}, api.JobRowFields}, {[]string{"-a", "1001", "1004"}, api.JobRowFields},
		{[]string{"-w", "1002"}, api.JobRowFields},
		{[]string{"-a", "-o", "jobid stat"}, []string{"state"}},
		{[]string{"-a", "-o", "exit_code finish_time delimiter=','"}, []string{"state", "exitCode", "endTime"}},
		{[]string{"-a", "-json"}, []string{"state", "user", "queue", "fromHost", "execHosts", "command", "submitTime"}},
		{[]string{"-a", "-noheader", "-o", allColumns}, nil},
		{[]string{"-json", "-o", allColumns, "1001", "1003", "1004", "9"}, nil},
	} {
		args := append([]string{"bjobs", "--state", dir}, tc.args...)
		var outs [2]string
		for i, all := range []bool{false, true} {
			f.mu.Lock()
			f.allFields, f.fields = all, nil
			f.mu.Unlock()
			code, stdout, stderr := runLSF(t, nil, args...)
			if code != 0 && !slices.Contains(tc.args, "9") {
				t.Fatalf("%v: exit %d, stderr %q", args, code, stderr)
			}
			outs[i] = stdout + stderr
			if len(f.fields) == 0 || len(f.fields[0]) == 0 {
				t.Fatalf("%v asked for every field", args)
			}
			if tc.fields != nil && !slices.Equal(f.fields[0], tc.fields) {
				t.Errorf("%v asked for the fields %q, want %q", args, f.fields[0], tc.fields)
			}
		}
		if outs[0] != outs[1] {
			t.Errorf("%v with the fields asked for:\n%s\nwith all:\n%s", args, outs[0], outs[1])
		}
		if outs[0] == "" {
			t.Errorf("%v printed nothing", args)
		}
	}
	for _, args := range [][]string{{"-l"}, {"-p"}, {"-o", "jobid stat", "-J", "ok"}, {"-json", "-x"}, {"-J", "ok"}, {"-x"}, {"-sum"}, {"-A"}} {
		f.mu.Lock()
		f.fields = nil
		f.mu.Unlock()
		runLSF(t, nil, append([]string{"bjobs", "--state", dir, "-a"}, args...)...)
		if len(f.fields) == 0 || f.fields[0] != nil {
			t.Errorf("bjobs %v asked for the fields %q, want all", args, f.fields)
		}
	}
}

// TestColumnFields checks that each column of -o prints of a job what it
// prints of the job with only the fields columnFields asks for.
func TestColumnFields(t *testing.T) {
	limits := map[string]int64{"CORELIMIT": 1, "DATALIMIT": 2, "FILELIMIT": 3, "STACKLIMIT": 4, "SWAPLIMIT": 5, "PROCESSLIMIT": 6}
	exited := api.Job{ID: api.ElementID(12, 3), Index: 3, Array: "a[1-5]", Name: "a[3]", User: "ann", Queue: "q",
		State: "EXIT", Command: "run\nit", Slots: 4, FromHost: "h", ExecHosts: []string{"x", "x", "y"}, Submit: fixtureTime,
		Start: fixtureTime + 1, End: fixtureTime + 9, ExitCode: 3, Term: "TERM_OWNER", Reason: "r", Cwd: "/c",
		Stdout: "o", Stderr: "e", Depend: "done(1)", CPUTime: 1.5, MaxMem: 20, Project: "p", JobGroup: "/g",
		App: "ap", Sla: "s", Description: "d\ne", Forward: &api.JobForward{Cluster: "c2", Time: fixtureTime, RemoteID: 7},
		Home: &api.JobHome{Cluster: "c0", ID: 9}, ProcLimits: limits, UserGroup: "ug", Priority: 7, Reservation: "r#1",
		PreExecCmd: "pre", PostExecCmd: "post", Input: "in", OutDir: "od", BeginTime: float64(fixtureTime + 5), TermTime: float64(fixtureTime + 99),
		Estimate: 600, RunLimit: 3600, MemLimit: 512, Exceptions: "overrun idle", ExecCwd: "/tmp",
		Resize: &api.JobResize{MinSlots: 2, MaxSlots: 4, Notify: "n"}}
	pending := exited
	pending.ID, pending.Index, pending.Array, pending.Name, pending.State = 5, 0, "", "", "PEND"
	pending.Start, pending.End, pending.Reserved = 0, 0, &api.JobReservation{Start: fixtureTime + 50}
	running := exited
	running.ID, running.State, running.End = 6, "RUN", 0
	a := &lsfArgs{seq: []string{"o"}}
	names := jobFieldNames()
	if len(columnJSONFields) != len(names) {
		t.Errorf("%d columns have their fields, -o knows %d", len(columnJSONFields), len(names))
	}
	for _, name := range names {
		fields := columnFields(a, []jobColumn{{name: name}})
		mask, err := api.ParseJobFieldMask(strings.Join(fields, ","))
		if fields == nil || err != nil {
			t.Errorf("%s: fields %q (%v)", name, fields, err)
			continue
		}
		shown := false
		for _, j := range []api.Job{exited, pending, running} {
			few := j
			mask.Apply(&few)
			got, want := jobFieldAt(name, &few, time.UTC, fixtureTime+700), jobFieldAt(name, &j, time.UTC, fixtureTime+700)
			if got != want {
				t.Errorf("%s of job %s with the fields %q: %q, want %q", name, api.FormatJobID(j.ID), fields, got, want)
			}
			shown = shown || want != ""
		}
		if !shown {
			t.Errorf("%s: no value for any of the jobs, the check proves nothing", name)
		}
	}
}

// TestBjobsFormatFromEnv checks LSB_BJOBS_FORMAT, the -o of a run of
// bjobs that gives none, as the LSB_BJOBS_FORMAT page of the IBM Spectrum
// LSF 10.1 configuration reference describes it: field names and
// aliases as -o takes them, -o taking its place, and the layouts it does
// not apply to (-l, -w ...) left as they are.
func TestBjobsFormatFromEnv(t *testing.T) {
	_, dir := startFakeServe(t)
	env := map[string]string{"LSFC_STATE": dir, "LSB_BJOBS_FORMAT": "id name stat delimiter=','"}
	for _, tc := range []struct {
		args         []string
		code         int
		stdout       string
		stderrSubstr string
	}{
		{[]string{"1003"}, 0, "JOBID,JOB_NAME,STAT\n1003,ok,DONE\n", ""},
		{[]string{"-noheader", "1003", "1004"}, 0, "1003,ok,DONE\n1004,killed,EXIT\n", ""},
		{[]string{"-json", "1003"}, 0, "{\n  \"COMMAND\":\"bjobs\",\n  \"JOBS\":1,\n  \"RECORDS\":[\n    {\n      \"JOBID\":\"1003\",\n" +
			"      \"JOB_NAME\":\"ok\",\n      \"STAT\":\"DONE\"\n    }\n  ]\n}\n", ""},
		{[]string{"-o", "stat", "-noheader", "1003"}, 0, "DONE\n", ""},
		{[]string{"-w", "-noheader", "1003"}, 0, "", ""},
	} {
		code, stdout, stderr := runLSF(t, env, append([]string{"bjobs"}, tc.args...)...)
		if code != tc.code || tc.stdout != "" && stdout != tc.stdout || !strings.Contains(stderr, tc.stderrSubstr) {
			t.Errorf("bjobs %q: exit %d, stdout %q, stderr %q", tc.args, code, stdout, stderr)
		}
		if tc.stdout == "" && (strings.Contains(stdout, ",") || !strings.HasPrefix(stdout, "1003 ")) {
			t.Errorf("bjobs %q took LSB_BJOBS_FORMAT: %q", tc.args, stdout)
		}
	}
	env["LSB_BJOBS_FORMAT"] = "jobid pids"
	if code, _, stderr := runLSF(t, env, "bjobs", "1003"); code != exitUsage || !strings.Contains(stderr, `LSB_BJOBS_FORMAT: field "pids" is not supported by lsfc`) {
		t.Errorf("bad LSB_BJOBS_FORMAT: exit %d, stderr %q", code, stderr)
	}
}

func TestLSFStateFromEnv(t *testing.T) {
	_, dir := startFakeServe(t)
	code, stdout, stderr := runLSF(t, map[string]string{"LSFC_STATE": dir}, "bjobs", "-o", "jobid", "-noheader")
	if code != 0 || stdout != "1001\n1002\n" {
		t.Errorf("LSFC_STATE: exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

func TestLSFNoDaemon(t *testing.T) {
	dir := t.TempDir()
	code, stdout, stderr := runLSF(t, nil, "bjobs", "--state", dir)
	want := "bjobs: no lsfc serve answers at " + dir + ": start one with lsfc serve, or point LSFC_STATE at its state directory\n"
	if code != exitLSF || stdout != "" || stderr != want {
		t.Errorf("exit %d, stdout %q, stderr %q; want %d and %q", code, stdout, stderr, exitLSF, want)
	}
}

func TestLSFHelp(t *testing.T) {
	code, stdout, _ := runLSF(t, nil, "bsub", "-h")
	if code != 0 || !strings.Contains(stdout, "Job <ID> is submitted to queue <QUEUE>.") {
		t.Errorf("bsub -h: exit %d, stdout %q", code, stdout)
	}
}

func TestClientStateDir(t *testing.T) {
	demo, err := filepath.Abs(filepath.Join("..", "..", "testdata", "clusters", "demo"))
	if err != nil {
		t.Fatal(err)
	}
	envDir := t.TempDir()
	share := t.TempDir()
	conf := fmt.Sprintf("LSB_SHAREDIR=%q\n", share)
	if err := os.WriteFile(filepath.Join(envDir, "lsf.conf"), []byte(conf), 0o644); err != nil {
		t.Fatal(err)
	}
	shared := "Begin Cluster\nClusterName\nalpha\nEnd Cluster\n"
	if err := os.WriteFile(filepath.Join(envDir, "lsf.shared"), []byte(shared), 0o644); err != nil {
		t.Fatal(err)
	}
	xdg := t.TempDir()
	t.Setenv("XDG_STATE_HOME", xdg)
	t.Setenv("LSFC_STATE", "")
	for _, tc := range []struct {
		name, flag string
		vars       map[string]string
		want       string
	}{
		{"flag", "/a/b", map[string]string{"LSFC_STATE": "/c"}, "/a/b"},
		{"LSFC_STATE", "", map[string]string{"LSFC_STATE": "/c", "LSF_ENVDIR": envDir}, "/c"},
		{"LSB_SHAREDIR", "", map[string]string{"LSF_ENVDIR": envDir}, filepath.Join(share, "alpha")},
		// demo's LSB_SHAREDIR does not exist here: the per-user directory.
		{"XDG_STATE_HOME", "", map[string]string{"LSF_ENVDIR": demo}, filepath.Join(xdg, "lsfc", "demo")},
		{"no tree", "", nil, filepath.Join(xdg, "lsfc", "lsfc")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := env{getenv: func(k string) string { return tc.vars[k] }}
			got, err := clientStateDir(e, tc.flag)
			if err != nil || got != tc.want {
				t.Errorf("clientStateDir = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

// TestBsubKExecHost: bsub -K says where its job starts only when the
// daemon's lsf.conf sets LSB_SUBK_SHOW_EXEC_HOST=Y, as LSF's installation
// does; LSF's default is N.
func TestBsubKExecHost(t *testing.T) {
	f, dir := startFakeServe(t)
	f.mu.Lock()
	f.noExecHost = true
	f.mu.Unlock()
	code, _, stderr := runLSF(t, nil, "bsub", "--state", dir, "-K", "-J", "done", "true")
	if want := "<<Waiting for dispatch ...>>\n<<Job is finished>>\n"; code != 0 || stderr != want {
		t.Errorf("without LSB_SUBK_SHOW_EXEC_HOST: exit %d, stderr %q, want 0 and %q", code, stderr, want)
	}
}
