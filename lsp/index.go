package lsp

import (
	"cmp"
	"slices"
	"strings"

	"github.com/lsfc/lsfc/compile"
	"github.com/lsfc/lsfc/compile/schema"
	"github.com/lsfc/lsfc/lang"
)

// A nameKind is the kind of a name that crosses files.
type nameKind uint8

const (
	kindQueue nameKind = iota + 1
	kindHost
	kindHostGroup
	kindUserGroup
	kindResource
	kindLimit
	kindApplication
)

var kindNames = [...]string{
	kindQueue: "queue", kindHost: "host", kindHostGroup: "host group", kindUserGroup: "user group",
	kindResource: "resource", kindLimit: "limit", kindApplication: "application profile",
}

func (k nameKind) String() string { return kindNames[k] }

// A nameKey names one definition: a kind and a name.
type nameKey struct {
	kind nameKind
	name string
}

// An occurrence is a name written in a file: its definition or a use.
type occurrence struct {
	nameKey
	path       string
	src        *lang.Source // the file's root Source
	start, end int          // byte offsets in src.Text
	def        bool
}

// An index holds every definition of a name that crosses files and every
// word of the tree's values that names one.
type index struct {
	defs map[nameKey][]occurrence
	// byPath holds each file's occurrences sorted by offset.
	byPath map[string][]occurrence
	// names lists the defined names of each kind, sorted.
	names map[nameKind][]string
}

// definer says which key or column of which section defines names of a
// kind.
type definer struct {
	file    lang.FileKind
	section string
	key     string
	kind    nameKind
}

var definers = []definer{
	{lang.KindLSBQueues, "Queue", "QUEUE_NAME", kindQueue},
	{lang.KindLSFCluster, "Host", "HOSTNAME", kindHost},
	{lang.KindLSBHosts, "HostGroup", "GROUP_NAME", kindHostGroup},
	{lang.KindLSBUsers, "UserGroup", "GROUP_NAME", kindUserGroup},
	{lang.KindLSFShared, "Resource", "RESOURCENAME", kindResource},
	{lang.KindLSBResources, "Limit", "NAME", kindLimit},
	{lang.KindLSBApplications, "Application", "NAME", kindApplication},
}

func definerOf(kind lang.FileKind, section, key string) (nameKind, bool) {
	for _, d := range definers {
		if d.file == kind && strings.EqualFold(d.section, section) && strings.EqualFold(d.key, key) {
			return d.kind, true
		}
	}
	return 0, false
}

// A word is a run of name bytes in a value: what a host, queue, group or
// resource name is made of.
func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.' || c >= 0x80
}

// words calls fn with the start and end of each word of text.
func words(text string, fn func(start, end int)) {
	for i := 0; i < len(text); {
		if !isNameByte(text[i]) {
			i++
			continue
		}
		j := i
		for j < len(text) && isNameByte(text[j]) {
			j++
		}
		fn(i, j)
		i = j
	}
}

// freeText reports whether a key's value is text that names nothing.
func freeText(k *schema.Key) bool {
	if k == nil {
		return false
	}
	switch k.Type {
	case schema.String, schema.Path, schema.Command:
		return true
	}
	return strings.EqualFold(k.Name, "DESCRIPTION")
}

// kindsFor returns the kinds of name a value of the given key may hold;
// nil when the key says nothing and any defined name counts.
func kindsFor(file lang.FileKind, section, key string, k *schema.Key) []nameKind {
	hosts := []nameKind{kindHostGroup, kindHost} // groups first: fewer, and kept when a list is cut
	key = strings.ToUpper(key)
	switch {
	case key == "GROUP_MEMBER" && file == lang.KindLSBUsers, key == "USERS", key == "PER_USER":
		return []nameKind{kindUserGroup}
	case key == "GROUP_MEMBER" && file == lang.KindLSBHosts, key == "HOSTS", key == "PER_HOST", key == "HOST_NAME":
		return hosts
	case key == "APPS", key == "PER_APP", strings.Contains(key, "APPLICATION"):
		return []nameKind{kindApplication}
	case queueKeys[key], strings.Contains(key, "QUEUE"):
		return []nameKind{kindQueue}
	case key == "RESOURCES", key == "RESOURCE", strings.EqualFold(section, "ResourceMap"):
		return []nameKind{kindResource}
	}
	if k == nil {
		return nil
	}
	switch k.Type {
	case schema.Hosts:
		return hosts
	case schema.Users:
		return []nameKind{kindUserGroup}
	case schema.ResReq, schema.Threshold:
		return []nameKind{kindResource}
	}
	return nil
}

// A valueRef is one value of the tree: the text of an assignment or of a
// table cell, with the key or column it belongs to.
type valueRef struct {
	file    *lang.File
	section string
	key     string
	text    string
	// span maps an offset range of text to the file.
	span func(start, end int) lang.Span
}

