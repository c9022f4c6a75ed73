package api_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/lsfc/lsfc/runtime/api"
)

// fakeDaemon serves canned answers on the Unix socket of a state
// directory and records the requests it gets.
type fakeDaemon struct {
	mu       sync.Mutex
	requests []string // "METHOD /path?query body"
	headers  http.Header
}

func (f *fakeDaemon) record(r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	f.mu.Lock()
	defer f.mu.Unlock()
	line := r.Method + " " + r.URL.RequestURI()
	if len(body) > 0 {
		line += " " + strings.TrimSpace(string(body))
	}
	f.requests = append(f.requests, line)
	f.headers = r.Header.Clone()
}

func (f *fakeDaemon) handler() http.Handler {
	mux := http.NewServeMux()
	answer := func(code int, body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			f.record(r)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(code)
			io.WriteString(w, body)
		}
	}
	mux.Handle("POST /v1/jobs", answer(200, `{"id":42,"queue":"normal","default":true}`))
	mux.Handle("GET /v1/jobs", answer(200, `[{"id":42,"user":"ann","queue":"normal","state":"RUN","command":"sleep 1","slots":2,"execHosts":["hostA","hostA"],"submitTime":100,"startTime":101,"exitCode":0}]`))
	mux.Handle("GET /v1/jobs/42", answer(200, `{"id":42,"user":"ann","queue":"normal","state":"PEND","command":"sleep 1","slots":1,"submitTime":100,"exitCode":0,"reason":"New job is waiting for scheduling","hostReasons":[{"host":"hostA","reason":"Job slot limit reached"}]}`))
	mux.Handle("GET /v1/jobs/7", answer(404, `{"error":"Job <7> is not found"}`))
	mux.Handle("POST /v1/jobs/42/kill", answer(200, `{"message":"Job <42> is being terminated"}`))
	mux.Handle("POST /v1/jobs/43/kill", answer(403, `{"error":"Job <43>: User permission denied"}`))
	mux.Handle("POST /v1/jobs/42/switch", answer(200, `{"message":"Job <42> is switched to queue <short>"}`))
	mux.Handle("GET /v1/queues", answer(200, `[{"name":"normal","priority":30,"status":"Open:Active","open":true,"active":true,"max":0,"jlu":0,"jlp":0,"jlh":0,"njobs":1,"pend":0,"run":1,"susp":0}]`))
	mux.Handle("POST /v1/queues/nosuch/close", answer(404, `{"error":"nosuch: No such queue"}`))
	mux.Handle("GET /v1/hosts", answer(200, `[{"name":"hostA","status":"ok","jlu":-1,"max":8,"njobs":2,"run":2,"ssusp":0,"ususp":0}]`))
	mux.Handle("POST /v1/hosts/hostA/close", answer(200, `{"message":"Closing host <hostA> ...... done"}`))
	mux.Handle("GET /v1/status", answer(200, `{"cluster":"demo","master":"hostA","stateDir":"/s","started":1,"generation":3,"jobs":1,"pending":0,"running":1,"version":"v1"}`))
	mux.Handle("GET /v1/params", answer(200, `{"RESOURCE_RESERVE_PER_TASK":"N"}`))
	mux.Handle("GET /v1/broken", answer(500, `not json`))
	return mux
}

// startFake serves a fakeDaemon on the socket of state directory dir
// until the test ends.
func startFake(t *testing.T, dir string) *fakeDaemon {
	t.Helper()
	if err := os.MkdirAll(api.RunDir(dir), 0o755); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("unix", api.SocketPath(dir))
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeDaemon{}
	srv := httptest.NewUnstartedServer(f.handler())
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)
	return f
}

// shortTempDir returns a temporary directory whose socket path fits the
// Unix limit of about 100 bytes.
func shortTempDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if len(dir) < 90 {
		return dir
	}
	d, err := os.MkdirTemp("/tmp", "lsfc")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(d) })
	return d
}

