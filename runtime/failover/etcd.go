package failover

import (
	"context"
	"fmt"
	"strings"
	"time"

	"go.etcd.io/etcd/client/pkg/v3/transport"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
)

// Etcd names the etcd cluster a candidate joins: its members' client URLs
// separated by commas, as serve's --etcd takes them, and, for etcd's TLS,
// the files of the CA and of this client's certificate and key (all
// empty without TLS).
type Etcd struct {
	Endpoints         string
	CACert, Cert, Key string
}

// endpoints returns the client URLs of the list.
func (e Etcd) endpoints() ([]string, error) {
	var out []string
	for u := range strings.SplitSeq(e.Endpoints, ",") {
		if u = strings.TrimSpace(u); u != "" {
			out = append(out, u)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("etcd: no client URL in %q", e.Endpoints)
	}
	return out, nil
}

// StartEtcd connects to etcd as e says and starts a candidate on that
// connection (cfg.Client is set here); the candidate closes the
// connection once it has stopped.
func StartEtcd(ctx context.Context, e Etcd, cfg Config) (*Candidate, error) {
	urls, err := e.endpoints()
	if err != nil {
		return nil, err
	}
	cc := clientv3.Config{Endpoints: urls, DialTimeout: 5 * time.Second, Logger: zap.NewNop()}
	if e.CACert != "" || e.Cert != "" || e.Key != "" {
		tlsCfg, err := (transport.TLSInfo{CertFile: e.Cert, KeyFile: e.Key, TrustedCAFile: e.CACert}).ClientConfig()
		if err != nil {
			return nil, fmt.Errorf("etcd TLS: %w", err)
		}
		cc.TLS = tlsCfg
	}
	cli, err := clientv3.New(cc)
	if err != nil {
		return nil, fmt.Errorf("etcd: %w", err)
	}
	cfg.Client = cli
	c, err := Start(ctx, cfg)
	if err != nil {
		cli.Close()
		return nil, err
	}
	go func() {
		<-c.Done()
		cli.Close()
	}()
	return c, nil
}
