package lang

import (
	"strings"
	"unicode/utf8"
)

// The scanner turns a file into line-level items. It applies the lexical
// rules of the file's Family: comments, line continuation, backslashes,
// quotes in lsf.shared/lsf.cluster/lsf.conf, preprocessor lines, and the
// split of a table row into cells. It knows nothing of sections; the
// grammar (conf_grammar.go) assembles the items into them.

// scanner holds the state of one scan.
type scanner struct {
	src   *Source
	text  string
	kind  FileKind
	fam   Family
	lim   Limits
	diags *diagSink

	items    []Item
	blank    bool       // a blank line was seen since the last item
	branches []*Branch  // open #if chains, innermost last
	dirStack []*ifFrame // parallel to branches
	sawBegin bool       // a section has begun (for #INCLUDE in lsf.shared)
	buf      []byte     // scratch for building logical lines
	pieces   [][2]int   // root offsets of the content of each physical line
	cells    []Cell     // scratch cells
	stack    []byte     // scratch: open groups of a cell
}

type ifFrame struct {
	ifDir   *Directive
	sawElse bool
}

// diagSink collects diagnostics up to a limit.
type diagSink struct {
	ds      Diagnostics
	max     int
	dropped int
}

func (s *diagSink) add(sev Severity, code Code, sp Span, format string, args ...any) *Diagnostic {
	if len(s.ds) >= s.max {
		s.dropped++
		return &Diagnostic{} // detached: notes attached to it go nowhere
	}
	return s.ds.Add(sev, code, sp, format, args...)
}

