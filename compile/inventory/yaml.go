package inventory

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/lang"
	"go.yaml.in/yaml/v3"
)

// Read reads a host inventory written in YAML or JSON:
//
//	hosts:
//	  - name: cn01              # required, unique
//	    type: X86_64
//	    model: XeonGold6248
//	    ncpus: 40               # also ncores, nthreads, nprocs
//	    maxmem: 192G            # also maxswp, maxtmp; bare numbers are in def
//	    cpuf: 60
//	    server: true            # default true
//	    slots: 12               # free job slots; maxslots is the MXJ
//	    resources: [ssd, "!fs"] # Boolean resources; "!" marks exclusive ones
//	    values: {rack: r01, ngpus: 4}  # numeric and string site resources
//	    load: {r1m: 0.4, ut: 12%, mem: 150G, scratch: 800000}
//	    reserved: {mem: 16G}    # rusage of running jobs, as load
//	    status: ok
//
// Memory amounts (maxmem, maxswp, maxtmp, and mem, swp and tmp under load
// and reserved) take a unit suffix (see compile.ParseMemory); bare numbers
// are in def. Load index aliases (swap, cpu, login, idle) are stored under their
// canonical names (swp, r1m, ls, it); other load names are dynamic site
// numerics. ut is a fraction from 0 to 1, or a percentage written "12%".
// In values, numbers are numeric resources and text is a string resource;
// values cannot set built-in resources. Merge keys ("<<: *anchor") and
// aliases are followed.
//
// Every problem is a diagnostic with a position in src: CodeInventory for
// what cannot be read (the value, or the host, is left out) and
// CodeInventoryWarn for what reads but looks wrong. The inventory is never
// nil; it holds the hosts that could be read, in file order (none for a
// nil src). Read does not panic on any input; input over MaxBytes or
// MaxHosts is an error and gives an empty inventory.
func Read(src *lang.Source, def compile.Unit) (*Inventory, lang.Diagnostics) {
	r := &invYAMLReader{src: src, def: def, adder: newInvAdder()}
	if src != nil {
		r.read()
		r.diags.Sort()
	}
	return r.adder.inv, r.diags
}

// invYAMLReader reads one inventory file.
type invYAMLReader struct {
	invReport
	src   *lang.Source
	def   compile.Unit
	lines []int // byte offsets of line starts, as YAML counts lines
	// lineInfo and cursor make offset fast on long lines.
	lineInfo map[int]invLine
	cursor   struct{ line, col, off int }
	adder    *invAdder
	budget   int // mapping entries and list items still to visit
	// fields holds the value nodes of the host being read, by field
	// ("maxmem", "load mem"), for diagnostics about the host as a whole.
	fields map[string]*yaml.Node
}

func (r *invYAMLReader) read() {
	text := r.src.Text
	if len(text) > MaxBytes {
		r.errorf(r.src.SpanOf(0, 0), "inventory is %d bytes, more than the limit of %d MiB", len(text), MaxBytes>>20)
		return
	}
	if strings.HasPrefix(text, "\xfe\xff") || strings.HasPrefix(text, "\xff\xfe") {
		r.errorf(r.src.SpanOf(0, 2), "inventory is UTF-16 text; save it as UTF-8")
		return
	}
	r.lines = invYAMLLineStarts(text)
	r.budget = len(text) + 100000
	doc, ok := r.parse()
	if !ok {
		return
	}
	if doc.Kind == 0 || len(doc.Content) == 0 {
		r.errorf(r.src.SpanOf(0, 0), "inventory is empty; want a mapping with the key \"hosts\"")
		return
	}
	r.top(doc.Content[0])
}

// parse decodes the first YAML document, reporting a syntax error, or a
// second document, which is not read.
func (r *invYAMLReader) parse() (doc *yaml.Node, ok bool) {
	defer func() {
		if e := recover(); e != nil {
			r.errorf(r.src.SpanOf(0, 0), "bad YAML: the YAML parser failed: %v", e)
			doc, ok = nil, false
		}
	}()
	dec := yaml.NewDecoder(strings.NewReader(r.src.Text))
	doc = new(yaml.Node)
	if err := dec.Decode(doc); err != nil {
		if errors.Is(err, io.EOF) {
			return &yaml.Node{}, true
		}
		r.yamlError(err)
		return nil, false
	}
	var next yaml.Node
	switch err := dec.Decode(&next); {
	case err == nil:
		r.warnf(r.span(&next), "the inventory holds more than one YAML document; only the first is read")
	case !errors.Is(err, io.EOF):
		r.yamlError(err)
	}
	return doc, true
}

