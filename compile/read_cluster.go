package compile

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lsfc/lsfc/compile/schema"
	"github.com/lsfc/lsfc/lang"
)

// readConf reads lsf.conf. LSF_UNIT_FOR_LIMITS is read first: the memory
// keys of every file depend on it.
func (c *compiler) readConf() {
	c.limitUnit = KB
	f := c.tree.File(lang.KindLSFConf)
	if f == nil {
		c.p.Conf = Settings{}
		return
	}
	if a := lookup(f, "LSF_UNIT_FOR_LIMITS"); a != nil && c.dialect != Openlava {
		if u, err := ParseUnit(a.Value.Text); err == nil {
			c.limitUnit = u
		}
	}
	var assigns []*lang.Assignment
	for _, it := range f.Items {
		if a, ok := it.(*lang.Assignment); ok {
			assigns = append(assigns, a)
		}
	}
	fs := schema.Lookup(lang.KindLSFConf)
	c.p.Conf = c.keyValues(lang.KindLSFConf, assigns, &fs.Sections[0])
	c.dynamicHosts = c.p.Conf["LSF_DYNAMIC_HOST_WAIT_TIME"] != nil // and LSF_HOST_ADDR_RANGE: see readCluster
}

// define records a name of some kind (queue, host, host group ...) and
// reports a second definition, with a note on the first. Definitions in
// different arms of one #if chain do not clash. It reports whether the
// name is new.
func (c *compiler) define(defs map[string]lang.Span, branches map[string]*lang.Branch, what, name string, sp lang.Span, br *lang.Branch) bool {
	first, dup := defs[name]
	bkey := what + "\x00" + name // one branch map may serve several kinds of name
	if dup && !alternatives(branches[bkey], br) {
		c.diags.Add(lang.Error, CodeDuplicate, sp, "%s %q is defined twice; LSF uses the first definition and ignores this one", what, name).
			Note(first, "first defined here")
		return false
	}
	if !dup {
		defs[name] = sp
		branches[bkey] = br
	}
	return !dup
}

// readShared reads lsf.shared: clusters, host types and models, and the
// site resources.
func (c *compiler) readShared(f *lang.File) {
	seen := map[string]map[string]lang.Span{}
	br := map[string]*lang.Branch{}
	defs := func(what string) map[string]lang.Span {
		if seen[what] == nil {
			seen[what] = map[string]lang.Span{}
		}
		return seen[what]
	}
	c.sections(f, func(s *lang.Section, ss *schema.Section) {
		for _, r := range c.table(f.Kind, s, ss) {
			switch ss.Name {
			case "Cluster":
				name := r.set.str("ClusterName")
				if name == "" || !c.define(defs("cluster"), br, "cluster", name, r.set.spanOf("ClusterName"), r.row.Branch) {
					continue
				}
				cl := &ClusterDef{Name: name, Servers: r.set.list("Servers"), Addrs: c.serverAddrs(r.set["Servers"]), At: at(r.set.spanOf("ClusterName")), span: r.set.spanOf("ClusterName")}
				c.clusters[name] = cl
				c.p.Clusters = append(c.p.Clusters, cl)
			case "HostType":
				name := r.set.str("TYPENAME")
				if name == "" || !c.define(defs("host type"), br, "host type", name, r.set.spanOf("TYPENAME"), r.row.Branch) {
					continue
				}
				c.types[name] = r.set.spanOf("TYPENAME")
				c.p.HostTypes = append(c.p.HostTypes, name)
			case "HostModel":
				name := r.set.str("MODELNAME")
				if name == "" || !c.define(defs("host model"), br, "host model", name, r.set.spanOf("MODELNAME"), r.row.Branch) {
					continue
				}
				m := &HostModel{Name: name, Architecture: r.set.list("ARCHITECTURE")}
				if x := r.set.num("CPUFACTOR"); x != nil {
					m.CPUFactor = *x
				}
				c.models[name] = r.set.spanOf("MODELNAME")
				c.p.HostModels = append(c.p.HostModels, m)
			case "Resource":
				c.sharedResource(r, defs("resource"), br)
			}
		}
	})
}

