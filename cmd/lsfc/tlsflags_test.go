//go:build !lsfclient

package main

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/lint"
	"github.com/lsfc/lsfc/runtime/daemon"
	"github.com/lsfc/lsfc/runtime/localexec"
)

// TestLSFOverTLS runs a daemon with serve's TLS flags and no secret, and
// LSF's commands against it with $LSFC_TLS_*: the job is the user's the
// certificate names; without a certificate the command is refused.
func TestLSFOverTLS(t *testing.T) {
	res, err := lint.Run([]string{filepath.Join("..", "..", "testdata", "clusters", "demo")}, lint.Options{})
	if err != nil || res.Diagnostics.HasErrors() {
		t.Fatalf("demo tree: %v %v", err, res.Diagnostics.Err())
	}
	ca := testkit.NewCA(t, "cluster CA")
	cert, key := ca.Issue(t, "master")
	f := tlsFlags{cert: cert, key: key, clientCA: ca.File()}
	server, peer, err := f.serve(true)
	if err != nil {
		t.Fatal(err)
	}
	if peer == nil || len(peer.Certificates) != 1 || peer.RootCAs == nil {
		t.Errorf("the peers' TLS: %+v, want the daemon's certificate and the authorities", peer)
	}
	d, err := daemon.Start(context.Background(), daemon.Config{Policy: res.Policy, StateDir: t.TempDir(),
		WrapperPath: []string{os.Args[0], localexec.WrapperArg}, MinInterval: 5 * time.Millisecond,
		Listen: "127.0.0.1:0", TLS: server, PeerTLS: peer, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	userCert, userKey := ca.Issue(t, "alice")
	vars := map[string]string{"LSFC_MASTER": d.Addr(), "LSFC_TLS_CERT": userCert, "LSFC_TLS_KEY": userKey, "LSFC_TLS_CA": ca.File()}
	code, out, errOut := runLSF(t, vars, "bsub", "-H", "true")
	if code != 0 || !strings.HasPrefix(out, "Job <") {
		t.Fatalf("bsub over TLS: %d %q %q", code, out, errOut)
	}
	id, err := parseJobID(strings.TrimSpace(out))
	if err != nil {
		t.Fatal(err)
	}
	code, out, errOut = runLSF(t, vars, "bjobs", "-o", "user", "-noheader", strconv.FormatInt(id, 10))
	if code != 0 || out != "alice\n" {
		t.Errorf("bjobs %d over TLS: %d %q %q, want alice's job", id, code, out, errOut)
	}
	delete(vars, "LSFC_TLS_CERT")
	delete(vars, "LSFC_TLS_KEY")
	if code, _, errOut := runLSF(t, vars, "bjobs"); code == 0 || !strings.Contains(errOut, "LSFC_TLS_CERT") {
		t.Errorf("bjobs with neither certificate nor secret: %d %q", code, errOut)
	}
	vars["LSFC_SECRET"] = "guess"
	if code, _, errOut := runLSF(t, vars, "bjobs"); code == 0 || !strings.Contains(errOut, "certificate") {
		t.Errorf("bjobs with a secret the daemon does not take: %d %q", code, errOut)
	}
	if _, _, err := (&tlsFlags{clientCA: ca.File()}).serve(false); err == nil {
		t.Errorf("--client-ca without --tls-cert was taken")
	}
}
