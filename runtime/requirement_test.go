package runtime

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/internal/testkit"
	"golang.org/x/tools/txtar"
)

const precompileConf = `
-- lsf.shared --
Begin Cluster
ClusterName
test
End Cluster

Begin Resource
RESOURCENAME  TYPE     INTERVAL  INCREASING  DESCRIPTION
ssd           Boolean  ()        ()          (solid state disk)
End Resource
-- lsf.cluster.test --
Begin Host
HOSTNAME  model  type  server  RESOURCES
hostA     !      !     1       (ssd)
hostB     !      !     1       ()
End Host
-- lsb.queues --
Begin Queue
QUEUE_NAME = normal
PRIORITY   = 30
RES_REQ    = select[ssd || type==any]
End Queue

Begin Queue
QUEUE_NAME = short
PRIORITY   = 40
End Queue
-- lsb.params --
Begin Parameters
DEFAULT_QUEUE = short normal
End Parameters
`

func precompileCluster(t *testing.T) *Cluster {
	t.Helper()
	tree, opts := testkit.ArchiveTree(t, txtar.Parse([]byte(precompileConf)), true)
	p, ds := compile.Compile(tree, opts)
	if ds.HasErrors() {
		t.Fatal(ds.Err())
	}
	c, err := NewCluster(p, ClusterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestPrecompiledRequirement checks that a requirement compiled off the
// cluster's owner is the one the job gets, for a named queue and for the
// default queues; that one compiled for another configuration is not
// used; and that a bad -R is rejected with its position either way.
func TestPrecompiledRequirement(t *testing.T) {
	c := precompileCluster(t)
	rc := c.ReqCompiler()
	const r = "select[ssd] rusage[mem=10]"
	for _, queue := range []string{"normal", ""} {
		pre := rc.Compile(queue, "", r, "hostA")
		if pre == nil {
			t.Fatalf("queue %q: nothing compiled", queue)
		}
		if again := rc.Compile(queue, "", r, "hostA"); again.entries[0] != pre.entries[0] {
			t.Errorf("queue %q: the same -R compiled twice", queue)
		}
		j, err := c.Submit(Submission{User: "u", Queue: queue, ResReq: r, FromType: c.Host("hostA").Facts.Type, Pre: pre}, 0)
		if err != nil {
			t.Fatal(err)
		}
		queueReq, _ := resReqs(j.Queue, nil)
		want, _, ok := pre.lookup(reqInputs{env: c.Env, queue: queueReq, jobR: r, fromType: j.FromType})
		// The cluster keeps a copy of its own; the compiled form is the
		// one made off the owner.
		if !ok || j.Req == nil || want == nil || j.Req.C != want.C {
			t.Errorf("queue %q: the job's requirement %q is not the one compiled for it", queue, j.Req.Text)
		}
		if j.Sub.Pre != nil {
			t.Errorf("queue %q: the job keeps the compiled requirements", queue)
		}
	}

	// Another configuration: an Env of its own, so the owner compiles.
	other := precompileCluster(t).ReqCompiler().Compile("normal", "", r, "hostA")
	j, err := c.Submit(Submission{User: "u", Queue: "normal", ResReq: r, FromType: "X", Pre: other}, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range other.entries {
		if e.req != nil && j.Req.C == e.req.C {
			t.Errorf("a requirement compiled for another configuration was used")
		}
	}
	if !strings.Contains(j.Req.Text, "ssd") {
		t.Errorf("requirement %q, want one with ssd", j.Req.Text)
	}

	const bad = "select[sdd]"
	for _, pre := range []*Precompiled{rc.Compile("normal", "", bad, "hostA"), nil} {
		_, err := c.Submit(Submission{User: "u", Queue: "normal", ResReq: bad, FromType: c.Host("hostA").Facts.Type, Pre: pre}, 0)
		if err == nil || !strings.Contains(err.Error(), `-R:1:8: error: unknown resource "sdd"`) {
			t.Errorf("precompiled %v: error %v, want the unknown resource at -R:1:8", pre != nil, err)
		}
	}
}

// TestReqCompilerConcurrent compiles requirements merged with a queue's
// RES_REQ from several goroutines at once (run it with -race).
func TestReqCompilerConcurrent(t *testing.T) {
	rc := precompileCluster(t).ReqCompiler()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range 20 {
				r := fmt.Sprintf("select[mem>%d] order[r1m] rusage[mem=%d]", i%3, k%4)
				pre := rc.Compile("normal", "", r, "hostA")
				if pre == nil || len(pre.entries) != 1 || pre.entries[0].req == nil {
					t.Errorf("-R %q: nothing compiled", r)
					return
				}
				if !strings.Contains(pre.entries[0].req.Text, "ssd") {
					t.Errorf("-R %q: merged %q lacks the queue's select", r, pre.entries[0].req.Text)
				}
			}
		}()
	}
	wg.Wait()
}

// TestReqCompilerCacheBounded compiles more distinct requirements than two
// generations of the cache hold: it keeps no more than those, and one in
// regular use stays.
func TestReqCompilerCacheBounded(t *testing.T) {
	rc := precompileCluster(t).ReqCompiler()
	const hot = "select[ssd]"
	first := rc.Compile("normal", "", hot, "hostA")
	for i := range 3 * precompiledGeneration {
		rc.Compile("normal", "", fmt.Sprintf("rusage[mem=%d]", i+1), "hostA")
		if i%100 == 0 {
			rc.Compile("normal", "", hot, "hostA")
		}
	}
	if n := len(rc.cache.current) + len(rc.cache.older); n > 2*precompiledGeneration {
		t.Errorf("the cache holds %d entries, want at most %d", n, 2*precompiledGeneration)
	}
	if again := rc.Compile("normal", "", hot, "hostA"); again.entries[0] != first.entries[0] {
		t.Errorf("a requirement in regular use was compiled again")
	}
}