// yamlError reports a YAML syntax error at the line it names, or, for
// errors that name no line, at the first byte that explains it.
func (r *invYAMLReader) yamlError(err error) {
	text := r.src.Text
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if num, tail, ok := strings.Cut(rest, ": "); ok {
			if n, err := strconv.Atoi(num); err == nil {
				r.errorf(r.lineSpan(n), "bad YAML: %s", tail)
				return
			}
		}
	}
	off := invFirstBadByte(text, msg)
	end := off + invRuneLen(text, off)
	if name, ok := strings.CutPrefix(msg, "unknown anchor '"); ok {
		name, _, _ = strings.Cut(name, "'")
		if i := strings.Index(text, "*"+name); i >= 0 {
			off, end = i, i+1+len(name)
		}
	}
	r.errorf(r.src.SpanOf(off, end), "bad YAML: %s", msg)
}

// lineSpan returns the span of the text of the 1-based YAML line n,
// without its indentation and trailing blanks.
func (r *invYAMLReader) lineSpan(n int) lang.Span {
	text := r.src.Text
	start := r.offset(n, 1)
	end := start
	for end < len(text) && text[end] != '\n' && text[end] != '\r' {
		end++
	}
	for start < end && invYAMLBlank(text[start]) {
		start++
	}
	for end > start && invYAMLBlank(text[end-1]) {
		end--
	}
	return r.src.SpanOf(start, end)
}

// invFirstBadByte returns the offset of the first control character or
// invalid UTF-8 byte when msg is about one of them, and 0 otherwise.
func invFirstBadByte(text, msg string) int {
	control := strings.Contains(msg, "control characters")
	utf := strings.Contains(msg, "UTF-8")
	if !control && !utf {
		return 0
	}
	for i, c := range text {
		if utf && c == utf8.RuneError {
			if _, n := utf8.DecodeRuneInString(text[i:]); n == 1 {
				return i
			}
		}
		if control && (c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c >= 0x7f && c <= 0x9f && c != 0x85) {
			return i
		}
	}
	return 0
}

// invRuneLen returns the length of the character at off, 0 at the end.
func invRuneLen(text string, off int) int {
	if off >= len(text) {
		return 0
	}
	_, n := utf8.DecodeRuneInString(text[off:])
	return n
}

// top reads the top-level mapping.
func (r *invYAMLReader) top(n *yaml.Node) {
	n = r.resolve(n)
	if n.Kind != yaml.MappingNode {
		hint := ""
		if n.Kind == yaml.SequenceNode {
			hint = " (write \"hosts:\" above the list)"
		}
		r.errorf(r.span(n), "inventory must be a mapping with the key \"hosts\", not %s%s", invDescribe(n), hint)
		return
	}
	var hosts *yaml.Node
	for _, p := range r.pairs(n, "the inventory") {
		if p.key == "hosts" {
			hosts = p.val
			continue
		}
		r.warnf(r.span(p.keyNode), "unknown key %q at the top of the inventory; it is ignored%s", p.key, invDidYouMean(p.key, []string{"hosts"}))
	}
	if hosts == nil {
		r.errorf(r.span(n), "inventory has no key \"hosts\"")
		return
	}
	r.hosts(hosts)
}

// hosts reads the list of hosts.
func (r *invYAMLReader) hosts(n *yaml.Node) {
	n = r.resolve(n)
	switch {
	case n.Kind == yaml.ScalarNode && n.Tag == "!!null":
		return
	case n.Kind != yaml.SequenceNode:
		r.errorf(r.span(n), "hosts must be a list of hosts, not %s", invDescribe(n))
		return
	case len(n.Content) > MaxHosts:
		r.errorf(r.span(n), "inventory lists %d hosts, more than the limit of %d", len(n.Content), MaxHosts)
		return
	}
	for i, item := range n.Content {
		if !r.spend(item) {
			return
		}
		if h := r.host(item, i+1); h != nil {
			invCheckHost(&r.invReport, h, r.fieldSpan(h))
			r.adder.add(&r.invReport, h)
		}
	}
}

