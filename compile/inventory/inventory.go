package inventory

import (
	"fmt"
	"slices"
	"strings"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
)

// The codes reported while reading a host inventory (Read, ReadLSHosts).
const (
	CodeInventory     lang.Code = "LSF420" // the inventory cannot be read as written
	CodeInventoryWarn lang.Code = "LSF421" // the inventory reads, but something in it looks wrong
)

// The bounds on an inventory. Past them the readers report one error and
// read nothing more.
const (
	MaxBytes = 64 << 20 // the largest inventory file, in bytes
	MaxHosts = 100000   // the most hosts in one inventory
)

// inventoryMaxDiags is the most diagnostics reported for one inventory;
// past it one last diagnostic says the rest were dropped.
const inventoryMaxDiags = lang.DefaultMaxDiagnostics

// newInvHost returns a host with every default set.
func newInvHost(name string, sp lang.Span) *compile.Host {
	return &compile.Host{
		Name: name, Server: true, Slots: -1, MaxSlots: -1, Status: "ok", Span: sp,
		Booleans: []string{}, Exclusive: []string{},
		Numbers: map[string]float64{}, Strings: map[string]string{},
		Load: map[string]float64{}, Reserved: map[string]float64{},
	}
}

// addBoolean records a Boolean resource of h, exclusive when written "!name",
// keeping Booleans and Exclusive sorted and free of repeats. It reports
// whether the resource was new.
func addBoolean(h *compile.Host, name string, exclusive bool) bool {
	i, found := slices.BinarySearch(h.Booleans, name)
	if !found {
		h.Booleans = slices.Insert(h.Booleans, i, name)
	}
	if exclusive {
		if j, ok := slices.BinarySearch(h.Exclusive, name); !ok {
			h.Exclusive = slices.Insert(h.Exclusive, j, name)
		}
	}
	return !found
}

// hasBoolean reports whether h has the Boolean resource name.
func hasBoolean(h *compile.Host, name string) bool {
	_, ok := slices.BinarySearch(h.Booleans, name)
	return ok
}

// An Inventory is a list of hosts, in the order of the file they were read
// from, with unique names.
type Inventory struct {
	Hosts []*compile.Host
}

// Host returns the host named name, or nil when there is none (or inv is
// nil). It looks through the hosts in order.
func (inv *Inventory) Host(name string) *compile.Host {
	if inv == nil {
		return nil
	}
	for _, h := range inv.Hosts {
		if h.Name == name {
			return h
		}
	}
	return nil
}

// Codes returns the documentation of the codes reported while
// reading a host inventory, in code order. The slice is new on every call.
func Codes() []lang.CodeInfo {
	return []lang.CodeInfo{
		{Code: CodeInventory, Name: "inventory", Severity: lang.Error,
			Summary: "the host inventory cannot be read as written",
			Doc: `What it finds: a host inventory (--hosts, or --lshosts and --lsload) that
is not valid YAML or JSON, lacks the "hosts" list, has a host without a
name or a name given twice, gives a value of the wrong type (a list where a
number belongs, a string where true or false belongs), a negative amount, a
memory amount with an unknown unit, an lshosts or lsload table whose rows do
not fit its header, or is larger than lsfc reads (64 MiB, 100000 hosts).

Why it matters: the host, or the value, is left out, so a resource
requirement is matched against hosts that are not the ones described.

Example:
  hosts:
    - name: cn01
      maxmem: 256X      # unknown unit
    - name: cn01        # the same name again

Fix: correct the value; memory amounts are numbers with an optional unit
K, M, G, T, P, E or Z (with or without B), bare numbers being in the
cluster's unit.`},
		{Code: CodeInventoryWarn, Name: "inventory-warning", Severity: lang.Warning,
			Summary: "something in the host inventory looks wrong",
			Doc: `What it finds: a key lsfc does not know (with the nearest known key), a
load index that looks like a misspelt built-in one, an unknown host status,
a Boolean resource listed twice, free memory, swap or /tmp above the host's
maximum, more free slots than maxslots, a ut above 1 (a percentage where
a fraction belongs), or an lsload row for a host that lshosts does not list.

Why it matters: the inventory still reads, but what it describes is
probably not what was meant: an unknown key is ignored, and a misspelt load
index becomes a site resource of its own.

Example:
  hosts:
    - name: cn01
      maxmen: 256G      # did you mean "maxmem"?

Fix: correct the spelling or the value, or remove the entry.`},
	}
}

// invReport collects the diagnostics of one reading, up to
// inventoryMaxDiags.
type invReport struct {
	diags lang.Diagnostics
	full  bool
}

// add appends a diagnostic, or nil once the list is full; the first one
// past the bound is replaced by a note that the rest were dropped.
func (r *invReport) add(sev lang.Severity, sp lang.Span, format string, args ...any) *lang.Diagnostic {
	if r.full {
		return nil
	}
	if len(r.diags) >= inventoryMaxDiags {
		r.full = true
		r.diags.Add(lang.Error, CodeInventory, sp, "too many problems in the inventory; the rest are not reported")
		return nil
	}
	code := CodeInventory
	if sev != lang.Error {
		code = CodeInventoryWarn
	}
	return r.diags.Add(sev, code, sp, format, args...)
}

func (r *invReport) errorf(sp lang.Span, format string, args ...any) *lang.Diagnostic {
	return r.add(lang.Error, sp, format, args...)
}

func (r *invReport) warnf(sp lang.Span, format string, args ...any) *lang.Diagnostic {
	return r.add(lang.Warning, sp, format, args...)
}

