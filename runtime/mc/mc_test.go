package mc_test

import (
	"reflect"
	"testing"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/runtime"
	"github.com/lsfc/lsfc/runtime/mc"
	"golang.org/x/tools/txtar"
)

// policy compiles a configuration tree written as a txtar archive; it
// must compile without errors.
func policy(t *testing.T, archive string) *compile.Policy {
	t.Helper()
	tree, opts := testkit.ArchiveTree(t, txtar.Parse([]byte(archive)), true)
	p, diags := compile.Compile(tree, opts)
	if diags.HasErrors() {
		t.Fatalf("configuration: %v", diags.Err())
	}
	return p
}

// shared is the lsf.shared of the test clusters.
const shared = `-- lsf.shared --
Begin Cluster
ClusterName  Servers
home         (homemaster)
away         (awaymaster:7100 awayalt)
far          ([::1]:7200)
lonely       ()
End Cluster
Begin HostType
TYPENAME
X86_64
AARCH64
End HostType
Begin Resource
RESOURCENAME  TYPE     DESCRIPTION
gpu           Boolean  (has a GPU)
fast          Boolean  (fast disks)
End Resource
`

// homeTree is the submission cluster: "send" forwards to recv@away,
// recv@far (preferred) and the queue "send" of away.
const homeTree = shared + `-- lsf.conf --
LSB_MBD_PORT=7000
LSB_MC_INITFAIL_RETRY=2
-- lsf.cluster.home --
Begin Host
HOSTNAME  model  type    server  RESOURCES
hostA     !      X86_64  1       ()
End Host
-- lsb.params --
Begin Parameters
MBD_SLEEP_TIME = 10
End Parameters
-- lsb.queues --
Begin Queue
QUEUE_NAME      = send
PRIORITY        = 30
SNDJOBS_TO      = recv@away recv@far+2 away
MAX_RSCHED_TIME = 3
End Queue
Begin Queue
QUEUE_NAME      = forever
PRIORITY        = 30
SNDJOBS_TO      = recv@away
MAX_RSCHED_TIME = infinit
End Queue
Begin Queue
QUEUE_NAME = normal
PRIORITY   = 30
End Queue
`

// awayTree is an execution cluster: "recv" takes jobs from home with a
// backlog of 3 and a memory limit; "closed" takes them from others only.
const awayTree = shared + `-- lsf.cluster.away --
Begin Host
HOSTNAME  model  type     server  RESOURCES
awayA     !      X86_64   1       (gpu)
awayB     !      AARCH64  1       ()
End Host
-- lsb.users --
Begin UserGroup
GROUP_NAME  GROUP_MEMBER
science     (alice bob)
End UserGroup
-- lsb.queues --
Begin Queue
QUEUE_NAME   = recv
PRIORITY     = 30
RCVJOBS_FROM = home
IMPT_JOBBKLG = 3
MEMLIMIT     = 1048576
USERS        = science
End Queue
Begin Queue
QUEUE_NAME   = send
PRIORITY     = 30
RCVJOBS_FROM = allclusters
IMPT_JOBBKLG = infinit
End Queue
Begin Queue
QUEUE_NAME   = other
PRIORITY     = 30
RCVJOBS_FROM = far
End Queue
Begin Queue
QUEUE_NAME = normal
PRIORITY   = 30
End Queue
`

func TestPeers(t *testing.T) {
	got := mc.Peers(policy(t, homeTree))
	want := []mc.Peer{
		{Name: "away", Addrs: []string{"awaymaster:7100", "awayalt:7000"}},
		{Name: "far", Addrs: []string{"[::1]:7200"}},
		{Name: "lonely"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Peers:\ngot  %+v\nwant %+v", got, want)
	}
	// Without LSB_MBD_PORT, LSF's default port.
	got = mc.Peers(policy(t, awayTree))
	if len(got) != 3 || got[0].Name != "home" || got[0].Addrs[0] != "homemaster:6881" {
		t.Errorf("Peers of away = %+v, want home at homemaster:6881 first", got)
	}
}

func TestOptionsOf(t *testing.T) {
	for _, tc := range []struct {
		name, extra string
		want        bool
	}{
		{"default", "", false},
		{"remote resource", "-- lsf.conf --\nMC_PLUGIN_REMOTE_RESOURCE=y\n", true},
		{"schedule enhance", "-- lsb.params --\nBegin Parameters\nMC_PLUGIN_SCHEDULE_ENHANCE = RESOURCE_ONLY\nMC_PLUGIN_UPDATE_INTERVAL = 60\nEnd Parameters\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := policy(t, shared+"-- lsf.cluster.home --\nBegin Host\nHOSTNAME model type server RESOURCES\nh ! X86_64 1 ()\nEnd Host\n"+tc.extra)
			if got := mc.OptionsOf(p).RemoteResource; got != tc.want {
				t.Errorf("RemoteResource = %v, want %v", got, tc.want)
			}
		})
	}
}

func TestAccept(t *testing.T) {
	c, err := runtime.NewCluster(policy(t, awayTree), runtime.ClusterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	closed, err := runtime.NewCluster(policy(t, awayTree), runtime.ClusterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	closed.Queue("recv").Open = false
	job := runtime.Submission{User: "alice", Slots: 1, Queue: "send"}
	with := func(f func(*runtime.Submission)) runtime.Submission {
		s := job
		f(&s)
		return s
	}
	for _, tc := range []struct {
		name    string
		c       *runtime.Cluster
		in      mc.Inbound
		pending int
		want    string // "" accepts
	}{
		{"accepted", c, mc.Inbound{From: "home", Queue: "recv", Sub: job}, 2, ""},
		{"allclusters", c, mc.Inbound{From: "far", Queue: "send", Sub: job}, 1000, ""},
		{"no such queue", c, mc.Inbound{From: "home", Queue: "nope", Sub: job}, 0, "nope: no such queue in cluster away"},
		{"not a receive queue", c, mc.Inbound{From: "home", Queue: "normal", Sub: job}, 0,
			"queue normal: the queue does not receive jobs from cluster home (RCVJOBS_FROM)"},
		{"other cluster", c, mc.Inbound{From: "home", Queue: "other", Sub: job}, 0,
			"queue other: the queue does not receive jobs from cluster home (RCVJOBS_FROM)"},
		{"backlog full", c, mc.Inbound{From: "home", Queue: "recv", Sub: job}, 3,
			"queue recv: the queue's pending MultiCluster job limit (IMPT_JOBBKLG) of 3 is reached"},
		{"memlimit", c, mc.Inbound{From: "home", Queue: "recv", Sub: with(func(s *runtime.Submission) { s.MemLimit = 2048 })}, 0,
			"queue recv: the memory limit 2G (-M) exceeds the queue's MEMLIMIT of 1G"},
		{"memlimit within", c, mc.Inbound{From: "home", Queue: "recv", Sub: with(func(s *runtime.Submission) { s.MemLimit = 512 })}, 0, ""},
		{"users", c, mc.Inbound{From: "home", Queue: "recv", Sub: with(func(s *runtime.Submission) { s.User = "carol" })}, 0,
			"queue recv: user carol cannot use the queue (USERS)"},
		{"closed", closed, mc.Inbound{From: "home", Queue: "recv", Sub: job}, 0, "queue recv: the queue is closed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := mc.Accept(tc.c, tc.in, tc.pending)
			got := ""
			if err != nil {
				got = err.Error()
				if _, ok := err.(*runtime.Rejection); !ok {
					t.Errorf("Accept error is %T, want *runtime.Rejection", err)
				}
			}
			if got != tc.want {
				t.Errorf("Accept(%+v) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}