// spend takes one visit from the budget, reporting at n when it is spent.
// Only aliases can make a file need more visits than it has bytes.
func (r *invYAMLReader) spend(n *yaml.Node) bool {
	r.budget--
	if r.budget == 0 {
		r.errorf(r.span(n), "inventory expands to too many values through aliases; the rest is not read")
	}
	return r.budget > 0
}

// host reads the index-th host (1-based); nil when it has no usable name.
func (r *invYAMLReader) host(n *yaml.Node, index int) *compile.Host {
	n = r.resolve(n)
	if n.Kind != yaml.MappingNode {
		r.errorf(r.span(n), "host %d must be a mapping of keys to values, not %s", index, invDescribe(n))
		return nil
	}
	pairs := r.pairs(n, fmt.Sprintf("host %d", index))
	var nameNode *yaml.Node
	for _, p := range pairs {
		if p.key == "name" {
			nameNode = p.val
			break
		}
	}
	if nameNode == nil {
		r.errorf(r.span(n), "host %d has no name", index)
		return nil
	}
	h := r.hostName(nameNode, index)
	if h == nil {
		return nil
	}
	r.fields = map[string]*yaml.Node{}
	for _, p := range pairs {
		if p.key != "name" {
			r.hostKey(h, p)
		}
	}
	return h
}

// fieldSpan returns a function giving where a field of h, the host last
// read, is written.
func (r *invYAMLReader) fieldSpan(h *compile.Host) func(string) lang.Span {
	return func(field string) lang.Span {
		if n, ok := r.fields[field]; ok {
			return r.span(r.resolve(n))
		}
		return h.Span
	}
}

// hostName reads the name of the index-th host.
func (r *invYAMLReader) hostName(n *yaml.Node, index int) *compile.Host {
	sp := r.span(n)
	if v := r.resolve(n); v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
		r.errorf(sp, "name of host %d is empty", index)
		return nil
	}
	name, ok := r.text(n, fmt.Sprintf("name of host %d", index))
	if !ok {
		return nil
	}
	switch {
	case name == "":
		r.errorf(sp, "name of host %d is empty", index)
		return nil
	case strings.ContainsAny(name, " \t\r\n()[]{}!@#&|,;=\"'"):
		r.errorf(sp, "host name %q holds a character not allowed in host names", name)
		return nil
	}
	return newInvHost(name, sp)
}

// hostKey reads one key of a host.
func (r *invYAMLReader) hostKey(h *compile.Host, p invPair) {
	what := fmt.Sprintf("%s of host %q", p.key, h.Name)
	r.fields[p.key] = p.val
	switch p.key {
	case "type":
		r.word(p.val, what, &h.Type)
	case "model":
		r.word(p.val, what, &h.Model)
	case "ncpus":
		r.count(p.val, what, &h.Ncpus)
	case "ncores":
		r.count(p.val, what, &h.Ncores)
	case "nthreads":
		r.count(p.val, what, &h.Nthreads)
	case "nprocs":
		r.count(p.val, what, &h.Nprocs)
	case "slots":
		r.count(p.val, what, &h.Slots)
	case "maxslots":
		r.count(p.val, what, &h.MaxSlots)
	case "maxmem":
		r.memory(p.val, what, &h.Maxmem)
	case "maxswp":
		r.memory(p.val, what, &h.Maxswp)
	case "maxtmp":
		r.memory(p.val, what, &h.Maxtmp)
	case "cpuf":
		if v, ok := r.number(p.val, what); ok {
			h.Cpuf = v
		}
	case "server":
		r.server(h, p.val, what)
	case "resources":
		r.resources(h, p.val)
	case "values":
		r.values(h, p.val)
	case "load":
		r.loads(h, p.val, "load", h.Load)
	case "reserved":
		r.loads(h, p.val, "reserved", h.Reserved)
	case "status":
		r.status(h, p.val, what)
	default:
		r.warnf(r.span(p.keyNode), "unknown key %q in host %q; it is ignored%s", p.key, h.Name, invHostKeyHint(p.key))
	}
}

