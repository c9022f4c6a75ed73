package inventory

import (
	"strings"
	"unicode/utf8"

	"github.com/lsfc/lsfc/lang"
	"go.yaml.in/yaml/v3"
)

// This file maps YAML nodes back to the bytes of the inventory file, and
// reads mappings with their merge keys.

// invYAMLLineStarts returns the byte offsets at which lines start, counting
// line breaks as the YAML scanner does: LF, CR, CR LF, NEL, LS and PS. A
// byte order mark does not count as a column.
func invYAMLLineStarts(text string) []int {
	starts := []int{0}
	if strings.HasPrefix(text, "\uFEFF") {
		starts[0] = 3
	}
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '\n':
			starts = append(starts, i+1)
		case '\r':
			if i+1 < len(text) && text[i+1] == '\n' {
				i++
			}
			starts = append(starts, i+1)
		case 0xC2: // NEL is C2 85
			if i+1 < len(text) && text[i+1] == 0x85 {
				i++
				starts = append(starts, i+1)
			}
		case 0xE2: // LS and PS are E2 80 A8 and E2 80 A9
			if i+2 < len(text) && text[i+1] == 0x80 && (text[i+2] == 0xA8 || text[i+2] == 0xA9) {
				i += 2
				starts = append(starts, i+1)
			}
		}
	}
	return starts
}

// offset converts a 1-based YAML line and column (counted in characters)
// to a byte offset of the text, clamped to the line. Lines of ASCII text
// take one step; others are walked, from the last position found on the
// same line when that is before the column.
func (r *invYAMLReader) offset(line, col int) int {
	text := r.src.Text
	if line < 1 {
		return 0
	}
	if line > len(r.lines) {
		return len(text)
	}
	start := min(r.lines[line-1], len(text))
	info, ok := r.lineInfo[line]
	if !ok {
		info = invScanLine(text, start)
		if r.lineInfo == nil {
			r.lineInfo = map[int]invLine{}
		}
		r.lineInfo[line] = info
	}
	if info.ascii {
		return start + min(max(col-1, 0), info.end-start)
	}
	off, c := start, 1
	if r.cursor.line == line && r.cursor.col <= col {
		off, c = r.cursor.off, r.cursor.col
	}
	for ; c < col && off < info.end; c++ {
		_, n := utf8.DecodeRuneInString(text[off:])
		off += n
	}
	r.cursor.line, r.cursor.col, r.cursor.off = line, c, off
	return off
}

// invLine describes one line of the text: where it ends (before its line
// break) and whether it is all ASCII.
type invLine struct {
	end   int
	ascii bool
}

// invScanLine describes the line that starts at start.
func invScanLine(text string, start int) invLine {
	l := invLine{end: start, ascii: true}
	for ; l.end < len(text); l.end++ {
		c := text[l.end]
		if c == '\n' || c == '\r' {
			break
		}
		if c >= utf8.RuneSelf {
			l.ascii = false
		}
	}
	return l
}

// span returns the span of the text of n: a scalar's token (quotes
// included), an alias, the opening bracket of a flow collection, the dash
// of a block list, or the first key of a block mapping. Anchors and tags
// before a value are left out.
func (r *invYAMLReader) span(n *yaml.Node) lang.Span {
	if n == nil || n.Line == 0 {
		return r.src.SpanOf(0, 0)
	}
	start := invSkipProperties(r.src.Text, r.offset(n.Line, n.Column))
	return r.src.SpanOf(start, min(r.tokenEnd(n, start), len(r.src.Text)))
}

// invSkipProperties skips the anchor ("&a") and tag ("!!str") written before
// the value at off, and the blanks after them.
func invSkipProperties(text string, off int) int {
	for range 2 {
		if off >= len(text) || (text[off] != '&' && text[off] != '!') {
			break
		}
		for off < len(text) && !invYAMLBlank(text[off]) {
			off++
		}
		for off < len(text) && invYAMLBlank(text[off]) {
			off++
		}
	}
	return off
}

func invYAMLBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// tokenEnd returns the end offset of the text of n, which starts at start.
func (r *invYAMLReader) tokenEnd(n *yaml.Node, start int) int {
	text := r.src.Text
	if start >= len(text) {
		return len(text)
	}
	switch n.Kind {
	case yaml.ScalarNode:
		return invScalarEnd(text, start, n)
	case yaml.AliasNode:
		if text[start] == '*' {
			return start + 1 + len(n.Value)
		}
	case yaml.MappingNode:
		if text[start] != '{' && len(n.Content) > 0 {
			return r.tokenEnd(n.Content[0], start)
		}
	case yaml.DocumentNode:
		if strings.HasPrefix(text[start:], "---") {
			return start + 3
		}
		return start
	}
	return start + invRuneLen(text, start)
}

