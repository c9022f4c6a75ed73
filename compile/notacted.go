package compile

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"
	"sync"

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
}

// checkedOnly parses the list once: by file, each key, true when it only
// describes the LSF installation.
var checkedOnly = sync.OnceValues(func() (map[lang.FileKind]map[string]bool, error) {
	out := map[lang.FileKind]map[string]bool{}
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
		if !known || len(f) > 3 || len(f) == 3 && (f[2] != "installation" || kind != lang.KindLSFConf) {
			return nil, fmt.Errorf("checked-only-keys.txt:%d: want \"FILE KEY\" with FILE one of lsb.params, lsf.conf, lsb.queues, lsb.applications, or \"lsf.conf KEY installation\", got %q", n+1, line)
		}
		if out[kind] == nil {
			out[kind] = map[string]bool{}
		}
		out[kind][f[1]] = len(f) == 3
	}
	return out, nil
})

// CheckedOnlyKeys returns, by file, the keys lsfc reads, types and checks
// but does not act on: neither the scheduler nor a command uses them. A
// key maps to true when it only describes the LSF installation lsfc
// stands in for (LSF_BINDIR, LSF_LIM_PORT ...). The map is shared:
// callers must not change it.
func CheckedOnlyKeys() map[lang.FileKind]map[string]bool {
	m, err := checkedOnly()
	if err != nil {
		// The list is part of the program; TestCheckedOnlyList keeps it
		// well formed.
		panic(err)
	}
	return m
}

// NotActedOn returns one line per file for the keys the policy's files
// set that lsfc reads and checks but does not act on, each with the line
// it is set on: "lsb.params: read and checked, not acted on by lsfc:
// ADVRSV_USER_LIMIT (line 12), ...". The lsf.conf keys of the LSF
// installation (directories, ports, daemons) are counted, not named.
// Nil when there are none.
func (p *Policy) NotActedOn() []string {
	type found struct {
		key  string
		path string
		line int
	}
	keys := CheckedOnlyKeys()
	byKind := map[lang.FileKind][]found{}
	installation := 0
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
			sp := st.key
			if !sp.IsValid() {
				sp = st.span
			}
			f := found{key: name}
			if sp.IsValid() {
				f.path, f.line = sp.Path(), sp.StartPos().Line
			}
			byKind[kind] = append(byKind[kind], f)
		}
	}
	add(lang.KindLSFConf, p.Conf)
	add(lang.KindLSBParams, p.Params)
	for _, q := range p.Queues {
		add(lang.KindLSBQueues, q.Settings)
	}
	for _, a := range p.Applications {
		add(lang.KindLSBApplications, a.Settings)
	}
	var out []string
	for _, kind := range []lang.FileKind{lang.KindLSFConf, lang.KindLSBParams, lang.KindLSBQueues, lang.KindLSBApplications} {
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