// invHostKeyHint suggests the key meant by an unknown host key.
func invHostKeyHint(key string) string {
	hints := map[string]string{
		"host": "name", "hostname": "name", "host_name": "name", "hname": "name",
		"mem": "maxmem", "swp": "maxswp", "swap": "maxswp", "tmp": "maxtmp",
		"mxj": "maxslots", "state": "status", "booleans": "resources",
		"numbers": "values", "strings": "values", "resourcemap": "values",
	}
	if k, ok := hints[strings.ToLower(key)]; ok {
		return fmt.Sprintf(" (did you mean %q?)", k)
	}
	return invDidYouMean(key, []string{"name", "type", "model", "ncpus", "ncores", "nthreads", "nprocs",
		"maxmem", "maxswp", "maxtmp", "cpuf", "server", "slots", "maxslots", "resources", "values",
		"load", "reserved", "status"})
}

// word reads a one-word text value into dst.
func (r *invYAMLReader) word(n *yaml.Node, what string, dst *string) {
	s, ok := r.text(n, what)
	if !ok {
		return
	}
	if s == "" || strings.ContainsAny(s, " \t\r\n") {
		r.errorf(r.span(n), "%s must be one word, not %q", what, s)
		return
	}
	*dst = s
}

// status reads the status of h.
func (r *invYAMLReader) status(h *compile.Host, n *yaml.Node, what string) {
	var s string
	r.word(n, what, &s)
	if s == "" {
		return
	}
	if !invKnownStatus(s) {
		r.warnf(r.span(n), "unknown status %q of host %q%s", s, h.Name, invDidYouMean(s, invStatusNames()))
	}
	h.Status = s
}

// server reads the server flag: true or false, 1 or 0, yes or no.
func (r *invYAMLReader) server(h *compile.Host, n *yaml.Node, what string) {
	n = r.resolve(n)
	if n.Kind == yaml.ScalarNode {
		switch strings.ToLower(n.Value) {
		case "true", "1", "yes":
			h.Server = true
			return
		case "false", "0", "no":
			h.Server = false
			return
		}
	}
	r.errorf(r.span(n), "%s must be true or false, not %s", what, invDescribe(n))
}

// resources reads the list of Boolean resources of h.
func (r *invYAMLReader) resources(h *compile.Host, n *yaml.Node) {
	n = r.resolve(n)
	if n.Kind != yaml.SequenceNode {
		if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
			return
		}
		r.errorf(r.span(n), "resources of host %q must be a list like [fs, ssd], not %s", h.Name, invDescribe(n))
		return
	}
	for _, item := range n.Content {
		if !r.spend(item) {
			return
		}
		name, ok := r.text(item, fmt.Sprintf("a resource of host %q", h.Name))
		if !ok {
			continue
		}
		excl := strings.HasPrefix(name, "!")
		name = strings.TrimPrefix(name, "!")
		if !r.resourceName(item, name, h) {
			continue
		}
		if !addBoolean(h, name, excl) {
			r.warnf(r.span(item), "resource %q is listed twice for host %q", name, h.Name)
		}
	}
}

// resourceName reports whether name can name a site resource of h, and
// reports at n why not.
func (r *invYAMLReader) resourceName(n *yaml.Node, name string, h *compile.Host) bool {
	if why := invResourceNameProblem(name); why != "" {
		r.errorf(r.span(n), "resource name %q of host %q %s", name, h.Name, why)
		return false
	}
	if hint, ok := invBuiltinHint(name); ok {
		r.errorf(r.span(n), "%q is a built-in resource, not a site resource of host %q%s", name, h.Name, hint)
		return false
	}
	return true
}

