package compile

import (
	"fmt"
	"strings"

	"github.com/lsfc/lsfc/compile/schema"
	"github.com/lsfc/lsfc/lang"
)

// keyValues reads the KEY = value lines of a section (or the top-level
// lines of lsf.conf) against its schema: each known key's value is typed,
// unknown keys are reported with a did-you-mean, and a key set twice keeps
// its last value, as LSF does. Lines in different arms of one #if chain
// are alternatives, not repeats.
func (c *compiler) keyValues(kind lang.FileKind, assigns []*lang.Assignment, ss *schema.Section) Settings {
	set := Settings{}
	exact := kind == lang.KindLSFConf
	for _, a := range assigns {
		k := c.keyOf(kind, ss, a.Key.Text, a.Key.Span, exact)
		if k == nil {
			continue
		}
		st := &Setting{Raw: a.Value.Text, val: a.Value, span: a.Value.Span, key: a.Key.Span}
		if a.Branch != nil {
			st.When = branchCondition(a.Branch)
		}
		st.branch = a.Branch
		if a.Value.Text != "" {
			st.Value, _ = c.typed(a.Value, k)
		}
		c.put(set, k.Name, st)
	}
	return set
}

// put stores st under name, reporting a repeated key. A value in an #if
// arm is not a repeat of one outside it, nor of one in another arm: it is
// an alternative, in force while its condition holds. The value outside
// any #if stays the Setting's own, the others its Alternatives.
func (c *compiler) put(set Settings, name string, st *Setting) {
	prev := set[name]
	switch {
	case prev == nil:
		set[name] = st
	case prev.branch != st.branch && st.branch != nil:
		for i, alt := range prev.Alternatives {
			if alt.branch == st.branch {
				c.diags.Add(lang.Warning, CodeRepeatedKey, st.key, "%s is set again in the same #if branch; LSF uses this value and ignores the first", name).
					Note(alt.key, "first set here")
				prev.Alternatives[i] = st
				return
			}
		}
		prev.Alternatives = append(prev.Alternatives, st)
	case prev.branch != st.branch:
		// An unconditional value after conditional ones: it becomes the
		// base, and the earlier ones its alternatives.
		st.Alternatives = append(append(st.Alternatives, prev), prev.Alternatives...)
		prev.Alternatives = nil
		set[name] = st
	default:
		c.diags.Add(lang.Warning, CodeRepeatedKey, st.key, "%s is set again; LSF uses this value and ignores the first", name).
			Note(prev.key, "first set here")
		st.Alternatives = prev.Alternatives
		set[name] = st
	}
}

// branchCondition describes the #if arm holding a line: "#if time(8:00-18:00)".
func branchCondition(b *lang.Branch) string {
	var parts []string
	for ; b != nil; b = b.Parent {
		cond := b.Open.Keyword.Text
		if b.Open.Arg.Text != "" {
			cond += " " + b.Open.Arg.Text
		}
		parts = append([]string{cond}, parts...)
	}
	return strings.Join(parts, " / ")
}

// alternatives reports whether two lines lie in different arms of one #if
// chain, so that at most one of them is in effect at a time.
func alternatives(a, b *lang.Branch) bool {
	for x := a; x != nil; x = x.Parent {
		for y := b; y != nil; y = y.Parent {
			if x.If == y.If && x.Open != y.Open {
				return true
			}
		}
	}
	return false
}

// keyOf returns the schema of a key, or nil after reporting an unknown
// one. A load index in a section that takes thresholds is a Threshold key.
func (c *compiler) keyOf(kind lang.FileKind, ss *schema.Section, name string, sp lang.Span, exact bool) *schema.Key {
	if k := ss.Key(name, exact); k != nil {
		c.checkVersion(kind, ss, k, sp)
		return k
	}
	if ss.LoadIndices && c.isLoadIndex(name) {
		return &schema.Key{Name: name, Type: schema.Threshold, Doc: "load threshold loadSched/loadStop"}
	}
	c.unknownKey(kind, ss, name, sp)
	return nil
}

