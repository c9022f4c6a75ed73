package lang

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Severity orders diagnostics: Info < Warning < Error.
type Severity uint8

// The severities. The zero Severity is not valid.
const (
	Info Severity = iota + 1
	Warning
	Error
)

func (s Severity) String() string {
	switch s {
	case Info:
		return "info"
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return fmt.Sprintf("severity(%d)", uint8(s))
}

// ParseSeverity reads "error", "warning" or "info" (any case).
func ParseSeverity(s string) (Severity, error) {
	switch strings.ToLower(s) {
	case "error":
		return Error, nil
	case "warning", "warn":
		return Warning, nil
	case "info":
		return Info, nil
	}
	return 0, fmt.Errorf("unknown severity %q (want error, warning or info)", s)
}

// A Code names a class of diagnostic: "LSF" and three digits. Codes are
// stable: a code, once given a meaning, keeps it. 1xx are syntax, 2xx keys
// and values, 3xx cross-file references, 4xx resource requirements, 5xx
// policy smells, 6xx runtime and reload.
type Code string

// A Diagnostic is one finding about the input: a user mistake, or something
// the user should know. Machine failures (I/O, internal bugs) are errors,
// not Diagnostics.
type Diagnostic struct {
	Severity Severity
	Code     Code
	// Message is lower-case, has no final period, and quotes user text
	// with %q.
	Message string
	// Span is the smallest span that shows the mistake.
	Span Span
	// Related points at other places that explain this one, such as the
	// first definition of a duplicate.
	Related []Related
	// Fix, when not nil, is an edit that is safe to apply.
	Fix *Fix
}

// A Related note points at a place connected to a Diagnostic.
type Related struct {
	Span    Span
	Message string
}

// A Fix is a suggested change made of edits to the input.
type Fix struct {
	Message string
	Edits   []Edit
	// Safe marks a fix that cannot change what the author meant: it
	// spells a keyword, key or section name the way LSF reads it, or
	// writes what LSF would otherwise misread. Only safe fixes are applied
	// by lsfc lint --fix; the others are shown as suggestions.
	Safe bool
}

// An Edit replaces the text of Span with NewText.
type Edit struct {
	Span    Span
	NewText string
}

// Error returns the one-line form "path:line:col: severity: message [CODE]".
func (d *Diagnostic) Error() string {
	var b strings.Builder
	if d.Span.IsValid() {
		p := d.Span.StartPos()
		fmt.Fprintf(&b, "%s:%d:%d: ", d.Span.Path(), p.Line, p.Col)
	}
	fmt.Fprintf(&b, "%s: %s", d.Severity, d.Message)
	if d.Code != "" {
		fmt.Fprintf(&b, " [%s]", d.Code)
	}
	return b.String()
}

// Diagnostics is a list of Diagnostic. A nil list is empty and valid.
type Diagnostics []*Diagnostic

// Err returns nil when ds holds no error-level diagnostic, and otherwise an
// error describing the first one and how many more there are.
func (ds Diagnostics) Err() error {
	n := ds.Count(Error)
	if n == 0 {
		return nil
	}
	return diagError{ds: ds, n: n}
}

type diagError struct {
	ds Diagnostics
	n  int
}

func (e diagError) Error() string {
	for _, d := range e.ds {
		if d.Severity == Error {
			if e.n == 1 {
				return d.Error()
			}
			return fmt.Sprintf("%s (and %d more errors)", d.Error(), e.n-1)
		}
	}
	return ""
}

// Diagnostics returns the list behind an error returned by Err.
func (e diagError) Diagnostics() Diagnostics { return e.ds }

// HasErrors reports whether ds holds an error-level diagnostic.
func (ds Diagnostics) HasErrors() bool { return ds.Count(Error) > 0 }

// Count returns how many diagnostics of severity sev ds holds.
func (ds Diagnostics) Count(sev Severity) int {
	n := 0
	for _, d := range ds {
		if d.Severity == sev {
			n++
		}
	}
	return n
}

// AtLeast returns how many diagnostics are at or above severity sev.
func (ds Diagnostics) AtLeast(sev Severity) int {
	n := 0
	for _, d := range ds {
		if d.Severity >= sev {
			n++
		}
	}
	return n
}

// Sort orders ds by path, then position, then code and message, so that
// the same input always gives the same output.
func (ds Diagnostics) Sort() {
	slices.SortStableFunc(ds, compareDiag)
}

func compareDiag(a, b *Diagnostic) int {
	ra, rb := a.Span.Root(), b.Span.Root()
	var pa, pb string
	if ra.Src != nil {
		pa = ra.Src.Name
	}
	if rb.Src != nil {
		pb = rb.Src.Name
	}
	return cmp.Or(
		cmp.Compare(pa, pb),
		cmp.Compare(ra.Start, rb.Start),
		cmp.Compare(ra.End, rb.End),
		cmp.Compare(a.Code, b.Code),
		cmp.Compare(a.Message, b.Message),
	)
}

// Add appends a diagnostic built from its parts and returns it so that
// callers can attach related notes or a fix.
func (ds *Diagnostics) Add(sev Severity, code Code, sp Span, format string, args ...any) *Diagnostic {
	d := &Diagnostic{Severity: sev, Code: code, Span: sp, Message: fmt.Sprintf(format, args...)}
	*ds = append(*ds, d)
	return d
}

// Note attaches a related note to d and returns d.
func (d *Diagnostic) Note(sp Span, format string, args ...any) *Diagnostic {
	d.Related = append(d.Related, Related{Span: sp, Message: fmt.Sprintf(format, args...)})
	return d
}

// Suggest attaches a fix replacing sp with text and returns d.
func (d *Diagnostic) Suggest(message string, sp Span, text string) *Diagnostic {
	d.Fix = &Fix{Message: message, Edits: []Edit{{Span: sp, NewText: text}}}
	return d
}

// SuggestSafe attaches a safe fix (see Fix.Safe) and returns d.
func (d *Diagnostic) SuggestSafe(message string, sp Span, text string) *Diagnostic {
	d.Suggest(message, sp, text)
	d.Fix.Safe = true
	return d
}
