// Package etcdtest runs etcd clusters inside a test process: every member
// an embedded etcd server on loopback, with its data in the test's
// temporary directory.
package etcdtest

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/server/v3/embed"
	"go.uber.org/zap"
)

// A Cluster is a running etcd cluster of embedded members.
type Cluster struct {
	t       testing.TB
	Members []*embed.Etcd
	// Endpoints are the members' client URLs, in member order.
	Endpoints []string
}

// Start starts a cluster of n members with its data in the test's
// temporary directory, and waits until it serves. The members stop when
// the test ends.
func Start(t testing.TB, n int) *Cluster {
	t.Helper()
	c, err := Launch(n, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	c.t = t
	t.Cleanup(c.Close)
	return c
}

// Launch starts a cluster of n members with their data under dir, and
// waits until it serves; Close stops it.
//
// The members' ports are free when chosen but bound only as etcd starts:
// another process may take one meanwhile, if only as the local port of
// a connection. A start that finds a port taken is tried again on other
// ports.
func Launch(n int, dir string) (*Cluster, error) {
	for try := 1; ; try++ {
		c, err := launch(n, dir)
		if err == nil || try == 3 || !errors.Is(err, syscall.EADDRINUSE) {
			return c, err
		}
		for i := range n {
			if err := os.RemoveAll(memberDir(dir, i)); err != nil {
				return nil, err
			}
		}
	}
}

// memberDir is the data directory of member i.
func memberDir(dir string, i int) string {
	return filepath.Join(dir, fmt.Sprintf("m%d", i))
}

func launch(n int, dir string) (*Cluster, error) {
	c := &Cluster{}
	ports, err := pickPorts(2 * n)
	if err != nil {
		return nil, err
	}
	var initial []string
	for i := range n {
		initial = append(initial, fmt.Sprintf("m%d=http://127.0.0.1:%d", i, ports[2*i+1]))
	}
	cfgs := make([]*embed.Config, n)
	for i := range n {
		cfg := embed.NewConfig()
		cfg.Name = fmt.Sprintf("m%d", i)
		cfg.Dir = memberDir(dir, i)
		client := url.URL{Scheme: "http", Host: fmt.Sprintf("127.0.0.1:%d", ports[2*i])}
		peer := url.URL{Scheme: "http", Host: fmt.Sprintf("127.0.0.1:%d", ports[2*i+1])}
		cfg.ListenClientUrls, cfg.AdvertiseClientUrls = []url.URL{client}, []url.URL{client}
		cfg.ListenPeerUrls, cfg.AdvertisePeerUrls = []url.URL{peer}, []url.URL{peer}
		cfg.InitialCluster = strings.Join(initial, ",")
		cfg.InitialClusterToken = "lsfc-test"
		cfg.LogLevel = "error"
		cfg.ZapLoggerBuilder = embed.NewZapLoggerBuilder(zap.NewNop())
		cfg.TickMs, cfg.ElectionMs = 50, 500
		cfg.AutoCompactionMode, cfg.AutoCompactionRetention = embed.CompactorModeRevision, "10000"
		cfgs[i] = cfg
		c.Endpoints = append(c.Endpoints, client.String())
	}
	c.Members = make([]*embed.Etcd, n)
	errs := make(chan error, n)
	for i, cfg := range cfgs {
		go func() {
			e, err := embed.StartEtcd(cfg)
			c.Members[i] = e
			errs <- err
		}()
	}
	var first error
	for range n {
		if err := <-errs; err != nil && first == nil {
			first = err
		}
	}
	if first != nil {
		c.Close()
		return nil, fmt.Errorf("starting etcd: %w", first)
	}
	for _, m := range c.Members {
		select {
		case <-m.Server.ReadyNotify():
		case <-time.After(30 * time.Second):
			c.Close()
			return nil, errors.New("etcd did not become ready in 30 s")
		}
	}
	return c, nil
}

// Client returns a client of every member of a cluster from Start,
// closed when the test ends.
func (c *Cluster) Client() *clientv3.Client {
	c.t.Helper()
	cli, err := clientv3.New(clientv3.Config{Endpoints: c.Endpoints, DialTimeout: 5 * time.Second, Logger: zap.NewNop()})
	if err != nil {
		c.t.Fatalf("etcd client: %v", err)
	}
	c.t.Cleanup(func() { cli.Close() })
	return cli
}

// Close stops every member.
func (c *Cluster) Close() {
	for _, m := range c.Members {
		if m == nil {
			continue
		}
		select {
		case <-m.Server.ReadyNotify():
		default:
			// A member that never became ready (its peers did not
			// start) would wait in Close for its client servers, which
			// start only once it is ready, unless its server stops
			// first.
			m.Server.HardStop()
		}
		m.Close()
	}
}

// pickPorts chooses the members' ports (freePorts; a test replaces it).
var pickPorts = freePorts

// freePorts returns n TCP ports free on loopback a moment ago.
func freePorts(n int) ([]int, error) {
	var ls []net.Listener
	var out []int
	defer func() {
		for _, l := range ls {
			l.Close()
		}
	}()
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return nil, err
		}
		ls = append(ls, l)
		out = append(out, l.Addr().(*net.TCPAddr).Port)
	}
	return out, nil
}
