package lang

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// maxShownLine bounds how much of a source line a rendering shows; longer
// lines are cut to a window around the caret.
const maxShownLine = 160

// WriteText renders ds as text: for each diagnostic the line
// "path:line:col: severity: message [CODE]", the source line, a caret line
// underlining the span, then each related note the same way, then the fix.
func (ds Diagnostics) WriteText(w io.Writer) error {
	var b strings.Builder
	for _, d := range ds {
		writeTextDiag(&b, d)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeTextDiag(b *strings.Builder, d *Diagnostic) {
	b.WriteString(d.Error())
	b.WriteByte('\n')
	writeSnippet(b, d.Span)
	for _, r := range d.Related {
		if r.Span.IsValid() {
			p := r.Span.StartPos()
			fmt.Fprintf(b, "%s:%d:%d: note: %s\n", r.Span.Path(), p.Line, p.Col, r.Message)
			writeSnippet(b, r.Span)
		} else {
			fmt.Fprintf(b, "note: %s\n", r.Message)
		}
	}
	if d.Fix != nil {
		fmt.Fprintf(b, "  fix: %s\n", d.Fix.Message)
	}
}

// writeSnippet writes the first line of sp and a caret underline. A span
// that runs past its first line is underlined to the end of that line; an
// empty span gets one caret.
func writeSnippet(b *strings.Builder, sp Span) {
	r := sp.Root()
	if r.Src == nil {
		return
	}
	start := r.Src.Pos(r.Start)
	line := r.Src.Line(start.Line)
	lineStart := start.Offset - len(prefixBytes(line, start.Col-1))
	from := start.Offset - lineStart // byte index of the span in line
	to := min(len(line), max(from, r.End-lineStart))
	if from > len(line) {
		from = len(line)
		to = from
	}
	// Cut very long lines to a window around the span.
	shown, from2, to2 := window(line, from, to)
	gutter := fmt.Sprintf("%5d", start.Line)
	fmt.Fprintf(b, "%s | %s\n", gutter, printable(shown))
	b.WriteString(strings.Repeat(" ", len(gutter)))
	b.WriteString(" | ")
	for _, c := range shown[:from2] {
		if c == '\t' {
			b.WriteByte('\t')
		} else {
			b.WriteByte(' ')
		}
	}
	n := max(1, utf8.RuneCountInString(shown[from2:to2]))
	b.WriteString(strings.Repeat("^", n))
	b.WriteByte('\n')
}

// prefixBytes returns the first n code points of s.
func prefixBytes(s string, n int) string {
	i := 0
	for n > 0 && i < len(s) {
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
		n--
	}
	return s[:i]
}

// window cuts line to at most maxShownLine bytes around [from, to) and
// returns the cut text and the span's new bounds in it.
func window(line string, from, to int) (string, int, int) {
	if len(line) <= maxShownLine {
		return line, from, to
	}
	start := max(0, from-maxShownLine/2)
	end := min(len(line), start+maxShownLine)
	for start > 0 && !utf8.RuneStart(line[start]) {
		start--
	}
	for end < len(line) && !utf8.RuneStart(line[end]) {
		end++
	}
	to = min(to, end)
	return line[start:end], from - start, to - start
}

// printable replaces bytes a terminal should not see: invalid UTF-8 and
// control characters other than tab become U+FFFD.
func printable(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || (r < 0x20 && r != '\t') || r == 0x7f {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if r == utf8.RuneError || (r < 0x20 && r != '\t') || r == 0x7f {
			r = utf8.RuneError
		}
		b.WriteRune(r)
	}
	return b.String()
}

// jsonLoc is a resolved span as it appears in JSON output. Lines and
// columns are 1-based; endCol is exclusive.
type jsonLoc struct {
	Path    string `json:"path"`
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	EndLine int    `json:"endLine"`
	EndCol  int    `json:"endCol"`
}

func locOf(sp Span) jsonLoc {
	if !sp.IsValid() {
		return jsonLoc{}
	}
	s, e := sp.StartPos(), sp.EndPos()
	return jsonLoc{Path: sp.Path(), Line: s.Line, Col: s.Col, EndLine: e.Line, EndCol: e.Col}
}

type jsonDiag struct {
	jsonLoc
	Severity string        `json:"severity"`
	Code     Code          `json:"code"`
	Message  string        `json:"message"`
	Related  []jsonRelated `json:"related"`
	Fix      *jsonFix      `json:"fix"`
}

type jsonRelated struct {
	jsonLoc
	Message string `json:"message"`
}

type jsonFix struct {
	Message string     `json:"message"`
	Safe    bool       `json:"safe"`
	Edits   []jsonEdit `json:"edits"`
}

type jsonEdit struct {
	jsonLoc
	NewText string `json:"newText"`
}

// WriteJSON renders ds as one JSON array of objects with the fields path,
// line, col, endLine, endCol, severity, code, message, related (an array,
// possibly empty) and fix (null when there is none). An empty list renders
// as [].
func (ds Diagnostics) WriteJSON(w io.Writer) error {
	out := make([]jsonDiag, 0, len(ds))
	for _, d := range ds {
		jd := jsonDiag{
			jsonLoc:  locOf(d.Span),
			Severity: d.Severity.String(),
			Code:     d.Code,
			Message:  d.Message,
			Related:  []jsonRelated{},
		}
		for _, r := range d.Related {
			jd.Related = append(jd.Related, jsonRelated{jsonLoc: locOf(r.Span), Message: r.Message})
		}
		if d.Fix != nil {
			f := &jsonFix{Message: d.Fix.Message, Safe: d.Fix.Safe, Edits: []jsonEdit{}}
			for _, e := range d.Fix.Edits {
				f.Edits = append(f.Edits, jsonEdit{jsonLoc: locOf(e.Span), NewText: e.NewText})
			}
			jd.Fix = f
		}
		out = append(out, jd)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
