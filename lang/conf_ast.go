package lang

import "strings"

// A File is the syntax tree of one configuration file.
type File struct {
	Src  *Source
	Kind FileKind
	// Items are the top-level items in file order: *Section, *Comment,
	// *Directive, *Stray, and, in lsf.conf, *Assignment.
	Items []Item
}

// An Item is one line-level element of a file or of a section body:
// *Section, *Assignment, *Row, *Comment, *Directive or *Stray.
type Item interface {
	// Line returns the facts shared by every line-level item.
	Line() *LineInfo
	// Span returns the span of the item's text (for a Section, from its
	// Begin line to its End line).
	Span() Span
}

// LineInfo holds what every line-level item has: where its logical line
// lies, the blank lines and trailing comment around it, and the
// preprocessor branch it is in.
type LineInfo struct {
	// Whole spans the logical line: from its first byte to the end of its
	// last physical line (continuations included, line ending excluded).
	Whole Span
	// BlankBefore is true when one or more blank lines precede the line.
	BlankBefore bool
	// Trailing is the comment that ends the line, or nil.
	Trailing *Comment
	// Branch is the innermost #if/#elif/#else branch holding the line,
	// or nil outside any.
	Branch *Branch
}

// Line returns li itself; it lets every item type embed LineInfo.
func (li *LineInfo) Line() *LineInfo { return li }

// A Word is a name or keyword and its span.
type Word struct {
	Text string
	Span Span
}

// Form is the shape of a section body.
type Form uint8

// The forms of a section body. LSF decides the form from the first line
// that is neither blank nor a comment.
const (
	FormEmpty    Form = iota // no content lines
	FormKeyValue             // KEY = value lines ("horizontal")
	FormTable                // a header row of column names, then rows ("vertical")
)

func (f Form) String() string {
	switch f {
	case FormKeyValue:
		return "key = value"
	case FormTable:
		return "table"
	}
	return "empty"
}

// A Section is a Begin/End block.
type Section struct {
	LineInfo // of the Begin line
	// Begin is the keyword as written ("Begin", "BEGIN").
	Begin Word
	// Name is the section name as written in the Begin line; its Text is
	// empty when the name is missing.
	Name Word
	// End is the closing line, or nil when the section is not closed.
	End *EndLine
	// Body holds the lines between Begin and End in file order:
	// *Assignment, *Row, *Comment, *Directive.
	Body []Item
	// Form is the shape of the body.
	Form Form
	// Header is the header row of a table, or nil.
	Header *Row
	// Rows are the data rows of a table (the header excluded).
	Rows []*Row
	// Assigns are the KEY = value lines of a key = value section.
	Assigns []*Assignment
}

// Span returns the span from the Begin line to the End line (or to the
// last body line when the section is not closed).
func (s *Section) Span() Span {
	sp := s.Whole
	if s.End != nil {
		sp = sp.Cover(s.End.Whole)
	} else if n := len(s.Body); n > 0 {
		sp = sp.Cover(s.Body[n-1].Line().Whole)
	}
	return sp
}

// Is reports whether the section is named name, ignoring case as LSF does.
func (s *Section) Is(name string) bool { return strings.EqualFold(s.Name.Text, name) }

// An EndLine is the End line of a section.
type EndLine struct {
	LineInfo
	End  Word
	Name Word
}

// Span returns the span of the End line.
func (e *EndLine) Span() Span { return e.Whole }

// An Assignment is a KEY = value line (KEY=value in lsf.conf).
type Assignment struct {
	LineInfo
	Key Word
	// Eq is the span of the "=".
	Eq    Span
	Value Value
}

// Span returns the span from the key to the end of the value.
func (a *Assignment) Span() Span { return a.Key.Span.Cover(a.Value.Span).Cover(a.Eq) }

