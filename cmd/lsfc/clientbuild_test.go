package main

import (
	"os/exec"
	"strings"
	"testing"
)

// clientBinary is the name the README installs the LSF commands' build
// under; the LSF command names are links to it.
const clientBinary = "lsfc-client"

// clientTags are the build tags of lsfc-client: the LSF commands alone
// (lsfclient), and Go's own resolver and user lookup (netgo, osusergo) so
// that the binary is linked statically and starts without the dynamic
// loader.
const clientTags = "lsfclient,netgo,osusergo"

// buildClient builds lsfc-client at path.
func buildClient(tb testing.TB, path string) {
	tb.Helper()
	if out, err := exec.Command("go", "build", "-tags", clientTags, "-o", path, ".").CombinedOutput(); err != nil {
		tb.Fatalf("go build -tags %s: %v\n%s", clientTags, err, out)
	}
}

// heavyModules are the modules lsfc-client must not link: the daemon's
// etcd and gRPC, protobuf, the compiler's CEL, and lint's SARIF and JSON
// schema, whose package initialisation alone costs more than a Go
// program's whole start; and Go's HTTP client and TLS, which add half as
// much again to a start.
var heavyModules = []string{
	"go.etcd.io/", "google.golang.org/grpc", "google.golang.org/protobuf", "cel.dev/",
	"github.com/xeipuuv/gojsonschema", "github.com/owenrumney/go-sarif", "go.opentelemetry.io/",
	"github.com/russross/blackfriday", "go.yaml.in/yaml", "github.com/fsnotify/fsnotify",
	"github.com/lsfc/lsfc/compile\n", "github.com/lsfc/lsfc/runtime\n", "github.com/lsfc/lsfc/runtime/daemon\n",
	"github.com/lsfc/lsfc/lint\n",
	// The API's client speaks HTTP/1.1 itself, and hands TLS to lsfc.
	"net/http\n", "crypto/tls\n", "crypto/x509\n",
	// The LSF commands read their options and write their help
	// themselves; lsfc's tree of commands (cobra, and text/template for
	// its help) is lsfc's.
	"github.com/spf13/cobra\n", "github.com/spf13/pflag\n", "text/template\n",
	// No cryptography at all: interactive jobs' encrypted stream is
	// lsfc's too, and a submission's token comes from the runtime's
	// generator.
	"crypto/",
}

// TestClientLinksNoHeavyPackage lists the packages lsfc-client links: none
// of heavyModules, and no cgo (it is linked statically).
func TestClientLinksNoHeavyPackage(t *testing.T) {
	out, err := exec.Command("go", "list", "-tags", clientTags, "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := string(out)
	if !strings.Contains(deps, "github.com/lsfc/lsfc/runtime/api\n") {
		t.Fatalf("go list -deps does not list runtime/api: the listing is not lsfc-client's:\n%s", deps)
	}
	for _, m := range heavyModules {
		if strings.Contains(deps, m) {
			t.Errorf("lsfc-client links %s", strings.TrimSpace(m))
		}
	}
	if strings.Contains(deps, "runtime/cgo\n") {
		t.Errorf("lsfc-client links runtime/cgo: it would need the dynamic loader at every start")
	}
}
