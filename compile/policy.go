package compile

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"sync/atomic"

	"github.com/lsfc/lsfc/lang"
)

// Dialect selects the LSF version whose documented behaviour the compiler
// follows where versions differ.
type Dialect uint8

// The dialects.
const (
	// LSF10 is IBM Spectrum LSF 10.1 (the default).
	LSF10 Dialect = iota
	// Openlava is openlava 3/4 (LSF 4 era): memory in MB in requirements,
	// ut as a percentage or fraction, the first of repeated -R sections
	// kept, "~" exclusions anywhere in HOSTS.
	Openlava
)

func (d Dialect) String() string {
	if d == Openlava {
		return "openlava"
	}
	return "lsf10"
}

// ParseDialect reads "lsf10" or "openlava".
func ParseDialect(s string) (Dialect, error) {
	switch s {
	case "lsf10", "":
		return LSF10, nil
	case "openlava":
		return Openlava, nil
	}
	return 0, fmt.Errorf("unknown dialect %q (want lsf10 or openlava)", s)
}

// MarshalJSON writes the dialect's name.
func (d Dialect) MarshalJSON() ([]byte, error) { return json.Marshal(d.String()) }

// A Policy is a compiled, checked configuration: every file's settings
// typed, names resolved across files, resource requirements compiled. It
// is immutable once Compile returns it and safe for concurrent use.
//
// Its JSON form (lsfc compile) is documented field by field below; fields
// are only ever added, never renamed. Positions are "path:line:col".
type Policy struct {
	// SchemaVersion is the version of this JSON form: 1.
	SchemaVersion int     `json:"schemaVersion"`
	Dialect       Dialect `json:"dialect"`
	// Cluster is the local cluster's name.
	Cluster string `json:"cluster"`
	// Files are the files compiled, in reading order.
	Files []string `json:"files"`
	// Conf holds the settings of lsf.conf.
	Conf Settings `json:"lsfConf"`
	// LSFConf holds the lsf.conf values lsfc acts on, typed, defaults
	// filled in: by key, times in seconds.
	LSFConf Conf `json:"lsfConfResolved"`
	// Clusters are the clusters of lsf.shared's Cluster section.
	Clusters []*ClusterDef `json:"clusters"`
	// HostTypes and HostModels come from lsf.shared.
	HostTypes  []string     `json:"hostTypes"`
	HostModels []*HostModel `json:"hostModels"`
	// Resources are the site resources of lsf.shared.
	Resources []*ResourceDef `json:"resources"`
	// Admins are the cluster administrators of lsf.cluster.<name>.
	Admins []string `json:"admins"`
	// ClusterParams holds the Parameters section of lsf.cluster.<name>.
	ClusterParams Settings `json:"clusterParameters"`
	// Hosts are the hosts of lsf.cluster.<name>, with their lsb.hosts
	// settings.
	Hosts []*HostDef `json:"hosts"`
	// BatchHosts are the rows of lsb.hosts' Host section; each host
	// names the row that applies to it.
	BatchHosts []*HostBatch `json:"batchHosts"`
	// HostGroups and ComputeUnits come from lsb.hosts.
	HostGroups   []*HostGroup `json:"hostGroups"`
	ComputeUnits []*HostGroup `json:"computeUnits"`
	// Params holds lsb.params.
	Params Settings `json:"params"`
	// Parameters holds the lsb.params values lsfc acts on, typed,
	// defaults filled in: by key, times in seconds.
	Parameters Params `json:"paramsResolved"`
	// Queues come from lsb.queues, in file order.
	Queues []*Queue `json:"queues"`
	// UserGroups and UserLimits come from lsb.users.
	UserGroups []*UserGroup `json:"userGroups"`
	UserLimits []*UserLimit `json:"userLimits"`
	// Limits are the Limit sections of lsb.resources.
	Limits []*LimitDef `json:"limits"`
	// Applications are the application profiles of lsb.applications.
	Applications []*Application `json:"applications"`
	// ServiceClasses are the service classes of lsb.serviceclasses, in
	// file order (their sections are also in Sections).
	ServiceClasses []*ServiceClass `json:"serviceClasses,omitempty"`
	// Sections holds the other sections, by file and name, as settings:
	// ServiceClass, PluginModule, HostPartition, GuaranteedResourcePool ...
	Sections []*OtherSection `json:"otherSections"`

	env       *Env
	limitUnit Unit
	// hostIndex finds a host by name among Hosts (see Host).
	hostIndex atomic.Pointer[hostIndex]
}

// A hostIndex maps names to the hosts of the Hosts slice it was built
// from.
type hostIndex struct {
	hosts []*HostDef
	by    map[string]*HostDef
}

