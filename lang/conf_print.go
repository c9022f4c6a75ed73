package lang

import (
	"strings"
	"unicode/utf8"
)

// Format prints f in canonical form. The canonical form keeps every comment,
// preprocessor line and ignored line, and changes only layout:
//
//   - "Begin Name" and "End Name" with one blank and the keywords spelt
//     Begin and End; preprocessor keywords in lower case (#INCLUDE in
//     upper case, as LSF documents it);
//   - KEY = value lines with the "=" aligned within each section
//     (KEY=value in lsf.conf);
//   - table columns aligned, three blanks apart, trailing comments of a
//     table aligned after its widest row;
//   - a value continued over several lines keeps its lines, each
//     continuation indented to the value's column (unless that would change
//     the value, in lsb.* files, where joined lines meet without a blank);
//   - runs of blank lines become one, blank lines at the start and end of
//     the file and trailing blanks go, and the file ends with one newline.
//
// Format is meant for files without syntax errors: it prints what the tree
// holds, so a line the parser could not place keeps its text but not its
// meaning. Formatting the output again gives the same bytes, and parsing
// it gives the same tree (up to positions and blanks inside values at
// continuation points).
func Format(f *File) []byte {
	p := &printer{fam: f.Kind.Family()}
	p.items(f.Items, 0, true)
	out := strings.TrimLeft(p.b.String(), "\n")
	if out == "" {
		return nil
	}
	return []byte(out)
}

type printer struct {
	b     strings.Builder
	fam   Family
	lines int // lines written so far
}

func (p *printer) line(s string) {
	p.b.WriteString(strings.TrimRight(s, blanks))
	p.b.WriteByte('\n')
	p.lines++
}

func (p *printer) blank(li *LineInfo, first bool) {
	if li.BlankBefore && !first && p.lines > 0 {
		p.line("")
	}
}

const tableGap = "   "

// blanks are the bytes the scanner reads as blanks.
const blanks = " \t\r\v\f"

// items prints a list of items. keyWidth aligns the "=" of assignments.
func (p *printer) items(items []Item, keyWidth int, top bool) {
	for i, it := range items {
		p.blank(it.Line(), i == 0 && !top)
		switch it := it.(type) {
		case *Section:
			// Top-level sections are kept apart by a blank line.
			if top && i > 0 && !it.BlankBefore {
				if _, ok := items[i-1].(*Section); ok {
					p.line("")
				}
			}
			p.section(it)
		case *Assignment:
			p.assignment(it, keyWidth)
		case *Comment:
			p.line(it.Text)
		case *Directive:
			p.directive(it)
		case *Stray:
			p.stray(it.Text)
		case *Row:
			p.line(withComment(joinCells(it.Cells), it.Trailing))
		}
	}
}

