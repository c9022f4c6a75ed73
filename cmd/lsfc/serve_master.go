//go:build lsfcmaster && !lsfclient

package main

import (
	"context"

	"github.com/lsfc/lsfc/runtime/daemon"
	"github.com/lsfc/lsfc/runtime/failover"
)

// lsfc-master is lsfc with etcd's client linked in: it runs serve --etcd
// itself rather than handing it on.
func init() { startCandidate = startEtcdCandidate }

// startEtcdCandidate starts a master candidate on the etcd cluster of ef.
func startEtcdCandidate(ctx context.Context, ef etcdFlags, cfg daemon.Config) (candidate, error) {
	c, err := failover.StartEtcd(ctx, failover.Etcd{Endpoints: ef.endpoints, CACert: ef.cacert, Cert: ef.cert, Key: ef.key},
		failover.Config{Prefix: ef.prefix, TTL: ef.ttl, Advertise: ef.advertise, Daemon: cfg})
	if err != nil {
		return nil, err
	}
	return c, nil
}
