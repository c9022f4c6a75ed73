package runtime_test

import (
	"slices"
	"testing"

	"github.com/lsfc/lsfc/runtime"
)

const gpuTree = `-- lsf.shared --
Begin Resource
RESOURCENAME  TYPE     INTERVAL  INCREASING  DESCRIPTION
ngpus         Numeric  ()        N           (GPUs of the host)
End Resource
-- lsf.cluster.test --
Begin Host
HOSTNAME model type server RESOURCES
hostA ! ! 1 ()
hostB ! ! 1 ()
End Host
Begin ResourceMap
RESOURCENAME  LOCATION
ngpus         (2@[hostA])
End ResourceMap
-- lsb.hosts --
Begin Host
HOST_NAME MXJ
default   4
End Host
-- lsb.params --
Begin Parameters
JOB_ACCEPT_INTERVAL = 0
End Parameters
-- lsf.conf --
LSB_GPU_REQ="gmem=1G:j_exclusive=yes"
-- lsb.queues --
Begin Queue
QUEUE_NAME = normal
PRIORITY = 30
GPU_REQ  = "num=2:mode=shared"
End Queue
Begin Queue
QUEUE_NAME = plain
PRIORITY = 30
End Queue
`

// TestJobGPURequirement: the queue's GPU_REQ and LSB_GPU_REQ merge option
// by option; a job's own -gpu replaces them whole (GPU_REQ_MERGE is not
// set); a job of a queue without GPU_REQ asks for no GPU unless it gives
// -gpu, and "-gpu -" takes the merged defaults.
func TestJobGPURequirement(t *testing.T) {
	c, err := runtime.NewCluster(policyOf(t, gpuTree), runtime.ClusterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ queue, gpu, want string }{
		{"normal", "", "num=2:mode=shared:mps=no:j_exclusive=yes:gmem=1G"},
		{"normal", "-", "num=2:mode=shared:mps=no:j_exclusive=yes:gmem=1G"},
		{"normal", "num=1", "num=1:mode=shared:mps=no:j_exclusive=no"},
		{"plain", "", ""},
		{"plain", "-", "num=1:mode=shared:mps=no:j_exclusive=yes:gmem=1G"},
	} {
		j, err := c.Submit(runtime.Submission{User: "u", Queue: tc.queue, GPU: tc.gpu}, 1)
		if err != nil {
			t.Fatal(err)
		}
		got := ""
		if j.GPU != nil {
			got = j.GPU.String()
		}
		if got != tc.want {
			t.Errorf("queue %s, -gpu %q: requirement %q, want %q", tc.queue, tc.gpu, got, tc.want)
		}
	}
	if _, err := c.Submit(runtime.Submission{User: "u", Queue: "plain", GPU: "num=1:mps=yes"}, 1); err == nil {
		t.Error("mps=yes was accepted")
	}
}

// TestGPUsKeptAcrossRestore: the GPUs a job holds are part of its image,
// so that a cluster rebuilt from images (a restart, a reconfiguration)
// finds them held, and gives them to no other job.
func TestGPUsKeptAcrossRestore(t *testing.T) {
	p := policyOf(t, gpuTree)
	c, err := runtime.NewCluster(p, runtime.ClusterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	e := runtime.NewEngine(c, &runtime.VirtualClock{T: 1}, nil)
	j, err := e.Submit(runtime.Submission{User: "u", Queue: "plain", GPU: "num=1:j_exclusive=yes"})
	if err != nil {
		t.Fatal(err)
	}
	e.Schedule()
	if got := j.GPUsOn("hostA"); !slices.Equal(got, []int{0}) {
		t.Fatalf("job holds GPUs %v of hostA, want [0]", got)
	}
	n, err := runtime.NewCluster(p, runtime.ClusterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r, warn, err := n.Restore(j.Image())
	if err != nil || warn != "" {
		t.Fatalf("Restore: %v %q", err, warn)
	}
	if got := r.GPUsOn("hostA"); !slices.Equal(got, []int{0}) {
		t.Errorf("restored job holds GPUs %v of hostA, want [0]", got)
	}
	st := n.Host("hostA").GPUStates()
	if len(st) != 2 || st[0].Jobs != 1 || !st[0].Exclusive || st[1].Jobs != 0 {
		t.Errorf("hostA's GPUs after the restore: %+v", st)
	}
	e2 := runtime.NewEngine(n, &runtime.VirtualClock{T: 2}, nil)
	k, err := e2.Submit(runtime.Submission{User: "u", Queue: "plain", GPU: "num=1"})
	if err != nil {
		t.Fatal(err)
	}
	e2.Schedule()
	if got := k.GPUsOn("hostA"); !slices.Equal(got, []int{1}) {
		t.Errorf("a second job holds GPUs %v of hostA, want [1]", got)
	}
}

// TestSetGPUs: GPUs found on a host replace the declared ones; an empty
// report brings the declared ones back.
func TestSetGPUs(t *testing.T) {
	c, err := runtime.NewCluster(policyOf(t, gpuTree), runtime.ClusterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	b := c.Host("hostB")
	if len(b.GPUs) != 0 || len(c.Host("hostA").GPUs) != 2 {
		t.Fatalf("declared GPUs: hostA %v, hostB %v", c.Host("hostA").GPUs, b.GPUs)
	}
	found := []runtime.GPUDevice{{Index: 0, Model: "Tesla_T4", Mem: 15360}}
	c.SetGPUs(b, found)
	if !b.GPUsFound() || !slices.Equal(b.GPUs, found) {
		t.Errorf("after the report: %v (found %v)", b.GPUs, b.GPUsFound())
	}
	c.SetGPUs(b, nil)
	if b.GPUsFound() || len(b.GPUs) != 0 {
		t.Errorf("after an empty report: %v (found %v)", b.GPUs, b.GPUsFound())
	}
}