func TestClientRoutes(t *testing.T) {
	dir := shortTempDir(t)
	f := startFake(t, dir)
	c := api.Dial(dir)
	ctx := context.Background()

	req := &api.SubmitRequest{Command: "sleep 1", Slots: 2, Umask: 0o22}
	sub, err := c.Submit(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if len(req.Token) != 32 {
		t.Errorf("a submission without a token was given %q, want 32 hex digits", req.Token)
	}
	if want := (api.SubmitResponse{ID: 42, Queue: "normal", Default: true}); *sub != want {
		t.Errorf("Submit = %+v, want %+v", *sub, want)
	}
	jobs, err := c.Jobs(ctx, api.JobQuery{IDs: []int64{42, 43}, User: "all", All: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 1 || jobs[0].ID != 42 || !reflect.DeepEqual(jobs[0].ExecHosts, []string{"hostA", "hostA"}) {
		t.Errorf("Jobs = %+v, want job 42 on hostA twice", jobs)
	}
	j, err := c.Job(ctx, 42)
	if err != nil {
		t.Fatal(err)
	}
	if want := []api.HostReason{{Host: "hostA", Reason: "Job slot limit reached"}}; !reflect.DeepEqual(j.HostReasons, want) {
		t.Errorf("Job(42).HostReasons = %+v, want %+v", j.HostReasons, want)
	}
	act, err := c.JobAction(ctx, 42, "kill", nil)
	if err != nil || act.Message != "Job <42> is being terminated" {
		t.Errorf("JobAction(kill) = %+v, %v", act, err)
	}
	if _, err := c.JobAction(ctx, 42, "switch", &api.ActionRequest{Queue: "short"}); err != nil {
		t.Errorf("JobAction(switch): %v", err)
	}
	qs, err := c.Queues(ctx)
	if err != nil || len(qs) != 1 || qs[0].Name != "normal" || qs[0].Priority != 30 {
		t.Errorf("Queues = %+v, %v", qs, err)
	}
	hs, err := c.Hosts(ctx)
	if err != nil || len(hs) != 1 || hs[0].JLU != -1 || hs[0].Max != 8 {
		t.Errorf("Hosts = %+v, %v", hs, err)
	}
	if r, err := c.HostOp(ctx, "hostA", "close"); err != nil || r.Message != "Closing host <hostA> ...... done" {
		t.Errorf("HostOp = %+v, %v", r, err)
	}
	st, err := c.Status(ctx)
	if err != nil || st.Cluster != "demo" || st.Generation != 3 {
		t.Errorf("Status = %+v, %v", st, err)
	}
	ps, err := c.Params(ctx)
	if err != nil || ps["RESOURCE_RESERVE_PER_TASK"] != "N" {
		t.Errorf("Params = %v, %v", ps, err)
	}

	want := []string{
		`POST /v1/jobs {"command":"sleep 1","slots":2,"umask":18,"token":"` + req.Token + `"}`,
		`GET /v1/jobs?all=1&compact=1&id=42&id=43&user=all`,
		`GET /v1/jobs/42`,
		`POST /v1/jobs/42/kill`,
		`POST /v1/jobs/42/switch {"queue":"short"}`,
		`GET /v1/queues`,
		`GET /v1/hosts`,
		`POST /v1/hosts/hostA/close`,
		`GET /v1/status`,
		`GET /v1/params`,
	}
	if !reflect.DeepEqual(f.requests, want) {
		t.Errorf("requests mismatch:\ngot:\n%s\nwant:\n%s", strings.Join(f.requests, "\n"), strings.Join(want, "\n"))
	}
	if f.headers.Get(api.HeaderAuthorization) != "" || f.headers.Get(api.HeaderUser) != "" {
		t.Errorf("the Unix socket client sent credentials headers: %v", f.headers)
	}
}

func TestClientErrors(t *testing.T) {
	dir := shortTempDir(t)
	startFake(t, dir)
	c := api.Dial(dir)
	ctx := context.Background()
	for _, tc := range []struct {
		name   string
		call   func() error
		status int
		msg    string
	}{
		{"permission", func() error { _, err := c.JobAction(ctx, 43, "kill", nil); return err }, 403, "Job <43>: User permission denied"},
		{"not found", func() error { _, err := c.Job(ctx, 7); return err }, 404, "Job <7> is not found"},
		{"no queue", func() error { _, err := c.QueueOp(ctx, "nosuch", "close"); return err }, 404, "nosuch: No such queue"},
		{"no route", func() error { _, err := c.HostOp(ctx, "hostB", "open"); return err }, 404, "not found: 404 page not found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.call()
			var ae *api.APIError
			if !errors.As(err, &ae) {
				t.Fatalf("error = %v (%T), want an *APIError", err, err)
			}
			if ae.Status != tc.status || ae.Message != tc.msg {
				t.Errorf("error = %d %q, want %d %q", ae.Status, ae.Message, tc.status, tc.msg)
			}
		})
	}
}

func TestClientNoDaemon(t *testing.T) {
	dir := shortTempDir(t)
	_, err := api.Dial(dir).Status(context.Background())
	if !errors.Is(err, api.ErrNoDaemon) {
		t.Fatalf("error = %v, want one wrapping ErrNoDaemon", err)
	}
	want := "no lsfc serve answers at " + dir + ": start one with lsfc serve, or point LSFC_STATE at its state directory"
	if err.Error() != want {
		t.Errorf("error = %q, want %q", err, want)
	}

	// A socket file nobody listens on (a daemon that died) is the same.
	if err := os.MkdirAll(api.RunDir(dir), 0o755); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("unix", api.SocketPath(dir))
	if err != nil {
		t.Fatal(err)
	}
	ln.(*net.UnixListener).SetUnlinkOnClose(false)
	ln.Close()
	if _, err := api.Dial(dir).Status(context.Background()); !errors.Is(err, api.ErrNoDaemon) {
		t.Errorf("stale socket: error = %v, want one wrapping ErrNoDaemon", err)
	}
}

func TestClientTCP(t *testing.T) {
	f := &fakeDaemon{}
	srv := httptest.NewServer(f.handler())
	defer srv.Close()
	c := api.DialTCP(strings.TrimPrefix(srv.URL, "http://"), "s3cret", "ann")
	if _, err := c.Status(context.Background()); err != nil {
		t.Fatal(err)
	}
	if got := f.headers.Get(api.HeaderAuthorization); got != "Bearer s3cret" {
		t.Errorf("Authorization = %q, want %q", got, "Bearer s3cret")
	}
	if got := f.headers.Get(api.HeaderUser); got != "ann" {
		t.Errorf("%s = %q, want %q", api.HeaderUser, got, "ann")
	}
}

func TestJobQueryRoundTrip(t *testing.T) {
	for _, q := range []api.JobQuery{
		{},
		{IDs: []int64{1, 2, 3}},
		{User: "all", Queue: "normal", All: true},
		{IDs: []int64{7}, Format: "json"},
	} {
		got, err := api.ParseJobQuery(q.Values())
		if err != nil {
			t.Fatalf("ParseJobQuery(%v): %v", q.Values(), err)
		}
		if !reflect.DeepEqual(got, q) {
			t.Errorf("round trip of %+v = %+v", q, got)
		}
	}
	if _, err := api.ParseJobQuery(map[string][]string{"id": {"x"}}); err == nil {
		t.Error("ParseJobQuery accepted id=x")
	}
	if _, err := api.ParseJobQuery(map[string][]string{"format": {"xml"}}); err == nil {
		t.Error("ParseJobQuery accepted format=xml")
	}
}

// TestClientFollowsLeader gives a client three master candidates: the
// first does not answer, the second stands by and names the third, which
// leads.
func TestClientFollowsLeader(t *testing.T) {
	dead, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	deadAddr := dead.Addr().String()
	dead.Close()
	var leaderHits atomic.Int32
	leader := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		leaderHits.Add(1)
		w.Write([]byte(`{"cluster":"c","master":"m3"}`))
	}))
	defer leader.Close()
	leaderAddr := strings.TrimPrefix(leader.URL, "http://")
	standby := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set(api.HeaderLeader, leaderAddr)
		w.WriteHeader(http.StatusServiceUnavailable)
		w.Write([]byte(`{"error":"this master candidate does not lead"}`))
	}))
	defer standby.Close()
	c := api.DialTCP(deadAddr+","+strings.TrimPrefix(standby.URL, "http://")+","+leaderAddr, "s", "u")
	st, err := c.Status(context.Background())
	if err != nil || st.Master != "m3" {
		t.Fatalf("Status: %+v %v, want the leader's answer", st, err)
	}
	// The client stays with the leader.
	if _, err := c.Status(context.Background()); err != nil || leaderHits.Load() != 2 {
		t.Fatalf("second Status: %v, leader asked %d times, want 2", err, leaderHits.Load())
	}
	// A single candidate that stands by: its answer, at once.
	one := api.DialTCP(strings.TrimPrefix(standby.URL, "http://"), "s", "u")
	if _, err := one.Status(context.Background()); err == nil || !strings.Contains(err.Error(), "does not lead") {
		t.Fatalf("Status of a standby alone: %v", err)
	}
}

