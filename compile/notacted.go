package compile

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/lsfc/lsfc/compile/schema"
	"github.com/lsfc/lsfc/lang"
)

// checkedOnlyText is the list of keys lsfc reads and checks but does not
// act on: "file KEY" lines, # comments.
//
//go:embed checked-only-keys.txt
var checkedOnlyText string

// checkedOnlyFiles are the files the list may name.
var checkedOnlyFiles = map[string]lang.FileKind{
	"lsb.params":       lang.KindLSBParams,
	"lsf.conf":         lang.KindLSFConf,
	"lsb.queues":       lang.KindLSBQueues,
	"lsb.applications": lang.KindLSBApplications,
	"lsb.hosts":        lang.KindLSBHosts,
	"lsb.users":        lang.KindLSBUsers,
	"lsb.resources":    lang.KindLSBResources,
}

// sectionFiles are the files of several sections, whose keys the list
// names with their section.
var sectionFiles = map[lang.FileKind]bool{lang.KindLSBHosts: true, lang.KindLSBUsers: true, lang.KindLSBResources: true}

// checkedOnlyList is the list, parsed: keys by file, each true when it
// only describes the LSF installation; and for the files of sectionFiles,
// keys by file and section.
type checkedOnlyList struct {
	keys     map[lang.FileKind]map[string]bool
	sections map[lang.FileKind]map[string]map[string]bool
}

// checkedOnly parses the list once.
var checkedOnly = sync.OnceValues(func() (*checkedOnlyList, error) {
	out := &checkedOnlyList{keys: map[lang.FileKind]map[string]bool{}, sections: map[lang.FileKind]map[string]map[string]bool{}}
	for n, line := range strings.Split(checkedOnlyText, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		kind, known := lang.KindUnknown, false
		if len(f) >= 2 {
			kind, known = checkedOnlyFiles[f[0]]
		}
		switch {
		case known && sectionFiles[kind] && len(f) == 3:
			if out.sections[kind] == nil {
				out.sections[kind] = map[string]map[string]bool{}
			}
			if out.sections[kind][f[1]] == nil {
				out.sections[kind][f[1]] = map[string]bool{}
			}
			out.sections[kind][f[1]][f[2]] = true
		case !known || sectionFiles[kind] || len(f) > 3 || len(f) == 3 && (f[2] != "installation" || kind != lang.KindLSFConf):
			return nil, fmt.Errorf("checked-only-keys.txt:%d: want \"FILE KEY\" with FILE one of lsb.params, lsf.conf, lsb.queues, lsb.applications, "+
				"\"lsf.conf KEY installation\", or \"FILE SECTION KEY\" with FILE one of lsb.hosts, lsb.users, lsb.resources, got %q", n+1, line)
		default:
			if out.keys[kind] == nil {
				out.keys[kind] = map[string]bool{}
			}
			out.keys[kind][f[1]] = len(f) == 3
		}
	}
	return out, nil
})

// list returns the parsed list.
func list() *checkedOnlyList {
	l, err := checkedOnly()
	if err != nil {
		// The list is part of the program; the tests keep it well
		// formed.
		panic(err)
	}
	return l
}

// CheckedOnlyKeys returns, by file, the keys of lsb.params, lsf.conf,
// lsb.queues and lsb.applications that lsfc reads, types and checks but
// does not act on: neither the scheduler nor a command uses them. A key
// maps to true when it only describes the LSF installation lsfc stands
// in for (LSF_BINDIR, LSF_LIM_PORT ...). The map is shared: callers must
// not change it.
func CheckedOnlyKeys() map[lang.FileKind]map[string]bool { return list().keys }

// CheckedOnlySectionKeys returns, by file and section, the keys (and
// table columns) of lsb.hosts, lsb.users and lsb.resources that lsfc
// reads and checks but does not act on. The map is shared: callers must
// not change it.
func CheckedOnlySectionKeys() map[lang.FileKind]map[string]map[string]bool { return list().sections }

// wholeSection reports whether every key of a section is listed: lsfc
// does not act on the section at all.
func wholeSection(kind lang.FileKind, section string) bool {
	listed := list().sections[kind][section]
	f := schema.Lookup(kind)
	if len(listed) == 0 || f == nil || f.Section(section) == nil {
		return false
	}
	for _, k := range f.Section(section).KeyNames() {
		if !listed[k] {
			return false
		}
	}
	return true
}

