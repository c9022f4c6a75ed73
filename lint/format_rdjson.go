package lint

import (
	"encoding/json"
	"io"

	"github.com/lsfc/lsfc/lang"
)

// The types of reviewdog's Diagnostic message, as rdjsonl writes it
// (github.com/reviewdog/reviewdog/proto/rdf). Columns count bytes, as
// reviewdog's do, and ranges end before their end position.
type (
	rdDiagnostic struct {
		Message     string         `json:"message"`
		Location    *rdLocation    `json:"location,omitempty"`
		Severity    string         `json:"severity"`
		Source      rdSource       `json:"source"`
		Code        *rdCode        `json:"code,omitempty"`
		Suggestions []rdSuggestion `json:"suggestions,omitempty"`
	}
	rdLocation struct {
		Path  string  `json:"path"`
		Range rdRange `json:"range"`
	}
	rdRange struct {
		Start rdPosition `json:"start"`
		End   rdPosition `json:"end"`
	}
	rdPosition struct {
		Line   int `json:"line"`
		Column int `json:"column"`
	}
	rdSource struct {
		Name string `json:"name"`
		URL  string `json:"url"`
	}
	rdCode struct {
		Value string `json:"value"`
		URL   string `json:"url,omitempty"`
	}
	rdSuggestion struct {
		Range rdRange `json:"range"`
		Text  string  `json:"text"`
	}
)

// writeRDJSONL writes ds as reviewdog's rdjsonl: one Diagnostic object per
// line. Related notes and the fix's description are appended to the
// message, since the format has no place for them; fix edits become
// suggestions when they are in the diagnostic's file, the only file a
// suggestion can change.
func writeRDJSONL(w io.Writer, ds lang.Diagnostics, opts WriteOptions) error {
	paths, err := newPathMapper(opts.Base)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, d := range ds {
		rd := rdDiagnostic{
			Message:  detailedMessage(paths, d),
			Severity: rdSeverity(d.Severity),
			Source:   rdSource{Name: "lsfc", URL: projectURL},
		}
		if d.Code != "" {
			rd.Code = &rdCode{Value: string(d.Code), URL: HelpURI(d.Code)}
		}
		if d.Span.IsValid() {
			p, _ := paths.rel(d.Span.Path())
			rd.Location = &rdLocation{Path: p, Range: rdRangeOf(d.Span)}
			if d.Fix != nil {
				for _, e := range d.Fix.Edits {
					if e.Span.IsValid() && e.Span.Root().Src == d.Span.Root().Src {
						rd.Suggestions = append(rd.Suggestions, rdSuggestion{Range: rdRangeOf(e.Span), Text: e.NewText})
					}
				}
			}
		}
		if err := enc.Encode(rd); err != nil {
			return err
		}
	}
	return nil
}

func rdSeverity(s lang.Severity) string {
	switch s {
	case lang.Error:
		return "ERROR"
	case lang.Warning:
		return "WARNING"
	}
	return "INFO"
}

// rdRangeOf returns the range of a valid span in its root file.
func rdRangeOf(sp lang.Span) rdRange {
	r := sp.Root()
	start, end := r.Src.Pos(r.Start), r.Src.Pos(r.End)
	return rdRange{
		Start: rdPosition{Line: start.Line, Column: byteCol(r.Src, r.Start)},
		End:   rdPosition{Line: end.Line, Column: byteCol(r.Src, r.End)},
	}
}
