package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/lsfc/lsfc/runtime/api"
)

func newLsclustersCmd(e env) *lsfCommand {
	s := lsfSpec{
		name:     "lsclusters",
		refused:  lsclustersRefusedOptions(),
		options:  []lsfOption{{"l", ""}, {"w", ""}},
		short:    "Show the cluster of lsfc serve and the MultiCluster peers it knows",
		operands: "[cluster_name ...]",
		long: `lsclusters shows the local cluster, then the other clusters of lsf.shared's
Cluster section (the MultiCluster peers), or those named:

  CLUSTER_NAME   STATUS   MASTER_HOST              ADMIN         HOSTS  SERVERS

For the local cluster: ok, the master host lsfc serve runs on, the
primary administrator (the first of lsf.cluster's ClusterAdmins, else the
user lsfc serve runs as), the number of hosts and of server hosts. For a
peer lsfc knows only whether the last exchange of jobs with it got an
answer: STATUS is ok or unavail, or "-" when lsfc serve has exchanged
nothing with it yet; the other columns are "-". -l shows one block a
cluster: its row, then for the local one every administrator (LSF
administrators:, the primary first) and the site resources, host types
and host models of lsf.shared; for a peer, its servers as lsf.shared
names them. -w cuts no name.

A name that is no cluster is reported on standard error ("NAME: No such
cluster") and lsclusters exits 255.` + lsfStateHelp,
		example: `  lsfc lsclusters
  lsclusters -l`,
	}
	return newLSFCmd(e, s, func(ctx context.Context, a *lsfArgs) error {
		c, err := dialDaemon(e, a)
		if err != nil {
			return lsfFailed(e, "lsclusters", err)
		}
		info, err := c.ClusterInfo(ctx)
		if err != nil {
			return lsfFailed(e, "lsclusters", err)
		}
		all := clusterRows(info)
		rows, missing := pickNamed(all, a.operands, func(r clusterRow) string { return r.Name })
		switch {
		case len(rows) == 0:
		case a.has("l"):
			writeLsclustersLong(e.stdout, rows, info)
		default:
			writeLsclusters(e.stdout, rows, a.has("w"))
		}
		for _, n := range missing {
			fmt.Fprintf(e.stderr, "%s: No such cluster\n", n)
		}
		if len(missing) > 0 {
			return exit(exitLSF, nil)
		}
		return nil
	})
}

// A clusterRow is one cluster as lsclusters lists it; Peer marks a
// MultiCluster peer, of which only the status is known. Its fields are
// exported for textSafe.
type clusterRow struct {
	Name, Status, Master, Admin, Hosts, Servers string
	Peer                                        *api.ClusterPeer
}

// clusterRows returns the local cluster, then its peers.
func clusterRows(info *api.ClusterInfo) []clusterRow {
	admin := "-"
	if len(info.Admins) > 0 {
		admin = info.Admins[0]
	}
	out := []clusterRow{{Name: info.Cluster, Status: "ok", Master: info.Master, Admin: admin,
		Hosts: strconv.Itoa(info.Hosts), Servers: strconv.Itoa(info.Servers)}}
	for i := range info.Peers {
		p := &info.Peers[i]
		st := "-"
		switch {
		case p.Known && p.Up:
			st = "ok"
		case p.Known:
			st = "unavail"
		}
		out = append(out, clusterRow{Name: p.Cluster, Status: st, Master: "-", Admin: "-", Hosts: "-", Servers: "-", Peer: p})
	}
	return out
}

const clustersRow = "%-14s %-8s %-24s %-12s %6s %8s\n"

// writeLsclusters prints lsclusters' table; names are cut to their
// column unless wide.
func writeLsclusters(w io.Writer, rows []clusterRow, wide bool) {
	rows = textSafe(rows)
	fmt.Fprintf(w, clustersRow, "CLUSTER_NAME", "STATUS", "MASTER_HOST", "ADMIN", "HOSTS", "SERVERS")
	for _, r := range rows {
		name, master, admin := r.Name, r.Master, r.Admin
		if !wide {
			name, master, admin = cutEnd(name, 14), cutEnd(master, 24), cutEnd(admin, 12)
		}
		fmt.Fprintf(w, clustersRow, name, r.Status, master, admin, r.Hosts, r.Servers)
	}
}

// writeLsclustersLong prints lsclusters -l: for each cluster its row of
// the table under the table's headings, then, for the local cluster,
// its administrators (the primary first) and the site resources, host
// types and host models of lsf.shared; for a peer, its servers as
// lsf.shared names them.
func writeLsclustersLong(w io.Writer, rows []clusterRow, info *api.ClusterInfo) {
	rows, info = textSafe(rows), textSafe(info)
	for i, r := range rows {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, clustersRow, "CLUSTER_NAME", "STATUS", "MASTER_HOST", "ADMIN", "HOSTS", "SERVERS")
		fmt.Fprintf(w, clustersRow, r.Name, r.Status, r.Master, r.Admin, r.Hosts, r.Servers)
		if r.Peer != nil {
			if len(r.Peer.Servers) > 0 {
				fmt.Fprintf(w, "Servers: %s\n", strings.Join(r.Peer.Servers, " "))
			}
			continue
		}
		fmt.Fprintf(w, "LSF administrators: %s\n", orDash(strings.Join(info.Admins, " ")))
		var site []string
		for _, res := range info.Resources {
			if !res.Builtin {
				site = append(site, res.Name)
			}
		}
		fmt.Fprintf(w, "Available resources: %s\n", orDash(strings.Join(site, " ")))
		fmt.Fprintf(w, "Available host types: %s\n", orDash(strings.Join(info.HostTypes, " ")))
		var models []string
		for _, m := range info.HostModels {
			models = append(models, m.Name)
		}
		fmt.Fprintf(w, "Available host models: %s\n", orDash(strings.Join(models, " ")))
	}
}

// lsclustersRefusedOptions returns the options LSF 10.1 documents for
// lsclusters that lsfc does not implement.
func lsclustersRefusedOptions() []lsfOption {
	return []lsfOption{{"V", ""}}
}