// Env returns the resource requirement environment of the policy.
func (p *Policy) Env() *Env { return p.env }

// Queue returns the queue named name, or nil.
func (p *Policy) Queue(name string) *Queue {
	for _, q := range p.Queues {
		if q.Name == name {
			return q
		}
	}
	return nil
}

// ServiceClass returns the service class named name, or nil.
func (p *Policy) ServiceClass(name string) *ServiceClass {
	for _, s := range p.ServiceClasses {
		if s.Name == name {
			return s
		}
	}
	return nil
}

// Host returns the host named name (the first so named), or nil. It is
// safe for concurrent use; a map built on first use, and again whenever
// Hosts is another slice than it was built from, makes it O(1): the
// master looks up the host of every request its agents make.
func (p *Policy) Host(name string) *HostDef {
	ix := p.hostIndex.Load()
	if ix == nil || len(ix.hosts) != len(p.Hosts) || len(p.Hosts) > 0 && &ix.hosts[0] != &p.Hosts[0] {
		ix = &hostIndex{hosts: p.Hosts, by: make(map[string]*HostDef, len(p.Hosts))}
		for _, h := range slices.Backward(p.Hosts) {
			ix.by[h.Name] = h
		}
		p.hostIndex.Store(ix)
	}
	return ix.by[name]
}

// Settings are the keys of a section as read: by key name (as the schema
// spells it; unknown keys as written).
type Settings map[string]*Setting

// A Setting is one key's value.
type Setting struct {
	// Value is the typed value: a number, a boolean, a string, a list of
	// strings, or a structure (limit, windows, threshold, host or user
	// list ...).
	Value any `json:"value"`
	// Raw is the value as written.
	Raw string `json:"raw"`
	// When is the #if condition the line depends on ("#if time(8:00-18:00)"),
	// or "" for a line outside any #if.
	When string `json:"when,omitempty"`
	// Alternatives are the values the key takes in the other arms of the
	// #if chain, each with its When.
	Alternatives []*Setting `json:"alternatives,omitempty"`

	val    lang.Value
	span   lang.Span
	key    lang.Span
	branch *lang.Branch
}

// Span returns the span of the value in its file.
func (s *Setting) Span() lang.Span { return s.span }

// At returns where the value is written: "path:line:col".
func (s *Setting) At() string { return at(s.span) }

// MarshalJSON writes a setting as {"value", "raw", "at", "when",
// "alternatives"}; "at" is computed here rather than stored, as a Policy
// holds a great many settings.
func (s *Setting) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Value        any        `json:"value"`
		Raw          string     `json:"raw"`
		At           string     `json:"at"`
		When         string     `json:"when,omitempty"`
		Alternatives []*Setting `json:"alternatives,omitempty"`
	}{s.Value, s.Raw, s.At(), s.When, s.Alternatives})
}

// KeySpan returns the span of the key.
func (s *Setting) KeySpan() lang.Span { return s.key }

