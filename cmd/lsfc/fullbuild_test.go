package main

import (
	"os/exec"
	"strings"
	"testing"
)

// unusedModules are modules the full lsfc build must not link: go-sarif
// and its JSON schema validator (lint writes SARIF itself), cobra's doc
// generator with its Markdown reader and roff writer (lsfc man writes its
// pages itself), and etcd's client with gRPC (serve --etcd is
// lsfc-master's, the build with the tag lsfcmaster). Go runs the package
// initialisation of every package a binary links, at every start,
// whether the command uses it or not.
var unusedModules = []string{
	"github.com/owenrumney/go-sarif", "github.com/xeipuuv/",
	"github.com/spf13/cobra/doc", "github.com/cpuguy83/go-md2man", "github.com/russross/blackfriday",
	"go.etcd.io/", "google.golang.org/grpc", "github.com/lsfc/lsfc/runtime/failover\n", "github.com/lsfc/lsfc/runtime/etcdlog\n",
}

// TestLsfcLinksNoUnusedModule lists the packages the full lsfc build
// links: none of unusedModules.
func TestLsfcLinksNoUnusedModule(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	deps := string(out)
	for _, want := range []string{"github.com/lsfc/lsfc/lint\n", "github.com/spf13/cobra\n"} {
		if !strings.Contains(deps, want) {
			t.Fatalf("go list -deps does not list %s: the listing is not the full lsfc's:\n%s", strings.TrimSpace(want), deps)
		}
	}
	for _, m := range unusedModules {
		if strings.Contains(deps, m) {
			t.Errorf("lsfc links %s", strings.TrimSpace(m))
		}
	}
}

// TestMasterLinksEtcd lists the packages of lsfc-master, the build with
// the tag lsfcmaster: it holds the master candidate of serve --etcd.
func TestMasterLinksEtcd(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-tags", "lsfcmaster", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "github.com/lsfc/lsfc/runtime/failover\n") {
		t.Errorf("lsfc-master does not link runtime/failover")
	}
}
