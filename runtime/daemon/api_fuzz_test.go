package daemon_test

import (
	"context"
	"net/http"
	"net/url"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/daemon"
	"github.com/lsfc/lsfc/runtime/localexec"
)

// FuzzAPI sends arbitrary requests to a daemon: every one is answered,
// a bad one with a 4xx and never a 5xx, and the daemon keeps answering.
// Submitted jobs are held, so that nothing runs.
func FuzzAPI(f *testing.F) {
	p, err := compileTree(writeConf(f))
	if err != nil {
		f.Fatal(err)
	}
	state := f.TempDir()
	d, err := daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: state, WrapperPath: []string{os.Args[0], localexec.WrapperArg},
		MinInterval: time.Millisecond, Logf: func(string, ...any) {}})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { d.Close() })
	c := unixClient(state)
	for _, seed := range []struct {
		post       bool
		path, body string
	}{
		{true, "/v1/jobs", `{"command":"true","hold":true,"slots":2,"resReq":"select[type==any]"}`},
		{true, "/v1/jobs", `{"command":"true","hold":true,"depend":"done(1) && ended(x*)"}`},
		{true, "/v1/jobs", `{"command":"true","hold":true,"resReq":"select[[[["}`},
		{true, "/v1/jobs/1/modify", `{"modify":{"slots":3,"resReq":"rusage[mem=10]"}}`},
		{true, "/v1/jobs/1/switch", `{"queue":"owned"}`},
		{true, "/v1/jobs/1/top", ``},
		{true, "/v1/jobs", `{"command":"true","hold":true,"name":"a[1-20:3,40]%2"}`},
		{true, "/v1/jobs/2/modify", `{"modify":{"name":"%5"}}`},
		{true, "/v1/jobs/2/kill", `{"indices":[1,4,99]}`},
		{false, "/v1/jobs?id=2&id=8589934594&compact=1", ``},
		{false, "/v1/jobs?user=all&compact=1&fields=user,state,execHosts", ``},
		{false, "/v1/jobs?fields=user,nofield", ``},
		{true, "/v1/queues/normal/close", ``},
		{false, "/v1/jobs?id=1&id=x&user=all", ``},
		{false, "/v1/jobs/1", ``},
		{false, "/v1/hosts", ``},
		{false, "/v1/history?id=1&logs=2&user=all", ``},
		{false, "/v1/history?logs=-7&id=0", ``},
		{true, "/v1/jobs", `{"command":"true","hold":true,"jobGroup":"/a/b"}`},
		{true, "/v1/jobgroups", `{"op":"add","path":"/a/b/c","limit":3,"sla":""}`},
		{true, "/v1/jobgroups", `{"op":"mod","path":"/a"}`},
		{true, "/v1/jobgroups", `{"op":"del","empty":true,"user":"all"}`},
		{true, "/v1/jobgroups", `{"op":"del","empty":true,"path":"/a"}`},
		{true, "/v1/jobs/1/modify", `{"modify":{"jobGroup":"/x","project":"p","noJobGroup":false}}`},
		{false, "/v1/jobgroups", ``},
		{true, "/v1/reservations", `{"op":"add","slots":2,"hosts":["hostA"],"users":["all"],"window":"8:0-18:0"}`},
		{true, "/v1/reservations", `{"op":"add","name":"x","system":true,"hosts":["hostB"],"begin":4102444800,"end":4102448400}`},
		{true, "/v1/reservations", `{"op":"mod","ids":["x"],"end":4102452000,"addSlots":1,"hosts":["hostA"]}`},
		{true, "/v1/reservations", `{"op":"del","ids":["all#0","x"]}`},
		{true, "/v1/jobs", `{"command":"true","hold":true,"reservation":"all#0"}`},
		{false, "/v1/reservations", ``},
		{false, "/v1/reservations/policies", ``},
	} {
		f.Add(seed.post, seed.path, seed.body)
	}
	f.Fuzz(func(t *testing.T, post bool, path, body string) {
		if !strings.HasPrefix(path, "/") || strings.ContainsAny(path, " \r\n#") {
			return
		}
		if _, err := url.ParseRequestURI(path); err != nil {
			return // not a request a client can send
		}
		if strings.Contains(body, `"command"`) && !strings.Contains(body, `"hold":true`) {
			return // held jobs only
		}
		method, payload := "GET", any(nil)
		if post {
			method, payload = "POST", []byte(body)
		}
		code, err := c.call(method, path, payload, nil)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		if code >= 500 {
			t.Fatalf("%s %s %q: %d", method, path, body, code)
		}
		if code, err := c.call("GET", "/v1/status", nil, nil); err != nil || code != http.StatusOK {
			t.Fatalf("the daemon stopped answering: %d %v", code, err)
		}
	})
}

// FuzzMCAPI sends arbitrary requests to the routes between clusters, on
// the TCP listener with the secret: every one is answered, a bad one with
// a 4xx and never a 5xx. No queue of the test configuration receives
// jobs, so every forwarded job is rejected and nothing runs.
func FuzzMCAPI(f *testing.F) {
	p, err := compileTree(writeConf(f))
	if err != nil {
		f.Fatal(err)
	}
	d, err := daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: f.TempDir(), WrapperPath: []string{os.Args[0], localexec.WrapperArg},
		MinInterval: time.Millisecond, Listen: "127.0.0.1:0", Secret: "s3cret", Logf: func(string, ...any) {}})
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(func() { d.Close() })
	c := tcpClient(d.Addr(), "s3cret", "peer")
	for _, seed := range []struct{ path, body string }{
		{"/v1/mc/forward", `{"from":"peer","fromJob":4,"queue":"normal","user":"u","uid":-1,"gid":-1,"job":{"command":"true","umask":18}}`},
		{"/v1/mc/forward", `{"from":"peer","fromJob":-1,"queue":"nope","user":"","job":{"command":""}}`},
		{"/v1/mc/forward", `{"from":"a b","fromJob":1}`},
		{"/v1/mc/poll", `{"from":"peer"}`},
		{"/v1/mc/poll", `{"from":""}`},
		{"/v1/mc/withdraw", `{"from":"peer","fromJob":4,"kill":true}`},
		{"/v1/mc/withdraw", `[]`},
		{"/v1/mc/forward", `{"from":"peer","fromJob":5,"sent":1e308,"queue":"normal","user":"u","job":{"command":"true"}}`},
		{"/v1/mc/withdraw", `{"from":"peer","fromJob":5,"id":-3}`},
	} {
		f.Add(seed.path, seed.body)
	}
	f.Fuzz(func(t *testing.T, path, body string) {
		if !strings.HasPrefix(path, "/v1/mc/") || strings.ContainsAny(path, " \r\n#?") {
			return
		}
		if _, err := url.ParseRequestURI(path); err != nil {
			return
		}
		code, err := c.call("POST", path, []byte(body), nil)
		if err != nil {
			t.Fatalf("POST %s: %v", path, err)
		}
		if code >= 500 {
			t.Fatalf("POST %s %q: %d", path, body, code)
		}
		var st api.Status
		if code, err := c.call("GET", "/v1/status", nil, &st); err != nil || code != http.StatusOK {
			t.Fatalf("the daemon stopped answering: %d %v", code, err)
		}
		if st.Running != 0 {
			t.Fatalf("POST %s %q: a job runs", path, body)
		}
	})
}
