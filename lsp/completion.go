package lsp

import (
	"context"
	"fmt"
	"strings"

	"github.com/lsfc/lsfc/compile/schema"
	"github.com/lsfc/lsfc/lang"
	"go.lsp.dev/protocol"
)

func (s *Server) completion(_ context.Context, p protocol.CompletionParams) (any, error) {
	d, err := s.doc(p.TextDocument.URI)
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	text, path := d.text, d.path
	off := d.offset(p.Position)
	s.mu.Unlock()
	c := contextAt(text, kindOf(path, text), off)
	var items []protocol.CompletionItem
	sch := schema.Lookup(c.kind)
	switch {
	case sch == nil:
	case c.sectionLine:
		for _, sec := range sch.Sections {
			if sec.Name != "" {
				items = append(items, protocol.CompletionItem{Label: sec.Name, Kind: protocol.CompletionItemKindModule, Detail: sec.Doc})
			}
		}
	case c.section == "" && c.kind != lang.KindLSFConf:
		for i := range sch.Sections {
			if sec := &sch.Sections[i]; sec.Name != "" {
				items = append(items, sectionSnippet(sec))
			}
		}
	case c.inValue:
		items = s.valueItems(d, c, text[c.start:max(c.start, off)])
	default:
		sec := c.schemaSection()
		if sec == nil {
			break
		}
		if c.section != "" && !c.headerLine {
			items = append(items, protocol.CompletionItem{Label: "End " + c.section, Kind: protocol.CompletionItemKindKeyword})
		}
		sep := " = "
		if c.kind == lang.KindLSFConf {
			sep = "="
		}
		for _, k := range sec.Keys {
			it := protocol.CompletionItem{Label: k.Name, Kind: protocol.CompletionItemKindProperty, Detail: k.Type.String(), Documentation: k.Doc}
			if !c.table && !c.headerLine {
				it.InsertText = k.Name + sep
			}
			items = append(items, it)
		}
	}
	prefix := text[c.start:max(c.start, off)]
	items, incomplete := narrow(items, prefix)
	return protocol.CompletionList{Items: items, IsIncomplete: incomplete}, nil
}

// maxItems bounds a completion list: a tree of 20,000 hosts offers them
// all only once the typed prefix narrows them down.
const maxItems = 1000

// narrow keeps, of a long list, the items starting with prefix (ignoring
// case), at most maxItems of them; incomplete says some were left out.
func narrow(items []protocol.CompletionItem, prefix string) ([]protocol.CompletionItem, bool) {
	if len(items) <= maxItems {
		if items == nil {
			items = []protocol.CompletionItem{}
		}
		return items, false
	}
	out := []protocol.CompletionItem{}
	for _, it := range items {
		if hasPrefixFold(it.Label, prefix) {
			if len(out) == maxItems {
				return out, true
			}
			out = append(out, it)
		}
	}
	return out, false
}

// sectionSnippet returns a Begin/End block for a section; a table's
// snippet holds a header of its required columns.
func sectionSnippet(sec *schema.Section) protocol.CompletionItem {
	var body string
	if sec.Form == schema.Table {
		var cols []string
		for _, k := range sec.Keys {
			if k.Required {
				cols = append(cols, k.Name)
			}
		}
		if len(cols) == 0 && len(sec.Keys) > 0 {
			cols = append(cols, sec.Keys[0].Name)
		}
		body = strings.Join(cols, "   ") + "\n$0"
	} else {
		body = "$0"
		for _, k := range sec.Keys {
			if k.Required {
				body = k.Name + " = ${1}\n$0"
				break
			}
		}
	}
	return protocol.CompletionItem{
		Label:            "Begin " + sec.Name,
		Kind:             protocol.CompletionItemKindSnippet,
		Detail:           sec.Doc,
		InsertText:       fmt.Sprintf("Begin %s\n%s\nEnd %s", sec.Name, body, sec.Name),
		InsertTextFormat: protocol.InsertTextFormatSnippet,
	}
}

// queueKeys are the keys whose values name queues.
var queueKeys = map[string]bool{
	"SNDJOBS_TO": true, "RCVJOBS_FROM": true, "PREEMPTION": true, "DEFAULT_QUEUE": true,
	"QUEUES": true, "PER_QUEUE": true,
}

// builtinIndices are LSF's built-in load indices and resources, offered
// inside resource requirements beside the site's.
var builtinIndices = []string{
	"r15s", "r1m", "r15m", "ut", "pg", "io", "ls", "it", "tmp", "swp", "mem",
	"ncpus", "ndisks", "maxmem", "maxswp", "maxtmp", "cpuf", "type", "model", "hname", "server", "slots",
	"select", "order", "rusage", "span", "same", "cu", "affinity",
}

// valueItems offers the values a key takes: its enumerated words, or the
// names defined in the tree that it may name.
func (s *Server) valueItems(d *document, c lineContext, prefix string) []protocol.CompletionItem {
	k := c.schemaKey()
	var items []protocol.CompletionItem
	// Names not starting with the prefix are left out before they cost
	// anything; narrow bounds the list.
	word := func(w string, kind protocol.CompletionItemKind, detail string) {
		if len(items) <= maxItems && hasPrefixFold(w, prefix) {
			items = append(items, protocol.CompletionItem{Label: w, Kind: kind, Detail: detail})
		}
	}
	if k != nil {
		for _, e := range k.Enum {
			word(e, protocol.CompletionItemKindEnumMember, "")
		}
		if k.Type == schema.Bool {
			word("Y", protocol.CompletionItemKindEnumMember, "")
			word("N", protocol.CompletionItemKindEnumMember, "")
		}
	}
	snap := s.latest(d)
	if snap == nil {
		return items
	}
	names := func(kind nameKind) {
		for _, n := range snap.index.names[kind] {
			word(n, protocol.CompletionItemKindValue, kind.String())
		}
	}
	kinds := kindsFor(c.kind, c.section, c.key, k)
	if kinds == nil {
		return items // a key whose value names nothing of the tree
	}
	for _, kind := range kinds {
		switch kind {
		case kindHostGroup:
			for _, w := range []string{"all", "others", "none"} {
				word(w, protocol.CompletionItemKindKeyword, "")
			}
		case kindUserGroup:
			word("all", protocol.CompletionItemKindKeyword, "")
		case kindResource:
			for _, w := range builtinIndices {
				word(w, protocol.CompletionItemKindKeyword, "built-in")
			}
		}
		names(kind)
	}
	return items
}

func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}
