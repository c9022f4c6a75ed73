package compile

import (
	"slices"
	"sort"
	"strings"

	"github.com/lsfc/lsfc/lang"
)

// ResType is the type of a resource's value.
type ResType uint8

// The resource types.
const (
	Boolean ResType = iota + 1
	Numeric
	String
)

func (t ResType) String() string {
	switch t {
	case Boolean:
		return "Boolean"
	case Numeric:
		return "Numeric"
	case String:
		return "String"
	}
	return "unknown"
}

// A Resource is a name a resource requirement may use: a built-in load
// index or static resource, or a site resource from lsf.shared (or from a
// host inventory).
type Resource struct {
	Name string
	Type ResType
	// Dynamic resources change while hosts run (load indices, resources
	// with an INTERVAL); the others are static host facts.
	Dynamic bool
	// Increasing is true for numeric resources where a larger value is
	// worse (run queue lengths, utilisation, paging).
	Increasing bool
	// Memory marks values that are amounts of memory, written in the
	// unit of LSF_UNIT_FOR_LIMITS.
	Memory bool
	// Consumable resources may be reserved with rusage[].
	Consumable bool
	// Builtin is true for LSF's own resources.
	Builtin bool
	// Doc says what the resource is.
	Doc string
	// Decl is where a site resource is declared, when known.
	Decl lang.Span
}

// builtinResources are LSF's own resources, in the order lsload and
// lshosts show them.
func builtinResources() []Resource {
	load := func(name, doc string, inc, mem bool) Resource {
		return Resource{Name: name, Type: Numeric, Dynamic: true, Increasing: inc, Memory: mem, Consumable: true, Builtin: true, Doc: doc}
	}
	static := func(name, doc string, mem bool) Resource {
		return Resource{Name: name, Type: Numeric, Memory: mem, Builtin: true, Doc: doc}
	}
	str := func(name, doc string) Resource {
		return Resource{Name: name, Type: String, Builtin: true, Doc: doc}
	}
	return []Resource{
		load("r15s", "run queue length averaged over 15 seconds (normalised)", true, false),
		load("r1m", "run queue length averaged over 1 minute (normalised)", true, false),
		load("r15m", "run queue length averaged over 15 minutes (normalised)", true, false),
		load("ut", "CPU utilisation over the last minute, 0.0 to 1.0", true, false),
		load("pg", "paging rate, pages per second", true, false),
		load("io", "disk I/O rate, KB per second", true, false),
		load("ls", "number of login sessions", true, false),
		load("it", "idle time of the host, in minutes", false, false),
		load("tmp", "free space in /tmp, in MB", false, false),
		load("swp", "available swap space", false, true),
		load("mem", "available memory", false, true),
		static("ncpus", "number of CPUs", false),
		static("nprocs", "number of physical processors", false),
		static("ncores", "number of cores per processor", false),
		static("nthreads", "number of threads per core", false),
		static("ndisks", "number of local disks", false),
		static("maxmem", "total memory", true),
		static("maxswp", "total swap space", true),
		static("maxtmp", "total space in /tmp, in MB", false),
		static("cpuf", "CPU factor: relative speed of the host", false),
		static("rexpri", "execution priority of remote processes", false),
		{Name: "slots", Type: Numeric, Dynamic: true, Builtin: true, Doc: "free job slots on the host"},
		{Name: "maxslots", Type: Numeric, Builtin: true, Doc: "job slots configured on the host (MXJ)"},
		str("type", "host type"),
		str("model", "host model"),
		str("hname", "host name"),
		{Name: "status", Type: String, Dynamic: true, Builtin: true, Doc: "host status (ok, busy, unavail, ...)"},
		{Name: "server", Type: Boolean, Builtin: true, Doc: "the host is an LSF server"},
	}
}

// resourceAliases are the other names LSF accepts for load indices.
var resourceAliases = map[string]string{
	"swap": "swp", "cpu": "r1m", "login": "ls", "idle": "it", "util": "ut", "paging": "pg",
}

// An Env is the type environment of resource requirements: the resources
// of one cluster, the memory unit of bare numbers, and the host types and
// models. An Env is immutable once made; it caches compiled select
// programs and is safe for concurrent use.
type Env struct {
	res   []Resource
	index map[string]int // name (and aliases) → position in res
	// Unit is the unit of memory amounts written without one.
	Unit Unit
	// TmpUnit: with LSF_ENABLE_TMP_UNIT=Y, tmp and maxtmp also follow
	// Unit; otherwise they are in MB.
	TmpUnit bool
	types   map[string]bool
	models  map[string]bool

	cache *programCache
}

