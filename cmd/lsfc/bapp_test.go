package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/lsfc/lsfc/runtime/api"
)

// fixtureApps are the application profiles the fixture daemon knows.
func fixtureApps() []api.App {
	return []api.App{
		{Name: "fluent", Description: "Fluent solver runs", NJobs: 6, Pend: 2, Run: 3, SSusp: 1, Rsv: 2,
			Limits: []api.QueueLimit{{Name: "RUNLIMIT", Max: 600, Unit: "min"}, {Name: "MEMLIMIT", Max: 4096, Unit: "M"}},
			ResReq: "select[mem>4096] rusage[mem=4096]",
			Params: []api.QueueParam{{Name: "POST_EXEC", Value: "/bin/cleanup"}, {Name: "PRE_EXEC", Value: "/bin/stage-in"}}},
		{Name: "short_interactive_profile", NJobs: 1, Run: 1},
	}
}

// fixtureCluster is the cluster the fixture daemon describes: two hosts,
// one of them a client, and a peer it has exchanged jobs with.
func fixtureCluster() api.ClusterInfo {
	return api.ClusterInfo{Cluster: "demo", Master: "hostA", Admins: []string{"lsfadmin", "ann"}, Hosts: 3, Servers: 2,
		Peers: []api.ClusterPeer{{Cluster: "east", Servers: []string{"e1:7869"}, Known: true, Up: true}, {Cluster: "west"}},
		Resources: []api.ResourceInfo{
			{Name: "r15s", Type: "Numeric", Order: "Inc", Description: "run queue length", Builtin: true, Dynamic: true, Consumable: true},
			{Name: "mem", Type: "Numeric", Order: "Dec", Description: "available memory", Builtin: true, Dynamic: true, Consumable: true},
			{Name: "bigmem", Type: "Boolean", Order: "N/A", Description: "hosts with a lot of memory"},
			{Name: "scratch", Type: "Numeric", Order: "Dec", Description: "free scratch space", Interval: 60, Dynamic: true, Consumable: true},
		},
		HostTypes: []string{"X86_64", "LINUXPPC64"},
		HostModels: []api.HostModelInfo{{Name: "XeonE5", CPUFactor: 60, Architecture: []string{"x6_4000_Xeon"}, InUse: true},
			{Name: "Power9", CPUFactor: 80}},
	}
}