// isLoadIndex reports whether name is a load index a threshold may name:
// a built-in load index or a numeric site resource.
func (c *compiler) isLoadIndex(name string) bool {
	r, _, ok := c.env.Lookup(name)
	return ok && r.Type == Numeric && (r.Dynamic || !r.Builtin)
}

// unknownKey reports a key its section does not define. LSF ignores such a
// key with a warning, so lsfc warns too; when the key belongs to another
// section or file the message says where.
func (c *compiler) unknownKey(kind lang.FileKind, ss *schema.Section, name string, sp lang.Span) {
	where := "section " + ss.Name + " of " + kind.String()
	if ss.Name == "" {
		where = kind.String()
	}
	if ss.LoadIndices && name == strings.ToLower(name) {
		// A lower-case key of a threshold section is a load index or a
		// resource: without lsf.shared it may be a site resource.
		if c.has[lang.KindLSFShared] {
			c.undeclaredThreshold(name, sp)
		}
		return
	}
	if ss.LoadIndices && name != strings.ToLower(name) && c.isLoadIndex(strings.ToLower(name)) {
		low := strings.ToLower(name)
		c.diags.Add(lang.Warning, CodeUnknownKey, sp, "unknown key %q in %s; LSF ignores it; load indices are lower-case: did you mean %q?", name, where, low).
			SuggestSafe(replaceWith(low), sp, low)
		return
	}
	if home := keyHome(kind, ss, name); home != "" {
		c.diags.Add(lang.Warning, CodeMisplacedKey, sp, "%s is a key of %s, not of %s; LSF ignores it here", name, home, where)
		return
	}
	if kind == lang.KindLSFConf && !lsfConfPrefix(name) {
		// lsf.conf is also read by shells and site scripts: a variable
		// that does not look like LSF's is the site's own.
		return
	}
	d := c.diags.Add(lang.Warning, CodeUnknownKey, sp, "unknown key %q in %s; LSF ignores it", name, where)
	cands := ss.KeyNames()
	if ss.LoadIndices {
		cands = append(cands, c.env.Names()...)
	}
	if s := lang.Suggest(name, cands); s != "" {
		d.Message += fmt.Sprintf("; did you mean %q?", s)
		d.SuggestSafe(replaceWith(s), sp, s)
	}
}

// undeclaredThreshold reports a load threshold on a resource that is
// neither a load index nor a numeric resource of lsf.shared.
func (c *compiler) undeclaredThreshold(name string, sp lang.Span) {
	if r, _, ok := c.env.Lookup(name); ok {
		c.diags.Add(lang.Warning, CodeUndeclaredResource, sp, "%q is a %s resource, not a load index: it takes no threshold; LSF ignores it", name, strings.ToLower(r.Type.String()))
		return
	}
	d := c.diags.Add(lang.Warning, CodeUndeclaredResource, sp, "threshold on %q, which is neither a load index nor a numeric resource of lsf.shared; LSF ignores it", name)
	var cands []string
	for _, r := range c.env.Resources() {
		if r.Type == Numeric && (r.Dynamic || !r.Builtin) {
			cands = append(cands, r.Name)
		}
	}
	if s := lang.Suggest(name, cands); s != "" {
		d.Message += fmt.Sprintf("; did you mean %q?", s)
		d.Suggest(replaceWith(s), sp, s)
	}
}

