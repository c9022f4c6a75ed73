package lsp

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/compile/schema"
	"github.com/lsfc/lsfc/lang"
	"github.com/lsfc/lsfc/lint"
	"go.lsp.dev/protocol"
)

func (s *Server) hover(_ context.Context, p protocol.HoverParams) (any, error) {
	d, err := s.doc(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	text, path := d.text, d.path
	off := d.offset(p.Position)
	s.mu.Unlock()
	snap := s.latest(d)
	c := contextAt(text, kindOf(path, text), off)
	var b strings.Builder
	switch {
	case c.sectionLine:
		if sec := c.schemaSection(); sec != nil {
			fmt.Fprintf(&b, "**Begin %s** (%s)\n\n%s\n", sec.Name, formName(sec.Form), sec.Doc)
		}
	case !c.inValue || c.headerLine:
		if k := c.schemaKey(); k != nil {
			writeKeyDoc(&b, k, c)
		}
	default:
		if snap != nil && c.word != "" {
			writeNameDoc(&b, snap, c.word)
		}
		if k := c.schemaKey(); k != nil && k.Type == schema.ResReq {
			writeResReq(&b, text, c, off, snap, s.opts.Hosts)
		}
	}
	if snap != nil {
		writeExplain(&b, snap, path, text, c)
	}
	if b.Len() == 0 {
		return nil, nil
	}
	s.mu.Lock()
	rng := d.rangeOf(c.start, c.end)
	s.mu.Unlock()
	return protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.Markdown, Value: b.String()}, Range: &rng}, nil
}

func formName(f schema.Form) string {
	switch f {
	case schema.KeyValue:
		return "KEY = value lines"
	case schema.Table:
		return "a table"
	}
	return "KEY = value lines or a table"
}

// writeKeyDoc writes a key's documentation from the schema.
func writeKeyDoc(b *strings.Builder, k *schema.Key, c lineContext) {
	fmt.Fprintf(b, "**%s** — %s", k.Name, k.Type)
	if k.Unit != "" {
		fmt.Fprintf(b, " in %s", k.Unit)
	}
	fmt.Fprintf(b, "\n\n%s\n", k.Doc)
	where := c.kind.String()
	if c.section != "" {
		where += ", section " + c.section
	}
	fmt.Fprintf(b, "\n- file: %s\n", where)
	if k.Default != "" {
		fmt.Fprintf(b, "- default: `%s`\n", k.Default)
	}
	if k.Range != "" {
		fmt.Fprintf(b, "- range: %s\n", k.Range)
	}
	if len(k.Enum) > 0 {
		fmt.Fprintf(b, "- values: %s\n", strings.Join(k.Enum, ", "))
	}
	if k.Syntax != "" {
		fmt.Fprintf(b, "- syntax: `%s`\n", k.Syntax)
	}
	if k.Since != "" {
		fmt.Fprintf(b, "- since LSF %s\n", k.Since)
	}
	if k.Obsolete != "" {
		fmt.Fprintf(b, "- obsolete: %s\n", k.Obsolete)
	}
	for _, n := range k.Notes {
		fmt.Fprintf(b, "- %s: %s", n.Version, n.Note)
		if n.Default != "" {
			fmt.Fprintf(b, " (default `%s`)", n.Default)
		}
		b.WriteString("\n")
	}
}

// writeNameDoc writes where a name is defined and what it resolves to.
func writeNameDoc(b *strings.Builder, snap *snapshot, name string) {
	for kind := kindQueue; kind <= kindApplication; kind++ {
		defs := snap.index.defs[nameKey{kind, name}]
		if len(defs) == 0 {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n---\n\n")
		}
		def := defs[0]
		p := def.src.Pos(def.start)
		fmt.Fprintf(b, "**%s** `%s` — defined in %s:%d\n", kind, name, filepath.Base(def.path), p.Line)
		if v := resolved(snap, kind, name); v != "" {
			b.WriteString("\n" + v)
		}
	}
}

