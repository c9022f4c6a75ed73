package daemon_test

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/apitls"
	"github.com/lsfc/lsfc/runtime/daemon"
	"github.com/lsfc/lsfc/runtime/localexec"
)

// clientOf returns a TLS client of addr holding the certificate of name
// ("" for none), with the secret and user given.
func clientOf(t *testing.T, ca *testkit.CA, addr, name, secret, user string) *api.Client {
	t.Helper()
	var cert, key string
	if name != "" {
		cert, key = ca.Issue(t, name)
	}
	cfg, err := apitls.ClientConfig(cert, key, ca.File())
	if err != nil {
		t.Fatal(err)
	}
	return apitls.Use(api.DialTCP(addr, secret, user), cfg)
}

// startTLS starts a daemon whose TCP listener speaks TLS with a
// certificate of ca, takes the client certificates of ca, and the secret
// (none when "").
func startTLS(t *testing.T, ca *testkit.CA, secret string) (*daemon.Daemon, string) {
	t.Helper()
	p, err := compileTree(writeConf(t))
	if err != nil {
		t.Fatal(err)
	}
	cert, key := ca.Issue(t, "master")
	cfg, err := apitls.ServerConfig(cert, key, ca.File(), secret == "")
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	d, err := daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: state,
		WrapperPath: []string{os.Args[0], localexec.WrapperArg}, MinInterval: 5 * time.Millisecond,
		Listen: "127.0.0.1:0", Secret: secret, TLS: cfg, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return d, state
}

// TestTLS: over TLS a client certificate names the user, whatever user
// the client claims; the shared secret is still taken from a client
// without one; a certificate of another authority, no credential, and
// plain HTTP are refused; a user's certificate acts neither as a host's
// agent nor as another cluster.
func TestTLS(t *testing.T) {
	ca := testkit.NewCA(t, "cluster CA")
	d, _ := startTLS(t, ca, "s3cret")
	ctx := context.Background()
	submitAs := func(c *api.Client) (string, error) {
		resp, err := c.Submit(ctx, &api.SubmitRequest{Command: "true", Hold: true})
		if err != nil {
			return "", err
		}
		j, err := c.Job(ctx, resp.ID)
		if err != nil {
			return "", err
		}
		return j.User, nil
	}

	if user, err := submitAs(clientOf(t, ca, d.Addr(), "alice", "", "boss")); err != nil || user != "alice" {
		t.Errorf("alice's certificate claiming boss: job of %q, %v; want alice's", user, err)
	}
	if user, err := submitAs(clientOf(t, ca, d.Addr(), "", "s3cret", "carol")); err != nil || user != "carol" {
		t.Errorf("the secret over TLS: job of %q, %v; want carol's", user, err)
	}
	var ae *api.APIError
	if _, err := submitAs(clientOf(t, ca, d.Addr(), "", "", "carol")); !errors.As(err, &ae) || ae.Status != http.StatusUnauthorized {
		t.Errorf("neither certificate nor secret: %v, want 401", err)
	}
	other := testkit.NewCA(t, "another CA")
	cert, key := other.Issue(t, "mallory")
	cfg, err := apitls.ClientConfig(cert, key, ca.File())
	if err != nil {
		t.Fatal(err)
	}
	// The client does not show a certificate the daemon's authorities did
	// not sign: it comes without credentials.
	if _, err := submitAs(apitls.Use(api.DialTCP(d.Addr(), "", "mallory"), cfg)); !errors.As(err, &ae) || ae.Status != http.StatusUnauthorized {
		t.Errorf("a certificate of another authority: %v, want 401", err)
	}
	// Shown all the same, it fails the handshake.
	forced := cfg.Clone()
	pair := cfg.Certificates[0]
	forced.Certificates = nil
	forced.GetClientCertificate = func(*tls.CertificateRequestInfo) (*tls.Certificate, error) { return &pair, nil }
	if _, err := submitAs(apitls.Use(api.DialTCP(d.Addr(), "", "mallory"), forced)); err == nil || errors.As(err, &ae) {
		t.Errorf("a certificate of another authority shown: %v, want the handshake refused", err)
	}
	if _, err := submitAs(api.DialTCP(d.Addr(), "s3cret", "carol")); err == nil {
		t.Errorf("plain HTTP on the TLS listener was answered")
	}

	alice := clientOf(t, ca, d.Addr(), "alice", "", "")
	if _, err := alice.AgentSync(ctx, &api.AgentSync{Host: "hostB", Interval: 10}); !errors.As(err, &ae) || ae.Status != http.StatusForbidden {
		t.Errorf("alice's certificate as hostB's agent: %v, want 403", err)
	}
	if _, err := clientOf(t, ca, d.Addr(), "hostB", "", "").AgentSync(ctx, &api.AgentSync{Host: "hostB", Interval: 10}); err != nil {
		t.Errorf("hostB's certificate as its agent: %v", err)
	}
	if _, err := alice.MCPoll(ctx, "other"); !errors.As(err, &ae) || ae.Status != http.StatusForbidden ||
		!strings.Contains(ae.Message, `"alice" may not act for cluster "other"`) {
		t.Errorf("alice's certificate as cluster other: %v, want 403", err)
	}
	if _, err := clientOf(t, ca, d.Addr(), "other", "", "").MCPoll(ctx, "other"); err != nil {
		t.Errorf("cluster other's certificate polling as other: %v", err)
	}
}

