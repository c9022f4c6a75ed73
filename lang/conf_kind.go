package lang

import (
	"path/filepath"
	"strings"
)

// FileKind names an LSF configuration file. The kind decides the lexical
// rules a file is read with (see Family) and, in package compile, its
// schema.
type FileKind uint8

// The kinds of configuration file.
const (
	KindUnknown FileKind = iota
	KindLSFConf
	KindLSFShared
	KindLSFCluster
	KindLSFTask
	KindLSBParams
	KindLSBQueues
	KindLSBHosts
	KindLSBUsers
	KindLSBResources
	KindLSBApplications
	KindLSBModules
	KindLSBServiceClasses
	// KindLSBOther is any other lsb.* file (lsb.globalpolicies,
	// lsb.reasons, ...): read with the batch rules, no schema.
	KindLSBOther
)

var kindNames = [...]string{
	KindUnknown:           "unknown",
	KindLSFConf:           "lsf.conf",
	KindLSFShared:         "lsf.shared",
	KindLSFCluster:        "lsf.cluster",
	KindLSFTask:           "lsf.task",
	KindLSBParams:         "lsb.params",
	KindLSBQueues:         "lsb.queues",
	KindLSBHosts:          "lsb.hosts",
	KindLSBUsers:          "lsb.users",
	KindLSBResources:      "lsb.resources",
	KindLSBApplications:   "lsb.applications",
	KindLSBModules:        "lsb.modules",
	KindLSBServiceClasses: "lsb.serviceclasses",
	KindLSBOther:          "lsb",
}

func (k FileKind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "unknown"
}

// Family is a set of lexical rules shared by several files.
type Family uint8

// The families.
const (
	// FamilyBatch: lsb.* files. "#" starts a comment anywhere, quotes do
	// not protect it; a backslash ending the line after trailing blanks
	// continues it; #if, #elif, #else, #endif, #define and #INCLUDE are
	// preprocessor lines.
	FamilyBatch Family = iota
	// FamilyBase: lsf.shared, lsf.cluster.<name>, lsf.task. "#" outside
	// double quotes starts a comment; only a backslash that is the last
	// character of the line continues it; #INCLUDE is a preprocessor line.
	FamilyBase
	// FamilyConf: lsf.conf. The base rules, and every line is KEY=value
	// with no blanks around "=" and a value that is one word or quoted.
	FamilyConf
)

// Family returns the lexical rules of k. Unknown files are read with the
// batch rules.
func (k FileKind) Family() Family {
	switch k {
	case KindLSFConf:
		return FamilyConf
	case KindLSFShared, KindLSFCluster, KindLSFTask:
		return FamilyBase
	}
	return FamilyBatch
}

// templateSuffixes are stripped from a file name before its kind is
// looked up: autoconf and configuration-management templates keep the
// configuration syntax.
var templateSuffixes = []string{".in", ".erb", ".tmpl", ".j2", ".sample", ".example", ".orig", ".bak"}

// KindOf returns the kind of a file from its name: lsf.conf, lsf.shared,
// lsf.cluster.<name>, lsf.task[.<name>], lsb.<file>, and the renamed
// files of LavaLite (ll.conf, ll.cluster.<name>, llb.<file>). Template
// suffixes such as ".in" or ".erb" are ignored. Anything else is
// KindUnknown; see SniffKind.
func KindOf(name string) FileKind {
	base := filepath.Base(name)
	for changed := true; changed; {
		changed = false
		for _, suf := range templateSuffixes {
			if strings.HasSuffix(base, suf) && len(base) > len(suf) {
				base = strings.TrimSuffix(base, suf)
				changed = true
			}
		}
	}
	switch {
	case base == "lsf.conf" || base == "ll.conf":
		return KindLSFConf
	case base == "lsf.shared" || base == "ll.shared":
		return KindLSFShared
	case base == "lsf.cluster" || strings.HasPrefix(base, "lsf.cluster.") || strings.HasPrefix(base, "ll.cluster."):
		return KindLSFCluster
	case base == "lsf.task" || strings.HasPrefix(base, "lsf.task."):
		return KindLSFTask
	}
	var rest string
	switch {
	case strings.HasPrefix(base, "lsb."):
		rest = base[4:]
	case strings.HasPrefix(base, "llb."):
		rest = base[4:]
	default:
		return KindUnknown
	}
	switch rest {
	case "params":
		return KindLSBParams
	case "queues":
		return KindLSBQueues
	case "hosts":
		return KindLSBHosts
	case "users":
		return KindLSBUsers
	case "resources":
		return KindLSBResources
	case "applications":
		return KindLSBApplications
	case "modules":
		return KindLSBModules
	case "serviceclasses":
		return KindLSBServiceClasses
	case "events", "acct", "stream":
		// Logs, not configuration.
		return KindUnknown
	}
	if rest == "" {
		return KindUnknown
	}
	return KindLSBOther
}

// sniffSections maps a section name to the file kind it is typical of.
var sniffSections = map[string]FileKind{
	"queue":            KindLSBQueues,
	"hostgroup":        KindLSBHosts,
	"hostpartition":    KindLSBHosts,
	"computeunit":      KindLSBHosts,
	"usergroup":        KindLSBUsers,
	"user":             KindLSBUsers,
	"usermap":          KindLSBUsers,
	"limit":            KindLSBResources,
	"application":      KindLSBApplications,
	"plugin":           KindLSBModules,
	"serviceclass":     KindLSBServiceClasses,
	"cluster":          KindLSFShared,
	"hosttype":         KindLSFShared,
	"hostmodel":        KindLSFShared,
	"resource":         KindLSFShared,
	"clusteradmins":    KindLSFCluster,
	"resourcemap":      KindLSFCluster,
	"remotetasks":      KindLSFTask,
	"localtasks":       KindLSFTask,
	"host":             KindLSBHosts,
	"parameters":       KindLSBParams,
	"reservationusage": KindLSBResources,
}

// SniffKind guesses the kind of a file whose name says nothing, from its
// first "Begin <name>" line, or KindLSFConf when its first non-comment
// line is KEY=value. It returns KindUnknown when it cannot tell.
func SniffKind(text string) FileKind {
	for line := range strings.Lines(text) {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		if strings.EqualFold(f[0], "begin") && len(f) > 1 {
			return sniffSections[strings.ToLower(f[1])]
		}
		if i := strings.IndexByte(f[0], '='); i > 0 && isKey(f[0][:i]) {
			return KindLSFConf
		}
		return KindUnknown
	}
	return KindUnknown
}