// resolved describes what a defined name stands for after compilation.
func resolved(snap *snapshot, kind nameKind, name string) string {
	pol := snap.res.Policy
	if pol == nil {
		return ""
	}
	var b strings.Builder
	switch kind {
	case kindHostGroup:
		for _, g := range pol.HostGroups {
			if g.Name == name {
				fmt.Fprintf(&b, "members resolve to %d hosts: %s\n", len(g.Hosts), listSome(g.Hosts, 20))
			}
		}
	case kindQueue:
		for _, q := range pol.Queues {
			if q.Name != name {
				continue
			}
			fmt.Fprintf(&b, "- priority: %d\n- hosts: %d (%s)\n", q.Priority, len(q.HostNames), listSome(q.HostNames, 10))
			if q.ResReq != nil {
				fmt.Fprintf(&b, "- RES_REQ: `%s`\n", q.ResReq.String())
			}
		}
	case kindHost:
		for _, h := range pol.Hosts {
			if h.Name == name {
				fmt.Fprintf(&b, "- model: %s\n- type: %s\n", h.Model, h.Type)
				if len(h.Resources) > 0 {
					fmt.Fprintf(&b, "- resources: %s\n", strings.Join(h.Resources, " "))
				}
			}
		}
	case kindUserGroup:
		for _, g := range pol.UserGroups {
			if g.Name == name {
				var members []string
				for _, m := range g.Members {
					if m.Exclude {
						members = append(members, "~"+m.Name)
					} else {
						members = append(members, m.Name)
					}
				}
				fmt.Fprintf(&b, "%d members: %s\n", len(members), listSome(members, 20))
			}
		}
	case kindResource:
		for _, r := range pol.Resources {
			if r.Name == name {
				fmt.Fprintf(&b, "- type: %s\n", r.Type)
				if r.Description != "" {
					fmt.Fprintf(&b, "- %s\n", r.Description)
				}
				if len(r.Instances) > 0 {
					fmt.Fprintf(&b, "- instances: %s\n", strings.Join(r.Instances, " "))
				}
			}
		}
	}
	return b.String()
}

func listSome(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, " ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:n], " "), len(names)-n)
}

// writeResReq writes the canonical form of the resource requirement
// under the offset and, given the hosts of an inventory, how many of them
// it matches.
func writeResReq(b *strings.Builder, text string, c lineContext, off int, snap *snapshot, hosts []*compile.Host) {
	end := strings.IndexByte(text[off:], '\n')
	if end < 0 {
		end = len(text) - off
	}
	line := text[c.lineStart : off+end]
	v := line
	if !c.table {
		if i := strings.IndexByte(line, '='); i >= 0 {
			v = line[i+1:]
		}
	} else {
		v = c.value + text[off:off+end]
		v = firstCell(v)
	}
	if i := strings.IndexByte(v, '#'); i >= 0 {
		v = v[:i]
	}
	v = strings.Trim(strings.TrimSpace(strings.ReplaceAll(v, "\\\n", " ")), "\"()")
	if v == "" {
		return
	}
	r, diags := lang.ParseResReq(lang.NewSource("-R", v))
	if b.Len() > 0 {
		b.WriteString("\n---\n\n")
	}
	if diags.HasErrors() || r == nil {
		fmt.Fprintf(b, "resource requirement: %s\n", diags.Err())
		return
	}
	fmt.Fprintf(b, "resource requirement, canonical form:\n\n```\n%s\n```\n", r.String())
	if len(hosts) == 0 || snap == nil || snap.res.Policy == nil || snap.res.Policy.Env() == nil {
		return
	}
	env := snap.res.Policy.Env()
	req, cds := env.CompileResReq(r, compile.SelectOptions{})
	if cds.HasErrors() || req == nil {
		return
	}
	res := env.Match(req, env.Table(hosts), compile.MatchOptions{})
	fmt.Fprintf(b, "\nmatches %d of the %d hosts of the inventory\n", len(res.Matched), len(hosts))
}

func firstCell(s string) string {
	cs := cells(s)
	if len(cs) == 0 {
		return ""
	}
	return cs[0]
}

// writeExplain writes what the findings on the offset's line mean.
func writeExplain(b *strings.Builder, snap *snapshot, path, text string, c lineContext) {
	lineEnd := strings.IndexByte(text[c.lineStart:], '\n')
	if lineEnd < 0 {
		lineEnd = len(text) - c.lineStart
	}
	lineEnd += c.lineStart
	seen := map[lang.Code]bool{}
	for _, d := range snap.res.Diagnostics {
		r := d.Span.Root()
		if r.Src == nil || r.Src.Name != path || r.Src.Text != text || r.Start > lineEnd || r.End < c.lineStart || seen[d.Code] {
			continue
		}
		seen[d.Code] = true
		for _, ci := range lint.Codes() {
			if ci.Code == d.Code {
				fmt.Fprintf(b, "\n---\n\n**%s %s**: %s\n\n%s\n", ci.Code, ci.Name, d.Message, ci.Doc)
			}
		}
	}
}