// A Value is the text after "=": continuation lines joined, surrounding
// blanks removed and, in lsf.conf, its quotes removed.
type Value struct {
	// Text is the logical value, as LSF reads it.
	Text string
	// Span covers the value as written in the file (quotes included). For
	// an empty value it is the empty span just after "=".
	Span Span
	// Src is a Source whose text is Text and whose offsets map back into
	// the file, so that parsers of values (such as RES_REQ) report
	// positions in the file.
	Src *Source
	// Quote is the quote character that enclosed the value in lsf.conf,
	// or 0.
	Quote byte
	// Pieces, for a value continued over several physical lines, are its
	// raw parts as written on each line (quotes included), without the
	// continuation backslash; nil for a value on one line.
	Pieces []string
}

// A Row is one line of a table section: the header or a data row.
type Row struct {
	LineInfo
	Cells []Cell
}

// Span returns the span from the first to the last cell.
func (r *Row) Span() Span {
	if len(r.Cells) == 0 {
		return r.Whole
	}
	return r.Cells[0].Span.Cover(r.Cells[len(r.Cells)-1].Span)
}

// A Cell is one value of a table row as written: a word, or a group in
// parentheses or brackets that may hold blanks ("(fs cs)", "[1-10]").
type Cell struct {
	Text string
	Span Span
	// Src, for a cell of a row continued over several physical lines, is
	// a Source whose text is Text and whose offsets map back into the
	// file; nil when Text is the file's text at Span.
	Src *Source
}

// IsEmpty reports whether the cell is LSF's "no value": "-" or "()".
func (c Cell) IsEmpty() bool {
	t := c.Inner()
	return c.Text == "-" || (strings.HasPrefix(c.Text, "(") && strings.TrimSpace(t) == "")
}

// Inner returns the cell's text without one enclosing pair of parentheses,
// trimmed: "(fs cs)" gives "fs cs". Other cells are returned as written.
func (c Cell) Inner() string {
	if len(c.Text) >= 2 && c.Text[0] == '(' && c.Text[len(c.Text)-1] == ')' {
		return strings.TrimSpace(c.Text[1 : len(c.Text)-1])
	}
	return c.Text
}

// A Comment is a comment: a whole line, or the end of a line.
type Comment struct {
	LineInfo
	// Text is the comment as written, from "#" to the end of the line,
	// trailing blanks removed.
	Text     string
	TextSpan Span
}

// Span returns the span of the comment text.
func (c *Comment) Span() Span { return c.TextSpan }

// DirectiveKind names a preprocessor line.
type DirectiveKind uint8

// The preprocessor lines.
const (
	DirIf DirectiveKind = iota + 1
	DirElif
	DirElse
	DirEndif
	DirDefine
	DirInclude
)

var directiveNames = map[string]DirectiveKind{
	"#if": DirIf, "#elif": DirElif, "#else": DirElse, "#endif": DirEndif,
	"#define": DirDefine, "#include": DirInclude,
}

func (k DirectiveKind) String() string {
	for name, v := range directiveNames {
		if v == k {
			return name
		}
	}
	return "#?"
}

// A Directive is a preprocessor line of an lsb.* file (#if cond, #elif
// cond, #else, #endif, #define NAME cond) or an #INCLUDE "path" line.
type Directive struct {
	LineInfo
	Kind DirectiveKind
	// Keyword is the directive word as written ("#if", "#INCLUDE").
	Keyword Word
	// Name is the macro name of #define; empty otherwise.
	Name Word
	// Arg is the condition of #if, #elif and #define, or the path of
	// #INCLUDE without its quotes; empty otherwise.
	Arg Word
}

// Span returns the span of the directive line.
func (d *Directive) Span() Span { return d.Whole }

// A Branch is one arm of an #if chain: the lines after an #if, #elif or
// #else up to the next line of the chain.
type Branch struct {
	// Open is the #if, #elif or #else that starts the branch.
	Open *Directive
	// If is the #if of the chain.
	If *Directive
	// Parent is the branch holding the #if, or nil.
	Parent *Branch
}

// A Stray is a line LSF ignores: text outside any section, or a line that
// could not be read as anything else. It is kept so that the printer
// loses nothing.
type Stray struct {
	LineInfo
	Text string
}

// Span returns the span of the line.
func (s *Stray) Span() Span { return s.Whole }
