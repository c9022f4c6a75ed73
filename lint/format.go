package lint

import (
	"fmt"
	"io"
	"slices"

	"github.com/lsfc/lsfc/lang"
)

// Formats lists the output formats Write accepts.
func Formats() []string { return []string{"text", "json"} }

// WriteOptions configure Write.
type WriteOptions struct {
	// Base is the directory that paths in SARIF, GitHub and rdjsonl output
	// are made relative to; "" means the working directory.
	Base string
	// Version is lsfc's version, written where a format records the tool's.
	Version string
}

// Write renders ds in the named format: "text" (path:line:col: severity:
// message [CODE], the source line and a caret underline) or "json" (an
// array of objects with path, line, col, endLine, endCol, severity, code,
// message, related and fix).
func Write(w io.Writer, format string, ds lang.Diagnostics, opts WriteOptions) error {
	switch format {
	case "text", "":
		return ds.WriteText(w)
	case "json":
		return ds.WriteJSON(w)
	}
	return fmt.Errorf("unknown format %q (want one of %v)", format, Formats())
}

// ValidFormat reports whether Write accepts format.
func ValidFormat(format string) bool { return slices.Contains(Formats(), format) }