// EnvConfig describes the environment NewEnv builds. The zero value is
// LSF's built-in resources with memory in KB (LSF 10.1's default unit).
type EnvConfig struct {
	// Site are the site resources (lsf.shared, or a host inventory). One
	// named like a built-in is ignored.
	Site []Resource
	// Unit is the memory unit of bare numbers (LSF_UNIT_FOR_LIMITS).
	Unit Unit
	// TmpUnit makes tmp and maxtmp follow Unit (LSF_ENABLE_TMP_UNIT=Y).
	TmpUnit bool
	// Types and Models are the host types and models known to the
	// cluster; empty means unknown (no check).
	Types, Models []string
}

// NewEnv returns the environment cfg describes.
func NewEnv(cfg EnvConfig) *Env {
	e := &Env{Unit: cfg.Unit, TmpUnit: cfg.TmpUnit, index: map[string]int{}, cache: newProgramCache(),
		types: setOf(cfg.Types), models: setOf(cfg.Models)}
	for _, r := range builtinResources() {
		e.add(r)
	}
	sorted := slices.Clone(cfg.Site)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	for _, r := range sorted {
		if _, dup := e.index[r.Name]; dup || r.Name == "" {
			continue
		}
		if r.Type == Numeric {
			r.Consumable = true
		}
		e.add(r)
	}
	for alias, name := range resourceAliases {
		e.index[alias] = e.index[name]
	}
	return e
}

func setOf(names []string) map[string]bool {
	if len(names) == 0 {
		return nil
	}
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// IsType reports whether name is a known host type; with no types known,
// every name is.
func (e *Env) IsType(name string) bool { return e.types == nil || e.types[name] }

// IsModel reports whether name is a known host model; with no models
// known, every name is.
func (e *Env) IsModel(name string) bool { return e.models == nil || e.models[name] }

func (e *Env) add(r Resource) {
	e.index[r.Name] = len(e.res)
	e.res = append(e.res, r)
}

// Lookup returns the resource named name (aliases resolved) and its slot,
// the index hosts' value tables use.
func (e *Env) Lookup(name string) (*Resource, int, bool) {
	i, ok := e.index[name]
	if !ok {
		return nil, -1, false
	}
	return &e.res[i], i, true
}

// At returns the resource of a slot (see Lookup).
func (e *Env) At(slot int) *Resource { return &e.res[slot] }

// Resources returns every resource, built-ins first.
func (e *Env) Resources() []Resource { return slices.Clone(e.res) }

// Len returns the number of resources, which is the size of a host's value
// table.
func (e *Env) Len() int { return len(e.res) }

// Names returns every name the environment knows, aliases included,
// sorted.
func (e *Env) Names() []string {
	out := make([]string, 0, len(e.index))
	for n := range e.index {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// SiteResourcesFromShared reads the Resource section of lsf.shared into
// site resources. Rows that are malformed are skipped: their mistakes are
// reported when the tree is compiled.
func SiteResourcesFromShared(f *lang.File) []Resource {
	var out []Resource
	for _, it := range f.Items {
		s, ok := it.(*lang.Section)
		if !ok || !s.Is("Resource") || s.Header == nil {
			continue
		}
		col := map[string]int{}
		for i, c := range s.Header.Cells {
			col[strings.ToUpper(c.Text)] = i
		}
		cell := func(r *lang.Row, name string) string {
			if i, ok := col[name]; ok && i < len(r.Cells) && !r.Cells[i].IsEmpty() {
				return r.Cells[i].Inner()
			}
			return ""
		}
		for _, r := range s.Rows {
			name := cell(r, "RESOURCENAME")
			if name == "" {
				continue
			}
			res := Resource{Name: name, Type: Boolean, Decl: r.Cells[col["RESOURCENAME"]].Span, Doc: cell(r, "DESCRIPTION")}
			switch strings.ToLower(cell(r, "TYPE")) {
			case "numeric":
				res.Type = Numeric
			case "string":
				res.Type = String
			}
			if cell(r, "INTERVAL") != "" {
				res.Dynamic = true
			}
			res.Increasing = strings.EqualFold(cell(r, "INCREASING"), "Y")
			out = append(out, res)
		}
	}
	return out
}

// SiteResourcesFromHosts derives site resources from the hosts of an
// inventory when no lsf.shared is given: names in a host's resources list are
// Boolean, values are Numeric or String by their type, and load indices
// that are not LSF's are dynamic Numeric resources.
func SiteResourcesFromHosts(hosts []*Host) []Resource {
	seen := map[string]ResType{}
	dynamic := map[string]bool{}
	builtin := map[string]bool{}
	for _, r := range builtinResources() {
		builtin[r.Name] = true
	}
	for _, h := range hosts {
		for n := range h.Load {
			if !builtin[n] {
				seen[n], dynamic[n] = Numeric, true
			}
		}
		for _, b := range h.Booleans {
			seen[b] = Boolean
		}
		for n := range h.Numbers {
			seen[n] = Numeric
		}
		for n := range h.Strings {
			seen[n] = String
		}
	}
	out := make([]Resource, 0, len(seen))
	for n, t := range seen {
		out = append(out, Resource{Name: n, Type: t, Dynamic: dynamic[n] && t == Numeric})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}
