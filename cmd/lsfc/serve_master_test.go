//go:build !lsfclient

package main

import (
	"context"
	"os"

	"github.com/lsfc/lsfc/runtime/daemon"
	"github.com/lsfc/lsfc/runtime/failover"
)

// In the scripts, lsfc hands serve --etcd to lsfc-master in their bin
// directory: this binary under that name, with startCandidate set as
// lsfc-master's build (serve_master.go) sets it.
func init() {
	scriptCommands[masterName] = func() {
		startCandidate = testEtcdCandidate
		os.Exit(Main())
	}
}

// testEtcdCandidate is serve_master.go's startEtcdCandidate, which the
// tests' build, without the tag lsfcmaster, does not hold.
func testEtcdCandidate(ctx context.Context, ef etcdFlags, cfg daemon.Config) (candidate, error) {
	c, err := failover.StartEtcd(ctx, failover.Etcd{Endpoints: ef.endpoints, CACert: ef.cacert, Cert: ef.cert, Key: ef.key},
		failover.Config{Prefix: ef.prefix, TTL: ef.ttl, Advertise: ef.advertise, Daemon: cfg})
	if err != nil {
		return nil, err
	}
	return c, nil
}
