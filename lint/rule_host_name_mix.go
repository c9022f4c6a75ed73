package lint

import (
	"net"
	"strconv"
	"strings"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
)

// hostNameMix finds host names written once with their domain and once
// without: LIM and mbatchd compare names exactly, so the two spellings
// name two different hosts, and the one that does not match what the host
// resolves to is silently unknown.
func hostNameMix() *Analyzer {
	return &Analyzer{
		Code: "LSF525", Name: "host-name-mix", Severity: lang.Warning,
		Summary: "host names written both fully qualified and short",
		Doc: `What it finds: lsf.cluster listing some hosts by fully qualified name
(node1.example.com) and others by short name (node2); and a host name
written in lsb.* files (queue HOSTS, host groups, compute units, lsb.hosts
rows, limits, partitions) or in LSF_MASTER_LIST of lsf.conf that is not a
host of lsf.cluster but is the short name of one of its fully qualified
hosts, or the reverse. It says nothing when lsf.conf sets
LSF_STRIP_DOMAIN, under which LSF removes domains from host names
itself.

Why it matters: LSF matches host names exactly as written against the
name each host resolves to. A host whose name does not match is "not
defined in cluster file": LIM does not start on it, or mbatchd ignores the
queue or group entry, and the daemons' log is the only trace (see
genome/gms#29, where lsf.cluster held blade16-4-16.gsc.wustl.edu and the
host called itself blade16-4-16).

Example: lsf.cluster lists cn01.hpc.example.com while lsb.hosts has
GROUP_MEMBER (cn01 cn02).

Fix: write every host name the way the hosts resolve their own names
(hostname, or lshosts once LIM runs), the same in every file.`,
		Run: func(p *Pass) {
			if !p.Has(lang.KindLSFCluster) || len(p.Policy.Hosts) == 0 || p.Policy.Conf["LSF_STRIP_DOMAIN"] != nil {
				return
			}
			mixedCluster(p)
			mixedReferences(p)
		},
	}
}

// fqdn reports whether a host name carries a domain: it holds a dot and
// is not an IP address.
func fqdn(name string) bool {
	return strings.Contains(name, ".") && net.ParseIP(name) == nil
}

// shortName returns a host name without its domain.
func shortName(name string) string {
	s, _, _ := strings.Cut(name, ".")
	return s
}

// mixedCluster reports lsf.cluster listing hosts in both forms, at the
// first host of the rarer form.
func mixedCluster(p *Pass) {
	var long, short []*compile.HostDef
	for _, h := range p.Policy.Hosts {
		switch {
		case fqdn(h.Name):
			long = append(long, h)
		case net.ParseIP(h.Name) == nil:
			short = append(short, h)
		}
	}
	if len(long) == 0 || len(short) == 0 {
		return
	}
	few, many := long, short
	fewWhat, manyWhat := "fully qualified", "short"
	if len(short) < len(long) {
		few, many = short, long
		fewWhat, manyWhat = manyWhat, fewWhat
	}
	p.Report(few[0].Span(), "lsf.cluster lists %s by %s name (%s) and %s by %s name (%s): LSF matches host names exactly as each host resolves its own, so usually one form is wrong",
		hostCount(len(few)), fewWhat, hostList(few), hostCount(len(many)), manyWhat, hostList(many)).
		Note(many[0].Span(), "host %q is written with the %s name", many[0].Name, manyWhat)
}

// hostCount prints "1 host", "2 hosts".
func hostCount(n int) string {
	if n == 1 {
		return "1 host"
	}
	return strconv.Itoa(n) + " hosts"
}

// hostList prints at most three host names.
func hostList(hs []*compile.HostDef) string {
	var names []string
	for _, h := range hs {
		names = append(names, h.Name)
	}
	if len(names) > 3 {
		return strings.Join(names[:3], ", ") + ", ..."
	}
	return strings.Join(names, ", ")
}

// mixedReferences reports names of the lsb.* files and LSF_MASTER_LIST
// that miss a host of lsf.cluster by its domain only.
func mixedReferences(p *Pass) {
	hosts := map[string]*compile.HostDef{}
	byShort := map[string]*compile.HostDef{} // the first fully qualified host of each short name
	for _, h := range p.Policy.Hosts {
		hosts[h.Name] = h
		if fqdn(h.Name) && byShort[shortName(h.Name)] == nil {
			byShort[shortName(h.Name)] = h
		}
	}
	known := map[string]bool{}
	for _, g := range p.Policy.HostGroups {
		known[g.Name] = true
	}
	for _, g := range p.Policy.ComputeUnits {
		known[g.Name] = true
	}
	for _, m := range p.Policy.HostModels {
		known[m.Name] = true
	}
	for _, t := range p.Policy.HostTypes {
		known[t] = true
	}
	check := func(name string, sp lang.Span, where string) {
		if hosts[name] != nil || known[name] || hostKeywordOrPattern(name) {
			return
		}
		if fqdn(name) {
			if h := hosts[shortName(name)]; h != nil {
				p.Report(sp, "%s names %q, but lsf.cluster lists the host as %q: LSF matches host names exactly", where, name, h.Name).
					Note(h.Span(), "host %q is defined here", h.Name)
			}
			return
		}
		if h := byShort[name]; h != nil {
			p.Report(sp, "%s names %q, but lsf.cluster lists the host as %q: LSF matches host names exactly", where, name, h.Name).
				Note(h.Span(), "host %q is defined here", h.Name)
		}
	}
	items := func(set compile.Settings) {
		for _, k := range sortedSettingKeys(set) {
			list, _ := set[k].Value.([]compile.HostItem)
			for _, it := range list {
				if it.Cluster == "" {
					check(it.Name, it.Span, k)
				}
			}
		}
	}
	for _, q := range p.Policy.Queues {
		items(q.Settings)
	}
	for _, g := range p.Policy.HostGroups {
		for _, it := range g.Members {
			if it.Cluster == "" {
				check(it.Name, it.Span, "GROUP_MEMBER")
			}
		}
	}
	for _, cu := range p.Policy.ComputeUnits {
		for _, it := range cu.Members {
			if it.Cluster == "" {
				check(it.Name, it.Span, "MEMBER")
			}
		}
	}
	for _, b := range p.Policy.BatchHosts {
		check(b.Row, b.Span(), "HOST_NAME")
	}
	for _, l := range p.Policy.Limits {
		items(l.Settings)
	}
	for _, a := range p.Policy.Applications {
		items(a.Settings)
	}
	for _, o := range p.Policy.Sections {
		items(o.Settings)
		for _, r := range o.Rows {
			items(r)
		}
	}
	if st := p.Policy.Conf["LSF_MASTER_LIST"]; st != nil {
		names, _ := st.Value.([]string)
		for _, n := range names {
			check(n, st.Span(), "LSF_MASTER_LIST")
		}
	}
}

// hostKeywordOrPattern reports the words of host lists that are not host
// names, and names written with wildcards or ranges.
func hostKeywordOrPattern(name string) bool {
	switch strings.ToLower(name) {
	case "all", "others", "none", "allremote", "default", "!":
		return true
	}
	return strings.ContainsAny(name, "*?[")
}