// values reads the numeric and string site resources of h.
func (r *invYAMLReader) values(h *compile.Host, n *yaml.Node) {
	n = r.resolve(n)
	if n.Kind != yaml.MappingNode {
		if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
			return
		}
		r.errorf(r.span(n), "values of host %q must be a mapping like {rack: r01, ngpus: 4}, not %s", h.Name, invDescribe(n))
		return
	}
	for _, p := range r.pairs(n, fmt.Sprintf("values of host %q", h.Name)) {
		if !r.resourceName(p.keyNode, p.key, h) {
			continue
		}
		if hasBoolean(h, p.key) {
			r.errorf(r.span(p.keyNode), "resource %q of host %q is both a Boolean (in resources) and a value", p.key, h.Name)
			continue
		}
		v := r.resolve(p.val)
		switch {
		case v.Kind == yaml.ScalarNode && (v.Tag == "!!int" || v.Tag == "!!float"):
			if x, ok := r.finite(v, fmt.Sprintf("value of %q in host %q", p.key, h.Name)); ok {
				h.Numbers[p.key] = x
			}
		case v.Kind == yaml.ScalarNode && v.Tag == "!!str":
			h.Strings[p.key] = v.Value
		default:
			r.errorf(r.span(v), "value of %q in host %q must be a number or a string, not %s%s", p.key, h.Name, invDescribe(v), invBoolHint(v))
		}
	}
}

// invBoolHint explains where Boolean resources go when n is true or false.
func invBoolHint(n *yaml.Node) string {
	if n.Kind == yaml.ScalarNode && n.Tag == "!!bool" {
		return " (list Boolean resources under resources)"
	}
	return ""
}

// loads reads the load indices (or reserved amounts) of h into dst.
func (r *invYAMLReader) loads(h *compile.Host, n *yaml.Node, key string, dst map[string]float64) {
	n = r.resolve(n)
	if n.Kind != yaml.MappingNode {
		if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
			return
		}
		r.errorf(r.span(n), "%s of host %q must be a mapping like {r1m: 0.5, mem: 64G}, not %s", key, h.Name, invDescribe(n))
		return
	}
	given := map[string]*yaml.Node{}
	for _, p := range r.pairs(n, fmt.Sprintf("%s of host %q", key, h.Name)) {
		name, builtin := invLoadIndex(p.key)
		if first, ok := given[name]; ok {
			d := r.errorf(r.span(p.keyNode), "%s index %q of host %q is given twice; the second value is ignored", key, name, h.Name)
			invNote(d, r.span(first), "%q is first given here, as %q", name, first.Value)
			continue
		}
		given[name] = p.keyNode
		if !builtin && !r.siteLoadName(h, p, key) {
			continue
		}
		what := fmt.Sprintf("%s %s of host %q", key, name, h.Name)
		if v, ok := r.loadValue(p.val, name, what); ok {
			dst[name] = v
			r.fields[key+" "+name] = p.val
		}
	}
}

// siteLoadName checks a load name that is not a built-in index: it must be
// a resource name, and one close to a built-in index is likely misspelt.
func (r *invYAMLReader) siteLoadName(h *compile.Host, p invPair, key string) bool {
	if why := invResourceNameProblem(p.key); why != "" {
		r.errorf(r.span(p.keyNode), "%s name %q of host %q %s", key, p.key, h.Name, why)
		return false
	}
	if s := invDidYouMean(p.key, invLoadIndexNames()); s != "" {
		r.warnf(r.span(p.keyNode), "%q under %s of host %q is not a built-in load index%s; it is read as a site resource", p.key, key, h.Name, s)
	}
	return true
}

// loadValue reads the value of the canonical load index name.
func (r *invYAMLReader) loadValue(n *yaml.Node, name, what string) (float64, bool) {
	n = r.resolve(n)
	switch {
	case invMemoryIndex(name):
		var v float64
		ok := r.memory(n, what, &v)
		return v, ok
	case name == "ut" && n.Kind == yaml.ScalarNode && n.Tag == "!!str" && strings.HasSuffix(n.Value, "%"):
		v, ok := invParsePercent(n.Value)
		if !ok {
			r.errorf(r.span(n), "%s must be a fraction from 0 to 1 or a percentage like 35%%, not %q", what, n.Value)
		}
		return v, ok
	}
	v, ok := r.number(n, what)
	if ok && name == "ut" && v > 1 {
		r.warnf(r.span(n), "%s is %g, but ut is a fraction from 0 to 1 (write %q for a percentage)", what, v, n.Value+"%")
	}
	return v, ok
}

// invParsePercent reads "35%" or "35.5%" as a fraction (0.35, 0.355).
func invParsePercent(s string) (float64, bool) {
	num, rest := compile.SplitDecimal(strings.TrimSpace(s))
	if num == "" || rest != "%" {
		return 0, false
	}
	v, err := strconv.ParseFloat(num, 64)
	return v / 100, err == nil
}