// invNote attaches a related note to d, which may be nil.
func invNote(d *lang.Diagnostic, sp lang.Span, format string, args ...any) {
	if d != nil {
		d.Note(sp, format, args...)
	}
}

// invAdder adds hosts to an inventory, reporting duplicate names.
type invAdder struct {
	inv  *Inventory
	seen map[string]*compile.Host
}

func newInvAdder() *invAdder {
	return &invAdder{inv: &Inventory{}, seen: map[string]*compile.Host{}}
}

// add appends h unless a host of the same name is already there, which is
// reported as an error with a note on the first.
func (a *invAdder) add(r *invReport, h *compile.Host) {
	if first, ok := a.seen[h.Name]; ok {
		d := r.errorf(h.Span, "host %q is defined twice; the second definition is ignored", h.Name)
		invNote(d, first.Span, "host %q is first defined here", h.Name)
		return
	}
	a.seen[h.Name] = h
	a.inv.Hosts = append(a.inv.Hosts, h)
}

// invCheckHost reports values of h that contradict each other. where
// returns where a field of h ("maxmem", "load mem") is written, or h.Span
// when it does not know.
func invCheckHost(r *invReport, h *compile.Host, where func(field string) lang.Span) {
	for _, c := range []struct {
		load, max string
		maxv      float64
	}{{"mem", "maxmem", h.Maxmem}, {"swp", "maxswp", h.Maxswp}, {"tmp", "maxtmp", h.Maxtmp}} {
		if v, ok := h.Load[c.load]; ok && c.maxv > 0 && v > c.maxv*(1+1e-9) {
			free, most := compile.FormatMemoryPair(v, c.maxv)
			d := r.warnf(where("load "+c.load), "free %s of host %q (%s) is more than its %s (%s)", c.load, h.Name, free, c.max, most)
			invNote(d, where(c.max), "%s of host %q is given here", c.max, h.Name)
		}
	}
	if h.Slots >= 0 && h.MaxSlots >= 0 && h.Slots > h.MaxSlots {
		d := r.warnf(where("slots"), "host %q has more free slots (%g) than maxslots (%g)", h.Name, h.Slots, h.MaxSlots)
		invNote(d, where("maxslots"), "maxslots of host %q is given here", h.Name)
	}
}

// invLoadIndex returns the canonical name of a built-in load index
// or of one of its aliases (swap, cpu, login, idle), and whether name is
// one.
func invLoadIndex(name string) (string, bool) {
	switch name {
	case "r15s", "r1m", "r15m", "ut", "pg", "io", "ls", "it", "tmp", "swp", "mem":
		return name, true
	case "swap":
		return "swp", true
	case "cpu":
		return "r1m", true
	case "login":
		return "ls", true
	case "idle":
		return "it", true
	}
	return name, false
}

// invLoadIndexNames returns the canonical built-in load index names.
func invLoadIndexNames() []string {
	return []string{"r15s", "r1m", "r15m", "ut", "pg", "io", "ls", "it", "tmp", "swp", "mem"}
}

// invMemoryIndex reports whether the canonical load index name is measured
// in memory units.
func invMemoryIndex(name string) bool { return name == "mem" || name == "swp" || name == "tmp" }

// invBuiltinHint reports whether name is a built-in resource, and says
// how an inventory gives it ("; give it with the key \"maxmem\"").
func invBuiltinHint(name string) (string, bool) {
	if _, ok := invLoadIndex(name); ok {
		return "; give it under \"load\"", true
	}
	switch name {
	case "type", "model", "cpuf", "server", "ncpus", "nprocs", "ncores", "nthreads", "maxmem", "maxswp", "maxtmp", "slots":
		return fmt.Sprintf("; give it with the key %q", name), true
	case "hname":
		return "; give it with the key \"name\"", true
	case "rexpri", "ndisks", "any", "local", "defined":
		return "", true
	}
	return "", false
}

// invResourceNameProblem returns why name cannot be an LSF resource name, or "".
// LSF resource names do not start with a digit and hold none of the
// characters that resource requirement strings use as operators.
func invResourceNameProblem(name string) string {
	switch {
	case name == "":
		return "is empty"
	case name[0] >= '0' && name[0] <= '9':
		return "starts with a digit"
	case strings.ContainsAny(name, " \t\r\n:.()[]{}+-*/!&|<>@=,'\"~^%#;?"):
		return "holds a character LSF does not allow in resource names"
	}
	return ""
}

// invKnownStatus reports whether s is a host status LSF prints (lsload or
// bhosts), with or without a leading "-".
func invKnownStatus(s string) bool {
	s = strings.TrimPrefix(s, "-")
	switch s {
	case "ok", "busy", "lockU", "lockW", "unavail", "unreach", "unlicensed", "closed":
		return true
	}
	return strings.HasPrefix(s, "closed_") && len(s) > len("closed_")
}

// invStatusNames returns the statuses suggested for a misspelt one.
func invStatusNames() []string {
	return []string{"ok", "busy", "lockU", "lockW", "unavail", "unreach", "unlicensed", "closed", "closed_Adm", "closed_Full", "closed_Busy", "closed_Excl", "closed_LIM", "closed_Lock", "closed_Wind"}
}

// invDidYouMean returns " (did you mean %q?)" for the nearest candidate, or "".
func invDidYouMean(s string, candidates []string) string {
	if n := lang.Suggest(s, candidates); n != "" {
		return fmt.Sprintf(" (did you mean %q?)", n)
	}
	return ""
}
