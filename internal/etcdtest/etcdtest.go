// Package etcdtest runs etcd clusters inside a test process: every member
// an embedded etcd server on loopback, with its data in the test's
// temporary directory.
package etcdtest

import (
	"fmt"
	"net"
	"net/url"
	"path/filepath"
	"strings"
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

// Start starts a cluster of n members and waits until it has a leader.
// The members stop when the test ends.
func Start(t testing.TB, n int) *Cluster {
	t.Helper()
	c := &Cluster{t: t}
	ports := freePorts(t, 2*n)
	var initial []string
	for i := range n {
		initial = append(initial, fmt.Sprintf("m%d=http://127.0.0.1:%d", i, ports[2*i+1]))
	}
	cfgs := make([]*embed.Config, n)
	for i := range n {
		cfg := embed.NewConfig()
		cfg.Name = fmt.Sprintf("m%d", i)
		cfg.Dir = filepath.Join(t.TempDir(), cfg.Name)
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
	for range n {
		if err := <-errs; err != nil {
			c.Close()
			t.Fatalf("starting etcd: %v", err)
		}
	}
	for _, m := range c.Members {
		select {
		case <-m.Server.ReadyNotify():
		case <-time.After(30 * time.Second):
			c.Close()
			t.Fatal("etcd did not become ready in 30 s")
		}
	}
	t.Cleanup(c.Close)
	return c
}

// Client returns a client of every member, closed when the test ends.
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
		if m != nil {
			m.Close()
		}
	}
}

// freePorts returns n TCP ports free on loopback a moment ago.
func freePorts(t testing.TB, n int) []int {
	var ls []net.Listener
	var out []int
	for range n {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		ls = append(ls, l)
		out = append(out, l.Addr().(*net.TCPAddr).Port)
	}
	for _, l := range ls {
		l.Close()
	}
	return out
}