// sharedResource reads one row of lsf.shared's Resource section.
func (c *compiler) sharedResource(r tableRow, defs map[string]lang.Span, br map[string]*lang.Branch) {
	name := r.set.str("RESOURCENAME")
	sp := r.set.spanOf("RESOURCENAME")
	if name == "" {
		return
	}
	if problem := resourceNameProblem(name); problem != "" {
		c.diags.Add(lang.Error, CodeReservedName, sp, "resource name %q %s; LSF rejects the resource", name, problem)
		return
	}
	typ := r.set.str("TYPE")
	if typ == "" {
		typ = "Boolean"
	}
	if _, ok := ncpusDefiners[name]; ok && typ != "Boolean" {
		c.diags.Add(lang.Error, CodeReservedName, r.set.spanOf("TYPE"), "resource %q selects how LSF counts ncpus and must be Boolean, not %s", name, typ)
		return
	}
	if !c.define(defs, br, "resource", name, sp, r.row.Branch) {
		return
	}
	def := &ResourceDef{Name: name, Type: typ, Dynamic: r.set["INTERVAL"] != nil, Increasing: r.set.flag("INCREASING"),
		Description: r.set.str("DESCRIPTION"), At: at(sp), span: sp}
	if st := r.set["INTERVAL"]; st != nil {
		if d, ok := st.Value.(Duration); ok {
			def.Interval = float64(d)
		}
	}
	if typ != "Numeric" {
		for _, k := range []string{"INCREASING", "CONSUMABLE"} {
			if st := r.set[k]; st != nil {
				c.diags.Add(lang.Warning, CodeConflict, st.span, "%s applies to Numeric resources only; %q is %s", k, name, typ)
			}
		}
	}
	c.resources[name] = def
	c.p.Resources = append(c.p.Resources, def)
}

// readCluster reads lsf.cluster.<name>: administrators, hosts, resource
// locations, parameters and remote clusters.
func (c *compiler) readCluster(f *lang.File) {
	hostDefs := map[string]lang.Span{}
	br := map[string]*lang.Branch{}
	if c.p.ClusterParams == nil {
		c.p.ClusterParams = Settings{}
	}
	c.sections(f, func(s *lang.Section, ss *schema.Section) {
		switch ss.Name {
		case "Parameters":
			set := c.keyValues(f.Kind, s.Assigns, ss)
			for _, k := range set.keys() {
				c.put(c.p.ClusterParams, k, set[k])
			}
			c.required(s, ss, c.p.ClusterParams)
		case "ClusterAdmins":
			c.clusterAdmins(f, s, ss)
		case "Host":
			for _, r := range c.table(f.Kind, s, ss) {
				c.clusterHost(r, hostDefs, br)
			}
		case "ResourceMap":
			for _, r := range c.table(f.Kind, s, ss) {
				c.resourceMap(r)
			}
		case "RemoteClusters":
			for _, r := range c.table(f.Kind, s, ss) {
				if name := r.set.str("CLUSTERNAME"); name != "" {
					c.clusterRef(name, r.set.spanOf("CLUSTERNAME"), "CLUSTERNAME")
				}
			}
		}
	})
}

// clusterAdmins reads ClusterAdmins, which LSF takes in either form.
func (c *compiler) clusterAdmins(f *lang.File, s *lang.Section, ss *schema.Section) {
	var sets []Settings
	if s.Form == lang.FormTable {
		for _, r := range c.table(f.Kind, s, ss) {
			sets = append(sets, r.set)
		}
	} else {
		set := c.keyValues(f.Kind, s.Assigns, ss)
		c.required(s, ss, set)
		sets = append(sets, set)
	}
	for _, set := range sets {
		if st := set["Administrators"]; st != nil {
			for _, u := range userItems(st.val) {
				c.p.Admins = append(c.p.Admins, u.Name)
			}
		}
	}
}