// TestJobRows reads a listing into rows: it asks for the rows' fields,
// and asks again for whole jobs a daemon that refuses a field name; the
// plain list of a daemon older than the compact one is read too.
func TestJobRows(t *testing.T) {
	dir := shortTempDir(t)
	if err := os.MkdirAll(api.RunDir(dir), 0o755); err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("unix", api.SocketPath(dir))
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var queries []string
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		queries = append(queries, r.URL.RawQuery)
		mu.Unlock()
		if r.URL.Query().Get("fields") != "" {
			w.WriteHeader(http.StatusBadRequest)
			io.WriteString(w, `{"error":"bad field \"fromHost\""}`)
			return
		}
		io.WriteString(w, `[{"id":42,"user":"ann","queue":"normal","state":"RUN","command":"sleep 1","slots":2,"fromHost":"hostB","execHosts":["hostA","hostA"],"submitTime":100,"startTime":101,"exitCode":0}]`)
	}))
	srv.Listener = ln
	srv.Start()
	t.Cleanup(srv.Close)
	rows, err := api.Dial(dir).JobRows(context.Background(), api.JobQuery{User: "all"})
	if err != nil {
		t.Fatal(err)
	}
	want := []api.JobRow{{ID: 42, User: "ann", Queue: "normal", State: "RUN", Command: "sleep 1", FromHost: "hostB",
		ExecHosts: []string{"hostA", "hostA"}, Submit: 100}}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("rows %+v, want %+v", rows, want)
	}
	if len(queries) != 2 || !strings.Contains(queries[0], "fields=user%2Cstate%2Cqueue%2CfromHost%2CexecHosts%2Ccommand%2CsubmitTime") ||
		strings.Contains(queries[1], "fields=") {
		t.Errorf("queries %q: want the rows' fields, then none", queries)
	}
}
