package daemon_test

import (
	"context"
	"os"
	"os/user"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/lsfc/lsfc/internal/testkit"
	"github.com/lsfc/lsfc/runtime/api"
	"github.com/lsfc/lsfc/runtime/daemon"
	"github.com/lsfc/lsfc/runtime/localexec"
)

// infoConf has a peer cluster, host types, models and site resources in
// lsf.shared, two administrators, two server hosts and a client, and two
// application profiles.
const infoConf = `-- lsf.shared --
Begin Cluster
ClusterName  Servers
test         (127.0.0.1)
east         (e1.invalid:6881)
End Cluster
Begin HostType
TYPENAME
X86_64
End HostType
Begin HostModel
MODELNAME  CPUFACTOR  ARCHITECTURE
XeonE5     60         (x6_4000_Xeon)
Power9     80         ()
End HostModel
Begin Resource
RESOURCENAME  TYPE     INTERVAL  INCREASING  DESCRIPTION
bigmem        Boolean  ()        ()          (hosts with a lot of memory)
scratch       Numeric  60        N           (free scratch space)
End Resource
-- lsf.cluster.test --
Begin ClusterAdmins
Administrators = (lsfadmin ann)
End ClusterAdmins
Begin Host
HOSTNAME  model   type    server  RESOURCES
hostA     XeonE5  X86_64  1       (bigmem)
hostB     XeonE5  X86_64  1       ()
hostC     XeonE5  X86_64  0       ()
End Host
-- lsb.hosts --
Begin Host
HOST_NAME  MXJ
default    1
End Host
-- lsb.params --
Begin Parameters
DEFAULT_QUEUE = normal
End Parameters
-- lsb.queues --
Begin Queue
QUEUE_NAME = normal
PRIORITY   = 30
End Queue
-- lsb.applications --
Begin Application
NAME        = fluent
DESCRIPTION = Fluent solver runs
RUNLIMIT    = 600
MEMLIMIT    = 4096
RES_REQ     = select[mem>100]
PRE_EXEC    = /bin/true
End Application

Begin Application
NAME = plain
End Application
`

// startInfo starts a daemon of conf on a fresh state directory and
// returns a client of it.
func startInfo(t *testing.T, conf string) *client {
	t.Helper()
	p, err := compileTree(testkit.WriteArchive(t, conf))
	if err != nil {
		t.Fatal(err)
	}
	state := t.TempDir()
	d, err := daemon.Start(context.Background(), daemon.Config{Policy: p, StateDir: state,
		WrapperPath: []string{os.Args[0], localexec.WrapperArg}, MinInterval: 5 * time.Millisecond, Logf: t.Logf})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	return unixClient(state)
}

// TestAppsAndClusterInfo checks GET /v1/apps (bapp) and GET /v1/cluster
// (lsclusters, lsinfo): the profiles with what they set and their jobs
// counted by state, and what the configuration says of the cluster.
func TestAppsAndClusterInfo(t *testing.T) {
	c := startInfo(t, infoConf)
	c.submit(t, api.SubmitRequest{Command: "true", App: "fluent", Hold: true, Slots: 2})
	c.submit(t, api.SubmitRequest{Command: "true", App: "fluent", Hold: true})

	var apps []api.App
	if code, err := c.call("GET", "/v1/apps", nil, &apps); err != nil || code != 200 {
		t.Fatalf("GET /v1/apps: %d %v", code, err)
	}
	if len(apps) != 2 || apps[0].Name != "fluent" || apps[1].Name != "plain" {
		t.Fatalf("apps %+v, want fluent and plain in file order", apps)
	}
	f := apps[0]
	if f.Description != "Fluent solver runs" || f.NJobs != 3 || f.Pend != 3 || f.Run != 0 || f.ResReq != "select[mem>100]" {
		t.Errorf("fluent %+v, want its description, 3 pending slots and its RES_REQ", f)
	}
	var limits []string
	for _, l := range f.Limits {
		limits = append(limits, l.Name)
	}
	if !slices.Equal(limits, []string{"RUNLIMIT", "MEMLIMIT"}) || f.Limits[0].Max != 600 || f.Limits[0].Unit != "min" {
		t.Errorf("fluent limits %+v, want RUNLIMIT 600 min and MEMLIMIT", f.Limits)
	}
	if !slices.Contains(f.Params, api.QueueParam{Name: "PRE_EXEC", Value: "/bin/true"}) {
		t.Errorf("fluent params %+v, want PRE_EXEC", f.Params)
	}
	if a := apps[1]; a.NJobs != 0 || len(a.Params) != 0 || len(a.Limits) != 0 {
		t.Errorf("plain %+v, want nothing set and no job", a)
	}

	var info api.ClusterInfo
	if code, err := c.call("GET", "/v1/cluster", nil, &info); err != nil || code != 200 {
		t.Fatalf("GET /v1/cluster: %d %v", code, err)
	}
	if info.Cluster != "test" || info.Master == "" || !slices.Equal(info.Admins, []string{"lsfadmin", "ann"}) ||
		info.Hosts != 3 || info.Servers != 2 {
		t.Errorf("cluster %s master %q admins %v hosts %d servers %d; want test, a master, lsfadmin ann, 3 and 2",
			info.Cluster, info.Master, info.Admins, info.Hosts, info.Servers)
	}
	if len(info.Peers) != 1 || info.Peers[0].Cluster != "east" || info.Peers[0].Known {
		t.Errorf("peers %+v, want east, never heard of", info.Peers)
	}
	if !slices.Equal(info.HostTypes, []string{"X86_64"}) || len(info.HostModels) != 2 ||
		!info.HostModels[0].InUse || info.HostModels[1].InUse || info.HostModels[0].CPUFactor != 60 {
		t.Errorf("types %v models %+v, want X86_64, XeonE5 in use and Power9 not", info.HostTypes, info.HostModels)
	}
	byName := map[string]api.ResourceInfo{}
	for _, r := range info.Resources {
		byName[r.Name] = r
	}
	if r := byName["r15s"]; !r.Builtin || r.Order != "Inc" || r.Type != "Numeric" {
		t.Errorf("r15s %+v, want a built-in numeric index, Inc", r)
	}
	if r := byName["bigmem"]; r.Builtin || r.Type != "Boolean" || r.Order != "N/A" || r.Description != "hosts with a lot of memory" {
		t.Errorf("bigmem %+v, want lsf.shared's Boolean", r)
	}
	if r := byName["scratch"]; r.Interval != 60 || !r.Dynamic || r.Order != "Dec" {
		t.Errorf("scratch %+v, want INTERVAL 60, dynamic, Dec", r)
	}
}

// TestClusterInfoDefaultAdmin checks that a cluster without ClusterAdmins
// names the user the daemon runs as its administrator, as lsfc serve
// treats that user.
func TestClusterInfoDefaultAdmin(t *testing.T) {
	c := startInfo(t, strings.Replace(infoConf, "Begin ClusterAdmins\nAdministrators = (lsfadmin ann)\nEnd ClusterAdmins\n", "", 1))
	var info api.ClusterInfo
	if code, err := c.call("GET", "/v1/cluster", nil, &info); err != nil || code != 200 {
		t.Fatalf("GET /v1/cluster: %d %v", code, err)
	}
	u, err := user.Current()
	if err != nil {
		t.Skip(err)
	}
	if !slices.Equal(info.Admins, []string{u.Username}) {
		t.Errorf("admins %v, want the daemon's user %s", info.Admins, u.Username)
	}
}