// NotActedOn returns one line per file for the keys the policy's files
// set that lsfc reads and checks but does not act on, each with the line
// it is set on: "lsb.params: read and checked, not acted on by lsfc:
// ADVRSV_USER_LIMIT (line 12), ...". The keys and columns of lsb.hosts,
// lsb.users and lsb.resources are named with their section ("Limit SWP
// (line 7)"), and a section none of whose keys lsfc acts on by itself
// ("PowerPolicy section (line 20)"). The lsf.conf keys of the LSF
// installation (directories, ports, daemons) are counted, not named.
// Nil when there are none.
func (p *Policy) NotActedOn() []string {
	type found struct {
		key  string
		path string
		line int
	}
	keys := CheckedOnlyKeys()
	sectionKeys := CheckedOnlySectionKeys()
	byKind := map[lang.FileKind][]found{}
	installation := 0
	note := func(kind lang.FileKind, name string, sp lang.Span) {
		f := found{key: name}
		if sp.IsValid() {
			f.path, f.line = sp.Path(), sp.StartPos().Line
		}
		byKind[kind] = append(byKind[kind], f)
	}
	where := func(st *Setting) lang.Span {
		if st.key.IsValid() {
			return st.key
		}
		return st.span
	}
	add := func(kind lang.FileKind, set Settings) {
		for name, st := range set {
			install, listed := keys[kind][name]
			if !listed || st == nil {
				continue
			}
			if install {
				installation++
				continue
			}
			note(kind, name, where(st))
		}
	}
	// addIn notes the listed keys a section of lsb.hosts, lsb.users or
	// lsb.resources sets, named with their section ("Limit SWP").
	addIn := func(kind lang.FileKind, section string, set Settings) {
		for name, st := range set {
			if st != nil && sectionKeys[kind][section][name] {
				note(kind, section+" "+name, where(st))
			}
		}
	}
	add(lang.KindLSFConf, p.Conf)
	if st := p.Conf["LSF_LINUX_CGROUP_ACCT"]; st != nil && p.LSFConf.CgroupAcct && !p.LSFConf.ProcessTracking {
		// Jobs have cgroups only with process tracking.
		note(lang.KindLSFConf, "LSF_LINUX_CGROUP_ACCT without LSF_PROCESS_TRACKING=Y", where(st))
	}
	add(lang.KindLSBParams, p.Params)
	for _, q := range p.Queues {
		add(lang.KindLSBQueues, q.Settings)
	}
	for _, a := range p.Applications {
		add(lang.KindLSBApplications, a.Settings)
	}
	for _, b := range p.BatchHosts {
		addIn(lang.KindLSBHosts, "Host", b.Settings)
	}
	for _, g := range p.HostGroups {
		addIn(lang.KindLSBHosts, "HostGroup", g.set)
	}
	for _, g := range p.ComputeUnits {
		addIn(lang.KindLSBHosts, "ComputeUnit", g.set)
	}
	for _, g := range p.UserGroups {
		addIn(lang.KindLSBUsers, "UserGroup", g.set)
	}
	for _, u := range p.UserLimits {
		addIn(lang.KindLSBUsers, "User", u.Settings)
	}
	for _, l := range p.Limits {
		addIn(lang.KindLSBResources, "Limit", l.Settings)
	}
	for _, o := range p.Sections {
		kind, ok := checkedOnlyFiles[o.File]
		if !ok || !sectionFiles[kind] {
			continue
		}
		if wholeSection(kind, o.Name) {
			// Nothing of it is acted on: the section is named once.
			var sp lang.Span
			if o.section != nil {
				sp = o.section.Name.Span
			}
			note(kind, o.Name+" section", sp)
			continue
		}
		addIn(kind, o.Name, o.Settings)
		for _, r := range o.Rows {
			addIn(kind, o.Name, r)
		}
	}
	var out []string
	for _, kind := range []lang.FileKind{lang.KindLSFConf, lang.KindLSBParams, lang.KindLSBQueues, lang.KindLSBApplications,
		lang.KindLSBHosts, lang.KindLSBUsers, lang.KindLSBResources} {
		fs := byKind[kind]
		counted := 0
		if kind == lang.KindLSFConf {
			counted = installation
		}
		if len(fs) == 0 && counted == 0 {
			continue
		}
		var parts []string
		slices.SortFunc(fs, func(a, b found) int {
			if c := strings.Compare(a.path, b.path); c != 0 {
				return c
			}
			if a.line != b.line {
				return a.line - b.line
			}
			return strings.Compare(a.key, b.key)
		})
		// A key set in several sections (queues, profiles) is named once
		// with each of its lines.
		at := map[string]int{}
		for _, f := range fs {
			where := fmt.Sprintf("line %d", f.line)
			if f.line == 0 {
				where = "line ?"
			}
			if i, ok := at[f.key]; ok {
				parts[i] = strings.Replace(strings.TrimSuffix(parts[i], ")"), " (line ", " (lines ", 1) + ", " + strings.TrimPrefix(where, "line ") + ")"
				continue
			}
			at[f.key] = len(parts)
			parts = append(parts, fmt.Sprintf("%s (%s)", f.key, where))
		}
		line := strings.Join(parts, ", ")
		if counted > 0 {
			if line != "" {
				line += ", and "
			}
			line += fmt.Sprintf("%d %s of the LSF installation (directories, ports, daemons)", counted,
				map[bool]string{true: "setting", false: "settings"}[counted == 1])
		}
		out = append(out, fmt.Sprintf("%s: read and checked, not acted on by lsfc: %s", kind, line))
	}
	return out
}
