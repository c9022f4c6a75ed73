// Package schema describes every key of every LSF configuration file: the
// section it belongs to, its value type, unit, default, allowed range, a
// one-line description and the LSF versions where it differs. It is data;
// package compile reads it to check and type the values of a tree.
//
// The tables follow IBM Spectrum LSF 10.1's configuration reference; notes
// record where openlava (the open-source LSF 4 descendant) or other LSF
// versions differ.
package schema

import "github.com/lsfc/lsfc/lang"

// Type is the kind of value a key takes. It decides which value parser
// package compile applies.
type Type uint8

// The value types.
const (
	// String is free text (a description, a message).
	String Type = iota + 1
	// Name is one name: a queue, host, user, cluster, group or resource.
	Name
	// Names is a blank-separated list of names.
	Names
	// Int is an integer; Range bounds it.
	Int
	// Float is a decimal number; Range bounds it.
	Float
	// Bool is y, yes, n or no in any case (some keys also take Y/N only).
	Bool
	// Enum is one word of Enum (case-insensitive unless documented).
	Enum
	// EnumList is a blank-separated list of words of Enum.
	EnumList
	// Memory is an amount of memory; its unit is Unit, or the unit set by
	// LSF_UNIT_FOR_LIMITS when Unit is "LSF_UNIT_FOR_LIMITS".
	Memory
	// Duration is a length of time in Unit ("seconds", "minutes", "hours").
	Duration
	// Limit is a resource limit "[default] maximum"; for CPULIMIT and
	// RUNLIMIT each value is [hours:]minutes[/host_name|/host_model].
	Limit
	// Window is a list of time windows "[day:]hour[:minute]-[day:]hour[:minute]".
	Window
	// Threshold is a load threshold "loadSched[/loadStop]".
	Threshold
	// Hosts is a host specification list: host names, host groups, all,
	// others, ~exclusions, +preferences, compute units.
	Hosts
	// Users is a user specification list: user names, user groups, all,
	// ~exclusions.
	Users
	// ResReq is a resource requirement string (the -R language).
	ResReq
	// Path is a file or directory path.
	Path
	// Command is a shell command line.
	Command
	// Special is a value with its own grammar, parsed by a dedicated
	// function of package compile; Syntax documents it (PREEMPTION,
	// FAIRSHARE, SLOT_RESERVE, JOB_CONTROLS, ...).
	Special
)

var typeNames = [...]string{
	String: "string", Name: "name", Names: "names", Int: "integer", Float: "number",
	Bool: "boolean", Enum: "enum", EnumList: "enum list", Memory: "memory",
	Duration: "duration", Limit: "limit", Window: "time windows", Threshold: "threshold",
	Hosts: "host list", Users: "user list", ResReq: "resource requirement", Path: "path",
	Command: "command", Special: "special",
}

func (t Type) String() string {
	if int(t) < len(typeNames) && typeNames[t] != "" {
		return typeNames[t]
	}
	return "unknown"
}

// A Key is one parameter of a key = value section, or one column of a
// table section.
type Key struct {
	// Name is the key as LSF spells it (keys are matched exactly in
	// lsf.conf and case-insensitively in the other files).
	Name string
	Type Type
	// Unit is the unit of a number: "KB", "MB", "seconds", "minutes",
	// "hours", "LSF_UNIT_FOR_LIMITS", "MBD_SLEEP_TIME" (a multiple of it),
	// or "".
	Unit string
	// Default is the documented default, as LSF 10.1 documents it; "" when
	// the key is undefined by default.
	Default string
	// Range bounds a number: "a..b" (inclusive), ">=a", ">a", "<=b", "<b";
	// "" for no bound. Bounds are decimal numbers.
	Range string
	// Enum lists the words an Enum or EnumList key takes.
	Enum []string
	// Syntax is the documented syntax when the type alone does not tell
	// it, e.g. "PREEMPTIVE[[queue[+pref]] ...] PREEMPTABLE[[queue] ...]".
	Syntax string
	// Doc is one line saying what the key does.
	Doc string
	// Since is the LSF version that introduced the key, when known
	// ("10.1.0.3", "9.1", "7.0").
	Since string
	// Notes record versions where the key differs (another default, unit
	// or meaning, or missing).
	Notes []Note
	// Obsolete, when set, says since when the key is obsolete and what
	// replaces it.
	Obsolete string
	// Required marks a key (or column) a section must have.
	Required bool
}

// A Note records how a key differs in one version or dialect.
type Note struct {
	// Version is an LSF version ("9.1.3", "7.0") or "openlava".
	Version string
	Note    string
	// Default, when set, is the key's default in that version, written
	// like Key.Default.
	Default string
}

// Form is the shape of a section.
type Form uint8

// The forms a section may take.
const (
	// KeyValue sections hold KEY = value lines.
	KeyValue Form = iota + 1
	// Table sections hold a header of column names and rows.
	Table
	// Either form is accepted (ClusterAdmins, Limit, HostPartition ...).
	Either
)

// A Section describes one kind of Begin/End section.
type Section struct {
	// Name is the section name as LSF spells it ("Queue").
	Name string
	Form Form
	// Multiple is true when the section may appear more than once (one
	// per queue, limit, application ...).
	Multiple bool
	// Doc is one line saying what the section defines.
	Doc string
	// Keys are its parameters, or its columns for a table.
	Keys []Key
	// LoadIndices is true when any load index name (r15s, r1m, ut, mem,
	// and site-defined numeric resources) is also accepted as a key or
	// column, with a Threshold value.
	LoadIndices bool
}

// A File describes one configuration file.
type File struct {
	Kind lang.FileKind
	// Doc is one line saying what the file configures.
	Doc string
	// Sections lists the sections the file may hold. lsf.conf has one
	// section with an empty Name: its top-level KEY=value lines.
	Sections []Section
}
