package compile

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/lsfc/lsfc/compile/schema"
	"github.com/lsfc/lsfc/lang"
)

// Options configure Compile. The zero value compiles for LSF 10.1.
type Options struct {
	// Dialect selects the version whose documented behaviour applies
	// where LSF versions differ.
	Dialect Dialect
}

// Compile checks and types every file of t and resolves the names each
// file uses in the others. It returns the Policy, holding whatever could
// be read even when there are errors, and the diagnostics of compilation
// (those of Load are not repeated), sorted.
func Compile(t *Tree, opts Options) (*Policy, lang.Diagnostics) {
	c := newCompiler(t, opts)
	c.run()
	c.diags.Sort()
	return c.p, c.diags
}

// A compiler holds the state of one Compile call.
type compiler struct {
	tree    *Tree
	dialect Dialect
	diags   lang.Diagnostics
	// limitUnit is the unit of bare memory limits (LSF_UNIT_FOR_LIMITS).
	limitUnit Unit
	env       *Env
	p         *Policy

	// has records which kinds of file the tree holds: a reference is
	// checked only when the file that defines its target was read.
	has map[lang.FileKind]bool
	// dynamicHosts is true when lsf.conf lets hosts join the cluster
	// without being listed in lsf.cluster.
	dynamicHosts bool

	clusters     map[string]*ClusterDef
	hosts        map[string]*HostDef
	hostGroups   map[string]*HostGroup
	computeUnits map[string]*HostGroup
	queues       map[string]*Queue
	userGroups   map[string]*UserGroup
	apps         map[string]*Application
	models       map[string]lang.Span
	types        map[string]lang.Span
	resources    map[string]*ResourceDef
	batchRows    []batchRow
	all          []string // allHosts, once known
	// hostNames and hostOrGroupNames are the candidates of did-you-mean
	// for unknown hosts, sorted once when first needed.
	hostNames, hostOrGroupNames []string
}

func newCompiler(t *Tree, opts Options) *compiler {
	c := &compiler{
		tree: t, dialect: opts.Dialect,
		p:            newPolicy(opts.Dialect, t.Cluster),
		has:          map[lang.FileKind]bool{},
		clusters:     map[string]*ClusterDef{},
		hosts:        map[string]*HostDef{},
		hostGroups:   map[string]*HostGroup{},
		computeUnits: map[string]*HostGroup{},
		queues:       map[string]*Queue{},
		userGroups:   map[string]*UserGroup{},
		apps:         map[string]*Application{},
		models:       map[string]lang.Span{},
		types:        map[string]lang.Span{},
		resources:    map[string]*ResourceDef{},
	}
	for _, f := range t.Files {
		c.has[f.Kind] = true
		c.p.Files = append(c.p.Files, f.Src.Name)
	}
	return c
}

// run reads the files in dependency order (each file's names are known
// before the files that use them are read), then checks what spans files.
func (c *compiler) run() {
	c.readConf()
	c.env = c.envOf()
	c.p.env, c.p.limitUnit = c.env, c.limitUnit
	c.forKind(lang.KindLSFShared, c.readShared)
	c.forKind(lang.KindLSFCluster, c.readCluster)
	// Hosts join dynamically only with both LSF_DYNAMIC_HOST_WAIT_TIME in
	// lsf.conf and LSF_HOST_ADDR_RANGE in lsf.cluster.
	c.dynamicHosts = c.dynamicHosts && c.p.ClusterParams["LSF_HOST_ADDR_RANGE"] != nil
	c.forKind(lang.KindLSBParams, c.readParams)
	c.forKind(lang.KindLSBHosts, c.readHosts)
	c.resolveHosts()
	c.forKind(lang.KindLSBUsers, c.readUsers)
	c.forKind(lang.KindLSBQueues, c.readQueues)
	c.forKind(lang.KindLSBApplications, c.readApplications)
	c.forKind(lang.KindLSBResources, c.readResources)
	for _, f := range c.tree.Files {
		switch f.Kind {
		case lang.KindLSFConf, lang.KindLSFShared, lang.KindLSFCluster, lang.KindLSBParams, lang.KindLSBHosts,
			lang.KindLSBUsers, lang.KindLSBQueues, lang.KindLSBApplications, lang.KindLSBResources:
		case lang.KindLSBServiceClasses:
			c.readServiceClasses(f)
		default:
			c.readOther(f)
		}
	}
	c.crossChecks()
	c.resolveParams()
}