// clusterHost reads one row of lsf.cluster's Host section. A row whose
// HOSTNAME is in condensed notation ("node[001-128]") defines each host it
// stands for.
func (c *compiler) clusterHost(r tableRow, defs map[string]lang.Span, br map[string]*lang.Branch) {
	name := r.set.str("HOSTNAME")
	sp := r.set.spanOf("HOSTNAME")
	if name == "" {
		return
	}
	names := []string{name}
	if cond, ok, err := parseCondensed(name); ok {
		switch {
		case err != nil:
			c.valueError(sp, "HOSTNAME", "%v", err)
			return
		case cond.size() > maxCondensed:
			c.valueError(sp, "HOSTNAME", "%q stands for more than %d hosts", name, maxCondensed)
			return
		}
		names = cond.expand()
	}
	model, typ := r.set.str("model"), r.set.str("type")
	// "!" asks LIM to detect the model or type: nothing to record.
	if len(c.models) > 0 && model != "" && model != "!" {
		c.knownName(c.models, "host model", model, r.set.spanOf("model"), "lsf.shared's HostModel section")
	}
	if len(c.types) > 0 && typ != "" && typ != "!" {
		c.knownName(c.types, "host type", typ, r.set.spanOf("type"), "lsf.shared's HostType section")
	}
	var resources []string
	if st := r.set["RESOURCES"]; st != nil {
		for _, w := range words(unparen(st.val)) {
			resources = append(resources, w.text)
			c.hostResource(w)
		}
	}
	var thresholds map[string]Threshold
	for k, st := range r.set {
		if th, ok := st.Value.(Threshold); ok {
			if thresholds == nil {
				thresholds = map[string]Threshold{}
			}
			thresholds[k] = th
		}
	}
	server := r.set.str("server") != "0"
	for _, name := range names {
		if !c.define(defs, br, "host", name, sp, r.row.Branch) {
			continue
		}
		h := &HostDef{Name: name, Model: strings.TrimPrefix(model, "!"), Type: strings.TrimPrefix(typ, "!"), Server: server, Resources: resources, Thresholds: thresholds, At: at(sp), span: sp}
		c.hosts[name] = h
		c.p.Hosts = append(c.p.Hosts, h)
	}
}

// knownName reports a host model or type that lsf.shared does not
// declare.
func (c *compiler) knownName(known map[string]lang.Span, what, name string, sp lang.Span, where string) {
	if _, ok := known[name]; ok {
		return
	}
	d := c.diags.Add(lang.Error, CodeUnknownModel, sp, "unknown %s %q: it is not in %s", what, name, where)
	if s := lang.Suggest(name, sortedKeys(known)); s != "" {
		d.Message += "; did you mean " + quote(s) + "?"
		d.Suggest(replaceWith(s), sp, s)
	}
}

// hostResource checks one item of a host's RESOURCES: a Boolean resource
// ("fs", "!fs" to drop one) or a static value ("res=value"), which must be
// declared in lsf.shared.
func (c *compiler) hostResource(w word) {
	name, value, hasValue := strings.Cut(strings.TrimPrefix(w.text, "!"), "=")
	if !c.has[lang.KindLSFShared] || name == "" {
		return
	}
	def := c.resources[name]
	switch {
	case def == nil:
		c.undeclared(name, w.span, "lsf.shared's Resource section", "a host's RESOURCES", sortedKeys(c.resources))
	case !hasValue && def.Type != "Boolean":
		c.diags.Add(lang.Error, CodeBadValue, w.span, "RESOURCES: %q is a %s resource; give its value as %s=value", name, def.Type, name).
			Note(def.span, "declared here")
	case hasValue && def.Type == "Boolean":
		c.diags.Add(lang.Error, CodeBadValue, w.span, "RESOURCES: %q is a Boolean resource and takes no value (write %s)", name, name).
			Note(def.span, "declared here")
	case hasValue && def.Type == "Numeric":
		if _, ok := parseNumber(value); !ok {
			c.diags.Add(lang.Error, CodeBadValue, w.span, "RESOURCES: %q is Numeric; %q is not a number", name, value).
				Note(def.span, "declared here")
		}
	}
}

// undeclared reports a resource that is neither built in nor declared,
// with the closest of cands.
func (c *compiler) undeclared(name string, sp lang.Span, where, use string, cands []string) {
	d := c.diags.Add(lang.Error, CodeUndeclaredResource, sp, "resource %q used in %s is not declared in %s", name, use, where)
	if s := lang.Suggest(name, cands); s != "" {
		d.Message += "; did you mean " + quote(s) + "?"
		d.Suggest(replaceWith(s), sp, s)
	}
}

// resourceMap reads one row of lsf.cluster's ResourceMap: where each
// shared resource lives.
func (c *compiler) resourceMap(r tableRow) {
	name := r.set.str("RESOURCENAME")
	if name == "" {
		return
	}
	def := c.resources[name]
	if def == nil && c.has[lang.KindLSFShared] {
		if res, _, ok := c.env.Lookup(name); !ok || !res.Builtin {
			c.undeclared(name, r.set.spanOf("RESOURCENAME"), "lsf.shared's Resource section", "ResourceMap", sortedKeys(c.resources))
		}
	}
	st := r.set["LOCATION"]
	if st == nil {
		return
	}
	for _, w := range words(unparen(st.val)) {
		if def != nil {
			def.Instances = append(def.Instances, w.text)
			if in, ok := ParseResourceInstance(w.text); ok {
				def.Map = append(def.Map, in)
			}
		}
		c.locationHosts(w)
	}
}