// text reads a scalar as text: strings, and numbers as written.
func (r *invYAMLReader) text(n *yaml.Node, what string) (string, bool) {
	n = r.resolve(n)
	if n.Kind == yaml.ScalarNode && (n.Tag == "!!str" || n.Tag == "!!int" || n.Tag == "!!float") {
		return n.Value, true
	}
	r.errorf(r.span(n), "%s must be text, not %s", what, invDescribe(n))
	return "", false
}

// finite reads a numeric scalar that must be finite.
func (r *invYAMLReader) finite(n *yaml.Node, what string) (float64, bool) {
	n = r.resolve(n)
	if n.Kind != yaml.ScalarNode || (n.Tag != "!!int" && n.Tag != "!!float") {
		r.errorf(r.span(n), "%s must be a number, not %s", what, invDescribe(n))
		return 0, false
	}
	v, ok := invYAMLNumber(n)
	if !ok {
		r.errorf(r.span(n), "%s must be a finite number, not %s", what, n.Value)
		return 0, false
	}
	return v, true
}

// number reads a finite number that must not be negative.
func (r *invYAMLReader) number(n *yaml.Node, what string) (float64, bool) {
	v, ok := r.finite(n, what)
	if ok && v < 0 {
		r.errorf(r.span(n), "%s must not be negative, not %s", what, n.Value)
		return 0, false
	}
	return v, ok
}

// count reads a whole number that must not be negative into dst.
func (r *invYAMLReader) count(n *yaml.Node, what string, dst *float64) {
	v, ok := r.number(n, what)
	if !ok {
		return
	}
	if v != math.Trunc(v) {
		r.errorf(r.span(n), "%s must be a whole number, not %s", what, r.resolve(n).Value)
		return
	}
	*dst = v
}

// memory reads a memory amount into dst: a number in r.def, or text with
// a unit.
func (r *invYAMLReader) memory(n *yaml.Node, what string, dst *float64) bool {
	n = r.resolve(n)
	if n.Kind == yaml.ScalarNode && n.Tag == "!!str" {
		v, err := compile.ParseMemory(n.Value, r.def)
		if err != nil {
			r.errorf(r.span(n), "%s: %v", what, err)
			return false
		}
		*dst = v
		return true
	}
	if n.Kind != yaml.ScalarNode || (n.Tag != "!!int" && n.Tag != "!!float") {
		r.errorf(r.span(n), "%s must be a memory amount like 64G, not %s", what, invDescribe(n))
		return false
	}
	v, ok := r.number(n, what)
	if !ok {
		return false
	}
	v *= r.def.Megabytes()
	if math.IsInf(v, 0) || math.IsNaN(v) {
		r.errorf(r.span(n), "%s is too large", what)
		return false
	}
	*dst = v
	return true
}

// invYAMLNumber returns the value of an !!int or !!float scalar, and false
// for NaN, the infinities and text that does not parse.
func invYAMLNumber(n *yaml.Node) (float64, bool) {
	s := strings.ReplaceAll(n.Value, "_", "")
	var v float64
	if n.Tag == "!!int" {
		if i, err := strconv.ParseInt(s, 0, 64); err == nil {
			v = float64(i)
		} else if u, err := strconv.ParseUint(strings.TrimPrefix(s, "+"), 0, 64); err == nil {
			v = float64(u)
		} else if f, err := strconv.ParseFloat(s, 64); err == nil {
			v = f
		} else {
			return 0, false
		}
	} else {
		// NaN and the infinities parse, or fail to (".nan", "-.inf"), and
		// are turned away below either way.
		f, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return 0, false
		}
		v = f
	}
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, false
	}
	if v == 0 {
		v = 0 // not -0
	}
	return v, true
}

// invDescribe names the kind of value n is, for messages.
func invDescribe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.DocumentNode:
		return "a document"
	case yaml.AliasNode:
		return "an alias"
	case yaml.ScalarNode:
		switch n.Tag {
		case "!!null":
			return "an empty value"
		case "!!bool":
			return n.Value
		case "!!int", "!!float":
			return "the number " + n.Value
		case "!!str":
			return fmt.Sprintf("the string %q", n.Value)
		}
		return fmt.Sprintf("the value %q", n.Value)
	}
	return "nothing"
}
