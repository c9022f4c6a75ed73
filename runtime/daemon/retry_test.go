package daemon_test

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/daemon"
	"github.com/lsfc/lsfc/runtime/localexec"
)

// A dropProxy forwards TCP connections to a daemon, except that it cuts
// the first one as soon as the daemon's answer begins: the request took
// effect and its client never hears of it. Then it calls dropped.
type dropProxy struct {
	ln      net.Listener
	target  atomic.Value // the daemon's address
	conns   atomic.Int32
	dropped func()
	wg      sync.WaitGroup
}

func newDropProxy(t *testing.T, target string, dropped func()) *dropProxy {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	p := &dropProxy{ln: ln, dropped: dropped}
	p.target.Store(target)
	go p.serve()
	t.Cleanup(func() { ln.Close(); p.wg.Wait() })
	return p
}

func (p *dropProxy) addr() string { return p.ln.Addr().String() }

func (p *dropProxy) serve() {
	for {
		c, err := p.ln.Accept()
		if err != nil {
			return
		}
		n := p.conns.Add(1)
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			defer c.Close()
			up, err := net.Dial("tcp", p.target.Load().(string))
			if err != nil {
				return // the client sees its connection end
			}
			defer up.Close()
			go io.Copy(up, c)
			if n == 1 {
				var b [1]byte
				io.ReadFull(up, b[:])
				c.Close()
				if p.dropped != nil {
					p.dropped()
				}
				return
			}
			io.Copy(c, up)
		}()
	}
}

// countJobs returns how many jobs the daemon holds, finished or not.
func countJobs(t *testing.T, state string) int {
	t.Helper()
	var all []api.Job
	if code, err := unixClient(state).call("GET", "/v1/jobs?user=all&all=1", nil, &all); err != nil || code != http.StatusOK {
		t.Fatalf("jobs: %d %v", code, err)
	}
	return len(all)
}

// TestSubmitRetry: a submission whose answer is lost is sent again with
// its token, through a daemon restart, and makes one job, whose id the
// client gets.
func TestSubmitRetry(t *testing.T) {
	p, err := compileTree(writeConf(t))
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	start := func() *daemon.Daemon {
		d, err := daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: state,
			WrapperPath: []string{os.Args[0], localexec.WrapperArg}, MinInterval: 5 * time.Millisecond,
			Listen: "127.0.0.1:0", Secret: "s3cret", Logf: t.Logf})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	var mu sync.Mutex
	d := start()
	defer func() {
		mu.Lock()
		defer mu.Unlock()
		d.Close()
	}()
	var proxy *dropProxy
	proxy = newDropProxy(t, d.Addr(), func() {
		// The answer is lost: the daemon restarts before the client
		// sends the submission again.
		mu.Lock()
		defer mu.Unlock()
		d.Close()
		d = start()
		proxy.target.Store(d.Addr())
	})
	c := api.DialTCP(proxy.addr(), "s3cret", "alice")
	resp, err := c.Submit(context.Background(), &api.SubmitRequest{Command: "true", Hold: true})
	if err != nil {
		t.Fatalf("submit through a lost answer: %v", err)
	}
	if n := proxy.conns.Load(); n < 2 {
		t.Fatalf("%d connections: the submission was not sent again", n)
	}
	mu.Lock()
	defer mu.Unlock()
	if n := countJobs(t, state); n != 1 {
		t.Fatalf("%d jobs after a submission sent twice, want 1", n)
	}
	if j := unixClient(state).job(t, resp.ID); j.Command != "true" || j.User != "alice" {
		t.Errorf("job %d is %+v", resp.ID, j)
	}
}

// TestSubmitAnswerLost: a submission whose answer is lost, and whose
// daemon cannot be reached again, fails with an error that says so; the
// job it made is there, once.
func TestSubmitAnswerLost(t *testing.T) {
	d, state := startDaemon(t, "")
	defer d.Close()
	var proxy *dropProxy
	proxy = newDropProxy(t, d.Addr(), func() { proxy.ln.Close() })
	c := api.DialTCP(proxy.addr(), "s3cret", "alice").SetRetryWait(500 * time.Millisecond)
	_, err := c.Submit(context.Background(), &api.SubmitRequest{Command: "true", Hold: true})
	if !errors.Is(err, api.ErrAnswerLost) {
		t.Fatalf("submit with the daemon gone after its answer was lost: %v, want ErrAnswerLost", err)
	}
	if n := countJobs(t, state); n != 1 {
		t.Errorf("%d jobs, want the 1 the lost answer told of", n)
	}
}
