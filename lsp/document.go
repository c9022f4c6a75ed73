package lsp

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"go.lsp.dev/protocol"
)

// A document is the editor's text of one open file.
type document struct {
	uri     protocol.DocumentURI
	path    string // clean absolute path; "" for a URI that is not a file
	version int32
	text    string
	lines   []int // byte offset of the start of each line
}

func newDocument(uri protocol.DocumentURI, path string, version int32, text string) *document {
	d := &document{uri: uri, path: path, version: version}
	d.setText(text)
	return d
}

func (d *document) setText(text string) {
	d.text = text
	d.lines = lineStarts(text)
}

// lineStarts returns the byte offset of the start of each line; a line
// ends after "\n", "\r\n" or a lone "\r", as the protocol counts lines.
func lineStarts(text string) []int {
	lines := []int{0}
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\n':
			lines = append(lines, i+1)
		case '\r':
			if i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
			lines = append(lines, i+1)
		}
	}
	return lines
}

// lineEnd returns the offset of the end of line n's content (before its
// line ending).
func lineEnd(text string, lines []int, n int) int {
	end := len(text)
	if n+1 < len(lines) {
		end = lines[n+1]
	}
	for end > lines[n] && (text[end-1] == '\n' || text[end-1] == '\r') {
		end--
	}
	return end
}

// offset maps a protocol position to a byte offset of text. A line past
// the end gives the end of the text; a character past the end of its line
// gives the end of the line. The error is for a negative position.
func offset(text string, lines []int, p protocol.Position) int {
	line := int(p.Line)
	if line >= len(lines) {
		return len(text)
	}
	start, end := lines[line], lineEnd(text, lines, line)
	units := int(p.Character)
	off := start
	for off < end && units > 0 {
		r, size := utf8.DecodeRuneInString(text[off:end])
		n := 1
		if r != utf8.RuneError || size != 1 {
			n = utf16.RuneLen(r)
			if n < 0 {
				n = 1
			}
		}
		if n > units {
			break // inside a surrogate pair: stay before it
		}
		units -= n
		off += size
	}
	return off
}

// position maps a byte offset of text to a protocol position. Offsets
// outside the text are clamped to it.
func position(text string, lines []int, off int) protocol.Position {
	off = max(0, min(off, len(text)))
	line := sort.Search(len(lines), func(i int) bool { return lines[i] > off }) - 1
	start := lines[line]
	end := lineEnd(text, lines, line)
	units := 0
	// An offset inside a character (or its line ending) maps to its start.
	for i := start; i < end; {
		r, size := utf8.DecodeRuneInString(text[i:end])
		if i+size > off {
			break
		}
		n := 1
		if r != utf8.RuneError || size != 1 {
			n = max(utf16.RuneLen(r), 1)
		}
		units += n
		i += size
	}
	return protocol.Position{Line: uint32(line), Character: uint32(units)}
}

func (d *document) offset(p protocol.Position) int { return offset(d.text, d.lines, p) }

func (d *document) position(off int) protocol.Position { return position(d.text, d.lines, off) }

func (d *document) rangeOf(start, end int) protocol.Range {
	return protocol.Range{Start: d.position(start), End: d.position(end)}
}

// A change is one content change of didChange: the text of Range
// replaced by Text, or, with no Range, the whole text.
type change struct {
	Range *protocol.Range `json:"range,omitempty"`
	Text  string          `json:"text"`
}

// apply applies changes in order, as the protocol requires. A range whose
// end comes before its start is an error; ranges past the end of the text
// are clamped to it.
func (d *document) apply(changes []change, maxSize int) error {
	for _, c := range changes {
		if c.Range == nil {
			if len(c.Text) > maxSize {
				return fmt.Errorf("document is %d bytes, more than the %d allowed", len(c.Text), maxSize)
			}
			d.setText(c.Text)
			continue
		}
		start, end := d.offset(c.Range.Start), d.offset(c.Range.End)
		if end < start {
			return fmt.Errorf("change range ends (%d:%d) before it starts (%d:%d)",
				c.Range.End.Line, c.Range.End.Character, c.Range.Start.Line, c.Range.Start.Character)
		}
		if n := len(d.text) - (end - start) + len(c.Text); n > maxSize {
			return fmt.Errorf("document would be %d bytes, more than the %d allowed", n, maxSize)
		}
		var b strings.Builder
		b.Grow(len(d.text) - (end - start) + len(c.Text))
		b.WriteString(d.text[:start])
		b.WriteString(c.Text)
		b.WriteString(d.text[end:])
		d.setText(b.String())
	}
	return nil
}