// stray prints an ignored line as written. A line ending in a backslash
// followed by blanks keeps one blank: without it the line would continue.
func (p *printer) stray(text string) {
	text = strings.TrimLeft(text, blanks)
	trimmed := strings.TrimRight(text, blanks)
	if strings.HasSuffix(trimmed, `\`) && trimmed != text {
		p.b.WriteString(trimmed + " \n")
		p.lines++
		return
	}
	p.line(trimmed)
}

// verbatimRow reports whether a row is printed as written rather than
// aligned: a row written over several lines, or holding a backslash, whose
// escapes may reach across the blanks between cells.
func verbatimRow(r *Row) bool { return strings.ContainsAny(r.Whole.Text(), "\n\\") }

func withComment(s string, c *Comment) string {
	if c == nil {
		return s
	}
	if s == "" {
		return c.Text
	}
	return s + " " + c.Text
}

func joinCells(cells []Cell) string {
	parts := make([]string, len(cells))
	for i, c := range cells {
		parts[i] = c.Span.Text()
	}
	return strings.Join(parts, " ")
}

func (p *printer) section(s *Section) {
	p.line(withComment(strings.TrimSpace("Begin "+s.Name.Text), s.Trailing))
	if s.Form == FormTable {
		p.table(s)
	} else {
		width := 0
		for _, a := range s.Assigns {
			width = max(width, utf8.RuneCountInString(a.Key.Text))
		}
		p.items(s.Body, width, false)
	}
	if s.End != nil {
		name := s.End.Name.Text
		p.blank(&s.End.LineInfo, false)
		p.line(withComment(strings.TrimSpace("End "+name), s.End.Trailing))
	}
}

// table prints a table section with its columns aligned.
func (p *printer) table(s *Section) {
	var widths []int
	measure := func(r *Row) {
		for i, c := range r.Cells {
			if i >= len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], utf8.RuneCountInString(c.Span.Text()))
		}
	}
	rows := make([]*Row, 0, len(s.Rows)+1)
	for _, it := range s.Body {
		if r, ok := it.(*Row); ok && !verbatimRow(r) {
			rows = append(rows, r)
			measure(r)
		}
	}
	text := make(map[*Row]string, len(rows))
	widest := 0
	for _, r := range rows {
		var b strings.Builder
		for i, c := range r.Cells {
			if i > 0 {
				b.WriteString(tableGap)
			}
			raw := c.Span.Text()
			b.WriteString(raw)
			if i < len(r.Cells)-1 {
				b.WriteString(strings.Repeat(" ", widths[i]-utf8.RuneCountInString(raw)))
			}
		}
		text[r] = b.String()
		widest = max(widest, utf8.RuneCountInString(text[r]))
	}
	for i, it := range s.Body {
		p.blank(it.Line(), i == 0)
		r, ok := it.(*Row)
		if !ok {
			p.items([]Item{it}, 0, false)
			continue
		}
		if verbatimRow(r) {
			p.stray(r.Whole.Text())
			continue
		}
		t := text[r]
		if r.Trailing != nil {
			t += strings.Repeat(" ", widest-utf8.RuneCountInString(t)) + tableGap + r.Trailing.Text
		}
		p.line(t)
	}
}

func (p *printer) assignment(a *Assignment, width int) {
	key := a.Key.Text
	var head string
	switch {
	case p.fam == FamilyConf:
		head = key + "="
	case strings.EqualFold(key, "begin") || strings.EqualFold(key, "end"):
		// "End =" would read as an End line; "End=" does not.
		head = key + "="
	default:
		head = key + strings.Repeat(" ", max(0, width-utf8.RuneCountInString(key))) + " ="
	}
	var body string
	switch {
	case a.Value.Pieces != nil:
		body = p.continued(a.Value.Pieces, utf8.RuneCountInString(head)+1)
	default:
		// The value as written: its escapes and, in lsf.conf, its quotes.
		body = a.Value.Span.Text()
		if strings.HasSuffix(body, `\`) && a.Trailing == nil {
			// The line continued into the end of the file: keep its
			// continuation, or the backslash before it would become one.
			body += `\`
		}
	}
	switch {
	case body == "":
	case p.fam == FamilyConf:
		head += body
	default:
		head += " " + body
	}
	p.line(withComment(head, a.Trailing))
}

// continued lays out a value written over several lines. Joining the
// printed lines by the family's rule gives the value back, with at most
// more blanks where the original had blanks at a line break. Where a blank
// at the break would change the value (lsb.* files join lines directly,
// and a backslash followed by a blank is removed), the break is printed as
// written.
func (p *printer) continued(pieces []string, col int) string {
	var b strings.Builder
	indent := strings.Repeat(" ", col)
	trimLead := true
	for i, piece := range pieces {
		if trimLead {
			piece = strings.TrimLeft(piece, blanks)
		}
		if i == len(pieces)-1 {
			b.WriteString(piece)
			if strings.HasSuffix(piece, `\`) {
				// The last line continued into the end of the file: keep
				// its continuation, or the backslash before it would
				// become one.
				b.WriteString(`\`)
			}
			break
		}
		next := pieces[i+1]
		body := strings.TrimRight(piece, blanks)
		canonical := !strings.HasSuffix(body, `\`) &&
			(p.fam != FamilyBatch || body != piece || strings.TrimLeft(next, blanks) != next)
		if canonical {
			b.WriteString(body)
			b.WriteString(" \\\n")
			b.WriteString(indent)
		} else {
			b.WriteString(piece)
			b.WriteString("\\\n")
		}
		trimLead = canonical
	}
	return b.String()
}

func (p *printer) directive(d *Directive) {
	kw := strings.ToLower(d.Keyword.Text)
	var s string
	switch d.Kind {
	case DirInclude:
		s = `#INCLUDE "` + d.Arg.Text + `"`
	case DirDefine:
		s = kw + " " + d.Name.Text + " " + d.Arg.Text
	case DirIf, DirElif:
		s = kw + " " + d.Arg.Text
	default:
		s = kw
	}
	p.line(withComment(s, d.Trailing))
}
