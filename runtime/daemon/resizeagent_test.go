package daemon_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/localexec"
	"github.com/lsfc/lsfc/runtime/sbatchd"
)

// cutProxy forwards TCP connections to a master until it is cut: then
// it drops the connections it carries and every new one, until it is
// mended.
type cutProxy struct {
	ln     net.Listener
	target string
	mu     sync.Mutex
	cut    bool
	conns  map[net.Conn]bool
}

func newCutProxy(t *testing.T, target string) *cutProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &cutProxy{ln: ln, target: target, conns: map[net.Conn]bool{}}
	go p.serve()
	t.Cleanup(func() { ln.Close(); p.setCut(true) })
	return p
}

func (p *cutProxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		p.mu.Lock()
		if p.cut {
			p.mu.Unlock()
			c.Close()
			continue
		}
		m, err := net.Dial("tcp", p.target)
		if err != nil {
			p.mu.Unlock()
			c.Close()
			continue
		}
		p.conns[c], p.conns[m] = true, true
		p.mu.Unlock()
		go func() { io.Copy(m, c); m.Close() }()
		go func() { io.Copy(c, m); c.Close() }()
	}
}

// setCut cuts the proxy (dropping what it carries) or mends it.
func (p *cutProxy) setCut(cut bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.cut = cut
	if cut {
		for c := range p.conns {
			c.Close()
		}
		clear(p.conns)
	}
}

// notifiedEvents returns the codes of a job's "notified" resize events.
func notifiedEvents(t *testing.T, c *client, id int64) []int {
	t.Helper()
	var hs []api.JobHistory
	if code, err := c.call("GET", "/v1/history", nil, &hs); err != nil || code != http.StatusOK {
		t.Fatalf("history: %d %v", code, err)
	}
	var codes []int
	for _, h := range hs {
		if h.ID != id {
			continue
		}
		for _, e := range h.Events {
			if e.Kind == api.EventResize && e.Text == "notified" {
				codes = append(codes, e.Code)
			}
		}
	}
	return codes
}

// release asks for bresize release -c of one slot of job id on hostA.
// An autoresizable job that held its maximum had no request to cancel:
// once the release's notification ends, it asks for the slot again.
func release(t *testing.T, c *client, id int64) {
	t.Helper()
	req := api.ActionRequest{Resize: &api.ResizeAction{Op: "release", Cancel: true, Hosts: []api.HostSlots{{Host: "hostA", Slots: 1}}}}
	if code, err := c.call("POST", fmt.Sprintf("/v1/jobs/%d/resize", id), req, nil); err != nil || code != http.StatusOK {
		t.Fatalf("bresize release: %d %v", code, err)
	}
}

// waitNotified waits until job id's notification is over.
func waitNotified(t *testing.T, c *client, id int64) api.Job {
	t.Helper()
	var j api.Job
	if !eventually(func() bool {
		j = c.job(t, id)
		return j.Resize != nil && !j.Resize.Notifying
	}) {
		t.Fatalf("job %d still notifying: %+v", id, j.Resize)
	}
	return j
}