// finish returns the diagnostics, with a last one saying how many were
// dropped past the limit.
func (s *diagSink) finish(src *Source) Diagnostics {
	if s.dropped > 0 {
		s.ds.Add(Error, CodeTooLarge, src.SpanOf(len(src.Text), len(src.Text)),
			"too many diagnostics: %d more were not reported", s.dropped)
	}
	return s.ds
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\v' || c == '\f' || c == '\r' }

func trimRightBlank(s string) string {
	i := len(s)
	for i > 0 && isBlank(s[i-1]) {
		i--
	}
	return s[:i]
}

// isKey reports whether s can be a KEY of a KEY = value line: a letter or
// underscore, then letters, digits and underscores.
func isKey(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_' || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'):
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// scan reads the whole text.
func (sc *scanner) scan() {
	text := sc.text
	pos := 0
	for pos < len(text) {
		pos = sc.logicalLine(pos)
	}
	for _, f := range sc.dirStack {
		sc.diags.add(Error, CodeDirective, f.ifDir.Keyword.Span, "#if has no #endif before the end of the file")
	}
}

// physLine returns the end of the content of the physical line starting at
// pos (a trailing CR excluded) and the start of the next line.
func (sc *scanner) physLine(pos int) (end, next int) {
	i := strings.IndexByte(sc.text[pos:], '\n')
	if i < 0 {
		end, next = len(sc.text), len(sc.text)
	} else {
		end, next = pos+i, pos+i+1
	}
	if end > pos && sc.text[end-1] == '\r' {
		end--
	}
	return end, next
}

// checkUTF8 reports invalid UTF-8 in text[start:end].
func (sc *scanner) checkUTF8(start, end int) {
	line := sc.text[start:end]
	if utf8.ValidString(line) {
		return
	}
	for i := 0; i < len(line); {
		r, size := utf8.DecodeRuneInString(line[i:])
		if r == utf8.RuneError && size == 1 {
			sc.diags.add(Error, CodeBadUTF8, sc.src.SpanOf(start+i, start+i+1),
				"invalid UTF-8 byte 0x%02x", line[i])
		}
		i += size
	}
}

// logicalLine reads the logical line starting at pos and returns the
// start of the next one.
func (sc *scanner) logicalLine(pos int) int {
	text := sc.text
	end, next := sc.physLine(pos)
	sc.checkUTF8(pos, end)

	// Preprocessor lines are whole physical lines, never continued.
	first := pos
	for first < end && isBlank(text[first]) {
		first++
	}
	if first < end && text[first] == '#' {
		if sc.directive(pos, first, end) {
			return next
		}
	}

	sc.pieces = sc.pieces[:0]
	var comment Span
	inQuote := false
	quoteAt := -1
	lineStart := pos
	lastEnd := end
	for {
		cut := end
		if sc.fam == FamilyBatch {
			if i := strings.IndexByte(text[pos:end], '#'); i >= 0 {
				cut = pos + i
				if q := strings.Count(text[pos:cut], `"`); q%2 == 1 && !inQuote {
					sc.diags.add(Warning, CodeHashInQuotes, sc.src.SpanOf(cut, cut+1),
						"\"#\" starts a comment even inside quotes in %s; the value ends here", sc.kind)
				}
			}
		} else {
			for i := pos; i < end; i++ {
				c := text[i]
				if c == '"' {
					inQuote = !inQuote
					if inQuote {
						quoteAt = i
					}
				} else if c == '#' && !inQuote {
					cut = i
					break
				}
			}
		}
		content := trimRightBlank(text[pos:cut])
		contentEnd := pos + len(content)
		if cut < end {
			comment = sc.src.SpanOf(cut, pos+len(trimRightBlank(text[pos:end])))
		}
		cont := false
		pieceEnd := contentEnd
		if cut == end && strings.HasSuffix(content, `\`) {
			// The backslash goes: it either continues the line or, followed
			// by blanks in the base files, is dropped as LSF does.
			pieceEnd--
			if sc.fam == FamilyBatch || end > 0 && text[end-1] == '\\' {
				cont = true
			} else {
				sc.diags.add(Warning, CodeContinuation, sc.src.SpanOf(contentEnd-1, contentEnd),
					"a backslash followed by blanks does not continue the line in %s", sc.kind)
			}
		}
		sc.pieces = append(sc.pieces, [2]int{pos, pieceEnd})
		lastEnd = end
		if !cont {
			break
		}
		if next >= len(text) {
			sc.diags.add(Warning, CodeContinuation, sc.src.SpanOf(contentEnd-1, contentEnd),
				"the last line ends with a backslash but there is no line to continue")
			break
		}
		if next-lineStart > sc.lim.MaxLineLen {
			sc.diags.add(Error, CodeTooLarge, sc.src.SpanOf(lineStart, lineStart),
				"logical line is longer than %d bytes; the rest of it is read as new lines", sc.lim.MaxLineLen)
			break
		}
		pos = next
		end, next = sc.physLine(pos)
		sc.checkUTF8(pos, end)
	}
	if inQuote && sc.fam != FamilyBatch {
		sev := Warning
		if sc.fam == FamilyConf {
			sev = Error
		}
		sc.diags.add(sev, CodeUnclosedQuote, sc.src.SpanOf(quoteAt, quoteAt+1), "quoted string is not closed")
	}
	li := LineInfo{Whole: sc.src.SpanOf(lineStart, lastEnd), BlankBefore: sc.blank, Branch: sc.branch()}
	if comment.IsValid() {
		li.Trailing = &Comment{Text: comment.Text(), TextSpan: comment}
	}
	ltext, segs := sc.join()
	sc.classify(li, ltext, segs)
	return next
}

// join builds the logical text of the pieces gathered by logicalLine and
// the segments mapping it back to the file. Blanks become spaces; a
// backslash followed by a blank is removed (with the blank, in lsb.*
// files) as LSF does; joined lines meet directly in lsb.* files and with a
// space in the others. The common case, one piece with nothing to change,
// returns a substring of the file.
func (sc *scanner) join() (string, []Segment) {
	text := sc.text
	if len(sc.pieces) == 1 {
		p := sc.pieces[0]
		s := text[p[0]:p[1]]
		if strings.IndexByte(s, '\\') < 0 && strings.IndexByte(s, '\t') < 0 && strings.IndexByte(s, '\r') < 0 &&
			strings.IndexByte(s, '\v') < 0 && strings.IndexByte(s, '\f') < 0 {
			return s, []Segment{{Off: 0, ParentOff: p[0]}}
		}
	}
	buf := sc.buf[:0]
	segs := make([]Segment, 0, 2*len(sc.pieces))
	newSeg := func(root int) {
		segs = append(segs, Segment{Off: len(buf), ParentOff: root})
	}
	for k, p := range sc.pieces {
		if k > 0 && sc.fam != FamilyBatch {
			// The newline of a continued line reads as a space; map it to
			// the backslash.
			newSeg(sc.pieces[k-1][1])
			buf = append(buf, ' ')
		}
		newSeg(p[0])
		for i := p[0]; i < p[1]; i++ {
			c := text[i]
			if c == '\\' && i+1 < p[1] {
				if isBlank(text[i+1]) {
					if sc.fam == FamilyBatch {
						i++ // drop the backslash and the blank
					}
					newSeg(i + 1)
					continue
				}
				if sc.fam != FamilyBatch {
					// The base files keep a backslash and the character after
					// it as a pair: that character is not examined again.
					buf = append(buf, c)
					i++
					c = text[i]
				}
			}
			if isBlank(c) {
				c = ' '
			}
			buf = append(buf, c)
		}
	}
	sc.buf = buf
	return string(buf), segs
}

// branch returns the innermost open #if branch.
func (sc *scanner) branch() *Branch {
	if n := len(sc.branches); n > 0 {
		return sc.branches[n-1]
	}
	return nil
}

// add appends an item and clears the blank-line flag.
func (sc *scanner) add(it Item) {
	sc.items = append(sc.items, it)
	sc.blank = false
}

// classify turns one logical line into an item.
func (sc *scanner) classify(li LineInfo, text string, segs []Segment) {
	root := func(off int, isEnd bool) int { return mapSegs(segs, off, isEnd) }
	span := func(a, b int) Span {
		start := root(a, false)
		if b <= a {
			return sc.src.SpanOf(start, start)
		}
		return sc.src.SpanOf(start, max(start, root(b, true)))
	}

	// Leading blanks.
	lead := 0
	for lead < len(text) && text[lead] == ' ' {
		lead++
	}
	if lead == len(text) {
		if li.Trailing == nil {
			sc.blank = true
			return
		}
		c := li.Trailing
		c.LineInfo = li
		c.LineInfo.Trailing = nil
		sc.add(c)
		return
	}
	// First word.
	w := lead
	for w < len(text) && text[w] != ' ' {
		w++
	}
	firstWord := text[lead:w]

	if sc.fam != FamilyConf {
		if strings.EqualFold(firstWord, "begin") || strings.EqualFold(firstWord, "end") {
			sc.beginEnd(li, text, lead, w, span)
			return
		}
	}

	// KEY = value?
	k := lead
	for k < len(text) && (text[k] == '_' || text[k] >= '0' && text[k] <= '9' || text[k] >= 'A' && text[k] <= 'Z' || text[k] >= 'a' && text[k] <= 'z') {
		k++
	}
	e := k
	for e < len(text) && text[e] == ' ' {
		e++
	}
	if e < len(text) && text[e] == '=' && isKey(text[lead:k]) {
		sc.assignment(li, text, segs, lead, k, e, span)
		return
	}
	if sc.fam == FamilyConf {
		sc.diags.add(Error, CodeConfLine, span(lead, len(text)),
			"expected KEY=value in %s, found %q", sc.kind, clip(text[lead:]))
		sc.add(&Stray{LineInfo: li, Text: text[lead:]})
		return
	}
	sc.row(li, text, segs, lead, span)
}

// clip shortens s for a message.
func clip(s string) string {
	if len(s) <= 40 {
		return s
	}
	cut := 37
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "..."
}

// beginEnd reads a Begin or End line.
func (sc *scanner) beginEnd(li LineInfo, text string, lead, w int, span func(a, b int) Span) {
	kw := Word{Text: text[lead:w], Span: span(lead, w)}
	var name Word
	n := w
	for n < len(text) && text[n] == ' ' {
		n++
	}
	ne := n
	for ne < len(text) && text[ne] != ' ' {
		ne++
	}
	if ne > n {
		name = Word{Text: text[n:ne], Span: span(n, ne)}
	} else {
		name = Word{Span: span(len(text), len(text))}
	}
	if rest := strings.TrimSpace(text[ne:]); rest != "" {
		x := ne
		for text[x] == ' ' {
			x++
		}
		sc.diags.add(Warning, CodeExtraWords, span(x, len(text)),
			"%q after the section name is ignored", clip(rest))
	}
	begin := strings.EqualFold(kw.Text, "begin")
	if name.Text == "" {
		what := "End"
		if begin {
			what = "Begin"
		}
		sc.diags.add(Error, CodeNoSectionName, kw.Span, "%s without a section name", what)
	}
	if begin {
		sc.sawBegin = true
		sc.add(&Section{LineInfo: li, Begin: kw, Name: name})
		return
	}
	sc.add(&EndLine{LineInfo: li, End: kw, Name: name})
}

// assignment reads a KEY = value line; key is text[lead:k], "=" is at e.
func (sc *scanner) assignment(li LineInfo, text string, segs []Segment, lead, k, e int, span func(a, b int) Span) {
	a := &Assignment{
		LineInfo: li,
		Key:      Word{Text: text[lead:k], Span: span(lead, k)},
		Eq:       span(e, e+1),
	}
	vs := e + 1
	for vs < len(text) && text[vs] == ' ' {
		vs++
	}
	ve := len(text)
	if sc.fam == FamilyConf {
		if k != e || (vs > e+1 && vs < len(text)) {
			d := sc.diags.add(Error, CodeConfSpaces, span(k, vs),
				"blanks around \"=\" are not allowed in %s: write %s=...", sc.kind, a.Key.Text)
			if vs < len(text) || k != e {
				d.SuggestSafe("remove the blanks around \"=\"", span(k, vs), "=")
			}
		}
		sc.confValue(a, text, segs, vs, ve, span)
		sc.setPieces(&a.Value)
	} else {
		a.Value = sc.value(text, segs, vs, ve, span)
		sc.setPieces(&a.Value)
		if vs == ve {
			sc.diags.add(Warning, CodeEmptyValue, a.Key.Span,
				"%s has no value; LSF ignores the line", a.Key.Text)
		}
	}
	sc.add(a)
}

// value builds a Value for text[vs:ve].
func (sc *scanner) value(text string, segs []Segment, vs, ve int, span func(a, b int) Span) Value {
	v := Value{Text: text[vs:ve], Span: span(vs, ve)}
	v.Src = sc.src.Derive(v.Text, shiftSegs(segs, vs))
	return v
}

// setPieces records, for a value continued over several physical lines,
// its raw text on each of them: the first piece from the value's start,
// the others from the start of their line, each without its continuation
// backslash. Joining the pieces by the family's rule gives the value back.
func (sc *scanner) setPieces(v *Value) {
	if len(sc.pieces) < 2 {
		return
	}
	for _, p := range sc.pieces {
		a, b := max(p[0], v.Span.Start), min(p[1], v.Span.End)
		if p[1] < v.Span.Start {
			continue
		}
		v.Pieces = append(v.Pieces, sc.text[a:max(a, b)])
	}
	if len(v.Pieces) < 2 {
		v.Pieces = nil
	}
}

// shiftSegs returns segs re-based so that offset off becomes 0.
func shiftSegs(segs []Segment, off int) []Segment {
	if len(segs) == 1 {
		return []Segment{{Off: 0, ParentOff: segs[0].ParentOff + off - segs[0].Off}}
	}
	out := make([]Segment, 0, len(segs))
	for i, s := range segs {
		if i+1 < len(segs) && segs[i+1].Off <= off {
			continue
		}
		if s.Off < off {
			s.ParentOff += off - s.Off
			s.Off = off
		}
		out = append(out, Segment{Off: s.Off - off, ParentOff: s.ParentOff})
	}
	return out
}

// confValue reads an lsf.conf value: one word, or a double-quoted string
// whose quotes LSF removes.
func (sc *scanner) confValue(a *Assignment, text string, segs []Segment, vs, ve int, span func(a, b int) Span) {
	if vs < ve && text[vs] == '"' {
		q := strings.IndexByte(text[vs+1:ve], '"')
		if q < 0 {
			// Reported as an unclosed quote already.
			a.Value = sc.value(text, segs, vs+1, ve, span)
			a.Value.Span = span(vs, ve)
			a.Value.Quote = '"'
			return
		}
		closeAt := vs + 1 + q
		a.Value = sc.value(text, segs, vs+1, closeAt, span)
		a.Value.Span = span(vs, closeAt+1)
		a.Value.Quote = '"'
		if rest := strings.TrimSpace(text[closeAt+1 : ve]); rest != "" {
			sc.diags.add(Error, CodeConfValue, span(closeAt+1, ve),
				"unexpected %q after the closing quote of %s", clip(rest), a.Key.Text)
		}
		return
	}
	a.Value = sc.value(text, segs, vs, ve, span)
	if i := strings.IndexByte(text[vs:ve], ' '); i >= 0 {
		d := sc.diags.add(Error, CodeConfValue, span(vs, ve),
			"value of %s has blanks; LSF reads one word: quote it", a.Key.Text)
		d.SuggestSafe("quote the value", span(vs, ve), `"`+text[vs:ve]+`"`)
	}
}

// row splits a table row into cells: words separated by blanks, where a
// group opened by "(" or "[" runs to its closing partner, blanks included.
func (sc *scanner) row(li LineInfo, text string, segs []Segment, lead int, span func(a, b int) Span) {
	cells := sc.cells[:0]
	i := lead
	stack := sc.stack[:0]
	defer func() { sc.stack = stack[:0] }()
	for i < len(text) {
		for i < len(text) && text[i] == ' ' {
			i++
		}
		if i >= len(text) {
			break
		}
		start := i
		stack = stack[:0]
		openAt := -1
		for i < len(text) {
			c := text[i]
			if c == ' ' && len(stack) == 0 {
				break
			}
			switch c {
			case '(', '[':
				if len(stack) == 0 {
					openAt = i
				}
				if len(stack) < sc.lim.MaxDepth {
					stack = append(stack, c)
				} else {
					sc.diags.add(Error, CodeTooLarge, span(i, i+1),
						"parentheses nest deeper than %d", sc.lim.MaxDepth)
					stack = append(stack[:0], c)
				}
			case ')', ']':
				if len(stack) > 0 {
					stack = stack[:len(stack)-1]
				}
			}
			i++
		}
		if len(stack) > 0 {
			closer := ")"
			if stack[0] == '[' {
				closer = "]"
			}
			sc.diags.add(Error, CodeUnbalanced, span(openAt, openAt+1),
				"%q is not closed on this line (missing %q)", string(stack[0]), closer)
		}
		if len(cells) == sc.lim.MaxCells {
			sc.diags.add(Error, CodeTooLarge, span(start, len(text)),
				"row has more than %d values; the rest are ignored", sc.lim.MaxCells)
			break
		}
		cell := Cell{Text: text[start:i], Span: span(start, i)}
		if len(segs) > 1 {
			// A cell of a continued row: its text is not one run of
			// the file, so it maps back through the line's segments.
			cell.Src = sc.src.Derive(cell.Text, shiftSegs(segs, start))
		}
		cells = append(cells, cell)
	}
	r := &Row{LineInfo: li, Cells: make([]Cell, len(cells))}
	copy(r.Cells, cells)
	sc.cells = cells
	sc.add(r)
}

// directive reads a preprocessor line, whose "#" is at first; it returns
// false when the line is an ordinary comment.
func (sc *scanner) directive(pos, first, end int) bool {
	text := sc.text
	w := first
	for w < end && !isBlank(text[w]) {
		w++
	}
	kind, ok := directiveNames[strings.ToLower(text[first:w])]
	if !ok || (sc.fam != FamilyBatch && kind != DirInclude) || sc.fam == FamilyConf {
		return false
	}
	lineEnd := pos + len(trimRightBlank(text[pos:end]))
	d := &Directive{
		LineInfo: LineInfo{Whole: sc.src.SpanOf(pos, end), BlankBefore: sc.blank, Branch: sc.branch()},
		Kind:     kind,
		Keyword:  Word{Text: text[first:w], Span: sc.src.SpanOf(first, w)},
	}
	// The argument runs to the next "#", as in LSF.
	a := w
	for a < lineEnd && isBlank(text[a]) {
		a++
	}
	argEnd := lineEnd
	if kind != DirInclude {
		if i := strings.IndexByte(text[a:lineEnd], '#'); i >= 0 {
			argEnd = a + i
			d.Trailing = &Comment{Text: text[argEnd:lineEnd], TextSpan: sc.src.SpanOf(argEnd, lineEnd)}
		}
	}
	argEnd = a + len(trimRightBlank(text[a:argEnd]))
	arg := Word{Text: text[a:argEnd], Span: sc.src.SpanOf(a, argEnd)}

	switch kind {
	case DirDefine:
		n := a
		for n < argEnd && !isBlank(text[n]) {
			n++
		}
		d.Name = Word{Text: text[a:n], Span: sc.src.SpanOf(a, n)}
		c := n
		for c < argEnd && isBlank(text[c]) {
			c++
		}
		d.Arg = Word{Text: text[c:argEnd], Span: sc.src.SpanOf(c, argEnd)}
		if d.Name.Text == "" || d.Arg.Text == "" {
			sc.diags.add(Error, CodeDirective, d.Keyword.Span, "#define needs a name and a condition")
		}
	case DirIf, DirElif:
		d.Arg = arg
		if arg.Text == "" {
			sc.diags.add(Error, CodeDirective, d.Keyword.Span, "%s needs a condition", strings.ToLower(d.Keyword.Text))
		}
	case DirElse, DirEndif:
		if arg.Text != "" {
			d.Trailing = &Comment{Text: arg.Text, TextSpan: arg.Span}
		}
	case DirInclude:
		sc.include(d, arg)
	}
	sc.preprocess(d)
	sc.add(d)
	return true
}

// include checks an #INCLUDE line: a double-quoted path, and in lsf.shared
// only before the first section.
func (sc *scanner) include(d *Directive, arg Word) {
	d.Arg = arg
	t := arg.Text
	q := -1
	if strings.HasPrefix(t, `"`) {
		q = strings.IndexByte(t[1:], '"')
	}
	switch {
	case q < 0:
		sp := arg.Span
		if t == "" {
			sp = d.Keyword.Span
		}
		sc.diags.add(Error, CodeInclude, sp, "#INCLUDE needs a path in double quotes")
	case q == 0:
		sc.diags.add(Error, CodeInclude, arg.Span, "#INCLUDE has an empty path")
	default:
		d.Arg = Word{Text: t[1 : q+1], Span: sc.src.SpanOf(arg.Span.Start+1, arg.Span.Start+1+q)}
		rest := strings.TrimLeft(t[q+2:], " \t")
		restAt := arg.Span.End - len(rest)
		switch {
		case rest == "":
		case rest[0] == '#':
			d.Trailing = &Comment{Text: rest, TextSpan: sc.src.SpanOf(restAt, arg.Span.End)}
		default:
			sc.diags.add(Error, CodeInclude, sc.src.SpanOf(restAt, arg.Span.End),
				"unexpected %q after the #INCLUDE path", clip(rest))
		}
	}
	if sc.kind == KindLSFShared && sc.sawBegin {
		sc.diags.add(Error, CodeInclude, d.Keyword.Span,
			"#INCLUDE must come before the first section in lsf.shared")
	}
}

// preprocess keeps the #if stack and the current branch up to date.
func (sc *scanner) preprocess(d *Directive) {
	switch d.Kind {
	case DirIf:
		if len(sc.dirStack) >= sc.lim.MaxDepth {
			sc.diags.add(Error, CodeTooLarge, d.Keyword.Span, "#if blocks nest deeper than %d", sc.lim.MaxDepth)
			return
		}
		sc.dirStack = append(sc.dirStack, &ifFrame{ifDir: d})
		sc.branches = append(sc.branches, &Branch{Open: d, If: d, Parent: d.Branch})
	case DirElif, DirElse:
		n := len(sc.dirStack)
		if n == 0 {
			sc.diags.add(Error, CodeDirective, d.Keyword.Span, "%s without #if", strings.ToLower(d.Keyword.Text))
			return
		}
		f := sc.dirStack[n-1]
		if f.sawElse {
			sc.diags.add(Error, CodeDirective, d.Keyword.Span, "%s after #else", strings.ToLower(d.Keyword.Text)).
				Note(f.ifDir.Keyword.Span, "the #if is here")
		}
		if d.Kind == DirElse {
			f.sawElse = true
		}
		parent := sc.branches[n-1].Parent
		d.Branch = parent
		sc.branches[n-1] = &Branch{Open: d, If: f.ifDir, Parent: parent}
	case DirEndif:
		n := len(sc.dirStack)
		if n == 0 {
			sc.diags.add(Error, CodeDirective, d.Keyword.Span, "#endif without #if")
			return
		}
		d.Branch = sc.branches[n-1].Parent
		sc.dirStack = sc.dirStack[:n-1]
		sc.branches = sc.branches[:n-1]
	}
}