// keys returns the sorted keys of s.
func (s Settings) keys() []string {
	out := make([]string, 0, len(s))
	for k := range s {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// at formats a span as "path:line:col".
func at(sp lang.Span) string {
	if !sp.IsValid() {
		return ""
	}
	p := sp.StartPos()
	return fmt.Sprintf("%s:%d:%d", sp.Path(), p.Line, p.Col)
}

// A ClusterDef is a cluster of lsf.shared.
type ClusterDef struct {
	Name string `json:"name"`
	// Servers are the hosts that answer for the cluster (master
	// candidates), possibly host:port for lsfc's MultiCluster peers.
	Servers []string `json:"servers,omitempty"`
	// Addrs are the Servers read as host[:port]; entries that are not
	// are reported and left out.
	Addrs []ServerAddr `json:"addrs,omitempty"`
	At    string       `json:"at"`
	span  lang.Span
}

// A HostModel is a model of lsf.shared.
type HostModel struct {
	Name         string   `json:"name"`
	CPUFactor    float64  `json:"cpuFactor"`
	Architecture []string `json:"architecture,omitempty"`
}

// A ResourceDef is a site resource of lsf.shared.
type ResourceDef struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Dynamic     bool   `json:"dynamic,omitempty"`
	Increasing  bool   `json:"increasing,omitempty"`
	Description string `json:"description,omitempty"`
	// Interval is INTERVAL, how often a dynamic resource's value is
	// updated, in seconds; 0 for a static resource.
	Interval float64 `json:"interval,omitempty"`
	At       string  `json:"at"`
	// Instances are the ResourceMap locations: value@[hosts] or
	// [default] / [all].
	Instances []string `json:"instances,omitempty"`
	// Map holds the Instances read: one entry per bracket, in order;
	// locations that are not [value@][host ...] are left out.
	Map  []ResourceInstance `json:"map,omitempty"`
	span lang.Span
}

// A ResourceInstance is one LOCATION of lsf.cluster's ResourceMap: an
// instance of a shared resource and the hosts that share it.
type ResourceInstance struct {
	// Value is the text before "@" ("" for a dynamic resource).
	Value string `json:"value,omitempty"`
	// Hosts are the hosts named in the brackets (not all, others,
	// default nor the ~ exclusions).
	Hosts []string `json:"hosts,omitempty"`
	// All is set for [all]: one instance shared by every host but
	// those of Except. Default is set for [default]: every host has
	// its own instance.
	All     bool     `json:"all,omitempty"`
	Default bool     `json:"default,omitempty"`
	Except  []string `json:"except,omitempty"`
}

// A HostDef is a host: lsf.cluster's facts and lsb.hosts's batch settings.
type HostDef struct {
	Name      string   `json:"name"`
	Model     string   `json:"model"`
	Type      string   `json:"type"`
	Server    bool     `json:"server"`
	Resources []string `json:"resources,omitempty"`
	// Thresholds are the LIM thresholds of lsf.cluster.
	Thresholds map[string]Threshold `json:"limThresholds,omitempty"`
	// Batch is the lsb.hosts row that applies to the host (its own, else
	// its model's or type's, else default), or nil; BatchRow names it.
	Batch    *HostBatch `json:"-"`
	BatchRow string     `json:"batchRow,omitempty"`
	At       string     `json:"at"`
	span     lang.Span
}

// HostBatch is a row of lsb.hosts' Host section.
type HostBatch struct {
	// Row is the HOST_NAME the row was written for (a host, model, type,
	// range or "default").
	Row string `json:"row"`
	// MXJ is the job slot limit; nil for unlimited, -1 for "!" (one per
	// CPU).
	MXJ            *int                 `json:"mxj,omitempty"`
	JLU            *int                 `json:"jlu,omitempty"`
	DispatchWindow []Window             `json:"dispatchWindow,omitempty"`
	Thresholds     map[string]Threshold `json:"thresholds,omitempty"`
	Settings       Settings             `json:"settings"`
	At             string               `json:"at"`
	span           lang.Span
}

// A HostGroup is a host group of lsb.hosts, or a compute unit (which has
// a Type).
type HostGroup struct {
	Name string `json:"name"`
	// Type is the compute unit type (enclosure, rack ...); "" for a host
	// group.
	Type string `json:"type,omitempty"`
	// External is set when members come from the egroup executable at
	// run time ("!"), directly or through a member group.
	External bool `json:"external,omitempty"`
	// Members are the members as written.
	Members []HostItem `json:"members"`
	// Hosts are the hosts the members resolve to, sorted.
	Hosts []string `json:"hosts"`
	At    string   `json:"at"`
	span  lang.Span
	// set is the row as written, for NotActedOn: the columns lsfc acts on
	// are the fields above.
	set Settings
}

// A Queue is a queue of lsb.queues.
type Queue struct {
	Name     string `json:"name"`
	Priority int    `json:"priority"`
	// Users and Hosts are the USERS and HOSTS lists (nil: all).
	Users []UserItem `json:"users,omitempty"`
	Hosts []HostItem `json:"hosts,omitempty"`
	// HostNames are the hosts HOSTS resolves to, sorted.
	HostNames []string `json:"hostNames"`
	// HostPref holds the preference "+N" gives a host (higher is used
	// first; a host absent from the map has preference 0). Nil when HOSTS
	// sets no preference.
	HostPref map[string]int `json:"hostPref,omitempty"`
	// ResReq, StopCond and ResumeCond are compiled requirements (nil when
	// unset).
	ResReq     *Requirement `json:"resReq,omitempty"`
	StopCond   *Requirement `json:"stopCond,omitempty"`
	ResumeCond *Requirement `json:"resumeCond,omitempty"`
	// GPUReq is GPU_REQ, the GPU requirement of the queue's jobs; nil
	// when unset.
	GPUReq *lang.GPUReq `json:"gpuReq,omitempty"`
	// Thresholds are the load thresholds loadSched/loadStop.
	Thresholds map[string]Threshold `json:"thresholds,omitempty"`
	Preemption *Preemption          `json:"preemption,omitempty"`
	Fairshare  []Share              `json:"fairshare,omitempty"`
	// FairshareQueues are the queues this one leads in cross-queue
	// fairshare.
	FairshareQueues []string         `json:"fairshareQueues,omitempty"`
	SlotPool        string           `json:"slotPool,omitempty"`
	SlotShare       *int             `json:"slotShare,omitempty"`
	MaxSlotsInPool  *int             `json:"maxSlotsInPool,omitempty"`
	SendTo          []QueueAtCluster `json:"sndJobsTo,omitempty"`
	ReceiveFrom     []string         `json:"rcvJobsFrom,omitempty"`
	RunWindow       []Window         `json:"runWindow,omitempty"`
	DispatchWindow  []Window         `json:"dispatchWindow,omitempty"`
	AcceptInterval  *AcceptInterval  `json:"jobAcceptInterval,omitempty"`
	TerminateWhen   []string         `json:"terminateWhen,omitempty"`
	Exclusive       bool             `json:"exclusive,omitempty"`
	// ExclusiveCU is the CU[type] of EXCLUSIVE, when given.
	ExclusiveCU    string   `json:"exclusiveCU,omitempty"`
	Rerunnable     bool     `json:"rerunnable,omitempty"`
	Settings       Settings `json:"settings"`
	At             string   `json:"at"`
	span, nameSpan lang.Span
	section        *lang.Section
}

// Span returns the span of the queue's section.
func (q *Queue) Span() lang.Span { return q.span }

// NameSpan returns the span of the queue's QUEUE_NAME value.
func (q *Queue) NameSpan() lang.Span { return q.nameSpan }

// Section returns the queue's syntax tree.
func (q *Queue) Section() *lang.Section { return q.section }

// A UserGroup is a user group of lsb.users.
type UserGroup struct {
	Name    string     `json:"name"`
	Members []UserItem `json:"members"`
	Shares  []Share    `json:"shares,omitempty"`
	At      string     `json:"at"`
	span    lang.Span
	// set is the row as written, for NotActedOn: the columns lsfc acts on
	// are the fields above.
	set Settings
}

// A UserLimit is a row of lsb.users' User section.
type UserLimit struct {
	User     string   `json:"user"`
	MaxJobs  *float64 `json:"maxJobs,omitempty"`
	JLP      *float64 `json:"jlp,omitempty"`
	Settings Settings `json:"settings"`
	At       string   `json:"at"`
	span     lang.Span
}

// A LimitDef is a Limit section of lsb.resources.
type LimitDef struct {
	Name     string   `json:"name,omitempty"`
	Settings Settings `json:"settings"`
	At       string   `json:"at"`
	span     lang.Span
}

// An Application is an application profile of lsb.applications.
type Application struct {
	Name   string       `json:"name"`
	ResReq *Requirement `json:"resReq,omitempty"`
	// GPUReq is GPU_REQ, the GPU requirement of the profile's jobs; nil
	// when unset.
	GPUReq   *lang.GPUReq `json:"gpuReq,omitempty"`
	Settings Settings     `json:"settings"`
	At       string       `json:"at"`
	span     lang.Span
}

// An OtherSection is a section the Policy keeps only as settings.
type OtherSection struct {
	File     string     `json:"file"`
	Name     string     `json:"name"`
	Settings Settings   `json:"settings,omitempty"`
	Rows     []Settings `json:"rows,omitempty"`
	At       string     `json:"at"`
	section  *lang.Section
}

// MarshalJSON writes a requirement as its canonical text.
func (r *Requirement) MarshalJSON() ([]byte, error) { return json.Marshal(r.String()) }

// MarshalJSON writes a duration as seconds.
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(float64(d)) }

// Span returns where the cluster is named in lsf.shared.
func (c *ClusterDef) Span() lang.Span { return c.span }

// Span returns where the resource is declared in lsf.shared.
func (r *ResourceDef) Span() lang.Span { return r.span }

// Span returns the HOSTNAME cell of the host's lsf.cluster row.
func (h *HostDef) Span() lang.Span { return h.span }

// Span returns the HOST_NAME cell of the lsb.hosts row.
func (b *HostBatch) Span() lang.Span { return b.span }

// Span returns where the group or compute unit is named in lsb.hosts.
func (g *HostGroup) Span() lang.Span { return g.span }

// Span returns where the user group is named in lsb.users.
func (g *UserGroup) Span() lang.Span { return g.span }

// Span returns the USER_NAME cell of the lsb.users row.
func (l *UserLimit) Span() lang.Span { return l.span }

// Span returns where the limit begins in lsb.resources.
func (l *LimitDef) Span() lang.Span { return l.span }

// Span returns where the profile is named in lsb.applications.
func (a *Application) Span() lang.Span { return a.span }

// Section returns the syntax tree of the section, or nil for a table row.
func (o *OtherSection) Section() *lang.Section { return o.section }
