package daemon

import (
	"net/http"
	"slices"
	"strings"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/runtime"
	"github.com/lsfc/lsfc/runtime/api"
)

// appLimitNames are the resource usage limits of lsb.applications, in
// the order bapp -l shows them.
var appLimitNames = [...]string{"RUNLIMIT", "CPULIMIT", "TASKLIMIT", "PROCLIMIT", "FILELIMIT", "DATALIMIT",
	"STACKLIMIT", "CORELIMIT", "MEMLIMIT", "SWAPLIMIT", "PROCESSLIMIT", "THREADLIMIT"}

// handleApps answers bapp: the application profiles of lsb.applications
// in file order, with their unfinished jobs counted.
func (d *Daemon) handleApps(w http.ResponseWriter, r *http.Request) {
	v, err := d.do(r.Context(), func() (any, []Record, func(), error) {
		out := []api.App{}
		index := map[*runtime.App]int{}
		for _, def := range d.cluster.Policy.Applications {
			app := d.cluster.Apps[def.Name]
			if app == nil {
				continue
			}
			index[app] = len(out)
			out = append(out, appInfo(def))
		}
		d.cluster.JobsWhere(func(j *runtime.Job) bool {
			i, ok := index[j.App]
			if !ok || j.App == nil || j.State.Finished() {
				return false
			}
			a := &out[i]
			a.NJobs += j.Slots
			switch {
			case j.State.Pending():
				a.Pend += j.Slots
			case j.State == runtime.Run:
				a.Run += j.Slots
			case j.State == runtime.USusp:
				a.USusp += j.Slots
			default:
				a.SSusp += j.Slots
			}
			return false
		})
		for _, j := range d.cluster.Reserving() {
			if i, ok := index[j.App]; ok && j.App != nil {
				out[i].Rsv += j.Reservation.Slots()
			}
		}
		return out, nil, nil, nil
	})
	reply(w, v, err)
}

// settingLimit returns the limit a queue's or profile's setting name
// gives ([default] maximum, with its unit), and whether it gives one.
func settingLimit(set compile.Settings, name string) (api.QueueLimit, bool) {
	st := set[name]
	if st == nil {
		return api.QueueLimit{}, false
	}
	l, ok := st.Value.(*compile.Limit)
	if !ok {
		return api.QueueLimit{}, false
	}
	ql := api.QueueLimit{Name: name, Max: l.Max, Unit: limitUnit(name), Spec: l.Spec}
	if l.Default != nil {
		ql.Default = *l.Default
	}
	return ql, true
}

// appInfo describes what a profile sets: its description, its limits,
// RES_REQ and GPU_REQ, and every other parameter as written, by name.
func appInfo(def *compile.Application) api.App {
	set := def.Settings
	out := api.App{Name: def.Name, Description: settingString(set, "DESCRIPTION")}
	shown := map[string]bool{"NAME": true, "DESCRIPTION": true}
	for _, name := range appLimitNames {
		if al, ok := settingLimit(set, name); ok {
			out.Limits = append(out.Limits, al)
			shown[name] = true
		}
	}
	if st := set["RES_REQ"]; st != nil {
		out.ResReq = unquote(st.Raw)
		shown["RES_REQ"] = true
	}
	if st := set["GPU_REQ"]; st != nil {
		out.GPUReq = unquote(st.Raw)
		shown["GPU_REQ"] = true
	}
	names := make([]string, 0, len(set))
	for name := range set {
		if !shown[name] {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		out.Params = append(out.Params, api.QueueParam{Name: name, Value: unquote(set[name].Raw)})
	}
	return out
}

// unquote returns a setting as written, blanks around it and one pair of
// double quotes around the whole removed.
func unquote(raw string) string {
	v := strings.TrimSpace(raw)
	if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
		v = v[1 : len(v)-1]
	}
	return v
}

// handleCluster answers lsclusters and lsinfo: the cluster, its master,
// administrators and hosts, the MultiCluster peers it knows, and the
// resources, host types and host models of lsf.shared.
func (d *Daemon) handleCluster(w http.ResponseWriter, r *http.Request) {
	v, err := d.do(r.Context(), func() (any, []Record, func(), error) {
		p := d.cluster.Policy
		out := api.ClusterInfo{Cluster: p.Cluster, Master: d.host, Admins: slices.Clone(p.Admins),
			HostTypes: slices.Clone(p.HostTypes)}
		if len(out.Admins) == 0 {
			// With no ClusterAdmins, the user the daemon runs as
			// administers the cluster.
			out.Admins = []string{daemonUser()}
		}
		models := map[string]bool{}
		for _, h := range d.cluster.Hosts {
			if h.Retired {
				continue
			}
			out.Hosts++
			if h.Facts.Server {
				out.Servers++
			}
			models[h.Facts.Model] = true
		}
		for _, c := range p.Clusters {
			if c.Name == p.Cluster {
				continue
			}
			peer := api.ClusterPeer{Cluster: c.Name, Servers: slices.Clone(c.Servers)}
			if st := d.mcPeers[c.Name]; st != nil {
				peer.Known, peer.Up = true, st.up
			}
			out.Peers = append(out.Peers, peer)
		}
		for _, m := range p.HostModels {
			out.HostModels = append(out.HostModels, api.HostModelInfo{Name: m.Name, CPUFactor: m.CPUFactor,
				Architecture: slices.Clone(m.Architecture), InUse: models[m.Name]})
		}
		site := map[string]*compile.ResourceDef{}
		for _, rd := range p.Resources {
			site[rd.Name] = rd
		}
		for _, res := range d.cluster.Env.Resources() {
			ri := api.ResourceInfo{Name: res.Name, Type: res.Type.String(), Order: "N/A", Description: res.Doc,
				Builtin: res.Builtin, Dynamic: res.Dynamic, Consumable: res.Consumable}
			if res.Type == compile.Numeric {
				ri.Order = "Dec"
				if res.Increasing {
					ri.Order = "Inc"
				}
			}
			if rd := site[res.Name]; rd != nil && !res.Builtin {
				ri.Description, ri.Interval = rd.Description, rd.Interval
			}
			out.Resources = append(out.Resources, ri)
		}
		return out, nil, nil, nil
	})
	reply(w, v, err)
}
