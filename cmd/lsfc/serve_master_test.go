//go:build !lsfclient

package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

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

// TestServeEtcdWithoutMaster runs serve --etcd in lsfc's build where no
// lsfc-master is installed: it says what is missing and how to build it,
// before reading any configuration.
func TestServeEtcdWithoutMaster(t *testing.T) {
	empty := t.TempDir()
	var stdout, stderr strings.Builder
	e := env{stdin: strings.NewReader(""), stdout: &stdout, stderr: &stderr,
		getenv: func(k string) string {
			if k == "PATH" {
				return empty
			}
			return ""
		}}
	code := run([]string{"serve", "--conf", filepath.Join(empty, "absent"), "--etcd", "http://127.0.0.1:1"}, e)
	if code != exitUsage {
		t.Fatalf("exit %d, want %d; stderr:\n%s", code, exitUsage, stderr.String())
	}
	for _, want := range []string{"no lsfc-master is found", filepath.Join(empty, masterName), "go build -tags lsfcmaster -o lsfc-master ./cmd/lsfc"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr.String())
		}
	}
}
