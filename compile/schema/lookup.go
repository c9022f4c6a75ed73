package schema

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/lsfc/lsfc/lang"
)

// The tables are shared, read-only data: the functions below return
// pointers into them, which callers must not modify.

var files = sync.OnceValue(func() map[lang.FileKind]*File {
	m := map[lang.FileKind]*File{}
	for _, f := range []*File{&lsfConf, &lsfShared, &lsfCluster, &lsbParams, &lsbQueues, &lsbHosts,
		&lsbUsers, &lsbResources, &lsbApplications, &lsbModules, &lsbServiceClasses} {
		m[f.Kind] = f
	}
	return m
})

// Lookup returns the schema of a file kind, or nil when lsfc has none
// (lsf.task, other lsb.* files).
func Lookup(kind lang.FileKind) *File { return files()[kind] }

// Files returns the schemas of every file, in file-kind order.
func Files() []*File {
	var out []*File
	for k := lang.KindUnknown; k <= lang.KindLSBOther; k++ {
		if f := Lookup(k); f != nil {
			out = append(out, f)
		}
	}
	return out
}

// Section returns the section named name (ignoring case, as LSF does), or
// nil.
func (f *File) Section(name string) *Section {
	for i := range f.Sections {
		if strings.EqualFold(f.Sections[i].Name, name) {
			return &f.Sections[i]
		}
	}
	return nil
}

// SectionNames returns the names of the file's sections.
func (f *File) SectionNames() []string {
	out := make([]string, len(f.Sections))
	for i, s := range f.Sections {
		out[i] = s.Name
	}
	return out
}

// Key returns the key named name, or nil. Keys of lsf.conf are matched
// exactly; those of the other files ignoring case, as LSF does.
func (s *Section) Key(name string, exact bool) *Key {
	for i := range s.Keys {
		if s.Keys[i].Name == name || (!exact && strings.EqualFold(s.Keys[i].Name, name)) {
			return &s.Keys[i]
		}
	}
	return nil
}

// KeyNames returns the names of the section's keys.
func (s *Section) KeyNames() []string {
	out := make([]string, len(s.Keys))
	for i, k := range s.Keys {
		out[i] = k.Name
	}
	return out
}

// Bounds is a parsed Range.
type Bounds struct {
	Min, Max         float64
	HasMin, HasMax   bool
	MinOpen, MaxOpen bool // the bound itself is excluded
}

// Contains reports whether x lies within b.
func (b Bounds) Contains(x float64) bool {
	switch {
	case b.HasMin && (x < b.Min || b.MinOpen && x == b.Min):
		return false
	case b.HasMax && (x > b.Max || b.MaxOpen && x == b.Max):
		return false
	}
	return true
}

// String prints b for a message: "1 to 100", "at least 0", "more than 0".
func (b Bounds) String() string {
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
	switch {
	case b.HasMin && b.HasMax:
		return f(b.Min) + " to " + f(b.Max)
	case b.HasMin && b.MinOpen:
		return "more than " + f(b.Min)
	case b.HasMin:
		return "at least " + f(b.Min)
	case b.HasMax && b.MaxOpen:
		return "less than " + f(b.Max)
	case b.HasMax:
		return "at most " + f(b.Max)
	}
	return "any number"
}

// ParseRange reads a Range: "a..b", ">=a", ">a", "<=b", "<b", or "".
func ParseRange(r string) (Bounds, error) {
	var b Bounds
	num := func(s string) (float64, error) { return strconv.ParseFloat(strings.TrimSpace(s), 64) }
	var err error
	switch {
	case r == "":
	case strings.Contains(r, ".."):
		lo, hi, _ := strings.Cut(r, "..")
		if b.Min, err = num(lo); err == nil {
			b.Max, err = num(hi)
		}
		b.HasMin, b.HasMax = true, true
	case strings.HasPrefix(r, ">="):
		b.Min, err = num(r[2:])
		b.HasMin = true
	case strings.HasPrefix(r, ">"):
		b.Min, err = num(r[1:])
		b.HasMin, b.MinOpen = true, true
	case strings.HasPrefix(r, "<="):
		b.Max, err = num(r[2:])
		b.HasMax = true
	case strings.HasPrefix(r, "<"):
		b.Max, err = num(r[1:])
		b.HasMax, b.MaxOpen = true, true
	default:
		err = fmt.Errorf("range %q is not a..b, >=a, >a, <=b or <b", r)
	}
	if err != nil {
		return Bounds{}, fmt.Errorf("range %q: %v", r, err)
	}
	return b, nil
}