// TestInfoCommands checks bapp, lsclusters and lsinfo against the
// fixture daemon: their tables, long forms, the names they do not know
// and the options they refuse, after the IBM Spectrum LSF 10.1 command
// reference.
func TestInfoCommands(t *testing.T) {
	_, dir := startFakeServe(t)
	for _, tc := range []struct {
		name           string
		args           []string
		code           int
		stdout, stderr string
	}{
		{"bapp", []string{"bapp"}, 0,
			"APPLICATION_NAME   NJOBS     PEND      RUN     SUSP\n" +
				"fluent                 6        2        3        1\n" +
				"short_interactive_     1        0        1        0\n", ""},
		{"bapp -w", []string{"bapp", "-w", "short_interactive_profile"}, 0,
			"APPLICATION_NAME   NJOBS     PEND      RUN     SUSP\n" +
				"short_interactive_profile     1        0        1        0\n", ""},
		{"bapp -l", []string{"bapp", "-l", "fluent"}, 0,
			"\nAPPLICATION NAME: fluent\n -- Fluent solver runs\n\nSTATISTICS:\n" +
				"   NJOBS     PEND      RUN    SSUSP    USUSP      RSV\n" +
				"       6        2        3        1        0        2\n\n" +
				"PARAMETERS:\n\n RUNLIMIT\n 600.0 min\n\n MEMLIMIT\n 4096 M\n\n" +
				"RES_REQ: select[mem>4096] rusage[mem=4096]\nPOST_EXEC: /bin/cleanup\nPRE_EXEC: /bin/stage-in\n\n", ""},
		{"bapp unknown", []string{"bapp", "fluent", "nosuch"}, exitLSF,
			"APPLICATION_NAME   NJOBS     PEND      RUN     SUSP\n" +
				"fluent                 6        2        3        1\n", "nosuch: No such application profile\n"},
		{"bapp only unknown", []string{"bapp", "-l", "nosuch"}, exitLSF, "", "nosuch: No such application profile\n"},
		{"bapp -alloc", []string{"bapp", "-alloc"}, exitLSF, "", "bapp: option -alloc is not supported by lsfc\n"},
		{"lsclusters", []string{"lsclusters"}, 0,
			"CLUSTER_NAME   STATUS   MASTER_HOST              ADMIN         HOSTS  SERVERS\n" +
				"demo           ok       hostA                    lsfadmin          3        2\n" +
				"east           ok       -                        -                 -        -\n" +
				"west           -        -                        -                 -        -\n", ""},
		{"lsclusters -l", []string{"lsclusters", "-l", "demo", "east"}, 0,
			"CLUSTER_NAME   STATUS   MASTER_HOST              ADMIN         HOSTS  SERVERS\n" +
				"demo           ok       hostA                    lsfadmin          3        2\n" +
				"LSF administrators: lsfadmin ann\nAvailable resources: bigmem scratch\n" +
				"Available host types: X86_64 LINUXPPC64\nAvailable host models: XeonE5 Power9\n\n" +
				"CLUSTER_NAME   STATUS   MASTER_HOST              ADMIN         HOSTS  SERVERS\n" +
				"east           ok       -                        -                 -        -\nServers: e1:7869\n", ""},
		{"lsclusters unknown", []string{"lsclusters", "nosuch"}, exitLSF, "", "nosuch: No such cluster\n"},
		{"lsclusters -V", []string{"lsclusters", "-V"}, exitLSF, "", "lsclusters: option -V is not supported by lsfc\n"},
		{"lsinfo", []string{"lsinfo"}, 0,
			"RESOURCE_NAME   TYPE     ORDER  DESCRIPTION\n" +
				"r15s            Numeric  Inc    run queue length\n" +
				"mem             Numeric  Dec    available memory\n" +
				"bigmem          Boolean  N/A    hosts with a lot of memory\n" +
				"scratch         Numeric  Dec    free scratch space\n\n" +
				"TYPE_NAME\nX86_64\nLINUXPPC64\n\n" +
				"MODEL_NAME      CPU_FACTOR  ARCHITECTURE\n" +
				"XeonE5               60.00  x6_4000_Xeon\n" +
				"Power9               80.00  \n", ""},
		{"lsinfo names", []string{"lsinfo", "bigmem", "mem"}, 0,
			"RESOURCE_NAME   TYPE     ORDER  DESCRIPTION\n" +
				"bigmem          Boolean  N/A    hosts with a lot of memory\n" +
				"mem             Numeric  Dec    available memory\n", ""},
		{"lsinfo -l", []string{"lsinfo", "-l", "scratch"}, 0,
			"RESOURCE_NAME:  scratch\nDESCRIPTION: free scratch space\n" +
				"TYPE     ORDER  INTERVAL  BUILTIN  DYNAMIC  CONSUMABLE\n" +
				"Numeric    Dec        60       No      Yes         Yes\n", ""},
		{"lsinfo -m", []string{"lsinfo", "-m"}, 0,
			"MODEL_NAME      CPU_FACTOR  ARCHITECTURE\nXeonE5               60.00  x6_4000_Xeon\n", ""},
		{"lsinfo -M -t", []string{"lsinfo", "-M", "-t"}, 0,
			"TYPE_NAME\nX86_64\nLINUXPPC64\n\nMODEL_NAME      CPU_FACTOR  ARCHITECTURE\n" +
				"XeonE5               60.00  x6_4000_Xeon\nPower9               80.00  \n", ""},
		{"lsinfo -r", []string{"lsinfo", "-r", "-w"}, 0,
			"RESOURCE_NAME   TYPE     ORDER  DESCRIPTION\n" +
				"r15s            Numeric  Inc    run queue length\n" +
				"mem             Numeric  Dec    available memory\n" +
				"bigmem          Boolean  N/A    hosts with a lot of memory\n" +
				"scratch         Numeric  Dec    free scratch space\n", ""},
		{"lsinfo unknown", []string{"lsinfo", "mem", "nosuch"}, exitLSF,
			"RESOURCE_NAME   TYPE     ORDER  DESCRIPTION\nmem             Numeric  Dec    available memory\n",
			"nosuch: Unknown resource name\n"},
		{"lsinfo -V", []string{"lsinfo", "-V"}, exitLSF, "", "lsinfo: option -V is not supported by lsfc\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{tc.args[0], "--state", dir}, tc.args[1:]...)
			code, stdout, stderr := runLSF(t, nil, args...)
			if code != tc.code || stdout != tc.stdout || stderr != tc.stderr {
				t.Errorf("%s: exit %d, want %d\nstdout got:  %q\nstdout want: %q\nstderr got:  %q\nstderr want: %q",
					strings.Join(tc.args, " "), code, tc.code, stdout, tc.stdout, stderr, tc.stderr)
			}
		})
	}
}

// TestInfoCommandsByName checks that lsfc acts as bapp, lsclusters and
// lsinfo when invoked under those names.
func TestInfoCommandsByName(t *testing.T) {
	for _, name := range []string{"bapp", "lsclusters", "lsinfo"} {
		if !isLSFCommand(name) || lsfCommandNamed(name) == nil {
			t.Errorf("%s is not one of the LSF commands lsfc acts as", name)
		}
		if !slices.Contains(lsfCommandNames(), name) {
			t.Errorf("lsfCommandNames lacks %s", name)
		}
	}
}