// values calls fn for every value of f, in file order.
func values(f *lang.File, fn func(v valueRef)) {
	assign := func(section string, a *lang.Assignment) {
		src := a.Value.Src
		if src == nil {
			return
		}
		fn(valueRef{file: f, section: section, key: a.Key.Text, text: src.Text,
			span: func(s, e int) lang.Span { return src.SpanOf(s, e).Root() }})
	}
	for _, it := range f.Items {
		switch it := it.(type) {
		case *lang.Assignment:
			assign("", it)
		case *lang.Section:
			for _, a := range it.Assigns {
				assign(it.Name.Text, a)
			}
			if it.Header == nil {
				continue
			}
			for _, r := range it.Rows {
				for i, c := range r.Cells {
					if i >= len(it.Header.Cells) {
						break
					}
					c := c
					span := func(s, e int) lang.Span { return c.Span.Src.SpanOf(c.Span.Start+s, c.Span.Start+e) }
					if c.Src != nil {
						span = func(s, e int) lang.Span { return c.Src.SpanOf(s, e).Root() }
					}
					fn(valueRef{file: f, section: it.Name.Text, key: it.Header.Cells[i].Text, text: c.Text, span: span})
				}
			}
		}
	}
}

// buildIndex finds the definitions and uses of names in a tree's files.
func buildIndex(tree *compile.Tree) *index {
	ix := &index{defs: map[nameKey][]occurrence{}, byPath: map[string][]occurrence{}, names: map[nameKind][]string{}}
	add := func(o occurrence) {
		ix.byPath[o.path] = append(ix.byPath[o.path], o)
	}
	// Definitions first, so that uses can be recognised.
	for _, f := range tree.Files {
		values(f, func(v valueRef) {
			kind, ok := definerOf(f.Kind, v.section, v.key)
			if !ok {
				return
			}
			words(v.text, func(s, e int) {
				if v.text[s:e] == "-" {
					return
				}
				sp := v.span(s, e)
				o := occurrence{nameKey: nameKey{kind, v.text[s:e]}, path: f.Src.Name, src: sp.Src, start: sp.Start, end: sp.End, def: true}
				if len(ix.defs[o.nameKey]) == 0 {
					ix.names[kind] = append(ix.names[kind], o.name)
				}
				ix.defs[o.nameKey] = append(ix.defs[o.nameKey], o)
				add(o)
			})
		})
	}
	byName := map[string][]nameKind{}
	for k := range ix.defs {
		byName[k.name] = append(byName[k.name], k.kind)
	}
	for _, f := range tree.Files {
		sch := schema.Lookup(f.Kind)
		values(f, func(v valueRef) {
			if _, ok := definerOf(f.Kind, v.section, v.key); ok {
				return
			}
			var k *schema.Key
			if sch != nil {
				if sec := sch.Section(v.section); sec != nil {
					k = sec.Key(v.key, f.Kind == lang.KindLSFConf)
				}
			}
			if freeText(k) {
				return
			}
			allowed := kindsFor(f.Kind, v.section, v.key, k)
			words(v.text, func(s, e int) {
				kinds := byName[v.text[s:e]]
				if allowed != nil {
					kinds = slices.DeleteFunc(slices.Clone(kinds), func(k nameKind) bool { return !slices.Contains(allowed, k) })
				}
				if len(kinds) == 0 {
					return
				}
				sp := v.span(s, e)
				for _, kind := range kinds {
					add(occurrence{nameKey: nameKey{kind, v.text[s:e]}, path: f.Src.Name, src: sp.Src, start: sp.Start, end: sp.End})
				}
			})
		})
	}
	for _, occs := range ix.byPath {
		slices.SortStableFunc(occs, func(a, b occurrence) int { return cmp.Compare(a.start, b.start) })
	}
	for k := range ix.names {
		slices.Sort(ix.names[k])
	}
	return ix
}

// at returns the occurrences at offset off of the file at path (one per
// kind the word names).
func (ix *index) at(path string, off int) []occurrence {
	occs := ix.byPath[path]
	i, _ := slices.BinarySearchFunc(occs, off, func(o occurrence, off int) int {
		if o.end < off {
			return -1
		}
		return 1
	})
	var out []occurrence
	for ; i < len(occs) && occs[i].start <= off; i++ {
		if off <= occs[i].end {
			out = append(out, occs[i])
		}
	}
	return out
}

// uses returns every occurrence of key, definitions included, sorted by
// path and offset.
func (ix *index) uses(key nameKey) []occurrence {
	var out []occurrence
	paths := make([]string, 0, len(ix.byPath))
	for p := range ix.byPath {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		for _, o := range ix.byPath[p] {
			if o.nameKey == key {
				out = append(out, o)
			}
		}
	}
	return out
}
