package lsp

import (
	"strings"

	"github.com/lsfc/lsfc/compile/schema"
	"github.com/lsfc/lsfc/lang"
)

// A lineContext says where an offset of a document lies, read from the
// lines around it without parsing the whole file, so that it holds for
// text being typed.
type lineContext struct {
	kind lang.FileKind
	// section is the name of the open section holding the offset, "" at
	// the top level.
	section string
	// sectionLine is true on the section's Begin or End line.
	sectionLine bool
	// table is true in a table section; header holds its column names and
	// headerLine is true on the header itself.
	table      bool
	header     []string
	headerLine bool
	// key is the key or column the offset belongs to; inValue is true
	// right of the "=" or in a data row.
	key     string
	inValue bool
	// lineStart is the offset of the logical line's first byte; value is
	// the value's text up to the offset.
	lineStart int
	value     string
	// word is the name under the offset and its offsets.
	word       string
	start, end int
}

// contextAt returns the context of offset off of text, a file of the
// given kind. It reads only the lines around off (up to the section's
// Begin line above), so it holds for text being typed.
func contextAt(text string, kind lang.FileKind, off int) lineContext {
	c := lineContext{kind: kind}
	off = max(0, min(off, len(text)))
	// The logical line: back over continued lines.
	ls := strings.LastIndexByte(text[:off], '\n') + 1
	for ls > 1 && strings.HasSuffix(strings.TrimRight(text[:ls-1], " \t\r"), "\\") {
		ls = strings.LastIndexByte(text[:ls-1], '\n') + 1
	}
	c.lineStart = ls
	s, e := off, off
	for s > 0 && isNameByte(text[s-1]) {
		s--
	}
	for e < len(text) && isNameByte(text[e]) {
		e++
	}
	c.word, c.start, c.end = text[s:e], s, e
	before := text[ls:off]
	first := firstWord(before)
	if isKeyword(first, "Begin") || isKeyword(first, "End") {
		c.sectionLine = true
		c.section = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(before), first))
		rest := text[ls:]
		if i := strings.IndexByte(rest, '\n'); i >= 0 {
			rest = rest[:i]
		}
		f := strings.Fields(rest)
		if len(f) > 1 {
			c.section = f[1]
		}
		return c
	}
	// The open section: the nearest Begin or End line above.
	lines := strings.Split(text[:ls], "\n")
	begin := -1
	for i := len(lines) - 1; i >= 0; i-- {
		w := firstWord(lines[i])
		if isKeyword(w, "End") {
			break
		}
		if isKeyword(w, "Begin") {
			begin = i
			if f := strings.Fields(lines[i]); len(f) > 1 {
				c.section = f[1]
			}
			break
		}
	}
	if begin >= 0 {
		// The first content line after Begin decides the form.
		for i := begin + 1; i < len(lines); i++ {
			l := strings.TrimSpace(lines[i])
			if l == "" || l[0] == '#' {
				continue
			}
			if !strings.Contains(l, "=") {
				c.table = true
				c.header = cells(l)
			}
			if i == len(lines)-1 {
				c.headerLine = c.table // the header is the current line
			}
			break
		}
		if c.table && c.header == nil {
			c.table = false
		}
	}
	if c.table {
		if len(c.header) == 0 || c.headerLine {
			// On the header line itself: the cell under the offset is a column.
			c.header = nil
			c.key = c.word
			if c.headerLine || begin == len(lines)-1 {
				c.headerLine = true
			}
			return c
		}
		col := len(cells(before))
		if len(before) > 0 && !strings.ContainsAny(before[len(before)-1:], " \t") && col > 0 {
			col--
		}
		if col < len(c.header) {
			c.key = c.header[col]
		}
		c.inValue = true
		c.value = lastCell(before)
		return c
	}
	if i := strings.IndexByte(before, '='); i >= 0 {
		c.key = strings.TrimSpace(before[:i])
		c.inValue = true
		c.value = strings.TrimLeft(before[i+1:], " \t")
		return c
	}
	// Left of any "=": the key, whole.
	rest := text[ls:]
	if i := strings.IndexAny(rest, "=\n"); i >= 0 && rest[i] == '=' {
		c.key = strings.TrimSpace(rest[:i])
	} else {
		c.key = strings.TrimSpace(before)
	}
	return c
}

func firstWord(line string) string {
	f := strings.Fields(line)
	if len(f) == 0 {
		return ""
	}
	return f[0]
}

func isKeyword(w, kw string) bool { return strings.EqualFold(w, kw) }

// cells splits a table line into its cells; a group in parentheses or
// brackets is one cell.
func cells(line string) []string {
	if i := strings.IndexByte(line, '#'); i >= 0 {
		line = line[:i]
	}
	var out []string
	depth, start := 0, -1
	for i := 0; i < len(line); i++ {
		ch := line[i]
		switch {
		case ch == '(' || ch == '[':
			depth++
		case ch == ')' || ch == ']':
			depth = max(0, depth-1)
		case (ch == ' ' || ch == '\t' || ch == '\r') && depth == 0:
			if start >= 0 {
				out = append(out, line[start:i])
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	if start >= 0 {
		out = append(out, line[start:])
	}
	return out
}

func lastCell(before string) string {
	cs := cells(before)
	if len(cs) == 0 || strings.HasSuffix(before, " ") || strings.HasSuffix(before, "\t") {
		return ""
	}
	return cs[len(cs)-1]
}

// schemaSection returns the schema of the context's section (lsf.conf's
// top level for "" there), or nil.
func (c lineContext) schemaSection() *schema.Section {
	f := schema.Lookup(c.kind)
	if f == nil {
		return nil
	}
	return f.Section(c.section)
}

// schemaKey returns the schema of the context's key, or nil.
func (c lineContext) schemaKey() *schema.Key {
	sec := c.schemaSection()
	if sec == nil || c.key == "" {
		return nil
	}
	return sec.Key(c.key, c.kind == lang.KindLSFConf)
}