// lsfConfPrefix reports whether an lsf.conf variable is named like LSF's
// own parameters.
func lsfConfPrefix(name string) bool {
	for _, p := range []string{"LSF", "LSB", "EGO", "MBD"} {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// keyHome names the file and section that define name when it is not ss
// (matching case-insensitively, so that the message also helps with
// mistyped case).
func keyHome(kind lang.FileKind, ss *schema.Section, name string) string {
	for _, f := range schema.Files() {
		for i := range f.Sections {
			s := &f.Sections[i]
			if s == ss || s.Key(name, false) == nil {
				continue
			}
			// A key shared by several sections of the same file (NAME,
			// HOSTS) says nothing about a misplacement.
			if f.Kind == kind && ss.Key(name, false) != nil {
				continue
			}
			if s.Name == "" {
				return f.Kind.String()
			}
			return fmt.Sprintf("section %s of %s", s.Name, f.Kind)
		}
	}
	return ""
}

// checkVersion reports a key that is obsolete, or that the dialect does not
// support.
func (c *compiler) checkVersion(kind lang.FileKind, ss *schema.Section, k *schema.Key, sp lang.Span) {
	if k.Obsolete != "" {
		c.diags.Add(lang.Warning, CodeObsolete, sp, "%s is %s", k.Name, obsoleteText(k.Obsolete))
	}
	if c.dialect != Openlava {
		return
	}
	for _, n := range k.Notes {
		low := strings.ToLower(n.Note)
		if n.Version != "openlava" {
			continue
		}
		for _, prefix := range []string{"not supported", "column not supported", "not read"} {
			if strings.HasPrefix(low, prefix) {
				msg := fmt.Sprintf("openlava does not read %s; it ignores the key", k.Name)
				if rest := strings.Trim(n.Note[len(prefix):], " ;,.:"); rest != "" {
					msg += " (" + rest + ")"
				}
				c.diags.Add(lang.Warning, CodeObsolete, sp, "%s", msg)
				break
			}
		}
	}
}

// A tableRow is one data row of a table section, typed by column.
type tableRow struct {
	row *lang.Row
	set Settings
}

// table reads a table section: the header's columns against the schema,
// then each row's cells. It reports unknown columns and missing required
// ones; rows keep only the cells of known columns that hold a value.
func (c *compiler) table(kind lang.FileKind, s *lang.Section, ss *schema.Section) []tableRow {
	if s.Header == nil {
		return nil
	}
	known := 0
	for _, cell := range s.Header.Cells {
		if ss.Key(cell.Text, false) != nil || ss.LoadIndices && c.isLoadIndex(cell.Text) {
			known++
		}
	}
	if known == 0 && len(s.Rows) > 0 || known == 0 && len(s.Header.Cells) > 1 {
		var req []string
		for _, k := range ss.Keys {
			if k.Required {
				req = append(req, k.Name)
			}
		}
		c.diags.Add(lang.Error, CodeMissingKey, s.Header.Span(),
			"the %s table has no header line: LSF reads %q as column names (expected a header such as %q)",
			ss.Name, s.Header.Span().Text(), strings.Join(req, " "))
		return nil
	}
	keys := make([]*schema.Key, len(s.Header.Cells))
	seen := map[string]bool{}
	for i, cell := range s.Header.Cells {
		keys[i] = c.keyOf(kind, ss, cell.Text, cell.Span, false)
		if keys[i] != nil {
			seen[keys[i].Name] = true
		}
	}
	for _, k := range ss.Keys {
		if k.Required && !seen[k.Name] && !c.optionalColumn(kind, ss, &k) {
			c.diags.Add(lang.Error, CodeMissingKey, s.Header.Span(), "the %s table has no %s column", ss.Name, k.Name)
		}
	}
	rows := make([]tableRow, 0, len(s.Rows))
	for _, r := range s.Rows {
		set := make(Settings, len(r.Cells))
		for i, cell := range r.Cells {
			if i >= len(keys) || keys[i] == nil || cell.IsEmpty() {
				continue
			}
			v := cellValue(cell)
			st := &Setting{Raw: v.Text, val: v, span: cell.Span, key: cell.Span, branch: r.Branch}
			st.Value, _ = c.typed(v, keys[i])
			set[keys[i].Name] = st
		}
		rows = append(rows, tableRow{row: r, set: set})
	}
	return rows
}

// optionalColumn reports a column the schema marks required that LSF
// nevertheless does without: the Host table of lsf.cluster needs only
// HOSTNAME (model and type default to those LIM detects, RESOURCES to
// none).
func (c *compiler) optionalColumn(kind lang.FileKind, ss *schema.Section, k *schema.Key) bool {
	return kind == lang.KindLSFCluster && ss.Name == "Host" && k.Name != "HOSTNAME"
}

// cellValue makes a Value of a table cell, without one enclosing pair of
// parentheses, whose Source maps back into the file.
func cellValue(cell lang.Cell) lang.Value {
	text, off := cell.Text, 0
	if inner := cell.Inner(); inner != cell.Text {
		off = strings.Index(cell.Text, inner)
		text = inner
	}
	if cell.Src != nil {
		src := cell.Src.Derive(text, []lang.Segment{{Off: 0, ParentOff: off}})
		return lang.Value{Text: text, Span: cell.Span, Src: src}
	}
	src := cell.Span.Src.Derive(text, []lang.Segment{{Off: 0, ParentOff: cell.Span.Start + off}})
	return lang.Value{Text: text, Span: cell.Span, Src: src}
}

// required reports the required keys a key = value section lacks.
func (c *compiler) required(s *lang.Section, ss *schema.Section, set Settings) {
	for _, k := range ss.Keys {
		if k.Required && set[k.Name] == nil {
			c.diags.Add(lang.Error, CodeMissingKey, s.Name.Span, "section %s has no %s; LSF ignores the section", ss.Name, k.Name)
		}
	}
}

// str returns a setting's value as text, or "".
func (s Settings) str(key string) string {
	if st := s[key]; st != nil {
		if v, ok := st.Value.(string); ok {
			return v
		}
	}
	return ""
}

// num returns a numeric setting, or nil.
func (s Settings) num(key string) *float64 {
	if st := s[key]; st != nil {
		if v, ok := st.Value.(float64); ok {
			return &v
		}
	}
	return nil
}

// integer returns an integer setting, or nil.
func (s Settings) integer(key string) *int {
	if x := s.num(key); x != nil {
		n := int(*x)
		return &n
	}
	return nil
}

// flag returns a boolean setting, or false.
func (s Settings) flag(key string) bool {
	if st := s[key]; st != nil {
		v, _ := st.Value.(bool)
		return v
	}
	return false
}

// list returns a setting whose value is a list of names.
func (s Settings) list(key string) []string {
	if st := s[key]; st != nil {
		v, _ := st.Value.([]string)
		return v
	}
	return nil
}

// spanOf returns the span of a setting's value, or the zero span.
func (s Settings) spanOf(key string) lang.Span {
	if st := s[key]; st != nil {
		return st.span
	}
	return lang.Span{}
}

// obsoleteText phrases a schema Obsolete note after "KEY is":
// "obsolete since 10.1: replaced by X", "obsolete: replaced by X",
// "deprecated: use Y".
func obsoleteText(note string) string {
	note = strings.TrimSuffix(strings.TrimSpace(note), ".")
	if rest, ok := strings.CutPrefix(note, "Deprecated"); ok {
		return "deprecated" + strings.Replace(rest, ";", ":", 1)
	}
	if rest, ok := strings.CutPrefix(note, "Obsolete in "); ok {
		if v, why, ok := strings.Cut(rest, ";"); ok {
			return "obsolete since " + v + ":" + why
		}
		return "obsolete since " + rest
	}
	if v, why, ok := strings.Cut(note, ": "); ok && v != "" && v[0] >= '0' && v[0] <= '9' {
		return "obsolete since " + v + ": " + why
	}
	return "obsolete: " + note
}

// SpanOf returns the span of a setting's value in its file, or the zero
// span when the key is not set.
func (s Settings) SpanOf(key string) lang.Span { return s.spanOf(key) }
