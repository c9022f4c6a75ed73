package lang

import (
	"sort"
	"strings"
	"unicode/utf8"
)

// A Source is the text of one input: a file, a -R string given on the
// command line, or a value inside a file.
//
// A Source made by Derive is a view of part of its parent: its text is the
// logical text of a value (continuation lines joined, escapes removed) and
// each of its offsets maps back to a byte of the parent. Spans in a derived
// Source resolve, through Span.Root, to the file the user wrote, so that an
// error inside a RES_REQ points at file:line:col.
//
// A Source is immutable once made and safe for concurrent use.
type Source struct {
	// Name is the path or label used in messages ("lsb.queues", "-R").
	Name string
	// Text is the whole text.
	Text string

	lines  []int // byte offset of the start of each line
	parent *Source
	segs   []Segment
}

// A Segment maps the bytes of a derived Source from Off onwards (up to the
// next segment's Off) to the parent's bytes from ParentOff onwards.
type Segment struct {
	Off       int
	ParentOff int
}

// NewSource returns a Source named name holding text.
func NewSource(name, text string) *Source {
	s := &Source{Name: name, Text: text}
	s.lines = lineStarts(text)
	return s
}

// oneLine is the line table of every text without a newline; it is
// shared and never modified.
var oneLine = []int{0}

func lineStarts(text string) []int {
	n := strings.Count(text, "\n")
	if n == 0 {
		return oneLine
	}
	lines := make([]int, 1, n+1)
	for off := 0; ; {
		i := strings.IndexByte(text[off:], '\n')
		if i < 0 {
			break
		}
		off += i + 1
		lines = append(lines, off)
	}
	return lines
}

// Derive returns a Source whose text is text and whose offsets map to s
// through segs. segs must be sorted by Off and start at Off 0; a nil segs
// maps offset i to s's offset i.
func (s *Source) Derive(text string, segs []Segment) *Source {
	if len(segs) == 0 {
		segs = []Segment{{Off: 0, ParentOff: 0}}
	}
	return &Source{Name: s.Name, Text: text, lines: lineStarts(text), parent: s, segs: segs}
}

// Parent returns the Source s was derived from, or nil.
func (s *Source) Parent() *Source { return s.parent }

// mapOffset maps an offset of s to an offset of its parent.
func (s *Source) mapOffset(off int, isEnd bool) int { return mapSegs(s.segs, off, isEnd) }

// mapSegs maps an offset through segs. An end offset that falls exactly on
// the start of a segment maps to the end of the previous segment's bytes,
// so that a span never grows across a gap.
func mapSegs(segs []Segment, off int, isEnd bool) int {
	if len(segs) == 1 {
		return segs[0].ParentOff + off - segs[0].Off
	}
	i := sort.Search(len(segs), func(i int) bool { return segs[i].Off > off }) - 1
	if isEnd && i > 0 && segs[i].Off == off {
		i--
	}
	if i < 0 {
		i = 0
	}
	return segs[i].ParentOff + off - segs[i].Off
}

// Pos is a resolved position: a byte offset and the 1-based line and column
// it falls on. Columns count Unicode code points; an invalid byte counts as
// one.
type Pos struct {
	Offset int
	Line   int
	Col    int
}

// Pos resolves a byte offset of s (not of its root) to a line and column.
// Offsets outside the text are clamped to it.
func (s *Source) Pos(off int) Pos {
	off = max(0, min(off, len(s.Text)))
	line := sort.Search(len(s.lines), func(i int) bool { return s.lines[i] > off }) - 1
	start := s.lines[line]
	return Pos{Offset: off, Line: line + 1, Col: utf8.RuneCountInString(s.Text[start:off]) + 1}
}

// Line returns the text of the 1-based line n without its line ending, or
// "" when there is no such line.
func (s *Source) Line(n int) string {
	if n < 1 || n > len(s.lines) {
		return ""
	}
	start := s.lines[n-1]
	end := len(s.Text)
	if n < len(s.lines) {
		end = s.lines[n] - 1
	}
	return strings.TrimSuffix(s.Text[start:end], "\r")
}

// LineCount returns the number of lines of s; a final line without a
// newline counts, an empty last line after a final newline does too.
func (s *Source) LineCount() int { return len(s.lines) }

// A Span is the half-open byte range [Start, End) of a Source. The zero Span
// has no Source and means "no position".
type Span struct {
	Src        *Source
	Start, End int
}

// SpanOf returns the span of s[start:end].
func (s *Source) SpanOf(start, end int) Span { return Span{Src: s, Start: start, End: end} }

// IsValid reports whether sp has a Source.
func (sp Span) IsValid() bool { return sp.Src != nil }

// Text returns the spanned text of sp's own Source.
func (sp Span) Text() string {
	if sp.Src == nil {
		return ""
	}
	return sp.Src.Text[sp.Start:sp.End]
}

// Root maps sp through every derived Source to the Source at the root: the
// file the user wrote.
func (sp Span) Root() Span {
	for sp.Src != nil && sp.Src.parent != nil {
		start := sp.Src.mapOffset(sp.Start, false)
		end := start
		if sp.End > sp.Start {
			end = sp.Src.mapOffset(sp.End, true)
		}
		sp = Span{Src: sp.Src.parent, Start: start, End: max(start, end)}
	}
	return sp
}

// StartPos returns the resolved start of sp in its root Source.
func (sp Span) StartPos() Pos {
	r := sp.Root()
	if r.Src == nil {
		return Pos{}
	}
	return r.Src.Pos(r.Start)
}

// EndPos returns the resolved end of sp in its root Source.
func (sp Span) EndPos() Pos {
	r := sp.Root()
	if r.Src == nil {
		return Pos{}
	}
	return r.Src.Pos(r.End)
}

// Path returns the name of sp's root Source.
func (sp Span) Path() string {
	r := sp.Root()
	if r.Src == nil {
		return ""
	}
	return r.Src.Name
}

// Cover returns the smallest span holding both sp and o, which must share a
// Source; if either is invalid the other is returned.
func (sp Span) Cover(o Span) Span {
	if !sp.IsValid() {
		return o
	}
	if !o.IsValid() {
		return sp
	}
	return Span{Src: sp.Src, Start: min(sp.Start, o.Start), End: max(sp.End, o.End)}
}