// TestAgentResizeNotifyRetried: the master is unreachable when a
// resize notification command an agent ran ends. The agent keeps its
// end and reports it again once the master answers: each notification
// that ran is recorded once, and the job's resizing goes on.
func TestAgentResizeNotifyRetried(t *testing.T) {
	state, adir := t.TempDir(), t.TempDir()
	d := startMaster(t, state, "127.0.0.1:0", time.Hour)
	defer d.Close()
	p := newCutProxy(t, d.Addr())
	// The agent gives up an exchange soon after its connection is lost.
	master := api.DialTCP(p.ln.Addr().String(), "s3cret", "boss").SetRetryWait(2 * agentInterval)
	a, err := sbatchd.Start(context.Background(), sbatchd.Config{Master: master, Host: "hostA", StateDir: adir,
		Interval: agentInterval, WrapperPath: []string{os.Args[0], localexec.WrapperArg}, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	c := unixClient(state)
	c.waitAgent(t, "hostA")
	marks := t.TempDir()
	log, ended := filepath.Join(marks, "log"), filepath.Join(marks, "ended")
	cmd := fmt.Sprintf("echo $LSB_RESIZE_EVENT >> %s; sleep 0.5; touch %s; exit 0", log, ended)
	id := c.submit(t, api.SubmitRequest{Command: "sleep 60", Slots: 3, AutoResize: true, ResizeNotify: cmd,
		Hosts: []string{"hostA"}, Umask: -1}).ID
	c.waitState(t, id, "RUN")
	release(t, c, id)
	waitFile(t, log)
	p.setCut(true)
	waitFile(t, ended)
	// The agent's exchanges carrying the end fail meanwhile.
	time.Sleep(10 * agentInterval)
	if j := c.job(t, id); j.Resize == nil || !j.Resize.Notifying {
		t.Fatalf("job %d: the master took a notification end through a cut connection: %+v", id, j.Resize)
	}
	p.setCut(false)
	// The autoresizable job asks for the slot it gave back once the
	// shrink's end is recorded: it grows to its maximum again, and the
	// grow notifies it too. Each notification's end is recorded once.
	var runs, codes []string
	var slots int
	settled := func() bool {
		j := c.job(t, id)
		data, _ := os.ReadFile(log)
		runs = strings.Fields(string(data))
		codes = nil
		for _, code := range notifiedEvents(t, c, id) {
			codes = append(codes, fmt.Sprint(code))
		}
		slots = j.Slots
		return j.Resize != nil && !j.Resize.Notifying && slices.Equal(runs, []string{"shrink", "grow"}) &&
			len(codes) == len(runs) && slots == 3
	}
	if !eventually(settled) {
		t.Fatalf("job %d: notifications run %v, ends recorded %v, %d slots: want a shrink and a grow back to 3", id, runs, codes, slots)
	}
	// Held at its maximum, the job asks for nothing more, and no end is
	// recorded again.
	time.Sleep(10 * agentInterval)
	if !settled() || slices.ContainsFunc(codes, func(c string) bool { return c != "0" }) {
		t.Errorf("job %d: notifications run %v, ends recorded %v, %d slots: want one end of code 0 for each", id, runs, codes, slots)
	}
}

// waitFile waits for a file to exist.
func waitFile(t *testing.T, path string) {
	t.Helper()
	if !eventually(func() bool { _, err := os.Stat(path); return err == nil }) {
		t.Fatalf("%s never appeared", path)
	}
}

// TestResizeNotifyStale: the master takes the end of a resize
// notification only for the notification it ordered last; an end
// reported again, or one of an earlier notification, is acknowledged
// and counts for nothing.
func TestResizeNotifyStale(t *testing.T) {
	state := t.TempDir()
	d := startMaster(t, state, "127.0.0.1:0", time.Hour)
	defer d.Close()
	c := unixClient(state)
	agent := tcpClient(d.Addr(), "s3cret", "boss")
	var session string
	var ack uint64
	var known []api.AgentRun
	exchange := func(req api.AgentSync) api.AgentOrders {
		t.Helper()
		req.Host, req.Interval, req.Session, req.Ack, req.Known = "hostA", 60, session, ack, known
		var out api.AgentOrders
		if code, err := agent.call("POST", "/v1/agent/sync", req, &out); err != nil || code != http.StatusOK {
			t.Fatalf("exchange: %d %v", code, err)
		}
		session = out.Session
		return out
	}
	if code, err := agent.call("POST", "/v1/agent/load", api.AgentLoad{Host: "hostA", Interval: 60}, nil); err != nil || code != http.StatusOK {
		t.Fatalf("load report: %d %v", code, err)
	}
	exchange(api.AgentSync{})
	// next returns the next order that satisfies ok, acknowledging the
	// orders before it.
	next := func(what string, ok func(api.AgentOrder) bool) api.AgentOrder {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		for time.Now().Before(deadline) {
			for _, o := range exchange(api.AgentSync{Wait: 0.05}).Orders {
				if o.Seq <= ack {
					continue
				}
				ack = o.Seq
				if o.Spec != nil {
					known = append(known, o.AgentRun)
				}
				if ok(o) {
					return o
				}
			}
		}
		t.Fatalf("no order %s", what)
		return api.AgentOrder{}
	}
	id := c.submit(t, api.SubmitRequest{Command: "sleep 60", Slots: 3, AutoResize: true, ResizeNotify: "true",
		Hosts: []string{"hostA"}, Umask: -1}).ID
	next("to run the job", func(o api.AgentOrder) bool { return o.Job == id && o.Spec != nil })
	c.waitState(t, id, "RUN")
	release(t, c, id)
	// While the release's notification runs the job is not grown; cancel
	// its autoresizing now, so that it keeps what is left.
	if code, err := c.call("POST", fmt.Sprintf("/v1/jobs/%d/resize", id), api.ActionRequest{Resize: &api.ResizeAction{Op: "cancel"}}, nil); err != nil || code != http.StatusOK {
		t.Fatalf("bresize cancel: %d %v", code, err)
	}
	if j := c.job(t, id); j.Resize == nil || j.Resize.Auto || !j.Resize.Notifying {
		t.Fatalf("job %d after bresize cancel: %+v", id, j.Resize)
	}
	first := next("to notify", func(o api.AgentOrder) bool { return o.Job == id && o.Notify != nil })
	if first.Notify.Notice == 0 {
		t.Fatalf("notification order without its number: %+v", first.Notify)
	}
	end := api.AgentNotified{NoticeRef: api.NoticeRef{AgentRun: first.AgentRun, Notice: first.Notify.Notice}}
	for range 2 {
		// The end, then the same end again (its acknowledgement lost).
		out := exchange(api.AgentSync{Notified: []api.AgentNotified{end}})
		if len(out.NotifiedDone) != 1 || out.NotifiedDone[0] != end.NoticeRef {
			t.Fatalf("acknowledged %+v, want %+v", out.NotifiedDone, end.NoticeRef)
		}
	}
	waitNotified(t, c, id)
	if codes := notifiedEvents(t, c, id); len(codes) != 1 || codes[0] != 0 {
		t.Fatalf("job %d: notification ends recorded %v, want one of code 0", id, codes)
	}
	release(t, c, id)
	second := next("to notify again", func(o api.AgentOrder) bool { return o.Job == id && o.Notify != nil })
	if second.Notify.Notice == first.Notify.Notice {
		t.Fatalf("two notifications numbered %d", first.Notify.Notice)
	}
	// A late end of the first notification, failed this time: it is
	// acknowledged and ignored.
	stale := end
	stale.Code = 1
	if out := exchange(api.AgentSync{Notified: []api.AgentNotified{stale}}); len(out.NotifiedDone) != 1 {
		t.Fatalf("stale end acknowledged %+v", out.NotifiedDone)
	}
	if j := c.job(t, id); j.Resize == nil || !j.Resize.Notifying {
		t.Fatalf("job %d: a stale notification end ended the current one: %+v", id, j.Resize)
	}
	cur := api.AgentNotified{NoticeRef: api.NoticeRef{AgentRun: second.AgentRun, Notice: second.Notify.Notice}}
	exchange(api.AgentSync{Notified: []api.AgentNotified{cur}})
	j := waitNotified(t, c, id)
	if codes := notifiedEvents(t, c, id); len(codes) != 2 || codes[1] != 0 {
		t.Errorf("job %d: notification ends recorded %v, want two of code 0", id, codes)
	}
	if j.Slots != 1 {
		t.Errorf("job %d has %d slots after releasing two of 3", id, j.Slots)
	}
}