// TestTLSWithoutSecret: a daemon with client certificates needs no
// secret, and then takes only certificates; without either it does not
// listen.
func TestTLSWithoutSecret(t *testing.T) {
	ca := testkit.NewCA(t, "cluster CA")
	d, _ := startTLS(t, ca, "")
	ctx := context.Background()
	if _, err := clientOf(t, ca, d.Addr(), "alice", "", "").Jobs(ctx, api.JobQuery{}); err != nil {
		t.Errorf("a certificate: %v", err)
	}
	if _, err := clientOf(t, ca, d.Addr(), "", "", "alice").Jobs(ctx, api.JobQuery{}); err == nil {
		t.Errorf("no certificate where one is required was answered")
	}
	p, err := compileTree(writeConf(t))
	if err != nil {
		t.Fatal(err)
	}
	cert, key := ca.Issue(t, "master")
	cfg, err := apitls.ServerConfig(cert, key, "", false)
	if err != nil {
		t.Fatal(err)
	}
	_, err = daemon.Start(ctx, daemon.Config{Policy: p, StateDir: t.TempDir(), Listen: "127.0.0.1:0", TLS: cfg, Logf: t.Logf})
	if err == nil || !strings.Contains(err.Error(), "--client-ca") {
		t.Errorf("TLS without client certificates nor secret: %v, want refused", err)
	}
}

// TestMultiClusterTLS forwards a job between two clusters that have no
// shared secret: each shows the other a certificate named after itself.
func TestMultiClusterTLS(t *testing.T) {
	ca := testkit.NewCA(t, "clusters CA")
	home := &mcCluster{name: "home", port: freePort(t), state: t.TempDir()}
	west := &mcCluster{name: "west", port: freePort(t), state: t.TempDir()}
	shared := fmt.Sprintf(mcShared, home.port, freePort(t), west.port)
	home.conf = writeArchive(t, shared+mcHome)
	west.conf = writeArchive(t, shared+fmt.Sprintf(mcExec, "west", 10))
	for _, c := range []*mcCluster{home, west} {
		p, err := compileTree(c.conf)
		if err != nil {
			t.Fatal(err)
		}
		cert, key := ca.Issue(t, c.name)
		server, err := apitls.ServerConfig(cert, key, ca.File(), true)
		if err != nil {
			t.Fatal(err)
		}
		peer, err := apitls.ClientConfig(cert, key, ca.File())
		if err != nil {
			t.Fatal(err)
		}
		c.d, err = daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: c.state,
			WrapperPath: []string{os.Args[0], localexec.WrapperArg}, MinInterval: 5 * time.Millisecond,
			Listen: fmt.Sprintf("127.0.0.1:%d", c.port), TLS: server, PeerTLS: peer,
			MCInterval: 100 * time.Millisecond, Logf: func(f string, a ...any) { t.Logf(c.name+": "+f, a...) }})
		if err != nil {
			t.Fatal(err)
		}
		defer c.stop()
	}
	hc := unixClient(home.state)
	id := hc.submit(t, api.SubmitRequest{Queue: "lonely", Command: "exit 4"}).ID
	j := hc.waitState(t, id, "EXIT")
	if j.Forward == nil || j.Forward.Cluster != "west" || j.ExitCode != 4 {
		t.Errorf("job %d: forward %+v, exit %d; want west's, 4", id, j.Forward, j.ExitCode)
	}
	if n := len(west.copies(t, id)); n != 1 {
		t.Errorf("west holds %d copies of home's job %d, want 1", n, id)
	}
}