// ParseResourceInstance reads one ResourceMap LOCATION,
// [value@][host ...]: value@[h1 h2], [all], value@[all ~h3],
// value@[default]. ok is false when the text has no brackets.
func ParseResourceInstance(t string) (in ResourceInstance, ok bool) {
	open := strings.IndexByte(t, '[')
	if open < 0 || !strings.HasSuffix(t, "]") {
		return in, false
	}
	in.Value = strings.TrimSuffix(t[:open], "@")
	for _, name := range strings.Fields(t[open+1 : len(t)-1]) {
		if x, found := strings.CutPrefix(name, "~"); found {
			if x != "" {
				in.Except = append(in.Except, x)
			}
			continue
		}
		switch strings.ToLower(name) {
		case "all", "others":
			in.All = true
		case "default":
			in.Default = true
		default:
			in.Hosts = append(in.Hosts, name)
		}
	}
	return in, true
}

// locationHosts checks the hosts of one LOCATION instance:
// [value@][host ...] with all, others, default and ~exclusions.
func (c *compiler) locationHosts(w word) {
	t := w.text
	open := strings.IndexByte(t, '[')
	if open < 0 || !strings.HasSuffix(t, "]") {
		c.valueError(w.span, "LOCATION", "%q is not [value@][host ...]", t)
		return
	}
	if !c.has[lang.KindLSFCluster] {
		return
	}
	inner := t[open+1 : len(t)-1]
	for i := 0; i < len(inner); {
		for i < len(inner) && inner[i] == ' ' {
			i++
		}
		j := i
		for j < len(inner) && inner[j] != ' ' {
			j++
		}
		if j > i {
			name := strings.TrimPrefix(inner[i:j], "~")
			switch strings.ToLower(name) {
			case "all", "others", "default":
			default:
				if c.hosts[name] == nil {
					sp := w.span.Src.SpanOf(w.span.Start+open+1+i, w.span.Start+open+1+j)
					c.unknownHost(name, sp, "LOCATION", false)
				}
			}
		}
		i = j
	}
}

// clusterRef reports a cluster not declared in lsf.shared.
func (c *compiler) clusterRef(name string, sp lang.Span, key string) {
	if !c.has[lang.KindLSFShared] || c.clusters[name] != nil {
		return
	}
	d := c.diags.Add(lang.Error, CodeUnknownCluster, sp, "%s names cluster %q, which lsf.shared's Cluster section does not declare", key, name)
	if s := lang.Suggest(name, sortedKeys(c.clusters)); s != "" {
		d.Message += "; did you mean " + quote(s) + "?"
		d.Suggest(replaceWith(s), sp, s)
	}
}

// reservedResources are the names lsf.shared may not declare: LSF's own
// resources and load indices, their aliases, and words the -R language
// keeps for itself.
var reservedResources = []string{
	"cpu", "cpuf", "io", "logins", "ls", "idle", "maxmem", "maxswp", "maxtmp", "type", "model",
	"status", "it", "mem", "ncpus", "nprocs", "ncores", "nthreads",
	"ndisks", "pg", "r15m", "r15s", "r1m", "swap", "swp", "tmp", "ut", "local", "dchost", "jobvm",
}

// resourceNameProblem says why LSF does not accept name for a site
// resource, or returns "" (the define_ncpus_* Booleans of ncpus.go are
// accepted; sharedResource checks their type): names are at most 39 characters, do not begin
// with a digit or with inf or nan, hold none of : . ( ) [ ] + - * / ! & | < > @ = ,
// and are not reserved.
func resourceNameProblem(name string) string {
	low := strings.ToLower(name)
	switch {
	case slices.Contains(reservedResources, name):
		return "is reserved by LSF"
	case len(name) > 39:
		return fmt.Sprintf("is %d characters long; the limit is 39", len(name))
	case name[0] >= '0' && name[0] <= '9':
		return "begins with a digit"
	case strings.HasPrefix(low, "inf") || strings.HasPrefix(low, "nan"):
		return "begins with inf or nan, which LSF reads as a number"
	}
	if i := strings.IndexAny(name, ":.()[]+-*/!&|<>@=,"); i >= 0 {
		return fmt.Sprintf("holds %q, which LSF does not allow in resource names", name[i:i+1])
	}
	if res, _, ok := NewEnv(EnvConfig{}).Lookup(name); ok && res.Builtin {
		return "is a built-in resource of LSF (" + res.Doc + ")"
	}
	return ""
}
