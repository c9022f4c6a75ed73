package compile

import (
	"github.com/lsfc/lsfc/compile/schema"
	"github.com/lsfc/lsfc/lang"
)

// defaultOf returns the documented default of a key of a file and section
// under the policy's dialect, typed like a value written in the file, or
// nil when the key has no default a program can use.
func (p *Policy) defaultOf(kind lang.FileKind, section, key string) any {
	fs := schema.Lookup(kind)
	if fs == nil {
		return nil
	}
	ss := fs.Section(section)
	if ss == nil {
		return nil
	}
	k := ss.Key(key, kind == lang.KindLSFConf)
	if k == nil {
		return nil
	}
	def := k.Default
	if p.Dialect == Openlava {
		for _, n := range k.Notes {
			if n.Version == "openlava" && n.Default != "" {
				def = n.Default
			}
		}
	}
	if def == "" {
		return nil
	}
	// Type the default with a compiler of its own: a default that does
	// not read as a value of its type is prose, and is not returned.
	c := &compiler{dialect: p.Dialect, limitUnit: p.limitUnit, env: p.env, p: &Policy{}, has: map[lang.FileKind]bool{}}
	if c.env == nil {
		c.env = NewEnv(EnvConfig{})
	}
	src := lang.NewSource("default", def)
	v, ok := c.typed(lang.Value{Text: def, Span: src.SpanOf(0, len(def)), Src: src}, k)
	if !ok || len(c.diags) > 0 {
		return nil
	}
	return v
}
