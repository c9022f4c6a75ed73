package lang

import (
	"fmt"
	"strings"
)

// ConfigParser parses configuration files. Its zero value uses the default
// Limits.
type ConfigParser struct {
	Limits Limits
}

// ParseConfig parses src as a configuration file of the given kind with the
// default limits. See ConfigParser.Parse.
func ParseConfig(src *Source, kind FileKind) (*File, Diagnostics) {
	return ConfigParser{}.Parse(src, kind)
}

// Parse reads src as a file of the given kind (KindUnknown is read with the
// lsb.* rules) and returns its syntax tree and the syntax diagnostics
// (LSF1xx), sorted. The tree is never nil: parsing recovers at line and
// section boundaries, so the tree holds everything that could be read and
// one run reports every mistake.
func (p ConfigParser) Parse(src *Source, kind FileKind) (*File, Diagnostics) {
	lim := p.Limits.withDefaults()
	f := &File{Src: src, Kind: kind}
	sink := &diagSink{max: lim.MaxDiagnostics}
	if len(src.Text) > lim.MaxFileSize {
		sink.add(Error, CodeTooLarge, src.SpanOf(0, 0),
			"file is %d bytes, more than the %d bytes lsfc reads", len(src.Text), lim.MaxFileSize)
		return f, sink.finish(src)
	}
	if i := strings.IndexByte(src.Text, 0); i >= 0 {
		sink.add(Error, CodeBinary, src.SpanOf(i, i+1), "file holds a NUL byte; it is not a text file")
		return f, sink.finish(src)
	}
	sc := &scanner{src: src, text: src.Text, kind: kind, fam: kind.Family(), lim: lim, diags: sink}
	sc.scan()
	toks := balance(sc.items, kind, sink, src)
	if err := assemble(f, sc.items, toks, sink); err != nil {
		panic(err) // a bug: balance must make every stream parse
	}
	ds := sink.finish(src)
	ds.Sort()
	return f, ds
}

// shapeSection sorts a section's body into its form: KEY = value lines or
// a header and rows. It reports lines of the other form, rows whose length
// differs from the header, repeated columns and an End naming another
// section.
func shapeSection(sec *Section, diags *diagSink) {
	if e := sec.End; e != nil && e.Name.Text != "" && sec.Name.Text != "" && !strings.EqualFold(e.Name.Text, sec.Name.Text) {
		diags.add(Error, CodeEndMismatch, e.Name.Span,
			"section %q is closed by \"End %s\"", sec.Name.Text, e.Name.Text).
			Note(sec.Name.Span, "section %q begins here", sec.Name.Text).
			SuggestSafe(fmt.Sprintf("write \"End %s\"", sec.Name.Text), e.Name.Span, sec.Name.Text)
	}
	for _, it := range sec.Body {
		switch it := it.(type) {
		case *Assignment:
			switch sec.Form {
			case FormEmpty:
				sec.Form = FormKeyValue
			case FormTable:
				diags.add(Error, CodeMixedForm, it.Span(),
					"KEY = value line in table section %q; LSF ignores it", sec.Name.Text).
					Note(sec.Header.Span(), "the table's header is here")
				continue
			}
			sec.Assigns = append(sec.Assigns, it)
		case *Row:
			switch sec.Form {
			case FormEmpty:
				sec.Form = FormTable
				sec.Header = it
				checkHeader(it, sec, diags)
				continue
			case FormKeyValue:
				diags.add(Error, CodeMixedForm, it.Span(),
					"expected KEY = value in section %q, found %q; LSF ignores the line", sec.Name.Text, clip(it.Whole.Text())).
					Note(sec.Assigns[0].Key.Span, "the section's first line is a KEY = value line")
				continue
			}
			checkArity(it, sec, diags)
			sec.Rows = append(sec.Rows, it)
		}
	}
}

func checkHeader(h *Row, sec *Section, diags *diagSink) {
	seen := make(map[string]Span, len(h.Cells))
	for _, c := range h.Cells {
		k := strings.ToLower(c.Text)
		if first, ok := seen[k]; ok {
			diags.add(Error, CodeDupColumn, c.Span,
				"column %q appears twice in the header of section %q; LSF ignores the section", c.Text, sec.Name.Text).
				Note(first, "first %q is here", first.Text())
			continue
		}
		seen[k] = c.Span
	}
}

func checkArity(r *Row, sec *Section, diags *diagSink) {
	want, got := len(sec.Header.Cells), len(r.Cells)
	if want == got {
		return
	}
	var d *Diagnostic
	if got > want {
		extra := r.Cells[want].Span.Cover(r.Cells[got-1].Span)
		d = diags.add(Error, CodeRowArity, extra,
			"row has %s but the header of section %q has %d columns; LSF ignores the row", values(got), sec.Name.Text, want)
	} else {
		missing := sec.Header.Cells[got].Text
		d = diags.add(Error, CodeRowArity, r.Span(),
			"row has %s but the header of section %q has %d columns (no value for %s: write () or -); LSF ignores the row",
			values(got), sec.Name.Text, want, missing)
	}
	d.Note(sec.Header.Span(), "the header is here")
}

func values(n int) string {
	if n == 1 {
		return "1 value"
	}
	return fmt.Sprintf("%d values", n)
}