// invScalarEnd returns the end offset of the scalar n written at start.
func invScalarEnd(text string, start int, n *yaml.Node) int {
	switch {
	case n.Style&yaml.DoubleQuotedStyle != 0 && text[start] == '"':
		for i := start + 1; i < len(text); i++ {
			switch text[i] {
			case '\\':
				i++
			case '"':
				return i + 1
			}
		}
		return len(text)
	case n.Style&yaml.SingleQuotedStyle != 0 && text[start] == '\'':
		for i := start + 1; i < len(text); i++ {
			if text[i] == '\'' {
				if i+1 < len(text) && text[i+1] == '\'' {
					i++
					continue
				}
				return i + 1
			}
		}
		return len(text)
	case n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0:
		return start + 1
	case strings.HasPrefix(text[start:], n.Value):
		return start + len(n.Value)
	}
	// A plain scalar over several lines: underline the rest of its first.
	end := start
	for end < len(text) && text[end] != '\n' && text[end] != '\r' {
		if text[end] == '#' && end > start && invYAMLBlank(text[end-1]) {
			break
		}
		end++
	}
	for end > start && invYAMLBlank(text[end-1]) {
		end--
	}
	return end
}

// resolve follows aliases to the node they name.
func (r *invYAMLReader) resolve(n *yaml.Node) *yaml.Node {
	for range 100 {
		if n.Kind != yaml.AliasNode || n.Alias == nil {
			break
		}
		n = n.Alias
	}
	return n
}

// A invPair is one entry of a mapping.
type invPair struct {
	key     string
	keyNode *yaml.Node
	val     *yaml.Node
}

// invMaxMergeDepth bounds merge keys inside merged mappings.
const invMaxMergeDepth = 8

// pairs returns the entries of the mapping m, described as where in
// messages: its own entries in order, then those of the mappings merged
// into it with "<<" that m does not set itself. A key given twice is an
// error, and its second value is ignored; a key that is not text is an
// error, and the entry is left out.
func (r *invYAMLReader) pairs(m *yaml.Node, where string) []invPair {
	seen := map[string]*yaml.Node{}
	out, merges := r.ownPairs(m, where, seen, nil, true)
	for _, mv := range merges {
		out = r.merge(out, seen, mv, where, 1)
	}
	return out
}

// ownPairs appends to out the entries of m not in seen and returns them
// with the values of m's merge keys. With strict, a repeated key is
// reported; otherwise it is skipped, as an entry a merge does not override.
func (r *invYAMLReader) ownPairs(m *yaml.Node, where string, seen map[string]*yaml.Node, out []invPair, strict bool) ([]invPair, []*yaml.Node) {
	var merges []*yaml.Node
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := r.resolve(m.Content[i]), m.Content[i+1]
		if !r.spend(k) {
			break
		}
		if k.Kind == yaml.ScalarNode && (k.Tag == "!!merge" || k.Value == "<<" && k.Style == 0) {
			merges = append(merges, v)
			continue
		}
		if k.Kind != yaml.ScalarNode || k.Tag == "!!null" {
			if strict {
				r.errorf(r.span(k), "keys in %s must be text, not %s", where, invDescribe(k))
			}
			continue
		}
		if first, ok := seen[k.Value]; ok {
			if strict {
				d := r.errorf(r.span(k), "key %q is given twice in %s; the second value is ignored", k.Value, where)
				invNote(d, r.span(first), "%q is first given here", k.Value)
			}
			continue
		}
		seen[k.Value] = k
		out = append(out, invPair{key: k.Value, keyNode: k, val: v})
	}
	return out, merges
}

// merge appends the entries of the merge key value v (a mapping, or at the
// first level a list of mappings, earlier ones winning) not in seen.
func (r *invYAMLReader) merge(out []invPair, seen map[string]*yaml.Node, v *yaml.Node, where string, depth int) []invPair {
	v = r.resolve(v)
	switch {
	case depth > invMaxMergeDepth:
		r.errorf(r.span(v), "merge keys (<<) in %s nest more than %d deep", where, invMaxMergeDepth)
	case v.Kind == yaml.SequenceNode && depth == 1:
		for _, item := range v.Content {
			if !r.spend(item) {
				break
			}
			out = r.merge(out, seen, item, where, depth+1)
		}
	case v.Kind == yaml.MappingNode:
		var merges []*yaml.Node
		out, merges = r.ownPairs(v, where, seen, out, false)
		for _, mv := range merges {
			out = r.merge(out, seen, mv, where, depth+1)
		}
	default:
		r.errorf(r.span(v), "a merge key (<<) in %s must name a mapping, not %s", where, invDescribe(v))
	}
	return out
}