// forKind calls read for every file of a kind, in tree order.
func (c *compiler) forKind(kind lang.FileKind, read func(*lang.File)) {
	for _, f := range c.tree.Files {
		if f.Kind == kind {
			read(f)
		}
	}
}

// envOf builds the resource requirement environment: EnvFromTree, with
// memory in MB for openlava, which has no LSF_UNIT_FOR_LIMITS.
func (c *compiler) envOf() *Env {
	if c.dialect != Openlava {
		return EnvFromTree(c.tree)
	}
	cfg := EnvConfig{Unit: MB}
	if shared := c.tree.File(lang.KindLSFShared); shared != nil {
		cfg.Site = SiteResourcesFromShared(shared)
		cfg.Types = columnValues(shared, "HostType", "TYPENAME")
		cfg.Models = columnValues(shared, "HostModel", "MODELNAME")
	}
	return NewEnv(cfg)
}

// sections calls fn for every section of f, with its schema; sections the
// schema does not know are reported once here.
func (c *compiler) sections(f *lang.File, fn func(s *lang.Section, ss *schema.Section)) {
	fs := schema.Lookup(f.Kind)
	for _, it := range f.Items {
		s, ok := it.(*lang.Section)
		if !ok || s.Name.Text == "" {
			continue
		}
		var ss *schema.Section
		if fs != nil {
			ss = fs.Section(s.Name.Text)
		}
		if ss == nil {
			c.unknownSection(f, fs, s)
			continue
		}
		if !c.formFits(s, ss) {
			continue
		}
		fn(s, ss)
	}
}

// unknownSection reports a section its file does not define. LSF skips it
// with a warning.
func (c *compiler) unknownSection(f *lang.File, fs *schema.File, s *lang.Section) {
	if fs == nil {
		return
	}
	d := c.diags.Add(lang.Warning, CodeUnknownSection, s.Name.Span, "unknown section %q in %s; LSF skips it", s.Name.Text, f.Kind)
	names := fs.SectionNames()
	if sug := lang.Suggest(s.Name.Text, names); sug != "" {
		d.Message += "; did you mean " + quote(sug) + "?"
		d.SuggestSafe(replaceWith(sug), s.Name.Span, sug)
		return
	}
	for _, other := range schema.Files() {
		if other != fs && other.Section(s.Name.Text) != nil {
			d.Message += "; it belongs in " + other.Kind.String()
			return
		}
	}
	if len(names) > 0 {
		d.Message += " (sections: " + strings.Join(names, ", ") + ")"
	}
}

// formFits reports a section written in the wrong form: a table where
// KEY = value lines are expected, or the reverse.
func (c *compiler) formFits(s *lang.Section, ss *schema.Section) bool {
	switch {
	case s.Form == lang.FormTable && ss.Form == schema.KeyValue:
		c.diags.Add(lang.Error, CodeSectionForm, s.Header.Span(),
			"section %s takes KEY = value lines, not a table; LSF cannot read it", ss.Name)
		return false
	case s.Form == lang.FormKeyValue && ss.Form == schema.Table:
		c.diags.Add(lang.Error, CodeSectionForm, s.Assigns[0].Key.Span,
			"section %s is a table: a header line of column names, then one row per entry", ss.Name)
		return false
	}
	return true
}

func quote(s string) string { return strconv.Quote(s) }

// sortedKeys returns the keys of m, sorted.
func sortedKeys[K cmp.Ordered, V any](m map[K]V) []K {
	out := make([]K, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// replaceWith is the message of a fix that replaces a name.
func replaceWith(s string) string { return "replace with " + strconv.Quote(s) }

// newPolicy returns an empty Policy whose lists and settings are empty
// rather than nil, so that its JSON form has the same shape whatever files
// a tree holds.
func newPolicy(d Dialect, cluster string) *Policy {
	return &Policy{
		SchemaVersion: 1, Dialect: d, Cluster: cluster, Files: []string{},
		Conf: Settings{}, ClusterParams: Settings{}, Params: Settings{},
		Clusters: []*ClusterDef{}, HostTypes: []string{}, HostModels: []*HostModel{}, Resources: []*ResourceDef{},
		Admins: []string{}, Hosts: []*HostDef{}, BatchHosts: []*HostBatch{}, HostGroups: []*HostGroup{},
		ComputeUnits: []*HostGroup{}, Queues: []*Queue{}, UserGroups: []*UserGroup{}, UserLimits: []*UserLimit{},
		Limits: []*LimitDef{}, Applications: []*Application{}, Sections: []*OtherSection{},
	}
}
